// The load generator of the serving benchmark (issue 30, item 3): N concurrent MCP clients on
// loopback, one Asio thread, each client a coroutine. It drives any server that serves the
// sample's tools on http://127.0.0.1:PORT/mcp, and measures, in this order on a fresh server:
//   idle    the server's RSS after one warm-up round trip;
//   hold    N clients each with one question waiting (2025-11-25: elicitation/create read off
//           the call's SSE stream and not answered yet; 2026-07-28: the InputRequiredResult
//           received, the retry not sent), the server's RSS then, and the latency of an
//           unrelated request sent meanwhile (ping; server/discover at 2026-07-28, which has no
//           ping); then every held question is answered and its result read;
//   load    N clients in a closed loop for --seconds: each round trip is, at 2025-11-25,
//           initialize, notifications/initialized, tools/call, elicitation/create read off the
//           SSE stream, the accept POSTed with valid content, the tool result read, DELETE; at
//           2026-07-28, tools/call, InputRequiredResult, the retry with inputResponses (and the
//           requestState when there is one), the result. Completed tool calls per second and
//           the p50/p99 latency of the tool call (from its request to its result), errors by kind.
// Its own CPU time and the server's (from /proc) are reported per phase, so that a reader sees
// whether the generator was the bottleneck. Every wait has a deadline; the whole run is bounded.
// Prints one JSON object on stdout.
//   loadgen --port P --version 2025-11-25|2026-07-28 --clients N --server-pid PID [--seconds S]
//           [--max-calls M] [--timeout S] [--per-source K] [--pool K] [--ramp K] [--tool NAME]
#include <boost/asio.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <nlohmann/json.hpp>

#include <netinet/in.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
using asio::awaitable;
using asio::use_awaitable;
using json = nlohmann::ordered_json;  // keys in the order written: the form's order
using clock_type = std::chrono::steady_clock;

namespace {

// ---- Options ---------------------------------------------------------------------------------------

struct options {
  int port = 0;
  std::string version = "2025-11-25";
  std::size_t clients = 100;
  int server_pid = 0;
  double seconds = 10;                // length of the load phase
  std::size_t max_calls = 2'000'000;  // the load phase ends at this many tool calls started, too
  double timeout = 30;                // seconds any one request may take
  std::size_t ramp = 200;             // clients at most on their way to a held question at once
  std::size_t per_source = 100;       // clients per loopback source address (127.1.x.y)
  std::size_t pool = 4;               // connections per source address for answers
  std::string tool;                   // default: the sample's one-form tool of the version
  bool modern() const { return version == "2026-07-28"; }
};

options parse(int argc, char** argv) {
  options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (i + 1 >= argc) throw std::invalid_argument("missing value after " + a);
    const std::string v = argv[++i];
    if (a == "--port") o.port = std::stoi(v);
    else if (a == "--version") o.version = v;
    else if (a == "--clients") o.clients = std::stoul(v);
    else if (a == "--server-pid") o.server_pid = std::stoi(v);
    else if (a == "--seconds") o.seconds = std::stod(v);
    else if (a == "--max-calls") o.max_calls = std::stoul(v);
    else if (a == "--timeout") o.timeout = std::stod(v);
    else if (a == "--per-source") o.per_source = std::max<std::size_t>(1, std::stoul(v));
    else if (a == "--pool") o.pool = std::max<std::size_t>(1, std::stoul(v));
    else if (a == "--ramp") o.ramp = std::max<std::size_t>(1, std::stoul(v));
    else if (a == "--tool") o.tool = v;
    else throw std::invalid_argument("unknown option " + a);
  }
  if (o.port <= 0 || o.port > 65535) throw std::invalid_argument("--port is required");
  if (o.version != "2025-11-25" && o.version != "2026-07-28")
    throw std::invalid_argument("--version is 2025-11-25 or 2026-07-28");
  if (o.clients == 0) throw std::invalid_argument("--clients must be at least 1");
  if (o.tool.empty()) o.tool = o.modern() ? "test_input_required_result_elicitation" : "test_elicitation";
  return o;
}

// ---- /proc and rusage -------------------------------------------------------------------------------

long rss_kib(int pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stol(line.substr(6));
  return -1;
}

// The CPU seconds a process has used (user + system).
double cpu_of_pid(int pid) {
  std::ifstream f("/proc/" + std::to_string(pid) + "/stat");
  std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const auto close = text.rfind(')');
  if (close == std::string::npos) return -1;
  std::istringstream rest(text.substr(close + 2));
  std::string field;
  double utime = 0, stime = 0;
  for (int i = 3; i <= 15 && rest >> field; ++i) {
    if (i == 14) utime = std::stod(field);
    if (i == 15) stime = std::stod(field);
  }
  return (utime + stime) / static_cast<double>(sysconf(_SC_CLK_TCK));
}

double own_cpu() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  const auto s = [](timeval t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; };
  return s(u.ru_utime) + s(u.ru_stime);
}

// CPU used over a phase, as a share of one core.
struct cpu_meter {
  int pid;
  double wall0 = 0, own0 = 0, server0 = 0;
  clock_type::time_point t0;
  explicit cpu_meter(int p) : pid(p) { start(); }
  void start() {
    t0 = clock_type::now();
    own0 = own_cpu();
    server0 = cpu_of_pid(pid);
  }
  json stop() const {
    const double wall = std::chrono::duration<double>(clock_type::now() - t0).count();
    return {{"wall_s", wall},
            {"loadgen_cpu", wall > 0 ? (own_cpu() - own0) / wall : 0},
            {"server_cpu", wall > 0 ? (cpu_of_pid(pid) - server0) / wall : 0}};
  }
};

// ---- Statistics -------------------------------------------------------------------------------------

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return -1;
  std::sort(v.begin(), v.end());
  const auto i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

struct tally {
  std::vector<double> latency_ms;
  std::map<std::string, std::size_t> errors;
  std::size_t completed = 0;
  void error(const std::string& kind) { ++errors[kind]; }
  json errors_json() const {
    json e = json::object();
    for (const auto& [k, n] : errors) e[k] = n;
    return e;
  }
};

// An error text short enough to count by: the first 80 characters, digits of ids left out.
std::string kind_of(std::string text) {
  if (text.size() > 80) text.resize(80);
  return text;
}

// ---- HTTP -------------------------------------------------------------------------------------------

struct failure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const options* opts = nullptr;
// Set while a phase stops its clients: no connection opens again, so every client's coroutine
// ends, and no two phases ever use one connection.
bool stopping = false;

// One keep-alive connection from a given loopback source address, kept as Node's fetch (undici)
// keeps one: idle, it is reused only within the server's announced Keep-Alive timeout less one
// second (4 s when the server announces none), and is otherwise opened anew before a request.
struct connection {
  beast::tcp_stream stream;
  beast::flat_buffer buffer;
  asio::ip::address_v4 source;
  bool open = false;
  std::chrono::steady_clock::time_point idle_since{};
  std::chrono::milliseconds reusable_for{0};  // from idle_since

  connection(asio::any_io_executor ex, asio::ip::address_v4 src) : stream(ex), source(src) {}

  void expire() { stream.expires_after(std::chrono::milliseconds(static_cast<long>(opts->timeout * 1000))); }

  // The response just read left the connection idle: how long it may be reused, by its
  // Keep-Alive header's timeout, as undici reads it.
  void idle(std::string_view keep_alive) {
    idle_since = std::chrono::steady_clock::now();
    std::chrono::milliseconds hinted{4000};
    if (const auto at = keep_alive.find("timeout="); at != std::string_view::npos)
      hinted = std::chrono::seconds(std::atol(std::string(keep_alive.substr(at + 8)).c_str()));
    reusable_for = hinted - std::chrono::milliseconds(1000);
  }

  awaitable<void> ensure() {
    if (open && std::chrono::steady_clock::now() - idle_since >= reusable_for) close();  // undici's rule
    if (open) co_return;
    if (stopping) throw failure("stopped");
    buffer.clear();
    auto& socket = stream.socket();
    socket.open(asio::ip::tcp::v4());
    // The port is chosen at connect(), not at bind(): no port reserved per source address.
    socket.set_option(asio::detail::socket_option::boolean<IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT>(true));
    socket.bind({source, 0});
    socket.set_option(asio::ip::tcp::no_delay(true));
    expire();
    try {
      co_await stream.async_connect(
          asio::ip::tcp::endpoint(asio::ip::address_v4::loopback(), static_cast<unsigned short>(opts->port)),
          use_awaitable);
    } catch (const boost::system::system_error& e) {
      close();
      throw failure("connect: " + e.code().message());
    }
    open = true;
  }

  void close() {
    beast::error_code ignored;
    stream.socket().shutdown(asio::ip::tcp::socket::shutdown_both, ignored);
    stream.socket().close(ignored);
    open = false;
  }
};

using request = http::request<http::string_body>;
using parser = http::response_parser<http::string_body>;

request make_request(http::verb verb, const std::string& body, const std::string& session, const std::string& who) {
  request r{verb, "/mcp", 11};
  r.set(http::field::host, "127.0.0.1:" + std::to_string(opts->port));
  r.set(http::field::accept, "application/json, text/event-stream");
  r.set(http::field::authorization, "Bearer " + who);
  if (!session.empty()) r.set("Mcp-Session-Id", session);
  if (verb == http::verb::post) {
    r.set(http::field::content_type, "application/json");
    r.body() = body;
  }
  r.keep_alive(true);
  r.prepare_payload();
  return r;
}

// 2026-07-28: the headers that mirror the body.
void modern_headers(request& r, const std::string& method, const std::string& name) {
  r.set("MCP-Protocol-Version", "2026-07-28");
  r.set("Mcp-Method", method);
  if (!name.empty()) r.set("Mcp-Name", name);
}

// Reads SSE events out of a streamed body, from `offset` on: each event's data as one string.
std::vector<std::string> take_events(const std::string& body, std::size_t& offset) {
  std::vector<std::string> out;
  for (;;) {
    std::size_t end = body.find("\n\n", offset);
    const std::size_t crlf = body.find("\r\n\r\n", offset);
    std::size_t skip = 2;
    if (crlf != std::string::npos && (end == std::string::npos || crlf < end)) end = crlf, skip = 4;
    if (end == std::string::npos) return out;
    std::string data;
    std::istringstream lines(body.substr(offset, end - offset));
    std::string line;
    while (std::getline(lines, line)) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.rfind("data:", 0) == 0) {
        if (!data.empty()) data += '\n';
        data += line.substr(line.size() > 5 && line[5] == ' ' ? 6 : 5);
      }
    }
    offset = end + skip;
    if (!data.empty()) out.push_back(std::move(data));
  }
}

// A response being read: its status and headers, and its JSON-RPC messages one at a time (a
// JSON body is one message; an SSE body any number).
struct exchange {
  connection& c;
  std::optional<parser> parsed;
  std::size_t offset = 0;
  std::deque<json> pending;
  bool sse = false;

  explicit exchange(connection& conn) : c(conn) { fresh(); }

  void fresh() {
    parsed.emplace();
    parsed->body_limit(64 * 1024 * 1024);
  }
  parser& p() { return *parsed; }
  [[nodiscard]] const parser& p() const { return *parsed; }

  // One try at sending the request and reading the response's header.
  awaitable<beast::error_code> attempt(const request& r) {
    beast::error_code ec;
    co_await c.ensure();
    c.expire();
    co_await http::async_write(c.stream, r, asio::redirect_error(use_awaitable, ec));
    if (!ec) co_await http::async_read_header(c.stream, c.buffer, p(), asio::redirect_error(use_awaitable, ec));
    co_return ec;
  }

  // Sent once: a POST is not sent again on an error (Node's fetch and the SDKs do not resend
  // one), so a keep-alive connection the server closed without saying so is a load error.
  awaitable<void> send(const request& r) {
    const bool reused = c.open;
    beast::error_code ec = co_await attempt(r);
    if (ec && reused && ec != beast::error::timeout) {
      c.close();
      throw failure("reused connection: " + ec.message());
    }
    if (ec) {
      c.close();
      throw failure(ec == beast::error::timeout ? "timeout" : "http: " + ec.message());
    }
    sse = p().get()[http::field::content_type].find("text/event-stream") != std::string_view::npos;
  }

  [[nodiscard]] unsigned status() const { return p().get().result_int(); }
  [[nodiscard]] std::string header(const char* name) const { return std::string(p().get()[name]); }

  // The next message, or nullopt at the end of the body.
  awaitable<std::optional<json>> next() {
    try {
      while (pending.empty()) {
        if (p().is_done()) co_return std::nullopt;
        c.expire();
        if (sse) {
          co_await http::async_read_some(c.stream, c.buffer, p(), use_awaitable);
          for (auto& data : take_events(p().get().body(), offset)) pending.push_back(json::parse(data));
        } else {
          co_await http::async_read(c.stream, c.buffer, p(), use_awaitable);
          if (!p().get().body().empty()) pending.push_back(json::parse(p().get().body()));
        }
      }
    } catch (const boost::system::system_error& e) {
      c.close();
      throw failure(e.code() == beast::error::timeout ? "timeout" : "http: " + e.code().message());
    } catch (const json::exception&) {
      c.close();
      throw failure("a body that is not JSON");
    }
    json m = std::move(pending.front());
    pending.pop_front();
    co_return m;
  }

  // Reads the rest of the body, so the connection can carry the next request.
  awaitable<void> finish() {
    for (;;) {
      const std::optional<json> m = co_await next();
      if (!m) break;
    }
    if (!p().get().keep_alive()) c.close();
    else c.idle(p().get()[http::field::keep_alive]);
  }

  // The next message that is the response to `id` (requests and notifications before it are
  // given to `other`).
  template <class Other>
  awaitable<json> response_to(const json& id, Other&& other) {
    for (;;) {
      auto m = co_await next();
      if (!m) throw failure("HTTP " + std::to_string(status()) + " without a response");
      if (m->contains("method")) {
        co_await other(*m);
        continue;
      }
      if (m->value("id", json()) == id) co_return *m;
    }
  }
  awaitable<json> response_to(const json& id) {
    json m = co_await response_to(id, [](const json&) -> awaitable<bool> { co_return true; });
    co_return m;
  }
};

// A JSON-RPC error or unexpected result as a failure to count.
[[noreturn]] void refused(const json& message, unsigned status) {
  if (message.contains("error"))
    throw failure("HTTP " + std::to_string(status) + " rpc " + std::to_string(message["error"].value("code", 0)) + " " +
                  message["error"].value("message", ""));
  throw failure("HTTP " + std::to_string(status) + " unexpected: " + message.dump().substr(0, 60));
}

// An async mutex for the connections of a pool: single-threaded, hands the lock over in order.
struct pooled {
  std::unique_ptr<connection> c;
  bool busy = false;
  std::deque<std::shared_ptr<asio::steady_timer>> waiters;

  awaitable<void> acquire() {
    if (!busy) {
      busy = true;
      co_return;
    }
    const auto ex = co_await asio::this_coro::executor;
    auto t = std::make_shared<asio::steady_timer>(ex, clock_type::time_point::max());
    waiters.push_back(t);
    beast::error_code ec;
    co_await t->async_wait(asio::redirect_error(use_awaitable, ec));  // cancelled: the lock is ours
  }
  void release() {
    if (waiters.empty()) {
      busy = false;
      return;
    }
    waiters.front()->cancel();
    waiters.pop_front();
  }
};

// ---- The clients ------------------------------------------------------------------------------------

const json capabilities = {{"elicitation", {{"form", json::object()}}}};
const json meta = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                   {"io.modelcontextprotocol/clientCapabilities", capabilities}};

struct source_group {
  asio::ip::address_v4 address;
  std::vector<pooled> pool;
};

// A broadcast: every waiter wakes when it is fired.
struct signal_event {
  asio::steady_timer timer;
  bool fired = false;
  explicit signal_event(asio::any_io_executor ex) : timer(ex, clock_type::time_point::max()) {}
  void fire() {
    fired = true;
    timer.cancel();
  }
  awaitable<void> wait() {
    while (!fired) {
      beast::error_code ec;
      co_await timer.async_wait(asio::redirect_error(use_awaitable, ec));
    }
  }
};

class client {
 public:
  client(std::size_t index, source_group& group, asio::any_io_executor ex)
      : index_(index), group_(group), own_(ex, group.address), who_("bench-client-" + std::to_string(index)) {}

  // One whole round trip; `held` (when given) is awaited between the question and its answer,
  // and `asked` is called when the question is there.
  awaitable<void> round_trip(signal_event* held, const std::function<void()>& asked, tally& t) {
    const auto t0 = clock_type::now();
    if (opts->modern()) co_await modern_round(held, asked);
    else co_await legacy_round(held, asked);
    t.latency_ms.push_back(std::chrono::duration<double, std::milli>(clock_type::now() - t0).count());
    ++t.completed;
  }

  // The latency of one unrelated request (ping, or server/discover at 2026-07-28), in ms.
  awaitable<double> unrelated() {
    const json id = next_id_++;
    json body = {{"jsonrpc", "2.0"}, {"id", id}, {"method", opts->modern() ? "server/discover" : "ping"}};
    if (opts->modern()) body["params"] = {{"_meta", meta}};
    if (!opts->modern() && session_.empty()) co_await initialize();
    const auto t0 = clock_type::now();
    request r = make_request(http::verb::post, body.dump(), session_, who_);
    if (opts->modern()) modern_headers(r, "server/discover", "");
    exchange x(own_);
    co_await x.send(r);
    const json answer = co_await x.response_to(id);
    co_await x.finish();
    if (!answer.contains("result")) refused(answer, x.status());
    co_return std::chrono::duration<double, std::milli>(clock_type::now() - t0).count();
  }

  awaitable<void> end_session() {
    if (session_.empty()) co_return;
    const std::string s = std::exchange(session_, std::string());
    exchange x(own_);
    co_await x.send(make_request(http::verb::delete_, "", s, who_));
    co_await x.finish();
  }

  void drop() { own_.close(); }

  // After a failed round: the connection dropped, then the session closed if the server still
  // takes it (best effort: a failure to close drops the new connection too).
  awaitable<void> abandon() {
    drop();
    try {
      co_await end_session();
    } catch (const std::exception&) {
      drop();
    }
  }

 private:
  awaitable<void> initialize() {
    const json id = next_id_++;
    const json body = {{"jsonrpc", "2.0"},
                       {"id", id},
                       {"method", "initialize"},
                       {"params",
                        {{"protocolVersion", "2025-11-25"},
                         {"capabilities", capabilities},
                         {"clientInfo", {{"name", "elicit-bench-loadgen"}, {"version", "0.1.0"}}}}}};
    exchange x(own_);
    co_await x.send(make_request(http::verb::post, body.dump(), "", who_));
    const json answer = co_await x.response_to(id);
    const std::string session = x.header("Mcp-Session-Id");
    co_await x.finish();
    if (!answer.contains("result") || session.empty()) refused(answer, x.status());
    session_ = session;
    exchange n(own_);
    const json initialized = {{"jsonrpc", "2.0"}, {"method", "notifications/initialized"}};
    const request r = make_request(http::verb::post, initialized.dump(), session_, who_);
    co_await n.send(r);
    co_await n.finish();
    if (n.status() != 202 && n.status() != 200) throw failure("HTTP " + std::to_string(n.status()) + " to initialized");
  }

  // 2025-11-25: the question comes on the call's stream; the answer goes on a pool connection.
  awaitable<void> legacy_round(signal_event* held, const std::function<void()>& asked) {
    co_await initialize();
    const json id = next_id_++;
    const json call = {{"jsonrpc", "2.0"},
                       {"id", id},
                       {"method", "tools/call"},
                       {"params", {{"name", opts->tool}, {"arguments", {{"message", "Who are you?"}}}}}};
    exchange x(own_);
    co_await x.send(make_request(http::verb::post, call.dump(), session_, who_));
    bool answered = false;
    const json result = co_await x.response_to(id, [&](const json& m) -> awaitable<bool> {
      if (m.value("method", "") != "elicitation/create" || !m.contains("id")) co_return true;
      if (answered) throw failure("asked twice");
      answered = true;
      asked();
      if (held) co_await held->wait();
      co_await answer(m["id"]);
      co_return true;
    });
    co_await x.finish();
    if (result.contains("error")) refused(result, x.status());  // e.g. too many questions waiting
    if (!answered) throw failure("no elicitation/create before the result");
    check_result(
        result, x.status(),
        "User response: action=accept, content={\"username\":\"" + who_ + "\",\"email\":\"" + who_ + "@example.com\"}");
    co_await end_session();
  }

  awaitable<void> answer(const json& question_id) {
    pooled& slot = group_.pool[index_ % group_.pool.size()];
    co_await slot.acquire();
    struct releaser {
      pooled& s;
      ~releaser() { s.release(); }
    } release{slot};
    const json body = {
        {"jsonrpc", "2.0"},
        {"id", question_id},
        {"result", {{"action", "accept"}, {"content", {{"username", who_}, {"email", who_ + "@example.com"}}}}}};
    exchange x(*slot.c);
    co_await x.send(make_request(http::verb::post, body.dump(), session_, who_));
    co_await x.finish();
    if (x.status() != 202 && x.status() != 200) throw failure("HTTP " + std::to_string(x.status()) + " to the answer");
  }

  // 2026-07-28: InputRequiredResult, then the retry with the answer, both on the own connection.
  awaitable<void> modern_round(signal_event* held, const std::function<void()>& asked) {
    const json id = next_id_++;
    json params = {{"name", opts->tool}, {"arguments", json::object()}, {"_meta", meta}};
    const json first = co_await modern_call(id, params);
    const json& r = first.contains("result") ? first["result"] : json::object();
    if (r.value("resultType", "") != "input_required" || !r.contains("inputRequests") ||
        !r["inputRequests"].is_object() || r["inputRequests"].size() != 1)
      refused(first, 200);
    const std::string key = r["inputRequests"].begin().key();
    asked();
    if (held) co_await held->wait();
    params["inputResponses"] = {{key, {{"action", "accept"}, {"content", {{"name", who_}}}}}};
    if (r.contains("requestState")) params["requestState"] = r["requestState"];
    const json retry_id = next_id_++;
    const json second = co_await modern_call(retry_id, params);
    check_result(second, 200, "Hello, " + who_ + "!");
  }

  awaitable<json> modern_call(const json& id, const json& params) {
    const json body = {{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", params}};
    request r = make_request(http::verb::post, body.dump(), "", who_);
    modern_headers(r, "tools/call", opts->tool);
    exchange x(own_);
    co_await x.send(r);
    json answer = co_await x.response_to(id);
    co_await x.finish();
    co_return answer;
  }

  static void check_result(const json& message, unsigned status, const std::string& expected) {
    if (!message.contains("result")) refused(message, status);
    const json& r = message["result"];
    std::string text;
    if (r.contains("content") && r["content"].is_array() && !r["content"].empty())
      text = r["content"][0].value("text", "");
    if (text != expected) throw failure("wrong result: " + text.substr(0, 60));
  }

  std::size_t index_;
  source_group& group_;
  connection own_;
  std::string who_;
  std::string session_;
  long long next_id_ = 1;
};

// ---- The phases -------------------------------------------------------------------------------------

struct bench {
  asio::io_context& io;
  std::vector<std::unique_ptr<source_group>> groups;
  std::vector<std::unique_ptr<client>> clients;
  json out = json::object();

  explicit bench(asio::io_context& ctx) : io(ctx) {
    const std::size_t n_groups = (opts->clients + opts->per_source - 1) / opts->per_source;
    for (std::size_t g = 0; g < n_groups; ++g) {
      auto group = std::make_unique<source_group>();
      // 127.1.0.1, 127.1.0.2, ...: the whole of 127/8 is loopback on Linux.
      group->address = asio::ip::address_v4(static_cast<std::uint32_t>((127u << 24) | (1u << 16) | (g + 1)));
      group->pool.resize(opts->pool);
      for (auto& p : group->pool) p.c = std::make_unique<connection>(io.get_executor(), group->address);
      groups.push_back(std::move(group));
    }
    for (std::size_t i = 0; i < opts->clients; ++i)
      clients.push_back(std::make_unique<client>(i, *groups[i / opts->per_source], io.get_executor()));
  }

  awaitable<void> sleep(double seconds) {
    asio::steady_timer t(io, std::chrono::milliseconds(static_cast<long>(seconds * 1000)));
    co_await t.async_wait(use_awaitable);
  }

  awaitable<void> run() {
    // Warm-up: one round trip (a server may load code at its first), then the idle RSS.
    {
      source_group warm{asio::ip::address_v4::loopback(), {}};
      warm.pool.resize(1);
      warm.pool[0].c = std::make_unique<connection>(io.get_executor(), warm.address);
      client c(0, warm, io.get_executor());
      tally t;
      try {
        for (int i = 0; i < 3; ++i)
          co_await c.round_trip(
              nullptr, [] {}, t);
      } catch (const failure& e) {
        out["warmup_error"] = e.what();
      }
      c.drop();
      warm.pool[0].c->close();
      co_await sleep(1.0);
    }
    out["idle_rss_kib"] = rss_kib(opts->server_pid);
    co_await hold();
    co_await load();
  }

  // What the clients of one phase share with it: kept alive by every client's coroutine, so
  // that a client still running when its phase gives up on it touches nothing freed.
  struct phase_state {
    explicit phase_state(asio::any_io_executor ex) : release(ex) {}
    signal_event release;
    tally t;
    std::size_t asked = 0, settled = 0, finished = 0, started = 0, in_window = 0;
    std::size_t ramping = 0;  // clients on their way to a held question
    std::deque<std::shared_ptr<asio::steady_timer>> ramp_waiters;
    // Waits for one of the --ramp places; the place is handed over in order by leave_ramp().
    awaitable<void> enter_ramp() {
      if (ramping < opts->ramp) {
        ++ramping;
        co_return;
      }
      const auto ex = co_await asio::this_coro::executor;
      auto t = std::make_shared<asio::steady_timer>(ex, clock_type::time_point::max());
      ramp_waiters.push_back(t);
      beast::error_code ec;
      co_await t->async_wait(asio::redirect_error(use_awaitable, ec));
    }
    void leave_ramp() {
      if (ramp_waiters.empty()) {
        --ramping;
        return;
      }
      ramp_waiters.front()->cancel();
      ramp_waiters.pop_front();
    }
    std::vector<double> window_latency;
    clock_type::time_point end, last;
  };

  // Drops every connection and waits (bounded) until each client's coroutine has ended.
  awaitable<std::size_t> stop_clients(const std::shared_ptr<phase_state>& st) {
    stopping = true;
    const auto limit = clock_type::now() + std::chrono::milliseconds(static_cast<long>((opts->timeout + 5) * 1000));
    while (st->finished < clients.size() && clock_type::now() < limit) {
      for (auto& c : clients) c->drop();
      for (auto& g : groups)
        for (auto& p : g->pool) p.c->close();
      co_await sleep(0.1);
    }
    stopping = false;
    const std::size_t left = clients.size() - st->finished;
    if (left > 0) throw std::runtime_error(std::to_string(left) + " clients did not stop");  // ends the run
    co_return left;
  }

  awaitable<void> hold() {
    json h;
    cpu_meter cpu(opts->server_pid);
    auto st = std::make_shared<phase_state>(io.get_executor());
    const auto t0 = clock_type::now();
    for (auto& c : clients) {
      asio::co_spawn(
          io,
          [st, cl = c.get()]() -> awaitable<void> {
            bool was_asked = false, failed = false;
            // At most --ramp clients set up at once: the hold measures what a server holds, not
            // how it copes with 10,000 initialize requests in the same millisecond (the load
            // phase does that).
            co_await st->enter_ramp();
            try {
              co_await cl->round_trip(
                  &st->release,
                  [&] {
                    was_asked = true;
                    ++st->asked;
                    ++st->settled;
                    st->leave_ramp();
                  },
                  st->t);
            } catch (const std::exception& e) {
              st->t.error(kind_of(e.what()));
              failed = true;
            }
            if (failed) {
              co_await cl->abandon();  // the session of a client refused is closed at once
            }
            if (!was_asked) {
              ++st->settled;
              st->leave_ramp();
            }
            ++st->finished;
          },
          asio::detached);
    }
    // Every client holds its question, or has failed; bounded by the request timeout and more.
    const auto limit = clock_type::now() + std::chrono::seconds(120);
    while (st->settled < clients.size() && clock_type::now() < limit) co_await sleep(0.05);
    h["setup_s"] = std::chrono::duration<double>(clock_type::now() - t0).count();
    co_await sleep(1.0);  // the server settles (a GC, a heartbeat)
    h["clients"] = clients.size();
    h["held"] = st->asked;
    h["failed_before_held"] = st->t.errors_json();
    const long idle = out["idle_rss_kib"].get<long>();
    const long held_rss = rss_kib(opts->server_pid);
    h["rss_kib"] = held_rss;
    if (st->asked > 0)
      h["bytes_per_waiting"] = static_cast<double>(held_rss - idle) * 1024.0 / static_cast<double>(st->asked);

    // An unrelated request while they wait: a client of its own, from 127.0.0.1, one request
    // every 5 ms, at most 500 of them or 5 s.
    source_group lone{asio::ip::address_v4::loopback(), {}};
    lone.pool.resize(1);
    lone.pool[0].c = std::make_unique<connection>(io.get_executor(), lone.address);
    client pinger(clients.size(), lone, io.get_executor());
    std::vector<double> pings;
    std::map<std::string, std::size_t> ping_errors;
    const auto ping_end = clock_type::now() + std::chrono::seconds(5);
    for (int i = 0; i < 500 && clock_type::now() < ping_end; ++i) {
      try {
        const double ms = co_await pinger.unrelated();
        pings.push_back(ms);
      } catch (const std::exception& e) {
        ++ping_errors[kind_of(e.what())];
        pinger.drop();
      }
      co_await sleep(0.005);
    }
    try {
      co_await pinger.end_session();
    } catch (const std::exception&) {
    }
    pinger.drop();
    h["unrelated"] = opts->modern() ? "server/discover" : "ping";
    h["unrelated_count"] = pings.size();
    h["unrelated_p50_ms"] = percentile(pings, 0.5);
    h["unrelated_p99_ms"] = percentile(pings, 0.99);
    h["unrelated_errors"] = ping_errors;
    h["rss_after_unrelated_kib"] = rss_kib(opts->server_pid);
    // Every held question answered; the results read.
    st->release.fire();
    const auto end_limit =
        clock_type::now() + std::chrono::milliseconds(static_cast<long>((opts->timeout * 2 + 5) * 1000));
    while (st->finished < clients.size() && clock_type::now() < end_limit) co_await sleep(0.05);
    h["completed_after_release"] = st->t.completed;
    h["errors"] = st->t.errors_json();
    h["cpu"] = cpu.stop();
    h["unfinished"] = co_await stop_clients(st);
    out["hold"] = h;
    co_await sleep(1.0);
  }

  awaitable<void> load() {
    json l;
    auto st = std::make_shared<phase_state>(io.get_executor());
    long peak_rss = 0;
    const auto t0 = clock_type::now();
    st->end = t0 + std::chrono::milliseconds(static_cast<long>(opts->seconds * 1000));
    cpu_meter cpu(opts->server_pid);
    for (auto& c : clients) {
      asio::co_spawn(
          io,
          [st, cl = c.get(), this]() -> awaitable<void> {
            while (clock_type::now() < st->end && st->started < opts->max_calls) {
              ++st->started;
              tally one;
              bool failed = false;
              try {
                co_await cl->round_trip(
                    nullptr, [] {}, one);
                ++st->in_window;
                st->window_latency.push_back(one.latency_ms.front());
                st->last = clock_type::now();
              } catch (const std::exception& e) {
                st->t.error(kind_of(e.what()));
                failed = true;
              }
              if (failed) {
                co_await cl->abandon();
                co_await sleep(0.01);  // a refused client does not spin
              }
            }
            ++st->finished;
          },
          asio::detached);
    }
    // No round trip starts after --seconds; those in flight then end (or time out), and count:
    // the rate is every call completed over the time until the last one did.
    const auto drain = st->end + std::chrono::milliseconds(static_cast<long>((opts->timeout + 2) * 1000));
    while (st->finished < clients.size() && clock_type::now() < drain) {
      co_await sleep(0.1);
      peak_rss = std::max(peak_rss, rss_kib(opts->server_pid));
    }
    const json used = cpu.stop();
    const double window = std::chrono::duration<double>(std::max(st->last, st->end) - t0).count();
    l["seconds"] = window;  // from the start to the last completion (at least --seconds)
    l["clients"] = clients.size();
    l["started"] = st->started;
    l["completed"] = st->in_window;
    l["calls_per_s"] = window > 0 ? static_cast<double>(st->in_window) / window : 0;
    l["p50_ms"] = percentile(st->window_latency, 0.5);
    l["p99_ms"] = percentile(st->window_latency, 0.99);
    l["errors"] = st->t.errors_json();
    l["peak_rss_kib"] = peak_rss;
    l["cpu"] = used;
    l["unfinished"] = co_await stop_clients(st);
    out["load"] = l;
  }
};

}  // namespace

int main(int argc, char** argv) {
  options o;
  try {
    o = parse(argc, argv);
  } catch (const std::exception& e) {
    std::cerr << "loadgen: " << e.what() << "\n";
    return 2;
  }
  opts = &o;
  asio::io_context io(1);
  bench b(io);
  b.out["version"] = o.version;
  b.out["tool"] = o.tool;
  bool ok = true;
  asio::co_spawn(io, b.run(), [&](std::exception_ptr e) {
    if (e) {
      ok = false;
      try {
        std::rethrow_exception(e);
      } catch (const std::exception& x) {
        b.out["fatal"] = x.what();
      }
    }
    io.stop();  // detached clients still waiting are abandoned with the process
  });
  io.run();
  std::cout << b.out.dump() << "\n";
  return ok ? 0 : 1;
}
