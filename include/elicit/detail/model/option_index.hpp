// Finding a select field's option by its wire value in a time that does not grow with the
// number of options: a hash index built once over the options (form<F>::choices(), or the first
// answer to a large compile-time enum) and read by every answer. Building it also finds the
// first repeated wire value, in linear time.
#pragma once

#include <elicit/detail/enum_reflection.hpp>
#include <elicit/detail/same_text.hpp>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <vector>

namespace elicit::detail {

class option_index {
 public:
  static constexpr std::size_t none = static_cast<std::size_t>(-1);

  option_index() = default;
  // Indexes `count` options at `options`, which must outlive it and not move. A wire value
  // offered twice is found at its first option. Throws std::bad_alloc.
  option_index(const enum_entry* options, std::size_t count) : options_(options), count_(count) {
    // Keyed per index (the clock and where it lies), so that options chosen to collide, as an
    // attacker who names some of them might, collide only by chance.
    seed_ = mix(static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
                static_cast<std::uint64_t>(reinterpret_cast<std::uintptr_t>(this)));
    std::size_t room = 16;
    while (room < 2 * count) room *= 2;  // at most half full: a probe meets an empty slot soon
    slots_.assign(room, slot{});
    mask_ = room - 1;
    for (std::size_t i = 0; i < count; ++i) {
      const std::uint64_t h = hash(options[i].wire);
      std::size_t at = h & mask_;
      for (;; at = (at + 1) & mask_) {
        const slot s = slots_[at];
        if (s.position == 0) {
          slots_[at] = {static_cast<std::uint32_t>(h >> 32), static_cast<std::uint32_t>(i + 1)};
          break;
        }
        if (s.tag == static_cast<std::uint32_t>(h >> 32) && same_text(options[s.position - 1].wire, options[i].wire)) {
          if (repeated_ == none) repeated_ = i;
          break;
        }
      }
    }
  }

  // Whether an index can be built over this many options (positions are kept in 32 bits).
  static constexpr bool fits(std::size_t count) noexcept { return count < 0xFFFF'FFFFu; }

  // The first option whose wire value is `wire`, or nullptr.
  [[nodiscard]] const enum_entry* find(std::string_view wire) const noexcept {
    if (slots_.empty()) return nullptr;
    const std::uint64_t h = hash(wire);
    const auto tag = static_cast<std::uint32_t>(h >> 32);
    for (std::size_t at = h & mask_;; at = (at + 1) & mask_) {
      const slot s = slots_[at];
      if (s.position == 0) return nullptr;
      if (s.tag == tag && same_text(options_[s.position - 1].wire, wire)) return &options_[s.position - 1];
    }
  }
  // The first option whose wire value an earlier one has, or `none`.
  [[nodiscard]] std::size_t repeated() const noexcept { return repeated_; }
  // Whether this indexes exactly these options.
  [[nodiscard]] bool indexes(const enum_entry* options, std::size_t count) const noexcept {
    return options == options_ && count == count_;
  }

 private:
  struct slot {
    std::uint32_t tag = 0;       // the hash's high half: most mismatches never read the option
    std::uint32_t position = 0;  // the option's, plus one; 0: empty
  };

  static constexpr std::uint64_t mix(std::uint64_t x) noexcept {
    x ^= x >> 32;
    x *= 0xd6e8feb86659fd93ull;
    x ^= x >> 32;
    return x;
  }
  // Eight bytes at a time: wire values are short, and some are long.
  [[nodiscard]] std::uint64_t hash(std::string_view text) const noexcept {
    std::uint64_t h = seed_ ^ (text.size() * 0x9e3779b97f4a7c15ull);
    std::size_t i = 0;
    for (; i + 8 <= text.size(); i += 8) {
      std::uint64_t word = 0;
      std::memcpy(&word, text.data() + i, 8);
      h = (h ^ word) * 0xbf58476d1ce4e5b9ull;
      h ^= h >> 29;
    }
    std::uint64_t tail = 0;
    if (i < text.size()) std::memcpy(&tail, text.data() + i, text.size() - i);
    return mix(h ^ tail);
  }

  std::vector<slot> slots_;
  std::size_t mask_ = 0;
  std::uint64_t seed_ = 0;
  const enum_entry* options_ = nullptr;
  std::size_t count_ = 0;
  std::size_t repeated_ = none;
};

}  // namespace elicit::detail
