// <elicit/server/tool_registry.hpp>: tools added, listed in order, found by name; a tool that
// asks told from a plain one; names and schemas checked.
#include "../support/server_fixture.hpp"

#include <elicit/server/tool_registry.hpp>

#include <catch2/catch.hpp>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_tool_registry {

using namespace server_fixture;

TEST_CASE("tool_registry: lists the tools in the order added, each with its input schema") {
  served s;
  const ordered_json list = s.server.tools().list();
  REQUIRE(list.size() == 3);
  CHECK(list[0].dump() == R"({"name":"reserve","description":"Reserve a table.","inputSchema":{"type":"object"}})");
  CHECK(list[1]["name"] == "echo");
  CHECK(s.server.tools().find("reserve")->asks());
  CHECK_FALSE(s.server.tools().find("echo")->asks());
  CHECK(s.server.tools().find("nope") == nullptr);
}

TEST_CASE("tool_registry: refuses an empty name, a name twice, and an input schema that is no object schema") {
  elicit::tool_registry tools;
  const auto plain = [](const elicit::tool_call&) { return std::string("x"); };
  CHECK_THROWS_WITH(tools.add({"", "d"}, plain), "elicit::tool_registry::add: a tool needs a name");
  tools.add({"a", "d"}, plain);
  CHECK_THROWS_WITH(tools.add({"a", "d"}, plain), "elicit::tool_registry::add: a tool named \"a\" was added already");
  CHECK_THROWS_WITH(
      tools.add({"b", "d", {{"type", "string"}}}, plain),
      "elicit::tool_registry::add: \"b\"'s input schema must be an object schema, {\"type\":\"object\",...}");
  CHECK(tools.list().size() == 1);
}

TEST_CASE("tool_registry: a tool served in one era is listed and found there alone, its options kept") {
  elicit::tool_registry tools;
  const auto plain = [](const elicit::tool_call&) { return std::string("x"); };
  elicit::tool_options once;
  once.ask.max_attempts = 1;
  tools.add({"old", "d", {{"type", "object"}}, elicit::era::v2025_11_25}, plain);
  tools.add({"both", "d"}, reserve);
  tools.add({"new", "d", {{"type", "object"}}, elicit::era::v2026_07_28, once}, reserve);
  const auto names = [&](elicit::era e) {
    std::string out;
    for (const auto& t : tools.list(e)) out += t["name"].get<std::string>() + " ";
    return out;
  };
  CHECK(names(elicit::era::v2025_11_25) == "old both ");
  CHECK(names(elicit::era::v2026_07_28) == "both new ");
  CHECK(tools.list().size() == 3);
  CHECK(tools.find("old", elicit::era::v2026_07_28) == nullptr);
  CHECK(tools.find("old", elicit::era::v2025_11_25) == tools.find("old"));
  CHECK(tools.find("both", elicit::era::v2026_07_28) != nullptr);
  REQUIRE(tools.find("new")->spec.options.has_value());
  CHECK(tools.find("new")->spec.options->ask.max_attempts == 1);
  CHECK_FALSE(tools.find("both")->spec.options.has_value());

  elicit::tool_registry one_era;
  one_era.add({"old", "d", {{"type", "object"}}, elicit::era::v2025_11_25}, plain);
  CHECK(one_era.serves(elicit::era::v2025_11_25));
  CHECK_FALSE(one_era.serves(elicit::era::v2026_07_28));
}

}  // namespace unit_server_tool_registry
