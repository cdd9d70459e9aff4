// Messages: the parts are written one after another into a sink. message() writes into a
// buffer on the stack, then copies the text once, at its exact size, into the std::string it
// returns; a violation's message is written the same way straight into its list's text
// (detail::violation_sink, detail/violation_storage.hpp). Nothing is built for a valid answer; an
// invalid one builds a message per broken rule, and this keeps that cost close to what a
// hand-written check pays for a plainer sentence.
//
//   message(label_of(s), " must be at least ", *s.minimum, "; got ", v, ".")
#pragma once

#include <elicit/detail/buffer_sink.hpp>
#include <elicit/detail/json_escape.hpp>
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

  template <class Sink>
  void write(Sink& out) const {
    write_unsigned(out, n);
    out.put(' ');
    out.put(n == 1 ? one : many);
  }
};

// A part is text, a `number`, an integer, or a type with write(sink).
template <class Part>
inline constexpr bool is_text_part = std::is_convertible_v<const Part&, std::string_view>;

// A string literal's length is known: no strlen at run time.
template <class Part>
constexpr std::string_view text_of(const Part& part) noexcept {
  if constexpr (std::is_array_v<Part>) return {part, std::extent_v<Part> - 1};
  else return part;
}

template <class Sink, class Part>
void write_part(Sink& out, const Part& part) {
  if constexpr (is_text_part<Part>) out.put(text_of(part));
  else if constexpr (std::is_same_v<Part, known_text>) put_known(out, part);
  else if constexpr (std::is_same_v<Part, number>) write_number(out, part);
  else if constexpr (plain_integer<Part> && std::is_signed_v<Part>) write_signed(out, part);
  else if constexpr (plain_integer<Part>) write_unsigned(out, part);
  else part.write(out);
}

// Writes into a buffer on the stack, moving to the heap only if the text outgrows it (a
// message of more than 256 bytes: a long title, or many choices).
class scratch_sink : public buffer_sink<scratch_sink> {
 public:
  scratch_sink() {
    next_ = local_;
    end_ = local_ + sizeof local_;
  }
  [[nodiscard]] std::string_view text() const noexcept { return {begin_, static_cast<std::size_t>(next_ - begin_)}; }

 private:
  friend class buffer_sink<scratch_sink>;
  void grow(std::size_t more) {
    const auto used = static_cast<std::size_t>(next_ - begin_);
    std::string bigger(2 * (used + more), '\0');
    std::memcpy(bigger.data(), begin_, used);
    heap_ = std::move(bigger);
    begin_ = heap_.data();
    next_ = begin_ + used;
    end_ = begin_ + heap_.size();
  }

  char local_[256];  // not initialized: written before it is read
  std::string heap_;
  char* begin_ = local_;
};

template <class... Parts>
[[nodiscard]] std::string message(const Parts&... parts) {
  scratch_sink sink;
  (write_part(sink, parts), ...);
  return std::string(sink.text());
}

}  // namespace elicit::detail
