// A stdio MCP server with one tool, book_shipment (samples/book_shipment.hpp: written once),
// served at both protocol versions on one stdin and stdout by the library's envelope
// (<elicit/server/dispatcher.hpp>) and stdio transport (<elicit/server/stdio.hpp>):
//   - a client that opens with initialize gets each question as an elicitation/create pushed to
//     it and waited for; one that names its version in every request's _meta gets rounds, each
//     tools/call answered with the questions still open and a sealed requestState.
// The state's key is generated at start, for this process alone: a stdio server is one process
// for one client, and a state outlives neither. Each state opens once (the dispatcher's replay
// store, in memory).
#include "../book_shipment.hpp"
#include "../environment.hpp"

#include <elicit/server/dispatcher.hpp>
#include <elicit/server/stdio.hpp>
#include <elicit/state/state.hpp>

#include <iostream>
#include <stdexcept>
#include <string>

int main() {
  elicit::stdio_options options;
  try {  // a waiting question sends notifications/progress where the call gave a progressToken
    options.progress_interval = samples::progress_interval_from_environment(elicit::keepalive_interval);
  } catch (const std::invalid_argument& e) {
    std::cerr << "shipment_server: " << e.what() << "\n";
    return 2;
  }
  elicit::key_ring ring;
  ring.add("k1", elicit::state_key::generate());
  elicit::dispatcher server({"elicit-shipment-sample", "0.1.0"}, ring);
  server.tools().add(shipping::book_shipment_spec(), shipping::book_shipment_call);
  elicit::serve_stdio(server, options);
}
