// Reading one field's answer out of JSON into its C++ value, through its type's entry
// (value_traits.hpp), which checks every keyword of its schema on the way (the checks themselves
// are in keywords.hpp, beside the writers); and a field's default as the JSON a client would
// have sent.
#pragma once

#include <elicit/answer/violation.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/model/keywords.hpp>
#include <elicit/detail/model/option_index.hpp>
#include <elicit/detail/model/reporter.hpp>
#include <elicit/detail/model/value_traits.hpp>
#include <elicit/detail/model/value_view.hpp>
#include <elicit/detail/number.hpp>
#include <elicit/detail/text_formats.hpp>
#include <elicit/detail/text_policy.hpp>
#include <elicit/detail/utf8.hpp>
#include <elicit/form/field.hpp>
#include <elicit/form/formats.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace elicit::detail {

// Reads `j` into `out` when it meets the field's schema; otherwise reports every rule it
// breaks and leaves `out` alone. How is the type's own (its entry's `read`, value_traits.hpp);
// an optional field reads its element, and keeps it only when it has no fault.
template <class V>
void read_value(value_view j, const field_spec& s, V& out, const reporter& r) {
  if constexpr (is_optional<V>::value) {
    typename V::value_type inner{};
    const std::size_t before = r.out.total();
    read_value(j, s, inner, r);
    if (r.out.total() == before) out = std::move(inner);
  } else if constexpr (value_traits<V>::known) {
    value_traits<V>::read(j, s, out, r);
  } else {
    static_assert(sizeof(V) == 0, "elicit: no reader for this field type");
  }
}

// The default of a field as the JSON a client would have sent for it.
inline nlohmann::json default_json(const field_spec& s) {
  const default_spec& d = s.def;
  switch (d.kind) {
    case default_spec::kind_t::boolean: return d.boolean;
    case default_spec::kind_t::number:
      if (d.num.kind == number::kind_t::signed_int) return d.num.i;
      if (d.num.kind == number::kind_t::unsigned_int) return d.num.u;
      return d.num.as_double();
    case default_spec::kind_t::enumerators: {
      nlohmann::json wires = nlohmann::json::array();
      for (std::size_t i = 0; i < d.enumerator_count; ++i) wires.push_back(wire_of(s, d.enumerators[i]));
      return s.type == value_type::multi_select ? wires : wires[0];
    }
    default: return std::string(d.text);
  }
}

}  // namespace elicit::detail
