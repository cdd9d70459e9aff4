// <elicit/server/http/detail/session_table.hpp>: the 2025-11-25 sessions of the HTTP transport,
// their calls in flight and the questions they wait on; what a DELETE does to a call that is
// starting at the same moment on another connection.
#include <elicit/server/http/detail/session_table.hpp>

#include <boost/asio/io_context.hpp>

#include <catch2/catch.hpp>

#include <memory>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_http_session_table {

namespace {

using elicit::detail::http::call_cancelled;
using elicit::detail::http::session_table;
using nlohmann::json;

// A table under `limits`, one session open in it, and an executor for its calls.
struct one_session {
  explicit one_session(elicit::http_options l = {}) : limits(l), table(limits) {
    s = table.open(elicit::client_session{}, "127.0.0.1").s;
    REQUIRE(s);
  }
  elicit::detail::http::begun_call begin(const json& id) { return table.begin_call(s, id, 64, io.get_executor()); }

  const elicit::http_options limits;
  session_table table;
  boost::asio::io_context io;
  std::shared_ptr<elicit::detail::http::session> s;
};

}  // namespace

TEST_CASE("session_table: a call starts in a live session, once per request id") {
  one_session o;
  REQUIRE(o.table.find(o.s->id) == o.s);

  const auto first = o.begin(json(1));
  REQUIRE(first.call);
  const auto again = o.begin(json(1));
  CHECK_FALSE(again.call);
  CHECK_FALSE(again.session_gone);  // refused for its id, in flight already
  o.table.end_call(*first.call);
  CHECK(o.begin(json(1)).call);
}

TEST_CASE("session_table: a DELETE cancels the calls in flight and refuses a call that found the session before it") {
  // The attack: connection A finds the session (find), connection B deletes it (close), then A
  // registers its call. Registered in the deleted session, nothing would ever cancel it and its
  // question could not be answered (the session is unknown): it would wait the answer timeout.
  one_session o;
  const auto running = o.begin(json("a"));
  REQUIRE(running.call);
  const auto found = o.table.find(o.s->id);  // connection A, before the DELETE
  REQUIRE(found);

  REQUIRE(o.table.close(o.s->id));  // connection B
  CHECK_THROWS_AS(o.table.answer(*running.call), call_cancelled);
  CHECK_FALSE(o.table.find(o.s->id));

  const auto late = o.table.begin_call(found, json("b"), 64, o.io.get_executor());
  CHECK_FALSE(late.call);
  CHECK(late.session_gone);
}

TEST_CASE("session_table: a question counts against its session and is freed when it ends") {
  elicit::http_options limits;
  limits.max_waiting_per_session = 1;
  one_session o(limits);
  const auto one = o.begin(json(1)).call;
  const auto two = o.begin(json(2)).call;
  REQUIRE((one && two));
  const long long id = o.table.start_question(*one, 100);
  CHECK_THROWS_WITH(o.table.start_question(*two, 100), Catch::Contains("1 of this session's 1"));
  CHECK_FALSE(o.table.answer(*one));
  const json answer = {{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"action", "decline"}}}};
  CHECK(o.table.deliver(*o.s, answer));
  CHECK_FALSE(o.table.deliver(*o.s, answer));  // answered once
  const auto answered = o.table.answer(*one);
  REQUIRE(answered);
  CHECK((*answered)["result"]["action"] == "decline");
  o.table.end_question(*one, id);
  CHECK_NOTHROW(o.table.start_question(*two, 100));
}

}  // namespace unit_server_http_session_table
