// Tasks parked for a person (the tasks extension, SEP-2663): N tool calls of a tool written once
// made tasks in one process with the memory store, each waiting for its first answer
// (input_required), then what that costs and how fast tasks/get answers.
//
//   bench_tasks [N]   (10000)
//
// Prints one table row: N, bytes of RSS per parked task ((RSS while parked - RSS before) / N,
// after malloc_trim), and tasks/get per second on one thread (the dispatcher's handle(), no
// transport), over the N ids at random. A parked task is its record alone: no coroutine, no
// thread (docs/internals/performance.md).
#include <elicit/elicit.hpp>
#include <elicit/server/dispatcher.hpp>

#include <nlohmann/json.hpp>

#include <malloc.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

namespace {

struct Address {
  elicit::field<std::string, elicit::title<"Street">, elicit::max_length<100>> street;
  elicit::field<std::string, elicit::title<"City">, elicit::max_length<60>> city;
  elicit::field<std::string, elicit::title<"Postcode">, elicit::max_length<10>> postcode;
};

elicit::tool<std::string> ask_address() {
  elicit::question<Address> where("address", "Where should the parcel go?");
  const auto address = co_await std::move(where);
  co_return address.accepted() ? "Booked." : "Not booked.";
}

std::size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  std::size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<std::size_t>(sysconf(_SC_PAGESIZE));
}

nlohmann::json request(int id, const std::string& method, nlohmann::json params) {
  params["_meta"] = {{"io.modelcontextprotocol/protocolVersion", "2026-07-28"},
                     {"io.modelcontextprotocol/clientCapabilities",
                      {{"elicitation", {{"form", nlohmann::json::object()}}},
                       {"extensions", {{elicit::tasks_extension, nlohmann::json::object()}}}}}};
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", method}, {"params", std::move(params)}};
}

}  // namespace

int main(int argc, char** argv) {
  const int n = argc > 1 ? std::atoi(argv[1]) : 10000;
  if (n < 1 || n > 1'000'000) {
    std::cerr << "usage: bench_tasks [N from 1 to 1000000]\n";
    return 2;
  }
  elicit::key_ring ring;
  ring.add("k1", elicit::state_key::generate());
  elicit::dispatcher_options options;
  options.log = [](std::string_view) {};
  elicit::dispatcher server({"bench-tasks", "1.0.0"}, ring, options);
  elicit::tool_spec spec{.name = "book", .description = "Asks where to deliver."};
  spec.task = elicit::task_support::optional;
  server.tools().add(spec, [](const elicit::tool_call&) { return ask_address(); });
  elicit::client_session session;

  // One task first: the threads, the store's table and the allocator's arenas exist before the
  // baseline, as they do in a server that has run a while.
  const auto first = server.handle(
      request(0, "tools/call", {{"name", "book"}, {"arguments", nlohmann::json::object()}}), session, "bench");
  malloc_trim(0);
  const std::size_t before = resident_bytes();
  std::vector<std::string> ids;
  ids.reserve(static_cast<std::size_t>(n));
  for (int i = 1; i <= n; ++i) {
    const auto d = server.handle(request(i, "tools/call", {{"name", "book"}, {"arguments", nlohmann::json::object()}}),
                                 session, "bench");
    ids.push_back(d.response.at("result").at("taskId").get<std::string>());
  }
  for (const std::string& id : ids)  // every one parked: its first step has run
    for (;;) {
      const auto d = server.handle(request(0, "tasks/get", {{"taskId", id}}), session, "bench");
      if (d.response.at("result").at("status") == "input_required") break;
      usleep(1000);
    }
  malloc_trim(0);
  const std::size_t parked = resident_bytes();

  std::mt19937 pick(42);
  std::uniform_int_distribution<std::size_t> which(0, ids.size() - 1);
  const int gets = 200'000;
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < gets; ++i) {
    const auto d = server.handle(request(i, "tasks/get", {{"taskId", ids[which(pick)]}}), session, "bench");
    if (!d.response.contains("result")) return 1;
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("| parked tasks | bytes of RSS per parked task | tasks/get per second (one thread) |\n|---|---|---|\n");
  std::printf("| %d | %.0f | %.0f |\n", n, static_cast<double>(parked - before) / n, gets / seconds);
  return first.response.contains("result") ? 0 : 1;
}
