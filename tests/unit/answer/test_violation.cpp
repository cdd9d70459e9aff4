// elicit::violation_list: one buffer of text, handed out as views; copies that own their text.
#include "../../../samples/forms.hpp"

#include <elicit/elicit.hpp>

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_answer_violation {

namespace {

const char* const invalid_address =
    R"({"action":"accept","content":{"street":"","postcode":"SW1A 1AAAA","country_code":"XX"}})";

elicit::violation_list three() {
  elicit::violation_list list;
  list.push_back(elicit::violation{"/a", "minimum", "A must be at least 1; got 0."});
  list.push_back(elicit::violation_view{"/b/2", "enum", "B must be one of \"x\", \"y\"; got the text \"z\"."});
  list.push_back(elicit::violation{"", "json", std::string(300, 'm')});  // longer than the room first made
  return list;
}

}  // namespace

TEST_CASE("a violation list hands out views of what was added, in order") {
  const elicit::violation_list list = three();
  REQUIRE(list.size() == 3);
  CHECK(list.total() == 3);
  CHECK(list[0].pointer == "/a");
  CHECK(list[0].keyword == "minimum");
  CHECK(list[0].message == "A must be at least 1; got 0.");
  CHECK(list[1].pointer == "/b/2");
  CHECK(list[1].message == "B must be one of \"x\", \"y\"; got the text \"z\".");
  CHECK(list[2].pointer.empty());
  CHECK(list[2].message == std::string(300, 'm'));
  CHECK_THROWS_AS(list[3], std::out_of_range);

  std::vector<std::string> keywords;
  for (const elicit::violation_view v : list) keywords.emplace_back(v.keyword);
  CHECK(keywords == std::vector<std::string>{"minimum", "enum", "json"});
  CHECK(std::distance(list.begin(), list.end()) == 3);
  CHECK((list.begin() + 2)->keyword == "json");
  CHECK(list.begin()[1].pointer == "/b/2");
  CHECK(std::find_if(list.begin(), list.end(), [](auto v) { return v.keyword == "enum"; }) == list.begin() + 1);
}

TEST_CASE("a violation converted to elicit::violation owns its text and outlives its list") {
  elicit::violation kept;
  std::vector<elicit::violation> all;
  {
    const elicit::violation_list list = three();
    kept = list[1];
    all = list.items();
  }
  CHECK(kept == elicit::violation{"/b/2", "enum", "B must be one of \"x\", \"y\"; got the text \"z\"."});
  REQUIRE(all.size() == 3);
  CHECK(all[0] == elicit::violation{"/a", "minimum", "A must be at least 1; got 0."});
  CHECK(all[2].message.size() == 300);

  // Decoded and kept past the response (a temporary here): an rvalue list gives owned copies,
  // so that `auto` does not keep a view of a list that is gone.
  const auto first = elicit::decode<shipping::DeliveryAddress>(invalid_address).violations()[0];
  static_assert(std::is_same_v<decltype(first), const elicit::violation>);
  CHECK(first.pointer == "/city");
  CHECK(first.keyword == "required");
  static_assert(std::is_same_v<decltype(three()[0]), elicit::violation>);
  const elicit::violation_list held = three();
  static_assert(std::is_same_v<decltype(held[0]), elicit::violation_view>);
}

TEST_CASE("a violation list keeps text of every short length byte for byte") {
  // The copy of a part is inline up to 16 bytes, in overlapping words: each length around the
  // word sizes, each byte distinct, with empty parts between them.
  elicit::violation_list list;
  std::vector<elicit::violation> kept;
  for (std::size_t n = 0; n <= 40; ++n) {
    std::string text(n, ' ');
    for (std::size_t i = 0; i < n; ++i) text[i] = static_cast<char>('a' + (i + n) % 26);
    kept.push_back({text, std::string(n % 3, 'k'), text + text});
    list.push_back(kept.back());
  }
  REQUIRE(list.size() == kept.size());
  for (std::size_t i = 0; i < kept.size(); ++i) CHECK(list[i] == kept[i]);
}

TEST_CASE("a copied or moved violation list views its own text") {
  elicit::violation_list original = three();
  const elicit::violation_list copy = original;
  CHECK(copy == original);
  original = elicit::violation_list();  // the original's text is gone; the copy's is its own
  CHECK(copy[0].message == "A must be at least 1; got 0.");
  CHECK(copy.size() == 3);

  elicit::violation_list moved = elicit::violation_list(copy);
  const elicit::violation_list target = std::move(moved);
  CHECK(target == copy);
  CHECK(target[2].message.size() == 300);

  elicit::violation_list assigned;
  assigned = copy;
  CHECK(assigned == copy);
  CHECK_FALSE(assigned == elicit::violation_list());
}

TEST_CASE("a violation list keeps up to its limit, counts the rest and sums them up once") {
  elicit::violation_list list(2);
  for (int i = 0; i < 5; ++i) list.push_back(elicit::violation{"/n", "minimum", "N is too small."});
  list.omit();
  CHECK(list.full());
  CHECK(list.size() == 2);
  CHECK(list.total() == 6);
  list.summarize();
  list.summarize();
  REQUIRE(list.size() == 3);
  CHECK(list[2].keyword == "maxViolations");
  CHECK(list[2].pointer.empty());
  CHECK(list[2].message == "4 more violations were not listed.");
  CHECK(fmt::format("{}", list[2]) == "(answer): 4 more violations were not listed. (maxViolations)");
  CHECK(fmt::format("{}", list) ==
        "/n: N is too small. (minimum); /n: N is too small. (minimum); "
        "(answer): 4 more violations were not listed. (maxViolations)");
}

TEST_CASE("a decoded answer's violations read the same as views, owned copies and printed") {
  const auto r = elicit::decode<shipping::DeliveryAddress>(invalid_address);
  const elicit::violation_list& list = r.violations();
  REQUIRE(list.size() == 3);
  const std::vector<elicit::violation> owned = list.items();
  for (std::size_t i = 0; i < list.size(); ++i) {
    CHECK(list[i] == elicit::violation_view(owned[i]));
    CHECK(fmt::format("{}", list[i]) == fmt::format("{}", owned[i]));
  }
  CHECK(list[1].pointer == "/postcode");
  CHECK(list[1].keyword == "maxLength");
  CHECK(list[2].pointer == "/country_code");
  CHECK(list[2].keyword == "enum");
}

TEST_CASE("a violation's JSON Pointer escapes a wire name's ~ and / wherever they fall") {
  // Every length around the eight-byte steps of the check, the special byte at each place.
  for (std::size_t n = 1; n <= 20; ++n) {
    for (std::size_t at = 0; at < n; ++at) {
      for (const char special : {'~', '/'}) {
        std::string name(n, 'a');
        name[at] = special;
        CHECK(elicit::detail::needs_escaping(name));
        std::string_view plain(name);
        CHECK_FALSE(elicit::detail::needs_escaping(plain.substr(0, at)));
        CHECK_FALSE(elicit::detail::needs_escaping(plain.substr(at + 1)));
      }
    }
  }
  using odd = elicit::single<"size/weight~kg", int, elicit::range<1, 5>>;
  const auto r = elicit::decode<odd>(R"({"action":"accept","content":{"size/weight~kg":9}})");
  REQUIRE(r.violations().size() == 1);
  CHECK(r.violations()[0].pointer == "/size~1weight~0kg");
  CHECK(r.violations()[0].keyword == "maximum");
}

TEST_CASE("a violation list grows past the room it made first, keeping every violation whole") {
  elicit::violation_list list(elicit::violation_list::unlimited, 2);
  std::vector<elicit::violation> added;
  for (int i = 0; i < 50; ++i) {
    added.push_back({"/items/" + std::to_string(i), i % 2 == 0 ? "enum" : "maxLength",
                     std::string(static_cast<std::size_t>(i * 7), static_cast<char>('a' + i % 26))});
    list.push_back(added.back());
  }
  REQUIRE(list.size() == 50);
  CHECK(list.items() == added);
  const elicit::violation_list copy = list;
  CHECK(copy.items() == added);
  CHECK(copy[49].message.size() == 343);
}

TEST_CASE("a violation list takes a view of its own violations, however often it grows meanwhile") {
  elicit::violation_list list(elicit::violation_list::unlimited, 1);
  list.push_back(elicit::violation{"/first", "enum", std::string(90, 'x')});
  for (int i = 0; i < 40; ++i) list.push_back(list[static_cast<std::size_t>(i)]);
  REQUIRE(list.size() == 41);
  for (const elicit::violation_view v : list)
    CHECK(v == elicit::violation_view("/first", "enum", std::string(90, 'x')));
}

TEST_CASE("a violation view compares with an owned violation, never views a temporary, and an empty one is added") {
  static_assert(!std::is_constructible_v<elicit::violation_view, elicit::violation&&>);
  static_assert(std::is_constructible_v<elicit::violation_view, const elicit::violation&>);
  const elicit::violation_list list = three();
  const elicit::violation owned{"/a", "minimum", "A must be at least 1; got 0."};
  CHECK(list[0] == owned);
  CHECK(owned == list[0]);
  CHECK(list[1] != owned);
  CHECK(std::find(list.begin(), list.end(), owned) == list.begin());
  CHECK(std::make_reverse_iterator(list.end())->keyword == "json");

  elicit::violation_list empty_parts;
  empty_parts.push_back(elicit::violation_view{});
  REQUIRE(empty_parts.size() == 1);
  CHECK(empty_parts[0] == elicit::violation_view{});
}

TEST_CASE("a violation list expecting more violations than memory can hold makes a bounded room") {
  elicit::violation_list list(elicit::violation_list::unlimited, elicit::violation_list::unlimited);
  list.push_back(elicit::violation{"/a", "minimum", "A must be at least 1; got 0."});
  REQUIRE(list.size() == 1);
  CHECK(list[0].keyword == "minimum");
}

TEST_CASE("violation_list: a text's JSON cost is counted the same eight bytes at a time as byte by byte") {
  // Every byte value, at every offset of a word and past the last whole word, among plain ones.
  for (int b = 0; b < 256; ++b) {
    for (std::size_t length = 1; length <= 19; ++length) {
      for (std::size_t at = 0; at < length; ++at) {
        std::string text(length, 'a');
        text[at] = static_cast<char>(b);
        INFO("byte " << b << " at " << at << " of " << length);
        REQUIRE(elicit::detail::json_escaped_size(text) == elicit::detail::json_escaped_size_of_bytes(text));
      }
    }
  }
  // At least what nlohmann::json::dump() writes for ASCII, quotes left out (a bound: \n is 2
  // bytes there, DEL 1), and exactly it for text with no control character.
  std::string ascii, printable;
  for (int b = 1; b < 128; ++b) ascii += static_cast<char>(b);
  for (int b = 0x20; b < 0x7F; ++b) printable += static_cast<char>(b);
  CHECK(elicit::detail::json_escaped_size(ascii) >= nlohmann::json(ascii).dump().size() - 2);
  CHECK(elicit::detail::json_escaped_size(printable) == nlohmann::json(printable).dump().size() - 2);
}

}  // namespace unit_answer_violation
