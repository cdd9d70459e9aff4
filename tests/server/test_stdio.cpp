// <elicit/server/stdio.hpp> and <elicit/server/asio/stdio.hpp>: the blocking stdio transport
// and the one on an Asio executor, each on two pipes, a scripted client on the other end: what
// they answer while a question waits (pings, other calls, answers to earlier questions),
// cancellation, progress, the answer timeout, hostile lines, and the input's end. A case that
// holds for both runs on both (`transport`). Every read is bounded in time: a transport that
// fails to answer fails the test, never hangs.
#include "fixture.hpp"

#include <elicit/server/asio/stdio.hpp>
#include <elicit/server/stdio.hpp>

#include <boost/asio/bind_cancellation_slot.hpp>
#include <boost/asio/cancellation_signal.hpp>
#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <signal.h>

#include <catch2/catch.hpp>
#include <poll.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

using namespace server_fixture;

namespace {

enum class transport { blocking, asio };

// Both transports, for the cases that hold for both.
transport each_transport() { return GENERATE(transport::blocking, transport::asio); }

// Serves one client on the calling thread, until the input ends.
void serve(transport t, const elicit::dispatcher& d, const elicit::stdio_options& options) {
  if (t == transport::blocking) return elicit::serve_stdio(d, options);
  boost::asio::io_context io;
  boost::asio::co_spawn(io, elicit::async_serve_stdio(d, options), [](const std::exception_ptr& e) {
    if (e) std::rethrow_exception(e);
  });
  io.run();
}

// A transport on a thread, and the client's end of its two pipes.
class client {
 public:
  explicit client(const elicit::dispatcher& d, elicit::stdio_options options = {}, transport t = transport::blocking) {
    REQUIRE(::pipe(to_server_) == 0);
    REQUIRE(::pipe(from_server_) == 0);
    options.input = to_server_[0];
    options.output = from_server_[1];
    options.log = [this](std::string_view line) {
      const std::lock_guard lock(mutex_);
      logged_.emplace_back(line);
    };
    thread_ = std::thread([&d, options, t] { serve(t, d, options); });
  }
  ~client() {
    close_input();
    if (thread_.joinable()) thread_.join();
    ::close(to_server_[0]);
    ::close(from_server_[0]);
    ::close(from_server_[1]);
  }

  void send_text(const std::string& text) { send_bytes(text + "\n"); }
  void send_bytes(const std::string& bytes) {
    REQUIRE(::write(to_server_[1], bytes.data(), bytes.size()) == static_cast<ssize_t>(bytes.size()));
  }
  void send(const json& message) { send_text(message.dump()); }

  // The next message the server writes, within two seconds.
  json next() {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(2);
    for (;;) {
      if (const auto nl = buffer_.find('\n'); nl != std::string::npos) {
        const json message = json::parse(buffer_.substr(0, nl));
        buffer_.erase(0, nl + 1);
        return message;
      }
      const auto left =
          std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
      pollfd fd{.fd = from_server_[0], .events = POLLIN, .revents = 0};
      REQUIRE(left.count() > 0);
      REQUIRE(::poll(&fd, 1, static_cast<int>(left.count())) == 1);
      char chunk[4096];
      const ssize_t got = ::read(from_server_[0], chunk, sizeof chunk);
      REQUIRE(got > 0);
      buffer_.append(chunk, static_cast<std::size_t>(got));
    }
  }

  void close_input() {
    if (to_server_[1] >= 0) ::close(to_server_[1]);
    to_server_[1] = -1;
  }
  // Waits for serve_stdio to return (it must, once the input ended).
  void join() {
    close_input();
    thread_.join();
  }

  std::vector<std::string> logged() {
    const std::lock_guard lock(mutex_);
    return logged_;
  }

 private:
  int to_server_[2]{-1, -1}, from_server_[2]{-1, -1};
  std::string buffer_;
  std::thread thread_;
  std::mutex mutex_;
  std::vector<std::string> logged_;
};

json answer_to(const json& question, json content) {
  return {
      {"jsonrpc", "2.0"}, {"id", question["id"]}, {"result", {{"action", "accept"}, {"content", std::move(content)}}}};
}

void open_session(client& c) {
  c.send(request(0, "initialize", initialize_params()));
  CHECK(c.next()["result"]["protocolVersion"] == "2025-11-25");
  c.send({{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}});
}

}  // namespace

TEST_CASE("serve_stdio: a pushed question waits while a ping is answered, then the call completes") {
  served s;
  client c(s.server, {}, each_transport());
  open_session(c);
  c.send(request(1, "tools/call", call_params("reserve")));
  const json question = c.next();
  CHECK(question["method"] == "elicitation/create");
  CHECK(question["params"]["message"] == "How many guests at Chez Elicit?");
  c.send(request("p", "ping"));
  CHECK(c.next().dump() == R"({"id":"p","jsonrpc":"2.0","result":{}})");
  c.send(answer_to(question, {{"guests", 5}}));
  const json done = c.next();
  CHECK(done["id"] == 1);
  CHECK(done["result"]["content"][0]["text"] == "Reserved for 5 at Chez Elicit.");
  c.join();
}

TEST_CASE("serve_stdio (blocking): a call served inside another's wait; the outer's answer, sent first, kept for it") {
  served s;
  client c(s.server);
  open_session(c);
  c.send(request(1, "tools/call", call_params("reserve", {{"restaurant", "A"}})));
  const json outer = c.next();
  c.send(request(2, "tools/call", call_params("reserve", {{"restaurant", "B"}})));
  const json inner = c.next();
  CHECK(inner["params"]["message"] == "How many guests at B?");
  c.send(answer_to(outer, {{"guests", 1}}));  // the outer question, answered first
  c.send(answer_to(inner, {{"guests", 2}}));
  const json first = c.next();
  CHECK(first["id"] == 2);
  CHECK(first["result"]["content"][0]["text"] == "Reserved for 2 at B.");
  const json second = c.next();
  CHECK(second["id"] == 1);
  CHECK(second["result"]["content"][0]["text"] == "Reserved for 1 at A.");
  c.join();
  CHECK(c.logged().empty());
}

TEST_CASE("serve_stdio: a cancelled call stops asking and gets no response; its late answer is logged") {
  served s;
  client c(s.server, {}, each_transport());
  open_session(c);
  c.send(request(5, "tools/call", call_params("reserve")));
  const json question = c.next();
  c.send({{"jsonrpc", "2.0"}, {"method", "notifications/cancelled"}, {"params", {{"requestId", 5}}}});
  // The question is withdrawn, so that the client closes the form.
  CHECK(c.next().dump() == json{{"jsonrpc", "2.0"},
                                {"method", "notifications/cancelled"},
                                {"params", {{"requestId", question["id"]}, {"reason", "The tool call was cancelled"}}}}
                               .dump());
  c.send(answer_to(question, {{"guests", 2}}));
  c.send(request(6, "ping"));
  CHECK(c.next()["id"] == 6);  // nothing was sent for 5
  c.join();
  auto logged = c.logged();  // in either order: the Asio transport's call logs when it resumes
  std::sort(logged.begin(), logged.end());
  CHECK(logged ==
        std::vector<std::string>{"ignored a response to request " + question["id"].dump() + ": not waiting for it",
                                 "request 5 ended unanswered: the client cancelled it"});
}

TEST_CASE("serve_stdio: notifications/progress while a call with a progressToken waits, counting up") {
  served s;
  elicit::stdio_options options;
  options.progress_interval = std::chrono::milliseconds(20);
  client c(s.server, options, each_transport());
  open_session(c);
  json params = call_params("reserve");
  params["_meta"] = {{"progressToken", "tok"}};
  c.send(request(1, "tools/call", params));
  const json question = c.next();
  const json p1 = c.next();
  const json p2 = c.next();
  CHECK(p1["method"] == "notifications/progress");
  CHECK(p1["params"]["progressToken"] == "tok");
  CHECK(p1["params"]["progress"] == 1);
  CHECK(p2["params"]["progress"] == 2);
  c.send(answer_to(question, {{"guests", 3}}));
  json done = c.next();
  while (done.contains("method")) done = c.next();  // a progress sent just before the answer came
  CHECK(done["result"]["content"][0]["text"] == "Reserved for 3 at Chez Elicit.");
}

TEST_CASE("serve_stdio: a question not answered within answer_timeout ends as the tool says") {
  served s;
  elicit::stdio_options options;
  options.answer_timeout = std::chrono::milliseconds(50);
  client c(s.server, options, each_transport());
  open_session(c);
  c.send(request(1, "tools/call", call_params("reserve")));
  const json question = c.next();
  c.send_bytes(R"({"jsonrpc":"2.0",)");  // a line begun and never ended holds no timer back
  const json withdrawn = c.next();
  CHECK(withdrawn["method"] == "notifications/cancelled");
  CHECK(withdrawn["params"]["requestId"] == question["id"]);
  CHECK(withdrawn["params"]["reason"] == "No answer came in time");
  const json done = c.next();
  CHECK(done["id"] == 1);
  CHECK(done["result"]["isError"] == true);
  CHECK(done["result"]["content"][0]["text"] == "Nothing was reserved at Chez Elicit.");
}

TEST_CASE("serve_stdio: hostile lines get their error and the server goes on") {
  served s;
  elicit::stdio_options options;
  options.limits.max_bytes = 64;
  client c(s.server, options, each_transport());
  c.send_text(std::string(100, '['));
  CHECK(c.next()["error"].dump() ==
        R"({"code":-32700,"message":"Parse error: the JSON is 100 bytes long, more than the 64 this server reads"})");
  c.send_text("{\"jsonrpc\":");
  CHECK(c.next()["error"]["code"] == -32700);
  c.send_text("");
  c.send_text("[1]");
  CHECK(c.next()["error"]["code"] == -32600);
  c.send(request(1, "ping"));
  CHECK(c.next()["id"] == 1);
}

TEST_CASE("serve_stdio: more waiting calls than max_waiting are refused; the input's end stops every call") {
  served s;
  elicit::stdio_options options;
  options.max_waiting = 1;
  client c(s.server, options, each_transport());
  open_session(c);
  c.send(request(1, "tools/call", call_params("reserve")));
  (void)c.next();
  c.send(request(2, "tools/call", call_params("reserve")));
  CHECK(c.next()["error"].dump() ==
        R"({"code":-32603,"message":"Server busy: 1 calls wait for answers already; answer their questions first"})");
  c.join();  // returns: the waiting call stopped, unanswered
  CHECK(c.logged() == std::vector<std::string>{"request 1 ended unanswered: the client went away"});
}

TEST_CASE("serve_stdio: 2026-07-28 requests on the same stdin, finished for their era") {
  served s;
  client c(s.server, {}, each_transport());
  c.send(request(1, "tools/list", {{"_meta", meta_2026()}}));
  const json list = c.next();
  CHECK(list["result"]["resultType"] == "complete");
  CHECK(list["result"]["cacheScope"] == "public");
  c.send(request(2, "tools/call", call_2026("reserve")));
  CHECK(c.next()["result"]["resultType"] == "input_required");
}

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

TEST_CASE("async_serve_stdio: a call whose id is still running is refused; the running one goes on") {
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

namespace {

// reserve, and a tool that reads its call after its question: by then the message it came in
// is gone (the Asio transport frees it as soon as the call starts).
struct recalling : served {
  recalling() {
    server.tools().add({"recall", "Says its text back after asking."},
                       [](const elicit::tool_call& call) -> elicit::tool<std::string> {
                         elicit::question<Table> q("table", "How many guests?");
                         const auto table = co_await std::move(q);
                         co_return call.arguments().value("text", std::string("?")) + " for " +
                             std::to_string(table.accepted() ? *table->guests : 0);
                       });
  }
};

}  // namespace

TEST_CASE("stdio transports: a tool reads its call after its question; the call outlives its message") {
  recalling s;
  client c(s.server, {}, each_transport());
  open_session(c);
  c.send(request(1, "tools/call", call_params("recall", {{"text", std::string(300, 'x')}})));
  const json question = c.next();
  c.send(request(2, "ping"));  // more messages read meanwhile, into memory the call's may have had
  CHECK(c.next()["id"] == 2);
  c.send(answer_to(question, {{"guests", 6}}));
  CHECK(c.next()["result"]["content"][0]["text"] == std::string(300, 'x') + " for 6");
}

TEST_CASE("stdio transports: a client that closes its end is gone, not the end of the server (SIGPIPE)") {
  const transport t = each_transport();
  served s;
  int in[2], out[2];
  REQUIRE(::pipe(in) == 0);
  REQUIRE(::pipe(out) == 0);
  ::close(out[0]);  // nobody reads what the server writes: a write raises SIGPIPE
  const std::string lines = request(1, "ping").dump() + "\n" + request(2, "ping").dump() + "\n";
  REQUIRE(::write(in[1], lines.data(), lines.size()) == static_cast<ssize_t>(lines.size()));
  ::close(in[1]);
  elicit::stdio_options options;
  options.input = in[0];
  options.output = out[1];
  serve(t, s.server, options);  // returns: the process is still here
  ::close(in[0]);
  ::close(out[1]);
  struct sigaction now {};
  REQUIRE(::sigaction(SIGPIPE, nullptr, &now) == 0);
  CHECK(now.sa_handler == SIG_IGN);
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

TEST_CASE("stdio transports: a call refused (too many waiting, an id in use) never ran its tool") {
  const transport t = each_transport();
  served s;
  int ran = 0;  // what the tool did before its first question
  s.server.tools().add({"counted", "Counts its runs, then asks."},
                       [&ran](const elicit::tool_call&) -> elicit::tool<elicit::tool_result> {
                         ++ran;
                         elicit::question<Table> q("table", "How many guests?");
                         const auto table = co_await std::move(q);
                         co_return elicit::tool_result{table.accepted() ? "booked" : "not booked"};
                       });
  elicit::stdio_options options;
  options.max_waiting = 1;
  client c(s.server, options, t);
  open_session(c);
  c.send(request(1, "tools/call", call_params("counted")));
  const json question = c.next();
  c.send(request(2, "tools/call", call_params("counted")));
  CHECK(c.next()["error"]["code"] == -32603);
  c.send(answer_to(question, {{"guests", 2}}));
  CHECK(c.next()["result"]["content"][0]["text"] == "booked");
  c.join();
  CHECK(ran == 1);
}
