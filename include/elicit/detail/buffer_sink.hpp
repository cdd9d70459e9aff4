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

// Copies n bytes, inline when there are at most 16 of them (a message's parts are mostly
// names, keywords and short values: a call to memcpy for each would cost more than the copy).
// Two overlapping copies of 8 (or 4) bytes cover any length from 8 to 16 (4 to 8).
[[gnu::always_inline]] inline void copy_short(char* to, const char* from, std::size_t n) noexcept {
  if (n > 16) {
    std::memcpy(to, from, n);
  } else if (n >= 8) {
    std::uint64_t head = 0, tail = 0;
    std::memcpy(&head, from, 8);
    std::memcpy(&tail, from + n - 8, 8);
    std::memcpy(to, &head, 8);
    std::memcpy(to + n - 8, &tail, 8);
  } else if (n >= 4) {
    std::uint32_t head = 0, tail = 0;
    std::memcpy(&head, from, 4);
    std::memcpy(&tail, from + n - 4, 4);
    std::memcpy(to, &head, 4);
    std::memcpy(to + n - 4, &tail, 4);
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
