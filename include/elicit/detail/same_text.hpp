// Comparing short texts: keys of an answer against a form's wire names, an answer's choice
// against a field's options.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace elicit::detail {

// Whether two texts are the same bytes. Keys and choices are short: compared inline, eight
// bytes at a time, rather than by a call to memcmp.
constexpr bool same_text(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  std::size_t i = 0;
  if (!std::is_constant_evaluated()) {
    for (; i + 8 <= a.size(); i += 8) {
      std::uint64_t x = 0, y = 0;
      std::memcpy(&x, a.data() + i, 8);
      std::memcpy(&y, b.data() + i, 8);
      if (x != y) return false;
    }
  }
  for (; i < a.size(); ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace elicit::detail
