// Forms must not ask for credentials (the spec: servers MUST NOT use form mode for passwords,
// API keys, tokens, card numbers or one-time codes). A field is taken for a credential when
// the head noun of its name is one: the last word, or the last two, of the member's or the
// wire name, split at underscores, hyphens, dots, spaces, digits and camelCase humps. So
// `db_password` and `accessToken` are credentials, and `token_count` or `password_hint` are not.
#pragma once

#include <elicit/detail/engine/describe.hpp>
#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/reflection.hpp>
#include <elicit/detail/text_formats.hpp>

#include <array>
#include <cstddef>
#include <string_view>
#include <utility>

namespace elicit::detail {

constexpr bool is_upper(char c) noexcept { return c >= 'A' && c <= 'Z'; }
constexpr bool is_lower(char c) noexcept { return c >= 'a' && c <= 'z'; }

// The last `n` words of an identifier, last word last.
template <std::size_t N>
constexpr std::array<std::string_view, N> last_words(std::string_view name) noexcept {
  std::array<std::string_view, N> words{};
  std::size_t found = 0;
  std::size_t end = name.size();
  while (found < N && end > 0) {
    while (end > 0 && !(is_upper(name[end - 1]) || is_lower(name[end - 1]))) --end;  // separators, digits
    if (end == 0) break;
    std::size_t begin = end;
    if (is_lower(name[begin - 1])) {
      while (begin > 0 && is_lower(name[begin - 1])) --begin;
      if (begin > 0 && is_upper(name[begin - 1])) --begin;  // "Token" in accessToken
    } else {
      while (begin > 0 && is_upper(name[begin - 1])) --begin;  // an acronym: "API", "PIN"
    }
    words[N - 1 - found++] = name.substr(begin, end - begin);
    end = begin;
  }
  return words;
}

// A head noun that is a credential by itself.
inline constexpr std::string_view credential_words[] = {
    "password",  "passwd",     "pwd",     "pass",   "passphrase",    "passcode",   "passkey",
    "secret",    "token",      "jwt",     "bearer", "authorization", "apikey",     "secretkey",
    "accesskey", "privatekey", "privkey", "cvv",    "cvc",           "otp",        "totp",
    "hotp",      "mfa",        "pin",     "ssn",    "mnemonic",      "credential", "credentials",
};
// Two last words that are a credential together, though neither is alone.
inline constexpr std::array<std::string_view, 2> credential_pairs[] = {
    {"api", "key"},           {"private", "key"},
    {"secret", "key"},        {"access", "key"},
    {"signing", "key"},       {"encryption", "key"},
    {"master", "key"},        {"card", "number"},
    {"card", "num"},          {"card", "no"},
    {"credit", "card"},       {"debit", "card"},
    {"security", "number"},  // social_security_number
    {"pin", "code"},          {"pin", "number"},
    {"otp", "code"},          {"security", "code"},
    {"verification", "code"}, {"auth", "code"},
    {"mfa", "code"},          {"time", "code"},  // one_time_code
    {"factor", "code"},                          // two_factor_code
    {"fa", "code"},                              // 2fa_code: digits separate words
    {"sms", "code"},          {"email", "code"},
    {"login", "code"},        {"recovery", "code"},
    {"backup", "code"},       {"totp", "seed"},
    {"otp", "seed"},          {"mfa", "seed"},
    {"seed", "phrase"},       {"recovery", "phrase"},
    {"secret", "phrase"},     {"session", "cookie"},
    {"auth", "cookie"},       {"password", "confirmation"},
    {"password", "confirm"},
};
// A last word that says how a value is written, not what it is: private_key_pem is a private
// key. The word before it is read as the head noun.
inline constexpr std::string_view encoding_words[] = {"pem", "der", "b64", "base64", "hex", "encoded", "raw"};

// Whether `a b` (a may be empty) ends a credential's name.
constexpr bool is_credential_noun(std::string_view a, std::string_view b) noexcept {
  for (std::string_view w : credential_words)
    if (equals_lower(b, w)) return true;
  for (const auto& [first, second] : credential_pairs)
    if (equals_lower(a, first) && equals_lower(b, second)) return true;
  return false;
}

constexpr bool looks_like_credential(std::string_view name) noexcept {
  const auto words = last_words<3>(name);
  if (is_credential_noun(words[1], words[2])) return true;
  for (std::string_view w : encoding_words)
    if (equals_lower(words[2], w)) return is_credential_noun(words[0], words[1]);
  return false;
}

constexpr bool asks_for_secret(const field_spec& s) noexcept {
  return !s.not_secret && (looks_like_credential(s.member) || looks_like_credential(s.wire));
}

template <class Form, std::size_t I, auto Member = probe_of<Form, I>()>
constexpr bool secret_rule() {
  static_assert(I == static_cast<std::size_t>(-1),
                "elicit: this field's name says it is a credential (password, API key, token, card number, "
                "one-time code...), and forms must never ask for one: send the user to a page of yours in URL "
                "mode instead (elicit::url_params). If it is no credential, add elicit::not_secret to it");
  return false;
}

// The index of the first field that looks like a credential, or the field count.
template <class Form>
constexpr std::size_t first_secret() {
  const auto& specs = form_spec<Form>;
  for (std::size_t i = 0; i < specs.size(); ++i)
    if (asks_for_secret(specs[i])) return i;
  return specs.size();
}

// True when no field of the form looks like a credential; otherwise the diagnostic names the
// first one. The verdict is computed apart from the diagnostic, so that it stays a constant
// and the diagnostic is the only error.
template <class Form>
constexpr bool no_secrets() {
  constexpr std::size_t found = first_secret<Form>();
  if constexpr (found == member_count<Form>) {
    return true;
  } else {
    return secret_rule<Form, found>();
  }
}

}  // namespace elicit::detail
