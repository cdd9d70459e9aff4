// Writing a field's C++ value back as the JSON a client would send for it (to_content): wire
// names of choices, dates as text.
#pragma once

#include <elicit/choice.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/detail/text_formats.hpp>
#include <elicit/formats.hpp>
#include <elicit/impl/field_spec.hpp>
#include <elicit/impl/keywords.hpp>
#include <elicit/impl/value_traits.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace elicit::detail {

template <class E>
std::string wire_for(const field_spec& s, E e) {
  if (const enum_entry* choice = s.option_for(underlying(e))) return std::string(choice->wire);
  throw std::invalid_argument(message("elicit::to_content: ", label_of(s), " holds enumerator value ", underlying(e),
                                      ", which is not one of its options"));
}

template <class V>
nlohmann::ordered_json write_value(const field_spec& s, const V& v) {
  if constexpr (std::is_same_v<V, bool> || std::is_arithmetic_v<V>) {
    return v;
  } else if constexpr (std::is_same_v<V, std::string>) {
    return v;
  } else if constexpr (std::is_same_v<V, email> || std::is_same_v<V, uri>) {
    return v.str();
  } else if constexpr (std::is_same_v<V, std::chrono::year_month_day>) {
    return format_date(v);
  } else if constexpr (std::is_same_v<V, std::chrono::sys_seconds>) {
    return format_date_time(v);
  } else if constexpr (std::is_enum_v<V>) {
    return wire_for(s, v);
  } else if constexpr (std::is_same_v<V, choice>) {
    return v.value;
  } else {
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const auto& e : v) list.push_back(write_value(s, e));
    return list;
  }
}

}  // namespace elicit::detail
