// A time on the steady clock a duration from now, saturated: the deadlines of waits that may be
// hours long (a person's answer, a keep-alive's interval), or never (duration::max()).
#pragma once

#include <chrono>

namespace elicit::detail {

// now + d, or time_point::max() where that would overflow. Never throws.
[[nodiscard]] inline std::chrono::steady_clock::time_point steady_after(
    std::chrono::steady_clock::duration d) noexcept {
  using clock = std::chrono::steady_clock;
  const auto now = clock::now();
  return d < clock::time_point::max() - now ? now + d : clock::time_point::max();
}

}  // namespace elicit::detail
