// elicit::violation: one rule of the schema that an answer broke.
//
//   for (const elicit::violation& v : response.violations())
//     log("{}", v);   // "/postcode: Postcode must be at most 8 characters long; got 9. (maxLength)"
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <optional>
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

// Every violation of one answer, in the order of the form's fields. A list holds at most
// `limit` of them (decode_options::max_violations); the rest are counted, not kept, and
// summarize() then adds one violation that says how many more there were. So an answer of a
// million wrong items costs a bounded list and a bounded error, not a million messages.
class violation_list {
 public:
  using value_type = violation;
  using const_iterator = std::vector<violation>::const_iterator;

  static constexpr std::size_t unlimited = static_cast<std::size_t>(-1);

  violation_list() = default;
  // `expected`: how many an invalid answer is likely to break (decoding gives the form's field
  // count). Room for that many is made at the first one, so that the list does not grow, moving
  // its violations, while an answer that breaks every rule is read.
  explicit violation_list(std::size_t limit, std::size_t expected = 4) : limit_(limit), expected_(expected) {}
  explicit violation_list(std::vector<violation> items) : items_(std::move(items)), total_(items_.size()) {}

  [[nodiscard]] const_iterator begin() const noexcept { return items_.begin(); }
  [[nodiscard]] const_iterator end() const noexcept { return items_.end(); }
  // How many are listed (with the summary, when there is one).
  [[nodiscard]] std::size_t size() const noexcept { return items_.size(); }
  [[nodiscard]] bool empty() const noexcept { return items_.empty(); }
  // How many were reported, listed or not (the summary not counted).
  [[nodiscard]] std::size_t total() const noexcept { return total_; }
  // True when the next one reported will be counted but not kept.
  [[nodiscard]] bool full() const noexcept { return listed() >= limit_; }
  [[nodiscard]] const violation& operator[](std::size_t i) const { return items_.at(i); }
  [[nodiscard]] const std::vector<violation>& items() const noexcept { return items_; }
  void push_back(violation v) { emplace_back() = std::move(v); }
  // A new, empty violation at the end, to be filled in place; beyond the limit, a scratch one
  // that is counted and then forgotten.
  violation& emplace_back() {
    ++total_;
    if (full()) return overflow_.emplace();
    if (items_.capacity() == 0) items_.reserve(std::min(expected_, limit_) + 1);  // + 1: the summary
    return items_.emplace_back();
  }
  // Counts one violation beyond the limit without building it.
  void omit() noexcept { ++total_; }
  // Adds, once, the violation that says how many were not listed (keyword "maxViolations").
  void summarize() {
    if (summarized_ || total_ == listed()) return;
    const std::size_t more = total_ - listed();
    items_.push_back(
        {"", "maxViolations",
         std::to_string(more) + (more == 1 ? " more violation was" : " more violations were") + " not listed."});
    summarized_ = true;
  }

 private:
  [[nodiscard]] std::size_t listed() const noexcept { return items_.size() - (summarized_ ? 1 : 0); }

  std::vector<violation> items_;
  std::size_t limit_ = unlimited;
  std::size_t expected_ = 4;
  std::size_t total_ = 0;
  bool summarized_ = false;
  std::optional<violation> overflow_;  // the scratch one; only a list past its limit makes it
};

}  // namespace elicit

// "/postcode: Postcode must be at most 8 characters long; got 9. (maxLength)"
template <>
struct fmt::formatter<elicit::violation> : fmt::formatter<fmt::string_view> {
  template <class Context>
  auto format(const elicit::violation& v, Context& ctx) const -> decltype(ctx.out()) {
    const std::string text =
        fmt::format("{}: {} ({})", v.pointer.empty() ? "(answer)" : v.pointer, v.message, v.keyword);
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
