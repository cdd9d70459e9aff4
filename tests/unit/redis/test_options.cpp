// <elicit/redis/options.hpp>: redis_options::from_url, host, port and IPv6 read from the URL, and
// every other text refused, a password in it without being repeated.
#include <elicit/redis/options.hpp>

#include <catch2/catch.hpp>

#include <stdexcept>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_redis_options {

TEST_CASE("redis options: from_url, and the URLs it refuses", "[redis]") {
  const auto o = elicit::redis_options::from_url("redis://10.0.0.5:6380", "app:");
  CHECK(o.host == "10.0.0.5");
  CHECK(o.port == 6380);
  CHECK(o.prefix == "app:");
  CHECK(elicit::redis_options::from_url("redis://cache", "app:").port == 6379);
  CHECK(elicit::redis_options::from_url("redis://cache/", "app:").host == "cache");
  const auto v6 = elicit::redis_options::from_url("redis://[::1]:7000", "app:");
  CHECK(v6.host == "::1");
  CHECK(v6.port == 7000);
  for (const char* bad : {"http://cache:6379", "redis://", "redis://:6379", "redis://cache:0", "redis://cache:65536",
                          "redis://cache:63x", "redis://cache:", "redis://cache/2", "redis://[::1", "redis://[::1]x"})
    CHECK_THROWS_AS(elicit::redis_options::from_url(bad, "app:"), std::invalid_argument);
  // A password in the URL is refused without being repeated.
  CHECK_THROWS_WITH(elicit::redis_options::from_url("redis://:hunter2@cache:6379", "app:"),
                    Catch::Contains("set password instead") && !Catch::Contains("hunter2"));
}

}  // namespace unit_redis_options
