// elicit::violation: one rule of the schema that an answer broke.
//
//   for (const auto& v : response.violations())
//     log("{}", v);   // "/postcode: Postcode must be at most 8 characters long; got 9. (maxLength)"
//
// A violation_list keeps the text of all its violations in one buffer and hands out
// violation_views into it (an invalid answer costs one allocation, not three strings per
// broken rule). A view is valid while its list lives unchanged; to keep one longer, convert
// it to an owning elicit::violation:
//
//   elicit::violation kept = response.violations()[0];
#pragma once

#include <elicit/answer/messages.hpp>
#include <elicit/detail/buffer_sink.hpp>
#include <elicit/detail/json_escape.hpp>
#include <elicit/detail/violation_storage.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace elicit {

class violation_list;
namespace detail {
// A sink that writes one violation into `list`, which is not full (reporter.hpp).
violation_sink sink_into(violation_list& list);
}  // namespace detail

// A violation that owns its text.
struct violation {
  std::string pointer;  // JSON Pointer into the content: "/postcode", "/colors/1"; "" for the whole
  std::string keyword;  // the JSON Schema keyword that failed: type, required, minimum, maxLength, enum...
  std::string message;  // one sentence a person can act on, in the catalogue's words (messages.hpp)
  // What the message says in words, as the client's own values, for logs and errors: a JSON
  // object's text, or "" when there is nothing more than the message. A choice's violation has
  // {"allowed": [wire values], "more": N, "got": what was sent}, where the message shows titles.
  std::string params{};

  friend bool operator==(const violation&, const violation&) = default;
};

// A violation as its list holds it: the same three members, viewing the list's text.
struct violation_view {
  std::string_view pointer;
  std::string_view keyword;
  std::string_view message;
  std::string_view params;

  violation_view() = default;
  explicit violation_view(std::string_view p, std::string_view k, std::string_view m,
                          std::string_view values = {}) noexcept
      : pointer(p), keyword(k), message(m), params(values) {}
  violation_view(const violation& v) noexcept  // implicit: a view of what it is given
      : pointer(v.pointer), keyword(v.keyword), message(v.message), params(v.params) {}
  violation_view(const violation&&) = delete;  // a view of a temporary would dangle
  // A copy that owns its text.
  operator violation() const {  // implicit: keeping a view is copying it
    return {std::string(pointer), std::string(keyword), std::string(message), std::string(params)};
  }

  friend bool operator==(const violation_view&, const violation_view&) = default;
  friend bool operator==(const violation_view& a, const violation& b) noexcept { return a == violation_view(b); }
};

// Every violation of one answer, in the order of the form's fields. A list holds at most
// `limit` of them (decode_options::max_violations), and at most max_text bytes of them as
// JSON writes them (below); the rest are counted, not kept, and summarize() then adds one
// violation that says how many more there were. So an answer of a million wrong items, or a
// form of long names and titles, costs a bounded list and a bounded error, not a million
// messages.
class violation_list {
 public:
  using value_type = violation_view;

  class const_iterator {
   public:
    // What -> reaches: the view, held by value.
    struct arrow {
      violation_view v;
      const violation_view* operator->() const noexcept { return &v; }
    };

    using iterator_category = std::random_access_iterator_tag;
    using value_type = violation_view;
    using difference_type = std::ptrdiff_t;
    using reference = violation_view;
    using pointer = arrow;

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

  // The size bound, enforced as each violation is added, whatever the answer and the form:
  // each listed violation costs its pointer, keyword and message as JSON escapes them (what
  // nlohmann::json::dump() writes, a control character counted 6 bytes), plus
  // per_violation_json, half of the 56 bytes a -32602 error writes around each violation
  // (invalid_params_error, protocol.hpp, holds each twice: in its message and in its data, so
  // that it is at most twice the list's cost and 128 bytes more). A list costs at most
  // max_text, the summary included (room is kept for it). A violation that would pass the
  // bound is counted, not listed, and the list is then full.
  static constexpr std::size_t max_text = detail::violation_storage::max_text;
  static constexpr std::size_t per_violation_json = detail::violation_storage::per_violation_json;
  // A message is cut past this many bytes (at a whole code point, then "..."): what a title or
  // an option of any length can add to one violation. elicit's own parts stay well within it.
  static constexpr std::size_t max_message = detail::violation_storage::max_message;

  violation_list() = default;
  // `expected`: how many an invalid answer is likely to break (decoding gives the form's field
  // count). Room for that many, and for their text, is made at the first one, so that the list
  // does not grow while an answer that breaks every rule is read.
  // `words`: the catalogue its messages are written in (nullptr: English); it must outlive the
  // list's use by a reader (decode_options::words says the same).
  explicit violation_list(std::size_t limit, std::size_t expected = 4, const messages* words = nullptr)
      : limit_(limit), expected_(expected), words_(words) {}
  explicit violation_list(const std::vector<violation>& items) {
    for (const violation& v : items) push_back(v);
  }
  violation_list(const violation_list&) = default;
  violation_list(violation_list&& other) noexcept { swap(other); }
  violation_list& operator=(violation_list other) noexcept {
    swap(other);
    return *this;
  }
  ~violation_list() = default;

  [[nodiscard]] const_iterator begin() const noexcept { return {this, 0}; }
  [[nodiscard]] const_iterator end() const noexcept { return {this, static_cast<std::ptrdiff_t>(size())}; }
  // How many are listed (with the summary, when there is one).
  [[nodiscard]] std::size_t size() const noexcept { return store_.size(); }
  [[nodiscard]] bool empty() const noexcept { return size() == 0; }
  // How many were reported, listed or not (the summary not counted).
  [[nodiscard]] std::size_t total() const noexcept { return store_.total(); }
  // True when the next one reported will be counted but not kept.
  [[nodiscard]] bool full() const noexcept { return store_.spent() || listed() >= limit_; }
  // What the listed violations cost against max_text (the summary included).
  [[nodiscard]] std::size_t cost() const noexcept { return store_.cost(); }
  // The catalogue its messages are written in, and a re-ask's header (ask.hpp).
  // Throws only std::bad_alloc (the English catalogue is made at its first use).
  [[nodiscard]] const messages& words() const { return detail::words_or_english(words_); }
  // The i-th; throws std::out_of_range past the end. A view: valid while the list lives unchanged.
  [[nodiscard]] violation_view operator[](std::size_t i) const& {
    if (i >= size()) throw std::out_of_range("elicit::violation_list: no violation at this index");
    return view(static_cast<std::ptrdiff_t>(i));
  }
  // Of a list about to go (decode(text).violations()[0]): a copy that owns its text, so that
  // `auto v = ...` does not keep a view of a list that is gone.
  [[nodiscard]] violation operator[](std::size_t i) const&& { return static_cast<const violation_list&>(*this)[i]; }
  // Copies that own their text.
  [[nodiscard]] std::vector<violation> items() const { return {begin(), end()}; }

  // Adds one (its text copied into the list's), or past the limit counts it. A view converts
  // to the violation it takes, so list.push_back(list[0]) copies before the list can grow.
  void push_back(const violation& v);
  // Counts one violation beyond the limit without building it.
  void omit() noexcept { store_.count_unlisted(); }
  // Adds, once, the violation that says how many were not listed (keyword "maxViolations").
  void summarize();

  friend bool operator==(const violation_list& a, const violation_list& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  friend detail::violation_sink detail::sink_into(violation_list& list);

  [[nodiscard]] std::size_t listed() const noexcept { return size() - (summarized_ ? 1 : 0); }
  [[nodiscard]] violation_view view(std::ptrdiff_t i) const {
    const detail::violation_parts p = store_.parts(static_cast<std::size_t>(i));
    return violation_view(p.pointer, p.keyword, p.message, p.params);
  }
  // At the first violation, room for as many as expected (+ 1: the summary); more as they come.
  [[nodiscard]] std::size_t first_room() const noexcept {
    return std::min(std::min(expected_, limit_), std::size_t{256}) + 1;
  }
  void swap(violation_list& other) noexcept {
    store_.swap(other.store_);
    std::swap(limit_, other.limit_);
    std::swap(expected_, other.expected_);
    std::swap(words_, other.words_);
    std::swap(summarized_, other.summarized_);
  }

  detail::violation_storage store_;
  std::size_t limit_ = unlimited;
  std::size_t expected_ = 4;
  const messages* words_ = nullptr;
  bool summarized_ = false;
};

[[gnu::always_inline]] inline detail::violation_sink detail::sink_into(violation_list& list) {
  return detail::violation_sink(list.store_, list.first_room());
}

inline void violation_list::push_back(const violation& v) {
  if (full()) return omit();
  detail::violation_sink out = detail::sink_into(*this);
  out.put(v.pointer);
  out.end_pointer();
  out.put(v.keyword);
  out.end_keyword();
  out.put(v.message);
  out.end_message();
  out.put(v.params);
  out.done();
}

inline void violation_list::summarize() {
  if (summarized_ || total() == listed()) return;
  const std::size_t more = total() - listed();
  // In the catalogue's words when they fit the room kept for the summary, else in English.
  detail::scratch_sink said, english;
  words().write(said, detail::say<message_kind::more_violations>, more);
  std::string_view text = said.text();
  if (detail::json_escaped_size(text) > detail::violation_storage::summary_message_room) {
    messages::english().write(english, detail::say<message_kind::more_violations>, more);
    text = english.text();
  }
  detail::violation_sink out = detail::sink_into(*this);
  out.end_pointer();
  detail::put_known(out, detail::known("maxViolations"));
  out.end_keyword();
  out.put(text);
  out.done(true);
  store_.uncount_summary();  // the summary is listed, not counted
  summarized_ = true;
}

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
