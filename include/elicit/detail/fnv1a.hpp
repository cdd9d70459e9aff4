// FNV-1a: a compile-time hash that gives types and schemas an identity (type_id, the type tag
// of a sealed state).
#pragma once

#include <cstdint>
#include <string_view>

namespace elicit::detail {

// FNV-1a over text, continuing from `hash`: a compile-time identity for types and schemas.
constexpr std::uint64_t fnv1a(std::string_view text, std::uint64_t hash = 14695981039346656037ull) noexcept {
  for (char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 1099511628211ull;
  return hash;
}

}  // namespace elicit::detail
