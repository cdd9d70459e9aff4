// The ask loop (elicit::ask) with a scripted client, and the re-ask of 2026-07-28 rounds
// (elicit::reask): what is sent each time (message, prefilled defaults, required), and what
// comes of it. Every expectation is written out by hand.
#include "../../../samples/forms.hpp"

#include "../support/ask_script.hpp"

#include <elicit/protocol/ask.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_protocol_ask {

using nlohmann::json;
using nlohmann::ordered_json;
using shipping::DeliveryAddress;
using shipping::DeliverySlot;

namespace {

// A client that answers each elicitation/create with the next of its replies, and keeps what
// it was sent.
struct scripted_client {
  explicit scripted_client(std::vector<json> r) : replies(std::move(r)) {}

  std::vector<json> replies;
  std::vector<ordered_json> sent;

  json operator()(const ordered_json& params) {
    sent.push_back(params);
    if (sent.size() > replies.size()) throw std::logic_error("the client was asked more often than scripted");
    return replies[sent.size() - 1];
  }
};

json result(json r) { return {{"jsonrpc", "2.0"}, {"id", 1}, {"result", std::move(r)}}; }
json accepted(json content) { return result({{"action", "accept"}, {"content", std::move(content)}}); }

const json good_address = {
    {"street", "1 High St"}, {"city", "London"}, {"postcode", "SW1A 1AA"}, {"country_code", "GB"}};
const char* const question = "Where should the parcel go?";

}  // namespace

TEST_CASE("ask: a valid first answer is asked once", "[ask]") {
  scripted_client client{std::vector<json>{accepted(good_address)}};
  const auto asked = elicit::ask<DeliveryAddress>(std::ref(client), question);
  CHECK(asked.outcome() == elicit::outcome::accepted);
  CHECK(asked.accepted());
  CHECK(asked.attempts() == 1);
  CHECK(*asked->postcode == "SW1A 1AA");
  REQUIRE(client.sent.size() == 1);
  CHECK(client.sent[0]["mode"] == "form");
  CHECK(client.sent[0]["message"] == question);
  CHECK(client.sent[0]["requestedSchema"].dump() == elicit::schema_json<DeliveryAddress>);
}

TEST_CASE("ask: an invalid answer is asked again in plain words, its valid fields prefilled", "[ask]") {
  scripted_client client{std::vector<json>{
      accepted({{"street", "1 High St"}, {"city", "London"}, {"postcode", "X"}, {"country_code", "UK"}}),
      accepted({{"postcode", "SW1A 1AA"}, {"country_code", "GB"}})}};
  const auto asked = elicit::ask<DeliveryAddress>(std::ref(client), question);
  REQUIRE(asked.accepted());
  CHECK(asked.attempts() == 2);
  CHECK(*asked->street == "1 High St");  // from the prefilled default: the user did not send it again
  CHECK(*asked->city == "London");
  REQUIRE(client.sent.size() == 2);
  CHECK(client.sent[1]["message"] ==
        "Where should the parcel go?\n\nPlease correct these:\n"
        "- Postcode must be at least 5 characters long; got 1 character.\n"
        "- Country must be one of \"United Kingdom\", \"Ireland\", \"France\", \"Germany\", \"Netherlands\"; got the "
        "text \"UK\".");
  const ordered_json& again = client.sent[1]["requestedSchema"];
  CHECK(again["properties"]["street"].dump() ==
        R"({"type":"string","title":"Street address","maxLength":120,"default":"1 High St"})");
  CHECK(again["properties"]["city"].dump() == R"({"type":"string","title":"City","maxLength":60,"default":"London"})");
  CHECK_FALSE(again["properties"]["postcode"].contains("default"));  // what was wrong is not kept
  CHECK_FALSE(again["properties"]["country_code"].contains("default"));
  CHECK(again["required"].dump() == R"(["postcode","country_code"])");
  // No JSON Pointer and no keyword reach the person: those stay in violations() for the logs.
  const std::string text = client.sent[1]["message"];
  CHECK(text.find("/postcode") == std::string::npos);
  CHECK(text.find("minLength") == std::string::npos);
}

TEST_CASE("ask: invalid until the limit ends with the last answer's violations", "[ask]") {
  const json bad = accepted({{"street", 42}, {"city", "London"}, {"postcode", "SW1A 1AA"}, {"country_code", "GB"}});
  SECTION("three attempts by default") {
    scripted_client client{std::vector<json>{bad, bad, bad}};
    const auto asked = elicit::ask<DeliveryAddress>(std::ref(client), question);
    CHECK(asked.outcome() == elicit::outcome::invalid);
    CHECK(asked.attempts() == 3);
    CHECK(client.sent.size() == 3);
    REQUIRE(asked.violations().size() == 1);
    CHECK(asked.violations()[0].pointer == "/street");
    CHECK(asked.violations()[0].keyword == "type");
    CHECK_THROWS_AS(asked.value(), elicit::bad_answer_access);
  }
  SECTION("a limit of one asks once") {
    scripted_client client{std::vector<json>{bad}};
    const auto asked = elicit::ask<DeliveryAddress>(std::ref(client), question, {.max_attempts = 1});
    CHECK(asked.outcome() == elicit::outcome::invalid);
    CHECK(client.sent.size() == 1);
  }
}

TEST_CASE("ask: decline and cancel end the loop at once", "[ask]") {
  scripted_client declines{std::vector<json>{result({{"action", "decline"}})}};
  const auto declined = elicit::ask<DeliveryAddress>(std::ref(declines), question);
  CHECK(declined.outcome() == elicit::outcome::declined);
  CHECK(declined.attempts() == 1);
  scripted_client cancels{std::vector<json>{result({{"action", "cancel"}})}};
  const auto cancelled = elicit::ask<DeliveryAddress>(std::ref(cancels), question);
  CHECK(cancelled.outcome() == elicit::outcome::cancelled);
  CHECK(cancels.sent.size() == 1);
}

TEST_CASE("ask: a JSON-RPC error from the client is not the user's mistake", "[ask]") {
  scripted_client client{
      std::vector<json>{json{{"jsonrpc", "2.0"}, {"id", 1}, {"error", {{"code", -32603}, {"message", "no display"}}}}}};
  const auto asked = elicit::ask<DeliveryAddress>(std::ref(client), question);
  CHECK(asked.outcome() == elicit::outcome::error);
  CHECK_FALSE(asked.accepted());
  CHECK(asked.attempts() == 1);
  CHECK(client.sent.size() == 1);  // not asked again
  REQUIRE(asked.client_error());
  CHECK((*asked.client_error())["message"] == "no display");
}

TEST_CASE("ask: a malformed result ends the loop: it is not the user's to fix", "[ask]") {
  scripted_client client{std::vector<json>{result({{"action", "maybe"}})}};
  const auto asked = elicit::ask<DeliveryAddress>(std::ref(client), question);
  CHECK(asked.outcome() == elicit::outcome::invalid);
  CHECK(client.sent.size() == 1);
}

TEST_CASE("ask: a bare ElicitResult from the callable is read as the result", "[ask]") {
  scripted_client client{std::vector<json>{json{{"action", "accept"}, {"content", good_address}}}};
  CHECK(elicit::ask<DeliveryAddress>(std::ref(client), question).accepted());
}

TEST_CASE("ask: a run-time form keeps its offer on every attempt", "[ask]") {
  auto slots = elicit::form<DeliverySlot>().choices(&DeliverySlot::slot,
                                                    {{"wed-am", "Wednesday morning"}, {"thu-am", "Thursday morning"}});
  scripted_client client{
      std::vector<json>{accepted({{"slot", "tue-am"}, {"note", "Back door"}}), accepted({{"slot", "thu-am"}})}};
  const auto asked = elicit::ask(std::ref(client), slots, "When?");
  REQUIRE(asked.accepted());
  CHECK(asked->slot->value == "thu-am");
  CHECK(*asked->note == "Back door");  // kept from the first answer
  CHECK(client.sent[1]["message"] ==
        "When?\n\nPlease correct this:\n- Delivery slot must be one of \"Wednesday morning\", \"Thursday morning\"; "
        "got the text \"tue-am\".");
  CHECK(client.sent[1]["requestedSchema"]["properties"]["slot"].dump() ==
        R"({"type":"string","title":"Delivery slot","description":"The slots still free",)"
        R"("oneOf":[{"const":"wed-am","title":"Wednesday morning"},{"const":"thu-am","title":"Thursday morning"}]})");
}

TEST_CASE("ask: what send throws goes through (a transport's cancellation)", "[ask]") {
  struct cancelled {};
  auto send = [](const ordered_json&) -> json { throw cancelled{}; };
  CHECK_THROWS_AS(elicit::ask<DeliveryAddress>(send, question), cancelled);
}

TEST_CASE("reask: the next 2026-07-28 round, from the answer as the client sent it", "[ask]") {
  const json params = {
      {"inputResponses",
       {{"address",
         {{"action", "accept"},
          {"content", {{"street", "1 High St"}, {"city", ""}, {"postcode", "SW1A 1AA"}, {"country_code", "GB"}}}}}}}};
  const elicit::input_responses answers{params};
  const auto address = answers.get<DeliveryAddress>("address");
  REQUIRE(address.outcome() == elicit::outcome::accepted);  // an empty city is text: valid
  const json wrong = {
      {"inputResponses",
       {{"address", {{"action", "accept"}, {"content", {{"street", "1 High St"}, {"postcode", "SW1"}}}}}}}};
  const elicit::input_responses retry{wrong};
  const auto again = retry.get<DeliveryAddress>("address");
  REQUIRE(again.outcome() == elicit::outcome::invalid);
  REQUIRE(retry.raw("address") != nullptr);
  CHECK(retry.raw("missing") == nullptr);
  const auto next = elicit::reask(elicit::form<DeliveryAddress>(), question, *retry.raw("address"), again.violations());
  CHECK(next.message ==
        "Where should the parcel go?\n\nPlease correct these:\n"
        "- City is required.\n"
        "- Postcode must be at least 5 characters long; got 3 characters.\n"
        "- Country is required.");
  const auto round = elicit::input_required{}.ask("address", next.form, next.message).result();
  const auto& schema = round["inputRequests"]["address"]["params"]["requestedSchema"];
  CHECK(schema["properties"]["street"]["default"] == "1 High St");
  CHECK(schema["required"].dump() == R"(["city","postcode","country_code"])");
}

TEST_CASE("reask_message: one line per violation, in its own words", "[ask]") {
  const elicit::violation_list one({{"/n", "minimum", "Guests must be at least 1; got 0."}});
  CHECK(elicit::reask_message("How many?", one) ==
        "How many?\n\nPlease correct this:\n- Guests must be at least 1; got 0.");
}

// The core, driven by hand: the scripted cases, then what only a driver that holds the loop sees.
namespace {

ask_script::run drive_core(const std::vector<json>& replies) {
  elicit::ask_loop<DeliveryAddress> loop(question);
  std::vector<ordered_json> sent;
  while (!loop.done()) {
    sent.push_back(loop.params());
    if (sent.size() > replies.size()) throw std::logic_error("the client was asked more often than scripted");
    loop.take(replies[sent.size() - 1]);
  }
  return {std::move(loop).result(), std::move(sent)};
}

}  // namespace

TEST_CASE("ask_loop: the scripted cases, driven by hand", "[ask][ask_loop]") {
  for (const auto& c : ask_script::cases()) {
    DYNAMIC_SECTION(c.name) { c.check(drive_core(c.replies)); }
  }
}

TEST_CASE("ask: the scripted cases, through the blocking loop", "[ask]") {
  for (const auto& c : ask_script::cases()) {
    DYNAMIC_SECTION(c.name) {
      scripted_client client{c.replies};
      auto asked = elicit::ask<DeliveryAddress>(std::ref(client), question);
      c.check({std::move(asked), client.sent});
    }
  }
}

TEST_CASE("ask_loop: its state is explicit: what is asked, the attempt, the last answer", "[ask][ask_loop]") {
  elicit::ask_loop<DeliveryAddress> loop(question, {.max_attempts = 2});
  CHECK_FALSE(loop.done());
  CHECK(loop.attempt() == 1);
  CHECK(loop.max_attempts() == 2);
  CHECK(loop.message() == question);
  CHECK(loop.last_answer() == nullptr);
  CHECK(loop.params() == loop.params());      // the same params each time: a driver may send them again
  CHECK_FALSE(loop.params().contains("id"));  // no JSON-RPC id: the driver numbers its requests
  loop.take(accepted({{"street", "1 High St"}, {"city", "London"}, {"postcode", "X"}, {"country_code", "GB"}}));
  CHECK_FALSE(loop.done());
  CHECK(loop.attempt() == 2);
  CHECK(loop.first_message() == question);
  CHECK(loop.message() ==
        "Where should the parcel go?\n\nPlease correct this:\n- Postcode must be at least 5 characters long; got 1 "
        "character.");
  REQUIRE(loop.last_answer() != nullptr);
  CHECK(loop.last_answer()->outcome() == elicit::outcome::invalid);
  CHECK(loop.params()["requestedSchema"]["properties"]["city"]["default"] == "London");
  CHECK_THROWS_WITH(loop.result(), Catch::Contains("not done"));
}

TEST_CASE("ask_loop: the server stops it mid-wait, with an outcome of its own", "[ask][ask_loop]") {
  SECTION("cancelled before any reply") {
    elicit::ask_loop<DeliveryAddress> loop(question);
    loop.stop(elicit::stop_reason::cancelled);
    REQUIRE(loop.done());
    const auto asked = loop.result();
    CHECK(asked.outcome() == elicit::outcome::stopped);
    CHECK(asked.stop_reason() == elicit::stop_reason::cancelled);
    CHECK_FALSE(asked.accepted());
    CHECK(asked.attempts() == 1);
    CHECK_FALSE(asked.client_error());
    CHECK(asked.error() == elicit::outcome::stopped);
    CHECK_THROWS_WITH(asked.value(), "elicit: no answer: the server stopped waiting (cancelled)");
  }
  SECTION("timed out on the second form: the last answer is kept") {
    elicit::ask_loop<DeliveryAddress> loop(question);
    loop.take(accepted({{"street", 42}, {"city", "London"}, {"postcode", "SW1A 1AA"}, {"country_code", "GB"}}));
    loop.stop(elicit::stop_reason::timed_out);
    const auto asked = std::move(loop).result();
    CHECK(asked.outcome() == elicit::outcome::timed_out);
    CHECK(asked.stop_reason() == elicit::stop_reason::timed_out);
    CHECK(asked.attempts() == 2);
    REQUIRE(asked.violations().size() == 1);
    CHECK(asked.violations()[0].pointer == "/street");
    CHECK_THROWS_WITH(asked.value(), "elicit: no answer: the server stopped waiting (timed out)");
  }
  SECTION("a stop after the answer changes nothing; a reply after the stop is refused") {
    elicit::ask_loop<DeliveryAddress> loop(question);
    loop.take(accepted(good_address));
    loop.stop(elicit::stop_reason::cancelled);
    CHECK(loop.result().outcome() == elicit::outcome::accepted);
    elicit::ask_loop<DeliveryAddress> stopped(question);
    stopped.stop(elicit::stop_reason::cancelled);
    CHECK_THROWS_WITH(stopped.take(accepted(good_address)), Catch::Contains("late reply"));
    CHECK_THROWS_WITH(stopped.params(), Catch::Contains("done"));
    CHECK(stopped.result().outcome() == elicit::outcome::stopped);
  }
}

TEST_CASE("ask_loop: what a waiting loop holds", "[ask][ask_loop]") {
  // The figure docs/protocol.md gives: the loop itself, without the heap of its strings (the
  // message, twice) and of a run-time form. A bound, not a speed: far under the 8 KB a waiting
  // question may cost.
  CHECK(sizeof(elicit::ask_loop<DeliveryAddress>) <= 512);
}

}  // namespace unit_protocol_ask
