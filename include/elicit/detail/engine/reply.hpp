// An ElicitResult as decode reads it (`reply`), found in a parsed document or read straight
// from text (`text_reply`).
//
// Reading from text is where the time goes. text_reply drives the JSON scanner
// (detail/json_scanner.hpp) over the result and keeps only what decode looks at: the action
// and the value of each field of the form, each in a slot of its own, as views into the text.
// The rest of the document is checked as JSON and bounded in depth but never built, and no map
// of the content is made. What it keeps is what decode finds in the parsed document, key for
// key (a repeated key: the last one wins, as in nlohmann::json::parse and JavaScript's
// JSON.parse, so that the server reads the value a client's SDK would); tests/unit/detail/engine/test_reply.cpp
// and the fuzz target compare the two readings. In strict mode the content's repeated keys are
// also listed, for decode to refuse: only text shows them (a parsed document has lost them).
#pragma once

#include <elicit/detail/dependent.hpp>
#include <elicit/detail/json_scanner.hpp>
#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/model/value_view.hpp>
#include <elicit/detail/same_text.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <new>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace elicit::detail {

// What decode looks at in an ElicitResult. A view that is not present is something absent.
struct reply {
  value_view not_object;                       // the result, when it is not an object
  value_view action;                           // its action
  value_view content_not_object;               // its content, when that is not an object
  std::span<const value_view> fields;          // the content's value of each field, in form order
  std::span<const std::string_view> unknown;   // (strict) the content's other keys, sorted, once each
  std::span<const std::string_view> repeated;  // (strict, from text) the content's keys that came twice, once each
};

// The index of the field whose wire name is `key`, or specs.size() when none is. Fields mostly
// come in the form's order: the search starts at `hint`, the one after the last found.
inline std::size_t field_index(std::span<const field_spec> specs, std::string_view key, std::size_t hint = 0) noexcept {
  const std::size_t n = specs.size();
  for (std::size_t k = 0, i = hint < n ? hint : 0; k < n; ++k, i = i + 1 == n ? 0 : i + 1)
    if (same_text(specs[i].wire, key)) return i;
  return n;
}

// The fields of a parsed content object, found by their wire names; `out` has one per spec.
inline void find_fields(const nlohmann::json& content, std::span<const field_spec> specs, std::span<value_view> out,
                        bool strict, std::vector<std::string_view>& unknown) {
  // The object's own map: a heterogeneous lookup by the wire name, without building a key.
  const auto& members = content.get_ref<const nlohmann::json::object_t&>();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto it = members.find(specs[i].wire);
    out[i] = it == members.end() ? value_view() : value_view(it->second);
  }
  if (!strict) return;
  for (const auto& member : members)
    if (field_index(specs, member.first) == specs.size()) unknown.push_back(member.first);  // the map is sorted
}

// Reads an ElicitResult from its text into a slot per field of the form. The views it gives
// point into the text (and into this reader, for strings with escapes and for lists): both
// must outlive the reply.
class text_reply {
 public:
  text_reply(std::string_view text, std::span<const field_spec> specs, bool strict, std::size_t max_depth)
      : scan_(text, max_depth), specs_(specs), strict_(strict) {
    if (specs.size() > near_fields) far_.resize(specs.size());
    values_ = specs.size() > near_fields ? std::span<text_value>(far_) : std::span(near_fields_at(), specs.size());
  }
  text_reply(const text_reply&) = delete;
  text_reply& operator=(const text_reply&) = delete;

  // Reads the whole text; false when it is not JSON or nests too deep (scanner() says which).
  bool read();
  [[nodiscard]] const json_scanner& scanner() const noexcept { return scan_; }
  // What was read; `fields` has one slot per spec.
  [[nodiscard]] reply result(std::span<value_view> fields);

 private:
  bool read_result();
  bool read_content();
  bool read_field(text_value& out);
  // At a "content" key: the slots emptied (they are not read before one comes).
  void clear_content() {
    content_seen_ = true;
    content_is_object_ = true;
    // What a view reads of any value (its text is empty unless it is a string, its item count 0
    // unless a list) emptied; the rest is written as a value is read, and read only by its kind.
    for (text_value& v : values_) {
      v.kind = json_kind::nothing;
      v.text = {};
      v.item_count = 0;
    }
    unknown_.clear();
    repeated_.clear();
  }
  void add_item(const text_value& item) {
    if (items_.empty() && item_count_ < near_items) {
      near_items_at()[item_count_++] = item;
      return;
    }
    if (items_.empty()) items_.assign(near_items_at(), near_items_at() + item_count_);
    items_.push_back(item);
    ++item_count_;
  }

  json_scanner scan_;
  std::span<const field_spec> specs_;
  bool strict_;

  bool result_is_object_ = false;
  text_value not_object_;          // the result, when it is not an object
  text_value action_;              // kind nothing: absent
  bool content_seen_ = false;      // a "content" key came: the slots hold its fields
  bool content_is_object_ = true;  // an absent content reads as an empty object
  text_value content_;             // the content, when it is not an object
  // In place for most forms and answers, and left unwritten until used (2 KB a decode): bytes
  // whose lifetime, beginning with the reader's, creates the text_values in them implicitly
  // ([intro.object]: text_value is an implicit-lifetime aggregate), so that every slot is an
  // object when it is written and read, with no union member that is not the active one.
  static constexpr std::size_t near_fields = 16, near_items = 32;
  static_assert(std::is_aggregate_v<text_value> && std::is_trivially_copyable_v<text_value> &&
                    std::is_trivially_destructible_v<text_value>,
                "elicit: text_reply's slots are created implicitly: text_value must stay an implicit-lifetime type");
  alignas(text_value) std::byte near_bytes_[near_fields * sizeof(text_value)];      // the fields' values
  alignas(text_value) std::byte near_item_bytes_[near_items * sizeof(text_value)];  // the items of their lists
  text_value* near_fields_at() noexcept { return std::launder(reinterpret_cast<text_value*>(near_bytes_)); }
  text_value* near_items_at() noexcept { return std::launder(reinterpret_cast<text_value*>(near_item_bytes_)); }
  std::vector<text_value> far_;  // the fields' values, for a form of more fields
  std::span<text_value> values_;
  std::vector<text_value> items_;  // all the items, once there are more
  std::uint32_t item_count_ = 0;
  std::vector<std::string_view> unknown_;
  std::vector<std::string_view> repeated_;
};

inline bool text_reply::read() {
  if (scan_.peek() == '{') {
    if (!read_result()) return false;
  } else if (!scan_.value(not_object_)) {
    return false;
  }
  // A failure the scanner recorded refuses the text, even if a caller read on past it.
  return scan_.finish() && scan_.failed() == json_scanner::failure::none;
}

inline bool text_reply::read_result() {
  result_is_object_ = true;
  if (!scan_.open('{')) return false;
  if (scan_.close_if('}')) return true;
  for (bool more = true; more;) {
    // The two keys it reads, taken as they are mostly spelled; any other spelling, read.
    bool action = scan_.take_key("action");
    bool content = !action && scan_.take_key("content");
    if (!action && !content) {
      std::string_view key;
      if (!scan_.key(key)) return false;
      action = same_text(key, "action");
      content = same_text(key, "content");
    }
    if (action) {
      action_ = text_value{};
      if (!scan_.value(action_)) return false;
    } else if (content) {
      clear_content();  // a repeated "content": the last one wins
      if (scan_.peek() == '{') {
        if (!read_content()) return false;
      } else {
        content_is_object_ = false;
        content_ = text_value{};
        if (!scan_.value(content_)) return false;
      }
    } else if (!scan_.skip()) {
      return false;
    }
    if (!scan_.next('}', more)) return false;
  }
  return true;
}

inline bool text_reply::read_content() {
  if (!scan_.open('{')) return false;
  if (scan_.close_if('}')) return true;
  std::size_t hint = 0;
  for (bool more = true; more;) {
    std::string_view key;
    std::size_t i = 0;
    if (hint < specs_.size() && specs_[hint].plain_wire && scan_.take_key(specs_[hint].wire)) {  // the next in order
      i = hint;
    } else {
      if (!scan_.key(key)) return false;
      i = field_index(specs_, key, hint);
    }
    if (i < specs_.size()) {
      hint = i + 1;
      if (values_[i].kind != json_kind::nothing) {  // a repeated field: the last one wins
        values_[i] = text_value{};
        if (strict_) repeated_.push_back(specs_[i].wire);
      }
      if (!read_field(values_[i])) return false;
    } else {
      if (strict_) unknown_.push_back(key);
      if (!scan_.skip()) return false;
    }
    if (!scan_.next('}', more)) return false;
  }
  return true;
}

// A field's value: a list with its items (a multi-select's choices), anything else as a value.
inline bool text_reply::read_field(text_value& out) {
  const char next = scan_.peek();
  if (next != '[') return scan_.value_at(next, out);
  out.kind = json_kind::array;
  out.first_item = item_count_;
  if (!scan_.open('[')) return false;
  if (scan_.close_if(']')) return true;
  for (bool more = true; more;) {
    text_value item;
    if (!scan_.value(item)) return false;
    add_item(item);
    ++out.item_count;
    if (!scan_.next(']', more)) return false;
  }
  return true;
}

inline reply text_reply::result(std::span<value_view> fields) {
  reply r;
  const text_value* items = items_.empty() ? near_items_at() : items_.data();
  if (!result_is_object_) {
    r.not_object = value_view(not_object_, items);
    return r;
  }
  if (action_.kind != json_kind::nothing) r.action = value_view(action_, items);
  if (!content_is_object_) r.content_not_object = value_view(content_, items);
  for (std::size_t i = 0; i < values_.size(); ++i)
    fields[i] = !content_seen_ || values_[i].kind == json_kind::nothing ? value_view() : value_view(values_[i], items);
  r.fields = fields;
  std::sort(unknown_.begin(), unknown_.end());  // as the parsed object's map would hold them
  for (std::size_t i = 1; i < unknown_.size(); ++i)
    if (unknown_[i] == unknown_[i - 1]) repeated_.push_back(unknown_[i]);
  unknown_.erase(std::unique(unknown_.begin(), unknown_.end()), unknown_.end());
  r.unknown = unknown_;
  std::sort(repeated_.begin(), repeated_.end());
  repeated_.erase(std::unique(repeated_.begin(), repeated_.end()), repeated_.end());
  r.repeated = repeated_;
  return r;
}

}  // namespace elicit::detail
