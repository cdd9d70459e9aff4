// <elicit/server/asio/stdio.hpp>: what only the stdio transport on an Asio executor does: calls
// that wait at once, ids in use, an answer read after a cancellation, stdin from a file, and the
// serving coroutine cancelled. What both transports do, each run on both: ../test_stdio.cpp.
#include "../../support/stdio_client.hpp"

#include <elicit/server/asio/stdio.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>

#include <catch2/catch.hpp>
#include <stdlib.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_asio_stdio {

using namespace server_fixture;
using namespace stdio_client;

TEST_CASE("async_serve_stdio: two calls wait at once, each completes as its question is answered") {
  served s;
  client c(s.server, {}, transport::asio);
  open_session(c);
  c.send(request(1, "tools/call", call_params("reserve", {{"restaurant", "A"}})));
  const json first = c.next();
  c.send(request(2, "tools/call", call_params("reserve", {{"restaurant", "B"}})));
  const json second = c.next();
  CHECK(second["params"]["message"] == "How many guests at B?");
  c.send(answer_to(first, {{"guests", 1}}));  // the first call, answered first, ends first
  const json one = c.next();
  CHECK(one["id"] == 1);
  CHECK(one["result"]["content"][0]["text"] == "Reserved for 1 at A.");
  c.send(answer_to(second, {{"guests", 2}}));
  const json two = c.next();
  CHECK(two["id"] == 2);
  CHECK(two["result"]["content"][0]["text"] == "Reserved for 2 at B.");
  c.join();
  CHECK(c.logged().empty());
}

TEST_CASE("async_serve_stdio: a call whose id is still running is refused, the running one goes on") {
  served s;
  client c(s.server, {}, transport::asio);
  open_session(c);
  c.send(request(7, "tools/call", call_params("reserve")));
  const json question = c.next();
  c.send(request(7, "tools/call", call_params("reserve")));
  CHECK(
      c.next()["error"].dump() ==
      R"({"code":-32600,"message":"Invalid Request: request 7 is still running; a request's id is new while it runs"})");
  c.send(answer_to(question, {{"guests", 4}}));
  const json done = c.next();
  CHECK(done["id"] == 7);
  CHECK(done["result"]["content"][0]["text"] == "Reserved for 4 at Chez Elicit.");
}

TEST_CASE("async_serve_stdio: an answer read after the call's cancellation, in the same read, is not its") {
  served s;
  client c(s.server, {}, transport::asio);
  open_session(c);
  c.send(request(5, "tools/call", call_params("reserve")));
  const json question = c.next();
  // One write: the transport reads both lines before the cancelled call resumes.
  c.send_text(json{{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 5}}}}.dump() +
              "\n" + answer_to(question, {{"guests", 2}}).dump());
  c.send(request(6, "ping"));
  // The question's withdrawal and the ping's answer, in either order (the call resumes when the
  // executor gets to it); no response for 5.
  const json first = c.next(), second = c.next();
  const json& withdrawn = first.contains("method") ? first : second;
  CHECK(withdrawn["method"] == "notifications/cancelled");
  CHECK(withdrawn["params"]["requestId"] == question["id"]);
  CHECK((first.contains("method") ? second : first)["id"] == 6);
  c.join();
  auto logged = c.logged();
  std::sort(logged.begin(), logged.end());
  CHECK(logged ==
        std::vector<std::string>{"ignored a response to request " + question["id"].dump() + ": not waiting for it",
                                 "request 5 ended unanswered: the client cancelled it"});
}

TEST_CASE("async_serve_stdio: stdin redirected from a file (no epoll for it) is read all the same") {
  served s;
  char path[] = "/tmp/elicit_stdio_XXXXXX";
  const int file = ::mkstemp(path);
  REQUIRE(file >= 0);
  ::unlink(path);
  const std::string lines = request(1, "ping").dump() + "\n" + request(2, "tools/list").dump() + "\n";
  REQUIRE(::write(file, lines.data(), lines.size()) == static_cast<ssize_t>(lines.size()));
  REQUIRE(::lseek(file, 0, SEEK_SET) == 0);
  int out[2];
  REQUIRE(::pipe(out) == 0);
  elicit::stdio_options options;
  options.input = file;
  options.output = out[1];
  serve(transport::asio, s.server, options);  // returns at the file's end
  ::close(out[1]);
  ::close(file);
  std::string written;
  char chunk[4096];
  for (ssize_t got = 0; (got = ::read(out[0], chunk, sizeof chunk)) > 0;)
    written.append(chunk, static_cast<std::size_t>(got));
  ::close(out[0]);
  const auto newline = written.find('\n');
  REQUIRE(newline != std::string::npos);
  CHECK(json::parse(written.substr(0, newline))["id"] == 1);
  CHECK(json::parse(written.substr(newline + 1))["result"]["tools"].size() == 3);
}

TEST_CASE("async_serve_stdio: the serving coroutine cancelled while a call waits: the call stops, nothing dangles") {
  served s;
  int in[2], out[2];
  REQUIRE(::pipe(in) == 0);
  REQUIRE(::pipe(out) == 0);
  std::vector<std::string> logged;
  elicit::stdio_options options;
  options.input = in[0];
  options.output = out[1];
  options.log = [&logged](std::string_view line) { logged.emplace_back(line); };
  const std::string lines = request(0, "initialize", initialize_params()).dump() + "\n" +
                            request(1, "tools/call", call_params("reserve")).dump() + "\n";
  REQUIRE(::write(in[1], lines.data(), lines.size()) == static_cast<ssize_t>(lines.size()));
  boost::asio::io_context io;
  boost::asio::cancellation_signal stop;
  bool ended = false;
  boost::asio::co_spawn(
      io, elicit::async_serve_stdio(s.server, options),
      boost::asio::bind_cancellation_slot(stop.slot(), [&ended](const std::exception_ptr&) { ended = true; }));
  std::thread serving([&io] { io.run_for(std::chrono::seconds(10)); });
  // Two lines come back, the initialize result and the question: the call waits.
  std::string written;
  while (std::count(written.begin(), written.end(), '\n') < 2) {
    pollfd fd{.fd = out[0], .events = POLLIN, .revents = 0};
    REQUIRE(::poll(&fd, 1, 5000) == 1);
    char chunk[4096];
    const ssize_t got = ::read(out[0], chunk, sizeof chunk);
    REQUIRE(got > 0);
    written.append(chunk, static_cast<std::size_t>(got));
  }
  CHECK(written.find("elicitation/create") != std::string::npos);
  boost::asio::post(io, [&stop] { stop.emit(boost::asio::cancellation_type::terminal); });
  serving.join();
  CHECK(ended);
  CHECK(io.stopped());  // nothing left running: the call ended, the connection was freed
  CHECK(logged == std::vector<std::string>{"request 1 ended unanswered: the client went away"});
  for (const int fd : {in[0], in[1], out[0], out[1]}) ::close(fd);
}

}  // namespace unit_server_asio_stdio
