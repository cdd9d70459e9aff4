// A message sink (what detail/message.hpp's writers write into) that writes through two
// pointers of its own, inlined: a message is a dozen small puts, and a call each would cost
// more than the copy. `Derived` owns the buffer: when a put would pass end_, the sink calls
// Derived::grow(more), which makes room for `more` bytes and sets next_ and end_ again.
#pragma once

#include <cstddef>
#include <cstring>
#include <string_view>

namespace elicit::detail {

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
    if (!t.empty()) std::memcpy(next_, t.data(), t.size());  // an empty view's data may be null
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
