// What both samples read from the environment alike: a whole number within bounds, and the
// keep-alive's interval ELICIT_PROGRESS_INTERVAL_MS, a whole number of milliseconds from 0 (no
// progress notifications) to 3600000.
#pragma once

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace samples {

// The whole number in the environment variable `name`, from `low` to `high`, or `fallback` when
// it is unset or empty. Throws std::invalid_argument, saying what is allowed, for anything else.
inline std::size_t number(const char* name, std::size_t fallback, std::size_t low, std::size_t high) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  const std::string text = value;
  // At most 8 digits: std::stoul cannot overflow, and no bound here is larger.
  if (text.size() > 8 || text.find_first_not_of("0123456789") != std::string::npos || std::stoul(text) < low ||
      std::stoul(text) > high)
    throw std::invalid_argument(std::string(name) + " must be a whole number from " + std::to_string(low) + " to " +
                                std::to_string(high));
  return static_cast<std::size_t>(std::stoul(text));
}

// `fallback` when ELICIT_PROGRESS_INTERVAL_MS is not set.
inline std::chrono::milliseconds progress_interval_from_environment(std::chrono::milliseconds fallback) {
  return std::chrono::milliseconds(
      number("ELICIT_PROGRESS_INTERVAL_MS", static_cast<std::size_t>(fallback.count()), 0, 3'600'000));
}

}  // namespace samples
