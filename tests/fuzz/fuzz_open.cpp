// libFuzzer target: open<State>(requestState), under AddressSanitizer and
// UndefinedBehaviorSanitizer. The first byte chooses how the rest is read:
//
//   0  the token itself, as a client could send anything;
//   1  a script of changes to one of a few tokens sealed at start-up (a fixed ring, bindings
//      and time): which token, a shift of the clock, whether to guard replays, whether to change
//      the text or the bytes under it, then up to 16 changes (flip a bit, cut, append, insert,
//      erase, set a byte, put another state type's tag, name another key);
//   2  which state type and binding, then the content JSON of a state: decoded, and when it
//      is a valid state, sealed and opened.
//
// Every token is opened as each of three state types, for each of three bindings, with the
// ring that sealed and with a ring whose keys differ. Never a crash, a hang or a sanitizer
// report, and no exception but std::bad_alloc. A token opens only when it is, character for
// character, a token sealed here, as its own state type, for the binding it was sealed for,
// with the ring that sealed it, within its time; it then holds the value sealed, which survives
// to_content. An unchanged token opens whenever all of that holds, and with a replay guard
// only once. The tokens differ from run to run (each seal draws a fresh nonce), so a failure
// prints the token it opened.
#include "../unit/support/mixed_secret.hpp"
#include "fuzz_support.hpp"

#include <elicit/state/state.hpp>

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace {

using fuzz::check;
using fuzz::fail;
using namespace std::chrono_literals;

// The state types: a state of its own, and two of the sample forms.
struct Progress {
  std::string order_id;
  int step;
  std::vector<shipping::Country> countries;
};
struct Cart {
  std::optional<std::string> coupon;
  double total;
  std::chrono::year_month_day day;
  elicit::field<std::int64_t, elicit::range<-1000, 1'000'000>> cents;
  bool gift;
};
using Address = shipping::DeliveryAddress;
constexpr std::size_t type_count = 3;

const elicit::state_binding bindings[] = {
    {"shipping", "alice", "tools/call", "book", "3f2a"},
    {"shipping", "bob", "tools/call", "book", "3f2a"},
    {"shipping", "alice", "tools/cal", "lbook", "3f2a"},  // the same text moved from method to target
};
constexpr std::size_t binding_count = std::size(bindings);

const auto sealed_at = std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000));
constexpr auto time_to_live = 10min;
constexpr std::chrono::seconds skew = 30s;

std::array<unsigned char, 32> secret(unsigned char seed) { return test_support::mixed_secret(seed); }

// The ring that seals ("k1", with "k2" beside it), and one with other secrets under the same ids.
const elicit::key_ring& ring() {
  static const elicit::key_ring r = [] {
    elicit::key_ring k;
    k.add("k1", secret(1)).add("k2", secret(2));
    return k;
  }();
  return r;
}
const elicit::key_ring& other_ring() {
  static const elicit::key_ring r = [] {
    elicit::key_ring k;
    k.add("k1", secret(3)).add("k2", secret(4));
    return k;
  }();
  return r;
}

// A token sealed here, and what it must open to.
struct sealed {
  std::string token;
  std::size_t type;
  std::size_t binding;
  nlohmann::ordered_json content;
  std::chrono::seconds ttl = time_to_live;
};

template <class State>
sealed seal(const State& state, std::size_t type, std::size_t binding, std::chrono::seconds ttl = time_to_live) {
  return {elicit::seal(state, ring(), bindings[binding], ttl, sealed_at), type, binding, elicit::to_content(state),
          ttl};
}

const std::vector<sealed>& tokens() {
  static const std::vector<sealed> t = [] {
    using shipping::Country;
    std::vector<sealed> v;
    v.push_back(seal(Progress{"A-17", 2, {Country::GB, Country::FR}}, 0, 0));
    v.push_back(seal(Progress{"A-17", 2, {Country::GB, Country::FR}}, 0, 1));
    v.push_back(seal(Progress{"", -2147483647 - 1, {}}, 0, 2, 0s));
    v.push_back(
        seal(Progress{std::string(3000, 'x') + "\xc3\xa9\xf0\x9f\x98\x80", 7, std::vector(200, Country::NL)}, 0, 0));
    v.push_back(
        seal(Cart{"SPRING", 12.5, std::chrono::year_month_day{std::chrono::year{2024} / 2 / 29}, {999}, true}, 1, 0));
    v.push_back(seal(
        Cart{std::nullopt, -0.0, std::chrono::year_month_day{std::chrono::year{1970} / 1 / 1}, {-1000}, false}, 1, 2));
    v.push_back(seal(Address{{"1 High St"}, {"London"}, {"SW1A 1AA"}, {Country::GB}}, 2, 1));
    return v;
  }();
  return t;
}

template <class State>
constexpr std::uint64_t tag_of() {
  return elicit::detail::state_type_tag<State>();
}
constexpr std::array<std::uint64_t, type_count> tags{tag_of<Progress>(), tag_of<Cart>(), tag_of<Address>()};

// How one opening went.
struct attempt {
  bool opened = false;
  std::optional<elicit::state_error> error;
};

template <class State>
attempt open_as(std::size_t type, std::string_view token, const elicit::key_ring& keys, std::size_t binding,
                const elicit::open_options& options, const sealed* origin) {
  elicit::opened<State> o = elicit::open<State>(token, keys, bindings[binding], options);
  if (!o) {
    check(o.error().has_value() && !o.message().empty(), "a state that did not open says no why");
    return {false, o.error()};
  }
  // It opened: it must be a token sealed here, of this type, for this binding, with this ring.
  if (origin == nullptr) fail("a token nobody sealed opened:", token);
  if (&keys != &ring()) fail("a token opened with a ring of other secrets:", token);
  if (origin->type != type) fail("a token opened as another state type:", token);
  if (origin->binding != binding) fail("a token opened for another binding:", token);
  const auto now = elicit::detail::seconds_of(options.now), at = elicit::detail::seconds_of(sealed_at);
  if (now + skew.count() < at || now > at + origin->ttl.count() + skew.count())
    fail("a token opened outside its time:", token);
  const nlohmann::ordered_json content = elicit::to_content(*o);
  if (content != origin->content) fail("a token opened to another value:", token);
  fuzz::check_round_trip(*o);
  return {true, std::nullopt};
}

// Opens `token` every way; `origin` is the token sealed here that it equals, if any.
void open_every_way(std::string_view token, const sealed* origin, std::chrono::seconds shift, bool guard_replays) {
  elicit::memory_replay_guard guard;
  elicit::open_options options{.clock_skew = skew, .now = sealed_at + shift};
  if (guard_replays) options.replay = &guard;
  std::size_t opened = 0;
  for (const elicit::key_ring* keys : {&ring(), &other_ring()}) {
    for (std::size_t b = 0; b < binding_count; ++b) {
      const attempt tried[] = {open_as<Progress>(0, token, *keys, b, options, origin),
                               open_as<Cart>(1, token, *keys, b, options, origin),
                               open_as<Address>(2, token, *keys, b, options, origin)};
      for (std::size_t t = 0; t < type_count; ++t) {
        opened += tried[t].opened ? 1 : 0;
        if (origin == nullptr) continue;
        const bool here = keys == &ring() && origin->type == t && origin->binding == b;
        if (!here) continue;
        const bool in_time = shift >= -skew && shift <= origin->ttl + skew;
        if (in_time && !tried[t].opened) fail("a sealed token did not open where and when it was sealed:", token);
        if (!in_time)
          check(tried[t].error == (shift < -skew ? elicit::state_error::not_yet_valid : elicit::state_error::expired),
                "a token out of its time fails for another reason", token);
      }
    }
  }
  check(opened <= 1, "a token opened more than once");
  if (opened == 1 && guard_replays) {
    const attempt again = [&] {
      switch (origin->type) {
        case 0: return open_as<Progress>(0, token, ring(), origin->binding, options, origin);
        case 1: return open_as<Cart>(1, token, ring(), origin->binding, options, origin);
        default: return open_as<Address>(2, token, ring(), origin->binding, options, origin);
      }
    }();
    check(!again.opened && again.error == elicit::state_error::replayed, "a guarded token opened twice", token);
  }
}

// The token sealed here that `token` is, character for character, if any.
const sealed* origin_of(std::string_view token) {
  for (const sealed& s : tokens())
    if (s.token == token) return &s;
  return nullptr;
}

// Reads the bytes of the fuzz input one at a time; zeros once they run out.
struct reader {
  const std::uint8_t* data;
  std::size_t size;
  std::size_t at = 0;
  bool done() const { return at >= size; }
  std::uint8_t next() { return at < size ? data[at++] : 0; }
  std::size_t next16() { return (std::size_t{next()} << 8) | next(); }
};

constexpr std::string_view alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

// Applies one change to `bytes`: the token's text, or the bytes it encodes.
template <class Bytes>
void change(Bytes& bytes, reader& in, bool text) {
  const std::uint8_t op = in.next();
  const std::size_t pos = in.next16();
  const std::uint8_t value = in.next();
  const auto put = [&](std::uint8_t b) { return static_cast<typename Bytes::value_type>(text ? alphabet[b % 64] : b); };
  const std::size_t n = bytes.size();
  switch (op % 8) {
    case 0:  // flip one bit
      if (n > 0) bytes[pos % n] = static_cast<typename Bytes::value_type>(bytes[pos % n] ^ (1u << (value % 8)));
      break;
    case 1:  // cut
      bytes.resize(n == 0 ? 0 : pos % (n + 1));
      break;
    case 2:  // append
      bytes.push_back(put(value));
      break;
    case 3:  // insert
      bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(n == 0 ? 0 : pos % (n + 1)), put(value));
      break;
    case 4:  // erase
      if (n > 0) bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(pos % n));
      break;
    case 5:  // set a byte, or in text a base64url character
      if (n > 0) bytes[pos % n] = text ? put(value) : static_cast<typename Bytes::value_type>(value);
      break;
    case 6:  // another state type's tag (bytes 1 to 8)
      if (!text && n >= 9)
        elicit::detail::put_u64(reinterpret_cast<unsigned char*>(bytes.data()) + 1, tags[value % type_count]);
      break;
    case 7:  // another key id, of the same length or not: "k2", "k1", "zz", "k10"
      if (!text && n >= 10) {
        static constexpr std::string_view ids[] = {"k2", "k1", "zz", "k10"};
        const std::string_view id = ids[value % 4];
        const std::size_t old = std::min<std::size_t>(bytes[9], n - 10);
        bytes.erase(bytes.begin() + 10, bytes.begin() + 10 + static_cast<std::ptrdiff_t>(old));
        bytes.insert(bytes.begin() + 10, id.begin(), id.end());
        bytes[9] = static_cast<typename Bytes::value_type>(id.size());
      }
      break;
  }
}

void mutate(reader& in) {
  const sealed& origin = tokens()[in.next() % tokens().size()];
  const auto shift = std::chrono::seconds(static_cast<std::int8_t>(in.next()) * 10);
  const std::uint8_t flags = in.next();
  const bool guard = (flags & 1) != 0, text = (flags & 2) != 0;
  std::string token = origin.token;
  if (text) {
    for (int i = 0; i < 16 && !in.done(); ++i) change(token, in, true);
  } else {
    auto bytes = elicit::detail::base64url_decode(token);
    check(bytes.has_value(), "a sealed token is not base64url", token);
    for (int i = 0; i < 16 && !in.done(); ++i) change(*bytes, in, false);
    token = elicit::detail::base64url_encode(*bytes);
  }
  open_every_way(token, origin_of(token), shift, guard);
}

// Seals a state decoded from the fuzz input, then opens it every way.
template <class State>
void seal_and_open(std::size_t type, std::size_t binding, std::string_view json_text) {
  const nlohmann::json content = nlohmann::json::parse(json_text, nullptr, false);
  const elicit::decoded<State> state = elicit::decode_content<State>(content);
  if (!state) return;
  sealed s;
  try {
    s = seal(*state, type, binding);
  } catch (const std::length_error&) {
    return;  // more than 48 KiB of JSON
  } catch (const std::exception& e) {
    fail("a state that decode_content accepted does not seal:", e.what());
  }
  open_every_way(s.token, &s, 1min, false);
  const std::string cut = s.token.substr(0, s.token.size() - 1);
  open_every_way(cut, nullptr, 1min, false);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  reader in{data, size};
  switch (in.next() % 3) {
    case 0: {
      const std::string_view token(reinterpret_cast<const char*>(data) + in.at, size - in.at);
      open_every_way(token, origin_of(token), 1min, false);
      break;
    }
    case 1: mutate(in); break;
    default: {
      const std::size_t type = in.next() % type_count, binding = in.next() % binding_count;
      const std::string_view json_text(reinterpret_cast<const char*>(data) + in.at, size - in.at);
      if (type == 0) seal_and_open<Progress>(0, binding, json_text);
      else if (type == 1) seal_and_open<Cart>(1, binding, json_text);
      else seal_and_open<Address>(2, binding, json_text);
      break;
    }
  }
  return 0;
}
