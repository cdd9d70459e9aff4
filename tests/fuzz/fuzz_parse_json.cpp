// libFuzzer target: elicit::parse_json against nlohmann::json::parse on the same text, under
// AddressSanitizer and UndefinedBehaviorSanitizer (issue #44: parse_json reads with elicit's own
// scanner and builds with a builder of its own that sorts an object's members when it closes,
// detail/json_builder.hpp).
//
// For three sets of limits: never a crash, a hang or a sanitizer report; a text nlohmann parses
// is parsed to the same value when it is within the limits, and refused for exactly the limit
// it passes otherwise (maxDepth when it nests deeper, maxValues when it holds more values); a
// text nlohmann does not parse is refused as json (or for a limit reached before its fault).
#include "fuzz_support.hpp"

#include <elicit/form/limits.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using fuzz::check;

// How many values the text spells out (every list, object, item and member's value), counted
// from nlohmann's SAX events: a repeated key's earlier values count too, as parse_json builds
// them before the last one wins (so that the limit bounds the work, not only the result).
struct value_counter {
  std::size_t count = 0;
  bool null() { return ++count, true; }
  bool boolean(bool) { return ++count, true; }
  bool number_integer(nlohmann::json::number_integer_t) { return ++count, true; }
  bool number_unsigned(nlohmann::json::number_unsigned_t) { return ++count, true; }
  bool number_float(nlohmann::json::number_float_t, const std::string&) { return ++count, true; }
  bool string(std::string&) { return ++count, true; }
  bool binary(nlohmann::json::binary_t&) { return ++count, true; }
  bool start_object(std::size_t) { return ++count, true; }
  bool key(std::string&) { return true; }
  bool end_object() { return true; }
  bool start_array(std::size_t) { return ++count, true; }
  bool end_array() { return true; }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) { return false; }
};

std::size_t values_in(std::string_view text) {
  value_counter counter;
  nlohmann::json::sax_parse(text, &counter);
  return counter.count;
}

constexpr elicit::json_limits limit_sets[] = {
    {.max_bytes = 1 << 20, .max_depth = 32, .max_values = 1 << 16},
    {.max_bytes = 1 << 20, .max_depth = 4, .max_values = 64},
    {.max_bytes = 64, .max_depth = 64, .max_values = 1 << 20},
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const nlohmann::json reference = nlohmann::json::parse(text, nullptr, false);  // discarded when not JSON
  const bool has_nul = text.find('\0') != std::string_view::npos;
  const std::size_t depth = reference.is_discarded() ? 0 : fuzz::nesting(reference);
  const std::size_t values = reference.is_discarded() ? 0 : values_in(text);
  for (const elicit::json_limits& limits : limit_sets) {
    const elicit::parsed_json parsed = elicit::parse_json(text, limits);
    if (parsed) {
      check(!has_nul && !reference.is_discarded(), "parse_json took a text nlohmann refuses", text);
      check(*parsed == reference, "parse_json built another value than nlohmann", text);
      check(depth <= limits.max_depth && values <= limits.max_values && size <= limits.max_bytes,
            "parse_json took a text beyond its limits", text);
      continue;
    }
    const std::string& keyword = parsed.error()->keyword;
    if (size > limits.max_bytes) {
      check(keyword == "maxBytes", "a long text not refused by its length", text);
    } else if (reference.is_discarded() || has_nul) {
      check(keyword == "json" || keyword == "maxDepth" || keyword == "maxValues",
            "a text that is not JSON refused for something else", text);
    } else {
      check(keyword == "maxDepth" || keyword == "maxValues", "a JSON text within the length refused as not JSON", text);
      if (keyword == "maxDepth") check(depth > limits.max_depth, "maxDepth for a text within the depth", text);
      if (keyword == "maxValues") check(values > limits.max_values, "maxValues for a text within the values", text);
    }
  }
  return 0;
}
