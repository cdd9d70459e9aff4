// Numbers written at compile time: the shortest text that reads back to the same value.
#include <elicit/detail/json_text.hpp>
#include <elicit/detail/number_text.hpp>

#include <catch2/catch.hpp>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <random>
#include <string>
#include <string_view>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_detail_number_text {

namespace {

struct string_sink {
  std::string text;
  void put(char c) { text.push_back(c); }
  void put(std::string_view t) { text.append(t); }
};

std::string written(double v) {
  string_sink s;
  elicit::detail::write_double(s, v);
  return s.text;
}

// The significant digits of a number's text: no sign, point, exponent or outer zeros.
std::string significant(std::string_view text) {
  std::string digits;
  for (char c : text.substr(0, text.find_first_of("eE"))) {
    if (c >= '0' && c <= '9') digits.push_back(c);
  }
  digits.erase(0, digits.find_first_not_of('0'));
  digits.erase(digits.find_last_not_of('0') + 1);
  return digits;
}

constexpr std::size_t constant_length(double v) {
  elicit::detail::length_counter c;
  elicit::detail::write_double(c, v);
  return c.size;
}

}  // namespace

TEST_CASE("doubles are written as the shortest text that reads back to them") {
  CHECK(written(95.5) == "95.5");
  CHECK(written(0.1) == "0.1");
  CHECK(written(100.0) == "100");
  CHECK(written(-0.0) == "0");
  CHECK(written(-2.5) == "-2.5");
  CHECK(written(1e21) == "1e+21");
  CHECK(written(1e20) == "100000000000000000000");
  CHECK(written(1e-7) == "1e-7");
  CHECK(written(0.000001) == "0.000001");
  CHECK(written(5e-324) == "5e-324");
  CHECK(written(1.7976931348623157e308) == "1.7976931348623157e+308");
  CHECK(written(0.30000000000000004) == "0.30000000000000004");
  CHECK(written(9007199254740993.0) == "9007199254740992");
}

TEST_CASE("random doubles round-trip with no more digits than std::to_chars uses") {
  std::mt19937_64 random(20261129);
  for (int i = 0; i < 200000; ++i) {
    double v = std::bit_cast<double>(random());
    if (i % 2 == 0) v = static_cast<double>(random() % 1000000) / static_cast<double>(1 + random() % 1000);
    if (!std::isfinite(v)) continue;
    const std::string text = written(v);
    INFO(text);
    REQUIRE(std::strtod(text.c_str(), nullptr) == v);
    char shortest[64];
    const auto end = std::to_chars(shortest, shortest + sizeof shortest, v, std::chars_format::scientific).ptr;
    REQUIRE(significant(text) == significant(std::string_view(shortest, end)));
  }
}

TEST_CASE("integers of every width are written exactly") {
  string_sink s;
  elicit::detail::write_number(s, elicit::detail::number{std::int64_t{-9223372036854775807 - 1}});
  s.put(' ');
  elicit::detail::write_number(s, elicit::detail::number{std::uint64_t{18446744073709551615u}});
  CHECK(s.text == "-9223372036854775808 18446744073709551615");
  // Two digits at a time: every count of digits, both parities, with zeros inside, against
  // std::to_chars.
  std::uint64_t v = 0;
  for (int digits = 1; digits <= 20; ++digits) {
    for (const std::uint64_t n : {v, v + 1, v + 9, v * 10 + 9, v * 10 + 10, v * 10 + 99, v * 10 + 100}) {
      string_sink out;
      elicit::detail::write_unsigned(out, n);
      char expected[24];
      CHECK(out.text == std::string_view(expected, std::to_chars(expected, expected + sizeof expected, n).ptr));
    }
    v = v * 10 + 1;
  }
  for (std::uint64_t n = 0; n < 1000; ++n) {
    string_sink out;
    elicit::detail::write_unsigned(out, n);
    CHECK(out.text == std::to_string(n));
  }
}

TEST_CASE("numbers of different kinds compare exactly") {
  using elicit::detail::compare;
  using elicit::detail::number;
  CHECK(compare(number{1}, number{1.0}) == 0);
  CHECK(compare(number{0.5}, number{1}) < 0);
  CHECK(compare(number{-1}, number{std::uint64_t{0}}) < 0);
  CHECK(compare(number{std::uint64_t{18446744073709551615u}}, number{std::int64_t{1}}) > 0);
  CHECK(compare(number{9007199254740993}, number{9007199254740992.0}) > 0);  // no rounding
  CHECK(compare(number{-0.5}, number{0}) < 0);
  CHECK(compare(number{1e300}, number{std::uint64_t{18446744073709551615u}}) > 0);
}

TEST_CASE("writing happens at compile time") {
  STATIC_REQUIRE(constant_length(95.5) == 4);
  STATIC_REQUIRE(constant_length(5e-324) == 6);
}

}  // namespace unit_detail_number_text
