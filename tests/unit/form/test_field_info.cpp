// The public description of a form's fields (<elicit/form/field_info.hpp>): elicit::fields<F>()
// for a declared form, and form<F>::fields() for one refined at run time.
#include "../../../samples/forms.hpp"
#include "../support/forms.hpp"
#include "../support/runtime_forms.hpp"

#include <elicit/elicit.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_form_field_info {

using nlohmann::json;

TEST_CASE("form: elicit::fields<F>() describes each field", "[form]") {
  const auto address = elicit::fields<shipping::DeliveryAddress>();
  REQUIRE(address.size() == 4);
  CHECK(address[0].name() == "street");
  CHECK(address[2].name() == "postcode");
  CHECK(address[3].name() == "country_code");
  CHECK(address[0].type() == elicit::value_type::string);
  CHECK(address[3].type() == elicit::value_type::single_select);
  for (const elicit::field_info& f : address) {
    CHECK(f.required());
    CHECK_FALSE(f.optional());
    CHECK_FALSE(f.default_value().has_value());
    CHECK_FALSE(f.runtime_options());
  }
  CHECK(address[2].title() == "Postcode");
  CHECK(address[2].description() == "UK format, e.g. SW1A 1AA");
  CHECK(address[2].min_length() == std::optional<std::size_t>(5));
  CHECK(address[2].max_length() == std::optional<std::size_t>(8));
  CHECK(address[2].constraints() == "at least 5 characters; at most 8 characters");
  CHECK(address[0].constraints() == "at most 120 characters");
  CHECK(address[0].options().empty());
  const auto countries = address[3].options();
  REQUIRE(countries.size() == 5);
  CHECK(countries[0].value == "GB");
  CHECK(countries[0].title == "United Kingdom");
  CHECK(countries[4].value == "NL");
  CHECK(address[3].titled());
  CHECK_FALSE(address[3].legacy_enum_names());
  CHECK(address[3].constraints() ==
        "one of `GB` (United Kingdom), `IE` (Ireland), `FR` (France), `DE` (Germany), `NL` (Netherlands)");

  const auto shipment = elicit::fields<shipping::ShipmentOptions>();
  CHECK(shipment[1].optional());
  CHECK_FALSE(shipment[1].required());
  REQUIRE(shipment[1].minimum().has_value());
  CHECK(*shipment[1].minimum() == json(0));
  CHECK(shipment[1].minimum()->is_number_integer());
  CHECK(*shipment[1].maximum() == json(5000));
  CHECK(shipment[1].constraints() == ">= 0; <= 5000");
  CHECK(shipment[2].default_value() == std::optional<json>(false));
  CHECK_FALSE(shipment[2].required());
  CHECK(shipment[2].type() == elicit::value_type::boolean);

  const auto annotated = elicit::fields<forms::Annotated>();
  CHECK(annotated[0].label() == "Full name");
  CHECK(annotated[1].default_value() == std::optional<json>(30));
  CHECK(annotated[2].minimum()->is_number_float());
  CHECK(*annotated[2].minimum() == json(0.5));
  CHECK(*annotated[2].default_value() == json(95.5));
  CHECK(annotated[2].constraints() == ">= 0.5; <= 99.5");
  CHECK(annotated[3].name() == "post-code");
  CHECK(annotated[3].member() == "postcode");
  CHECK(annotated[3].label() == "post-code");
  CHECK(annotated[5].type() == elicit::value_type::integer);
  CHECK(*annotated[5].minimum() == json(0));   // std::uint8_t
  CHECK(*annotated[5].maximum() == json(10));  // maximum<10>
  CHECK(annotated[6].constraints() == ">= -1e+300; <= 1e-7");
  CHECK(annotated[7].format() == elicit::format::email);
  CHECK(annotated[7].default_value() == std::optional<json>("user@example.com"));

  // A 64-bit bound stays an exact integer.
  const auto wide = elicit::fields<rt::Wide>();
  REQUIRE(wide[0].minimum().has_value());
  CHECK(wide[0].minimum()->is_number_integer());
  CHECK(wide[0].minimum()->get<std::int64_t>() == -9007199254740993LL);
  CHECK(wide[0].maximum()->get<std::int64_t>() == 9007199254740993LL);
  CHECK(wide[0].constraints() == ">= -9007199254740993; <= 9007199254740993");
  const auto narrow = elicit::fields<forms::Narrow>();
  CHECK(*narrow[1].maximum() == json(255));
  CHECK(*narrow[6].minimum() == json(0));
  CHECK_FALSE(narrow[6].maximum().has_value());
  CHECK_FALSE(elicit::fields<forms::Plain>()[2].minimum().has_value());

  const auto choices = elicit::fields<forms::Choices>();
  CHECK(choices[0].type() == elicit::value_type::single_select);
  CHECK_FALSE(choices[0].titled());
  CHECK(choices[3].default_value() == std::optional<json>("high"));
  CHECK(choices[6].type() == elicit::value_type::multi_select);
  CHECK(choices[7].default_value() == std::optional<json>(json{"#0000FF"}));
  CHECK(choices[7].constraints() == "pick at least 1; one of `#FF0000` (Red), `#00FF00` (Green), `#0000FF` (Blue)");
  CHECK(choices[8].max_items() == std::optional<std::size_t>(2));
  CHECK(choices[8].constraints() == "pick at most 2; one of `urgent` (Urgent!), `high` (High), `normal`");
  CHECK(elicit::fields<forms::Legacy>()[0].legacy_enum_names());

  const auto dates = elicit::fields<forms::Plain>();
  CHECK(dates[6].format() == elicit::format::date);
  CHECK(dates[7].format() == elicit::format::date_time);
  CHECK(dates[6].type() == elicit::value_type::string);

  // Run-time choices: marked, with no options until a form gives them.
  const auto picks = elicit::fields<rt::Picks>();
  CHECK(picks[0].runtime_options());
  CHECK(picks[0].type() == elicit::value_type::single_select);
  CHECK(picks[0].options().empty());
  CHECK(picks[0].constraints() == "choices given at run time");
  CHECK(picks[1].type() == elicit::value_type::multi_select);
  CHECK(picks[2].constraints() == "pick at least 1; pick at most 3; choices given at run time");
}

TEST_CASE("form: form<F>::fields() describes the fields as refined", "[form]") {
  const auto p = rt::picks_titled();
  const auto fields = p.fields();
  REQUIRE(fields.size() == 3);
  CHECK(fields[0].runtime_options());
  CHECK(fields[0].titled());
  const auto one = fields[0].options();
  REQUIRE(one.size() == 2);
  CHECK(one[0].value == "r-17");
  CHECK(one[0].title == "elicit");
  CHECK(fields[0].constraints() == "one of `r-17` (elicit), `r-42` (glaze)");
  CHECK(fields[1].constraints() == "one of `bug` (Bug), `docs` (Docs), `perf`");
  CHECK(fields[2].constraints() == "pick at least 1; pick at most 3; one of `s` (Small), `m` (Medium), `l` (Large)");
  CHECK_FALSE(rt::picks_untitled().fields()[0].titled());

  const auto b = rt::booking();
  const auto booking = b.fields();
  CHECK(booking[1].description() == "6 seats are left");
  CHECK(*booking[1].maximum() == json(6));
  CHECK(booking[1].constraints() == ">= 1; <= 6");
  CHECK(booking[2].default_value() == std::optional<json>("ada@example.org"));
  CHECK_FALSE(booking[2].required());
  CHECK(booking[3].title() == "Anything else?");
  CHECK(booking[3].label() == "Anything else?");

  const auto defaults = rt::picks_defaults();
  const auto d = defaults.fields();
  CHECK(d[0].default_value() == std::optional<json>("green"));
  CHECK(d[2].default_value() == std::optional<json>(json{"m", "s"}));
  CHECK(d[2].min_items() == std::optional<std::size_t>(2));

  const auto kinds = rt::kinds_defaults();
  const auto k = kinds.fields();
  CHECK(k[1].default_value() == std::optional<json>(4));
  CHECK(k[2].default_value() == std::optional<json>(0.25));
  CHECK(k[4].default_value() == std::optional<json>("#00FF00"));
  CHECK(k[7].default_value() == std::optional<json>("2024-02-29"));
  CHECK(k[9].default_value() == std::optional<json>(json{"Blue", "Red"}));

  elicit::form<forms::Plain> plain;
  plain.minimum(&forms::Plain::big, std::int64_t{-9007199254740993});
  const auto big = plain.fields()[2].minimum();
  REQUIRE(big.has_value());
  CHECK(big->is_number_integer());
  CHECK(big->get<std::int64_t>() == -9007199254740993LL);
}

}  // namespace unit_form_field_info
