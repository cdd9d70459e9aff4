// An MCP server over Streamable HTTP with two tools written once, served at both protocol
// versions by the library's envelope (<elicit/server/dispatcher.hpp>) and HTTP transport
// (<elicit/server/http/server.hpp>):
//   - book_shipment (samples/book_shipment.hpp), three questions, as the stdio sample serves it;
//   - redeem_voucher (redeem_voucher.hpp), whose answer counts once across every instance.
// Usage: mcp_server PORT   (serves http://127.0.0.1:PORT/mcp)
// Its limits, state keys (rotated by SIGHUP with a key file) and replay store (Redis, shared by
// every instance behind one load balancer) come from the environment: samples/server_settings.hpp.
#include "../book_shipment.hpp"
#include "../server_settings.hpp"
#include "redeem_voucher.hpp"

#include <elicit/server/dispatcher.hpp>
#include <elicit/server/http/server.hpp>

#include <boost/asio/thread_pool.hpp>

#include <cstdlib>
#include <iostream>
#include <memory>
#ifdef __GLIBC__
#include <malloc.h>
#endif

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: mcp_server PORT\n";
    return 2;
  }
#ifdef __GLIBC__
  // A request of megabytes, parsed and freed, would otherwise raise the size under which blocks
  // come from the heap, and freed heap stays in the process: large blocks go back when freed.
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
  boost::asio::thread_pool blocking(4);  // Redis calls and key file reads: never on an I/O thread
  const char* key_file = std::getenv("ELICIT_KEY_FILE");
  if (key_file != nullptr && *key_file == '\0') key_file = nullptr;
  elicit::key_ring ring;
  std::unique_ptr<elicit::replay_guard> replay;
  std::unique_ptr<elicit::task_store> tasks;
  elicit::dispatcher_options served;
  elicit::http_options options;
  bool replay_blocks = false;
  try {
    samples::ring_at_start(ring, key_file, "mcp_server");
    replay = samples::replay_store("mcp_server", replay_blocks);
    tasks = samples::task_store("mcp_server");
    samples::tasks_from_environment(served.tasks);
    options = samples::http_options_from_environment(static_cast<unsigned short>(std::atoi(argv[1])));
  } catch (const std::exception& e) {
    std::cerr << "mcp_server: " << e.what() << "\n";
    return 2;
  }
  if (replay_blocks) options.blocking = blocking.get_executor();
  boost::asio::signal_set hangup(blocking, SIGHUP);
  samples::reload_on_hangup(hangup, ring, key_file, "mcp_server");

  served.tool.replay = replay.get();  // each state opens once, on any instance sharing the store
  served.tasks.store = tasks.get();   // null: in this process's memory
  elicit::dispatcher server({"elicit-sample-server", "0.1.0"}, ring, served);
  server.tools().add(shipping::book_shipment_spec(), shipping::book_shipment_call);
  elicit::tool_spec voucher = vouchers::redeem_voucher_spec();
  voucher.options = served.tool;
  voucher.options->answers_without_state = false;  // a confirmation counts only with its state
  server.tools().add(std::move(voucher), vouchers::redeem_voucher_call);

  elicit::http_server http(server, options);
  boost::asio::signal_set stop(http.context(), SIGINT, SIGTERM);  // ends run(): a clean exit
  stop.async_wait([&http](const boost::system::error_code&, int) { http.stop(); });
  std::cerr << "mcp_server listening on http://127.0.0.1:" << http.port() << "/mcp (" << http.threads()
            << " threads)\n";
  http.run();
  blocking.stop();  // before the server goes: no blocking work is left to answer on it
  blocking.join();
}
