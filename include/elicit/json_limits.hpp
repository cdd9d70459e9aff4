// How long JSON text from a client may be and how deeply it may nest: the two numbers every
// reader of elicit checks first (limits.hpp says why, and checks them).
#pragma once

#include <cstddef>

namespace elicit {

struct json_limits {
  std::size_t max_bytes = std::size_t{1024} * 1024;  // text longer than this is refused unread
  std::size_t max_depth = 32;                        // lists and objects nested deeper than this are refused
};

}  // namespace elicit
