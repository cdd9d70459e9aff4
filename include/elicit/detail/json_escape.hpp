// What text costs as the contents of a JSON string, counted fast: the bound a violation list
// keeps on its JSON size (violation.hpp) reads it for every violation it lists.
#pragma once

#include <algorithm>
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
// read sixteen bytes at a time where SSE2 is there (every x86-64): each costly byte's extra cost
// added to a byte of sums, without a branch; the last block overlaps the one before, its bytes
// already counted left out of its marks. Otherwise eight bytes at a time,
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
  const __m128i last_control = _mm_set1_epi8(0x1F), five = _mm_set1_epi8(5), zero = _mm_setzero_si128();
  // Each byte's extra cost (5, 1 or 0) added into a byte of `sums` for its place in the block,
  // with no branch: a violation's text holds a quote every few blocks, and a branch per block
  // cost more than the sums. At most 6 per block, so 32 blocks' sums fit a byte; then the
  // bytes are added up (_mm_sad_epu8) and the sums start again.
  __m128i sums = zero;
  // The block's costly bytes, those of `keep` only; a marked byte is -1, and minus it adds 1.
  const auto add_block = [&](__m128i w, __m128i keep) {
    // A byte at most 0x1F is the one whose unsigned max with 0x1F is 0x1F.
    const __m128i six =
        _mm_or_si128(_mm_cmpeq_epi8(_mm_max_epu8(w, last_control), last_control), _mm_cmpeq_epi8(w, del));
    const __m128i two = _mm_or_si128(_mm_cmpeq_epi8(w, quote), _mm_cmpeq_epi8(w, backslash));
    sums = _mm_sub_epi8(_mm_add_epi8(sums, _mm_and_si128(_mm_and_si128(six, keep), five)), _mm_and_si128(two, keep));
  };
  const __m128i all = _mm_set1_epi8(-1);
  std::size_t size = n;
  const auto add_up = [&] {
    const __m128i halves = _mm_sad_epu8(sums, zero);
    size += static_cast<std::size_t>(_mm_cvtsi128_si32(halves)) +
            static_cast<std::size_t>(_mm_cvtsi128_si32(_mm_unpackhi_epi64(halves, halves)));
    sums = zero;
  };
  std::size_t at = 0;
  while (at + 16 <= n) {
    const std::size_t stop = std::min(n - 15, at + 32 * 16);
    for (; at < stop; at += 16) add_block(_mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + at)), all);
    add_up();
  }
  if (at < n) {
    // The last 16 bytes, those already counted masked out: the mask's bytes from 16 - (n - at) on.
    alignas(16) static constexpr unsigned char ends[32] = {
        0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,    0,
        0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    const __m128i keep = _mm_loadu_si128(reinterpret_cast<const __m128i*>(ends + (n - at)));
    add_block(_mm_loadu_si128(reinterpret_cast<const __m128i*>(text.data() + n - 16)), keep);
    add_up();
  }
  return size;
#else
  return json_escaped_size_of_words(text);
#endif
}

}  // namespace elicit::detail
