// How long JSON text from a client may be and how deeply it may nest: the two numbers every
// reader of elicit checks first (limits.hpp says why, and checks them).
#pragma once

#include <cstddef>

namespace elicit {

struct json_limits {
  std::size_t max_bytes = std::size_t{1024} * 1024;  // text longer than this is refused unread
  std::size_t max_depth = 32;                        // lists and objects nested deeper than this are refused
  // What parse_json builds at most: every list, object, item and member's value counts one (a
  // repeated key's values each, as each is built before the last wins). A parsed value costs
  // the CPU and memory of its values (about 60 ns and 16 to 64 bytes each), not of its text:
  // 4 MiB of `[1,1,...]` is two million of them. Nothing else reads this limit: decode(text)
  // builds no values, and exceeds() measures a value already built.
  std::size_t max_values = std::size_t{1} << 16;  // 65,536
};

}  // namespace elicit
