// <elicit/server/tool_call.hpp>: what a handler reads of its call, in each era.
#include <elicit/server/tool_call.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_tool_call {

using nlohmann::json;

TEST_CASE("tool_call: the arguments (empty when absent or not an object), the principal, the era") {
  const json params{{"name", "t"}, {"arguments", {{"a", 1}}}};
  const elicit::tool_call c(elicit::era::v2025_11_25, params, "alice", {.form = true, .url = false});
  CHECK(c.protocol() == elicit::era::v2025_11_25);
  CHECK(c.arguments() == json{{"a", 1}});
  CHECK(c.principal() == "alice");
  CHECK(&c.params() == &params);
  const json none{{"name", "t"}};
  CHECK(elicit::tool_call(elicit::era::v2025_11_25, none, "p", {}).arguments() == json::object());
  const json wrong{{"name", "t"}, {"arguments", 3}};
  CHECK(elicit::tool_call(elicit::era::v2025_11_25, wrong, "p", {}).arguments() == json::object());
}

TEST_CASE("tool_call: the modes of initialize at 2025-11-25, of the request's own _meta at 2026-07-28") {
  const json plain{{"name", "t"}};
  CHECK(elicit::tool_call(elicit::era::v2025_11_25, plain, "p", {.form = true, .url = false}).modes().form);
  const json declared{{"name", "t"},
                      {"_meta",
                       {{elicit::meta_key::protocol_version, "2026-07-28"},
                        {elicit::meta_key::client_capabilities, {{"elicitation", {{"form", json::object()}}}}}}}};
  // The session's modes are not the request's: at 2026-07-28 nothing is inferred from before.
  CHECK(elicit::tool_call(elicit::era::v2026_07_28, declared, "p", {}).modes().form);
  CHECK_FALSE(elicit::tool_call(elicit::era::v2026_07_28, plain, "p", {.form = true, .url = false}).modes().form);
}

}  // namespace unit_server_tool_call
