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
#include "../progress_interval.hpp"

#include <elicit/server/dispatcher.hpp>
#include <elicit/server/stdio.hpp>
#include <elicit/state.hpp>

#include <iostream>
#include <stdexcept>
#include <string>

namespace {

// The call's shipment and the slots free now, read before the tool runs (it runs again from the
// start on every round, and must ask the same questions). A shipment_id that is no string is
// the caller's mistake: -32602.
elicit::tool<shipping::booking> book(const elicit::tool_call& call) {
  try {
    return shipping::book_shipment(shipping::shipment_of(call.arguments()), shipping::free_slots());
  } catch (const std::invalid_argument& e) {
    throw elicit::rpc_error(-32602, e.what());
  }
}

}  // namespace

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
  server.tools().add({"book_shipment",
                      "Book a shipment, asking the user where and how it should go.",
                      {{"type", "object"}, {"properties", {{"shipment_id", {{"type", "string"}}}}}}},
                     book);
  elicit::serve_stdio(server, options);
}
