// <elicit/server/prompt_result.hpp>: a prompt's result as a GetPromptResult, from each type a
// prompt may return.
#include <elicit/server/prompt_result.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_prompt_result {

using nlohmann::ordered_json;

namespace hooked {
struct brief {
  std::string topic;
};
elicit::prompt_result to_prompt_result(const brief& b) { return {"A brief", "Write a brief on " + b.topic + "."}; }

// A hook may give a whole GetPromptResult: two messages, the second the assistant's.
struct dialogue {
  int turns;
};
ordered_json to_prompt_result(const dialogue& d) {
  ordered_json messages = ordered_json::array();
  for (int i = 0; i < d.turns; ++i)
    messages.push_back({{"role", i % 2 == 0 ? "user" : "assistant"},
                        {"content", {{"type", "text"}, {"text", "turn " + std::to_string(i)}}}});
  return {{"messages", messages}};
}
}  // namespace hooked

TEST_CASE("prompt_result: one user message of text, with its description when there is one") {
  CHECK(elicit::prompt_result{"A greeting", "Say hello."}.to_json().dump() ==
        R"({"description":"A greeting","messages":[{"role":"user","content":{"type":"text","text":"Say hello."}}]})");
  // The description is optional in GetPromptResult: an empty one is left out, not sent empty.
  CHECK(elicit::prompt_result{"", "Say hello."}.to_json().dump() ==
        R"({"messages":[{"role":"user","content":{"type":"text","text":"Say hello."}}]})");
}

TEST_CASE("get_prompt_result: a prompt_result, a GetPromptResult as it is, a type with to_prompt_result beside it") {
  CHECK(elicit::get_prompt_result(elicit::prompt_result{"d", "t"}).dump() ==
        elicit::prompt_result{"d", "t"}.to_json().dump());
  const ordered_json own{
      {"description", "An image"},
      {"messages",
       ordered_json::array(
           {{{"role", "user"}, {"content", {{"type", "image"}, {"data", "AAAA"}, {"mimeType", "image/png"}}}}})}};
  CHECK(elicit::get_prompt_result(own).dump() == own.dump());
  CHECK(
      elicit::get_prompt_result(hooked::brief{"tides"}).dump() ==
      R"({"description":"A brief","messages":[{"role":"user","content":{"type":"text","text":"Write a brief on tides."}}]})");
  const ordered_json two = elicit::get_prompt_result(hooked::dialogue{2});
  REQUIRE(two["messages"].size() == 2);
  CHECK(two["messages"][1]["role"] == "assistant");
  CHECK_THROWS_WITH(elicit::get_prompt_result(ordered_json::array()),
                    "elicit::get_prompt_result: a GetPromptResult is a JSON object");
  // A hook's JSON is checked as any JSON is.
  CHECK(elicit::get_prompt_result(hooked::dialogue{0}).dump() == R"({"messages":[]})");
}

}  // namespace unit_server_prompt_result
