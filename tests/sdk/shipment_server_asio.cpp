// The stdio sample's server (samples/stdio_server) on the Asio stdio transport instead of the
// blocking one: the same tool, identity and options, for the SDK round trip (sdk.stdio_roundtrip_asio)
// to hold the coroutine transport to everything it holds the sample to. A test fixture, not a sample.
#include "../../samples/book_shipment.hpp"
#include "../../samples/environment.hpp"

#include <elicit/server/asio/stdio.hpp>
#include <elicit/state/state.hpp>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/io_context.hpp>

#include <exception>
#include <iostream>
#include <stdexcept>

int main() {
  elicit::stdio_options options;
  try {
    options.progress_interval = samples::progress_interval_from_environment(elicit::keepalive_interval);
  } catch (const std::invalid_argument& e) {
    std::cerr << "shipment_server_asio: " << e.what() << "\n";
    return 2;
  }
  elicit::key_ring ring;
  ring.add("k1", elicit::state_key::generate());
  elicit::dispatcher server({"elicit-shipment-sample", "0.1.0"}, ring);
  server.tools().add(shipping::book_shipment_spec(), shipping::book_shipment_call);
  boost::asio::io_context io;
  boost::asio::co_spawn(io, elicit::async_serve_stdio(server, options), [](const std::exception_ptr& e) {
    if (e) std::rethrow_exception(e);
  });
  io.run();
}
