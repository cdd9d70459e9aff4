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
    const std::size_t stop = std::min(n - 15, at + std::size_t{512});  // 32 blocks: no byte of `sums` overflows
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

// What one byte adds to its text's cost as JSON string contents over its size: 5 for a
// control character or DEL, 1 for a quote or a backslash (as json_escaped_size counts them).
constexpr std::size_t json_byte_extra(char c) noexcept {
  const auto b = static_cast<unsigned char>(c);
  if (b < 0x20 || b == 0x7F) return 5;
  return b == '"' || b == '\\' ? 1 : 0;
}

#if defined(__SSE2__)
// The bytes JSON writes escaped, marked in a block: a control character, DEL, a quote, a backslash.
inline __m128i costly_bytes(__m128i w) noexcept {
  const __m128i last_control = _mm_set1_epi8(0x1F);
  return _mm_or_si128(
      _mm_or_si128(_mm_cmpeq_epi8(_mm_max_epu8(w, last_control), last_control), _mm_cmpeq_epi8(w, _mm_set1_epi8(0x7F))),
      _mm_or_si128(_mm_cmpeq_epi8(w, _mm_set1_epi8('"')), _mm_cmpeq_epi8(w, _mm_set1_epi8('\\'))));
}
// Whether `mark` sets the top bit of any byte of the `n` (4 or more) at `p`, looked at sixteen at
// once: 4 to 7 bytes as two words that overlap, 8 to 16 as two halves that overlap, longer text
// in blocks with the last overlapping the one before.
template <class Mark>
inline bool any_marked(const char* p, std::size_t n, Mark mark) noexcept {
  __m128i found;
  if (n < 8) {
    std::uint32_t head = 0, tail = 0;
    std::memcpy(&head, p, 4);
    std::memcpy(&tail, p + n - 4, 4);
    found = mark(
        _mm_set_epi32(static_cast<int>(head), static_cast<int>(tail), static_cast<int>(head), static_cast<int>(tail)));
  } else if (n <= 16) {
    found = mark(_mm_unpacklo_epi64(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(p)),
                                    _mm_loadl_epi64(reinterpret_cast<const __m128i*>(p + n - 8))));
  } else {
    found = mark(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + n - 16)));
    for (std::size_t at = 0; at + 16 < n; at += 16)
      found = _mm_or_si128(found, mark(_mm_loadu_si128(reinterpret_cast<const __m128i*>(p + at))));
  }
  return _mm_movemask_epi8(found) != 0;
}
#endif

// json_escaped_size(text) - text.size(), for the short pieces a violation is written from
// (names, titles, values: nearly always nothing costly). A violation_sink counts every piece so
// as it writes it, rather than reading its whole text again once written. Where SSE2 is there,
// the bytes are first looked at sixteen at once for any costly one (any_marked); only text that
// has one is counted exactly.
inline std::size_t json_escape_extra(std::string_view text) noexcept {
  const std::size_t n = text.size();
#if defined(__SSE2__)
  if (n < 4) {  // an empty view's data may be null
    std::size_t extra = 0;
    for (std::size_t i = 0; i < n; ++i) extra += json_byte_extra(text[i]);
    return extra;
  }
  if (!any_marked(text.data(), n, costly_bytes)) return 0;
#endif
  return json_escaped_size(text) - n;
}

// Whether `text` is ASCII that JSON writes as it is (no control, DEL, quote or backslash): what
// an answer's text nearly always is. It is then UTF-8, and costs its size as JSON, found in one
// look (any_marked, as json_escape_extra looks) where checking each would read it twice.
inline bool plain_ascii(std::string_view text) noexcept {
  const std::size_t n = text.size();
#if defined(__SSE2__)
  // A costly byte, or one of 0x80 and more (its own top bit, which the mask takes as it is).
  if (n >= 4) return !any_marked(text.data(), n, [](__m128i w) { return _mm_or_si128(w, costly_bytes(w)); });
#endif
  for (std::size_t i = 0; i < n; ++i)
    if (static_cast<unsigned char>(text[i]) >= 0x80 || json_byte_extra(text[i]) != 0) return false;
  return true;
}

// Text and its json_escape_extra, known before it is written: a catalogue's words (counted
// once, when the catalogue is made) and elicit's own literals (at compile time). A
// violation_sink adds the count without looking at the text; any other sink puts the text.
struct known_text {
  std::string_view text;
  std::size_t extra = 0;
};
// json_escape_extra where it must be constant: a field's description, a literal.
constexpr std::size_t json_extra_of(std::string_view text) noexcept {
  std::size_t extra = 0;
  for (const char c : text) extra += json_byte_extra(c);
  return extra;
}
consteval known_text known(std::string_view text) { return {text, json_extra_of(text)}; }
template <class Sink>
[[gnu::always_inline]] constexpr void put_known(Sink& out, std::string_view text, std::size_t extra) {
  if constexpr (requires { out.put_known(text, extra); }) out.put_known(text, extra);
  else out.put(text);
}
template <class Sink>
[[gnu::always_inline]] constexpr void put_known(Sink& out, known_text t) {
  put_known(out, t.text, t.extra);
}

}  // namespace elicit::detail
