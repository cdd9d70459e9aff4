// JSON texts of a shape and a size, for the tests and the benchmark of parse_json: a list of
// one item repeated, and an object of many keys.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace json_shapes {

// `count` copies of `item` in a list, as text: [item,item,...].
inline std::string list_of(std::string_view item, std::size_t count) {
  std::string text = "[";
  for (std::size_t i = 0; i < count; ++i) {
    if (i != 0) text += ',';
    text += item;
  }
  return text + "]";
}

// One object of `count` keys, as text: {"k0":0,"k1":0,...}.
inline std::string keys_of(std::size_t count) {
  std::string text = "{";
  for (std::size_t i = 0; i < count; ++i) text += (i != 0 ? ",\"k" : "\"k") + std::to_string(i) + "\":0";
  return text + "}";
}

}  // namespace json_shapes
