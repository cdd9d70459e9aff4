// The format of a sealed requestState (state.hpp): its layout and sizes, the digests that bind
// it to where it was sealed, its times in saturated whole seconds, and the replay question that
// fails closed. Everything here is what seal and open share; the primitives are in crypto.hpp.
#pragma once

#include <elicit/detail/crypto.hpp>
#include <elicit/detail/message.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <string>
#include <string_view>

namespace elicit::detail {

// Asks `guard` whether `token_id` is used for the first time. A guard that throws (its store did
// not answer) leaves why in `why` and counts as no first use: the state does not open (fails
// closed). Throws only std::bad_alloc.
template <class Guard>
bool first_use_or_why(Guard& guard, std::string_view token_id, std::chrono::system_clock::time_point forget_after,
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
inline constexpr std::size_t tag_bytes = 8, nonce_bytes = 12, mac_bytes = gcm_tag_bytes, time_bytes = 8,
                             bind_bytes = 16;
inline constexpr std::size_t claims_bytes = 2 * time_bytes + 4 * bind_bytes;
inline constexpr std::size_t max_state_bytes = std::size_t{48} * 1024;

// The four binding digests, in order: audience, principal, method and target, arguments. Each
// part is hashed under its own label, so that no two bindings share a digest by moving text
// from one part to the next.
// `Binding` is a state_binding (state.hpp): audience, principal, method, target, arguments.
template <class Binding>
std::array<unsigned char, 4 * bind_bytes> binding_digests(const Binding& b) {
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

}  // namespace elicit::detail
