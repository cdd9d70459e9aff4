// Builds a parsed JSON value from nlohmann's SAX events, no deeper than a limit: what
// parse_json parses with, in one pass and linear time.
//
// Why not the parser callback of nlohmann::json::parse: after every object it closes, its
// builder searches the enclosing list or object for a discarded value, so that a list of n
// objects costs n^2 / 2 steps (1 MiB of `[{},{},...]` took 40 s of CPU, issue #44). Here a
// value too deep stops the parse before it is built, and nothing is ever discarded or searched.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace elicit::detail {

// Why a parse through json_builder stopped, when it did not build a value.
enum class json_refusal { none, too_deep, too_many_values, not_json, number_too_large };

// The SAX handler of Json::sax_parse (nlohmann::json's SAX interface, met by its members'
// names): fills `root`. A list or object that would open at `max_depth` lists and objects deep
// stops the parse (refusal() is then too_deep), and so does a value past the first `max_values`
// (too_many_values), before it is built; so does text that is not JSON (not_json, at byte
// error_byte()) or a number beyond a double (number_too_large). Throws only what building
// a value throws (std::bad_alloc).
template <class Json>
class json_builder {
 public:
  using number_integer_t = typename Json::number_integer_t;
  using number_unsigned_t = typename Json::number_unsigned_t;
  using number_float_t = typename Json::number_float_t;
  using string_t = typename Json::string_t;
  using binary_t = typename Json::binary_t;

  json_builder(Json& root, std::size_t max_depth, std::size_t max_values)
      : root_(root), max_depth_(max_depth), values_left_(max_values) {}

  bool null() { return put(Json(nullptr)); }
  bool boolean(bool value) { return put(Json(value)); }
  bool number_integer(number_integer_t value) { return put(Json(value)); }
  bool number_unsigned(number_unsigned_t value) { return put(Json(value)); }
  bool number_float(number_float_t value, const string_t& /*text*/) { return put(Json(value)); }
  bool string(string_t& value) { return put(Json(std::move(value))); }
  bool binary(binary_t& value) { return put(Json::binary(std::move(value))); }

  bool start_object(std::size_t /*size: unknown for JSON text*/) { return open(Json::object()); }
  bool key(string_t& name) {
    // operator[] inserts the key (null) or finds it: a repeated key's last value wins, as in
    // nlohmann::json::parse and JSON.parse.
    member_ = &(*open_.back())[std::move(name)];
    return true;
  }
  bool end_object() { return close(); }
  bool start_array(std::size_t /*size*/) { return open(Json::array()); }
  bool end_array() { return close(); }

  template <class Exception>
  bool parse_error(std::size_t position, const std::string& /*last_token*/, const Exception& error) {
    if constexpr (std::is_base_of_v<typename Json::out_of_range, Exception>) {
      refusal_ = json_refusal::number_too_large;
    } else {
      refusal_ = json_refusal::not_json;
      if constexpr (std::is_base_of_v<typename Json::parse_error, Exception>) error_byte_ = error.byte;
      else error_byte_ = position;
    }
    return false;
  }

  [[nodiscard]] json_refusal refusal() const noexcept { return refusal_; }
  // The byte (counted from 1) where the text stopped being JSON, for not_json.
  [[nodiscard]] std::size_t error_byte() const noexcept { return error_byte_; }

 private:
  // Puts a value where the parse is: the root, the next item of the innermost open list, or the
  // member the last key named. Returns where it now lives. Pointers on open_ stay valid: only the
  // innermost container grows, and an open container is never an item of one that grows.
  Json* place(Json value) {
    if (open_.empty()) {
      root_ = std::move(value);
      return &root_;
    }
    Json& container = *open_.back();
    if (container.is_array()) {
      container.push_back(std::move(value));
      return &container.back();
    }
    *member_ = std::move(value);
    return member_;
  }
  // Counts one value more; false (the parse stops) past the limit.
  bool counted() {
    if (values_left_ == 0) {
      refusal_ = json_refusal::too_many_values;
      return false;
    }
    --values_left_;
    return true;
  }
  bool put(Json value) {
    if (!counted()) return false;
    place(std::move(value));
    return true;
  }
  bool open(Json empty) {
    if (open_.size() >= max_depth_) {
      refusal_ = json_refusal::too_deep;
      return false;  // stops the parse: nothing deeper is built
    }
    if (!counted()) return false;
    open_.push_back(place(std::move(empty)));
    return true;
  }
  bool close() {
    open_.pop_back();
    return true;
  }

  Json& root_;
  std::size_t max_depth_;
  std::size_t values_left_;  // how many more values may be built
  std::vector<Json*> open_;  // the lists and objects open, outermost first
  Json* member_ = nullptr;   // the member the last key named, in the innermost open object
  json_refusal refusal_ = json_refusal::none;
  std::size_t error_byte_ = 0;
};

}  // namespace elicit::detail
