// <elicit/form/formats.hpp>: the format types' conversions, and a date and an instant written back as
// their answers are, the same text decoding reads.
#include <elicit/answer/decode.hpp>
#include <elicit/form/formats.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <string>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_form_formats {

namespace {

struct When {
  std::chrono::year_month_day day;
  std::chrono::sys_seconds at;
};

}  // namespace

TEST_CASE("formats: email and uri read as the text they hold") {
  const elicit::email e = "ada@example.org";
  const std::string& text = e;
  CHECK(text == "ada@example.org");
  CHECK(e == std::string_view("ada@example.org"));
  CHECK(elicit::uri("https://example.org/").size() == 20);
}

TEST_CASE("date_text and date_time_text: the answer's own text, padded, in UTC") {
  using namespace std::chrono;
  CHECK(elicit::date_text(year{2026} / December / 4) == "2026-12-04");
  CHECK(elicit::date_text(year{987} / January / 9) == "0987-01-09");
  CHECK(elicit::date_time_text(sys_days{year{2026} / December / 4} + hours{16} + minutes{6} + seconds{5}) ==
        "2026-12-04T16:06:05Z");
  CHECK(elicit::date_time_text(sys_seconds{}) == "1970-01-01T00:00:00Z");
}

TEST_CASE("date_text and date_time_text: what decoding reads back to the same value") {
  const auto decoded =
      elicit::decode_content<When>(nlohmann::json::parse(R"({"day":"2024-02-29","at":"2024-02-29T23:59:58+01:00"})"));
  REQUIRE(decoded.has_value());
  CHECK(elicit::date_text(decoded.value().day) == "2024-02-29");
  CHECK(elicit::date_time_text(decoded.value().at) == "2024-02-29T22:59:58Z");
  const auto again = elicit::decode_content<When>(
      {{"day", elicit::date_text(decoded.value().day)}, {"at", elicit::date_time_text(decoded.value().at)}});
  REQUIRE(again.has_value());
  CHECK(again.value().day == decoded.value().day);
  CHECK(again.value().at == decoded.value().at);
}

}  // namespace unit_form_formats
