// <elicit/server/tool_result.hpp>: a tool's result as a CallToolResult, from each type a tool
// may return.
#include <elicit/server/tool_result.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_tool_result {

using nlohmann::ordered_json;

namespace hooked {
struct receipt {
  int number;
};
elicit::tool_result to_tool_result(const receipt& r) { return {"receipt " + std::to_string(r.number), r.number < 0}; }
}  // namespace hooked

TEST_CASE("tool_result: one text block, and isError when it is an error") {
  CHECK(elicit::tool_result{"done"}.to_json().dump() == R"({"content":[{"type":"text","text":"done"}]})");
  CHECK(elicit::tool_result::error("no").to_json().dump() ==
        R"({"content":[{"type":"text","text":"no"}],"isError":true})");
}

TEST_CASE("call_tool_result: a string, a CallToolResult as it is, a type with to_tool_result beside it") {
  CHECK(elicit::call_tool_result(std::string("hi")).dump() == R"({"content":[{"type":"text","text":"hi"}]})");
  const ordered_json own{{"content", ordered_json::array()}, {"structuredContent", {{"n", 1}}}};
  CHECK(elicit::call_tool_result(own).dump() == own.dump());
  CHECK(elicit::call_tool_result(hooked::receipt{7}).dump() == R"({"content":[{"type":"text","text":"receipt 7"}]})");
  CHECK(elicit::call_tool_result(hooked::receipt{-1})["isError"] == true);
  CHECK_THROWS_WITH(elicit::call_tool_result(ordered_json("text")),
                    "elicit::call_tool_result: a CallToolResult is a JSON object");
}

}  // namespace unit_server_tool_result
