// What docs/decoding.md's snippets take as given: the sample forms, an answer, and the
// program's own functions.
#pragma once

#include "../../../../samples/forms.hpp"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <string>
#include <string_view>
#include <utility>

using shipping::DeliveryAddress;

inline const nlohmann::json result = nlohmann::json::parse(R"({"action":"decline"})");
inline const std::string text = R"({"action":"cancel"})";

inline void ship_to(const std::string&, const std::string&) {}
template <class A, class... More>
void log(fmt::format_string<A, More...> format, A&& a, More&&... more) {
  fmt::print(stderr, format, std::forward<A>(a), std::forward<More>(more)...);
}
