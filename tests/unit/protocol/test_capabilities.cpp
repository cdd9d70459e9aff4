// What a client declares (<elicit/protocol/capabilities.hpp>): the elicitation modes of a
// ClientCapabilities object, from initialize (2025-11-25) or from each request's _meta
// (2026-07-28), and whether a request declares a capability; anything else declares nothing.
#include <elicit/protocol/capabilities.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_protocol_capabilities {

using nlohmann::json;

namespace {
json request_with(json caps) { return {{"_meta", {{"io.modelcontextprotocol/clientCapabilities", std::move(caps)}}}}; }
}  // namespace

TEST_CASE("capabilities: {} is form mode, form and url as declared, anything else declares none") {
  const auto modes = [](const char* caps) { return elicit::modes_of(json::parse(caps)); };
  CHECK(modes(R"({"elicitation":{}})").form);
  CHECK_FALSE(modes(R"({"elicitation":{}})").url);
  CHECK(modes(R"({"elicitation":{"url":{}}})").url);
  CHECK_FALSE(modes(R"({"elicitation":{"url":{}}})").form);
  CHECK(modes(R"({"elicitation":{"form":{},"url":{}}})").form);
  CHECK(modes(R"({"elicitation":{"form":{},"url":{}}})").url);
  for (const char* none : {R"({})", R"({"sampling":{}})", R"({"elicitation":true})", R"([])", "null"}) {
    CAPTURE(none);
    CHECK_FALSE(modes(none).form);
    CHECK_FALSE(modes(none).url);
  }
}

TEST_CASE("capabilities: 2025-11-25 from initialize's params") {
  CHECK(elicit::modes_from_initialize({{"capabilities", {{"elicitation", json::object()}}}}).form);
  CHECK_FALSE(elicit::modes_from_initialize(json::object()).form);
  CHECK_FALSE(elicit::modes_from_initialize(json::array()).form);
}

TEST_CASE("capabilities: 2026-07-28 from each request's _meta, never from anywhere else") {
  CHECK(elicit::modes_from_request(request_with({{"elicitation", {{"form", json::object()}}}})).form);
  CHECK_FALSE(elicit::modes_from_request(request_with({{"elicitation", {{"url", json::object()}}}})).form);
  CHECK(elicit::capabilities_from_request(request_with(json::object())) != nullptr);
  CHECK(elicit::capabilities_from_request(request_with("sampling")) == nullptr);
  CHECK(elicit::capabilities_from_request(json{{"_meta", nullptr}}) == nullptr);
  CHECK(elicit::capabilities_from_request(json{{"capabilities", {{"elicitation", json::object()}}}}) == nullptr);
  CHECK(elicit::capabilities_from_request(json(3)) == nullptr);
  CHECK(elicit::declares_capability(request_with({{"sampling", json::object()}}), "sampling"));
  CHECK_FALSE(elicit::declares_capability(request_with({{"sampling", true}}), "sampling"));  // not an object
  CHECK_FALSE(elicit::declares_capability(request_with({{"sampling", json::object()}}), "roots"));
  CHECK_FALSE(elicit::declares_capability(json::object(), "sampling"));
}

}  // namespace unit_protocol_capabilities
