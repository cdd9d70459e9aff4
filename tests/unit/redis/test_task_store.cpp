// The task store on Redis (<elicit/redis/task_store.hpp>) against a real redis-server started on a
// free loopback port (tests/redis/redis_server.hpp): two stores standing for two instances see
// one record; compare-and-set on the version across them; the capacity counts every instance; a
// record goes with its ttlMs; with Redis stopped every call throws task_store_unavailable, and
// works again once Redis is back.
#include "../../redis/redis_server.hpp"

#include <elicit/redis/task_store.hpp>

#include <catch2/catch.hpp>

#include <chrono>
#include <string>
#include <thread>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_redis_task_store {

namespace {

elicit::redis_options options_for(const test_support::redis_server& redis) {
  elicit::redis_options o;
  o.port = redis.port();
  o.prefix = "test:";
  o.connect_timeout = std::chrono::milliseconds(200);
  o.command_timeout = std::chrono::milliseconds(200);
  return o;
}

elicit::task_record record(std::string id, std::int64_t ttl_ms = 60'000) {
  elicit::task_record r;
  r.id = std::move(id);
  r.owner = "alice";
  r.tool = "book";
  r.created_ms = r.updated_ms = elicit::detail::task_clock_ms();
  r.ttl_ms = ttl_ms;
  r.input_requests = {{"address", {{"method", "elicitation/create"}}}};
  r.status = elicit::task_status::input_required;
  return r;
}

}  // namespace

TEST_CASE("redis_task_store: two instances, one record, compare-and-set") {
  test_support::redis_server redis;
  elicit::redis_task_store a(options_for(redis)), b(options_for(redis));
  elicit::task_record r = record("t1");
  REQUIRE(a.create(r));
  CHECK(r.version == 1);
  CHECK_FALSE(b.create(r));  // the id is taken
  const auto seen = b.find("t1");
  REQUIRE(seen);
  CHECK(seen->to_json() == r.to_json());

  elicit::task_record on_a = *a.find("t1"), on_b = *b.find("t1");
  on_b.given = {{"address", {{"action", "decline"}}}};
  REQUIRE(b.replace(on_b));
  CHECK(on_b.version == 2);
  on_a.status = elicit::task_status::cancelled;
  CHECK_FALSE(a.replace(on_a));  // B changed it first: read again
  CHECK(on_a.version == 1);
  on_a = *a.find("t1");
  CHECK(on_a.given.contains("address"));
  CHECK_FALSE(b.find("no-such-task"));
}

TEST_CASE("redis_task_store: capacity over every instance, and expiry") {
  test_support::redis_server redis;
  elicit::redis_task_store a(options_for(redis), 2), b(options_for(redis), 2);
  elicit::task_record r1 = record("t1"), r2 = record("t2", 150), r3 = record("t3");
  REQUIRE(a.create(r1));
  REQUIRE(b.create(r2));
  CHECK_FALSE(a.create(r3));  // full: two tasks, one on each instance
  std::this_thread::sleep_for(std::chrono::milliseconds(300));
  CHECK_FALSE(b.find("t2"));  // its ttlMs passed
  CHECK(a.create(r3));        // and it no longer counts
}

TEST_CASE("redis_task_store: Redis stopped, then back") {
  test_support::redis_server redis;
  elicit::redis_task_store store(options_for(redis));
  elicit::task_record r = record("t1");
  REQUIRE(store.create(r));
  redis.stop();
  CHECK_THROWS_AS(store.find("t1"), elicit::task_store_unavailable);
  elicit::task_record other = record("t2");
  CHECK_THROWS_AS(store.create(other), elicit::task_store_unavailable);
  CHECK_THROWS_AS(store.replace(r), elicit::task_store_unavailable);
  CHECK_THROWS_WITH(store.ping(), Catch::Contains("elicit::redis_task_store: Redis at 127.0.0.1:"));
  redis.start();
  CHECK(store.create(other));
}

TEST_CASE("redis_task_store: refuses a bad prefix at construction") {
  elicit::redis_options o;
  CHECK_THROWS_WITH(elicit::redis_task_store(o),
                    Catch::Contains("elicit::redis_task_store: the key prefix must be 1 to 128 printable ASCII"));
}

}  // namespace unit_redis_task_store
