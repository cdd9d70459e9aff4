// Keeping a waiting client informed (<elicit/protocol/progress.hpp>): the progress token read from a
// request's _meta, never a throw whatever the request holds, and the notifications/progress
// params a keepalive counts out.
#include <elicit/protocol/progress.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <string>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_protocol_progress {

using nlohmann::json;

TEST_CASE("progress_token: a string or an integer under _meta, nothing else, never a throw", "[ask][keepalive]") {
  CHECK(elicit::progress_token(json::parse(R"({"_meta": {"progressToken": "t-1"}})")) == json("t-1"));
  CHECK(elicit::progress_token(json::parse(R"({"name": "x", "_meta": {"progressToken": 7}})")) == json(7));
  CHECK(elicit::progress_token(json::parse(R"({"_meta": {"progressToken": -7}})")) == json(-7));
  CHECK(elicit::progress_token(json::parse(R"({"_meta": {"progressToken": 18446744073709551615}})")) ==
        json(18446744073709551615ULL));
  CHECK(elicit::progress_token(json{{"_meta", {{"progressToken", std::string(256, 'a')}}}}));
  const char* hostile[] = {
      "null",
      "1",
      "\"_meta\"",
      "[]",
      R"([{"_meta": {"progressToken": 1}}])",
      "{}",
      R"({"_meta": null})",
      R"({"_meta": []})",
      R"({"_meta": "progressToken"})",
      R"({"_meta": {}})",
      R"({"_meta": {"progressToken": null}})",
      R"({"_meta": {"progressToken": 1.5}})",
      R"({"_meta": {"progressToken": 1.0}})",
      R"({"_meta": {"progressToken": true}})",
      R"({"_meta": {"progressToken": {"a": 1}}})",
      R"({"_meta": {"progressToken": [1]}})",
      R"({"_meta": {"ProgressToken": 1}})",
      R"({"progressToken": 1})",
  };
  for (const char* text : hostile) {
    CAPTURE(text);
    CHECK_FALSE(elicit::progress_token(json::parse(text)));
  }
  CHECK_FALSE(elicit::progress_token(json{{"_meta", {{"progressToken", std::string(257, 'a')}}}}));
  CHECK_FALSE(elicit::progress_token(json::binary({1, 2})));
  CHECK_FALSE(elicit::progress_token(json{{"_meta", {{"progressToken", json::binary({1})}}}}));
  CHECK_FALSE(elicit::progress_token(json(json::value_t::discarded)));
}

TEST_CASE("keepalive: progress counts from 1, the token and the message in each", "[ask][keepalive]") {
  elicit::keepalive clock(json("t-1"));
  CHECK(clock.sent() == 0);
  CHECK(clock.next().dump() == R"({"progressToken":"t-1","progress":1,"message":"Waiting for the user's answer"})");
  CHECK(clock.next()["progress"] == 2);
  CHECK(clock.next()["progress"] == 3);
  CHECK(clock.sent() == 3);
  elicit::keepalive quiet(json(5), "");
  CHECK(quiet.next().dump() == R"({"progressToken":5,"progress":1})");
  static_assert(elicit::keepalive_interval == std::chrono::seconds(15));
  static_assert(elicit::question_timeout == std::chrono::minutes(10));
}

}  // namespace unit_protocol_progress
