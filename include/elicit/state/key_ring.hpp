// The keys sealed request state is sealed and opened with: state_key (a 256-bit secret) and
// key_ring (the keys every instance holds, one of which seals), rotated live in three phases.
// Sealing and opening are in <elicit/state/state.hpp>; reading the ring from a file, in
// <elicit/state/key_file.hpp>. Needs the elicit::state target (OpenSSL's libcrypto).
#pragma once

#include <elicit/detail/crypto.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/detail/secret_strength.hpp>

#include <openssl/crypto.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

namespace elicit {

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

  // The rule for a key id: 1 to 32 of A-Z a-z 0-9 . _ - (it travels in clear in every token, and
  // the key file checks its words with it before it quotes any).
  [[nodiscard]] static constexpr bool valid_id(std::string_view id) noexcept {
    return !id.empty() && id.size() <= max_id_length && std::all_of(id.begin(), id.end(), [](char c) {
      return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
             c == '-';
    });
  }

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
  key_ring& add(std::string_view id, std::span<const unsigned char> secret) {
    if (!valid_id(id))
      throw std::invalid_argument(detail::message("elicit::key_ring: a key id is 1 to 32 of A-Z a-z 0-9 . _ -; got \"",
                                                  id.substr(0, 40), "\""));
    if (const char* weak = detail::weak_secret(secret))
      throw std::invalid_argument(std::string("elicit::key_ring: ") + weak);
    entry added{std::string(id), detail::derive_key(secret, id)};  // outside the lock: HKDF takes a while
    const std::lock_guard turn(changing_);
    if (owned_ != nullptr && owned_->index_of(id) != npos)
      throw std::invalid_argument(detail::message("elicit::key_ring: the key id \"", id, "\" is already in the ring"));
    auto next = std::make_unique<key_set>(owned_ == nullptr ? key_set{} : *owned_);
    next->keys.push_back(std::move(added));
    if (next->sealing == npos) next->sealing = 0;
    publish(std::move(next));
    return *this;
  }
  key_ring& add(std::string_view id, const state_key& secret) { return add(id, secret.bytes()); }

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

}  // namespace elicit
