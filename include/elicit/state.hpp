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
#pragma once

#include <elicit/decode.hpp>
#include <elicit/detail/enum_reflection.hpp>
#include <elicit/detail/fnv1a.hpp>
#include <elicit/detail/maybe_value.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/limits.hpp>
#include <elicit/schema.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/kdf.h>
#include <openssl/params.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
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

}  // namespace detail

// A fresh elicitation id for URL mode: 128 random bits, as hex. Throws std::runtime_error when
// OpenSSL has no random bytes to give.
[[nodiscard]] inline std::string new_elicitation_id() { return detail::hex_of(detail::random_bytes(16)); }

namespace detail {

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

// The shortest period of `v`: the least p with v[i] == v[i + p] for every i < size - p. It is the
// size less the longest border (a prefix that is also a suffix), found in O(size) as
// Knuth-Morris-Pratt does.
inline std::size_t shortest_period(std::span<const unsigned char> v) {
  if (v.empty()) return 0;
  std::vector<std::size_t> border(v.size(), 0);
  for (std::size_t i = 1, k = 0; i < v.size(); ++i) {
    while (k > 0 && v[i] != v[k]) k = border[k - 1];
    if (v[i] == v[k]) ++k;
    border[i] = k;
  }
  return v.size() - border.back();
}

// The Shannon entropy of the bytes' histogram, in bits a byte: 0 for one byte repeated, 3 for
// eight bytes equally often, at most 8.
inline double entropy_per_byte(std::span<const unsigned char> v) {
  std::array<std::size_t, 256> count{};
  for (unsigned char b : v) ++count[b];
  const auto n = static_cast<double>(v.size());
  double sum = 0;  // of c log2 c
  for (std::size_t c : count)
    if (c > 1) sum += static_cast<double>(c) * std::log2(static_cast<double>(c));
  return std::log2(n) - sum / n;
}

// Why a secret is too weak to seal with, or nothing. The rule: a secret is refused when
//   - it is shorter than 32 bytes; or when its bytes, or its steps (the differences between
//     neighbouring bytes, modulo 256: one fewer), are
//   - periodic with a period of at most half their length: two or more copies of one block,
//     the last maybe cut (all zero, "01234567" x 4, "Password1" x 4, any block twice; in the
//     steps: runs such as "abcdef...", "02468...", "zyx...", strides that repeat); or
//   - of under 3 bits of entropy a byte (Shannon, of their histogram; 3 is eight values equally
//     often): few distinct bytes, or a few that dominate ("aaaa...ab"; in the steps, a run
//     broken once, "abc...xyz012345").
// 32 random bytes are refused with a probability under 2^-83 (the entropy rules; the periods
// 2^-127): state_key::generate() draws again then, so a generated key always passes.
inline const char* weak_secret(std::span<const unsigned char> secret) {
  if (secret.size() < 32) return "a secret for sealing state must be at least 32 bytes";
  std::vector<unsigned char> steps(secret.size() - 1);
  for (std::size_t i = 0; i + 1 < secret.size(); ++i) steps[i] = static_cast<unsigned char>(secret[i + 1] - secret[i]);
  if (2 * shortest_period(secret) <= secret.size())
    return "the secret is a shorter block repeated (all zero, \"Password1\" x 4...): use state_key::generate()";
  if (2 * shortest_period(steps) <= steps.size())
    return "the secret is a run whose steps repeat (\"abcdef...\", \"02468...\"): use state_key::generate()";
  constexpr double least_bits = 3.0 - 1e-9;  // eight values equally often pass, rounding aside
  if (entropy_per_byte(secret) < least_bits)
    return "the secret has under 3 bits of entropy a byte (too few distinct bytes, or a few that dominate): use "
           "state_key::generate()";
  if (entropy_per_byte(steps) < least_bits)
    return "the secret's steps from byte to byte have under 3 bits of entropy (a run, broken here and there): use "
           "state_key::generate()";
  return nullptr;
}

}  // namespace detail

// A secret from which sealing keys are derived: 256 random bits. Generate it once, keep it in
// a secret store, and give every instance of the server the same one (see key_ring).
class state_key {
 public:
  static constexpr std::size_t size = 32;

  // A key that detail::weak_secret passes (it draws again in the rare case, under 2^-83, that
  // random bytes look weak), so that from_text always reads back its to_text. Throws
  // std::runtime_error when OpenSSL has no random bytes to give.
  [[nodiscard]] static state_key generate() {
    state_key k;
    do {
      auto bytes = detail::random_bytes(size);
      std::memcpy(k.bytes_.data(), bytes.data(), size);
      OPENSSL_cleanse(bytes.data(), bytes.size());
    } while (detail::weak_secret(k.bytes_) != nullptr);
    return k;
  }
  // Throws std::invalid_argument when `bytes` are not 32, or are too weak (detail::weak_secret).
  [[nodiscard]] static state_key from_bytes(std::span<const unsigned char> bytes) {
    if (bytes.size() != size) throw std::invalid_argument("elicit::state_key: a key is exactly 32 bytes");
    if (const char* weak = detail::weak_secret(bytes))
      throw std::invalid_argument(std::string("elicit::state_key: ") + weak);
    state_key k;
    std::memcpy(k.bytes_.data(), bytes.data(), size);
    return k;
  }
  // From the text to_text() gave, e.g. read from a secret store or an environment variable.
  // Throws std::invalid_argument for anything but 32 strong bytes as base64url (43 characters).
  [[nodiscard]] static state_key from_text(std::string_view base64url) {
    const auto bytes = detail::base64url_decode(base64url);
    if (!bytes || bytes->size() != size)
      throw std::invalid_argument("elicit::state_key: expected 32 bytes as base64url (43 characters)");
    return from_bytes(*bytes);
  }
  // The key as base64url without padding, 43 characters: what from_text() reads back.
  [[nodiscard]] std::string to_text() const { return detail::base64url_encode(bytes_); }
  [[nodiscard]] std::span<const unsigned char> bytes() const noexcept { return bytes_; }

  ~state_key() { OPENSSL_cleanse(bytes_.data(), bytes_.size()); }
  state_key(const state_key&) = default;
  state_key& operator=(const state_key&) = default;

 private:
  state_key() = default;
  std::array<unsigned char, size> bytes_{};
};

// The keys a server seals and opens states with. One key seals; every key in the ring opens.
// Each token names its key by id (authenticated, in clear), so opening tries that key only.
//
// Rotation, in three phases, none of which fails a pending state:
//   1. add:    every instance adds the new key (ring.add("2026-12", new_secret)); it opens, it
//              does not seal yet. Wait until every instance has it.
//   2. switch: every instance seals with it (ring.seal_with("2026-12")). Instances not yet
//              switched still open the new tokens, since they hold the key from phase 1.
//   3. retire: once the longest time to live has passed since the switch, every instance
//              removes the old key (ring.retire("2026-11")); no pending state uses it.
//
// Rotation while serving: add, seal_with, retire and replace_with (and assigning a ring, which is
// replace_with) may be called while other threads seal and open with the ring, and every member
// may be called from any number of threads at once (only destroying a ring needs it idle). The
// ring is an immutable set of keys (the keys, and which of them seals), replaced whole by each
// change: seal and open each take one snapshot of it and use only that, so a state sealed with a
// key still in the ring always opens, and once a key was added a seal always finds one that seals.
// Readers (seal, open, contains, sealing_id, find, copying the ring) take no lock and never wait
// for each other: a reader counts itself in, copies the key it needs out of the current set and
// counts itself out (a few dozen instructions; it only starts again if a change swaps the set in
// that instant). A change builds the new set, swaps it in, and waits until no reader is left in
// the old one before it wipes the old keys; changes take turns among themselves.
//
//   elicit::key_ring ring;
//   ring.add("2026-11", elicit::state_key::from_text(std::getenv("STATE_SECRET")));  // the first key seals
class key_ring {
 public:
  static constexpr std::size_t max_id_length = 32;

  // A key of the ring, copied out of it: its id and its 256 bits. Its bytes are wiped when it
  // goes. A copy stays valid whatever the ring does after; it is what seal and open use.
  class key {
   public:
    [[nodiscard]] std::string_view id() const noexcept { return {id_.data(), id_size_}; }
    [[nodiscard]] const std::array<unsigned char, 32>& bytes() const noexcept { return bytes_; }

    key(const key&) = default;
    key& operator=(const key&) = default;
    ~key() { OPENSSL_cleanse(bytes_.data(), bytes_.size()); }

   private:
    friend class key_ring;
    key() = default;
    std::array<char, max_id_length> id_{};
    std::size_t id_size_ = 0;
    std::array<unsigned char, 32> bytes_{};
  };

  // Adds a key derived (HKDF-SHA256) from `secret`, at least 32 bytes and not weak, under `id`
  // (1 to 32 of A-Z a-z 0-9 . _ -). The first key added seals. Throws std::invalid_argument for
  // a weak or short secret, a malformed id, or an id already in the ring; std::runtime_error
  // when OpenSSL fails. The ring is unchanged when it throws.
  key_ring& add(std::string id, std::span<const unsigned char> secret) {
    if (id.empty() || id.size() > max_id_length || !std::all_of(id.begin(), id.end(), [](char c) {
          return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
                 c == '-';
        }))
      throw std::invalid_argument("elicit::key_ring: a key id is 1 to 32 of A-Z a-z 0-9 . _ -; got \"" +
                                  id.substr(0, 40) + "\"");
    if (const char* weak = detail::weak_secret(secret))
      throw std::invalid_argument(std::string("elicit::key_ring: ") + weak);
    entry added{id, detail::derive_key(secret, id)};  // outside the lock: HKDF takes a while
    const std::lock_guard turn(changing_);
    if (owned_ != nullptr && owned_->index_of(id) != npos)
      throw std::invalid_argument("elicit::key_ring: the key id \"" + id + "\" is already in the ring");
    auto next = std::make_unique<key_set>(owned_ == nullptr ? key_set{} : *owned_);
    next->keys.push_back(std::move(added));
    if (next->sealing == npos) next->sealing = 0;
    publish(std::move(next));
    return *this;
  }
  key_ring& add(std::string id, const state_key& secret) { return add(std::move(id), secret.bytes()); }

  // Seals with the key `id` from now on. Throws std::invalid_argument when it is not in the ring.
  key_ring& seal_with(std::string_view id) {
    const std::lock_guard turn(changing_);
    const std::size_t at = owned_ == nullptr ? npos : owned_->index_of(id);
    if (at == npos) throw std::invalid_argument(detail::message("elicit::key_ring: no key \"", id, "\" to seal with"));
    if (at == owned_->sealing) return *this;
    auto next = std::make_unique<key_set>(*owned_);
    next->sealing = at;
    publish(std::move(next));
    return *this;
  }
  // Removes the key `id`: states sealed with it no longer open, and its bytes are wiped once no
  // seal or open still copies from the set that held it. Throws std::invalid_argument when it
  // is the key that seals (switch first) or is not in the ring.
  key_ring& retire(std::string_view id) {
    const std::lock_guard turn(changing_);
    const std::size_t at = owned_ == nullptr ? npos : owned_->index_of(id);
    if (at != npos && at == owned_->sealing)
      throw std::invalid_argument(
          detail::message("elicit::key_ring: \"", id, "\" still seals; seal_with another key first"));
    if (at == npos) throw std::invalid_argument(detail::message("elicit::key_ring: no key \"", id, "\" to retire"));
    auto next = std::make_unique<key_set>(*owned_);
    next->keys.erase(next->keys.begin() + static_cast<std::ptrdiff_t>(at));
    if (next->sealing > at) --next->sealing;
    publish(std::move(next));
    return *this;
  }

  [[nodiscard]] bool contains(std::string_view id) const noexcept {
    return read([&](const key_set* set) { return set != nullptr && set->index_of(id) != npos; });
  }
  // The id of the key that seals; empty while the ring has no key. Throws only std::bad_alloc.
  [[nodiscard]] std::string sealing_id() const {
    const auto sealing = sealing_key();
    return sealing ? std::string(sealing->id()) : std::string();
  }
  // A copy of the key `id`, or nothing. For open.
  [[nodiscard]] std::optional<key> find(std::string_view id) const noexcept {
    return read([&](const key_set* set) { return set == nullptr ? std::nullopt : copy_of(*set, set->index_of(id)); });
  }
  // A copy of the key that seals, or nothing while the ring has no key: its id and its bytes
  // from the same snapshot. For seal.
  [[nodiscard]] std::optional<key> sealing_key() const noexcept {
    return read([&](const key_set* set) { return set == nullptr ? std::nullopt : copy_of(*set, set->sealing); });
  }

  key_ring() = default;
  // A copy of the ring as it is at one instant, safe while `other` rotates. Throws only
  // std::bad_alloc.
  key_ring(const key_ring& other) : owned_(other.snapshot()) { current_.store(owned_.get()); }
  // Makes this ring a copy of `other` as it is at one instant (`other` may rotate meanwhile).
  // Throws only std::bad_alloc, and leaves the ring unchanged then.
  key_ring& operator=(const key_ring& other) { return replace_with(other); }
  // Makes this ring hold the keys of `other` as it is at one instant, sealing with its sealing
  // key, in one swap: each seal and open sees the old keys or the new ones, never a mix, so it
  // may run while other threads seal and open with this ring (a reload of the key file,
  // key_file.hpp). Throws only std::bad_alloc, and leaves the ring unchanged then.
  key_ring& replace_with(const key_ring& other) {
    if (this == &other) return *this;
    auto copy = other.snapshot();
    const std::lock_guard turn(changing_);
    publish(std::move(copy));
    return *this;
  }
  ~key_ring() = default;  // the set's destructor wipes the keys

 private:
  static constexpr std::size_t npos = static_cast<std::size_t>(-1);

  struct entry {
    std::string id;
    std::array<unsigned char, 32> bytes;
  };
  // One version of the ring. Never changed once published: a change makes the next one.
  struct key_set {
    std::vector<entry> keys;
    std::size_t sealing = npos;  // index in keys of the key that seals

    [[nodiscard]] std::size_t index_of(std::string_view id) const noexcept {
      for (std::size_t i = 0; i < keys.size(); ++i)
        if (keys[i].id == id) return i;
      return npos;
    }
    key_set() = default;
    key_set(const key_set&) = default;
    key_set& operator=(const key_set&) = delete;
    ~key_set() {
      for (entry& e : keys) OPENSSL_cleanse(e.bytes.data(), e.bytes.size());
    }
  };

  static std::optional<key> copy_of(const key_set& set, std::size_t at) noexcept {
    if (at >= set.keys.size()) return std::nullopt;
    key k;
    const entry& e = set.keys[at];
    std::copy(e.id.begin(), e.id.end(), k.id_.begin());  // at most max_id_length, checked by add
    k.id_size_ = e.id.size();
    k.bytes_ = e.bytes;
    return k;
  }

  // Runs `f` on the current set (nullptr while the ring has no key), counted in as a reader of
  // it so that no change frees it meanwhile. Readers count themselves in the counter of the
  // current epoch, then check that the epoch did not move: a change (publish) first swaps the
  // set, then moves the epoch, then waits for the readers of the epoch before to count out. A
  // reader that saw the new epoch sees the new set; one that counted in before the epoch moved
  // is waited for. All four steps are sequentially consistent: the reader's count and the
  // change's epoch each come before the other's look at them in one order, never both after.
  template <class F>
  std::invoke_result_t<F&, const key_set*> read(F&& f) const {
    for (;;) {
      const std::uint64_t epoch = epoch_.load();
      std::atomic<std::uint64_t>& readers = readers_[epoch & 1];
      readers.fetch_add(1);
      if (epoch_.load() == epoch) {
        struct count_out {
          std::atomic<std::uint64_t>& readers;
          ~count_out() { readers.fetch_sub(1, std::memory_order_release); }
        } out{readers};
        return f(current_.load());
      }
      readers.fetch_sub(1, std::memory_order_release);  // a change came in between: again, in its epoch
    }
  }

  // A copy of the current set, or nullptr while the ring has no key.
  [[nodiscard]] std::unique_ptr<key_set> snapshot() const {
    return read([](const key_set* set) { return set == nullptr ? nullptr : std::make_unique<key_set>(*set); });
  }

  // Swaps `next` in and frees the set before once no reader is left in it. With changing_ held;
  // changes are rare and a reader stays a few dozen instructions, so the wait yields.
  void publish(std::unique_ptr<key_set> next) noexcept {
    current_.store(next.get());
    const std::uint64_t before = epoch_.fetch_add(1);
    while (readers_[before & 1].load() != 0) std::this_thread::yield();
    owned_ = std::move(next);
  }

  std::mutex changing_;                           // held by add, seal_with, retire and assignment: one change at a time
  std::unique_ptr<key_set> owned_;                // the current set, owned; read by changes only, under changing_
  std::atomic<const key_set*> current_{nullptr};  // the same set, for readers
  std::atomic<std::uint64_t> epoch_{0};           // moved on by each change, after the swap
  mutable std::array<std::atomic<std::uint64_t>, 2> readers_{};  // readers in, by the epoch's parity
};

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
  [[nodiscard]] std::optional<state_error> error() const noexcept { return error_; }
  // Why, in words, for the server's log; never for the client.
  [[nodiscard]] const std::string& message() const noexcept { return message_; }

 private:
  detail::maybe_value<State> value_;
  std::optional<state_error> error_;
  std::string message_;
};

// What a replay_guard throws when its store cannot answer (down, unreachable, timed out, out of
// memory): it cannot tell a first use from a replay, so open() refuses the state as
// replay_unavailable (fails closed) instead of opening it.
class replay_store_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Where an application keeps the states it has opened, so that each opens once. open() asks
// first_use() last, after every other check passed, with an id unique to the token.
class replay_guard {
 public:
  virtual ~replay_guard() = default;
  // True the first time `token_id` is seen; false after. The id need not be kept past `forget_after`,
  // the first instant at which the state no longer opens (time_point::max() for a state that opens
  // to the end of the clock: keep it for good). Throws replay_store_error when the store cannot
  // answer; open() refuses the state then (replay_unavailable), as it does for any other
  // exception but std::bad_alloc, which it passes on.
  virtual bool first_use(std::string_view token_id, std::chrono::system_clock::time_point forget_after,
                         std::chrono::system_clock::time_point now) = 0;
};

// A replay_guard in memory, for one process, thread-safe, holding at most `capacity` ids. Ids
// are forgotten once their state has expired; when it is full of live ids, it refuses new
// states (fails closed) rather than forget one that could then be replayed. Instances behind a
// load balancer need a shared store instead: redis_replay_guard (<elicit/redis.hpp>), or the
// application's own.
class memory_replay_guard final : public replay_guard {
 public:
  explicit memory_replay_guard(std::size_t capacity = 100'000) : capacity_(capacity) {}

  bool first_use(std::string_view token_id, std::chrono::system_clock::time_point forget_after,
                 std::chrono::system_clock::time_point now) override {
    const std::lock_guard lock(mutex_);
    while (!by_expiry_.empty() && by_expiry_.begin()->first < now) {
      seen_.erase(by_expiry_.begin()->second);
      by_expiry_.erase(by_expiry_.begin());
    }
    if (seen_.contains(std::string(token_id)) || seen_.size() >= capacity_) return false;
    const auto inserted = seen_.emplace(token_id).first;
    by_expiry_.emplace(forget_after, *inserted);
    return true;
  }
  [[nodiscard]] std::size_t size() const {
    const std::lock_guard lock(mutex_);
    return seen_.size();
  }

 private:
  std::size_t capacity_;
  mutable std::mutex mutex_;
  std::set<std::string> seen_;
  std::multimap<std::chrono::system_clock::time_point, std::string> by_expiry_;
};

struct open_options {
  // Between the instances that seal and open: any value, a negative one is none, and up to
  // seconds::max() it widens both ends of a state's time (saturated, up to all of time).
  std::chrono::seconds clock_skew = std::chrono::seconds(30);
  replay_guard* replay = nullptr;  // set: each state opens once
  std::chrono::system_clock::time_point now = std::chrono::system_clock::now();
};

namespace detail {

// Asks `guard` whether `token_id` is used for the first time. A guard that throws (its store did
// not answer) leaves why in `why` and counts as no first use: the state does not open (fails
// closed). Throws only std::bad_alloc.
inline bool first_use_or_why(replay_guard& guard, std::string_view token_id,
                             std::chrono::system_clock::time_point forget_after,
                             std::chrono::system_clock::time_point now, std::string& why) {
  try {
    return guard.first_use(token_id, forget_after, now);
  } catch (const std::bad_alloc&) {
    throw;
  } catch (const std::exception& e) {
    why = message("the replay store did not answer, so the request state is refused: ", e.what());
  } catch (...) {
    why = "the replay store did not answer (it threw), so the request state is refused";
  }
  return false;
}

// Format 2: base64url of
//   version (1) | type tag (8) | key id length (1) | key id | nonce (12) | ciphertext | GCM tag (16)
// with everything before the nonce authenticated in clear (the associated data), and in the
// ciphertext: issued-at (8) | expiry (8) | four binding digests (16 each) | the state's JSON.
inline constexpr unsigned char state_version = 2;
inline constexpr std::size_t tag_bytes = 8, nonce_bytes = 12, mac_bytes = 16, time_bytes = 8, bind_bytes = 16;
inline constexpr std::size_t claims_bytes = 2 * time_bytes + 4 * bind_bytes;
inline constexpr std::size_t max_state_bytes = std::size_t{48} * 1024;

// Which type a state was sealed for: its name and its description, so that a changed struct
// does not open old states as if nothing had changed.
template <class State>
constexpr std::uint64_t state_type_tag() {
  return fnv1a(checked_schema<State>(), type_id<State>);
}

// The four binding digests, in order: audience, principal, method and target, arguments. Each
// part is hashed under its own label, so that no two bindings share a digest by moving text
// from one part to the next.
inline std::array<unsigned char, 4 * bind_bytes> binding_digests(const state_binding& b) {
  std::array<unsigned char, 4 * bind_bytes> out{};
  const std::string target = b.method + '\0' + b.target;
  const std::string_view parts[] = {b.audience, b.principal, target, b.arguments};
  const std::string_view labels[] = {"audience", "principal", "target", "arguments"};
  for (std::size_t i = 0; i < 4; ++i) {
    const auto h = sha256(std::string(labels[i]) + '\0', parts[i]);
    std::memcpy(out.data() + i * bind_bytes, h.data(), bind_bytes);
  }
  return out;
}

inline void put_u64(unsigned char* out, std::uint64_t v) {
  for (std::size_t i = 0; i < 8; ++i) out[i] = static_cast<unsigned char>(v >> (8 * (7 - i)));
}
inline std::uint64_t get_u64(const unsigned char* in) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < 8; ++i) v = (v << 8) | in[i];
  return v;
}

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
  if (!encrypt && EVP_CIPHER_CTX_ctrl(c.ctx.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(mac_bytes), mac) != 1)
    return false;
  if (EVP_CipherFinal_ex(c.ctx.get(), out + in.size(), &n) != 1) return false;  // fails on a wrong tag
  return !encrypt || EVP_CIPHER_CTX_ctrl(c.ctx.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(mac_bytes), mac) == 1;
}

// Times travel in whole seconds since the epoch, rounded down (before the epoch too): a state
// opens while the second `now` falls in is not past its expiry (plus the skew). The clock's
// nanoseconds end in 2262 and int64 seconds much later; every sum of times saturates at the end
// of int64 seconds instead of overflowing, so that a life of centuries, or seconds::max(), lasts
// to the end of time as the clock counts it and never wraps into the past.
inline std::int64_t seconds_of(std::chrono::system_clock::time_point t) noexcept {
  return std::chrono::floor<std::chrono::seconds>(t.time_since_epoch()).count();
}

inline constexpr std::int64_t saturating_add(std::int64_t a, std::int64_t b) noexcept {
  constexpr std::int64_t top = std::numeric_limits<std::int64_t>::max(),
                         bottom = std::numeric_limits<std::int64_t>::min();
  if (b > 0 && a > top - b) return top;
  if (b < 0 && a < bottom - b) return bottom;
  return a + b;
}

// The clock's time at the start of second `s`, or the clock's end (its start) when `s` is past
// it (before it).
inline std::chrono::system_clock::time_point time_at(std::int64_t s) noexcept {
  using time_point = std::chrono::system_clock::time_point;
  // Cut toward zero: the last whole second the clock holds, at either end.
  constexpr std::int64_t last =
      std::chrono::duration_cast<std::chrono::seconds>(time_point::max().time_since_epoch()).count();
  constexpr std::int64_t first =
      std::chrono::duration_cast<std::chrono::seconds>(time_point::min().time_since_epoch()).count();
  if (s > last) return time_point::max();
  if (s < first) return time_point::min();
  return time_point(std::chrono::seconds(s));
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
