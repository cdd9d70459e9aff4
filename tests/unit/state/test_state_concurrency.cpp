// Rotation while serving: threads seal and open with one key_ring while another thread rotates it
// in the three phases (add, seal_with, retire), as one instance of a server does during a live
// rotation. Every state sealed with a key still in the ring opens, a seal never finds the ring
// without a key, and nothing races: CI runs this executable under ThreadSanitizer (label tsan),
// which fails it on the first data race (TSAN_OPTIONS=halt_on_error=1). Bounded in rotations and
// in time, so that a slow machine makes fewer rotations rather than a failed test.
//
// Catch2 is not thread-safe: the threads record what went wrong, the main thread asserts it.
#include "../support/mixed_secret.hpp"

#include <elicit/state/state.hpp>

#include <catch2/catch.hpp>

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_state_state_concurrency {

using namespace std::chrono_literals;

namespace {

struct Progress {
  std::string order_id;
  int step;
};

const auto t0 = std::chrono::system_clock::time_point(std::chrono::seconds(1'800'000'000));
const elicit::state_binding here{"shipping", "alice", "tools/call", "book_shipment",
                                 elicit::digest_of(nlohmann::json{{"order", "A-17"}})};

std::array<unsigned char, 32> secret(std::uint64_t seed) { return test_support::mixed_secret(seed); }

// Appended, not "g" + std::string&&: GCC 12 at -O3 warns (-Wrestrict) on that.
std::string key_id(int generation) {
  std::string id = "g";
  id += std::to_string(generation);
  return id;
}

// The key id a token names in its clear header: version (1), type tag (8), id length (1), id.
std::string key_id_of(const std::string& token) {
  const auto bytes = elicit::detail::base64url_decode(token);
  if (!bytes || bytes->size() < 10 || bytes->size() < 10u + (*bytes)[9]) return "";
  return {reinterpret_cast<const char*>(bytes->data() + 10), (*bytes)[9]};
}

class failures {
 public:
  void add(std::string what) {
    const std::lock_guard lock(mutex_);
    if (list_.size() < 20) list_.push_back(std::move(what));
    ++count_;
  }
  [[nodiscard]] std::size_t count() const {
    const std::lock_guard lock(mutex_);
    return count_;
  }
  [[nodiscard]] std::string text() const {
    const std::lock_guard lock(mutex_);
    std::string out;
    for (const auto& f : list_) out += f + '\n';
    return out;
  }

 private:
  mutable std::mutex mutex_;
  std::vector<std::string> list_;
  std::size_t count_ = 0;
};

}  // namespace

TEST_CASE("the key ring rotates while other threads seal and open", "[state][rotation]") {
  constexpr int workers = 3, rotations = 64;
  const auto deadline = std::chrono::steady_clock::now() + 30s;

  elicit::key_ring ring;
  ring.add(key_id(0), secret(0));
  const std::string first = elicit::seal(Progress{"first", 0}, ring, here, 10min, t0);

  std::array<std::atomic<std::uint64_t>, workers> rounds{};  // seal-and-open rounds each worker has finished
  std::atomic<bool> stop{false};
  std::atomic<std::uint64_t> opened{0}, reopened{0}, copies{0};
  failures failed;

  const auto worker = [&](int w) {
    std::string previous;  // the state this worker sealed a round before: its key may be retired since
    for (std::uint64_t n = 0; !stop.load(); ++n) {
      try {
        const std::string order = std::to_string(w) + "-" + std::to_string(n);
        const std::string token = elicit::seal(Progress{order, w}, ring, here, 10min, t0);
        const auto o = elicit::open<Progress>(token, ring, here, {.now = t0});
        if (!o) failed.add("a state sealed with " + key_id_of(token) + " did not open: " + o.message());
        else if (o->order_id != order || o->step != w) failed.add("a state opened to another value");
        else opened.fetch_add(1);
        // The state of the round before: it opens, or its key was retired, and then for good.
        if (!previous.empty()) {
          const auto p = elicit::open<Progress>(previous, ring, here, {.now = t0});
          if (p) reopened.fetch_add(1);
          else if (p.error() != elicit::state_error::unknown_key || ring.contains(key_id_of(previous)))
            failed.add("a state sealed with " + key_id_of(previous) +
                       ", still in the ring, did not open: " + p.message());
        }
        previous = token;
        if (ring.sealing_id().empty()) failed.add("the ring had no key that seals");
        if (n % 16 == 0) {  // a copy of the ring, taken while it rotates, opens what the ring sealed
          const elicit::key_ring copy = ring;
          const auto c =
              elicit::open<Progress>(elicit::seal(Progress{order, w}, copy, here, 10min, t0), copy, here, {.now = t0});
          if (!c) failed.add("a state sealed and opened with a copy of the ring did not open: " + c.message());
          else copies.fetch_add(1);
        }
      } catch (const std::exception& e) {
        failed.add(std::string("threw: ") + e.what());
      }
      rounds[static_cast<std::size_t>(w)].fetch_add(1);
    }
  };

  int rotated = 0;
  const auto rotator = [&] {
    // Until every worker has finished the round it was in: a round that began before the switch
    // may seal with the old key, and it opens what it sealed before it ends.
    const auto wait_a_round = [&] {
      std::array<std::uint64_t, workers> seen{};
      for (std::size_t w = 0; w < workers; ++w) seen[w] = rounds[w].load();
      for (std::size_t w = 0; w < workers; ++w)
        while (rounds[w].load() <= seen[w] && std::chrono::steady_clock::now() < deadline)
          std::this_thread::sleep_for(100us);
    };
    for (int g = 1; g <= rotations && std::chrono::steady_clock::now() < deadline; ++g) {
      try {
        ring.add(key_id(g), secret(static_cast<std::uint64_t>(g)));  // 1. add: it opens, it does not seal yet
        wait_a_round();
        ring.seal_with(key_id(g));  // 2. switch
        wait_a_round();             // no state sealed with the old key is pending any more
        if (std::chrono::steady_clock::now() >= deadline) break;
        ring.retire(key_id(g - 1));  // 3. retire
        rotated = g;
      } catch (const std::exception& e) {
        failed.add(std::string("rotation threw: ") + e.what());
        break;
      }
    }
    stop.store(true);
  };

  std::vector<std::thread> threads;
  for (int w = 0; w < workers; ++w) threads.emplace_back(worker, w);
  std::thread rotating(rotator);
  rotating.join();
  for (auto& t : threads) t.join();

  INFO(failed.text());
  CHECK(failed.count() == 0);
  INFO("rotations " << rotated << ", opened " << opened.load() << ", reopened " << reopened.load() << ", copies "
                    << copies.load());
  CHECK(rotated >= 3);  // a rotation takes a few rounds of each worker: milliseconds, even under TSan
  CHECK(opened.load() >= static_cast<std::uint64_t>(rotated));
  CHECK(ring.sealing_id() == key_id(rotated));
  CHECK(ring.contains(key_id(rotated)));
  CHECK_FALSE(ring.contains(key_id(rotated - 1)));
  CHECK(elicit::open<Progress>(first, ring, here, {.now = t0}).error() == elicit::state_error::unknown_key);
}

}  // namespace unit_state_state_concurrency
