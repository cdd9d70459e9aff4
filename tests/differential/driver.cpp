// elicit's side of the differential test against Ajv (see docs/internals/differential.md).
//
//   driver schemas   {"Plain": <schema>, ...}: the requestedSchema of every form under test
//   driver ranges    {"Plain": {"count": {"kind": "integer", "min": "-2147483648", ...}}, ...}:
//                    what each numeric field's C++ type can hold (integers as exact text)
//   driver judge [stall-ms]
//                    reads {"form": name, "content": <any JSON>} lines from stdin and writes one
//                    {"valid": bool, "keywords": [...], "pointers": [...]} line for each, from
//                    elicit::decode_content (keywords[i] and pointers[i] are violation i's); a
//                    case that gets no verdict within stall-ms (default 1000), or crashes, gets
//                    {"valid": null, ..., "error": "..."}
#include "../../samples/forms.hpp"
#include "../unit/support/forms.hpp"

#include <elicit/elicit.hpp>

#include <nlohmann/json.hpp>

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <iostream>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

template <class Form>
nlohmann::json judge(const nlohmann::json& content) {
  // The text policy (NUL and direction controls refused) is no JSON Schema rule: off here, so
  // that the text cases holding a NUL still compare the schema's rules (docs/internals/differential.md).
  const elicit::decoded<Form> d = elicit::decode_content<Form>(content, {.plain_text = false});
  nlohmann::json keywords = nlohmann::json::array(), pointers = nlohmann::json::array();
  for (const elicit::violation_view v : d.violations()) {
    keywords.push_back(v.keyword);
    pointers.push_back(v.pointer);
  }
  return {{"valid", d.has_value()}, {"keywords", keywords}, {"pointers", pointers}};
}

// The range of one member's C++ value type, when it is a number.
template <class V>
void add_range(nlohmann::json& out, std::string_view wire) {
  if constexpr (std::is_integral_v<V> && !std::is_same_v<V, bool>) {
    out[std::string(wire)] = {{"kind", "integer"},
                              {"min", std::to_string(std::numeric_limits<V>::min())},
                              {"max", std::to_string(std::numeric_limits<V>::max())}};
  } else if constexpr (std::is_floating_point_v<V>) {
    out[std::string(wire)] = {{"kind", "number"},
                              {"min", static_cast<double>(std::numeric_limits<V>::lowest())},
                              {"max", static_cast<double>(std::numeric_limits<V>::max())}};
  }
}

template <class Form>
nlohmann::json ranges() {
  nlohmann::json out = nlohmann::json::object();
  elicit::detail::for_each_index<elicit::detail::member_count<Form>>([&]<std::size_t I>() {
    using value = typename elicit::detail::field_parts<elicit::detail::described_member_t<Form, I>>::value;
    add_range<elicit::detail::without_optional_t<value>>(out, elicit::detail::spec_of<Form, I>.wire);
  });
  return out;
}

struct form_entry {
  std::string_view name;
  std::string_view schema;
  nlohmann::json (*judge)(const nlohmann::json&);
  nlohmann::json (*ranges)();
};

template <class Form>
constexpr form_entry entry(std::string_view name) {
  return {name, elicit::schema_json<Form>, &judge<Form>, &ranges<Form>};
}

// forms::Legacy is left out: enumNames is no keyword of JSON Schema 2020-12.
const form_entry forms_under_test[] = {
    entry<forms::Plain>("Plain"),
    entry<forms::Narrow>("Narrow"),
    entry<forms::Optionals>("Optionals"),
    entry<forms::Annotated>("Annotated"),
    entry<forms::Choices>("Choices"),
    entry<forms::SpecString>("SpecString"),
    entry<forms::SpecNumber>("SpecNumber"),
    entry<forms::SpecBoolean>("SpecBoolean"),
    entry<forms::SpecMultipleFields>("SpecMultipleFields"),
    entry<forms::SpecUntitledMulti>("SpecUntitledMulti"),
    entry<forms::SpecTitledMulti>("SpecTitledMulti"),
    entry<shipping::DeliveryAddress>("DeliveryAddress"),
    entry<shipping::ShipmentOptions>("ShipmentOptions"),
    entry<shipping::Contact>("Contact"),
};

const form_entry* find_form(std::string_view name) {
  for (const form_entry& f : forms_under_test)
    if (f.name == name) return &f;
  return nullptr;
}

// One case's verdict line, or nothing (and a message) when the line is malformed.
std::optional<std::string> judge_line(const std::string& line, std::size_t number) {
  nlohmann::json input;
  try {
    input = nlohmann::json::parse(line);
  } catch (const nlohmann::json::exception& e) {
    std::cerr << "driver: line " << number << " is not JSON: " << e.what() << "\n";
    return std::nullopt;
  }
  const auto form = input.find("form");
  const auto content = input.find("content");
  const form_entry* f = form != input.end() && form->is_string() ? find_form(form->get<std::string>()) : nullptr;
  if (f == nullptr || content == input.end()) {
    std::cerr << "driver: line " << number << " names no known form or has no content\n";
    return std::nullopt;
  }
  return f->judge(*content).dump() + "\n";
}

bool write_all(int fd, std::string_view text) {
  while (!text.empty()) {
    const ssize_t n = ::write(fd, text.data(), text.size());
    if (n <= 0) return false;
    text.remove_prefix(static_cast<std::size_t>(n));
  }
  return true;
}

// Judges every line of stdin. The judging runs in a child process, so that a case on which
// decode_content never returns, or crashes, is reported as such (a verdict line with an
// "error") instead of stopping the run: the child is killed, and a new one goes on with the
// next case.
int judge_lines(int stall_ms) {
  std::vector<std::string> lines;
  for (std::string line; std::getline(std::cin, line);)
    if (!line.empty()) lines.push_back(line);
  std::size_t next = 0;  // the first case without a verdict yet
  while (next < lines.size()) {
    std::cout.flush();
    int fds[2];
    if (::pipe(fds) != 0) return 1;
    const pid_t child = ::fork();
    if (child < 0) return 1;
    if (child == 0) {
      ::close(fds[0]);
      for (std::size_t i = next; i < lines.size(); ++i) {
        const std::optional<std::string> verdict = judge_line(lines[i], i + 1);
        if (!verdict || !write_all(fds[1], *verdict)) ::_exit(3);
      }
      ::_exit(0);
    }
    ::close(fds[1]);
    std::string pending;
    std::string failure;
    while (true) {
      pollfd p{fds[0], POLLIN, 0};
      const int ready = ::poll(&p, 1, stall_ms);
      if (ready == 0) {
        ::kill(child, SIGKILL);
        failure = "no verdict within " + std::to_string(stall_ms) + " ms: killed";
        break;
      }
      char buffer[65536];
      const ssize_t n = ready < 0 ? -1 : ::read(fds[0], buffer, sizeof buffer);
      if (n <= 0) break;
      pending.append(buffer, static_cast<std::size_t>(n));
      for (std::size_t end; (end = pending.find('\n')) != std::string::npos;) {
        std::cout << std::string_view(pending).substr(0, end + 1);
        pending.erase(0, end + 1);
        ++next;
      }
    }
    ::close(fds[0]);
    int status = 0;
    ::waitpid(child, &status, 0);
    if (failure.empty()) {
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && next == lines.size()) break;
      if (WIFEXITED(status) && WEXITSTATUS(status) == 3) return 1;  // a malformed line: said why
      failure = WIFSIGNALED(status) ? "crashed with signal " + std::to_string(WTERMSIG(status))
                                    : "exited with status " + std::to_string(WEXITSTATUS(status));
    }
    const nlohmann::json verdict = {{"valid", nullptr},
                                    {"keywords", nlohmann::json::array()},
                                    {"pointers", nlohmann::json::array()},
                                    {"error", failure}};
    std::cout << verdict.dump() << "\n";
    std::cerr << "driver: case " << next + 1 << ": " << failure << "\n";
    ++next;
  }
  std::cout.flush();
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string_view mode = argc >= 2 ? argv[1] : "";
  const int stall_ms = argc >= 3 ? std::atoi(argv[2]) : 1000;
  if (mode == "schemas" || mode == "ranges") {
    nlohmann::ordered_json all = nlohmann::ordered_json::object();
    for (const form_entry& f : forms_under_test)
      all[std::string(f.name)] =
          mode == "schemas" ? nlohmann::ordered_json::parse(f.schema) : nlohmann::ordered_json(f.ranges());
    std::cout << all.dump() << "\n";
    return 0;
  }
  if (mode == "judge") return judge_lines(stall_ms);
  std::cerr << "usage: driver schemas|ranges|judge [stall-ms]\n";
  return 2;
}
