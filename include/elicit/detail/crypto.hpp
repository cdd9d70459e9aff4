// The cryptographic primitives sealed state is built from, each a thin wrapper over OpenSSL's
// libcrypto (elicit writes no cipher, digest or encoding of its own): random bytes, canonical
// base64url, hex, SHA-256, HKDF-SHA256, AES-256-GCM, and a big-endian 64-bit codec. Only
// <elicit/state/key_ring.hpp> and <elicit/state/state.hpp> include it; it needs the elicit::state target.
#pragma once

#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace elicit::detail {

inline std::vector<unsigned char> random_bytes(std::size_t n) {
  std::vector<unsigned char> out(n);
  if (RAND_bytes(out.data(), static_cast<int>(n)) != 1) throw std::runtime_error("elicit: OpenSSL RAND_bytes failed");
  return out;
}

// base64url without padding (RFC 4648 section 5), through OpenSSL's base64.
inline std::string base64url_encode(std::span<const unsigned char> bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes.data(), static_cast<int>(bytes.size()));
  out.resize(static_cast<std::size_t>(n));
  while (!out.empty() && out.back() == '=') out.pop_back();
  for (char& c : out) c = c == '+' ? '-' : (c == '/' ? '_' : c);
  return out;
}

// The bytes of base64url text, or nothing when it is not canonical base64url: any other
// spelling of the same bytes is refused, so that no two tokens open to the same state.
inline std::optional<std::vector<unsigned char>> base64url_decode(std::string_view text) {
  if (text.size() % 4 == 1) return std::nullopt;
  std::string b64(text);
  for (char& c : b64) {
    if (c == '-') c = '+';
    else if (c == '_') c = '/';
    else if (c == '+' || c == '/' || c == '=') return std::nullopt;
  }
  const std::size_t pad = (4 - b64.size() % 4) % 4;
  b64.append(pad, '=');
  std::vector<unsigned char> out(b64.size() / 4 * 3);
  const int n =
      EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char*>(b64.data()), static_cast<int>(b64.size()));
  if (n < 0 || static_cast<std::size_t>(n) < pad) return std::nullopt;
  out.resize(static_cast<std::size_t>(n) - pad);
  if (base64url_encode(out) != text) return std::nullopt;
  return out;
}

struct cipher_context {
  std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx{EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free};
};

// Bytes as lowercase hex, two characters a byte: elicitation ids and argument digests.
inline std::string hex_of(std::span<const unsigned char> bytes) {
  static constexpr char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(2 * bytes.size());
  for (unsigned char b : bytes) {
    out += hex[b >> 4];
    out += hex[b & 15];
  }
  return out;
}

inline std::array<unsigned char, 32> sha256(std::string_view a, std::string_view b = {}) {
  std::array<unsigned char, 32> out{};
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), &EVP_MD_CTX_free);
  unsigned int n = 0;
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1 ||
      EVP_DigestUpdate(ctx.get(), a.data(), a.size()) != 1 || EVP_DigestUpdate(ctx.get(), b.data(), b.size()) != 1 ||
      EVP_DigestFinal_ex(ctx.get(), out.data(), &n) != 1)
    throw std::runtime_error("elicit: OpenSSL SHA-256 failed");
  return out;
}

// A 256-bit key derived from `secret` with HKDF-SHA256 (RFC 5869), bound to its key id, so that
// one secret under two ids gives two keys and a key never is the secret itself.
inline std::array<unsigned char, 32> derive_key(std::span<const unsigned char> secret, std::string_view key_id) {
  std::array<unsigned char, 32> key{};
  std::unique_ptr<EVP_KDF, decltype(&EVP_KDF_free)> kdf(EVP_KDF_fetch(nullptr, "HKDF", nullptr), &EVP_KDF_free);
  if (!kdf) throw std::runtime_error("elicit: OpenSSL has no HKDF");
  std::unique_ptr<EVP_KDF_CTX, decltype(&EVP_KDF_CTX_free)> ctx(EVP_KDF_CTX_new(kdf.get()), &EVP_KDF_CTX_free);
  static constexpr char salt[] = "elicit requestState";
  std::string info = "elicit requestState v2 key ";
  info += key_id;
  char digest[] = "SHA256";
  const OSSL_PARAM params[] = {
      OSSL_PARAM_construct_utf8_string(OSSL_KDF_PARAM_DIGEST, digest, 0),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_KEY, const_cast<unsigned char*>(secret.data()), secret.size()),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_SALT, const_cast<char*>(salt), sizeof salt - 1),
      OSSL_PARAM_construct_octet_string(OSSL_KDF_PARAM_INFO, info.data(), info.size()), OSSL_PARAM_construct_end()};
  if (!ctx || EVP_KDF_derive(ctx.get(), key.data(), key.size(), params) != 1)
    throw std::runtime_error("elicit: OpenSSL HKDF failed");
  return key;
}

inline constexpr std::size_t gcm_tag_bytes = 16;

// Eight bytes, most significant first, whatever the machine's byte order: the sealed state's times.
inline void put_u64(unsigned char* out, std::uint64_t v) {
  for (std::size_t i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(v >> (8 * (7 - i)));
}
inline std::uint64_t get_u64(const unsigned char* in) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) v = (v << 8) | in[i];
  return v;
}

// AES-256-GCM over `in` into `out` (as long as `in`), authenticating `aad` in clear; `mac` is the
// 16-byte tag, written when sealing and checked when opening. False when OpenSSL fails or, when
// opening, when the tag does not match (altered bytes, another key).
inline bool aes_gcm(bool encrypt, const std::array<unsigned char, 32>& key, std::span<const unsigned char> nonce,
                    std::span<const unsigned char> aad, std::span<const unsigned char> in, unsigned char* out,
                    unsigned char* mac) {
  cipher_context c;
  int n = 0;
  if (!c.ctx) return false;
  if (EVP_CipherInit_ex(c.ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr, encrypt ? 1 : 0) != 1) return false;
  if (EVP_CIPHER_CTX_ctrl(c.ctx.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(nonce.size()), nullptr) != 1)
    return false;
  if (EVP_CipherInit_ex(c.ctx.get(), nullptr, nullptr, key.data(), nonce.data(), encrypt ? 1 : 0) != 1) return false;
  if (EVP_CipherUpdate(c.ctx.get(), nullptr, &n, aad.data(), static_cast<int>(aad.size())) != 1) return false;
  if (!in.empty() && EVP_CipherUpdate(c.ctx.get(), out, &n, in.data(), static_cast<int>(in.size())) != 1) return false;
  if (!encrypt && EVP_CIPHER_CTX_ctrl(c.ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(gcm_tag_bytes), mac) != 1)
    return false;
  if (EVP_CipherFinal_ex(c.ctx.get(), out + in.size(), &n) != 1) return false;  // fails on a wrong tag
  return !encrypt || EVP_CIPHER_CTX_ctrl(c.ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(gcm_tag_bytes), mac) == 1;
}

}  // namespace elicit::detail
