// The one shape of the "a value, or why not" types (result.hpp): decoded, response, ask_result,
// opened and parsed_json each say whether there is a value the same way, throw the same
// exception from value(), and answer error() with an optional of why, engaged exactly when
// there is no value.
#include "../support/mixed_secret.hpp"

#include <elicit/elicit.hpp>
#include <elicit/state/state.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_answer_result {

namespace {

struct Parcel {
  elicit::field<std::string, elicit::title<"Postcode">, elicit::length<5, 8>> postcode;
  int count;
};

static_assert(elicit::value_or_error<elicit::decoded<Parcel>>);
static_assert(elicit::value_or_error<elicit::response<Parcel>>);
static_assert(elicit::value_or_error<elicit::ask_result<Parcel>>);
static_assert(elicit::value_or_error<elicit::opened<Parcel>>);
static_assert(elicit::value_or_error<elicit::parsed_json>);
static_assert(std::is_base_of_v<std::logic_error, elicit::bad_answer_access>);

// What every result type promises, checked on one without a value and one with.
template <class R>
void check_without_value(const R& r) {
  CHECK_FALSE(r.has_value());
  CHECK_FALSE(static_cast<bool>(r));
  CHECK(r.error().has_value());
  CHECK_THROWS_AS(r.value(), elicit::bad_answer_access);
  CHECK_THROWS_AS(*r, elicit::bad_answer_access);
}
template <class R>
void check_with_value(const R& r) {
  CHECK(r.has_value());
  CHECK(static_cast<bool>(r));
  CHECK_FALSE(r.error().has_value());
  CHECK_NOTHROW(r.value());
}

const char* const valid = R"({"action":"accept","content":{"postcode":"AB1 2CD","count":2}})";
const char* const invalid = R"({"action":"accept","content":{"postcode":"A","count":2}})";

}  // namespace

TEST_CASE("every result type has the one shape: has_value, value() throwing bad_answer_access, error()", "[result]") {
  SECTION("response: error() is the outcome when there is no valid answer") {
    check_with_value(elicit::decode<Parcel>(valid));
    const auto bad = elicit::decode<Parcel>(invalid);
    check_without_value(bad);
    CHECK(bad.error() == elicit::outcome::invalid);
    CHECK(elicit::decode<Parcel>(R"({"action":"decline"})").error() == elicit::outcome::declined);
    CHECK(elicit::decode<Parcel>(R"({"action":"cancel"})").error() == elicit::outcome::cancelled);
    CHECK(elicit::decode<Parcel>("not json").error() == elicit::outcome::invalid);
  }
  SECTION("decoded: error() is outcome::invalid, the violations say what") {
    check_with_value(elicit::decode_content<Parcel>(nlohmann::json{{"postcode", "AB1 2CD"}, {"count", 1}}));
    const auto bad = elicit::decode_content<Parcel>(nlohmann::json{{"postcode", "A"}});
    check_without_value(bad);
    CHECK(bad.error() == elicit::outcome::invalid);
    CHECK(bad.violations().size() == 2);
  }
  SECTION("ask_result: error() is the outcome; the client's JSON-RPC error is client_error()") {
    const auto error = nlohmann::json{{"code", -32603}, {"message", "no display"}};
    const auto answer = elicit::decode<Parcel>(R"({"action":"cancel"})");
    const elicit::ask_result<Parcel> failed(answer, 1, std::optional<nlohmann::json>(error));
    check_without_value(failed);
    CHECK(failed.error() == elicit::outcome::error);
    CHECK(failed.client_error() == error);
    const elicit::ask_result<Parcel> stopped(answer, 1, elicit::stop_reason::timed_out);
    check_without_value(stopped);
    CHECK(stopped.error() == elicit::outcome::timed_out);
    CHECK_FALSE(stopped.client_error());
    const elicit::ask_result<Parcel> accepted(elicit::decode<Parcel>(valid), 2);
    check_with_value(accepted);
    CHECK_FALSE(accepted.client_error());
  }
  SECTION("opened: error() is the state_error") {
    elicit::key_ring ring;
    ring.add("k1", elicit::state_key::from_bytes(test_support::mixed_secret(7)));
    const elicit::state_binding here{"shipping", "alice", "tools/call", "book", ""};
    const std::string token = elicit::seal(Parcel{{"AB1 2CD"}, 3}, ring, here);
    check_with_value(elicit::open<Parcel>(token, ring, here));
    const auto foreign = elicit::open<Parcel>(token, ring, {"shipping", "bob", "tools/call", "book", ""});
    check_without_value(foreign);
    CHECK(foreign.error() == elicit::state_error::wrong_principal);
  }
  SECTION("parsed_json: error() is the violation, and value() throws bad_answer_access too") {
    check_with_value(elicit::parse_json(R"({"a":1})"));
    const auto refused = elicit::parse_json("[[[1]]]", {.max_bytes = 100, .max_depth = 2});
    check_without_value(refused);
    CHECK(refused.error()->keyword == "maxDepth");
    CHECK_THROWS_WITH(refused.value(), Catch::Contains("elicit: the JSON text was refused"));
  }
}

// The names folded into one per concept stay, deprecated, for one release.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
static_assert(std::is_same_v<elicit::offer, elicit::choice_option>);
static_assert(std::is_same_v<elicit::option_info, elicit::option_view>);
static_assert(elicit::offerable<std::string> && elicit::option_like<std::pair<std::string, std::string>>);
#pragma GCC diagnostic pop

}  // namespace unit_answer_result
