// elicit::violation: one rule of the schema that an answer broke.
//
//   for (const elicit::violation& v : response.violations())
//     log("{}", v);   // "/postcode: Postcode must be at most 8 characters long; got 9. (maxLength)"
#pragma once

#include <fmt/format.h>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace elicit {

struct violation {
  std::string pointer;  // JSON Pointer into the content: "/postcode", "/colors/1"; "" for the whole
  std::string keyword;  // the JSON Schema keyword that failed: type, required, minimum, maxLength, enum...
  std::string message;  // one sentence a person can act on

  friend bool operator==(const violation&, const violation&) = default;
};

// Every violation of one answer, in the order of the form's fields.
class violation_list {
 public:
  using value_type = violation;
  using const_iterator = std::vector<violation>::const_iterator;

  violation_list() = default;
  explicit violation_list(std::vector<violation> items) : items_(std::move(items)) {}

  [[nodiscard]] const_iterator begin() const noexcept { return items_.begin(); }
  [[nodiscard]] const_iterator end() const noexcept { return items_.end(); }
  [[nodiscard]] std::size_t size() const noexcept { return items_.size(); }
  [[nodiscard]] bool empty() const noexcept { return items_.empty(); }
  [[nodiscard]] const violation& operator[](std::size_t i) const { return items_[i]; }
  [[nodiscard]] const std::vector<violation>& items() const noexcept { return items_; }
  void push_back(violation v) { emplace_back() = std::move(v); }
  // A new, empty violation at the end, to be filled in place.
  violation& emplace_back() {
    if (items_.capacity() == 0) items_.reserve(4);  // an invalid answer seldom breaks more: one allocation
    return items_.emplace_back();
  }

 private:
  std::vector<violation> items_;
};

}  // namespace elicit

// "/postcode: Postcode must be at most 8 characters long; got 9. (maxLength)"
template <>
struct fmt::formatter<elicit::violation> : fmt::formatter<fmt::string_view> {
  template <class Context>
  auto format(const elicit::violation& v, Context& ctx) const -> decltype(ctx.out()) {
    const std::string text = fmt::format("{}: {} ({})", v.pointer.empty() ? "(answer)" : v.pointer,
                                         v.message, v.keyword);
    return fmt::formatter<fmt::string_view>::format(text, ctx);
  }
};

// The violations one after another, separated by "; ".
template <>
struct fmt::formatter<elicit::violation_list> : fmt::formatter<fmt::string_view> {
  template <class Context>
  auto format(const elicit::violation_list& list, Context& ctx) const -> decltype(ctx.out()) {
    std::string text;
    for (const elicit::violation& v : list) {
      if (!text.empty()) text += "; ";
      text += fmt::format("{}", v);
    }
    return fmt::formatter<fmt::string_view>::format(text, ctx);
  }
};
