// A message sink (what detail/message.hpp's writers write into) that writes through two
// pointers of its own, inlined: a message is a dozen small puts, and a call each would cost
// more than the copy. `Derived` owns the buffer: when a put would pass end_, the sink calls
// Derived::grow(more), which makes room for `more` bytes and sets next_ and end_ again.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace elicit::detail {

// Copies n bytes, sizeof(Word) <= n <= 2 * sizeof(Word), as two `Word`s that overlap: the
// first and the last, both read before either is written.
template <class Word>
[[gnu::always_inline]] inline void copy_ends(char* to, const char* from, std::size_t n) noexcept {
  Word head{}, tail{};
  std::memcpy(&head, from, sizeof head);
  std::memcpy(&tail, from + n - sizeof tail, sizeof tail);
  std::memcpy(to, &head, sizeof head);
  std::memcpy(to + n - sizeof tail, &tail, sizeof tail);
}

// Sixteen bytes, copied as one (two registers at most, whatever the target).
struct sixteen_bytes {
  std::uint64_t low, high;
};

// More than 32 bytes: memcpy's call, made here (out of line, a call as memcpy is one) so that
// the copies inlined below do not put a call of memcpy longer than 32 bytes beside every short
// source (g++ 12 then warns that the copy would pass the end of a small buffer).
[[gnu::noinline]] inline void copy_long(char* to, const char* from, std::size_t n) noexcept {
  std::memcpy(to, from, n);
}

// Copies n bytes, inline when there are at most 32 of them (a message's parts are mostly
// names, titles, keywords and short values: a call to memcpy for each would cost more than the
// copy).
[[gnu::always_inline]] inline void copy_short(char* to, const char* from, std::size_t n) noexcept {
  if (n > 32) {
    copy_long(to, from, n);
  } else if (n >= 16) {
    copy_ends<sixteen_bytes>(to, from, n);
  } else if (n >= 8) {
    copy_ends<std::uint64_t>(to, from, n);
  } else if (n >= 4) {
    copy_ends<std::uint32_t>(to, from, n);
  } else if (n != 0) {  // 1 to 3 bytes; an empty view's data may be null
    to[0] = from[0];
    to[n / 2] = from[n / 2];
    to[n - 1] = from[n - 1];
  }
}

template <class Derived>
class buffer_sink {
 public:
  buffer_sink(const buffer_sink&) = delete;  // it points into what its Derived owns
  buffer_sink& operator=(const buffer_sink&) = delete;

  [[gnu::always_inline]] void put(char c) {
    if (next_ == end_) derived().grow(1);
    *next_++ = c;
  }
  [[gnu::always_inline]] void put(std::string_view t) {
    if (t.size() > static_cast<std::size_t>(end_ - next_)) derived().grow(t.size());
    copy_short(next_, t.data(), t.size());
    next_ += t.size();
  }

 protected:
  buffer_sink() = default;
  ~buffer_sink() = default;

  char* next_ = nullptr;  // where the next byte goes
  char* end_ = nullptr;   // the end of the room

 private:
  Derived& derived() noexcept { return static_cast<Derived&>(*this); }
};

}  // namespace elicit::detail
