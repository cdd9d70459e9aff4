// Comparing short texts: keys of an answer against a form's wire names, an answer's choice
// against a field's options.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace elicit::detail {

// The same `Word`-sized bytes at `x` and `y`.
template <class Word>
bool same_word(const char* x, const char* y) noexcept {
  Word v = 0, w = 0;
  std::memcpy(&v, x, sizeof v);
  std::memcpy(&w, y, sizeof w);
  return v == w;
}

// Whether two texts are the same bytes. Keys and choices are short: compared inline, eight
// bytes at a time, rather than by a call to memcmp; the last word overlaps the one before it
// (and from 4 to 7 bytes, two of 4 overlap), so that no byte is compared alone past 3. Inline
// wherever it is called: most calls find the sizes differ, or compare one word.
[[gnu::always_inline]] constexpr bool same_text(std::string_view a, std::string_view b) noexcept {
  const std::size_t n = a.size();
  if (n != b.size()) return false;
  if (!std::is_constant_evaluated()) {
    const char *x = a.data(), *y = b.data();
    if (n >= 8) {
      for (std::size_t i = 0; i + 8 < n; i += 8)
        if (!same_word<std::uint64_t>(x + i, y + i)) return false;
      return same_word<std::uint64_t>(x + n - 8, y + n - 8);
    }
    if (n >= 4) return same_word<std::uint32_t>(x, y) && same_word<std::uint32_t>(x + n - 4, y + n - 4);
  }
  for (std::size_t i = 0; i < n; ++i)
    if (a[i] != b[i]) return false;
  return true;
}

}  // namespace elicit::detail
