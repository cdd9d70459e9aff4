// The 2026-07-28 driver of a tool written once (<elicit/state/tool_round.hpp>): tool_round, one
// request of the tool with its answers in a sealed requestState, and round_result, what the
// request gives: the tool's value or the next InputRequiredResult, never both. The tool and its
// script: support/tool_script.hpp (the cases both eras share: test_tool.cpp).
#include "../support/tool_script.hpp"

#include <elicit/state/replay_guard.hpp>
#include <elicit/state/tool_round.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_state_tool_round {

using namespace tool_script;

namespace {

std::vector<std::string> keys_of(const ordered_json& input_required) {
  std::vector<std::string> keys;
  for (const auto& item : input_required["inputRequests"].items()) keys.push_back(item.key());
  return keys;
}

const json slot_0930 = accept({{"slot", "s-0930"}});
const json signed_options = accept({{"country_code", "GB"}, {"signature_required", true}});

}  // namespace

TEST_CASE("round_result: a value or an InputRequiredResult, each read only when it is there", "[tool]") {
  elicit::round_result<std::string> done("booked");
  CHECK(done.done());
  CHECK(done.value() == "booked");
  CHECK(done.round() == 0);
  CHECK_THROWS_AS(done.input_required(), std::logic_error);

  const ordered_json ir = {{"resultType", "input_required"}, {"inputRequests", ordered_json::object()}};
  elicit::round_result<std::string> waiting(ir, 2);
  CHECK_FALSE(waiting.done());
  CHECK(waiting.round() == 2);
  CHECK(waiting.input_required() == ir);
  CHECK_THROWS_WITH(waiting.value(), Catch::Contains("still waits for answers"));
}

TEST_CASE("tool_round: the first call gives round 1 with its sealed state, the same for the same call", "[tool]") {
  const auto first = elicit::tool_round(book({}), first_call(), ring(), binding(), {});
  REQUIRE_FALSE(first.done());
  CHECK(first.round() == 1);
  const ordered_json& ir = first.input_required();
  CHECK(ir["resultType"] == "input_required");
  CHECK(ir["requestState"].is_string());
  REQUIRE(keys_of(ir).size() == 1);
  const auto again = elicit::tool_round(book({}), first_call(), ring(), binding(), {});
  CHECK(keys_of(again.input_required()) == keys_of(ir));  // a question's key depends on the question
}

TEST_CASE("tool: answers without a state answer the first round, with answers_without_state", "[tool]") {
  // What a client does that answers from the first round's questions alone (the conformance
  // suite's missing-input-response and ignore-extra-params): inputResponses, no requestState.
  elicit::memory_replay_guard guard;
  run_2026 client{[] { return book({}); }};
  client.options.replay = &guard;
  client.options.answers_without_state = true;
  const auto first = elicit::tool_round(book({}), first_call(), ring(), binding(), client.options);
  REQUIRE_FALSE(first.done());
  const std::vector<std::string> first_keys = keys_of(first.input_required());
  REQUIRE(first_keys.size() == 1);

  json stateless = first_call();
  stateless["inputResponses"] = {{first_keys[0], accept(good_address)}, {"not_asked", accept({{"x", 1}})}};
  SECTION("answered: the call goes on from the second round, and ends as with a state") {
    client.params = stateless;
    person p{{slot_0930, signed_options}};
    CHECK(client(p) == "Booked to London at s-0930, signed (1 attempts for the address)");
    CHECK(p.script.empty());
    REQUIRE_FALSE(client.rounds.empty());
    CHECK(keys_of(client.rounds.front()) != first_keys);
    // The same retry again: no state is opened, so none is spent (the replay store is not asked).
    client.params = stateless;
    person again{{slot_0930, signed_options}};
    CHECK(client(again) == "Booked to London at s-0930, signed (1 attempts for the address)");
  }
  SECTION("the first round's question unanswered: asked again") {
    stateless["inputResponses"].erase(first_keys[0]);
    const auto round = elicit::tool_round(book({}), stateless, ring(), binding(), client.options);
    REQUIRE_FALSE(round.done());
    CHECK(keys_of(round.input_required()) == first_keys);
  }
  SECTION("without the option: refused, as a retry without its state") {
    client.options.answers_without_state = false;
    CHECK_THROWS_MATCHES(elicit::tool_round(book({}), stateless, ring(), binding(), client.options), elicit::tool_error,
                         Catch::Predicate<elicit::tool_error>([](const elicit::tool_error& e) {
                           return e.failure() == elicit::tool_failure::invalid_state && e.code() == -32602;
                         }));
  }
}

TEST_CASE("tool: a retry's inputResponses that is no object, or a requestState that is no text, is invalid params",
          "[tool]") {
  const auto refused = [](json params, const char* words) {
    try {
      (void)elicit::tool_round(book({}), params, ring(), binding(), {});
      FAIL("taken");
    } catch (const elicit::tool_error& e) {
      CHECK(e.failure() == elicit::tool_failure::invalid_params);
      CHECK(e.code() == -32602);
      CHECK(e.client_message() == std::string("Invalid params: ") + words);
    }
  };
  json params = first_call();
  params["inputResponses"] = nullptr;  // not a first call either
  refused(params, "inputResponses must be an object");
  params["inputResponses"] = json::array();
  refused(params, "inputResponses must be an object");
  params = first_call();
  params["requestState"] = 17;
  refused(params, "requestState must be a string");
}

}  // namespace unit_state_tool_round
