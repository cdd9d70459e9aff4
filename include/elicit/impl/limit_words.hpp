// The words of the limits' violations (limits.hpp), for every path that checks them.
#pragma once

#include <elicit/detail/message.hpp>
#include <elicit/violation.hpp>

#include <cstddef>
#include <string_view>

namespace elicit::detail {

// The violations of a value nested too deep and of a text too long, worded once for every path
// (decode, parse_json, exceeds).
inline violation too_deep(std::size_t max_depth) {
  return {"", "maxDepth", message("The JSON nests lists and objects more than ", max_depth, " levels deep.")};
}
inline violation too_long(std::size_t bytes, std::size_t max_bytes) {
  return {"", "maxBytes",
          message("The JSON is ", bytes, " bytes long, more than the ", max_bytes, " this server reads.")};
}
// The same, for a value whose length is not counted to its end (it stops past the limit).
inline violation too_long(std::size_t max_bytes) {
  return {"", "maxBytes", message("The JSON is more than ", max_bytes, " bytes long, more than this server reads.")};
}
// Text that is not JSON, and JSON with a number past a double, worded once for every path:
// `what` is "text" (parse_json) or "answer" (decode). The message says where the text stopped
// being JSON, never what it held there: those bytes need not be UTF-8.
inline violation not_json(std::string_view what, std::size_t byte) {
  return {"", "json", message("The ", what, " is not valid JSON (at byte ", byte, ").")};
}
inline violation number_too_large(std::string_view what) {
  return {"", "json", message("The ", what, " holds a number too large to read.")};
}

}  // namespace elicit::detail
