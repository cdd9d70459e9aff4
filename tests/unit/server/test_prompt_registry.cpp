// <elicit/server/prompt_registry.hpp>: prompts added, listed in order with their arguments,
// found by name and by era; a prompt that asks told from a plain one; names and arguments
// checked; a plain prompt's handler answered through its GetPromptResult.
#include "../support/server_fixture.hpp"

#include <elicit/server/prompt_registry.hpp>

#include <catch2/catch.hpp>

#include <string>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_prompt_registry {

using namespace server_fixture;

namespace {

elicit::prompt_result greet(const elicit::tool_call& call) {
  return {"A greeting", "Say hello to " + call.arguments().value("who", std::string("everyone")) + "."};
}

}  // namespace

TEST_CASE("prompt_registry: lists the prompts in the order added, each with its arguments") {
  elicit::prompt_registry prompts;
  // As the header shows it: a PromptArgument list written inline.
  prompts.add({"greeting", "A greeting.", {{{"name", "who"}, {"required", true}}}}, greet);
  prompts.add({"plan", "Plan a dinner, asking for how many."}, plan);
  const ordered_json list = prompts.list();
  REQUIRE(list.size() == 2);
  CHECK(list[0].dump() ==
        R"({"name":"greeting","description":"A greeting.","arguments":[{"name":"who","required":true}]})");
  CHECK(list[1].dump() == R"({"name":"plan","description":"Plan a dinner, asking for how many.","arguments":[]})");
  CHECK(prompts.find("plan")->asks());
  CHECK_FALSE(prompts.find("greeting")->asks());
  CHECK(prompts.find("nope") == nullptr);
  CHECK_FALSE(prompts.empty());
  CHECK(elicit::prompt_registry().empty());
}

TEST_CASE("prompt_registry: a prompt served in one era is listed and found there alone") {
  elicit::prompt_registry prompts;
  prompts.add({"old", "2025-11-25 only.", {}, elicit::era::v2025_11_25}, greet);
  prompts.add({"both", "Both."}, greet);
  prompts.add({"new", "2026-07-28 only.", {}, elicit::era::v2026_07_28}, plan);
  const auto names = [&](elicit::era e) {
    std::string out;
    for (const auto& p : prompts.list(e)) out += p["name"].get<std::string>() + " ";
    return out;
  };
  CHECK(names(elicit::era::v2025_11_25) == "old both ");
  CHECK(names(elicit::era::v2026_07_28) == "both new ");
  CHECK(prompts.list().size() == 3);
  CHECK(prompts.find("old")->spec.arguments.dump() == "[]");  // `{}` is null: taken for no arguments
  CHECK(prompts.find("new", elicit::era::v2025_11_25) == nullptr);
  CHECK(prompts.find("new", elicit::era::v2026_07_28) == prompts.find("new"));
  CHECK(prompts.find("both", elicit::era::v2025_11_25) != nullptr);
  CHECK(prompts.serves(elicit::era::v2025_11_25));

  elicit::prompt_registry one_era;
  one_era.add({"new", "2026-07-28 only.", {}, elicit::era::v2026_07_28}, greet);
  CHECK_FALSE(one_era.serves(elicit::era::v2025_11_25));
  CHECK(one_era.serves(elicit::era::v2026_07_28));
  CHECK_FALSE(elicit::prompt_registry().serves(elicit::era::v2026_07_28));
}

TEST_CASE("prompt_registry: a plain prompt's handler answers with its GetPromptResult") {
  elicit::prompt_registry prompts;
  prompts.add({"greeting", "A greeting."}, greet);
  prompts.add({"raw", "A GetPromptResult as it is."}, [](const elicit::tool_call&) {
    return ordered_json{{"messages", ordered_json::array()}};
  });
  prompts.add({"broken", "Not a GetPromptResult."}, [](const elicit::tool_call&) { return ordered_json(3); });
  const json params{{"name", "greeting"}, {"arguments", {{"who", "Ada"}}}};
  const elicit::tool_call call(elicit::era::v2025_11_25, params, "p", {});
  CHECK(
      prompts.find("greeting")->answer(call).dump() ==
      R"({"description":"A greeting","messages":[{"role":"user","content":{"type":"text","text":"Say hello to Ada."}}]})");
  CHECK(prompts.find("raw")->answer(call).dump() == R"({"messages":[]})");
  CHECK_THROWS_WITH(prompts.find("broken")->answer(call),
                    "elicit::get_prompt_result: a GetPromptResult is a JSON object");
}

TEST_CASE("prompt_registry: refuses an empty name, a name twice, and arguments that are no PromptArgument list") {
  elicit::prompt_registry prompts;
  CHECK_THROWS_WITH(prompts.add({"", "d"}, greet), "elicit::prompt_registry::add: a prompt needs a name");
  prompts.add({"a", "d"}, greet);
  CHECK_THROWS_WITH(prompts.add({"a", "d"}, plan),
                    "elicit::prompt_registry::add: a prompt named \"a\" was added already");
  const std::string no_list =
      "elicit::prompt_registry::add: \"b\"'s arguments must be a list of PromptArguments, [{\"name\":...},...]";
  CHECK_THROWS_WITH(prompts.add({"b", "d", {{"name", "who"}}}, greet), no_list);             // an object
  CHECK_THROWS_WITH(prompts.add({"b", "d", ordered_json::array({"who"})}, greet), no_list);  // not an object
  CHECK_THROWS_WITH(prompts.add({"b", "d", ordered_json::array({{{"name", 1}}})}, greet), no_list);
  CHECK_THROWS_WITH(prompts.add({"b", "d", ordered_json::array({{{"title", "Who"}}})}, greet), no_list);
  CHECK(prompts.list().size() == 1);
}

}  // namespace unit_server_prompt_registry
