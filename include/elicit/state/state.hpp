// Sealed request state (MCP 2026-07-28): a typed value the server hands the client as the
// opaque `requestState` and gets back, unchanged, on the retry.
//
// The spec requires servers to treat requestState as attacker-controlled. elicit seals it with
// AES-256-GCM (OpenSSL) under keys derived with HKDF from a ring of secrets: the client can
// neither read nor alter it, and it opens only for the state type, server (audience), caller
// (principal), method and target, and arguments it was sealed for, within its time, and, with
// a replay_guard, once. docs/security.md has the threat model.
//
//   struct Progress { std::string order_id; int step; };
//   elicit::key_ring ring;                                            // shared by every instance
//   ring.add("k1", elicit::state_key::from_text(secret_from_store));
//   const elicit::state_binding here{"shipping", caller, "tools/call", "book", elicit::digest_of(args)};
//   std::string token = elicit::seal(Progress{"A-17", 2}, ring, here, std::chrono::minutes(10));
//   elicit::opened<Progress> p = elicit::open<Progress>(token, ring, here);
//   if (p) resume(p->order_id, p->step);
//   else { log(p.message()); return elicit::invalid_state_error(id); }   // one error outward
//
// The state type is an aggregate of the same field types a form has (it travels as the same
// content JSON, through the same reflection and validation), at most ~48 KiB of it.
//
// One idea a header: this one binds, seals and opens; the keys are in <elicit/state/key_ring.hpp>, the
// replay guards in <elicit/state/replay_guard.hpp>, the OpenSSL primitives in detail/crypto.hpp. This
// header includes them all, so that including it alone is enough.
#pragma once

#include <elicit/answer/decode.hpp>
#include <elicit/answer/print.hpp>
#include <elicit/detail/crypto.hpp>
#include <elicit/detail/dependent.hpp>
#include <elicit/detail/enum_reflection.hpp>
#include <elicit/detail/fnv1a.hpp>
#include <elicit/detail/maybe_value.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/detail/state_token.hpp>
#include <elicit/form/limits.hpp>
#include <elicit/form/schema.hpp>
#include <elicit/state/key_ring.hpp>
#include <elicit/state/replay_guard.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <openssl/crypto.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elicit {

// A fresh elicitation id for URL mode: 128 random bits, as hex. Throws std::runtime_error when
// OpenSSL has no random bytes to give.
[[nodiscard]] inline std::string new_elicitation_id() { return detail::hex_of(detail::random_bytes(16)); }

// What a state is sealed for, checked when it is opened: a state opens only where every part is
// the same. The spec (2026-07-28, multi round-trip) says to bind requestState to the principal
// and the originating request; elicit also binds the server (audience) and the state's type.
//
//   elicit::state_binding for_this{.audience = "shipping", .principal = caller_id,
//                                  .method = "tools/call", .target = "book_shipment",
//                                  .arguments = elicit::digest_of(salient_arguments)};
struct state_binding {
  std::string audience;   // the server's name: states sealed by another server do not open
  std::string principal;  // whoever the application names its caller by (user, client, tenant)
  std::string method;     // the request's method: "tools/call", "prompts/get", "resources/read"
  std::string target;     // the tool or prompt name, or the resource URI
  std::string arguments;  // the arguments the application calls salient: digest_of(...) of them
};

// A digest (SHA-256, hex) of a JSON value, for state_binding::arguments: the same for the same
// value however its keys were ordered as text. Throws std::invalid_argument for a value beyond
// `limits` (it would be walked by recursion otherwise).
[[nodiscard]] inline std::string digest_of(const nlohmann::json& salient, const json_limits& limits = {}) {
  if (const auto too_big = exceeds(salient, limits))
    throw std::invalid_argument("elicit::digest_of: " + too_big->message);
  const auto hash = detail::sha256(salient.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
  return detail::hex_of(hash);
}

// Why a sealed state did not open: for the server's log only. The client is told the same
// thing every time (invalid_state_error, in protocol.hpp).
enum class state_error {
  malformed,           // not a token elicit wrote (not base64url, unknown version, a bad key id)
  truncated,           // too short to hold a sealed state
  outdated,            // written by an older elicit (format version 1): refused, never misread
  unknown_key,         // sealed with a key not in the ring (retired, or never added)
  foreign,             // sealed for another state type (or another version of it)
  tampered,            // altered, or sealed with another key under the same id
  not_yet_valid,       // issued later than now, by more than the clock skew allowed
  expired,             // past its expiry, by more than the clock skew allowed
  wrong_audience,      // sealed by another server
  wrong_principal,     // sealed for another caller
  wrong_target,        // sealed for another method, tool, prompt or resource
  wrong_arguments,     // sealed for other arguments
  replayed,            // opened before, and the application wants each state used once
  replay_unavailable,  // the replay store did not answer (down, timed out): refused, fails closed
};
template <>
inline constexpr bool detail::printable_enum<state_error> = true;  // print.hpp: printed by name

// An opened state: the value, or why it did not open.
template <class State>
class opened {
 public:
  explicit opened(State value) : value_(std::move(value)) {}
  opened(state_error e, std::string message) : error_(e), message_(std::move(message)) {}

  [[nodiscard]] bool has_value() const noexcept { return value_.has_value(); }
  explicit operator bool() const noexcept { return has_value(); }
  // Throws bad_answer_access when the state did not open.
  [[nodiscard]] const State& value() const {
    return value_.template get<bad_answer_access>(
        [this] { return "elicit: the request state did not open: " + message_; });
  }
  const State& operator*() const { return value(); }
  const State* operator->() const { return &value(); }
  // Why it did not open, or empty when it did (result.hpp).
  [[nodiscard]] std::optional<state_error> error() const noexcept { return error_; }
  // Why, in words, for the server's log; never for the client.
  [[nodiscard]] const std::string& message() const noexcept { return message_; }

 private:
  detail::maybe_value<State> value_;
  std::optional<state_error> error_;
  std::string message_;
};

struct open_options {
  // Between the instances that seal and open: any value, a negative one is none, and up to
  // seconds::max() it widens both ends of a state's time (saturated, up to all of time).
  std::chrono::seconds clock_skew = std::chrono::seconds(30);
  replay_guard* replay = nullptr;  // set: each state opens once
  std::chrono::system_clock::time_point now = std::chrono::system_clock::now();
};

namespace detail {

// Which type a state was sealed for: its name and its description, so that a changed struct
// does not open old states as if nothing had changed.
template <class State>
constexpr std::uint64_t state_type_tag() {
  return fnv1a(checked_schema<State>(), type_id<State>);
}

}  // namespace detail

// Seals `state` into an opaque requestState, for the place `binding` names, with the ring's
// sealing key, valid for `time_to_live` from `now` (in whole seconds; a time to live past the
// end of the clock lasts to its end, a negative one is none: the state opens within the skew).
// Throws std::invalid_argument for a state that breaks its own rules or holds text that is not
// UTF-8 (it would not open again), std::length_error for one of more than 48 KiB of JSON,
// std::logic_error for a ring with no key, std::runtime_error when OpenSSL fails, std::bad_alloc;
// nothing else.
template <class State>
[[nodiscard]] std::string seal(const State& state, const key_ring& ring, const state_binding& binding,
                               std::chrono::seconds time_to_live = std::chrono::minutes(15),
                               std::chrono::system_clock::time_point now = std::chrono::system_clock::now()) {
  using namespace detail;
  static_assert(describable<State>, "elicit: this state type does not compile into a description");
  const std::optional<key_ring::key> key = ring.sealing_key();  // the id and the key of one snapshot
  if (!key) throw std::logic_error("elicit::seal: the key ring has no key; add one first");
  const auto json = to_content(state);
  // A state that would not open again (text that is not UTF-8, a bound it breaks) is refused
  // here, as std::invalid_argument: the JSON library's own errors never pass through.
  std::string content;
  try {
    content = json.dump();
  } catch (const nlohmann::json::type_error& e) {
    throw std::invalid_argument(message("elicit::seal: the state holds text that is not UTF-8 (", e.what(), ")"));
  }
  // Named through State: the parser is compiled where used. Not throwing: it reads what dump wrote.
  const auto reread = dependent_t<State, nlohmann::json>::parse(content, nullptr, false);
  if (reread.is_discarded()) throw std::invalid_argument("elicit::seal: the state's JSON does not read back");
  if (const decoded<State> check = decode_content<State>(reread); !check)
    throw std::invalid_argument(fmt::format("elicit::seal: the state breaks its own rules: {}", check.violations()));
  if (content.size() > max_state_bytes)
    throw std::length_error(message("elicit::seal: the state is ", content.size(), " bytes of JSON, more than 48 KiB"));
  // In seconds, saturated (detail::seconds_of): no time to live overflows, a negative one is none.
  const std::int64_t issued = seconds_of(now);
  const std::int64_t expiry = saturating_add(issued, std::max<std::int64_t>(time_to_live.count(), 0));
  std::vector<unsigned char> plain(claims_bytes + content.size());
  put_u64(plain.data(), static_cast<std::uint64_t>(issued));
  put_u64(plain.data() + time_bytes, static_cast<std::uint64_t>(expiry));
  const auto digests = binding_digests(binding);
  std::memcpy(plain.data() + 2 * time_bytes, digests.data(), digests.size());
  std::memcpy(plain.data() + claims_bytes, content.data(), content.size());

  const std::string_view id = key->id();
  const std::size_t header = 1 + tag_bytes + 1 + id.size();
  std::vector<unsigned char> token(header + nonce_bytes + plain.size() + mac_bytes);
  token[0] = state_version;
  constexpr std::uint64_t tag = state_type_tag<State>();
  put_u64(token.data() + 1, tag);
  token[1 + tag_bytes] = static_cast<unsigned char>(id.size());
  std::memcpy(token.data() + 2 + tag_bytes, id.data(), id.size());
  const auto nonce = random_bytes(nonce_bytes);
  std::memcpy(token.data() + header, nonce.data(), nonce_bytes);
  unsigned char* cipher = token.data() + header + nonce_bytes;
  if (!aes_gcm(true, key->bytes(), nonce, std::span(token.data(), header), plain, cipher, cipher + plain.size()))
    throw std::runtime_error("elicit::seal: OpenSSL AES-256-GCM failed");
  OPENSSL_cleanse(plain.data(), plain.size());
  return base64url_encode(token);
}

// Opens a requestState that seal<State> wrote, with a key of `ring`, for exactly `binding`,
// within its time (give or take options.clock_skew), and once only when options.replay is set.
// Anything else is an error with a reason for the log (never for the client: answer with
// invalid_state_error), never a crash. Throws only std::bad_alloc.
template <class State>
[[nodiscard]] opened<State> open(std::string_view request_state, const key_ring& ring, const state_binding& binding,
                                 const open_options& options = {}) {
  using namespace detail;
  static_assert(describable<State>, "elicit: this state type does not compile into a description");
  if (request_state.size() > 2 * max_state_bytes)
    return {state_error::malformed, "the request state is longer than any state this server seals"};
  const auto token = base64url_decode(request_state);
  if (!token) return {state_error::malformed, "the request state is not base64url text this server wrote"};
  if (token->empty()) return {state_error::truncated, "the request state is empty"};
  if ((*token)[0] == 1)
    return {state_error::outdated, "the request state is in format 1, from an older elicit; it is no longer opened"};
  if ((*token)[0] != state_version) return {state_error::malformed, "the request state has an unknown format version"};
  if (token->size() < 2 + tag_bytes) return {state_error::truncated, "the request state is too short: it was cut"};
  const std::size_t id_size = (*token)[1 + tag_bytes];
  if (id_size == 0 || id_size > key_ring::max_id_length)
    return {state_error::malformed, "the request state names no valid key id"};
  const std::size_t header = 2 + tag_bytes + id_size;
  if (token->size() < header + nonce_bytes + claims_bytes + mac_bytes)
    return {state_error::truncated, "the request state is too short: it was cut"};
  const std::string_view id(reinterpret_cast<const char*>(token->data() + 2 + tag_bytes), id_size);
  const std::optional<key_ring::key> key = ring.find(id);
  if (!key) return {state_error::unknown_key, "the request state was sealed with a key not in the ring (retired?)"};
  if (get_u64(token->data() + 1) != state_type_tag<State>())
    return {state_error::foreign, "the request state was sealed for another kind of state"};
  const std::size_t cipher_size = token->size() - header - nonce_bytes - mac_bytes;
  std::vector<unsigned char> plain(cipher_size + 16);
  std::array<unsigned char, mac_bytes> mac{};
  std::memcpy(mac.data(), token->data() + token->size() - mac_bytes, mac_bytes);
  const std::span nonce(token->data() + header, nonce_bytes);
  const std::span cipher(token->data() + header + nonce_bytes, cipher_size);
  if (!aes_gcm(false, key->bytes(), nonce, std::span(token->data(), header), cipher, plain.data(), mac.data()))
    return {state_error::tampered, "the request state was altered, or sealed with another key under the same id"};
  struct cleanse {
    std::vector<unsigned char>& p;
    ~cleanse() { OPENSSL_cleanse(p.data(), p.size()); }
  } cleanse_plain{plain};
  const auto issued = static_cast<std::int64_t>(get_u64(plain.data()));
  const auto expiry = static_cast<std::int64_t>(get_u64(plain.data() + time_bytes));
  // Saturated (detail::seconds_of): any skew up to seconds::max() widens both ends, up to all of time.
  const std::int64_t now = seconds_of(options.now), skew = std::max<std::int64_t>(options.clock_skew.count(), 0);
  const std::int64_t last_second = saturating_add(expiry, skew);
  if (issued > saturating_add(now, skew))
    return {state_error::not_yet_valid, "the request state was issued in the future (clock skew?)"};
  if (last_second < now) return {state_error::expired, "the request state has expired"};
  const auto want = binding_digests(binding);
  const unsigned char* got = plain.data() + 2 * time_bytes;
  static constexpr std::pair<state_error, const char*> mismatches[] = {
      {state_error::wrong_audience, "the request state was sealed by another server (audience)"},
      {state_error::wrong_principal, "the request state was sealed for another caller (principal)"},
      {state_error::wrong_target, "the request state was sealed for another method or target"},
      {state_error::wrong_arguments, "the request state was sealed for other arguments"}};
  for (std::size_t i = 0; i < 4; ++i)
    if (CRYPTO_memcmp(got + i * bind_bytes, want.data() + i * bind_bytes, bind_bytes) != 0)
      return {mismatches[i].first, mismatches[i].second};
  const std::string_view content(reinterpret_cast<const char*>(plain.data() + claims_bytes),
                                 cipher_size - claims_bytes);
  const auto json = dependent_t<State, nlohmann::json>::parse(content, nullptr, false);  // compiled where used
  decoded<State> value = decode_content<State>(json);
  if (!value) return {state_error::foreign, "the request state does not hold this kind of state"};
  if (options.replay != nullptr) {
    const std::string token_id = base64url_encode(nonce);
    // The first instant it no longer opens: the end of its last second, or the end of the clock.
    const auto forget_after = time_at(saturating_add(last_second, 1));
    std::string why;  // set when the store did not answer
    if (!first_use_or_why(*options.replay, token_id, forget_after, options.now, why)) {
      if (why.empty())
        return {state_error::replayed, "the request state was opened before (or the replay store is full)"};
      return {state_error::replay_unavailable, std::move(why)};
    }
  }
  return opened<State>(std::move(value).value());
}

}  // namespace elicit
