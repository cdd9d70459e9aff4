// Sealed request state: it opens only for the state type, audience, principal, target and
// arguments it was sealed for, under a key of the ring, within its time, once when asked; each
// way it fails gives its own reason (for the log) and the client the same one error; keys
// rotate in three phases across instances without a failed open.
#include "../../../samples/forms.hpp"
#include "../support/mixed_secret.hpp"

#include <elicit/elicit.hpp>
#include <elicit/state/state.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_state_state {

using elicit::state_error;
using nlohmann::json;
using namespace std::chrono_literals;

namespace {

struct Progress {
  std::string order_id;
  int step;
  std::vector<shipping::Country> countries;
};
struct OtherState {  // the same fields as Progress's first two: only the type tells them apart
  std::string order_id;
  int step;
};
// A state is not a form: it is never sent as a schema, so a field may be named for a token.
struct Session {
  std::string access_token;
};

const auto t0 = std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000));

elicit::state_key secret(unsigned char seed) { return elicit::state_key::from_bytes(test_support::mixed_secret(seed)); }

std::span<const unsigned char> bytes_of(std::string_view text) {
  return {reinterpret_cast<const unsigned char*>(text.data()), text.size()};
}

elicit::key_ring ring_of(std::initializer_list<std::pair<const char*, unsigned char>> keys) {
  elicit::key_ring ring;
  for (const auto& [id, seed] : keys) ring.add(id, secret(seed));
  return ring;
}

const elicit::state_binding here{"shipping", "alice", "tools/call", "book_shipment",
                                 elicit::digest_of(json{{"order", "A-17"}, {"express", true}})};

elicit::open_options at(std::chrono::system_clock::time_point now) { return {.now = now}; }

// The clear header of a token, as bytes: version (1), type tag (8), key id length (1), key id.
std::string retag(const std::string& token, std::size_t byte, unsigned char value) {
  auto bytes = *elicit::detail::base64url_decode(token);
  bytes[byte] = value;
  return elicit::detail::base64url_encode(bytes);
}

}  // namespace

TEST_CASE("a sealed state opens where it was sealed for, and its contents stay hidden", "[state]") {
  const auto ring = ring_of({{"k1", 1}});
  const Progress state{"A-17", 2, {shipping::Country::FR, shipping::Country::NL}};
  const std::string token = elicit::seal(state, ring, here, 10min, t0);
  CHECK(token.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
        std::string::npos);
  CHECK(token.find("A-17") == std::string::npos);  // encrypted, not merely signed
  CHECK(token.find("alice") == std::string::npos);
  CHECK(elicit::seal(state, ring, here, 10min, t0) != token);  // a fresh nonce each time

  const auto opened = elicit::open<Progress>(token, ring, here, at(t0 + 9min));
  REQUIRE(opened);
  CHECK(opened->order_id == "A-17");
  CHECK(opened->step == 2);
  CHECK(opened->countries == state.countries);
  CHECK_FALSE(opened.error());
}

TEST_CASE("each binding is checked, and each failure has its own reason", "[state]") {
  const auto ring = ring_of({{"k1", 1}});
  const std::string token = elicit::seal(Progress{"A-17", 2, {}}, ring, here, 10min, t0);
  const auto error_with = [&](elicit::state_binding b) {
    return elicit::open<Progress>(token, ring, b, at(t0)).error();
  };

  auto other = here;
  other.audience = "billing";
  CHECK(error_with(other) == state_error::wrong_audience);
  other = here;
  other.principal = "bob";
  CHECK(error_with(other) == state_error::wrong_principal);
  other = here;
  other.method = "prompts/get";
  CHECK(error_with(other) == state_error::wrong_target);
  other = here;
  other.target = "cancel_shipment";
  CHECK(error_with(other) == state_error::wrong_target);
  other = here;
  other.arguments = elicit::digest_of(json{{"order", "A-18"}, {"express", true}});
  CHECK(error_with(other) == state_error::wrong_arguments);
  // Text moved from one part to the next is another binding.
  other = here;
  other.method = "tools/callbook_shipment";
  other.target = "";
  CHECK(error_with(other) == state_error::wrong_target);
  CHECK(error_with(here) == std::nullopt);

  // The digest of the arguments does not depend on the order of their keys as text.
  CHECK(elicit::digest_of(json::parse(R"({"express":true,"order":"A-17"})")) == here.arguments);
  CHECK(elicit::digest_of(json::parse(R"({"order":"A-17","express":true})")) == here.arguments);
  CHECK(here.arguments.size() == 64);
}

TEST_CASE("a state opens within its time, give or take the clock skew", "[state]") {
  const auto ring = ring_of({{"k1", 1}});
  const std::string token = elicit::seal(Progress{"A-17", 2, {}}, ring, here, 10min, t0);
  CHECK(elicit::open<Progress>(token, ring, here, at(t0 + 10min)));
  CHECK(elicit::open<Progress>(token, ring, here, at(t0 + 10min + 30s)));  // the default skew
  const auto expired = elicit::open<Progress>(token, ring, here, at(t0 + 10min + 31s));
  CHECK(expired.error() == state_error::expired);
  CHECK_THROWS_AS(expired.value(), elicit::bad_answer_access);
  // Sealed by an instance whose clock runs ahead: within the skew it opens, beyond it not.
  CHECK(elicit::open<Progress>(token, ring, here, at(t0 - 30s)));
  CHECK(elicit::open<Progress>(token, ring, here, at(t0 - 31s)).error() == state_error::not_yet_valid);
  CHECK(elicit::open<Progress>(token, ring, here, {.clock_skew = 0s, .now = t0 + 10min + 1s}).error() ==
        state_error::expired);
  CHECK(elicit::open<Progress>(token, ring, here, {.clock_skew = 5min, .now = t0 - 4min}));

  // A long life does not overflow.
  const auto forever = elicit::seal(OtherState{"x", 1}, ring, here, std::chrono::seconds::max(), t0);
  CHECK(elicit::open<OtherState>(forever, ring, here, at(t0 + std::chrono::hours(24 * 365 * 100))));
}

TEST_CASE("time saturates: any time to live, any clock skew, any now", "[state]") {
  using std::chrono::seconds;
  using time_point = std::chrono::system_clock::time_point;
  const auto ring = ring_of({{"k1", 1}});
  const auto years = [](int n) { return std::chrono::duration_cast<seconds>(std::chrono::years(n)); };

  // A state of centuries (past 2262, where the clock's nanoseconds end) is single-use under the
  // guard, however late it is opened again.
  elicit::memory_replay_guard seen;
  for (const seconds ttl : {years(300), years(100'000), seconds::max()}) {
    INFO("time to live " << ttl.count() << " s");
    const auto token = elicit::seal(OtherState{"x", 1}, ring, here, ttl, t0);
    CHECK(elicit::open<OtherState>(token, ring, here, at(t0 + years(200))));
    CHECK(elicit::open<OtherState>(token, ring, here, at(time_point::max())));
    CHECK(elicit::open<OtherState>(token, ring, here, {.replay = &seen, .now = t0 + 1min}));
    for (const time_point later : {t0 + 1min, t0 + years(200), time_point::max()})
      CHECK(elicit::open<OtherState>(token, ring, here, {.replay = &seen, .now = later}).error() ==
            state_error::replayed);
  }

  // A skew of any size: it widens both ends, up to all of time (the clock spans 1677 to 2262).
  const auto token = elicit::seal(OtherState{"y", 2}, ring, here, 10min, t0);
  for (const time_point now : {time_point::min(), t0 - years(100), t0 + years(100), time_point::max()}) {
    CHECK(elicit::open<OtherState>(token, ring, here, {.clock_skew = seconds::max(), .now = now}));
    CHECK(elicit::open<OtherState>(token, ring, here, {.clock_skew = years(400), .now = now}));
  }
  CHECK(elicit::open<OtherState>(token, ring, here, {.clock_skew = years(300), .now = time_point::min()}).error() ==
        state_error::not_yet_valid);
  CHECK(elicit::open<OtherState>(token, ring, here, {.clock_skew = years(200), .now = time_point::max()}).error() ==
        state_error::expired);
  elicit::memory_replay_guard skewed;
  CHECK(elicit::open<OtherState>(token, ring, here, {.clock_skew = seconds::max(), .replay = &skewed, .now = t0}));
  CHECK(elicit::open<OtherState>(token, ring, here,
                                 {.clock_skew = seconds::max(), .replay = &skewed, .now = time_point::max()})
            .error() == state_error::replayed);
  // A negative skew is none.
  CHECK(elicit::open<OtherState>(token, ring, here, {.clock_skew = seconds::min(), .now = t0 + 10min}));
  CHECK(elicit::open<OtherState>(token, ring, here, {.clock_skew = seconds::min(), .now = t0 + 10min + 1s}).error() ==
        state_error::expired);

  // Sealed and opened at the ends of the clock, with lives from none to all.
  for (const time_point now : {time_point::min(), time_point{}, time_point::max()}) {
    for (const seconds ttl : {seconds::min(), seconds(-1), seconds(0), seconds(600), seconds::max()}) {
      INFO("now " << now.time_since_epoch().count() << " ns, time to live " << ttl.count() << " s");
      const auto sealed = elicit::seal(OtherState{"z", 3}, ring, here, ttl, now);
      CHECK(elicit::open<OtherState>(sealed, ring, here, at(now)));
      elicit::memory_replay_guard once;
      CHECK(elicit::open<OtherState>(sealed, ring, here, {.replay = &once, .now = now}));
      CHECK(elicit::open<OtherState>(sealed, ring, here, {.replay = &once, .now = now}).error() ==
            state_error::replayed);
    }
  }
  const auto at_start = elicit::seal(OtherState{"z", 3}, ring, here, 10min, time_point::min());
  const auto at_end = elicit::seal(OtherState{"z", 3}, ring, here, 10min, time_point::max());
  CHECK(elicit::open<OtherState>(at_start, ring, here, at(time_point::max())).error() == state_error::expired);
  CHECK(elicit::open<OtherState>(at_end, ring, here, at(time_point::min())).error() == state_error::not_yet_valid);
}

TEST_CASE("a state is single-use to the end of its last second", "[state]") {
  // Times are kept in whole seconds: a state expires when its last second (expiry plus skew)
  // has passed, not at its start, and the guard must remember it until then.
  const auto ring = ring_of({{"k1", 1}});
  const auto token = elicit::seal(Progress{"A", 1, {}}, ring, here, 10min, t0);
  const auto last_second = t0 + 10min + 30s;
  elicit::memory_replay_guard seen;
  CHECK(elicit::open<Progress>(token, ring, here, {.replay = &seen, .now = last_second + 200ms}));
  CHECK(elicit::open<Progress>(token, ring, here, {.replay = &seen, .now = last_second + 700ms}).error() ==
        state_error::replayed);
  CHECK(elicit::open<Progress>(token, ring, here, at(last_second + 999ms)));
  CHECK(elicit::open<Progress>(token, ring, here, at(last_second + 1s)).error() == state_error::expired);
  // Before the epoch too: a time is rounded down to its second, never toward zero.
  const auto before_epoch = std::chrono::system_clock::time_point(-std::chrono::hours(1));
  const auto old = elicit::seal(Progress{"B", 1, {}}, ring, here, 10min, before_epoch);
  CHECK(elicit::open<Progress>(old, ring, here, {.clock_skew = 0s, .now = before_epoch + 10min + 999ms}));
  CHECK(elicit::open<Progress>(old, ring, here, {.clock_skew = 0s, .now = before_epoch + 10min + 1s}).error() ==
        state_error::expired);
  CHECK(elicit::open<Progress>(old, ring, here, {.clock_skew = 0s, .now = before_epoch - 1ms}).error() ==
        state_error::not_yet_valid);
}

TEST_CASE("the clear header is authenticated: a re-tagged state does not open", "[state]") {
  const auto ring = ring_of({{"k1", 1}, {"k2", 2}});
  const std::string token = elicit::seal(Progress{"A-17", 2, {}}, ring, here, 10min, t0);
  CHECK(elicit::open<OtherState>(token, ring, here, at(t0)).error() == state_error::foreign);

  // Rewrite the type tag to OtherState's: the tag then matches, and the authentication fails.
  const std::string other = elicit::seal(OtherState{"A-17", 2}, ring, here, 10min, t0);
  const auto other_bytes = *elicit::detail::base64url_decode(other);
  std::string retagged = token;
  for (std::size_t i = 1; i <= 8; ++i) retagged = retag(retagged, i, other_bytes[i]);
  CHECK(elicit::open<OtherState>(retagged, ring, here, at(t0)).error() == state_error::tampered);
  CHECK(elicit::open<Progress>(retagged, ring, here, at(t0)).error() == state_error::foreign);

  // Rename the key id from k1 to k2 (both in the ring): the header is the associated data.
  const auto bytes = *elicit::detail::base64url_decode(token);
  REQUIRE(bytes[9] == 2);
  REQUIRE(bytes[11] == '1');
  CHECK(elicit::open<Progress>(retag(token, 11, '2'), ring, here, at(t0)).error() == state_error::tampered);
  CHECK(elicit::open<Progress>(retag(token, 11, '9'), ring, here, at(t0)).error() == state_error::unknown_key);
  CHECK(elicit::open<Progress>(retag(token, 9, 0), ring, here, at(t0)).error() == state_error::malformed);
  CHECK(elicit::open<Progress>(retag(token, 9, 200), ring, here, at(t0)).error() == state_error::malformed);
}

TEST_CASE("anything but a token elicit wrote is refused with its reason", "[state]") {
  const auto ring = ring_of({{"k1", 1}});
  CHECK(elicit::open<Progress>("", ring, here, at(t0)).error() == state_error::truncated);
  CHECK(elicit::open<Progress>("not base64!", ring, here, at(t0)).error() == state_error::malformed);
  CHECK(elicit::open<Progress>("AAE=", ring, here, at(t0)).error() == state_error::malformed);  // padded
  CHECK(elicit::open<Progress>(std::string(300'000, 'A'), ring, here, at(t0)).error() == state_error::malformed);
  // Format 1, written by an older elicit: version byte 1, then a type tag, a nonce...
  const std::vector<unsigned char> v1(1 + 8 + 12 + 8 + 20 + 16, 1);
  CHECK(elicit::open<Progress>(elicit::detail::base64url_encode(v1), ring, here, at(t0)).error() ==
        state_error::outdated);
  std::vector<unsigned char> v9 = v1;
  v9[0] = 9;
  CHECK(elicit::open<Progress>(elicit::detail::base64url_encode(v9), ring, here, at(t0)).error() ==
        state_error::malformed);

  // Every character changed, and every cut, fails to open and says why.
  const std::string token = elicit::seal(Progress{"B-2", 1, {}}, ring, here, 10min, t0);
  const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  for (std::size_t i = 0; i < token.size(); ++i) {
    for (char c : {alphabet[(alphabet.find(token[i]) + 1) % 64], alphabet[(alphabet.find(token[i]) + 33) % 64], '.'}) {
      std::string altered = token;
      altered[i] = c;
      const auto o = elicit::open<Progress>(altered, ring, here, at(t0));
      INFO("position " << i << " -> " << c);
      CHECK_FALSE(o);
      CHECK(o.error().has_value());
    }
  }
  for (std::size_t n = 0; n < token.size(); ++n) {
    INFO("cut to " << n);
    const auto o = elicit::open<Progress>(token.substr(0, n), ring, here, at(t0));
    CHECK_FALSE(o);
    CHECK(o.error().has_value());
  }
  CHECK_FALSE(elicit::open<Progress>(token + "A", ring, here, at(t0)));
  CHECK_FALSE(elicit::open<Progress>(token + "AAAA", ring, here, at(t0)));
}

TEST_CASE("the client is told one thing, whatever the reason", "[state]") {
  const auto error = elicit::invalid_state_error(7);
  CHECK(error.dump() ==
        R"({"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"invalid or expired requestState"}})");
}

TEST_CASE("keys rotate in three phases across instances without a failed open", "[state]") {
  // Two instances of a server behind one address, each with its own ring built from the same
  // secrets, as from one secret store.
  auto a = ring_of({{"2026-11", 1}});
  auto b = ring_of({{"2026-11", 1}});
  const auto old_token = elicit::seal(Progress{"old", 1, {}}, a, here, 10min, t0);

  // 1. add: both rings get the new key; the old one still seals.
  a.add("2026-12", secret(2));
  b.add("2026-12", secret(2));
  CHECK(a.sealing_id() == "2026-11");
  // 2. switch, one instance at a time: a seals with the new key before b does.
  a.seal_with("2026-12");
  const auto new_token = elicit::seal(Progress{"new", 1, {}}, a, here, 10min, t0 + 1min);
  const auto from_b = elicit::seal(Progress{"b", 1, {}}, b, here, 10min, t0 + 1min);
  for (const auto* ring : {&a, &b})
    for (const auto& token : {old_token, new_token, from_b})
      CHECK(elicit::open<Progress>(token, *ring, here, at(t0 + 2min)));
  b.seal_with("2026-12");
  // 3. retire, once every old state has expired.
  CHECK_THROWS_AS(a.retire("2026-12"), std::invalid_argument);  // it seals
  a.retire("2026-11");
  b.retire("2026-11");
  CHECK(elicit::open<Progress>(new_token, b, here, at(t0 + 3min)));
  CHECK(elicit::open<Progress>(old_token, b, here, at(t0 + 3min)).error() == state_error::unknown_key);

  // The same secret under another id is another key; another secret under the same id too.
  auto c = ring_of({{"2026-12", 3}});
  CHECK(elicit::open<Progress>(new_token, c, here, at(t0 + 3min)).error() == state_error::tampered);
  CHECK_THROWS_AS(elicit::seal(Progress{}, elicit::key_ring{}, here), std::logic_error);
}

TEST_CASE("a key copied out of the ring is its own: the ring may change after", "[state]") {
  auto ring = ring_of({{"k1", 1}});
  const auto sealing = ring.sealing_key();
  REQUIRE(sealing);
  CHECK(sealing->id() == "k1");
  const auto found = ring.find("k1");
  REQUIRE(found);
  CHECK(found->bytes() == sealing->bytes());
  CHECK_FALSE(ring.find("k2"));
  ring.add("k2", secret(2)).seal_with("k2").retire("k1");
  CHECK(found->id() == "k1");  // the copy outlives its key in the ring
  CHECK(found->bytes() == sealing->bytes());
  CHECK_FALSE(ring.find("k1"));
  CHECK(ring.sealing_key()->id() == "k2");
  CHECK(ring.find("k2")->bytes() != found->bytes());

  // A copy of the ring is another ring: changing one leaves the other as it was.
  elicit::key_ring copy = ring;
  copy.add("k3", secret(3)).seal_with("k3");
  CHECK(ring.sealing_id() == "k2");
  CHECK_FALSE(ring.contains("k3"));
  ring = copy;
  CHECK(ring.sealing_id() == "k3");
  CHECK(ring.find("k2")->bytes() == copy.find("k2")->bytes());
  const elicit::key_ring& same = ring;
  ring = same;
  CHECK(ring.sealing_id() == "k3");
  // A change that throws leaves the ring as it was.
  CHECK_THROWS_AS(ring.add("k2", secret(4)), std::invalid_argument);
  CHECK_THROWS_AS(ring.retire("k3"), std::invalid_argument);
  CHECK(ring.find("k2")->bytes() == copy.find("k2")->bytes());
  CHECK(ring.sealing_id() == "k3");

  const elicit::key_ring empty;
  CHECK_FALSE(empty.sealing_key());
  CHECK(empty.sealing_id().empty());
  CHECK_FALSE(empty.contains("k1"));
  ring = empty;
  CHECK_FALSE(ring.sealing_key());
  CHECK_THROWS_AS(elicit::seal(Progress{}, ring, here), std::logic_error);
  ring.add("k4", secret(4));
  CHECK(ring.sealing_id() == "k4");
}

TEST_CASE("weak secrets and malformed key ids are refused", "[state]") {
  CHECK_THROWS_AS(elicit::state_key::from_bytes(std::array<unsigned char, 32>{}), std::invalid_argument);  // all zero
  std::array<unsigned char, 32> pattern{};
  for (std::size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<unsigned char>(i % 4);
  CHECK_THROWS_AS(elicit::state_key::from_bytes(pattern), std::invalid_argument);
  CHECK_THROWS_AS(elicit::state_key::from_text("short"), std::invalid_argument);
  CHECK_THROWS_AS(elicit::state_key::from_text(std::string(43, 'A')), std::invalid_argument);  // 32 zero bytes

  elicit::key_ring ring;
  const std::string phrase = "correct horse battery staple, then some";
  const std::span<const unsigned char> long_secret(reinterpret_cast<const unsigned char*>(phrase.data()),
                                                   phrase.size());
  CHECK_NOTHROW(ring.add("phrase", long_secret));
  CHECK_THROWS_AS(ring.add("short", long_secret.first(31)), std::invalid_argument);
  CHECK_THROWS_AS(ring.add("phrase", secret(1)), std::invalid_argument);  // already in the ring
  CHECK_THROWS_AS(ring.add("", secret(1)), std::invalid_argument);
  CHECK_THROWS_AS(ring.add("a/b", secret(1)), std::invalid_argument);
  CHECK_THROWS_AS(ring.add(std::string(33, 'k'), secret(1)), std::invalid_argument);
  CHECK_THROWS_AS(ring.seal_with("absent"), std::invalid_argument);
  CHECK_THROWS_AS(ring.retire("absent"), std::invalid_argument);

  const auto generated = elicit::state_key::generate();
  CHECK(generated.to_text().size() == 43);
  CHECK(elicit::state_key::from_text(generated.to_text()).to_text() == generated.to_text());
}

TEST_CASE("a secret that repeats a pattern, steps in a pattern or has little entropy is refused", "[state]") {
  const auto refused = [](std::string_view text) {
    INFO('"' << text << '"');
    elicit::key_ring ring;
    CHECK_THROWS_AS(ring.add("k", bytes_of(text)), std::invalid_argument);
    CHECK_FALSE(ring.contains("k"));
    return elicit::detail::weak_secret(bytes_of(text)) != nullptr;
  };
  const auto repeat = [](std::string_view block, std::size_t times) {
    std::string out;
    for (std::size_t i = 0; i < times; ++i) out += block;
    return out;
  };
  // Periodic: two or more copies of a block, the last maybe cut.
  CHECK(refused(repeat("01234567", 4)));
  CHECK(refused(repeat("Password1", 4)));
  CHECK(refused(repeat("Password1", 4).substr(0, 32)));
  CHECK(refused(repeat("Zq8#vL2!mW4$pR7&", 2)));  // a strong-looking block, twice
  CHECK(refused(repeat("correct horse battery staple", 2)));
  // Steps that repeat: ascending or descending runs, a constant or periodic stride.
  std::string run, evens, down, strided;
  for (int i = 0; i < 32; ++i) {
    run += static_cast<char>('A' + i);
    evens += static_cast<char>('0' + 2 * i);
    down += static_cast<char>('z' - i);
    strided += static_cast<char>('a' + 5 * (i / 2) + (i % 2) * 17);
  }
  CHECK(refused(run));
  CHECK(refused(evens));
  CHECK(refused(down));
  CHECK(refused(strided));
  // Little entropy (under 3 bits a byte), in the bytes or in their steps.
  CHECK(refused("abcdefghijklmnopqrstuvwxyz012345"));  // a run, broken once: its steps are all but one 1
  CHECK(refused("abcdefghijklmnopqrstuvwxyzabcdef"));
  CHECK(refused("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"));
  CHECK(refused("0123456789012345678901234567890123456789"));
  CHECK(refused(std::string(31, 'x') + "y" + std::string(31, 'x')));
  std::string seven(64, 'a');
  for (std::size_t i = 0; i < seven.size(); ++i) seven[i] = "ghjkmnp"[(i * i + 3 * i) % 7];
  CHECK(refused(seven));  // 7 distinct bytes, in no period
  CHECK(refused(std::string(4096, '\0')));

  // What passes: a passphrase, the hex or base64url of random bytes, generated keys.
  elicit::key_ring ring;
  CHECK_NOTHROW(ring.add("phrase", bytes_of("correct horse battery staple, then some")));
  CHECK_NOTHROW(ring.add("hex", bytes_of("3f9a1c7e5b20d84e6a0f2c9b7d13e58a")));
  CHECK_NOTHROW(ring.add("text", bytes_of(elicit::state_key::generate().to_text())));
  std::size_t weak = 0;
  for (int i = 0; i < 20'000; ++i) {
    const auto key = elicit::state_key::generate();
    weak += elicit::detail::weak_secret(key.bytes()) != nullptr ? 1 : 0;
    if (i % 1000 == 0) CHECK(elicit::state_key::from_text(key.to_text()).to_text() == key.to_text());
  }
  CHECK(weak == 0);
}

TEST_CASE("with a replay store, a state opens once", "[state]") {
  const auto ring = ring_of({{"k1", 1}});
  elicit::memory_replay_guard seen(2);
  const elicit::open_options once{.replay = &seen, .now = t0};
  const auto first = elicit::seal(Progress{"A", 1, {}}, ring, here, 10min, t0);
  CHECK(elicit::open<Progress>(first, ring, here, once));
  CHECK(elicit::open<Progress>(first, ring, here, once).error() == state_error::replayed);
  // A failed open does not use the state up.
  auto bob = here;
  bob.principal = "bob";
  const auto second = elicit::seal(Progress{"B", 1, {}}, ring, here, 10min, t0);
  CHECK(elicit::open<Progress>(second, ring, bob, once).error() == state_error::wrong_principal);
  CHECK(elicit::open<Progress>(second, ring, here, once));
  // Full of live states, it refuses new ones rather than forget one.
  const auto third = elicit::seal(Progress{"C", 1, {}}, ring, here, 10min, t0);
  CHECK(seen.size() == 2);
  CHECK(elicit::open<Progress>(third, ring, here, once).error() == state_error::replayed);
  // Once they have expired, they are forgotten and there is room again.
  const auto later = elicit::seal(Progress{"D", 1, {}}, ring, here, 10min, t0 + 20min);
  CHECK(elicit::open<Progress>(later, ring, here, {.replay = &seen, .now = t0 + 20min}));
  CHECK(seen.size() == 1);
  // Without a store, a state opens as often as it is sent.
  CHECK(elicit::open<Progress>(first, ring, here, at(t0)));
}

TEST_CASE("a state type is not a form: its fields may be named for credentials", "[state]") {
  const auto ring = ring_of({{"k1", 1}});
  const auto token = elicit::seal(Session{"opaque"}, ring, here, 1min, t0);
  CHECK(elicit::open<Session>(token, ring, here, at(t0))->access_token == "opaque");
}

TEST_CASE("a state that would not open again is refused when sealed", "[state]") {
  struct Bounded {
    elicit::field<int, elicit::range<1, 3>> step;
  };
  const auto ring = ring_of({{"k1", 1}});
  CHECK_THROWS_AS(elicit::seal(Bounded{{4}}, ring, here), std::invalid_argument);
  // seal throws only what it says: text that is not UTF-8 is a state that would not open again.
  for (const char* text : {"\xff", "caf\xc3", "\xc0\xaf", "\xed\xa0\x80", "ok \xf4\x90\x80\x80"}) {
    INFO(text);
    CHECK_THROWS_AS(elicit::seal(Session{text}, ring, here), std::invalid_argument);
    CHECK_THROWS_AS(elicit::seal(Progress{text, 1, {}}, ring, here), std::invalid_argument);
  }
  CHECK_THROWS_WITH(elicit::seal(Session{"\xff"}, ring, here), Catch::Contains("UTF-8"));
  CHECK(elicit::open<Session>(elicit::seal(Session{"caf\xc3\xa9"}, ring, here, 1min, t0), ring, here, at(t0))
            ->access_token == "caf\xc3\xa9");
  CHECK_THROWS_AS(elicit::seal(Session{std::string(48 * 1024, 'x')}, ring, here), std::length_error);
  CHECK_NOTHROW(elicit::seal(Session{std::string(48 * 1024 - 20, 'x')}, ring, here));
  CHECK_THROWS_AS(elicit::seal(Session{"x"}, elicit::key_ring{}, here), std::logic_error);
  CHECK(elicit::open<Bounded>(elicit::seal(Bounded{{2}}, ring, here, 1min, t0), ring, here, at(t0))->step == 2);
}

// The natural code of a 2026-07-28 retry, `open<S>(answers.state(), ...)`, on every shape a
// request may take: nothing is dereferenced that is not there, and only a state sealed here opens.
TEST_CASE("a retry's state is read safely, whatever shape the request has", "[state][protocol]") {
  const elicit::key_ring ring = ring_of({{"k1", 1}});
  const std::string sealed = elicit::seal(Progress{"A-17", 2, {}}, ring, here, 10min, t0);
  const json answer = {{"address", {{"action", "decline"}}}};
  struct shape {
    const char* what;
    json params;
    elicit::request_kind kind;
    state_error refused;  // what open() says, when it refuses
  };
  const std::vector<shape> shapes = {
      {"a first call", json::object(), elicit::request_kind::first_call, state_error::truncated},
      {"answers and no state",
       {{"inputResponses", answer}},
       elicit::request_kind::retry_without_state,
       state_error::truncated},
      {"a state that is no text",
       {{"inputResponses", answer}, {"requestState", 17}},
       elicit::request_kind::retry_without_state,
       state_error::truncated},
      {"a state alone, null",
       {{"requestState", nullptr}},
       elicit::request_kind::retry_without_state,
       state_error::truncated},
      {"an empty state", {{"requestState", ""}}, elicit::request_kind::retry_with_state, state_error::truncated},
      {"a state not written here",
       {{"inputResponses", answer}, {"requestState", "AAAA"}},
       elicit::request_kind::retry_with_state,
       state_error::malformed},
  };
  for (const shape& s : shapes) {
    INFO(s.what);
    const elicit::input_responses answers(s.params);
    CHECK(answers.kind() == s.kind);
    CHECK(answers.is_retry() == (s.kind != elicit::request_kind::first_call));
    const auto opened = elicit::open<Progress>(answers.state(), ring, here, at(t0));
    REQUIRE_FALSE(opened);
    CHECK(opened.error() == s.refused);
  }
  const elicit::input_responses retry(json{{"inputResponses", answer}, {"requestState", sealed}});
  CHECK(retry.kind() == elicit::request_kind::retry_with_state);
  const auto opened = elicit::open<Progress>(retry.state(), ring, here, at(t0));
  REQUIRE(opened);
  CHECK(opened->step == 2);
}

}  // namespace unit_state_state
