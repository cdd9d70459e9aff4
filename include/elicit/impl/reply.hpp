// An ElicitResult as decode reads it (`reply`), found in a parsed document or read straight
// from text (`reply_reader`).
//
// Reading from text is where the time goes: parsing is four fifths of decoding an answer.
// reply_reader takes the parser's events and keeps only what decode looks at, the action and
// the value of each field of the form, each in a slot of its own. The rest of the document is
// checked as JSON and bounded in depth but never built, and no map of the content is made.
// What it keeps is what decode finds in the parsed document, key for key (a repeated key: the
// last one wins, as in nlohmann::json::parse); tests/test_reply.cpp and the fuzz target
// compare the two readings.
#pragma once

#include <elicit/impl/field_spec.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace elicit::detail {

// `X`, named through a type that depends on `T`: code in a template that names it is compiled
// only when the template is used, not in every translation unit that includes the header.
template <class T, class X>
struct dependent_type {
  using type = X;
};
template <class T, class X>
using dependent_t = typename dependent_type<T, X>::type;

// What decode looks at in an ElicitResult. A null pointer is something absent.
struct reply {
  const nlohmann::json* not_object = nullptr;          // the result, when it is not an object
  const nlohmann::json* action = nullptr;              // its action
  const nlohmann::json* content_not_object = nullptr;  // its content, when that is not an object
  std::span<const nlohmann::json* const> fields;       // the content's value of each field, in form order
  std::vector<std::string_view> unknown;               // (strict) the content's other keys, sorted, once each
};

// The index of the field whose wire name is `key`, or specs.size() when none is.
inline std::size_t field_index(std::span<const field_spec> specs, std::string_view key) noexcept {
  std::size_t i = 0;
  while (i < specs.size() && specs[i].wire != key) ++i;
  return i;
}

// The fields of a parsed content object, found by their wire names; `out` has one per spec.
inline void find_fields(const nlohmann::json& content, std::span<const field_spec> specs,
                        std::span<const nlohmann::json*> out, bool strict, std::vector<std::string_view>& unknown) {
  // The object's own map: a heterogeneous lookup by the wire name, without building a key.
  const auto& members = content.get_ref<const nlohmann::json::object_t&>();
  for (std::size_t i = 0; i < specs.size(); ++i) {
    const auto it = members.find(specs[i].wire);
    out[i] = it == members.end() ? nullptr : &it->second;
  }
  if (!strict) return;
  for (const auto& member : members)
    if (field_index(specs, member.first) == specs.size()) unknown.push_back(member.first);  // the map is sorted
}

// Builds one JSON value from the parser's events, as nlohmann::json::parse would.
template <class Json>
class value_builder {
 public:
  void start(Json& target) {
    target_ = &target;
    open_.clear();
  }
  template <class V>
  void add(V&& v) {
    place(std::forward<V>(v));
  }
  void open(typename Json::value_t kind) { open_.push_back(&place(kind)); }
  void key(const std::string& k) { slot_ = &(*open_.back())[k]; }  // repeated: the last value wins
  void close() { open_.pop_back(); }
  [[nodiscard]] bool done() const noexcept { return open_.empty(); }

 private:
  // Where the next value goes: the target, the end of the open list, or the last key's slot.
  template <class V>
  Json& place(V&& v) {
    if (open_.empty()) return *target_ = Json(std::forward<V>(v));
    if (open_.back()->is_array()) return open_.back()->emplace_back(std::forward<V>(v));
    return *slot_ = Json(std::forward<V>(v));
  }

  Json* target_ = nullptr;
  std::vector<Json*> open_;  // the lists and objects still open, outermost first
  Json* slot_ = nullptr;
};

// Reads an ElicitResult from the parser's events (nlohmann::json::sax_parse). A template on
// the document type (nlohmann::json) only so that nothing of it is compiled in a translation
// unit that does not decode text: decode names it through a type that depends on the form.
template <class Json>
class reply_reader {
 public:
  reply_reader(std::span<const field_spec> specs, bool strict, std::size_t max_depth)
      : specs_(specs), strict_(strict), max_depth_(max_depth) {
    if (specs.size() > near_.size()) far_.resize(specs.size());
    values_ = specs.size() > near_.size() ? std::span<Json>(far_) : std::span(near_).first(specs.size());
    clear_content();
  }
  reply_reader(const reply_reader&) = delete;
  reply_reader& operator=(const reply_reader&) = delete;

  // ---- The parser's events ----
  bool null() { return scalar(nullptr); }
  bool boolean(bool v) { return scalar(v); }
  bool number_integer(std::int64_t v) { return scalar(v); }
  bool number_unsigned(std::uint64_t v) { return scalar(v); }
  bool number_float(double v, const std::string& /*text*/) { return scalar(v); }
  // Strings and keys are copied, not moved: the parser's buffer keeps its capacity for the next.
  bool string(const std::string& v) { return scalar(v); }
  bool binary(typename Json::binary_t& v) { return scalar(v); }  // never produced by JSON text
  bool start_object(std::size_t /*size*/) { return open(Json::value_t::object); }
  bool start_array(std::size_t /*size*/) { return open(Json::value_t::array); }
  bool end_object() { return close(); }
  bool end_array() { return close(); }
  bool key(const std::string& k);
  bool parse_error(std::size_t byte, const std::string& /*token*/, const typename Json::exception& e) {
    error_byte_ = byte;
    error_id_ = e.id;
    return false;
  }

  // ---- After sax_parse ----
  [[nodiscard]] bool too_deep() const noexcept { return too_deep_; }
  [[nodiscard]] std::size_t error_byte() const noexcept { return error_byte_; }
  [[nodiscard]] int error_id() const noexcept { return error_id_; }  // nlohmann's id: 101 syntax, 406 range...
  // What was read; `fields` has one slot per spec and must outlive the reply, as must this reader.
  [[nodiscard]] reply result(std::span<const Json*> fields);

 private:
  // What the next value is, from the key before it.
  enum class role { skip, action, content, field };

  template <class V>
  bool scalar(V&& v) {
    if (building_) builder_.add(std::forward<V>(v));
    else if (skip_until_ == 0)
      if (Json* target = target_at(depth_)) *target = Json(std::forward<V>(v));
    return true;
  }
  bool open(typename Json::value_t kind);
  bool close();
  Json* target_at(std::size_t depth);
  void clear_content();

  std::span<const field_spec> specs_;
  bool strict_;
  std::size_t max_depth_;

  std::size_t depth_ = 0;       // lists and objects open around the next event
  bool building_ = false;       // a list or object is being built into a target
  std::size_t skip_until_ = 0;  // when not 0, everything is skipped until depth_ falls below this
  value_builder<Json> builder_;
  role next_ = role::skip;
  std::size_t next_field_ = 0;

  bool result_is_object_ = false;
  Json not_object_;  // the result, when it is not an object
  bool has_action_ = false;
  Json action_;
  bool content_is_object_ = true;  // an absent content reads as an empty object
  Json content_;                   // the content, when it is not an object
  std::array<Json, 16> near_;      // the fields' values (discarded: absent), in place for most forms
  std::vector<Json> far_;
  std::span<Json> values_;
  std::vector<std::string> unknown_;

  bool too_deep_ = false;
  std::size_t error_byte_ = 0;
  int error_id_ = 0;
};

template <class Json>
bool reply_reader<Json>::key(const std::string& k) {
  if (building_) {
    builder_.key(k);
  } else if (skip_until_ != 0) {
  } else if (depth_ == 1) {  // a key of the result
    next_ = k == "action" ? role::action : k == "content" ? role::content : role::skip;
  } else {  // a key of the content object
    next_field_ = field_index(specs_, k);
    next_ = next_field_ < specs_.size() ? role::field : role::skip;
    if (next_ == role::skip && strict_) unknown_.push_back(k);
  }
  return true;
}

template <class Json>
bool reply_reader<Json>::open(typename Json::value_t kind) {
  if (depth_ == max_depth_) {
    too_deep_ = true;
    return false;
  }
  const std::size_t at = depth_++;
  if (building_) {
    builder_.open(kind);
  } else if (skip_until_ != 0) {
  } else if (kind == Json::value_t::object && at == 0) {
    result_is_object_ = true;  // its keys follow
  } else if (kind == Json::value_t::object && at == 1 && next_ == role::content) {
    clear_content();  // a repeated "content": the last one wins
  } else if (Json* target = target_at(at)) {
    builder_.start(*target);
    builder_.open(kind);
    building_ = true;
  } else {
    skip_until_ = depth_;
  }
  return true;
}

template <class Json>
bool reply_reader<Json>::close() {
  const std::size_t closing = depth_--;
  if (building_) {
    builder_.close();
    building_ = !builder_.done();
  } else if (skip_until_ == closing) {
    skip_until_ = 0;
  }
  return true;
}

// Where a value that starts inside `depth` lists and objects goes, or nowhere.
template <class Json>
Json* reply_reader<Json>::target_at(std::size_t depth) {
  if (depth == 0) return &not_object_;
  if (depth == 1) {
    if (next_ == role::action) {
      has_action_ = true;
      return &action_;
    }
    if (next_ != role::content) return nullptr;
    clear_content();
    content_is_object_ = false;
    return &content_;
  }
  if (next_ != role::field) return nullptr;
  return &values_[next_field_];
}

template <class Json>
void reply_reader<Json>::clear_content() {
  content_is_object_ = true;
  for (Json& v : values_) v = Json(Json::value_t::discarded);
  unknown_.clear();
}

template <class Json>
reply reply_reader<Json>::result(std::span<const Json*> fields) {
  reply r;
  if (!result_is_object_) {
    r.not_object = &not_object_;
    return r;
  }
  if (has_action_) r.action = &action_;
  if (!content_is_object_) r.content_not_object = &content_;
  for (std::size_t i = 0; i < values_.size(); ++i) fields[i] = values_[i].is_discarded() ? nullptr : &values_[i];
  r.fields = fields;
  std::sort(unknown_.begin(), unknown_.end());  // as the parsed object's map would hold them
  unknown_.erase(std::unique(unknown_.begin(), unknown_.end()), unknown_.end());
  r.unknown.assign(unknown_.begin(), unknown_.end());
  return r;
}

// Runs the JSON parser over `text`, its events to `reader`. nlohmann::json::sax_parse would
// also instantiate, for the reader, the parsers of CBOR, MessagePack, UBJSON, BJData and BSON
// (it branches on a format given at run time): about 0.7 s of compile time, and their code,
// in every translation unit that decodes text. With the version elicit is built against the
// JSON parser that sax_parse forwards to is called directly; other versions take the public
// call. A template, so that nothing is instantiated where no text is decoded.
template <class Reader>
bool parse_json(std::string_view text, Reader& reader) {
#if NLOHMANN_JSON_VERSION_MAJOR == 3 && NLOHMANN_JSON_VERSION_MINOR == 11
  using adapter = decltype(nlohmann::detail::input_adapter(text.begin(), text.end()));
  return nlohmann::detail::parser<nlohmann::json, adapter>(nlohmann::detail::input_adapter(text.begin(), text.end()),
                                                           nullptr, true, false)
      .sax_parse(&reader, true);
#else
  return nlohmann::json::sax_parse(text.begin(), text.end(), &reader);
#endif
}

}  // namespace elicit::detail
