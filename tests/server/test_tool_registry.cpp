// <elicit/server/tool_registry.hpp>: tools added, listed in order, found by name; a tool that
// asks told from a plain one; names and schemas checked.
#include "fixture.hpp"

#include <elicit/server/tool_registry.hpp>

#include <catch2/catch.hpp>

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
