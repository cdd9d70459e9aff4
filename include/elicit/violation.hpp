// elicit::violation: one rule of the schema that an answer broke.
//
//   for (const auto& v : response.violations())
//     log("{}", v);   // "/postcode: Postcode must be at most 8 characters long; got 9. (maxLength)"
//
// A violation_list keeps the text of all its violations in one buffer and hands out
// violation_views into it (an invalid answer costs two allocations, not three strings per
// broken rule). A view is valid while its list lives unchanged; to keep one longer, convert
// it to an owning elicit::violation:
//
//   elicit::violation kept = response.violations()[0];
#pragma once

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace elicit {

namespace detail {
struct reporter;
}

// A violation that owns its text.
struct violation {
  std::string pointer;  // JSON Pointer into the content: "/postcode", "/colors/1"; "" for the whole
  std::string keyword;  // the JSON Schema keyword that failed: type, required, minimum, maxLength, enum...
  std::string message;  // one sentence a person can act on

  friend bool operator==(const violation&, const violation&) = default;
};

// A violation as its list holds it: the same three members, viewing the list's text.
struct violation_view {
  std::string_view pointer;
  std::string_view keyword;
  std::string_view message;

  violation_view() = default;
  violation_view(std::string_view p, std::string_view k, std::string_view m) noexcept
      : pointer(p), keyword(k), message(m) {}
  violation_view(const violation& v) noexcept  // implicit: a view of what it is given
      : pointer(v.pointer), keyword(v.keyword), message(v.message) {}
  // A copy that owns its text.
  operator violation() const {  // implicit: keeping a view is copying it
    return {std::string(pointer), std::string(keyword), std::string(message)};
  }

  friend bool operator==(const violation_view&, const violation_view&) = default;
};

// Every violation of one answer, in the order of the form's fields. A list holds at most
// `limit` of them (decode_options::max_violations); the rest are counted, not kept, and
// summarize() then adds one violation that says how many more there were. So an answer of a
// million wrong items costs a bounded list and a bounded error, not a million messages.
class violation_list {
  // Where one violation's text lies in text_: pointer, keyword and message, one after another.
  struct entry {
    std::size_t pointer, keyword, message, end;
  };

 public:
  using value_type = violation_view;

  class const_iterator {
   public:
    using iterator_category = std::random_access_iterator_tag;
    using value_type = violation_view;
    using difference_type = std::ptrdiff_t;
    using reference = violation_view;
    using pointer = void;

    // What -> reaches: the view, held by value.
    struct arrow {
      violation_view v;
      const violation_view* operator->() const noexcept { return &v; }
    };

    const_iterator() = default;
    [[nodiscard]] violation_view operator*() const { return list_->view(at_); }
    [[nodiscard]] arrow operator->() const { return {list_->view(at_)}; }
    [[nodiscard]] violation_view operator[](difference_type n) const { return list_->view(at_ + n); }
    const_iterator& operator++() { return ++at_, *this; }
    const_iterator operator++(int) { return {list_, at_++}; }
    const_iterator& operator--() { return --at_, *this; }
    const_iterator operator--(int) { return {list_, at_--}; }
    const_iterator& operator+=(difference_type n) { return at_ += n, *this; }
    const_iterator& operator-=(difference_type n) { return at_ -= n, *this; }
    friend const_iterator operator+(const_iterator i, difference_type n) { return i += n; }
    friend const_iterator operator+(difference_type n, const_iterator i) { return i += n; }
    friend const_iterator operator-(const_iterator i, difference_type n) { return i -= n; }
    friend difference_type operator-(const const_iterator& a, const const_iterator& b) { return a.at_ - b.at_; }
    friend bool operator==(const const_iterator& a, const const_iterator& b) { return a.at_ == b.at_; }
    friend auto operator<=>(const const_iterator& a, const const_iterator& b) { return a.at_ <=> b.at_; }

   private:
    friend class violation_list;
    const_iterator(const violation_list* list, difference_type at) : list_(list), at_(at) {}
    const violation_list* list_ = nullptr;
    difference_type at_ = 0;
  };

  static constexpr std::size_t unlimited = static_cast<std::size_t>(-1);

  violation_list() = default;
  // `expected`: how many an invalid answer is likely to break (decoding gives the form's field
  // count). Room for that many, and for their text, is made at the first one, so that the list
  // does not grow while an answer that breaks every rule is read.
  explicit violation_list(std::size_t limit, std::size_t expected = 4) : limit_(limit), expected_(expected) {}
  explicit violation_list(const std::vector<violation>& items) {
    for (const violation& v : items) push_back(v);
  }

  [[nodiscard]] const_iterator begin() const noexcept { return {this, 0}; }
  [[nodiscard]] const_iterator end() const noexcept { return {this, static_cast<std::ptrdiff_t>(entries_.size())}; }
  // How many are listed (with the summary, when there is one).
  [[nodiscard]] std::size_t size() const noexcept { return entries_.size(); }
  [[nodiscard]] bool empty() const noexcept { return entries_.empty(); }
  // How many were reported, listed or not (the summary not counted).
  [[nodiscard]] std::size_t total() const noexcept { return total_; }
  // True when the next one reported will be counted but not kept.
  [[nodiscard]] bool full() const noexcept { return listed() >= limit_; }
  // The i-th; throws std::out_of_range past the end. A view: valid while the list lives unchanged.
  [[nodiscard]] violation_view operator[](std::size_t i) const {
    if (i >= entries_.size()) throw std::out_of_range("elicit::violation_list: no violation at this index");
    return view(static_cast<std::ptrdiff_t>(i));
  }
  // Copies that own their text.
  [[nodiscard]] std::vector<violation> items() const { return {begin(), end()}; }

  // Adds one (its text copied into the list's), or past the limit counts it.
  void push_back(violation_view v) {
    ++total_;
    if (listed() >= limit_) return;
    append(v.pointer, v.keyword, v.message);
  }
  // Counts one violation beyond the limit without building it.
  void omit() noexcept { ++total_; }
  // Adds, once, the violation that says how many were not listed (keyword "maxViolations").
  void summarize() {
    if (summarized_ || total_ == listed()) return;
    const std::size_t more = total_ - listed();
    append(
        "", "maxViolations",
        std::to_string(more) + (more == 1 ? " more violation was not listed." : " more violations were not listed."));
    summarized_ = true;
  }

  friend bool operator==(const violation_list& a, const violation_list& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  [[nodiscard]] std::size_t listed() const noexcept { return entries_.size() - (summarized_ ? 1 : 0); }
  [[nodiscard]] violation_view view(std::ptrdiff_t i) const {
    const entry& e = entries_[static_cast<std::size_t>(i)];
    const std::string_view text = text_;
    return {text.substr(e.pointer, e.keyword - e.pointer), text.substr(e.keyword, e.message - e.keyword),
            text.substr(e.message, e.end - e.message)};
  }
  void append(std::string_view pointer, std::string_view keyword, std::string_view message) {
    make_room();
    entry e{};
    e.pointer = text_.size();
    text_ += pointer;
    e.keyword = text_.size();
    text_ += keyword;
    e.message = text_.size();
    text_ += message;
    e.end = text_.size();
    entries_.push_back(e);
  }
  // The same, from one text that holds the pointer, the keyword and the message one after
  // another: one copy (how detail::reporter files what it wrote).
  friend struct detail::reporter;
  void push_back_written(std::string_view written, std::size_t pointer_size, std::size_t keyword_size) {
    ++total_;
    if (listed() >= limit_) return;
    make_room();
    const std::size_t at = text_.size();
    text_ += written;
    entries_.push_back({at, at + pointer_size, at + pointer_size + keyword_size, text_.size()});
  }
  void make_room() {
    if (entries_.capacity() != 0) return;
    const std::size_t room = std::min(expected_, limit_) + 1;  // + 1: the summary
    entries_.reserve(room);
    text_.reserve(room * 96);  // a pointer, a keyword and a sentence of about 80 bytes each
  }

  std::vector<entry> entries_;
  std::string text_;
  std::size_t limit_ = unlimited;
  std::size_t expected_ = 4;
  std::size_t total_ = 0;
  bool summarized_ = false;
};

}  // namespace elicit

namespace elicit::detail {
// What the formatters below share: no format spec ("{}" only), so that a violation is printed
// one way everywhere.
struct spec_free_formatter {
  constexpr auto parse(fmt::format_parse_context& ctx) -> decltype(ctx.begin()) {
    if (ctx.begin() != ctx.end() && *ctx.begin() != '}')
      throw fmt::format_error("elicit: a violation takes no format spec");
    return ctx.begin();
  }
};
}  // namespace elicit::detail

// "/postcode: Postcode must be at most 8 characters long; got 9. (maxLength)"
template <>
struct fmt::formatter<elicit::violation_view> : elicit::detail::spec_free_formatter {
  template <class Context>
  auto format(const elicit::violation_view& v, Context& ctx) const -> decltype(ctx.out()) {
    return fmt::format_to(ctx.out(), "{}: {} ({})", v.pointer.empty() ? "(answer)" : v.pointer, v.message, v.keyword);
  }
};

template <>
struct fmt::formatter<elicit::violation> : fmt::formatter<elicit::violation_view> {
  template <class Context>
  auto format(const elicit::violation& v, Context& ctx) const -> decltype(ctx.out()) {
    return fmt::formatter<elicit::violation_view>::format(elicit::violation_view(v), ctx);
  }
};

// The violations one after another, separated by "; ".
template <>
struct fmt::formatter<elicit::violation_list> : elicit::detail::spec_free_formatter {
  template <class Context>
  auto format(const elicit::violation_list& list, Context& ctx) const -> decltype(ctx.out()) {
    auto out = ctx.out();
    const char* separator = "";
    for (const elicit::violation_view v : list) {
      out = fmt::format_to(out, "{}{}", separator, v);
      separator = "; ";
    }
    return out;
  }
};
