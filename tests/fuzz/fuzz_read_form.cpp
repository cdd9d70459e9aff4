// libFuzzer target: elicit::read_form on any text (a received requestedSchema, the host's side),
// under AddressSanitizer and UndefinedBehaviorSanitizer.
//
// Never a crash, a hang or a sanitizer report. A schema refused names each problem at a JSON
// Pointer with a keyword and words. A schema read is written back, and what is written reads
// again into a form that writes the same text (the field model is a fixed point of the writer);
// and its defaults, which the reader checked by the fields' rules, make an answer the same rules
// accept (but for a required field with none).
#include "fuzz_support.hpp"

#include <elicit/client/form_answer.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using fuzz::check;

void check_read(const elicit::received_form& form) {
  const std::string written = form.schema_json();
  const elicit::read_form_result again = elicit::read_form(std::string_view(written));
  check(static_cast<bool>(again), "a written schema reads again", written);
  check(again.form->schema_json() == written, "the written schema is a fixed point", written);
  const elicit::form_answer answer(form);
  const elicit::violation_list found = answer.check();
  // A required field without a default is missing; nothing else may be wrong with the defaults.
  for (const auto& v : found) check(v.keyword == "required", "the defaults meet their fields' rules", v.message);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  for (const elicit::json_limits& limits :
       {elicit::json_limits{}, elicit::json_limits{.max_bytes = 4096, .max_depth = 4, .max_values = 256}}) {
    const elicit::read_form_result read = elicit::read_form(text, limits);
    if (read) {
      check(read.problems.empty(), "a form read has no problem");
      check_read(*read.form);
      continue;
    }
    check(!read.problems.empty(), "a schema refused says why");
    for (const auto& p : read.problems) {
      check(p.pointer.empty() || p.pointer.front() == '/', "a problem's pointer is a JSON Pointer", p.pointer);
      check(!p.keyword.empty() && !p.message.empty(), "a problem has a keyword and words", p.message);
    }
  }
  return 0;
}
