// A fixed 32-byte secret for the tests of sealed state and the open fuzzer: the bytes of a 64-bit
// mixing generator, in no pattern, so that key_ring::add and state_key take it as strong. The
// same seed gives the same secret, as instances of one server share one.
#pragma once

#include <array>
#include <cstdint>

namespace test_support {

inline std::array<unsigned char, 32> mixed_secret(std::uint64_t seed) {
  std::array<unsigned char, 32> bytes{};
  std::uint64_t x = seed * 0x9E3779B97F4A7C15u + 1;
  for (unsigned char& b : bytes) {
    x ^= x >> 31;
    x *= 0xBF58476D1CE4E5B9u;
    x ^= x >> 29;
    b = static_cast<unsigned char>(x >> 56);
  }
  return bytes;
}

}  // namespace test_support
