// Builds a parsed JSON value from text, no deeper and no larger than limits: what parse_json
// parses with, in one pass and linear time.
//
// The text is read by json_scanner (detail/json_scanner.hpp), the reader decode(text) uses,
// which accepts exactly what nlohmann::json::parse accepts and reads the same values; the values
// are built here, with a stack of the lists and objects open, never by recursion.
//
// Why not nlohmann's own parser: its callback, after every object it closes, searches the
// enclosing list or object for a discarded value, so that a list of n objects costs n^2 / 2
// steps (1 MiB of `[{},{},...]` took 40 s of CPU, issue #44); and its lexer appends a string
// byte by byte and keeps a copy of every token for its messages (one 4 MiB string took 35 ms,
// where the scanner reads eight bytes a step). Here a value beyond the limits stops the parse
// before it is built, and nothing is ever discarded or searched.
#pragma once

#include <elicit/detail/json_scanner.hpp>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elicit::detail {

// Why a parse through build_json stopped, when it did not build a value.
enum class json_refusal { none, too_deep, too_many_values, not_json, number_too_large };

// Fills `root` with the values it is given, in the order of the text: at most `max_values` of
// them (every list, object, item and member's value counts one). Throws only what building a
// value throws (std::bad_alloc).
template <class Json>
class json_builder {
 public:
  json_builder(Json& root, std::size_t max_values) : root_(root), values_left_(max_values) {}

  // Opens an empty object or list where the parse is; false past the values limit.
  bool open(bool object) {
    if (!counted()) return false;
    open_.push_back({place(object ? Json::object() : Json::array()), members_.size()});
    return true;
  }
  // The member of the innermost open object that the next value is, kept aside until the
  // object closes.
  void key(std::string_view name) {
    members_.emplace_back(std::string(name), Json());
    member_ = &members_.back().second;
  }
  // A scalar where the parse is; false past the values limit.
  bool put(Json value) {
    if (!counted()) return false;
    place(std::move(value));
    return true;
  }
  void close() {
    if (open_.back().value->is_object()) fill(*open_.back().value, open_.back().first_member);
    open_.pop_back();
  }

  // Nothing is open: the value that was given last is the whole text's.
  [[nodiscard]] bool done() const noexcept { return open_.empty(); }
  [[nodiscard]] bool in_object() const { return open_.back().value->is_object(); }

 private:
  // Puts a value where the parse is: the root, the next item of the innermost open list, or the
  // member the last key named. Returns where it now lives. Pointers on open_ stay valid: only the
  // innermost container grows, and an open container is never an item of one that grows.
  Json* place(Json value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Json& container = *open_.back().value;
    if (container.is_array()) {
      container.push_back(std::move(value));
      return &container.back();
    }
    *member_ = std::move(value);
    return member_;
  }
  // Counts one value more; false (the parse stops) past the limit.
  bool counted() noexcept {
    if (values_left_ == 0) return false;
    --values_left_;
    return true;
  }

  // Moves an object's members, members_[first...], into it: sorted by key (a repeated key's last
  // value wins, as in nlohmann::json::parse and JSON.parse), then each put at the map's end.
  // Why not insert each member as its key comes: a map of n members built in the text's order
  // costs n searches of a tree, each a cache miss a level (65,535 keys took 33 ms); sorted, the
  // same keys are compared in one contiguous list and put in place without a search.
  void fill(Json& object, std::size_t first) {
    auto& map = object.template get_ref<typename Json::object_t&>();
    const auto begin = members_.begin() + static_cast<std::ptrdiff_t>(first);
    order_.clear();
    for (auto it = begin; it != members_.end(); ++it) order_.push_back(&*it);
    // Stable: of a repeated key, the member last in the text comes last.
    std::stable_sort(order_.begin(), order_.end(),
                     [](const member* a, const member* b) { return a->first < b->first; });
    for (std::size_t i = 0; i < order_.size(); ++i) {
      if (i + 1 < order_.size() && order_[i + 1]->first == order_[i]->first) continue;  // a later value wins
      map.emplace_hint(map.end(), std::move(order_[i]->first), std::move(order_[i]->second));
    }
    members_.erase(begin, members_.end());
  }

  using member = std::pair<std::string, Json>;
  struct open_value {
    Json* value;               // the list or object
    std::size_t first_member;  // an object's first member in members_
  };

  Json& root_;
  std::size_t values_left_;       // how many more values may be built
  std::vector<open_value> open_;  // the lists and objects open, outermost first
  // The members of the objects open, outermost first, in the text's order. A deque: adding to it
  // moves none, so that a pointer to a member's value (member_, open_) stays valid.
  std::deque<member> members_;
  std::vector<member*> order_;  // fill(): one object's members, sorted
  Json* member_ = nullptr;      // the value of the member the last key named
};

// The value of a scalar read by the scanner.
template <class Json>
Json json_of(const text_value& v) {
  switch (v.kind) {
    case json_kind::null: return Json(nullptr);
    case json_kind::boolean: return Json(v.boolean);
    case json_kind::string: return Json(std::string(v.text));
    default: break;
  }
  switch (v.num.kind) {
    case number::kind_t::signed_int: return Json(static_cast<typename Json::number_integer_t>(v.num.i));
    case number::kind_t::unsigned_int: return Json(static_cast<typename Json::number_unsigned_t>(v.num.u));
    default: return Json(static_cast<typename Json::number_float_t>(std::bit_cast<double>(v.num.u)));
  }
}

// Parses `text` into `root`: none, or why it stopped (a list or object opening at `max_depth`
// lists and objects deep, a value past the first `max_values`, text that is not JSON, at byte
// `error_byte` counted from 1, or a number beyond a double). The text must hold no NUL byte
// (the scanner refuses one where nlohmann's parser would end the text there; parse_json refuses
// it first). Throws only std::bad_alloc.
template <class Json>
json_refusal build_json(std::string_view text, Json& root, std::size_t max_depth, std::size_t max_values,
                        std::size_t& error_byte) {
  json_scanner scan(text, max_depth);
  json_builder<Json> build(root, max_values);
  const auto stopped = [&] {
    error_byte = scan.error_byte();
    switch (scan.failed()) {
      case json_scanner::failure::too_deep: return json_refusal::too_deep;
      case json_scanner::failure::number_range: return json_refusal::number_too_large;
      default: return json_refusal::not_json;
    }
  };
  std::string_view name;
  text_value scalar;
  for (;;) {
    // A value is expected here.
    if (const char c = scan.peek(); c == '{' || c == '[') {
      if (!scan.open(c)) return stopped();
      if (!build.open(c == '{')) return json_refusal::too_many_values;
      if (!scan.close_if(c == '{' ? '}' : ']')) {
        if (c == '{') {
          if (!scan.key(name)) return stopped();
          build.key(name);
        }
        continue;
      }
      build.close();  // an empty list or object: a whole value
    } else {
      if (!scan.value(scalar)) return stopped();
      if (!build.put(json_of<Json>(scalar))) return json_refusal::too_many_values;
    }
    // A value has ended: close what ends with it, up to the next value or the text's end.
    for (;;) {
      if (build.done()) return scan.finish() ? json_refusal::none : stopped();
      const bool in_object = build.in_object();
      bool more = false;
      if (!scan.next(in_object ? '}' : ']', more)) return stopped();
      if (!more) {
        build.close();
        continue;
      }
      if (in_object) {
        if (!scan.key(name)) return stopped();
        build.key(name);
      }
      break;
    }
  }
}

}  // namespace elicit::detail
