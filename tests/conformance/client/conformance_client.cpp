// conformance_client URL: the MCP client the official conformance suite runs for its client
// scenarios (run_client.sh), built from the library's host side: elicit::http_connection and
// elicit::mcp_client carry the calls (2025-11-25 sessions, the session's own stream included;
// 2026-07-28 input-required rounds, requestState echoed exactly, a new id per retry), and each form
// is read by elicit::read_form and answered by its defaults through elicit::form_answer (a form it
// cannot read, or whose defaults do not make a valid answer, is declined). It calls every tool
// the server lists. The protocol version is MCP_CONFORMANCE_PROTOCOL_VERSION (the suite's
// default: 2025-11-25).
#include <elicit/client/form_answer.hpp>
#include <elicit/client/http_connection.hpp>
#include <elicit/client/mcp_client.hpp>

#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

namespace {

using message = elicit::client_message;

// The answer to one elicitation/create's params: the form answered by its defaults.
message by_defaults(const message& params) {
  if (params.value("mode", "form") != "form") return elicit::form_answer::decline();
  const auto schema = params.find("requestedSchema");
  if (schema == params.end()) return elicit::form_answer::decline();
  const elicit::read_form_result read = elicit::read_form(*schema);
  if (!read) {
    for (const auto& p : read.problems) std::cerr << "form refused: " << p.pointer << ": " << p.message << "\n";
    return elicit::form_answer::decline();
  }
  const elicit::form_answer answer(*read.form);
  if (const elicit::violation_list problems = answer.check(); !problems.empty()) {
    for (const auto& p : problems)
      std::cerr << "the defaults do not answer: " << p.pointer << ": " << p.message << "\n";
    return elicit::form_answer::decline();
  }
  return answer.accept();
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: conformance_client URL\n";
    return 2;
  }
  const char* version = std::getenv("MCP_CONFORMANCE_PROTOCOL_VERSION");
  try {
    elicit::http_connection server(argv[argc - 1], version != nullptr ? version : "2025-11-25");
    elicit::mcp_client client(
        server, {.version = version != nullptr ? version : "2025-11-25", .name = "elicit-conformance-client"});
    client.start();
    for (const message& tool : client.list_tools()) {
      const std::string name = tool.value("name", "");
      std::cout << name << ": " << client.call_tool(name, message::object(), by_defaults).dump() << "\n";
    }
  } catch (const std::exception& e) {
    std::cerr << "conformance_client: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
