// Writing a field's C++ value back as the JSON a client would send for it (to_content, a
// form's prefill): each type's entry says how (value_traits.hpp: wire names of choices, dates
// as text).
#pragma once

#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/model/value_traits.hpp>

#include <nlohmann/json.hpp>

namespace elicit::detail {

// Throws std::invalid_argument when an enumerator held is none of the field's options.
template <class V>
nlohmann::ordered_json write_value(const field_spec& s, const V& v) {
  static_assert(value_traits<V>::known, "elicit: no writer for this field type");
  return value_traits<V>::write(s, v);
}

}  // namespace elicit::detail
