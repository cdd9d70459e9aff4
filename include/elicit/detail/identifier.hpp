// The characters of a C++ identifier, as reflection reads member and enumerator names out of
// compiler signatures.
#pragma once

namespace elicit::detail {

// A byte of a C++ identifier: how member and enumerator names are read out of compiler
// signatures. Bytes past ASCII are taken too: GCC and Clang spell an identifier such as
// `año` in UTF-8, and reading only its ASCII tail would name the member "o".
constexpr bool is_identifier_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

}  // namespace elicit::detail
