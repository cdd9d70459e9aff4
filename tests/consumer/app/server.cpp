// A stdio MCP server with one plain tool, with elicit::server: built and linked as a user
// would. The consumer test writes one tools/call on its stdin and reads the answer.
#include <elicit/server/stdio.hpp>
#include <elicit/state.hpp>

#include <string>

int main() {
  elicit::key_ring ring;
  ring.add("k1", elicit::state_key::generate());
  elicit::dispatcher server({"consumer", "0.1.0"}, ring);
  server.tools().add({"greet", "Says hello."}, [](const elicit::tool_call& call) {
    return "Hello, " + call.arguments().value("name", std::string("you")) + ".";
  });
  elicit::serve_stdio(server);
}
