// Sealed request state (MCP 2026-07-28): a typed value the server hands the client as the
// opaque `requestState` and gets back, unchanged, on the retry.
//
// The spec requires servers to treat requestState as attacker-controlled. elicit seals it with
// AES-256-GCM (OpenSSL): the client can neither read nor alter it, a state sealed for another
// type or with another key does not open, and it expires.
//
//   struct Progress { std::string order_id; int step; };
//   const elicit::state_key key = elicit::state_key::generate();   // keep it across requests
//   std::string token = elicit::seal(Progress{"A-17", 2}, key, std::chrono::minutes(10));
//   elicit::opened<Progress> p = elicit::open<Progress>(token, key);
//   if (p) resume(p->order_id, p->step); else log(p.message());
//
// The state type is an aggregate of the same field types a form has (it travels as the same
// content JSON, through the same reflection and validation), at most ~48 KiB of it.
#pragma once

#include <elicit/decode.hpp>
#include <elicit/detail/enum_reflection.hpp>
#include <elicit/schema.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace elicit {

namespace detail {

inline std::vector<unsigned char> random_bytes(std::size_t n) {
  std::vector<unsigned char> out(n);
  if (RAND_bytes(out.data(), static_cast<int>(n)) != 1) throw std::runtime_error("elicit: OpenSSL RAND_bytes failed");
  return out;
}

// base64url without padding (RFC 4648 section 5), through OpenSSL's base64.
inline std::string base64url_encode(std::span<const unsigned char> bytes) {
  std::string out(4 * ((bytes.size() + 2) / 3) + 1, '\0');
  const int n = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), bytes.data(), static_cast<int>(bytes.size()));
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
  const int n = EVP_DecodeBlock(out.data(), reinterpret_cast<const unsigned char*>(b64.data()), static_cast<int>(b64.size()));
  if (n < 0 || static_cast<std::size_t>(n) < pad) return std::nullopt;
  out.resize(static_cast<std::size_t>(n) - pad);
  if (base64url_encode(out) != text) return std::nullopt;
  return out;
}

struct cipher_context {
  std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)> ctx{EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free};
};

}  // namespace detail

// A fresh elicitation id for URL mode: 128 random bits, as hex.
[[nodiscard]] inline std::string new_elicitation_id() {
  static constexpr char hex[] = "0123456789abcdef";
  std::string id;
  for (unsigned char b : detail::random_bytes(16)) {
    id += hex[b >> 4];
    id += hex[b & 15];
  }
  return id;
}

// The server's secret for sealing state: 256 bits. Generate it once and keep it for as long as
// sealed states should open (every instance of a server behind one address needs the same key).
class state_key {
 public:
  static constexpr std::size_t size = 32;

  [[nodiscard]] static state_key generate() {
    state_key k;
    const auto bytes = detail::random_bytes(size);
    std::memcpy(k.bytes_.data(), bytes.data(), size);
    return k;
  }
  [[nodiscard]] static state_key from_bytes(std::span<const unsigned char> bytes) {
    if (bytes.size() != size) throw std::invalid_argument("elicit::state_key: a key is exactly 32 bytes");
    state_key k;
    std::memcpy(k.bytes_.data(), bytes.data(), size);
    return k;
  }
  // From the text to_text() gave, e.g. read from a secret store or an environment variable.
  [[nodiscard]] static state_key from_text(std::string_view base64url) {
    const auto bytes = detail::base64url_decode(base64url);
    if (!bytes || bytes->size() != size)
      throw std::invalid_argument("elicit::state_key: expected 32 bytes as base64url (43 characters)");
    return from_bytes(*bytes);
  }
  [[nodiscard]] std::string to_text() const { return detail::base64url_encode(bytes_); }
  [[nodiscard]] const unsigned char* data() const noexcept { return bytes_.data(); }

  ~state_key() { OPENSSL_cleanse(bytes_.data(), bytes_.size()); }
  state_key(const state_key&) = default;
  state_key& operator=(const state_key&) = default;

 private:
  state_key() = default;
  std::array<unsigned char, size> bytes_{};
};

// Why a sealed state did not open.
enum class state_error {
  malformed,  // not a token elicit wrote (not base64url, unknown version)
  truncated,  // too short to hold a sealed state
  foreign,    // sealed for another state type (or another version of it)
  tampered,   // altered, or sealed with another key
  expired,    // past its expiry
};

// An opened state: the value, or why it did not open.
template <class State>
class opened {
 public:
  explicit opened(State value) : value_(std::move(value)) {}
  opened(state_error e, std::string message) : error_(e), message_(std::move(message)) {}

  [[nodiscard]] bool has_value() const noexcept { return value_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }
  [[nodiscard]] const State& value() const {
    if (!value_) throw bad_answer_access("elicit: the request state did not open: " + message_);
    return *value_;
  }
  const State& operator*() const { return value(); }
  const State* operator->() const { return &value(); }
  [[nodiscard]] std::optional<state_error> error() const noexcept { return error_; }
  [[nodiscard]] const std::string& message() const noexcept { return message_; }

 private:
  std::optional<State> value_;
  std::optional<state_error> error_;
  std::string message_;
};

namespace detail {

inline constexpr unsigned char state_version = 1;
inline constexpr std::size_t tag_bytes = 8, nonce_bytes = 12, mac_bytes = 16, expiry_bytes = 8;
inline constexpr std::size_t header_bytes = 1 + tag_bytes;  // authenticated, in clear
inline constexpr std::size_t max_state_bytes = 48 * 1024;

// Which type a state was sealed for: its name and its schema, so that a changed struct does
// not open old states as if nothing had changed.
template <class State>
constexpr std::uint64_t state_type_tag() {
  return fnv1a(schema_json<State>, type_id<State>);
}

inline bool aes_gcm(bool encrypt, const state_key& key, std::span<const unsigned char> nonce,
                    std::span<const unsigned char> aad, std::span<const unsigned char> in, unsigned char* out,
                    unsigned char* mac) {
  cipher_context c;
  int n = 0;
  if (!c.ctx) return false;
  if (EVP_CipherInit_ex(c.ctx.get(), EVP_aes_256_gcm(), nullptr, nullptr, nullptr, encrypt ? 1 : 0) != 1) return false;
  if (EVP_CIPHER_CTX_ctrl(c.ctx.get(), EVP_CTRL_GCM_SET_IVLEN, static_cast<int>(nonce.size()), nullptr) != 1) return false;
  if (EVP_CipherInit_ex(c.ctx.get(), nullptr, nullptr, key.data(), nonce.data(), encrypt ? 1 : 0) != 1) return false;
  if (EVP_CipherUpdate(c.ctx.get(), nullptr, &n, aad.data(), static_cast<int>(aad.size())) != 1) return false;
  if (!in.empty() && EVP_CipherUpdate(c.ctx.get(), out, &n, in.data(), static_cast<int>(in.size())) != 1) return false;
  if (!encrypt && EVP_CIPHER_CTX_ctrl(c.ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(mac_bytes), mac) != 1) return false;
  if (EVP_CipherFinal_ex(c.ctx.get(), out + in.size(), &n) != 1) return false;  // fails on a wrong tag
  return !encrypt || EVP_CIPHER_CTX_ctrl(c.ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(mac_bytes), mac) == 1;
}

}  // namespace detail

// Seals `state` into an opaque requestState: base64url of version, type tag, nonce, the
// encrypted {expiry, content} and the GCM tag.
template <class State>
[[nodiscard]] std::string seal(const State& state, const state_key& key,
                               std::chrono::seconds time_to_live = std::chrono::minutes(15),
                               std::chrono::system_clock::time_point now = std::chrono::system_clock::now()) {
  using namespace detail;
  const auto json = to_content(state);
  // A state that would not open again (a bound it breaks, text that is not UTF-8) is refused here.
  if (const decoded<State> check = decode_content<State>(nlohmann::json::parse(json.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)));
      !check)
    throw std::invalid_argument(fmt::format("elicit::seal: the state breaks its own rules: {}", check.violations()));
  const std::string content = json.dump();
  if (content.size() > max_state_bytes)
    throw std::length_error("elicit::seal: the state is " + std::to_string(content.size()) + " bytes of JSON, more than 48 KiB");
  // In seconds, saturated: a time to live of years must not overflow the clock's nanoseconds.
  const std::int64_t now_seconds = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
  const std::int64_t ttl = std::clamp<std::int64_t>(time_to_live.count(), 0, std::int64_t{1} << 40);
  const std::int64_t expiry = now_seconds + ttl;
  std::vector<unsigned char> plain(expiry_bytes + content.size());
  for (std::size_t i = 0; i < expiry_bytes; ++i)
    plain[i] = static_cast<unsigned char>(static_cast<std::uint64_t>(expiry) >> (8 * (expiry_bytes - 1 - i)));
  std::memcpy(plain.data() + expiry_bytes, content.data(), content.size());

  std::vector<unsigned char> token(header_bytes + nonce_bytes + plain.size() + mac_bytes);
  token[0] = state_version;
  constexpr std::uint64_t tag = state_type_tag<State>();
  for (std::size_t i = 0; i < tag_bytes; ++i) token[1 + i] = static_cast<unsigned char>(tag >> (8 * i));
  const auto nonce = random_bytes(nonce_bytes);
  std::memcpy(token.data() + header_bytes, nonce.data(), nonce_bytes);
  unsigned char* cipher = token.data() + header_bytes + nonce_bytes;
  if (!aes_gcm(true, key, nonce, std::span(token.data(), header_bytes), plain, cipher, cipher + plain.size()))
    throw std::runtime_error("elicit::seal: OpenSSL AES-256-GCM failed");
  OPENSSL_cleanse(plain.data(), plain.size());
  return base64url_encode(token);
}

// Opens a requestState that seal<State> wrote with the same key; anything else is an error
// with a reason, never a crash.
template <class State>
[[nodiscard]] opened<State> open(std::string_view request_state, const state_key& key,
                                 std::chrono::system_clock::time_point now = std::chrono::system_clock::now()) {
  using namespace detail;
  if (request_state.size() > 2 * max_state_bytes)
    return {state_error::malformed, "the request state is longer than any state this server seals"};
  const auto token = base64url_decode(request_state);
  if (!token) return {state_error::malformed, "the request state is not base64url text this server wrote"};
  if (token->size() < header_bytes + nonce_bytes + expiry_bytes + mac_bytes)
    return {state_error::truncated, "the request state is too short: it was cut"};
  if ((*token)[0] != state_version) return {state_error::malformed, "the request state has an unknown version"};
  constexpr std::uint64_t tag = state_type_tag<State>();
  for (std::size_t i = 0; i < tag_bytes; ++i)
    if ((*token)[1 + i] != static_cast<unsigned char>(tag >> (8 * i)))
      return {state_error::foreign, "the request state was sealed for another kind of state"};
  const std::size_t cipher_size = token->size() - header_bytes - nonce_bytes - mac_bytes;
  std::vector<unsigned char> plain(cipher_size + 16);
  std::array<unsigned char, mac_bytes> mac{};
  std::memcpy(mac.data(), token->data() + token->size() - mac_bytes, mac_bytes);
  const std::span nonce(token->data() + header_bytes, nonce_bytes);
  const std::span cipher(token->data() + header_bytes + nonce_bytes, cipher_size);
  if (!aes_gcm(false, key, nonce, std::span(token->data(), header_bytes), cipher, plain.data(), mac.data()))
    return {state_error::tampered, "the request state was altered, or sealed with another key"};
  std::uint64_t expiry = 0;
  for (std::size_t i = 0; i < expiry_bytes; ++i) expiry = (expiry << 8) | plain[i];
  const auto now_seconds = std::chrono::duration_cast<std::chrono::seconds>(now.time_since_epoch()).count();
  if (static_cast<std::int64_t>(expiry) < now_seconds) return {state_error::expired, "the request state has expired"};
  const std::string_view content(reinterpret_cast<const char*>(plain.data() + expiry_bytes), cipher_size - expiry_bytes);
  const auto json = dependent_t<State, nlohmann::json>::parse(content, nullptr, false);  // compiled where used
  decoded<State> value = decode_content<State>(json);
  OPENSSL_cleanse(plain.data(), plain.size());
  if (!value) return {state_error::foreign, "the request state does not hold this kind of state"};
  return opened<State>(std::move(value).value());
}

}  // namespace elicit
