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

}  // namespace

TEST_CASE("session_table: a call starts in a live session, once per request id") {
  const elicit::http_options limits;
  session_table table(limits);
  boost::asio::io_context io;
  const auto s = table.open(elicit::client_session{}, "127.0.0.1").s;
  REQUIRE(s);
  REQUIRE(table.find(s->id) == s);

  const auto first = table.begin_call(s, json(1), 64, io.get_executor());
  REQUIRE(first.call);
  const auto again = table.begin_call(s, json(1), 64, io.get_executor());
  CHECK_FALSE(again.call);
  CHECK_FALSE(again.session_gone);  // refused for its id, in flight already
  table.end_call(*first.call);
  CHECK(table.begin_call(s, json(1), 64, io.get_executor()).call);
}

TEST_CASE("session_table: a DELETE cancels the calls in flight and refuses a call that found the session before it") {
  // The attack: connection A finds the session (find), connection B deletes it (close), then A
  // registers its call. Registered in the deleted session, nothing would ever cancel it and its
  // question could not be answered (the session is unknown): it would wait the answer timeout.
  const elicit::http_options limits;
  session_table table(limits);
  boost::asio::io_context io;
  const auto s = table.open(elicit::client_session{}, "127.0.0.1").s;
  REQUIRE(s);
  const auto running = table.begin_call(s, json("a"), 64, io.get_executor());
  REQUIRE(running.call);
  const auto found = table.find(s->id);  // connection A, before the DELETE
  REQUIRE(found);

  REQUIRE(table.close(s->id));  // connection B
  CHECK_THROWS_AS(table.answer(*running.call), call_cancelled);
  CHECK_FALSE(table.find(s->id));

  const auto late = table.begin_call(found, json("b"), 64, io.get_executor());
  CHECK_FALSE(late.call);
  CHECK(late.session_gone);
}

TEST_CASE("session_table: a question counts against its session and is freed when it ends") {
  elicit::http_options limits;
  limits.max_waiting_per_session = 1;
  session_table table(limits);
  boost::asio::io_context io;
  const auto s = table.open(elicit::client_session{}, "127.0.0.1").s;
  REQUIRE(s);
  const auto one = table.begin_call(s, json(1), 64, io.get_executor()).call;
  const auto two = table.begin_call(s, json(2), 64, io.get_executor()).call;
  REQUIRE((one && two));
  const long long id = table.start_question(*one, 100);
  CHECK_THROWS_WITH(table.start_question(*two, 100), Catch::Contains("1 of this session's 1"));
  CHECK_FALSE(table.answer(*one));
  CHECK(table.deliver(*s, json{{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"action", "decline"}}}}));
  CHECK_FALSE(table.deliver(*s, json{{"jsonrpc", "2.0"}, {"id", id}, {"result", {{"action", "decline"}}}}));
  const auto answered = table.answer(*one);
  REQUIRE(answered);
  CHECK((*answered)["result"]["action"] == "decline");
  table.end_question(*one, id);
  CHECK_NOTHROW(table.start_question(*two, 100));
}

}  // namespace unit_server_http_session_table
