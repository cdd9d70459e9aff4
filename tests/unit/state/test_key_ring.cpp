// The keys that seal request state (<elicit/state/key_ring.hpp>): state_key's text form and the
// secrets it refuses; key_ring's ids, the key that seals, switching and retiring keys, and the
// refusals that leave the ring unchanged. (Sealing and opening across rotations: test_state.cpp.)
#include "../support/mixed_secret.hpp"

#include <elicit/state/key_ring.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <stdexcept>
#include <string>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_state_key_ring {

TEST_CASE("state_key: to_text is 43 base64url characters that from_text reads back", "[state][keys]") {
  const auto key = elicit::state_key::generate();
  const std::string text = key.to_text();
  CHECK(text.size() == 43);
  CHECK(text.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") ==
        std::string::npos);
  const auto back = elicit::state_key::from_text(text);
  CHECK(std::equal(back.bytes().begin(), back.bytes().end(), key.bytes().begin(), key.bytes().end()));
  CHECK(elicit::state_key::generate().to_text() != text);
}

TEST_CASE("state_key: anything but 32 strong bytes is refused", "[state][keys]") {
  const auto good = test_support::mixed_secret(1);
  CHECK_NOTHROW(elicit::state_key::from_bytes(good));
  const std::array<unsigned char, 31> short_secret{};
  CHECK_THROWS_AS(elicit::state_key::from_bytes(short_secret), std::invalid_argument);
  const std::array<unsigned char, 32> zeros{};
  CHECK_THROWS_AS(elicit::state_key::from_bytes(zeros), std::invalid_argument);
  const std::string text = elicit::state_key::from_bytes(good).to_text();
  CHECK_THROWS_AS(elicit::state_key::from_text(text.substr(1)), std::invalid_argument);
  CHECK_THROWS_AS(elicit::state_key::from_text(text + "A"), std::invalid_argument);
  CHECK_THROWS_AS(elicit::state_key::from_text(std::string(43, '!')), std::invalid_argument);
}

TEST_CASE("key_ring: a key id is 1 to 32 of A-Z a-z 0-9 . _ -", "[state][keys]") {
  static_assert(elicit::key_ring::valid_id("2026-11"));
  CHECK(elicit::key_ring::valid_id("a"));
  CHECK(elicit::key_ring::valid_id("Key_1.v-2"));
  CHECK(elicit::key_ring::valid_id(std::string(32, 'k')));
  CHECK_FALSE(elicit::key_ring::valid_id(""));
  CHECK_FALSE(elicit::key_ring::valid_id(std::string(33, 'k')));
  CHECK_FALSE(elicit::key_ring::valid_id("key 1"));
  CHECK_FALSE(elicit::key_ring::valid_id("key/1"));
  CHECK_FALSE(elicit::key_ring::valid_id("cl\xc3\xa9"));
}

TEST_CASE("key_ring: the first key seals, seal_with switches, retire removes all but the sealing key",
          "[state][keys]") {
  elicit::key_ring ring;
  CHECK(ring.sealing_id().empty());
  CHECK_FALSE(ring.sealing_key());
  ring.add("old", test_support::mixed_secret(1)).add("new", test_support::mixed_secret(2));
  CHECK(ring.sealing_id() == "old");
  CHECK(ring.contains("new"));
  CHECK_FALSE(ring.contains("other"));
  CHECK_FALSE(ring.find("other"));
  REQUIRE(ring.find("new"));
  CHECK(ring.find("new")->id() == "new");
  CHECK(ring.find("new")->bytes() != ring.find("old")->bytes());  // derived per id and secret

  CHECK_THROWS_AS(ring.retire("old"), std::invalid_argument);  // it seals: switch first
  CHECK_THROWS_AS(ring.seal_with("other"), std::invalid_argument);
  ring.seal_with("new");
  CHECK(ring.sealing_id() == "new");
  CHECK(ring.sealing_key()->id() == "new");
  ring.retire("old");
  CHECK_FALSE(ring.contains("old"));
  CHECK_THROWS_AS(ring.retire("old"), std::invalid_argument);
}

TEST_CASE("key_ring: a refused key leaves the ring as it was", "[state][keys]") {
  elicit::key_ring ring;
  ring.add("k1", test_support::mixed_secret(1));
  CHECK_THROWS_AS(ring.add("k1", test_support::mixed_secret(2)), std::invalid_argument);  // an id already there
  CHECK_THROWS_AS(ring.add("bad id", test_support::mixed_secret(3)), std::invalid_argument);
  const std::array<unsigned char, 32> weak{};
  CHECK_THROWS_AS(ring.add("k2", weak), std::invalid_argument);
  CHECK_FALSE(ring.contains("k2"));
  CHECK_FALSE(ring.contains("bad id"));
  CHECK(ring.sealing_id() == "k1");
  const auto k1 = ring.find("k1");
  REQUIRE(k1);
  elicit::key_ring same;
  same.add("k1", test_support::mixed_secret(1));
  CHECK(same.find("k1")->bytes() == k1->bytes());  // the same secret and id: the same key, unchanged
}

TEST_CASE("key_ring: a copy is the ring at one instant, replace_with swaps in another's keys", "[state][keys]") {
  elicit::key_ring ring;
  ring.add("a", test_support::mixed_secret(1));
  const elicit::key_ring copy = ring;
  ring.add("b", test_support::mixed_secret(2)).seal_with("b");
  CHECK_FALSE(copy.contains("b"));
  CHECK(copy.sealing_id() == "a");
  elicit::key_ring other;
  other.add("c", test_support::mixed_secret(3));
  ring.replace_with(other);
  CHECK(ring.sealing_id() == "c");
  CHECK_FALSE(ring.contains("a"));
  CHECK_FALSE(ring.contains("b"));
}

}  // namespace unit_state_key_ring
