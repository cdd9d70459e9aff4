// String types whose schema carries a `format`: elicit::email and elicit::uri; and the text of a
// date and of an instant as a form's answer writes them (date_text, date_time_text).
//
// A client that knows the format may render a better widget (a mail or link field); one that
// does not shows a text field. Either way the answer is checked on arrival (see decode.hpp).
#pragma once

#include <elicit/detail/text_formats.hpp>

#include <chrono>
#include <compare>
#include <string>
#include <string_view>
#include <utility>

namespace elicit {

namespace detail {
// Text with a meaning: behaves as a std::string, but its own type selects the format.
template <class Tag>
class formatted_text {
 public:
  formatted_text() = default;
  formatted_text(std::string text) : text_(std::move(text)) {}  // NOLINT: reads like a string
  formatted_text(const char* text) : text_(text) {}             // NOLINT
  formatted_text(std::string_view text) : text_(text) {}        // NOLINT

  [[nodiscard]] const std::string& str() const noexcept { return text_; }
  operator const std::string&() const noexcept { return text_; }  // NOLINT
  operator std::string_view() const noexcept { return text_; }    // NOLINT
  [[nodiscard]] bool empty() const noexcept { return text_.empty(); }
  [[nodiscard]] std::size_t size() const noexcept { return text_.size(); }
  [[nodiscard]] const char* c_str() const noexcept { return text_.c_str(); }

  friend bool operator==(const formatted_text&, const formatted_text&) = default;
  friend auto operator<=>(const formatted_text&, const formatted_text&) = default;
  friend bool operator==(const formatted_text& a, std::string_view b) noexcept { return a.text_ == b; }

 private:
  std::string text_;
};
struct email_tag {};
struct uri_tag {};
}  // namespace detail

// An e-mail address: `{"type":"string","format":"email"}`.
using email = detail::formatted_text<detail::email_tag>;
// An absolute URI: `{"type":"string","format":"uri"}`.
using uri = detail::formatted_text<detail::uri_tag>;

// A date as a `format: date` field's answer writes it (RFC 3339's full-date, "2026-12-04"): to
// say a decoded std::chrono::year_month_day back to the person or in a tool's result. A date
// that is not ok() is written field by field all the same. Throws only std::bad_alloc.
[[nodiscard]] inline std::string date_text(const std::chrono::year_month_day& d) { return detail::format_date(d); }

// An instant as a `format: date-time` field's answer is decoded to it, in UTC:
// "2026-12-04T16:46:45Z". Throws only std::bad_alloc.
[[nodiscard]] inline std::string date_time_text(std::chrono::sys_seconds t) { return detail::format_date_time(t); }

}  // namespace elicit
