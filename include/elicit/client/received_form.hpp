// The host's side of a form: a requestedSchema as a client receives it (in an elicitation/create,
// or an inputRequests entry), read at run time into the same field model a server declares in
// C++, or refused with every problem in words.
//
//   elicit::read_form_result r = elicit::read_form(params["requestedSchema"]);
//   if (!r) { for (const auto& p : r.problems) log(p.pointer, p.message); return decline(); }
//   for (const elicit::field_info& f : r.form->fields())
//     show(f.label(), f.description(), f.options(), f.default_value());
//
// What a form may be is the restricted dialect of the spec, and nothing more: one flat object of
// string, number, integer, boolean and choice fields, each keyword of the right type, a default
// of its field's type that meets the field's own rules, no field that asks for a credential; the
// same rules a form declared in C++ meets at compile time. A form read here writes back
// (schema_json) as the library writes a declared one, and checks an answer (form_answer.hpp) by the
// decoder's own rules and words.
#pragma once

#include <elicit/answer/json_limits.hpp>
#include <elicit/answer/violation.hpp>
#include <elicit/client/detail/schema_reader.hpp>
#include <elicit/detail/model/keywords.hpp>
#include <elicit/detail/model/limits.hpp>
#include <elicit/detail/string_sink.hpp>
#include <elicit/form/field_info.hpp>
#include <elicit/form/limits.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elicit {

class received_form;
struct read_form_result;

// Reads a requestedSchema. Every problem is listed, each at its JSON Pointer in the schema
// ("/properties/age/default") with the keyword it is about; the form is there only when there is
// none. The schema is first held to `limits` (its size and depth, as every input). The fields come
// in the value's order: the schema's own from a nlohmann::ordered_json or from text, the keys'
// sorted order from a nlohmann::json (which keeps no other). Never throws but std::bad_alloc.
[[nodiscard]] read_form_result read_form(const nlohmann::ordered_json& schema, const json_limits& limits = {});
[[nodiscard]] read_form_result read_form(const nlohmann::json& schema, const json_limits& limits = {});
// The same from JSON text, parsed within `limits` (elicit::parse_json).
[[nodiscard]] read_form_result read_form(std::string_view schema_text, const json_limits& limits = {});

namespace detail {
template <class Json>
read_form_result read_form_value(const Json& schema, const json_limits& limits);
}

// A form read from a requestedSchema: its fields in the schema's order. Copyable; a copy owns its
// own texts.
class received_form {
 public:
  received_form(const received_form& other) : fields_(other.fields_) { relink(); }
  received_form(received_form&&) noexcept = default;
  received_form& operator=(const received_form& other) {
    if (this != &other) *this = received_form(other);
    return *this;
  }
  received_form& operator=(received_form&&) noexcept = default;
  ~received_form() = default;

  // The fields, in order. The views are valid while this form lives.
  [[nodiscard]] std::vector<field_info> fields() const {
    std::vector<field_info> out;
    out.reserve(fields_.size());
    for (const detail::received_field& f : fields_) out.emplace_back(f.spec);
    return out;
  }
  [[nodiscard]] std::size_t size() const noexcept { return fields_.size(); }
  // The field with this property key, or nothing.
  [[nodiscard]] std::optional<field_info> field(std::string_view key) const noexcept {
    const std::size_t i = index_of(key);
    if (i == size()) return std::nullopt;
    return field_info(fields_[i].spec);
  }
  // Its position, or size() when the form has no such field.
  [[nodiscard]] std::size_t index_of(std::string_view key) const noexcept {
    for (std::size_t i = 0; i < fields_.size(); ++i)
      if (fields_[i].key == key) return i;
    return fields_.size();
  }

  // The form written back as a requestedSchema, as compact JSON text, by the writer of declared
  // forms: a schema that writer wrote reads back and writes again byte for byte.
  [[nodiscard]] std::string schema_json() const {
    detail::string_sink out;
    detail::write_schema(out, specs());
    return std::move(out.text);
  }

  // The descriptions the schema writer and the checks read (form_answer.hpp).
  [[nodiscard]] std::vector<detail::field_spec> specs() const {
    std::vector<detail::field_spec> out;
    out.reserve(fields_.size());
    for (const detail::received_field& f : fields_) out.push_back(f.spec);
    return out;
  }
  [[nodiscard]] const detail::field_spec& spec(std::size_t i) const noexcept { return fields_[i].spec; }

 private:
  template <class Json>
  friend read_form_result detail::read_form_value(const Json&, const json_limits&);
  explicit received_form(std::vector<detail::received_field> fields) : fields_(std::move(fields)) { relink(); }

  // The descriptions point into their own field's texts: made again after a copy. A move keeps
  // them: the vector hands over its buffer, and the fields in it do not move.
  void relink() {
    for (detail::received_field& f : fields_) detail::relink(f);
  }

  std::vector<detail::received_field> fields_;
};

// What read_form gives: the form, or the problems that kept it from being one.
struct read_form_result {
  std::optional<received_form> form;
  violation_list problems;

  explicit operator bool() const noexcept { return form.has_value(); }
};

template <class Json>
read_form_result detail::read_form_value(const Json& schema, const json_limits& limits) {
  read_form_result result;
  if (auto refused = detail::walk_limits(schema, limits)) {
    result.problems.push_back(*refused);
    return result;
  }
  const detail::schema_reporter report{result.problems};
  if (!schema.is_object()) {
    report("", "", "A requestedSchema must be a JSON object.");
    return result;
  }
  // The spec's own keywords, and what schema generators add around a form that changes nothing
  // a client shows or sends (a Python SDK's model title, a closed object): read past.
  for (const auto& [keyword, value] : schema.items()) {
    if (keyword == "type" || keyword == "properties" || keyword == "required") continue;
    if ((keyword == "$schema" || keyword == "title" || keyword == "description") && value.is_string()) continue;
    if (keyword == "additionalProperties" && value.is_boolean()) continue;
    report("", keyword,
           detail::message("A requestedSchema has no keyword \"", detail::shown_key{keyword},
                           R"(": only "type", "properties", "required", "$schema", "title", "description" )"
                           R"(and "additionalProperties".)"));
  }
  if (const auto type = schema.find("type"); type == schema.end() || *type != "object")
    report("", "type", R"(A requestedSchema's "type" must be "object".)");
  const auto props = schema.find("properties");
  if (props == schema.end() || !props->is_object()) {
    report("", "properties", R"(A requestedSchema needs "properties": an object of its fields.)");
    return result;
  }
  // Before anything is looked up in them: an ordered value finds a key by a walk of its keys.
  if (props->size() > detail::max_fields) {
    report("", "properties",
           detail::message("A form has at most ", detail::max_fields, " fields; this one has ", props->size(), "."));
    return result;
  }
  if (const auto req = schema.find("required"); req != schema.end() && req->is_array() && req->size() > props->size()) {
    report("", "required", R"("required" lists more keys than there are properties (or a key twice).)");
    return result;
  }
  std::vector<std::string_view> listed;
  if (const auto req = schema.find("required"); req != schema.end()) {
    if (!req->is_array()) report("", "required", R"("required" must list property keys.)");
    else
      for (const Json& k : *req) {
        if (!k.is_string() || !props->contains(k.template get_ref<const std::string&>())) {
          report("", "required", R"("required" lists a key that is not one of the properties.)");
          continue;
        }
        listed.push_back(k.template get_ref<const std::string&>());
      }
  }
  if (!result.problems.empty()) return result;
  std::vector<detail::received_field> fields(props->size());
  std::size_t i = 0;
  for (const auto& [key, property] : props->items()) {
    const bool required = std::find(listed.begin(), listed.end(), key) != listed.end();
    detail::read_property(key, property, required, fields[i++], report);
  }
  if (!result.problems.empty()) return result;
  result.form = received_form(std::move(fields));
  return result;
}

inline read_form_result read_form(const nlohmann::ordered_json& schema, const json_limits& limits) {
  return detail::read_form_value(schema, limits);
}
inline read_form_result read_form(const nlohmann::json& schema, const json_limits& limits) {
  return detail::read_form_value(schema, limits);
}

// The text is first parsed by elicit::parse_json, within the limits (its length, depth and count
// of values), then again into an ordered value, which keeps the fields' order: that second parse
// reads text already known to be within them.
inline read_form_result read_form(std::string_view schema_text, const json_limits& limits) {
  const parsed_json parsed = parse_json(schema_text, limits);
  if (!parsed) {
    read_form_result result;
    result.problems.push_back(*parsed.error());
    return result;
  }
  // No object of a form needs more members than a form has fields, and keywords beside them:
  // a wider one is refused before the ordered parse, whose cost grows as its square.
  if (const std::size_t widest = detail::widest_object(*parsed); widest > 4 * detail::max_fields) {
    read_form_result result;
    result.problems.push_back(
        violation{"", "maxProperties",
                  detail::message("The schema holds an object of ", widest, " members: a form has at most ",
                                  detail::max_fields, " fields.")});
    return result;
  }
  return read_form(nlohmann::ordered_json::parse(schema_text), limits);
}

}  // namespace elicit
