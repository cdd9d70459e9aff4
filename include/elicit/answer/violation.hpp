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
#include <elicit/detail/utf8.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <iterator>
#include <memory>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace elicit {

namespace detail {
class violation_sink;
}

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
  // Where one violation's text lies in the list's text: pointer, keyword, message and params,
  // one after another.
  struct entry {
    std::size_t pointer, keyword, message, params, end;
  };

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
  static constexpr std::size_t max_text = std::size_t{31} * 1024;
  static constexpr std::size_t per_violation_json = 28;
  // A message is cut past this many bytes (at a whole code point, then "..."): what a title or
  // an option of any length can add to one violation. elicit's own parts stay well within it.
  static constexpr std::size_t max_message = 2048;

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
  violation_list(const violation_list& other)
      : limit_(other.limit_),
        expected_(other.expected_),
        words_(other.words_),
        total_(other.total_),
        cost_(other.cost_),
        summarized_(other.summarized_),
        spent_(other.spent_) {
    if (other.count_ == 0) return;
    make_block(other.count_, other.text_size_);
    std::memcpy(block_.get(), other.block_.get(), other.count_ * sizeof(entry));
    std::memcpy(text(), other.text(), other.text_size_);
    count_ = other.count_;
    text_size_ = other.text_size_;
  }
  violation_list(violation_list&& other) noexcept { swap(other); }
  violation_list& operator=(violation_list other) noexcept {
    swap(other);
    return *this;
  }
  ~violation_list() = default;

  [[nodiscard]] const_iterator begin() const noexcept { return {this, 0}; }
  [[nodiscard]] const_iterator end() const noexcept { return {this, static_cast<std::ptrdiff_t>(count_)}; }
  // How many are listed (with the summary, when there is one).
  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] bool empty() const noexcept { return count_ == 0; }
  // How many were reported, listed or not (the summary not counted).
  [[nodiscard]] std::size_t total() const noexcept { return total_; }
  // True when the next one reported will be counted but not kept.
  [[nodiscard]] bool full() const noexcept { return spent_ || listed() >= limit_; }
  // What the listed violations cost against max_text (the summary included).
  [[nodiscard]] std::size_t cost() const noexcept { return cost_; }
  // The catalogue its messages are written in, and a re-ask's header (ask.hpp).
  // Throws only std::bad_alloc (the English catalogue is made at its first use).
  [[nodiscard]] const messages& words() const { return detail::words_or_english(words_); }
  // The i-th; throws std::out_of_range past the end. A view: valid while the list lives unchanged.
  [[nodiscard]] violation_view operator[](std::size_t i) const& {
    if (i >= count_) throw std::out_of_range("elicit::violation_list: no violation at this index");
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
  void omit() noexcept { ++total_; }
  // Adds, once, the violation that says how many were not listed (keyword "maxViolations").
  void summarize();

  friend bool operator==(const violation_list& a, const violation_list& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  friend class detail::violation_sink;

  [[nodiscard]] std::size_t listed() const noexcept { return count_ - (summarized_ ? 1 : 0); }
  [[nodiscard]] const entry* entries() const noexcept {
    return std::launder(reinterpret_cast<const entry*>(block_.get()));
  }
  [[nodiscard]] char* text() const noexcept {
    return reinterpret_cast<char*>(block_.get() + entry_room_ * sizeof(entry));
  }
  [[nodiscard]] violation_view view(std::ptrdiff_t i) const {
    const entry& e = entries()[i];
    const std::string_view all(text(), text_size_);
    return violation_view(all.substr(e.pointer, e.keyword - e.pointer), all.substr(e.keyword, e.message - e.keyword),
                          all.substr(e.message, e.params - e.message), all.substr(e.params, e.end - e.params));
  }
  // A block of room for `entries` entries and then `text` bytes, what there is copied into it
  // (memcpy makes the trivially copyable entries exist in the new block). Throws
  // std::length_error past what a size_t can count.
  void make_block(std::size_t entries, std::size_t text_bytes) {
    constexpr std::size_t most = static_cast<std::size_t>(-1);
    if (entries > most / 4 / sizeof(entry) || text_bytes > most / 4)
      throw std::length_error("elicit::violation_list: too many violations");
    std::unique_ptr<std::byte[]> block(new std::byte[entries * sizeof(entry) + text_bytes]);
    if (count_ != 0) std::memcpy(block.get(), block_.get(), count_ * sizeof(entry));
    if (text_size_ != 0)
      std::memcpy(reinterpret_cast<char*>(block.get() + entries * sizeof(entry)), text(), text_size_);
    block_ = std::move(block);
    entry_room_ = entries;
    text_room_ = text_bytes;
  }
  // Room for one more entry: at the first, for as many as expected (+ 1: the summary), with
  // about 96 bytes of text each (a pointer, a keyword, a sentence); then twice as many.
  void room_for_entry() {
    if (count_ < entry_room_) return;
    if (entry_room_ == 0) {
      const std::size_t room = std::min({expected_, limit_, std::size_t{256}}) + 1;  // more, as they come
      return make_block(room, room * 96);
    }
    make_block(2 * entry_room_, text_room_);
  }
  void room_for_text(std::size_t more) {
    if (more > text_room_ - text_size_) make_block(entry_room_, 2 * (text_size_ + more));
  }
  void swap(violation_list& other) noexcept {
    std::swap(block_, other.block_);
    std::swap(count_, other.count_);
    std::swap(entry_room_, other.entry_room_);
    std::swap(text_size_, other.text_size_);
    std::swap(text_room_, other.text_room_);
    std::swap(limit_, other.limit_);
    std::swap(expected_, other.expected_);
    std::swap(words_, other.words_);
    std::swap(total_, other.total_);
    std::swap(cost_, other.cost_);
    std::swap(summarized_, other.summarized_);
    std::swap(spent_, other.spent_);
  }

  // One block: room for entry_room_ entries, then for text_room_ bytes of text. Made at the
  // first violation (a valid answer allocates nothing for its list), grown by copying.
  std::unique_ptr<std::byte[]> block_;
  std::size_t count_ = 0;
  std::size_t entry_room_ = 0;
  std::size_t text_size_ = 0;
  std::size_t text_room_ = 0;
  std::size_t limit_ = unlimited;
  std::size_t expected_ = 4;
  const messages* words_ = nullptr;
  std::size_t total_ = 0;
  std::size_t cost_ = 0;  // of the listed ones, against max_text
  bool summarized_ = false;
  bool spent_ = false;  // one did not fit max_text: the rest are counted
};

namespace detail {

// Writes one violation straight into a list's text, then lists it: the pointer's parts, end
// of pointer, the keyword, end of keyword, the message's parts, end of message, the params'
// parts (if any), done. What a detail::reporter
// and push_back write through (a message sink, as detail/message.hpp's writers take). The
// message stops at max_message bytes; done() lists the violation only when it fits the list's
// max_text, and otherwise counts it.
class violation_sink {
 public:
  // For a list that is not full.
  explicit violation_sink(violation_list& list) : list_(list) {
    list_.room_for_entry();
    start_ = list_.text_size_;
    at_text();
  }
  violation_sink(const violation_sink&) = delete;  // it points into the list's text
  violation_sink& operator=(const violation_sink&) = delete;
  ~violation_sink() = default;

  [[gnu::always_inline]] void put(char c) {
    if (next_ == end_) return put_slow(std::string_view(&c, 1));
    *next_++ = c;
  }
  [[gnu::always_inline]] void put(std::string_view t) {
    if (t.size() > static_cast<std::size_t>(end_ - next_)) return put_slow(t);
    copy_short(next_, t.data(), t.size());
    next_ += t.size();
  }

  // The end of the pointer, then of the keyword.
  void end_pointer() noexcept { keyword_ = written(); }
  void end_keyword() noexcept {
    message_ = written();
    in_message_ = true;
    end_ = room_end();
  }
  // The end of the message (done() ends it when nothing follows it).
  void end_message() noexcept {
    if (cut_) end_cut();
    cut_ = false;
    in_message_ = false;
    params_ = written();
    end_ = room_end();
  }
  // `summary`: the one that says how many were not listed, for which room is always kept.
  void done(bool summary = false) {
    if (in_message_) end_message();
    list_.text_size_ = written();
    const std::string_view all(text_ + start_, list_.text_size_ - start_);
    const std::size_t cost = json_escaped_size(all) + violation_list::per_violation_json;
    ++list_.total_;
    if (!summary && list_.cost_ + cost > violation_list::max_text - summary_room) {
      list_.text_size_ = start_;  // counted, not listed
      list_.spent_ = true;
      return;
    }
    list_.cost_ += cost;
    void* const at = list_.block_.get() + list_.count_ * sizeof(violation_list::entry);
    ::new (at) violation_list::entry{start_, keyword_, message_, params_, list_.text_size_};
    ++list_.count_;
  }

  // What the summary may cost: "maxViolations", its message (at most summary_message_room as
  // JSON, "18446744073709551615 more violations were not listed." in English) and the JSON
  // around them.
  static constexpr std::size_t summary_room = 128;
  static constexpr std::size_t summary_message_room = summary_room - 13 - violation_list::per_violation_json;

 private:
  [[nodiscard]] std::size_t written() const noexcept { return static_cast<std::size_t>(next_ - text_); }
  // Where the room ends: the list's, or in the message, max_message bytes past its start.
  [[nodiscard]] char* room_end() const noexcept {
    std::size_t end = list_.text_room_;
    if (in_message_) end = std::min(end, message_ + violation_list::max_message - 3);  // room for "..."
    return text_ + end;
  }
  // The list's text begins past its entries' room: found once per block, kept here.
  void at_text() noexcept {
    text_ = list_.text();
    next_ = text_ + list_.text_size_;
    end_ = room_end();
  }
  // More than the room: the list's grows, or the message is cut at its cap.
  void put_slow(std::string_view t) {
    if (cut_) return;
    std::size_t ellipsis = 0;
    if (in_message_) {
      const std::size_t left = message_ + violation_list::max_message - 3 - written();
      if (t.size() > left) {
        t = t.substr(0, left);
        cut_ = true;
        ellipsis = 3;
      }
    }
    if (t.size() + ellipsis > static_cast<std::size_t>(text_ + list_.text_room_ - next_)) {
      list_.text_size_ = written();
      list_.room_for_text(t.size() + ellipsis);
      at_text();
    }
    copy_short(next_, t.data(), t.size());
    next_ += t.size();
    if (cut_) end_ = next_;  // every later part comes here, and is dropped
  }
  // A cut message ends at a whole code point, then "..." (put_slow kept room for the three).
  void end_cut() noexcept {
    const char* const begin = text_ + message_;
    char* lead = next_;
    while (lead > begin && next_ - lead < 4 && (static_cast<unsigned char>(lead[-1]) & 0xC0) == 0x80) --lead;
    if (lead > begin) --lead;  // the byte that begins the last code point
    const auto first = static_cast<unsigned char>(*lead);
    if (next_ > begin && first >= 0xC0 && lead + utf8_sequence_length(first) > next_) next_ = lead;
    std::memcpy(next_, "...", 3);
    next_ += 3;
  }

  violation_list& list_;
  char* text_ = nullptr;
  char* next_ = nullptr;
  char* end_ = nullptr;
  std::size_t start_ = 0, keyword_ = 0, message_ = 0, params_ = 0;
  bool in_message_ = false;
  bool cut_ = false;
};
}  // namespace detail

inline void violation_list::push_back(const violation& v) {
  if (full()) return omit();
  detail::violation_sink out(*this);
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
  if (summarized_ || total_ == listed()) return;
  const std::size_t more = total_ - listed();
  // In the catalogue's words when they fit the room kept for the summary, else in English.
  detail::scratch_sink said, english;
  words().write(said, detail::say<message_kind::more_violations>, more);
  std::string_view text = said.text();
  if (detail::json_escaped_size(text) > detail::violation_sink::summary_message_room) {
    messages::english().write(english, detail::say<message_kind::more_violations>, more);
    text = english.text();
  }
  detail::violation_sink out(*this);
  out.end_pointer();
  out.put("maxViolations");
  out.end_keyword();
  out.put(text);
  out.done(true);
  --total_;  // the summary is listed, not counted
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
