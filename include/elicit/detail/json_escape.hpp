// What text costs as the contents of a JSON string, counted fast: the bound a violation list
// keeps on its JSON size (violation.hpp) reads it for every violation it lists.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace elicit::detail {

// What `text` costs as a JSON string's contents, as nlohmann::json::dump() writes it: a quote
// or a backslash 2 bytes, a control character at most 6 (\u0001), any other byte 1.
// Every violation listed is counted so. Text of 16 bytes or more (nearly every violation's) is
// read sixteen bytes at a time where SSE2 is there (every x86-64): each costly byte marked in a
// mask, a block with none (nearly every block) costing no count; the last block overlaps the
// one before, its bytes already counted left out of its masks. Otherwise eight bytes at a time,
// each kind of costly byte marked by the high bit of its byte in the word (exactly: no carry
// crosses a byte) and the marks counted, so that the byte order does not matter; the last
// bytes one by one.
inline std::size_t json_escaped_size_of_bytes(std::string_view text) noexcept {
  std::size_t size = text.size();
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if (b < 0x20 || b == 0x7F) size += 5;
    else if (b == '"' || b == '\\') size += 1;
  }
  return size;
}
inline std::size_t json_escaped_size_of_words(std::string_view text) noexcept {
  constexpr std::uint64_t ones = ~std::uint64_t{0} / 255, low7 = ones * 0x7F;
  // The high bit of each byte of `w` that is zero, and of no other.
  const auto zero_bytes = [](std::uint64_t w) { return ~(((w & low7) + low7) | w | low7); };
  std::size_t size = text.size(), at = 0;
  for (; at + 8 <= text.size(); at += 8) {
    std::uint64_t w = 0;
    std::memcpy(&w, text.data() + at, 8);
    const std::uint64_t six = zero_bytes(w & (ones * 0xE0)) | zero_bytes(w ^ (ones * 0x7F));  // controls, DEL
    const std::uint64_t two = zero_bytes(w ^ (ones * '"')) | zero_bytes(w ^ (ones * '\\'));
    // Each byte's extra cost (5, 1 or 0; a byte is never both), summed into the top byte by one
    // multiplication: at most 40, so no byte's sum carries into the next.
    const std::uint64_t extra = 5 * (six >> 7) + (two >> 7);
    size += static_cast<std::size_t>((extra * ones) >> 56);
  }
  return size + json_escaped_size_of_bytes(text.substr(at)) - (text.size() - at);
}
inline std::size_t json_escaped_size(std::string_view text) noexcept {
#if defined(__SSE2__)
  const std::size_t n = text.size();
  if (n < 16) return json_escaped_size_of_words(text);
  const __m128i quote = _mm_set1_epi8('"'), backslash = _mm_set1_epi8('\\'), del = _mm_set1_epi8(0x7F);
  const __m128i last_control = _mm_set1_epi8(0x1F);
  // Each set bit of `m` counted one by one: a block holds few costly bytes (a quote or two), and
  // this is cheaper than std::popcount's call where the CPU's instruction is not assumed.
  const auto bits = [](unsigned m) {
    std::size_t count = 0;
    for (; m != 0; m &= m - 1) ++count;
    return count;
  };
  // The extra cost of the 16 bytes at `p` whose bits `keep` holds.
  const auto extra = [&](const char* p, unsigned keep) -> std::size_t {
    const __m128i w = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
    // A byte at most 0x1F is the one whose unsigned max with 0x1F is 0x1F.
    const __m128i six =
        _mm_or_si128(_mm_cmpeq_epi8(_mm_max_epu8(w, last_control), last_control), _mm_cmpeq_epi8(w, del));
    const __m128i two = _mm_or_si128(_mm_cmpeq_epi8(w, quote), _mm_cmpeq_epi8(w, backslash));
    if ((static_cast<unsigned>(_mm_movemask_epi8(_mm_or_si128(six, two))) & keep) == 0) return 0;
    return 5 * bits(static_cast<unsigned>(_mm_movemask_epi8(six)) & keep) +
           bits(static_cast<unsigned>(_mm_movemask_epi8(two)) & keep);
  };
  std::size_t size = n, at = 0;
  for (; at + 16 <= n; at += 16) size += extra(text.data() + at, 0xFFFF);
  if (at < n) size += extra(text.data() + n - 16, (0xFFFFu << (16 - (n - at))) & 0xFFFF);
  return size;
#else
  return json_escaped_size_of_words(text);
#endif
}

}  // namespace elicit::detail
