// The JSON-RPC errors of elicitation (<elicit/protocol/errors.hpp>): one message for a state that
// did not open, whatever the reason; a missing capability in each era's words, named by each
// sub-capability, refused when nothing is named; the -32602 of an invalid answer.
#include <elicit/elicit.hpp>
#include <elicit/protocol/errors.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <stdexcept>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_protocol_errors {

using nlohmann::json;

TEST_CASE("errors: a requestState that did not open gets the one -32602, whatever the id") {
  CHECK(elicit::invalid_state_error(7).dump() ==
        R"({"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"invalid or expired requestState"}})");
  CHECK(elicit::invalid_state_error("a")["error"].dump() == elicit::invalid_state_error(nullptr)["error"].dump());
}

TEST_CASE("errors: a missing capability, -32021 at 2026-07-28 and -32600 in words at 2025-11-25") {
  const json required = {{"elicitation", {{"form", json::object()}, {"url", json::object()}}},
                         {"sampling", json::object()}};
  const auto e26 = elicit::missing_capability_error(1, required);
  CHECK(e26["error"]["code"] == -32021);
  CHECK(e26["error"]["message"] == "Missing required client capability: elicitation.form, elicitation.url, sampling");
  CHECK(json::parse(e26["error"]["data"]["requiredCapabilities"].dump()) == required);
  const auto e25 = elicit::missing_capability_error_2025(1, {{"sampling", json::object()}});
  CHECK(e25["error"]["code"] == -32600);
  CHECK(e25["error"]["message"] ==
        "Invalid Request: this needs the client capability sampling, which the client did not declare in initialize");
  CHECK(e25["error"]["data"]["requiredCapabilities"].dump() == R"({"sampling":{}})");
}

TEST_CASE("errors: a capability error naming nothing, or not as objects, is refused") {
  CHECK_THROWS_AS(elicit::missing_capability_error(1, json::object()), std::invalid_argument);
  CHECK_THROWS_AS(elicit::missing_capability_error(1, json::array()), std::invalid_argument);
  CHECK_THROWS_AS(elicit::missing_capability_error(1, {{"sampling", true}}), std::invalid_argument);
  CHECK_THROWS_AS(elicit::missing_capability_error_2025(1, "sampling"), std::invalid_argument);
}

TEST_CASE("errors: an invalid answer's -32602 lists every violation, and names the question when given") {
  const elicit::violation_list list({elicit::violation{"/age", "maximum", "age must be at most 150; got 151."}});
  const auto e = elicit::invalid_params_error(9, list, "profile");
  CHECK(e["id"] == 9);
  CHECK(e["error"]["code"] == -32602);
  CHECK(e["error"]["data"]["inputKey"] == "profile");
  CHECK(e["error"]["data"]["violations"].dump() ==
        R"([{"pointer":"/age","keyword":"maximum","message":"age must be at most 150; got 151."}])");
  CHECK(e["error"]["message"].get<std::string>().find("age must be at most 150; got 151.") != std::string::npos);
  CHECK_FALSE(elicit::invalid_params_error(9, list)["error"]["data"].contains("inputKey"));
}

}  // namespace unit_protocol_errors
