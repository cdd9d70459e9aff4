// Where a violation_list (answer/violation.hpp) keeps its violations, and the sink that writes
// one straight into it. An invalid answer costs one allocation, not three strings per broken
// rule: one block holds the entries (where each violation's parts lie), then their text.
#pragma once

#include <elicit/detail/buffer_sink.hpp>
#include <elicit/detail/json_escape.hpp>
#include <elicit/detail/utf8.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <memory>
#include <new>
#include <stdexcept>
#include <string_view>
#include <utility>

namespace elicit::detail {

// A violation's four parts, viewing the storage's text.
struct violation_parts {
  std::string_view pointer, keyword, message, params;
};

// The listed violations and what they cost; how many were reported, listed or not. Its bounds
// are violation_list's (there documented).
class violation_storage {
 public:
  static constexpr std::size_t max_text = std::size_t{31} * 1024;
  static constexpr std::size_t per_violation_json = 28;
  static constexpr std::size_t max_message = 2048;
  // What the summary may cost: "maxViolations", its message (at most summary_message_room as
  // JSON, "18446744073709551615 more violations were not listed." in English) and the JSON
  // around them. Kept free for it whatever was listed before.
  static constexpr std::size_t summary_room = 128;
  static constexpr std::size_t summary_message_room = summary_room - 13 - per_violation_json;

  violation_storage() = default;
  violation_storage(const violation_storage& other) : total_(other.total_), cost_(other.cost_), spent_(other.spent_) {
    if (other.count_ == 0) return;
    make_block(other.count_, other.text_size_);
    std::memcpy(block_.get(), other.block_.get(), other.count_ * sizeof(entry));
    std::memcpy(text(), other.text(), other.text_size_);
    count_ = other.count_;
    text_size_ = other.text_size_;
  }
  violation_storage(violation_storage&& other) noexcept { swap(other); }
  violation_storage& operator=(violation_storage other) noexcept {
    swap(other);
    return *this;
  }
  ~violation_storage() = default;

  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] std::size_t total() const noexcept { return total_; }
  [[nodiscard]] std::size_t cost() const noexcept { return cost_; }
  // True once one did not fit max_text: the rest are counted.
  [[nodiscard]] bool spent() const noexcept { return spent_; }
  // Counts one more reported than listed, or (the summary, listed but not counted) one fewer.
  void count_unlisted() noexcept { ++total_; }
  void uncount_summary() noexcept { --total_; }

  [[nodiscard]] violation_parts parts(std::size_t i) const noexcept {
    const entry& e = entries()[i];
    const std::string_view all(text(), text_size_);
    return {all.substr(e.pointer, e.keyword - e.pointer), all.substr(e.keyword, e.message - e.keyword),
            all.substr(e.message, e.params - e.message), all.substr(e.params, e.end - e.params)};
  }

  void swap(violation_storage& other) noexcept {
    std::swap(block_, other.block_);
    std::swap(count_, other.count_);
    std::swap(entry_room_, other.entry_room_);
    std::swap(text_size_, other.text_size_);
    std::swap(text_room_, other.text_room_);
    std::swap(total_, other.total_);
    std::swap(cost_, other.cost_);
    std::swap(spent_, other.spent_);
  }

 private:
  friend class violation_sink;

  // Where one violation's text lies in the text: pointer, keyword, message and params, one
  // after another.
  struct entry {
    std::size_t pointer, keyword, message, params, end;
  };

  [[nodiscard]] const entry* entries() const noexcept {
    return std::launder(reinterpret_cast<const entry*>(block_.get()));
  }
  [[nodiscard]] char* text() const noexcept {
    return reinterpret_cast<char*>(block_.get() + entry_room_ * sizeof(entry));
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
  // Room for one more entry: at the first, for `first_room` entries with about 96 bytes of text
  // each (a pointer, a keyword, a sentence); then twice as many.
  void room_for_entry(std::size_t first_room) {
    if (count_ < entry_room_) return;
    if (entry_room_ == 0) return make_block(first_room, first_room * 96);
    make_block(2 * entry_room_, text_room_);
  }
  void room_for_text(std::size_t more) {
    if (more > text_room_ - text_size_) make_block(entry_room_, 2 * (text_size_ + more));
  }

  // One block: room for entry_room_ entries, then for text_room_ bytes of text. Made at the
  // first violation (a valid answer allocates nothing for its list), grown by copying.
  std::unique_ptr<std::byte[]> block_;
  std::size_t count_ = 0;
  std::size_t entry_room_ = 0;
  std::size_t text_size_ = 0;
  std::size_t text_room_ = 0;
  std::size_t total_ = 0;
  std::size_t cost_ = 0;  // of the listed ones, against max_text
  bool spent_ = false;    // one did not fit max_text: the rest are counted
};

// Writes one violation straight into a storage's text, then lists it: the pointer's parts, end
// of pointer, the keyword, end of keyword, the message's parts, end of message, the params'
// parts (if any), done. What a detail::reporter and violation_list::push_back write through (a
// message sink, as detail/message.hpp's writers take). The message stops at max_message bytes;
// done() lists the violation only when it fits max_text, and otherwise counts it. What the text
// costs as JSON is counted piece by piece as it is written (json_escape_extra; put_known for a
// piece whose count is known before), so that done() need not read the text again.
class violation_sink {
 public:
  // For a list that is not full; `first_room`: how many entries to make room for at the first.
  // Its steps, and those of every violation's end (end_keyword, end_message, done), are inline:
  // a dozen each, where a call cost about as many again.
  [[gnu::always_inline]] violation_sink(violation_storage& store, std::size_t first_room) : store_(store) {
    store_.room_for_entry(first_room);
    start_ = store_.text_size_;
    at_text();
  }
  violation_sink(const violation_sink&) = delete;  // it points into the storage's text
  violation_sink& operator=(const violation_sink&) = delete;
  ~violation_sink() = default;

  [[gnu::always_inline]] void put(char c) {
    if (next_ == end_) return put_slow(c);
    *next_++ = c;
    extra_ += json_byte_extra(c);  // a constant where `c` is (no address of it taken here)
  }
  [[gnu::always_inline]] void put(std::string_view t) {
    if (t.size() > static_cast<std::size_t>(end_ - next_)) return put_slow(t);
    copy_short(next_, t.data(), t.size());
    next_ += t.size();
    extra_ += json_escape_extra(t);
  }
  // `t`, whose json_escape_extra is `extra`.
  [[gnu::always_inline]] void put_known(std::string_view t, std::size_t extra) {
    if (t.size() > static_cast<std::size_t>(end_ - next_)) return put_slow(t);
    copy_short(next_, t.data(), t.size());
    next_ += t.size();
    extra_ += extra;
  }

  // The end of the pointer, then of the keyword.
  void end_pointer() noexcept { keyword_ = written(); }
  [[gnu::always_inline]] void end_keyword() noexcept {
    message_ = written();
    in_message_ = true;
    end_ = room_end();
  }
  // The end of the message (done() ends it when nothing follows it).
  [[gnu::always_inline]] void end_message() noexcept {
    if (cut_) end_cut();
    cut_ = false;
    in_message_ = false;
    params_ = written();
    end_ = room_end();
  }
  // `summary`: the one that says how many were not listed, for which room is always kept.
  [[gnu::always_inline]] void done(bool summary = false) {
    if (in_message_) end_message();
    store_.text_size_ = written();
    // Its JSON size: every byte, and what escaping adds (a cut message's "..." and the bytes
    // end_cut drops add nothing).
    const std::size_t cost = store_.text_size_ - start_ + extra_ + violation_storage::per_violation_json;
    ++store_.total_;
    if (!summary && store_.cost_ + cost > violation_storage::max_text - violation_storage::summary_room) {
      store_.text_size_ = start_;  // counted, not listed
      store_.spent_ = true;
      return;
    }
    store_.cost_ += cost;
    void* const at = store_.block_.get() + store_.count_ * sizeof(violation_storage::entry);
    ::new (at) violation_storage::entry{start_, keyword_, message_, params_, store_.text_size_};
    ++store_.count_;
  }

 private:
  static constexpr std::size_t max_message = violation_storage::max_message;

  [[nodiscard]] std::size_t written() const noexcept { return static_cast<std::size_t>(next_ - text_); }
  // Where the room ends: the storage's, or in the message, max_message bytes past its start.
  [[nodiscard]] char* room_end() const noexcept {
    std::size_t end = store_.text_room_;
    if (in_message_) end = std::min(end, message_ + max_message - 3);  // room for "..."
    return text_ + end;
  }
  // The text begins past the entries' room: found once per block, kept here.
  void at_text() noexcept {
    text_ = store_.text();
    next_ = text_ + store_.text_size_;
    end_ = room_end();
  }
  // More than the room: the storage's grows, or the message is cut at its cap. What is written
  // of `t` is counted here.
  [[gnu::noinline]] void put_slow(char c) { put_slow(std::string_view(&c, 1)); }
  void put_slow(std::string_view t) {
    if (cut_) return;
    std::size_t ellipsis = 0;
    if (in_message_) {
      const std::size_t left = message_ + max_message - 3 - written();
      if (t.size() > left) {
        t = t.substr(0, left);
        cut_ = true;
        ellipsis = 3;
      }
    }
    if (t.size() + ellipsis > static_cast<std::size_t>(text_ + store_.text_room_ - next_)) {
      store_.text_size_ = written();
      store_.room_for_text(t.size() + ellipsis);
      at_text();
    }
    copy_short(next_, t.data(), t.size());
    next_ += t.size();
    extra_ += json_escape_extra(t);
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

  violation_storage& store_;
  char* text_ = nullptr;
  char* next_ = nullptr;
  char* end_ = nullptr;
  std::size_t start_ = 0, keyword_ = 0, message_ = 0, params_ = 0;
  std::size_t extra_ = 0;  // json_escape_extra of what is written since start_
  bool in_message_ = false;
  bool cut_ = false;
};

}  // namespace elicit::detail
