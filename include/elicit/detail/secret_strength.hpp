// Whether a secret is strong enough to derive sealing keys from (key_ring::add, state_key): pure
// arithmetic on its bytes, no cryptography, so that the rule can be read and tested alone.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <span>
#include <vector>

namespace elicit::detail {

// The shortest period of `v`: the least p with v[i] == v[i + p] for every i < size - p. It is the
// size less the longest border (a prefix that is also a suffix), found in O(size) as
// Knuth-Morris-Pratt does.
inline std::size_t shortest_period(std::span<const unsigned char> v) {
  if (v.empty()) return 0;
  std::vector<std::size_t> border(v.size(), 0);
  for (std::size_t i = 1, k = 0; i < v.size(); ++i) {
    while (k > 0 && v[i] != v[k]) k = border[k - 1];
    if (v[i] == v[k]) ++k;
    border[i] = k;
  }
  return v.size() - border.back();
}

// The Shannon entropy of the bytes' histogram, in bits a byte: 0 for one byte repeated, 3 for
// eight bytes equally often, at most 8.
inline double entropy_per_byte(std::span<const unsigned char> v) {
  std::array<std::size_t, 256> count{};
  for (unsigned char b : v) ++count[b];
  const auto n = static_cast<double>(v.size());
  double sum = 0;  // of c log2 c
  for (std::size_t c : count)
    if (c > 1) sum += static_cast<double>(c) * std::log2(static_cast<double>(c));
  return std::log2(n) - sum / n;
}

// Why a secret is too weak to seal with, or nothing. The rule: a secret is refused when
//   - it is shorter than 32 bytes; or when its bytes, or its steps (the differences between
//     neighbouring bytes, modulo 256: one fewer), are
//   - periodic with a period of at most half their length: two or more copies of one block,
//     the last maybe cut (all zero, "01234567" x 4, "Password1" x 4, any block twice; in the
//     steps: runs such as "abcdef...", "02468...", "zyx...", strides that repeat); or
//   - of under 3 bits of entropy a byte (Shannon, of their histogram; 3 is eight values equally
//     often): few distinct bytes, or a few that dominate ("aaaa...ab"; in the steps, a run
//     broken once, "abc...xyz012345").
// 32 random bytes are refused with a probability under 2^-83 (the entropy rules; the periods
// 2^-127): state_key::generate() draws again then, so a generated key always passes.
inline const char* weak_secret(std::span<const unsigned char> secret) {
  if (secret.size() < 32) return "a secret for sealing state must be at least 32 bytes";
  std::vector<unsigned char> steps(secret.size() - 1);
  for (std::size_t i = 0; i + 1 < secret.size(); ++i) steps[i] = static_cast<unsigned char>(secret[i + 1] - secret[i]);
  if (2 * shortest_period(secret) <= secret.size())
    return "the secret is a shorter block repeated (all zero, \"Password1\" x 4...): use state_key::generate()";
  if (2 * shortest_period(steps) <= steps.size())
    return "the secret is a run whose steps repeat (\"abcdef...\", \"02468...\"): use state_key::generate()";
  constexpr double least_bits = 3.0 - 1e-9;  // eight values equally often pass, rounding aside
  if (entropy_per_byte(secret) < least_bits)
    return "the secret has under 3 bits of entropy a byte (too few distinct bytes, or a few that dominate): use "
           "state_key::generate()";
  if (entropy_per_byte(steps) < least_bits)
    return "the secret's steps from byte to byte have under 3 bits of entropy (a run, broken here and there): use "
           "state_key::generate()";
  return nullptr;
}

}  // namespace elicit::detail
