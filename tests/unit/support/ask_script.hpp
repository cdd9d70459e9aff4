// The scripted client's cases of the ask loop, written once and run by every driver: the core
// (elicit::ask_loop, by hand), the blocking elicit::ask and the coroutine elicit::async_ask.
// Each case is the client's replies and what must come of them: the result and what was sent.
// Every expectation is written out by hand.
#pragma once

#include "../../../samples/forms.hpp"

#include <elicit/protocol/ask.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

namespace ask_script {

using nlohmann::json;
using nlohmann::ordered_json;
using shipping::DeliveryAddress;

inline json result(json r) { return {{"jsonrpc", "2.0"}, {"id", 1}, {"result", std::move(r)}}; }
inline json accepted(json content) { return result({{"action", "accept"}, {"content", std::move(content)}}); }

inline const json good_address = {
    {"street", "1 High St"}, {"city", "London"}, {"postcode", "SW1A 1AA"}, {"country_code", "GB"}};
inline const char* const question = "Where should the parcel go?";

// What a driver gives back: the result, and the params it sent, in order.
struct run {
  elicit::ask_result<DeliveryAddress> result;
  std::vector<ordered_json> sent;
};

struct scripted_case {
  const char* name;
  std::vector<json> replies;
  void (*check)(const run&);
};

inline void sent_once_as_asked(const run& r) {
  REQUIRE(r.sent.size() == 1);
  CHECK(r.sent[0]["mode"] == "form");
  CHECK(r.sent[0]["message"] == question);
  CHECK(r.sent[0]["requestedSchema"].dump() == elicit::schema_json<DeliveryAddress>);
  CHECK(r.result.attempts() == 1);
}

// Every driver runs these, with the default options (three attempts).
inline std::vector<scripted_case> cases() {
  const json bad = accepted({{"street", 42}, {"city", "London"}, {"postcode", "SW1A 1AA"}, {"country_code", "GB"}});
  return {
      {"accept",
       {accepted(good_address)},
       [](const run& r) {
         sent_once_as_asked(r);
         REQUIRE(r.result.outcome() == elicit::outcome::accepted);
         CHECK(r.result.accepted());
         CHECK(*r.result->postcode == "SW1A 1AA");
       }},
      {"invalid, then fixed: the valid parts prefilled",
       {accepted({{"street", "1 High St"}, {"city", "London"}, {"postcode", "X"}, {"country_code", "UK"}}),
        accepted({{"postcode", "SW1A 1AA"}, {"country_code", "GB"}})},
       [](const run& r) {
         REQUIRE(r.result.accepted());
         CHECK(r.result.attempts() == 2);
         CHECK(*r.result->street == "1 High St");  // the prefilled default: not sent again
         REQUIRE(r.sent.size() == 2);
         CHECK(r.sent[1]["message"] ==
               "Where should the parcel go?\n\nPlease correct these:\n"
               "- Postcode must be at least 5 characters long; got 1 character.\n"
               "- Country must be one of \"United Kingdom\", \"Ireland\", \"France\", \"Germany\", \"Netherlands\"; "
               "got the text \"UK\".");
         const ordered_json& again = r.sent[1]["requestedSchema"];
         CHECK(again["properties"]["street"]["default"] == "1 High St");
         CHECK(again["properties"]["city"]["default"] == "London");
         CHECK_FALSE(again["properties"]["postcode"].contains("default"));
         CHECK(again["required"].dump() == R"(["postcode","country_code"])");
       }},
      {"decline",
       {result({{"action", "decline"}})},
       [](const run& r) {
         sent_once_as_asked(r);
         CHECK(r.result.outcome() == elicit::outcome::declined);
         CHECK_FALSE(r.result.stop_reason());
       }},
      {"cancel by the user",
       {result({{"action", "cancel"}})},
       [](const run& r) {
         sent_once_as_asked(r);
         CHECK(r.result.outcome() == elicit::outcome::cancelled);  // the user's cancel: not stopped
         CHECK_FALSE(r.result.stop_reason());
       }},
      {"client error",
       {json{{"jsonrpc", "2.0"}, {"id", 1}, {"error", {{"code", -32603}, {"message", "no display"}}}}},
       [](const run& r) {
         sent_once_as_asked(r);
         CHECK(r.result.outcome() == elicit::outcome::error);
         REQUIRE(r.result.client_error());
         CHECK((*r.result.client_error())["code"] == -32603);
       }},
      {"client error after an invalid answer",
       {bad, json{{"error", {{"code", -32000}, {"message", "gone"}}}}},
       [](const run& r) {
         CHECK(r.sent.size() == 2);
         CHECK(r.result.outcome() == elicit::outcome::error);
         CHECK(r.result.attempts() == 2);
         CHECK(r.result.answer().action() == elicit::action::cancel);  // as ask() always gave
       }},
      {"invalid until max attempts",
       {bad, bad, bad},
       [](const run& r) {
         CHECK(r.sent.size() == 3);
         CHECK(r.result.outcome() == elicit::outcome::invalid);
         CHECK(r.result.attempts() == 3);
         REQUIRE(r.result.violations().size() == 1);
         CHECK(r.result.violations()[0].pointer == "/street");
         CHECK_THROWS_AS(r.result.value(), elicit::bad_answer_access);
       }},
      {"malformed: an unknown action",
       {result({{"action", "maybe"}})},
       [](const run& r) {
         sent_once_as_asked(r);
         CHECK(r.result.outcome() == elicit::outcome::invalid);
       }},
      {"malformed: a reply that is not an object",
       {json("accept")},
       [](const run& r) {
         sent_once_as_asked(r);
         CHECK(r.result.outcome() == elicit::outcome::invalid);
         CHECK_FALSE(r.result.violations().empty());
       }},
      {"malformed: a result that is not an object",
       {json{{"jsonrpc", "2.0"}, {"id", 1}, {"result", 7}}},
       [](const run& r) {
         sent_once_as_asked(r);
         CHECK(r.result.outcome() == elicit::outcome::invalid);
       }},
      {"a bare ElicitResult is read as the result",
       {json{{"action", "accept"}, {"content", good_address}}},
       [](const run& r) {
         sent_once_as_asked(r);
         CHECK(r.result.accepted());
       }},
  };
}

}  // namespace ask_script
