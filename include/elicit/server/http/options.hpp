// How the Streamable HTTP transport serves (<elicit/server/http/server.hpp>): its port, threads,
// deadlines, and what it holds for its clients at most. CMake target elicit::server_http.
//
//   elicit::http_options options;
//   options.port = 8080;
//   options.answer_timeout = std::chrono::minutes(5);  // a person may take a while
//
// The bounds are a memory budget, not a thread count: a waiting 2025-11-25 question holds a
// tool's coroutine frame and its connection, no thread (docs/serving-http.md). The per-client bounds
// keep one client from taking what every client shares. A client is a peer address, or, for a
// connection from one of trusted_proxies, the address that proxy names last in X-Forwarded-For
// (behind nginx every client would otherwise be nginx's one address).
#pragma once

#include <elicit/answer/json_limits.hpp>
#include <elicit/protocol/progress.hpp>

#include <boost/asio/any_io_executor.hpp>
#include <boost/beast/http/fields.hpp>

#include <chrono>
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace elicit {

struct http_options {
  // Serves http://127.0.0.1:<port>/mcp (loopback: a Host or Origin that is not a loopback name is
  // refused, which stops a DNS-rebinding web page). 0: a free port, which http_server::port() says.
  unsigned short port = 0;
  std::size_t threads = 0;  // the threads that serve every connection; 0: the core count
  // What JSON text a request may carry: longer or deeper text is refused with a parse error
  // (-32700) before any value of it is built.
  json_limits limits{.max_bytes = std::size_t{4} * 1024 * 1024, .max_depth = 64};
  // Open connections, in all (beyond: closed at once). Lowered to what the process's open-file
  // limit allows (raised first to its hard limit), less a reserve for other files, and the log
  // says so; 0: as many as that limit allows.
  std::size_t max_connections = 32768;
  // Open connections of one client (a trusted proxy's are not counted): one address held every
  // descriptor with idle keep-alive connections. 0: max_connections / 8.
  std::size_t max_connections_per_client = 0;
  std::size_t max_sessions = 16384;            // 2025-11-25 sessions (Mcp-Session-Id), in all
  std::size_t max_sessions_per_client = 1024;  // a sixteenth: two clients cannot take them all
  std::size_t session_rate = 2000;             // new sessions a second a client may open, on average
  std::size_t session_burst = 2000;            // ... and at once
  std::chrono::seconds session_idle{30 * 60};  // a session unused this long is dropped
  // What one waiting question is counted at, at least, session and connection included (more
  // than the 6 KiB it costs, docs/internals/performance.md, for the tool's own frame); one whose
  // request or question is larger is counted at their length more (a 4 MiB argument the tool
  // never reads is held while it waits). waiting_memory divided by it bounds the number of
  // waiting questions in all; their bytes are bounded by waiting_memory itself.
  static constexpr std::size_t bytes_per_waiting = std::size_t{16} * 1024;
  std::size_t waiting_memory = std::size_t{256} * 1024 * 1024;   // bytes for waiting questions, in all
  std::size_t waiting_memory_per_client = waiting_memory / 4;    // ... of one client
  std::size_t max_waiting = waiting_memory / bytes_per_waiting;  // 16384
  std::size_t max_waiting_per_client = 1024;
  std::size_t max_waiting_per_session = 8;
  std::vector<std::string> trusted_proxies;  // peer addresses whose X-Forwarded-For names the client
  std::chrono::seconds answer_timeout{60};   // how long a 2025-11-25 question waits for its answer
  // How often a waiting 2025-11-25 call sends notifications/progress, when its client gave a
  // progressToken (docs/protocol.md, "Keep-alive"); zero: never.
  std::chrono::milliseconds progress_interval{keepalive_interval};
  // A whole request, headers and body, must arrive within this long from its first byte (on a
  // new connection: from the accept): a slow client holds a connection this long at most.
  std::chrono::seconds request_timeout{3};
  // How long a persistent connection may wait for its next request's first byte, announced in
  // every response that keeps it (Keep-Alive: timeout=N) so that a client does not send on a
  // connection the server is closing. The server waits a second more than it announces (a client
  // counts from when it read the response); it closes a connection only between requests, and a
  // response after which it closes says Connection: close.
  std::chrono::seconds idle_timeout{30};
  std::chrono::seconds write_timeout{10};  // for each response or event written
  // Who calls, from a request's header fields: the principal every sealed state is bound to and
  // a tool reads (tool_call::principal). Null: the Authorization field's value, or "anonymous"
  // without one. A server that authenticates names the user or client it authenticated.
  std::function<std::string(const boost::beast::http::fields&)> principal;
  // Where 2026-07-28 requests are answered when a tool's work blocks (a replay store on Redis, a
  // database): an executor of a pool kept for blocking work, so that no I/O thread waits. Empty:
  // on the connection's own thread. Stop and join the pool after run() returns and before the
  // http_server is destroyed: work still running there refers to the server.
  std::optional<boost::asio::any_io_executor> blocking;
  // Where the transport writes what it refuses and why a call ended (one line each, without a
  // newline). Null: stderr, each line prefixed with the server's name.
  std::function<void(std::string_view)> log;
};

}  // namespace elicit
