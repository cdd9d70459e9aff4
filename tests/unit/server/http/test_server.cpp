// <elicit/server/http/server.hpp>: the Streamable HTTP
// transport serving the fixture's dispatcher on a free loopback port, spoken to with Beast as a
// client would: both eras' flows, the header rules of 2026-07-28, the session of 2025-11-25, a
// refusal before the body, the principal, and stop(). (The attacks are tests/conformance's, on
// the conformance suite's server, which serves from the same transport.)
#include "../../support/server_fixture.hpp"

#include <elicit/server/http/server.hpp>

#include <boost/asio/connect.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core/flat_buffer.hpp>
#include <boost/beast/core/tcp_stream.hpp>
#include <boost/beast/http.hpp>

#include <catch2/catch.hpp>
#include <poll.h>
#include <sys/socket.h>

#include <array>
#include <cerrno>
#include <chrono>
#include <memory>
#include <string>
#include <thread>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_http_server {

namespace {

namespace http = boost::beast::http;
using nlohmann::json;
using server_fixture::served;

// A server on a free port, run until the test ends: on one thread of its own, or `threads`.
struct running {
  explicit running(const elicit::dispatcher& d, elicit::http_options options = {}, std::size_t threads = 1)
      : http(d, with_threads(options, threads)) {
    thread = std::thread([this] { http.run(); });
  }
  ~running() {
    http.stop();
    thread.join();
  }
  static elicit::http_options with_threads(elicit::http_options o, std::size_t threads) {
    o.threads = threads;
    return o;
  }
  elicit::http_server http;
  std::thread thread;
};

// One connection, as a client opens it.
struct client {
  explicit client(unsigned short port) : stream(io) {
    stream.connect(boost::asio::ip::tcp::endpoint(boost::asio::ip::make_address("127.0.0.1"), port));
  }

  http::response<http::string_body> post(const json& body, const std::map<std::string, std::string>& headers = {}) {
    send(body, headers);
    http::response<http::string_body> res;
    http::read(stream, buffer, res);
    return res;
  }

  void send(const json& body, const std::map<std::string, std::string>& headers = {}) {
    http::request<http::string_body> req{http::verb::post, "/mcp", 11};
    req.set(http::field::host, "127.0.0.1");
    req.set(http::field::content_type, "application/json");
    req.set(http::field::accept, "application/json, text/event-stream");
    for (const auto& [name, value] : headers) req.set(name, value);
    req.body() = body.dump();
    req.prepare_payload();
    http::write(stream, req);
  }

  boost::asio::io_context io;
  boost::beast::tcp_stream stream;
  boost::beast::flat_buffer buffer;
};

json meta_2026(bool form = true) {
  json caps = json::object();
  if (form) caps["elicitation"] = {{"form", json::object()}};
  return {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
          {"io.modelcontextprotocol/clientCapabilities", caps}};
}

std::map<std::string, std::string> headers_2026(const std::string& method, const std::string& name = "") {
  std::map<std::string, std::string> h{{"MCP-Protocol-Version", "2026-07-28"}, {"Mcp-Method", method}};
  if (!name.empty()) h["Mcp-Name"] = name;
  return h;
}

json call_2026(const std::string& tool, json extra = json::object()) {
  json params = {{"name", tool}, {"arguments", json::object()}, {"_meta", meta_2026()}};
  params.update(extra);
  return {{"jsonrpc", "2.0"}, {"id", 7}, {"method", "tools/call"}, {"params", params}};
}

// A 2025-11-25 client's initialize, its id 1.
json initialize_request() {
  return {{"jsonrpc", "2.0"},
          {"id", 1},
          {"method", "initialize"},
          {"params",
           {{"protocolVersion", "2025-11-25"},
            {"capabilities", {{"elicitation", json::object()}}},
            {"clientInfo", {{"name", "t"}, {"version", "1"}}}}}};
}

// A 2025-11-25 tools/call of the fixture's `reserve` (or of `params`), its id `id`.
json call_2025(const json& id, json params = {{"name", "reserve"}}) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", std::move(params)}};
}

// The data of the SSE events in a stream's body read so far, each a JSON-RPC message.
std::vector<json> events_of(const std::string& body) {
  std::vector<json> out;
  for (std::size_t at = body.find("data: "); at != std::string::npos; at = body.find("data: ", at + 1))
    out.push_back(json::parse(body.substr(at + 6, body.find('\n', at) - at - 6)));
  return out;
}

}  // namespace

TEST_CASE("http_server: a 2026-07-28 client lists the tools and answers a round with its sealed state") {
  served s;
  running r(s.server);
  client c(r.http.port());
  auto listed = c.post({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "tools/list"}, {"params", {{"_meta", meta_2026()}}}},
                       headers_2026("tools/list"));
  REQUIRE(listed.result_int() == 200);
  const json list = json::parse(listed.body())["result"];
  CHECK(list["resultType"] == "complete");
  CHECK(list["ttlMs"] == 0);
  CHECK(list["tools"][0]["name"] == "reserve");

  auto first = c.post(call_2026("reserve"), headers_2026("tools/call", "reserve"));
  const json round = json::parse(first.body())["result"];
  REQUIRE(round["resultType"] == "input_required");
  CHECK(round["inputRequests"]["table"]["params"]["message"] == "How many guests at Chez Elicit?");
  auto second = c.post(
      call_2026("reserve", {{"inputResponses", {{"table", {{"action", "accept"}, {"content", {{"guests", 4}}}}}}},
                            {"requestState", round["requestState"]}}),
      headers_2026("tools/call", "reserve"));
  const json done = json::parse(second.body())["result"];
  CHECK(done["resultType"] == "complete");
  CHECK(done["content"][0]["text"] == "Reserved for 4 at Chez Elicit.");
}

TEST_CASE("http_server: a 2026-07-28 request whose headers do not match its body is refused with 400") {
  served s;
  running r(s.server);
  client c(r.http.port());
  auto res = c.post(call_2026("reserve"), headers_2026("tools/call", "echo"));
  CHECK(res.result_int() == 400);
  CHECK(json::parse(res.body())["error"]["code"] == -32020);
  auto unknown =
      c.post({{"jsonrpc", "2.0"}, {"id", 2}, {"method", "resources/list"}, {"params", {{"_meta", meta_2026()}}}},
             headers_2026("resources/list"));
  CHECK(unknown.result_int() == 404);
  CHECK(json::parse(unknown.body())["error"]["code"] == -32601);
}

TEST_CASE("http_server: a 2025-11-25 session gets the question on the call's stream and the result after its answer") {
  served s;
  running r(s.server);
  client c(r.http.port());
  auto opened = c.post(initialize_request());
  REQUIRE(opened.result_int() == 200);
  const std::string session(opened["Mcp-Session-Id"]);
  REQUIRE_FALSE(session.empty());
  CHECK(json::parse(opened.body())["result"]["protocolVersion"] == "2025-11-25");

  client stream(r.http.port());
  stream.send(call_2025("call-1"), {{"Mcp-Session-Id", session}});
  http::response_parser<http::string_body> parser;
  http::read_header(stream.stream, stream.buffer, parser);
  CHECK(parser.get()[http::field::content_type] == "text/event-stream");
  while (events_of(parser.get().body()).empty()) http::read_some(stream.stream, stream.buffer, parser);
  const json question = events_of(parser.get().body()).at(0);
  CHECK(question["method"] == "elicitation/create");
  CHECK(question["params"]["message"] == "How many guests at Chez Elicit?");

  auto answered = c.post(
      {{"jsonrpc", "2.0"}, {"id", question["id"]}, {"result", {{"action", "accept"}, {"content", {{"guests", 2}}}}}},
      {{"Mcp-Session-Id", session}});
  CHECK(answered.result_int() == 202);
  while (!parser.is_done()) http::read_some(stream.stream, stream.buffer, parser);
  const auto events = events_of(parser.get().body());
  REQUIRE(events.size() == 2);
  CHECK(events[1]["id"] == "call-1");
  CHECK(events[1]["result"]["content"][0]["text"] == "Reserved for 2 at Chez Elicit.");

  auto again = c.post(
      {{"jsonrpc", "2.0"}, {"id", question["id"]}, {"result", {{"action", "accept"}, {"content", {{"guests", 2}}}}}},
      {{"Mcp-Session-Id", session}});
  CHECK(again.result_int() == 400);  // answered once: no question waits under that id
  auto unknown = c.post({{"jsonrpc", "2.0"}, {"id", 3}, {"method", "ping"}}, {{"Mcp-Session-Id", "no-such-session"}});
  CHECK(unknown.result_int() == 404);
}

namespace {

// A 2025-11-25 session opened on `c`: its id.
std::string open_session(client& c) {
  auto opened = c.post(initialize_request());
  REQUIRE(opened.result_int() == 200);
  return std::string(opened["Mcp-Session-Id"]);
}

// Reads a stream's events until `enough` of them came (or the stream ended).
std::vector<json> read_events(client& c, http::response_parser<http::string_body>& parser, std::size_t enough) {
  while (!parser.is_done() && events_of(parser.get().body()).size() < enough)
    http::read_some(c.stream, c.buffer, parser);
  return events_of(parser.get().body());
}

}  // namespace

TEST_CASE("http_server: a question unanswered within the answer timeout is withdrawn, and its connection goes on") {
  served s;
  elicit::http_options options;
  options.answer_timeout = std::chrono::seconds(1);
  running r(s.server, options);
  client c(r.http.port());
  const std::string session = open_session(c);
  client stream(r.http.port());
  stream.send(call_2025("call-1"), {{"Mcp-Session-Id", session}});
  http::response_parser<http::string_body> parser;
  http::read_header(stream.stream, stream.buffer, parser);
  const auto asked = std::chrono::steady_clock::now();
  while (!parser.is_done()) http::read_some(stream.stream, stream.buffer, parser);
  const auto waited = std::chrono::steady_clock::now() - asked;
  const auto events = events_of(parser.get().body());
  REQUIRE(events.size() == 3);
  CHECK(events[0]["method"] == "elicitation/create");
  CHECK(events[1]["method"] == "notifications/cancelled");
  CHECK(events[1]["params"]["requestId"] == events[0]["id"]);
  CHECK(events[1]["params"]["reason"] == "No answer came in time");
  CHECK(events[2]["id"] == "call-1");
  CHECK(events[2]["result"]["isError"] == true);
  CHECK(waited >= std::chrono::milliseconds(900));
  CHECK(waited < std::chrono::seconds(5));
  auto late = c.post(
      {{"jsonrpc", "2.0"}, {"id", events[0]["id"]}, {"result", {{"action", "accept"}, {"content", {{"guests", 2}}}}}},
      {{"Mcp-Session-Id", session}});
  CHECK(late.result_int() == 400);  // withdrawn: no question waits under that id
  // The stream's connection is the client's again: its next request is read and answered.
  auto ping = stream.post({{"jsonrpc", "2.0"}, {"id", "after"}, {"method", "ping"}}, {{"Mcp-Session-Id", session}});
  CHECK(ping.result_int() == 200);
  CHECK(json::parse(ping.body())["id"] == "after");
}

TEST_CASE(
    "http_server: a waiting call with a progress token gets progress on its stream, counting up, until answered") {
  served s;
  elicit::http_options options;
  options.progress_interval = std::chrono::milliseconds(100);
  running r(s.server, options);
  client c(r.http.port());
  const std::string session = open_session(c);
  client stream(r.http.port());
  stream.send(call_2025(9, {{"name", "reserve"}, {"_meta", {{"progressToken", "p-9"}}}}),
              {{"Mcp-Session-Id", session}});
  http::response_parser<http::string_body> parser;
  http::read_header(stream.stream, stream.buffer, parser);
  auto events = read_events(stream, parser, 4);
  REQUIRE(events.size() >= 4);
  CHECK(events[0]["method"] == "elicitation/create");
  for (std::size_t i = 1; i < 4; ++i) {
    CHECK(events[i]["method"] == "notifications/progress");
    CHECK(events[i]["params"]["progressToken"] == "p-9");
    CHECK(events[i]["params"]["progress"] == i);
  }
  auto answered = c.post(
      {{"jsonrpc", "2.0"}, {"id", events[0]["id"]}, {"result", {{"action", "accept"}, {"content", {{"guests", 5}}}}}},
      {{"Mcp-Session-Id", session}});
  CHECK(answered.result_int() == 202);
  while (!parser.is_done()) http::read_some(stream.stream, stream.buffer, parser);
  events = events_of(parser.get().body());
  CHECK(events.back()["id"] == 9);
  CHECK(events.back()["result"]["content"][0]["text"] == "Reserved for 5 at Chez Elicit.");
}

TEST_CASE("http_server: a request from a foreign Host is refused before its body is read, and the connection closed") {
  served s;
  running r(s.server);
  client c(r.http.port());
  auto res = c.post({{"jsonrpc", "2.0"}, {"id", 1}, {"method", "ping"}}, {{"Host", "evil.example"}});
  CHECK(res.result_int() == 403);
  CHECK_FALSE(res.keep_alive());
}

TEST_CASE("http_server: the principal a sealed state is bound to comes from http_options::principal") {
  served s;
  elicit::http_options options;
  options.principal = [](const boost::beast::http::fields& f) { return std::string(f["X-User"]); };
  running r(s.server, options);
  client c(r.http.port());
  auto first = c.post(call_2026("reserve"), [] {
    auto h = headers_2026("tools/call", "reserve");
    h["X-User"] = "ada";
    return h;
  }());
  const json round = json::parse(first.body())["result"];
  auto retry = [&](const std::string& user) {
    auto h = headers_2026("tools/call", "reserve");
    h["X-User"] = user;
    return c.post(
        call_2026("reserve", {{"inputResponses", {{"table", {{"action", "accept"}, {"content", {{"guests", 3}}}}}}},
                              {"requestState", round["requestState"]}}),
        h);
  };
  CHECK(json::parse(retry("mallory").body())["error"]["message"] == "invalid or expired requestState");
  CHECK(json::parse(retry("ada").body())["result"]["content"][0]["text"] == "Reserved for 3 at Chez Elicit.");
}

TEST_CASE("http_server: listening on a port in use throws, saying where") {
  served s;
  running r(s.server);
  elicit::http_options taken;
  taken.port = r.http.port();
  // reuse_address lets a second listener bind on Linux only when the first is gone: here it is not.
  try {
    elicit::http_server second(s.server, taken);
    FAIL("a second server listened on the same port");
  } catch (const std::runtime_error& e) {
    CHECK(std::string(e.what()).find("cannot listen on 127.0.0.1:") != std::string::npos);
  }
}

TEST_CASE("http_server: a session request whose _meta names 2026-07-28 is refused, not run as a round unchecked") {
  // Review finding: the transport took the header's 2025 era, the dispatcher the _meta's 2026 one,
  // so the round ran with none of 2026-07-28's header checks (Mcp-Method, Mcp-Name) and its
  // errors got 200.
  served s;
  running r(s.server);
  client c(r.http.port());
  auto opened =
      c.post({{"jsonrpc", "2.0"},
              {"id", 1},
              {"method", "initialize"},
              {"params", {{"protocolVersion", "2025-11-25"}, {"capabilities", {{"elicitation", json::object()}}}}}});
  const std::string session(opened["Mcp-Session-Id"]);
  auto mixed = c.post(call_2026("reserve"), {{"Mcp-Session-Id", session}, {"MCP-Protocol-Version", "2025-11-25"}});
  CHECK(mixed.result_int() == 400);
  CHECK(json::parse(mixed.body())["error"]["code"] == -32020);
}

TEST_CASE("http_server: an HTTP version other than 1.0 and 1.1 is refused, and answered in HTTP/1.1") {
  served s;
  running r(s.server);
  client c(r.http.port());
  const std::string raw =
      "POST /mcp HTTP/2.0\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      "Content-Length: 2\r\n\r\n{}";
  boost::asio::write(c.stream.socket(), boost::asio::buffer(raw));
  http::response<http::string_body> res;
  boost::beast::error_code ec;
  http::read(c.stream, c.buffer, res, ec);
  CHECK((res.result_int() == 400 || res.result_int() == 505));  // Beast's parser, or the header check
  CHECK(res.body().find("version") != std::string::npos);
  CHECK(res.version() == 11);
}

}  // namespace unit_server_http_server

namespace unit_server_http_server {

namespace {

// Whether the server closed `c`'s connection within `limit` (what it still sends is skipped).
bool closed_within(client& c, std::chrono::milliseconds limit) {
  const auto until = std::chrono::steady_clock::now() + limit;
  pollfd watch{c.stream.socket().native_handle(), POLLIN, 0};
  for (auto now = std::chrono::steady_clock::now(); now < until; now = std::chrono::steady_clock::now()) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(until - now);
    if (::poll(&watch, 1, static_cast<int>(left.count())) <= 0) continue;
    std::array<char, 4096> bytes{};
    const ssize_t n = ::recv(watch.fd, bytes.data(), bytes.size(), MSG_DONTWAIT);
    if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("http_server on three threads: an answer wakes its stream on another thread, and stop() ends it") {
  // Connections are dealt to the threads' event loops in turn: the session's connection and each
  // call's stream are on different loops, so every answer wakes a stream on another thread.
  served s;
  auto r = std::make_unique<running>(s.server, elicit::http_options{}, 3);
  REQUIRE(r->http.threads() == 3);
  client c(r->http.port());
  const std::string session = open_session(c);
  for (int call = 0; call < 6; ++call) {
    client stream(r->http.port());
    stream.send(call_2025(call), {{"Mcp-Session-Id", session}});
    http::response_parser<http::string_body> parser;
    const json question = read_events(stream, parser, 1).at(0);
    REQUIRE(question["method"] == "elicitation/create");
    auto answered = c.post({{"jsonrpc", "2.0"},
                            {"id", question["id"]},
                            {"result", {{"action", "accept"}, {"content", {{"guests", call + 1}}}}}},
                           {{"Mcp-Session-Id", session}});
    CHECK(answered.result_int() == 202);
    const auto events = read_events(stream, parser, 2);
    REQUIRE(events.size() == 2);
    CHECK(events[1]["result"]["content"][0]["text"] == "Reserved for " + std::to_string(call + 1) + " at Chez Elicit.");
  }
  // Questions still waiting on two loops when the server stops: run() returns, and the server
  // is destroyed with them (every loop's handlers before any loop's services).
  client one(r->http.port());
  client two(r->http.port());
  http::response_parser<http::string_body> p1;
  http::response_parser<http::string_body> p2;
  one.send(call_2025("w1"), {{"Mcp-Session-Id", session}});
  two.send(call_2025("w2"), {{"Mcp-Session-Id", session}});
  CHECK(read_events(one, p1, 1).size() == 1);
  CHECK(read_events(two, p2, 1).size() == 1);
  r.reset();  // stop(), join run(), destroy
  CHECK(closed_within(one, std::chrono::seconds(5)));
  CHECK(closed_within(two, std::chrono::seconds(5)));
}

}  // namespace unit_server_http_server
