// The plumbing of the sample MCP server: Streamable HTTP on one path, JSON-RPC, the tool and
// prompt registries, sessions (2025-11-25) and stateless requests (2026-07-28). Nothing here
// knows a form; server.cpp has the forms and their handlers.
#pragma once

#include <elicit/asio.hpp>
#include <elicit/asio_tool.hpp>
#include <elicit/elicit.hpp>
#include <elicit/server/rpc_error.hpp>

#include <boost/asio/awaitable.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mcp {

using json = nlohmann::ordered_json;

enum class version { v2025_11_25, v2026_07_28 };

// Which protocol versions list and serve a tool or prompt: a tool that answers with an
// InputRequiredResult means nothing to a 2025-11-25 client, and one that sends
// elicitation/create on a stream cannot work at 2026-07-28.
enum class serves { v2025_11_25, v2026_07_28, both };

// A JSON-RPC error a handler throws: the library's (<elicit/server/rpc_error.hpp>).
using elicit::rpc_error;

class session;

// What JSON text the transport parses from a client: longer or deeper text is refused with a
// JSON-RPC parse error (-32700) before any value of it is built, copied or compared.
inline constexpr elicit::json_limits http_limits{.max_bytes = 4 * 1024 * 1024, .max_depth = 64};

// What the server holds for its clients, at most: a memory budget, not a thread count. A waiting
// elicitation holds a coroutine frame and its connection (measured: docs/samples.md), no
// thread, so the bounds are what the memory allows; the per-client bounds keep one client from
// taking what everyone shares. A client is a peer address, or, for a connection from one of
// trusted_proxies, the address that proxy names last in X-Forwarded-For (behind nginx every
// client would otherwise be nginx's one address).
struct server_limits {
  std::size_t threads = 0;  // the threads that serve every connection; 0: the core count
  // Open connections, in all (beyond: closed at once). listen() lowers it to what the process's
  // open-file limit allows (raised first to its hard limit), less a reserve for other files.
  std::size_t max_connections = 32768;
  // Open connections of one peer address (a trusted proxy's are not counted): one address held
  // every descriptor with idle keep-alive connections (issue #46). 0: max_connections / 8.
  std::size_t max_connections_per_client = 0;
  std::size_t max_sessions = 16384;
  std::size_t max_sessions_per_client = 1024;  // a sixteenth: two clients cannot take them all
  std::size_t session_rate = 2000;             // new sessions a second a client may open, on average
  std::size_t session_burst = 2000;            // ... and at once
  std::chrono::seconds session_idle{30 * 60};  // a session unused this long is dropped
  // What one waiting elicitation costs at least, session and connection included; one whose
  // request or question is larger is counted at their length more (a 4 MiB argument the tool
  // never reads is held while it waits). The budget below divided by it bounds the number of
  // waiting elicitations in all; their bytes are bounded by the budget itself.
  static constexpr std::size_t bytes_per_waiting = 16 * 1024;
  std::size_t waiting_memory = 256 * 1024 * 1024;                // bytes for waiting elicitations, in all
  std::size_t waiting_memory_per_client = waiting_memory / 4;    // ... of one client
  std::size_t max_waiting = waiting_memory / bytes_per_waiting;  // 16384
  std::size_t max_waiting_per_client = 1024;
  std::size_t max_waiting_per_session = 8;
  std::vector<std::string> trusted_proxies;  // peer addresses whose X-Forwarded-For names the client
  std::chrono::seconds answer_timeout{60};   // how long an elicitation waits for its answer
  // How often a waiting 2025-11-25 call sends notifications/progress, when its client gave a
  // progressToken (elicit::keepalive_interval: docs/protocol.md, "Keep-alive"); zero: never.
  std::chrono::milliseconds progress_interval{elicit::keepalive_interval};
  // A whole request, headers and body, must arrive within this long from its first byte (on a
  // new connection: from the accept, since a client connects to send): a slow client holds a
  // connection this long at most, whatever it sends.
  std::chrono::seconds request_timeout{3};
  // How long a keep-alive connection may wait for its next request's first byte, announced in
  // every kept-alive response (Keep-Alive: timeout=N) so that a client does not send on a
  // connection the server is closing. Apart from the request deadline: a client that keeps its
  // connection between two requests is not a slow client.
  std::chrono::seconds idle_timeout{30};
  std::chrono::seconds write_timeout{10};  // for each response or event written
};

// ELICIT_PROGRESS_INTERVAL_MS (samples/progress_interval.hpp) is read by server's constructor:
// the limits' other variables are read by the sample's main.

// One tools/call or prompts/get, as its handler sees it.
class call {
 public:
  // How a call asks its client: sends an elicitation/create with these params, and completes
  // with the client's whole JSON-RPC response.
  using asker = std::function<boost::asio::awaitable<nlohmann::json>(nlohmann::ordered_json)>;
  // How a call writes a notification on its stream: the params of a notifications/progress.
  using notifier = std::function<boost::asio::awaitable<void>(nlohmann::ordered_json)>;

  // With a notifier and an interval, and a progressToken in the params (2025-11-25), every
  // question of the call keeps it alive (elicit::async_keepalive, one clock for the call).
  // The call refers to `params`, which must outlive it (the request's, held by the connection
  // while the call runs): a waiting question keeps its request once, not once per layer.
  call(version v, std::string method, const json& params, std::string principal, std::shared_ptr<session> s, asker ask,
       std::chrono::seconds answer_timeout, notifier notify = nullptr,
       std::chrono::milliseconds progress_interval = std::chrono::milliseconds::zero())
      : version_(v),
        method_(std::move(method)),
        params_(params),
        principal_(std::move(principal)),
        session_(std::move(s)),
        ask_(std::move(ask)),
        answer_timeout_(answer_timeout),
        keepalive_(keepalive_of(params_, std::move(notify), progress_interval)) {}

  [[nodiscard]] version protocol() const noexcept { return version_; }
  // "tools/call" or "prompts/get".
  [[nodiscard]] const std::string& method() const noexcept { return method_; }
  // The tool's or prompt's name.
  [[nodiscard]] std::string target() const;
  // Who is calling, as the transport knows it: the request's Authorization header, or
  // "anonymous" without one. (A real server names the authenticated user or client here.)
  [[nodiscard]] const std::string& principal() const noexcept { return principal_; }
  [[nodiscard]] const json& params() const noexcept { return params_; }
  // The request's `arguments` object, or an empty object when it has none.
  [[nodiscard]] json arguments() const;
  // The client's elicitation modes: from initialize (2025-11-25) or from this request (2026-07-28).
  [[nodiscard]] elicit::elicitation_modes modes() const;
  // Whether the client declared a capability ("elicitation", "sampling", "roots"), by the same rules.
  [[nodiscard]] bool declares(const std::string& capability) const;
  // Fails the request with MissingRequiredClientCapabilityError (-32021, HTTP 400 at
  // 2026-07-28) when the client did not declare `capability`: a server must not send an input
  // request the client cannot answer.
  void require(const std::string& capability) const;
  // 2026-07-28: the client's raw answer under `key` (sampling, roots), or null.
  [[nodiscard]] json raw_response(const std::string& key) const;

  // 2025-11-25: sends `elicitation/create` to the client on this call's SSE stream and waits for
  // its answer (the ElicitResult), in a coroutine: the wait holds no thread. Through the
  // library's async core (elicit::async_ask), one attempt: the tool reports the answer as it came.
  // Throws rpc_error when the answer does not come in time, when too many elicitations wait
  // already, or when the client answers with an error; call_cancelled (sessions.hpp) when the
  // call is cancelled (notifications/cancelled, the session deleted, the client gone).
  template <class Form>
  [[nodiscard]] boost::asio::awaitable<elicit::response<Form>> ask(std::string message) const {
    elicit::async_ask_options options{.ask = {.max_attempts = 1}, .timeout = answer_timeout_, .keepalive = keepalive_};
    asker send = ask_;  // named, not a temporary of the co_await expression (g++-12 mishandles those)
    auto asking = elicit::async_ask<Form>(std::move(send), std::move(message), options);
    elicit::ask_result<Form> asked = co_await std::move(asking);
    if (asked.outcome() == elicit::outcome::error) throw_client_error(*asked.client_error());
    if (asked.outcome() == elicit::outcome::stopped || asked.outcome() == elicit::outcome::timed_out)
      throw_stopped(*asked.stop_reason());
    co_return asked.answer();
  }

  // 2025-11-25: runs a tool written once (<elicit/tool.hpp>) on this call's stream, each of its
  // questions an elicitation/create waited for as ask() waits (the same timeout), each invalid
  // answer asked again up to tool.max_attempts times. Returns what the tool returned; a question
  // the server stopped waiting for is the tool's to answer (its ask_result says stopped or
  // timed_out), then throw_stopped's. Throws what ask()'s sending throws (call_cancelled,
  // rpc_error), and what elicit::tool_loop::result throws.
  template <class R>
  [[nodiscard]] boost::asio::awaitable<R> run_tool(elicit::tool<R> t, elicit::tool_options tool = {}) const {
    elicit::async_tool_options options;
    options.tool = std::move(tool);
    options.timeout = answer_timeout_;
    options.keepalive = keepalive_;
    asker send = ask_;  // named: see ask()
    auto running = elicit::async_run_tool(std::move(send), std::move(t), std::move(options));
    R result = co_await std::move(running);
    co_return result;
  }

  // What a call the server stopped waiting for ends with: call_cancelled (no response) for a
  // cancellation, else rpc_error (-32603) saying how long it waited.
  [[noreturn]] void throw_stopped(elicit::stop_reason why) const;

 private:
  [[noreturn]] static void throw_client_error(const nlohmann::json& error);
  // The call's keep-alive: null without a progressToken, a notifier or an interval.
  static std::shared_ptr<elicit::async_keepalive> keepalive_of(const json& params, notifier notify,
                                                               std::chrono::milliseconds interval);

  version version_;
  std::string method_;
  const json& params_;
  std::string principal_;
  std::shared_ptr<session> session_;
  asker ask_;
  std::chrono::seconds answer_timeout_;
  std::shared_ptr<elicit::async_keepalive> keepalive_;
};

// A handler that answers at once, and one that may ask the client first (a coroutine).
using handler = std::function<json(const call&)>;
using asking_handler = std::function<boost::asio::awaitable<json>(const call&)>;

// A complete tool result with one text block.
[[nodiscard]] json text_result(const std::string& text, bool is_error = false);
// A complete prompt result with one user message.
[[nodiscard]] json prompt_result(const std::string& description, const std::string& text);

class server {
 public:
  server(std::string name, std::string version_text, server_limits limits = {});
  ~server();

  void tool(std::string name, std::string description, json input_schema, serves eras, handler h);
  void tool(std::string name, std::string description, json input_schema, serves eras, asking_handler h);
  void prompt(std::string name, std::string description, serves eras, asking_handler h);

  // Serves http://127.0.0.1:<port>/mcp until the process ends, on limits.threads threads.
  // Throws std::runtime_error when it cannot listen there.
  void listen(int port);

  struct impl;  // in transport.cpp: what the connections' coroutines share

 private:
  std::unique_ptr<impl> impl_;
};

}  // namespace mcp
