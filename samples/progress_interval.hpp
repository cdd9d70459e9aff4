// The keep-alive's interval of both samples from the environment: ELICIT_PROGRESS_INTERVAL_MS,
// a whole number of milliseconds from 0 (no progress notifications) to 3600000.
#pragma once

#include <chrono>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace samples {

// `fallback` when the variable is not set. Throws std::invalid_argument, saying what is
// allowed, for any other text.
inline std::chrono::milliseconds progress_interval_from_environment(std::chrono::milliseconds fallback) {
  const char* value = std::getenv("ELICIT_PROGRESS_INTERVAL_MS");
  if (value == nullptr || *value == '\0') return fallback;
  const std::string text = value;
  if (text.size() > 7 || text.find_first_not_of("0123456789") != std::string::npos || std::stoul(text) > 3'600'000)
    throw std::invalid_argument("ELICIT_PROGRESS_INTERVAL_MS must be a whole number from 0 to 3600000");
  return std::chrono::milliseconds(std::stoul(text));
}

}  // namespace samples
