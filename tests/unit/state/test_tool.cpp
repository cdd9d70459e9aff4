// A tool written once (<elicit/state/tool.hpp>), driven by a scripted 2025-11-25 client (tool_loop,
// run_tool) and a scripted 2026-07-28 client (tool_round, a request per round, nothing kept
// between requests but the sealed state; what only one driver does: test_tool_loop.cpp,
// test_tool_round.cpp): the same questions, in the same order, each once, and
// the same result; re-asks in the same words; a changed question asked again; the state refused
// when altered or replayed, with the one -32602; the round cap; the state's size bound; the
// outcomes kept apart. Every expectation is written out by hand.
#include "../support/tool_script.hpp"

#include <elicit/state/tool.hpp>
#include <elicit/state/tool_loop.hpp>
#include <elicit/state/tool_round.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_state_tool {

using namespace tool_script;

namespace {

// Both eras, on the same script: what each was asked and what came of it.
struct both {
  std::string result_2025, result_2026;
  std::vector<asked> asked_2025, asked_2026;
  std::vector<ordered_json> rounds;
};

both run_both(const std::vector<json>& script, const Carrier& carrier = {}) {
  both out;
  person p25{{script.begin(), script.end()}}, p26{{script.begin(), script.end()}};
  out.result_2025 = run_2025(book(carrier), p25);
  run_2026 client{[carrier] { return book(carrier); }};
  out.result_2026 = client(p26);
  CHECK(p25.script.empty());
  CHECK(p26.script.empty());
  out.asked_2025 = std::move(p25.log);
  out.asked_2026 = std::move(p26.log);
  out.rounds = std::move(client.rounds);
  return out;
}

std::vector<std::string> keys_of(const ordered_json& input_required) {
  std::vector<std::string> keys;
  for (const auto& item : input_required["inputRequests"].items()) keys.push_back(item.key());
  return keys;
}

const json slot_0930 = accept({{"slot", "s-0930"}});
const json signed_options = accept({{"country_code", "GB"}, {"signature_required", true}});

// A form no max_length bounds: its answers can outgrow any state.
struct Note {
  std::string text;
};

}  // namespace

TEST_CASE("tool: three questions, the same in both eras, each once, with the same result", "[tool]") {
  const both b = run_both({accept(good_address), slot_0930, signed_options});
  CHECK(b.result_2025 == "Booked to London at s-0930, signed (1 attempts for the address)");
  CHECK(b.result_2026 == b.result_2025);
  REQUIRE(b.asked_2025.size() == 3);
  CHECK(b.asked_2026 == b.asked_2025);
  CHECK(b.asked_2025[0].key == "address");
  CHECK(b.asked_2025[0].message == "Where should order A-17 go?");
  CHECK(b.asked_2025[0].schema == elicit::schema_json<DeliveryAddress>);
  CHECK(b.asked_2025[1].key == "slot");
  CHECK(b.asked_2025[1].schema.find(R"("oneOf":[{"const":"s-0900","title":"9:00"},{"const":"s-0930")") !=
        std::string::npos);
  CHECK(b.asked_2025[2].key == "options");
  // Prefilled from the address's country: a default, so no longer required.
  CHECK(b.asked_2025[2].schema.find(R"("default":"GB")") != std::string::npos);
  // 2026-07-28: the address alone, then the two asked together in one round, in order.
  REQUIRE(b.rounds.size() == 2);
  CHECK(keys_of(b.rounds[0]) == std::vector<std::string>{"address"});
  CHECK(keys_of(b.rounds[1]) == std::vector<std::string>{"slot", "options"});
  CHECK(b.rounds[0]["resultType"] == "input_required");
  CHECK(b.rounds[0]["requestState"].is_string());
}

TEST_CASE("tool: an invalid answer is asked again in the same words, valid parts prefilled, in both eras", "[tool]") {
  json bad = good_address;
  bad["postcode"] = "X";
  const both b = run_both({accept(bad), accept({{"postcode", "SW1A 1AA"}}), slot_0930, signed_options});
  CHECK(b.result_2025 == "Booked to London at s-0930, signed (2 attempts for the address)");
  CHECK(b.result_2026 == b.result_2025);
  REQUIRE(b.asked_2025.size() == 4);
  CHECK(b.asked_2026 == b.asked_2025);
  CHECK(b.asked_2025[1].key == "address");
  CHECK(b.asked_2025[1].message ==
        "Where should order A-17 go?\n\nPlease correct this:\n"
        "- Postcode must be at least 5 characters long; got 1 character.");
  const json again = json::parse(b.asked_2025[1].schema);
  CHECK(again["properties"]["city"]["default"] == "London");
  CHECK(again["required"] == json::array({"postcode"}));
  REQUIRE(b.rounds.size() == 3);  // the re-ask is a round of its own at 2026-07-28
  CHECK(keys_of(b.rounds[1]) == std::vector<std::string>{"address"});
}

TEST_CASE("tool: an answer still invalid after max_attempts reaches the tool as invalid in both eras", "[tool]") {
  json bad = good_address;
  bad["postcode"] = "X";
  const both b = run_both({accept(bad), accept(bad), accept(bad)});
  CHECK(b.result_2025 == "Not booked: address invalid");
  CHECK(b.result_2026 == b.result_2025);
  CHECK(b.asked_2026 == b.asked_2025);
  CHECK(b.asked_2025.size() == 3);
}

TEST_CASE("tool: decline and cancel are kept apart, and end the tool in both eras", "[tool]") {
  SECTION("the address declined") {
    const both b = run_both({{{"action", "decline"}}});
    CHECK(b.result_2025 == "Not booked: address declined");
    CHECK(b.result_2026 == b.result_2025);
  }
  SECTION("the address cancelled") {
    const both b = run_both({{{"action", "cancel"}}});
    CHECK(b.result_2025 == "Not booked: address cancelled");
    CHECK(b.result_2026 == b.result_2025);
  }
  SECTION("the slot declined, asked together with the options: both asked, the decline not asked again") {
    const both b = run_both({accept(good_address), {{"action", "decline"}}, signed_options});
    CHECK(b.result_2025 == "Not booked: slot declined");
    CHECK(b.result_2026 == b.result_2025);
    CHECK(b.asked_2026 == b.asked_2025);
    CHECK(b.rounds.size() == 2);
  }
  SECTION("2025-11-25 only: the client's JSON-RPC error, and the server's stop") {
    person p{{json{{"error", {{"code", -32603}, {"message", "no display"}}}}}};
    CHECK(run_2025(book({}), p) == "Not booked: address error");
    elicit::tool_loop<std::string> loop(book({}));
    REQUIRE_FALSE(loop.done());
    loop.stop(elicit::stop_reason::cancelled);
    REQUIRE(loop.done());
    const std::string text = std::move(loop).result();
    CHECK(text == "Not booked: address stopped");
  }
}

TEST_CASE("tool: a stop ends the questions asked after it unsent", "[tool]") {
  elicit::tool_loop<std::string> loop(book({}));
  loop.take(response_to(accept(good_address)));
  REQUIRE(loop.key() == "slot");
  loop.stop(elicit::stop_reason::timed_out);
  REQUIRE(loop.done());  // the options, asked with the slot, were never sent
  const std::string text = std::move(loop).result();
  CHECK(text == "Not booked: slot timed_out");
}

TEST_CASE("tool: a question that changed between rounds is asked again, its stale answer unused", "[tool]") {
  Carrier carrier;
  run_2026 client{[&carrier] { return book(carrier); }};
  person p{{accept(good_address), slot_0930, signed_options, accept({{"slot", "s-1000"}})}};
  REQUIRE_FALSE(client.request(p).done());  // round 1: the address
  REQUIRE_FALSE(client.request(p).done());  // round 2: the slot (9:30 picked) and the options
  SECTION("the slot picked was taken meanwhile") { carrier.free = {{"s-0900", "9:00"}, {"s-1000", "10:00"}}; }
  SECTION("the slot picked is still free, but the offer changed: the answer was to another question") {
    carrier.free = {{"s-0900", "9:00"}, {"s-0930", "9:30"}, {"s-1000", "10:00"}};
  }
  auto third = client.request(p);
  REQUIRE_FALSE(third.done());
  CHECK(third.round() == 3);
  CHECK(keys_of(client.rounds[2]) == std::vector<std::string>{"slot"});  // the options' answer still holds
  // Asked anew, as a first attempt: the question as the tool asks it now, no correction.
  const ordered_json& again = client.rounds[2]["inputRequests"]["slot"]["params"];
  CHECK(again["message"] == "When should it come?");
  CHECK(again["requestedSchema"] == elicit::form<DeliverySlot>().choices(&DeliverySlot::slot, carrier.free).schema());
  auto fourth = client.request(p);
  REQUIRE(fourth.done());
  CHECK(fourth.value() == "Booked to London at s-1000, signed (1 attempts for the address)");
  CHECK(p.script.empty());
}

TEST_CASE("tool: 2026-07-28, what the client sends beyond what was asked is not read", "[tool]") {
  SECTION("an answer under a key the last round did not ask") {
    run_2026 client{[] { return book({}); }};
    person p{{accept(good_address), slot_0930, signed_options}};
    REQUIRE_FALSE(client.request(p).done());
    client.params["inputResponses"]["slot"] = accept({{"slot", "s-0900"}});  // never asked yet
    REQUIRE_FALSE(client.request(p).done());
    CHECK(keys_of(client.rounds[1]) == std::vector<std::string>{"slot", "options"});
    CHECK(client(p) == "Booked to London at s-0930, signed (1 attempts for the address)");
  }
  SECTION("a missing answer is asked again in a new round, the same words, not an error") {
    run_2026 client{[] { return book({}); }};
    person p{{accept(good_address), no_answer, signed_options, slot_0930}};
    REQUIRE_FALSE(client.request(p).done());
    REQUIRE_FALSE(client.request(p).done());
    REQUIRE_FALSE(client.request(p).done());
    REQUIRE(client.rounds.size() == 3);
    CHECK(keys_of(client.rounds[2]) == std::vector<std::string>{"slot"});
    CHECK(client.rounds[2]["inputRequests"]["slot"] == client.rounds[1]["inputRequests"]["slot"]);
    CHECK(client(p) == "Booked to London at s-0930, signed (1 attempts for the address)");
  }
}

TEST_CASE("tool: an altered, replayed, misplaced or missing state is refused with the one -32602", "[tool]") {
  elicit::memory_replay_guard guard;
  run_2026 client{[] { return book({}); }};
  client.options.replay = &guard;
  person p{{accept(good_address), slot_0930, signed_options}};
  REQUIRE_FALSE(client.request(p).done());
  const json retry = client.params;

  const auto refused = [&](const json& params, const elicit::state_binding& where, const char* why) {
    try {
      (void)elicit::tool_round(book({}), params, ring(), where, client.options);
      FAIL("the state opened");
    } catch (const elicit::tool_error& e) {
      CHECK(e.failure() == elicit::tool_failure::invalid_state);
      CHECK(e.code() == -32602);
      CHECK(e.client_message() == elicit::invalid_state_message);
      CHECK(e.error_response(7).dump() ==
            R"({"jsonrpc":"2.0","id":7,"error":{"code":-32602,"message":"invalid or expired requestState"}})");
      CHECK_THAT(e.what(), Catch::Contains(why));
    }
  };
  SECTION("altered") {
    json altered = retry;
    std::string state = altered["requestState"].get<std::string>();
    state[state.size() / 2] = state[state.size() / 2] == 'A' ? 'B' : 'A';
    altered["requestState"] = state;
    refused(altered, binding(), "altered");
  }
  SECTION("replayed: the same retry twice") {
    REQUIRE_FALSE(client.request(p).done());
    refused(retry, binding(), "opened before");
  }
  SECTION("sealed for another caller") { refused(retry, binding("mallory"), "another caller"); }
  SECTION("a retry without its state") {
    json bare = retry;
    bare.erase("requestState");
    refused(bare, binding(), "no requestState");
  }
}

TEST_CASE("tool: the rounds are capped, and the error says how many, in both eras", "[tool]") {
  // One question after another, each answered: the 11th is past the default cap of 10.
  const auto many = []() -> elicit::tool<std::string> {
    for (int i = 1; i <= 11; ++i) {
      auto ok = co_await elicit::question<Note>("q" + std::to_string(i), "Question " + std::to_string(i));
      if (!ok.accepted()) co_return "stopped at " + std::to_string(i);
    }
    co_return "all answered";
  };
  const auto capped = [](auto&& run) {
    try {
      run();
      FAIL("no cap");
    } catch (const elicit::tool_error& e) {
      CHECK(e.failure() == elicit::tool_failure::too_many_rounds);
      CHECK(e.code() == -32602);
      CHECK_THAT(e.client_message(), Catch::Contains("10 rounds"));
      CHECK_THAT(e.what(), Catch::Contains("10 rounds"));
    }
  };
  const std::vector<json> answers(11, accept({{"text", "yes"}}));
  SECTION("2025-11-25") {
    person p{{answers.begin(), answers.end()}};
    capped([&] { (void)run_2025(many(), p); });
    CHECK(p.log.size() == 10);
  }
  SECTION("2026-07-28") {
    person p{{answers.begin(), answers.end()}};
    run_2026 client{many};
    capped([&] { (void)client(p); });
    CHECK(client.rounds.size() == 10);
  }
  SECTION("2026-07-28: a client that never answers is asked the same again, to the cap") {
    person p{std::deque<json>(10, no_answer)};
    run_2026 client{many};
    capped([&] { (void)client(p); });
    REQUIRE(client.rounds.size() == 10);
    CHECK(client.rounds[9]["inputRequests"] == client.rounds[0]["inputRequests"]);
  }
  SECTION("a cap of 3: re-asks count, in both eras alike") {
    elicit::tool_options three;
    three.max_rounds = 3;
    json bad = good_address;
    bad["postcode"] = "X";
    const std::vector<json> script{accept(bad), accept(bad), accept(good_address)};  // the third attempt valid
    person p25{{script.begin(), script.end()}}, p26{{script.begin(), script.end()}};
    const auto fails_at_the_slot = [](auto&& run) {
      try {
        run();
        FAIL("no cap");
      } catch (const elicit::tool_error& e) {
        CHECK_THAT(e.what(), Catch::Contains("3 rounds"));
      }
    };
    fails_at_the_slot([&] { (void)run_2025(book({}), p25, three); });
    run_2026 client{[] { return book({}); }, three};
    fails_at_the_slot([&] { (void)client(p26); });
    CHECK(p25.log == p26.log);
    CHECK(p25.log.size() == 3);
  }
}

TEST_CASE("tool: the recorded answers are bounded, past the bound, an error at the server, never a state", "[tool]") {
  const auto two_notes = []() -> elicit::tool<std::string> {
    auto first = co_await elicit::question<Note>("first", "Say something");
    auto second = co_await elicit::question<Note>("second", "And something else");
    co_return first->text.substr(0, 3) + "/" + second->text;
  };
  const auto too_large = [&](std::size_t length, elicit::tool_options options, const char* bound) {
    person p{{accept({{"text", std::string(length, 'a')}})}};
    run_2026 client{two_notes, options};
    try {
      (void)client(p);
      FAIL("no bound");
    } catch (const elicit::tool_error& e) {
      CHECK(e.failure() == elicit::tool_failure::state_too_large);
      CHECK(e.code() == -32602);
      CHECK_THAT(e.what(), Catch::Contains(std::string("more than tool_options::max_state_bytes (") + bound + ")"));
      CHECK_THAT(e.client_message(), Catch::Contains(std::string("at most ") + bound));
    }
    CHECK(client.rounds.size() == 1);  // the second round was never sent
  };
  SECTION("the default bound, 16 KiB") { too_large(std::size_t{17} * 1024, {}, "16384"); }
  SECTION("a bound of 1 KiB") {
    elicit::tool_options small;
    small.max_state_bytes = 1024;
    too_large(1024, small, "1024");
  }
  SECTION("a bound above what seal() takes is 48 KiB") {
    elicit::tool_options huge;
    huge.max_state_bytes = std::size_t{1} << 20;
    too_large(std::size_t{49} * 1024, huge, "49152");
  }
  SECTION("within the bound") {
    person p{{accept({{"text", std::string(std::size_t{15} * 1024, 'a')}}), accept({{"text", "b"}})}};
    run_2026 client{two_notes};
    CHECK(client(p) == "aaa/b");
  }
}

TEST_CASE("tool: a key asked twice in one call is the server's bug, in both eras", "[tool]") {
  const auto twice = []() -> elicit::tool<std::string> {
    (void)co_await elicit::question<Note>("note", "One");
    (void)co_await elicit::question<Note>("note", "Two");
    co_return "asked";
  };
  person p{{accept({{"text", "a"}}), accept({{"text", "b"}})}};
  CHECK_THROWS_WITH(run_2025(twice(), p), Catch::Contains("the key \"note\" is asked twice"));
  run_2026 client{twice};
  person p26{{accept({{"text", "a"}}), accept({{"text", "b"}})}};
  CHECK_THROWS_WITH(client(p26), Catch::Contains("the key \"note\" is asked twice"));
}

TEST_CASE("tool: what the tool throws comes out of the driver, in both eras", "[tool]") {
  const auto throws = []() -> elicit::tool<std::string> {
    auto note = co_await elicit::question<Note>("note", "Say");
    if (note->text == "boom") throw std::runtime_error("the tool failed");
    co_return note->text;
  };
  person p{{accept({{"text", "boom"}})}};
  CHECK_THROWS_WITH(run_2025(throws(), p), "the tool failed");
  person p26{{accept({{"text", "boom"}})}};
  run_2026 client{throws};
  CHECK_THROWS_WITH(client(p26), "the tool failed");
}

TEST_CASE("tool: 2026-07-28, the suspended frame is destroyed when the round is sent", "[tool]") {
  static int alive = 0;
  struct counted {
    counted() { ++alive; }
    ~counted() { --alive; }
    counted(const counted&) = delete;
    counted& operator=(const counted&) = delete;
  };
  const auto held = []() -> elicit::tool<std::string> {
    const counted here;
    CHECK(alive == 1);
    auto note = co_await elicit::question<Note>("note", "Say");
    co_return note->text;
  };
  auto round = elicit::tool_round(held(), first_call(), ring(), binding());
  REQUIRE_FALSE(round.done());
  CHECK(alive == 0);
  CHECK_THROWS_AS(round.value(), std::logic_error);
}

TEST_CASE("tool: 2026-07-28, a client without form mode is not asked", "[tool]") {
  json params = first_call();
  params.erase("_meta");
  // #43 item 3: a tool_error like every other refusal of the driver (a server that catches
  // tool_error answers it), -32021 with the capability it needs, not an undocumented exception.
  try {
    (void)elicit::tool_round(book({}), params, ring(), binding());
    FAIL("tool_round asked a client without form mode");
  } catch (const elicit::tool_error& e) {
    CHECK(e.failure() == elicit::tool_failure::missing_capability);
    CHECK(e.code() == -32021);
    CHECK(e.client_message() == "Missing required client capability: elicitation.form");
    const auto error = e.error_response(7);
    CHECK(error["error"]["code"] == -32021);
    // As text: clang-14 finds ordered_json == json ambiguous.
    CHECK(error["error"]["data"]["requiredCapabilities"].dump() == R"({"elicitation":{"form":{}}})");
    CHECK(error.dump() == elicit::missing_capability_error(7, {{"elicitation", {{"form", json::object()}}}}).dump());
    CHECK(std::string(e.what()).find("\"address\"") != std::string::npos);  // the log names the question
  }
}

}  // namespace unit_state_tool
