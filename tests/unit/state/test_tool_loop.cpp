// The 2025-11-25 driver of a tool written once (<elicit/state/tool_loop.hpp>): tool_loop, the ask
// loop of a whole tool with no I/O, what it refuses once done, and run_tool, the blocking driver
// on it. The tool and its script: support/tool_script.hpp (the cases both eras share:
// test_tool.cpp).
#include "../support/tool_script.hpp"

#include <elicit/state/tool_loop.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <utility>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_state_tool_loop {

using namespace tool_script;

namespace {

const json slot_0930 = accept({{"slot", "s-0930"}});

}  // namespace

TEST_CASE("tool_loop: a question at a time, the same params each time, until the tool returns", "[tool]") {
  elicit::tool_loop<std::string> loop(book({}));
  REQUIRE_FALSE(loop.done());
  const std::string first_key = loop.key();
  CHECK(loop.params() == loop.params());  // asking again sends the same question
  CHECK(loop.params()["mode"] == "form");
  CHECK(loop.rounds() == 0);  // nothing answered yet
  loop.take(response_to(accept(good_address)));
  CHECK(loop.rounds() == 1);
  REQUIRE_FALSE(loop.done());
  CHECK(loop.key() != first_key);  // the next question
  loop.take(response_to(slot_0930));
  loop.take(response_to(accept({{"signature_required", false}})));
  REQUIRE(loop.done());
  CHECK(loop.rounds() >= 1);  // questions asked together count as one round (max_rounds)
  CHECK(loop.rounds() <= 3);
  // Done: nothing more is sent, and a late reply belongs to no one.
  CHECK_THROWS_AS(loop.params(), std::logic_error);
  CHECK_THROWS_AS(loop.key(), std::logic_error);
  CHECK_THROWS_AS(loop.take(response_to(slot_0930)), std::logic_error);
  loop.stop(elicit::stop_reason::cancelled);  // nothing when done
  CHECK(std::move(loop).result() == "Booked to London at s-0930, unsigned (1 attempts for the address)");
}

TEST_CASE("tool_loop: result() before the tool is done is the caller's bug", "[tool]") {
  elicit::tool_loop<std::string> loop(book({}));
  REQUIRE_FALSE(loop.done());
  CHECK_THROWS_WITH(std::move(loop).result(), Catch::Contains("the tool is not done"));
}

TEST_CASE("tool: run_tool, the blocking driver, sends what tool_loop gives", "[tool]") {
  person p{{accept(good_address), slot_0930, accept({{"signature_required", false}})}};
  int sent = 0;
  const std::string text = elicit::run_tool(
      [&](const ordered_json& params) {
        ++sent;
        return response_to(p.answer("?", params));
      },
      book({}));
  CHECK(text == "Booked to London at s-0930, unsigned (1 attempts for the address)");
  CHECK(sent == 3);
}

}  // namespace unit_state_tool_loop
