// Violation messages, each built in one allocation: the parts are measured (an upper bound
// each), the string is reserved once, then the parts are written into it. Nothing is built
// for a valid answer; an invalid one builds a message per broken rule, and this keeps that
// cost close to what a hand-written check pays for a plainer sentence.
//
//   message(label_of(s), " must be at least ", *s.minimum, "; got ", v, ".")
#pragma once

#include <elicit/detail/number_text.hpp>

#include <cstddef>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace elicit::detail {

// A count and its noun, singular or plural: "1 character", "9 characters".
struct counted {
  std::size_t n;
  std::string_view one, many;

  [[nodiscard]] std::size_t bound() const noexcept {
    return 21 + (one.size() > many.size() ? one.size() : many.size());
  }
  template <class Sink>
  void write(Sink& out) const {
    write_unsigned(out, n);
    out.put(' ');
    out.put(n == 1 ? one : many);
  }
};

// A part is text, a `number`, an integer, or a type with bound() and write(sink).
template <class Part>
inline constexpr bool is_text_part = std::is_convertible_v<const Part&, std::string_view>;

// A string literal's length is known: no strlen at run time.
template <class Part>
constexpr std::string_view text_of(const Part& part) noexcept {
  if constexpr (std::is_array_v<Part>) return {part, std::extent_v<Part> - 1};
  else return part;
}

template <class Part>
std::size_t part_bound(const Part& part) noexcept {
  if constexpr (is_text_part<Part>) return text_of(part).size();
  else if constexpr (std::is_same_v<Part, number> || plain_integer<Part>) return 32;  // "-2.2250738585072014e-308"
  else return part.bound();
}

template <class Sink, class Part>
void write_part(Sink& out, const Part& part) {
  if constexpr (is_text_part<Part>) out.put(text_of(part));
  else if constexpr (std::is_same_v<Part, number>) write_number(out, part);
  else if constexpr (plain_integer<Part> && std::is_signed_v<Part>) write_signed(out, part);
  else if constexpr (plain_integer<Part>) write_unsigned(out, part);
  else part.write(out);
}

// Writes into a string sized beforehand, growing it only if a bound was short.
class sized_sink {
 public:
  // Inlined: a message is a dozen small puts, and a call each would cost more than the copy.
  explicit sized_sink(std::size_t bound) : text_(bound, '\0'), next_(text_.data()), end_(next_ + bound) {}
  [[gnu::always_inline]] void put(char c) {
    if (next_ == end_) grow(1);
    *next_++ = c;
  }
  [[gnu::always_inline]] void put(std::string_view t) {
    if (t.size() > static_cast<std::size_t>(end_ - next_)) grow(t.size());
    std::memcpy(next_, t.data(), t.size());
    next_ += t.size();
  }
  std::string take() && {
    text_.resize(static_cast<std::size_t>(next_ - text_.data()));
    return std::move(text_);
  }

 private:
  void grow(std::size_t more) {
    const auto used = static_cast<std::size_t>(next_ - text_.data());
    text_.resize(2 * (used + more));
    next_ = text_.data() + used;
    end_ = text_.data() + text_.size();
  }

  std::string text_;
  char* next_;
  char* end_;
};

template <class... Parts>
[[nodiscard]] std::string message(const Parts&... parts) {
  sized_sink out((part_bound(parts) + ...));
  (write_part(out, parts), ...);
  return std::move(out).take();
}

}  // namespace elicit::detail
