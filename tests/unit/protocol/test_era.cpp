// <elicit/protocol/era.hpp>: which era a request speaks, the -32022 error, and what a 2026-07-28 result
// carries. The wire shapes are validated against the spec's schema by validate_messages.py
// (emit_messages.cpp); here their rules.
#include <elicit/protocol/era.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_protocol_era {

using nlohmann::json;
using nlohmann::ordered_json;

namespace {

json with_version(json version) {
  return {{"name", "t"}, {"_meta", {{elicit::meta_key::protocol_version, std::move(version)}}}};
}

}  // namespace

TEST_CASE("era_of: a request is of 2026-07-28 when its _meta names a version") {
  CHECK(elicit::era_of(json::object()) == elicit::era::v2025_11_25);
  CHECK(elicit::era_of(json{{"_meta", {{"progressToken", 1}}}}) == elicit::era::v2025_11_25);
  CHECK(elicit::era_of(json{{"_meta", "not an object"}}) == elicit::era::v2025_11_25);
  CHECK(elicit::era_of(json(nullptr)) == elicit::era::v2025_11_25);
  CHECK(elicit::era_of(with_version("2026-07-28")) == elicit::era::v2026_07_28);
  CHECK(elicit::era_of(with_version("2030-01-01")) == elicit::era::v2026_07_28);
  CHECK(elicit::era_of(with_version(5)) == elicit::era::v2026_07_28);
  CHECK(elicit::requested_version(with_version("2026-07-28")) == "2026-07-28");
  CHECK_FALSE(elicit::requested_version(with_version(5)));
  CHECK(elicit::version_of(elicit::era::v2025_11_25) == "2025-11-25");
  CHECK(elicit::version_of(elicit::era::v2026_07_28) == elicit::supported_versions.front());
}

TEST_CASE("unsupported_version: -32022 with the versions served, for a version not served") {
  CHECK_FALSE(elicit::unsupported_version(1, json::object()));
  CHECK_FALSE(elicit::unsupported_version(1, with_version("2026-07-28")));
  const auto refused = elicit::unsupported_version(1, with_version("2025-06-18"));
  REQUIRE(refused);
  CHECK((*refused)["id"] == 1);
  CHECK((*refused)["error"]["code"] == -32022);
  CHECK((*refused)["error"]["data"]["requested"] == "2025-06-18");
  CHECK((*refused)["error"]["data"]["supported"] == ordered_json::array({"2026-07-28", "2025-11-25"}));
  CHECK((*elicit::unsupported_version(nullptr, with_version(5)))["error"]["data"]["requested"] == "5");
}

TEST_CASE("malformed_meta: what every 2026-07-28 request carries in _meta, each gap in its words") {
  json ok = {
      {"_meta",
       {{elicit::meta_key::protocol_version, "2026-07-28"}, {elicit::meta_key::client_capabilities, json::object()}}}};
  CHECK_FALSE(elicit::malformed_meta(ok));
  CHECK(*elicit::malformed_meta(json::object()) ==
        "Invalid params: no _meta; a request carries io.modelcontextprotocol/protocolVersion and "
        "io.modelcontextprotocol/clientCapabilities in it");
  CHECK(*elicit::malformed_meta(json::array()) == *elicit::malformed_meta(json{{"_meta", 1}}));
  json version = ok;
  version["_meta"][elicit::meta_key::protocol_version] = nullptr;
  CHECK(*elicit::malformed_meta(version) ==
        "Invalid params: _meta has no io.modelcontextprotocol/protocolVersion string");
  json caps = ok;
  caps["_meta"][elicit::meta_key::client_capabilities] = "all";
  CHECK(*elicit::malformed_meta(caps) ==
        "Invalid params: _meta has no io.modelcontextprotocol/clientCapabilities object");
}

TEST_CASE("finish_result: resultType, caching hints on a cacheable result, server info in _meta") {
  const ordered_json info{{"name", "s"}, {"version", "1"}};
  const ordered_json list = elicit::finish_result("tools/list", {{"tools", ordered_json::array()}}, info);
  CHECK(list["resultType"] == "complete");
  CHECK(list["ttlMs"] == 0);
  CHECK(list["cacheScope"] == "public");
  CHECK(list["_meta"][elicit::meta_key::server_info] == info);
  for (const char* method :
       {"prompts/list", "resources/list", "resources/templates/list", "server/discover", "resources/read"})
    CHECK(elicit::finish_result(method, ordered_json::object(), info).contains("ttlMs"));
  const ordered_json call = elicit::finish_result("tools/call", {{"content", ordered_json::array()}}, info);
  CHECK_FALSE(call.contains("ttlMs"));
  CHECK_FALSE(call.contains("cacheScope"));
  // What the result says itself is kept: an InputRequiredResult's type, a private list, _meta.
  const ordered_json asked =
      elicit::finish_result("tools/call", {{"resultType", "input_required"}, {"_meta", {{"k", 1}}}}, info);
  CHECK(asked["resultType"] == "input_required");
  CHECK(asked["_meta"]["k"] == 1);
  CHECK(elicit::finish_result("tools/list", {{"cacheScope", "private"}, {"ttlMs", 60000}}, info)["cacheScope"] ==
        "private");
  CHECK_THROWS_AS(elicit::finish_result("tools/list", ordered_json::array(), info), std::invalid_argument);
}

}  // namespace unit_protocol_era
