// <elicit/server/task_record.hpp>: what tasks/get shows of a record in each status, and a record
// read back from the JSON it writes, or refused when the JSON is not its own.
#include <elicit/server/task_record.hpp>

#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_task_record {

TEST_CASE("task_record: the DetailedTask of each status") {
  elicit::task_record r;
  r.id = "t1";
  r.created_ms = 1'764'844'200'123;  // 2025-12-04T10:30:00.123Z
  r.updated_ms = r.created_ms + 1000;
  r.ttl_ms = 60'000;
  r.poll_interval_ms = 500;
  CHECK(r.detailed() == nlohmann::ordered_json{{"taskId", "t1"},
                                               {"status", "working"},
                                               {"createdAt", "2025-12-04T10:30:00.123Z"},
                                               {"lastUpdatedAt", "2025-12-04T10:30:01.123Z"},
                                               {"ttlMs", 60'000},
                                               {"pollIntervalMs", 500}});
  r.status = elicit::task_status::input_required;
  r.input_requests = {{"a", {{"method", "elicitation/create"}}}, {"b", {{"method", "elicitation/create"}}}};
  r.asked = {{"a", "a"}, {"b", "b"}};
  r.given = {{"a", {{"action", "decline"}}}};
  CHECK(r.detailed().at("inputRequests") == nlohmann::ordered_json{{"b", {{"method", "elicitation/create"}}}});
  r.status = elicit::task_status::completed;
  r.result = {{"content", nlohmann::json::array()}};
  CHECK(r.detailed().at("result") == r.result);
  CHECK_FALSE(r.detailed().contains("inputRequests"));
  r.status = elicit::task_status::failed;
  r.error = {{"code", -32603}, {"message", "Internal error"}};
  r.status_message = "Internal error";
  CHECK(r.detailed().at("error") == r.error);
  CHECK(r.detailed().at("statusMessage") == "Internal error");
  CHECK(elicit::is_terminal(elicit::task_status::cancelled));
  CHECK_FALSE(elicit::is_terminal(elicit::task_status::input_required));
}

TEST_CASE("task_record: read back from its JSON, anything else refused") {
  elicit::task_record r;
  r.id = "t2";
  r.owner = "alice";
  r.tool = "book";
  r.status = elicit::task_status::input_required;
  r.round = 2;
  r.answers = {{"address", "d1", {{{"action", "accept"}}}}};
  r.version = 7;
  const auto back = elicit::task_record::from_json(r.to_json());
  REQUIRE(back);
  CHECK(back->to_json() == r.to_json());
  nlohmann::json broken = r.to_json();
  broken["status"] = 9;
  CHECK_FALSE(elicit::task_record::from_json(broken));
  broken = r.to_json();
  broken.erase("owner");
  CHECK_FALSE(elicit::task_record::from_json(broken));
  CHECK_FALSE(elicit::task_record::from_json(nlohmann::json::array()));
}

}  // namespace unit_server_task_record
