// The characters of a C++ identifier, as reflection reads member and enumerator names out of
// compiler signatures.
#pragma once

#include <cstddef>

namespace elicit::detail {

// A byte of a C++ identifier: how member and enumerator names are read out of compiler
// signatures. Bytes past ASCII are taken too: GCC and Clang spell an identifier such as
// `año` in UTF-8, and reading only its ASCII tail would name the member "o".
constexpr bool is_identifier_char(char c) noexcept {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
         static_cast<unsigned char>(c) >= 0x80;
}

// How a signature (a function's __PRETTY_FUNCTION__) is read at compile time, measured: GCC's
// constant evaluator builds and keeps two expression nodes for every character read through a
// pointer (about 150 bytes of compiler memory each; reading one enum's names that way took a
// megabyte), but none for an element of an array of known size; Clang reads an element of
// such an array about twice as slowly as through a pointer, and keeps nothing either way.
#if defined(__clang__)
template <std::size_t S>
constexpr const char* signature_chars(const char (&text)[S]) noexcept {
  return text;
}
#else
template <std::size_t S>
constexpr auto signature_chars(const char (&text)[S]) noexcept -> const char (&)[S] {
  return text;
}
#endif

}  // namespace elicit::detail
