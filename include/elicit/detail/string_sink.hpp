// An output sink that appends to a std::string, beside buffer_sink.hpp's fixed buffer.
#pragma once

#include <string>
#include <string_view>

namespace elicit::detail {

// A std::string sink for the schema writer of keywords.hpp: the same writer as the
// compile-time schema, so a form with no refinement writes the same bytes.
struct string_sink {
  std::string text;
  void put(char c) { text += c; }
  void put(std::string_view s) { text += s; }
};

}  // namespace elicit::detail
