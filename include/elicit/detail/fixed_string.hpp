// Compile-time text: a string literal carried as a template argument (`title<"Name">`).
#pragma once

#include <cstddef>
#include <string_view>

namespace elicit::detail {

// A string literal as a structural type, so that `title<"Name">` can carry it.
// `chars` keeps the terminating NUL; view() leaves it out.
template <std::size_t N>
struct fixed_string {
  char chars[N]{};

  constexpr fixed_string(const char (&text)[N]) noexcept {
    for (std::size_t i = 0; i < N; ++i) chars[i] = text[i];
  }
  [[nodiscard]] constexpr std::string_view view() const noexcept { return {chars, N - 1}; }
};

}  // namespace elicit::detail
