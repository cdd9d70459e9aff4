// An MCP server with one plain tool, built and linked as a user would: with elicit::server and
// the blocking stdio transport, or (CONSUMER_ASIO) with elicit::server_asio on an io_context. The
// consumer test writes one tools/call on its stdin and reads the answer, the same from both. With
// elicit::server_http (CONSUMER_HTTP) it listens on a free loopback port, is stopped, and says so.
#if defined(CONSUMER_HTTP)
#include <elicit/server/http/server.hpp>

#include <iostream>
#elif defined(CONSUMER_ASIO)
#include <elicit/server/asio/stdio.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#else
#include <elicit/server/stdio.hpp>
#endif
#include <elicit/state/state.hpp>

#include <string>

int main() {
  elicit::key_ring ring;
  ring.add("k1", elicit::state_key::generate());
  elicit::dispatcher server({"consumer", "0.1.0"}, ring);
  server.tools().add({"greet", "Says hello."}, [](const elicit::tool_call& call) {
    return "Hello, " + call.arguments().value("name", std::string("you")) + ".";
  });
#if defined(CONSUMER_HTTP)
  elicit::http_server http(server);
  const bool listening = http.port() != 0;
  http.stop();
  http.run();
  std::cout << (listening ? "listened, then stopped" : "no port") << "\n";
#elif defined(CONSUMER_ASIO)
  boost::asio::io_context io;
  boost::asio::co_spawn(io, elicit::async_serve_stdio(server), boost::asio::detached);
  io.run();
#else
  elicit::serve_stdio(server);
#endif
}
