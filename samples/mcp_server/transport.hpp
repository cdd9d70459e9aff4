// The plumbing of the sample MCP server: Streamable HTTP on one path, JSON-RPC, the tool and
// prompt registries, sessions (2025-11-25) and stateless requests (2026-07-28). Nothing here
// knows a form; server.cpp has the forms and their handlers.
#pragma once

#include <elicit/elicit.hpp>

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

// A JSON-RPC error a handler throws: code, message, data.
struct rpc_error : std::runtime_error {
  int code;
  json data;
  rpc_error(int c, const std::string& message, json d = nullptr)
      : std::runtime_error(message), code(c), data(std::move(d)) {}
  // From a whole JSON-RPC error message, e.g. elicit::invalid_params_error(...).
  static rpc_error from_message(const json& message);
};

class session;

// What JSON text the transport parses from a client: longer or deeper text is refused with a
// JSON-RPC parse error (-32700) before any value of it is built, copied or compared.
inline constexpr elicit::json_limits http_limits{.max_bytes = 4 * 1024 * 1024, .max_depth = 64};

// What the server holds for its clients, at most. A waiting elicitation holds one thread (the
// HTTP library writes a stream from a worker thread), so the waiting ones are a small share of
// the threads: the rest keep serving everyone else.
struct server_limits {
  std::size_t threads = 64;
  std::size_t max_sessions = 1000;
  std::chrono::seconds session_idle{30 * 60};  // a session unused this long is dropped
  std::size_t max_waiting = 16;                // elicitations waiting for an answer, in all
  std::size_t max_waiting_per_session = 4;
  std::chrono::seconds answer_timeout{60};  // how long an elicitation waits for its answer
  std::chrono::seconds read_timeout{3};     // for a request's bytes, and between requests
};

// One tools/call or prompts/get, as its handler sees it.
class call {
 public:
  call(version v, std::string method, json params, std::string principal, std::shared_ptr<session> s,
       std::function<json(json)> ask)
      : version_(v),
        method_(std::move(method)),
        params_(std::move(params)),
        principal_(std::move(principal)),
        session_(std::move(s)),
        ask_(std::move(ask)) {}

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
  // its answer (the ElicitResult). Throws rpc_error when the answer does not come in time, when
  // too many elicitations wait already, or when the client answers with an error.
  template <class Form>
  [[nodiscard]] elicit::response<Form> ask(std::string_view message) const {
    return elicit::decode<Form>(nlohmann::json(ask_(elicit::form_params<Form>(message))));
  }

 private:
  version version_;
  std::string method_;
  json params_;
  std::string principal_;
  std::shared_ptr<session> session_;
  std::function<json(json)> ask_;
};

using handler = std::function<json(const call&)>;

// A complete tool result with one text block.
[[nodiscard]] json text_result(const std::string& text, bool is_error = false);
// A complete prompt result with one user message.
[[nodiscard]] json prompt_result(const std::string& description, const std::string& text);

class server {
 public:
  server(std::string name, std::string version_text, server_limits limits = {});
  ~server();

  void tool(std::string name, std::string description, json input_schema, serves eras, handler h);
  void prompt(std::string name, std::string description, serves eras, handler h);

  // Serves http://127.0.0.1:<port>/mcp until the process ends.
  void listen(int port);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace mcp
