// The key file (<elicit/state/key_file.hpp>): a good file gives its ring; every kind of bad file is
// refused whole, naming the line and never a secret, and a reload with it keeps the ring in use;
// a rotation in three phases, by editing the file and reloading, fails no state.
#include "../support/mixed_secret.hpp"

#include <elicit/state/key_file.hpp>
#include <elicit/state/state.hpp>

#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_state_key_file {

using elicit::state_error;
using namespace std::chrono_literals;

namespace {

struct Progress {
  std::string order_id;
  int step;
};

const elicit::state_binding here{"shipping", "alice", "tools/call", "book", elicit::digest_of(nlohmann::json{})};

std::string secret(std::uint64_t seed) {
  return elicit::state_key::from_bytes(test_support::mixed_secret(seed)).to_text();
}

// A directory of the test's own, removed when it goes.
struct temp_dir {
  std::filesystem::path path;
  temp_dir() {
    char pattern[] = "/tmp/elicit-keys-XXXXXX";
    REQUIRE(mkdtemp(pattern) != nullptr);
    path = pattern;
  }
  ~temp_dir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  // Writes `text` to `name`, as an operator would: a new file renamed over the old one.
  [[nodiscard]] std::filesystem::path write(const std::string& name, const std::string& text) const {
    const auto target = path / name, fresh = path / (name + ".new");
    {
      std::ofstream out(fresh, std::ios::binary);
      out << text;
    }
    std::filesystem::rename(fresh, target);
    return target;
  }
};

// What parse_key_file says of `text`: empty when it takes it.
std::string refusal(const std::string& text) {
  try {
    (void)elicit::parse_key_file(text, "keys.txt");
  } catch (const elicit::key_file_error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a key file gives the ring it describes", "[key_file]") {
  const std::string text = "# the shipping server's keys\n\n  key 2026-11 " + secret(1) + "\r\n\tkey\t2026-12\t" +
                           secret(2) + "  \n# seals from December\nseal 2026-12\n";
  const elicit::loaded_key_file file = elicit::parse_key_file(text);
  CHECK(file.ids == std::vector<std::string>{"2026-11", "2026-12"});
  CHECK(file.sealing == "2026-12");
  CHECK(file.ring.sealing_id() == "2026-12");
  CHECK(file.ring.contains("2026-11"));
  CHECK(file.summary() == "2 keys (2026-11, 2026-12), sealing with 2026-12");

  // The same keys as a ring built by hand: each opens the other's states.
  elicit::key_ring by_hand;
  by_hand.add("2026-11", elicit::state_key::from_text(secret(1)));
  const std::string token = elicit::seal(Progress{"A-17", 2}, by_hand, here);
  const auto opened = elicit::open<Progress>(token, file.ring, here);
  REQUIRE(opened);
  CHECK(opened->step == 2);

  // The last line needs no newline; one key is "1 key".
  const auto one = elicit::parse_key_file("key only " + secret(3) + "\nseal only");
  CHECK(one.summary() == "1 key (only), sealing with only");
}

TEST_CASE("a bad key file is refused whole, naming the line and never a secret", "[key_file]") {
  const std::string good = "key a " + secret(1) + "\n", seal = "seal a\n";
  REQUIRE(refusal(good + seal).empty());
  struct bad_file {
    std::string text, says;
  };
  const std::vector<bad_file> cases{
      {"", "no key in it"},
      {"# nothing\n\n", "no key in it"},
      {good, "no `seal ID` line"},
      {good + "seal b\n", "line 2: seal names \"b\", which is not a key of the file"},
      {good + seal + "seal a\n", "line 3: a second seal line (the first is line 2)"},
      {good + "key a " + secret(2) + "\n" + seal, "line 2: the key id \"a\" is there twice"},
      {good + "key b " + secret(1) + "\n" + seal, "line 2: the key \"b\" has the same secret as \"a\""},
      {"key a " + std::string(43, 'A') + "\n" + seal, "line 1: elicit::state_key: the secret is a shorter block"},
      {"key a c2hvcnQ\n" + seal, "line 1: elicit::state_key: expected 32 bytes as base64url"},
      {"key a " + secret(1) + "=\n" + seal, "line 1: elicit::state_key: expected 32 bytes"},
      {"key bad/id " + secret(1) + "\n" + seal, "line 1: a key id is 1 to 32 of"},
      {"key " + std::string(33, 'x') + " " + secret(1) + "\n" + seal, "line 1: a key id is 1 to 32 of"},
      {"key a\n" + seal, "line 1: a key line is `key ID SECRET`, three words"},
      {good + "key b " + secret(2) + " extra\n" + seal, "line 2: a key line is `key ID SECRET`"},
      {good + "seal a b\n", "line 2: a seal line is `seal ID`, two words"},
      {good + "sael a\n", "line 2: unknown entry \"sael\""},
      {good + "seal " + secret(2) + "\n", "line 2: seal names no valid key id"},
      {good + secret(2) + "\n" + seal, "line 2: unknown entry a word"},               // a secret alone on its line
      {good + "key " + secret(2) + " b\n" + seal, "line 2: a key id is 1 to 32 of"},  // columns swapped
      {good + seal + std::string(64 * 1024, '#'), "more than 64 KiB"},
  };
  for (const bad_file& c : cases) {
    INFO(c.text.substr(0, 200));
    const std::string why = refusal(c.text);
    CHECK_THAT(why, Catch::StartsWith("elicit key file keys.txt") && Catch::Contains(c.says));
    for (std::uint64_t seed = 1; seed <= 3; ++seed) CHECK_THAT(why, !Catch::Contains(secret(seed).substr(0, 12)));
  }
  std::string many;
  for (int i = 0; i <= 64; ++i)
    many += "key k" + std::to_string(i) + " " + secret(100 + static_cast<unsigned>(i)) + "\n";
  CHECK_THAT(refusal(many + "seal k0\n"), Catch::Contains("line 65: more than 64 keys"));
}

TEST_CASE("a key file that cannot be read is refused, naming the file", "[key_file]") {
  const temp_dir dir;
  const auto missing = dir.path / "missing";
  CHECK_THROWS_WITH(elicit::read_key_file(missing),
                    Catch::Contains(missing.string()) && Catch::Contains("cannot read it"));
  CHECK_THROWS_WITH(elicit::read_key_file(dir.path), Catch::Contains("not a regular file"));
  const auto big = dir.write("big", "key a " + secret(1) + "\nseal a\n" + std::string(70'000, '#'));
  CHECK_THROWS_WITH(elicit::read_key_file(big), Catch::Contains("more than 64 KiB"));
  const auto good = dir.write("keys", "key a " + secret(1) + "\nseal a\n");
  CHECK(elicit::read_key_file(good).sealing == "a");
  if (geteuid() != 0) {  // root reads any file
    REQUIRE(chmod(good.c_str(), 0) == 0);
    CHECK_THROWS_WITH(elicit::read_key_file(good), Catch::Contains("cannot open it: Permission denied"));
  }
}

TEST_CASE("keys rotate in three phases by editing the file and reloading, a bad file keeps the ring", "[key_file]") {
  const temp_dir dir;
  const std::string old_key = "key 2026-11 " + secret(1) + "\n", new_key = "key 2026-12 " + secret(2) + "\n";
  const auto path = dir.write("keys", old_key + "seal 2026-11\n");
  elicit::key_ring ring = elicit::read_key_file(path).ring;   // at start
  elicit::key_ring other = elicit::read_key_file(path).ring;  // another instance, a phase behind
  const std::string before = elicit::seal(Progress{"A-1", 1}, ring, here);

  // A bad file: refused, the ring as it was.
  (void)dir.write("keys", old_key + new_key + "seal 2026-13\n");
  CHECK_THROWS_AS(elicit::reload_key_file(ring, path), elicit::key_file_error);
  CHECK(ring.sealing_id() == "2026-11");
  CHECK_FALSE(ring.contains("2026-12"));
  CHECK(elicit::open<Progress>(before, ring, here));

  // 1. add: the new key opens, the old one still seals.
  (void)dir.write("keys", old_key + new_key + "seal 2026-11\n");
  auto phase = elicit::reload_key_file(ring, path);
  CHECK(phase.warnings.empty());
  CHECK(ring.sealing_id() == "2026-11");
  CHECK(ring.contains("2026-12"));
  (void)elicit::reload_key_file(other, path);

  // 2. switch: new states are sealed with the new key; the instance not yet switched opens them.
  (void)dir.write("keys", old_key + new_key + "seal 2026-12\n");
  phase = elicit::reload_key_file(ring, path);
  CHECK(phase.warnings.empty());
  CHECK(ring.sealing_id() == "2026-12");
  const std::string after = elicit::seal(Progress{"A-2", 2}, ring, here);
  CHECK(elicit::open<Progress>(after, other, here));
  CHECK(elicit::open<Progress>(before, ring, here));
  (void)elicit::reload_key_file(other, path);

  // 3. retire, once the longest time to live has passed: the old key's states no longer open.
  (void)dir.write("keys", new_key + "seal 2026-12\n");
  phase = elicit::reload_key_file(ring, path);
  CHECK(phase.warnings.empty());
  CHECK(phase.summary() == "1 key (2026-12), sealing with 2026-12");
  CHECK_FALSE(ring.contains("2026-11"));
  CHECK(elicit::open<Progress>(before, ring, here).error() == state_error::unknown_key);
  CHECK(elicit::open<Progress>(after, ring, here));

  // A secret changed under an id in use: refused (its states would look tampered), ring kept.
  (void)dir.write("keys", "key 2026-12 " + secret(3) + "\nseal 2026-12\n");
  CHECK_THROWS_WITH(elicit::reload_key_file(ring, path),
                    Catch::Contains("the key \"2026-12\" has another secret than the one in use"));
  CHECK(elicit::open<Progress>(after, ring, here));

  // Phases skipped: it loads (an operator may mean it, a leaked key say), and warns of each.
  (void)dir.write("keys", "key 2027-01 " + secret(4) + "\nseal 2027-01\n");
  phase = elicit::reload_key_file(ring, path);
  REQUIRE(phase.warnings.size() == 2);
  CHECK_THAT(phase.warnings[0], Catch::Contains("seals with \"2027-01\", which was not in the ring before"));
  CHECK_THAT(phase.warnings[1], Catch::Contains("drops \"2026-12\", which sealed until now"));
  CHECK_THAT(phase.summary(), Catch::Contains("; warning: it seals with"));
  CHECK(ring.sealing_id() == "2027-01");
  CHECK(elicit::open<Progress>(after, ring, here).error() == state_error::unknown_key);
}

}  // namespace unit_state_key_file
