// Reloading the key file while other threads seal and open with the ring, as an instance does
// on SIGHUP during a live rotation: the file goes through the three phases again and again, with
// a bad file between phases. No seal fails, a state opens unless its key left the ring, and a
// bad file changes nothing. CI runs this under ThreadSanitizer with test_state_concurrency.cpp.
//
// Catch2 is not thread-safe: the threads count what went wrong, the main thread asserts it.
#include "../support/mixed_secret.hpp"

#include <elicit/state/key_file.hpp>
#include <elicit/state/state.hpp>

#include <catch2/catch.hpp>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_state_key_file_concurrency {

namespace {

struct Voucher {
  std::string code;
  int cents;
};

const elicit::state_binding here{"shop", "alice", "tools/call", "redeem", elicit::digest_of(nlohmann::json{})};

std::string key_line(int generation) {
  std::string line = "key g";
  line += std::to_string(generation);
  line += ' ';
  line +=
      elicit::state_key::from_bytes(test_support::mixed_secret(static_cast<std::uint64_t>(500 + generation))).to_text();
  line += '\n';
  return line;
}

std::string seal_line(int generation) {
  std::string line = "seal g";
  line += std::to_string(generation);
  line += '\n';
  return line;
}

void write_file(const std::filesystem::path& path, const std::string& text) {
  const auto fresh = path.string() + ".new";
  {
    std::ofstream out(fresh, std::ios::binary);
    out << text;
  }
  std::filesystem::rename(fresh, path);
}

}  // namespace

TEST_CASE("the key file reloads while other threads seal and open", "[key_file][rotation]") {
  char pattern[] = "/tmp/elicit-reload-XXXXXX";
  REQUIRE(mkdtemp(pattern) != nullptr);
  const std::filesystem::path dir = pattern, path = dir / "keys";
  write_file(path, key_line(0) + seal_line(0));
  elicit::key_ring ring = elicit::read_key_file(path).ring;

  constexpr int workers = 3, rotations = 24;
  std::atomic<bool> done{false};
  std::atomic<long> seals{0}, opens{0}, seal_failures{0}, wrong_refusals{0};
  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w)
    threads.emplace_back([&, w] {
      std::string code = "V-";
      code += std::to_string(w);
      while (!done.load()) {
        try {
          const std::string token = elicit::seal(Voucher{code, w}, ring, here);
          seals.fetch_add(1);
          const auto opened = elicit::open<Voucher>(token, ring, here);
          if (opened) opens.fetch_add(1);
          // The only way a fresh state fails: its key was retired in between (phase 3 ran).
          else if (opened.error() != elicit::state_error::unknown_key) wrong_refusals.fetch_add(1);
        } catch (...) {
          seal_failures.fetch_add(1);
        }
      }
    });

  int bad_files_kept = 0, rotated = 0;
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  for (int g = 1; g <= rotations && std::chrono::steady_clock::now() < give_up; ++g) {
    write_file(path, key_line(g - 1) + key_line(g) + seal_line(g - 1));  // 1. add
    (void)elicit::reload_key_file(ring, path);
    write_file(path, key_line(g - 1) + key_line(g) + "seal nobody\n");  // a bad file between phases
    try {
      (void)elicit::reload_key_file(ring, path);
    } catch (const elicit::key_file_error&) {
      bad_files_kept += ring.sealing_id() == seal_line(g - 1).substr(5, seal_line(g - 1).size() - 6) ? 1 : 0;
    }
    write_file(path, key_line(g - 1) + key_line(g) + seal_line(g));  // 2. switch
    (void)elicit::reload_key_file(ring, path);
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    write_file(path, key_line(g) + seal_line(g));  // 3. retire
    (void)elicit::reload_key_file(ring, path);
    ++rotated;
  }
  done.store(true);
  for (auto& t : threads) t.join();
  std::filesystem::remove_all(dir);

  INFO(rotated << " rotations, " << seals.load() << " seals, " << opens.load() << " opened");
  CHECK(seal_failures.load() == 0);
  CHECK(wrong_refusals.load() == 0);
  CHECK(rotated > 0);
  CHECK(bad_files_kept == rotated);
  CHECK(seals.load() > 0);
  CHECK(opens.load() > 0);
}

}  // namespace unit_state_key_file_concurrency
