// How the Streamable HTTP transport serves (<elicit/server/http/options.hpp>): the defaults a server
// gets without setting any, and the bounds that follow from one another (the waiting questions
// from their memory budget, the per-client share from the whole).
#include <elicit/server/http/options.hpp>

#include <catch2/catch.hpp>

#include <chrono>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_http_options {

TEST_CASE("http_options: the defaults a server gets without setting any") {
  const elicit::http_options o;
  CHECK(o.port == 0);
  CHECK(o.limits.max_bytes == 4 * 1024 * 1024);
  CHECK(o.max_waiting == o.waiting_memory / elicit::http_options::bytes_per_waiting);
  CHECK(o.progress_interval == elicit::keepalive_interval);
  CHECK_FALSE(o.blocking.has_value());
}

TEST_CASE("http_options: the bounds follow from the memory budget and leave a client a share") {
  const elicit::http_options o;
  CHECK(elicit::http_options::bytes_per_waiting == 16 * 1024);
  CHECK(o.max_waiting == 16384);
  CHECK(o.waiting_memory_per_client * 4 == o.waiting_memory);
  CHECK(o.max_waiting_per_client < o.max_waiting);
  CHECK(o.max_sessions_per_client * 16 == o.max_sessions);
  CHECK(o.limits.max_depth == 64);
  CHECK(o.threads == 0);
  CHECK(o.max_connections_per_client == 0);  // max_connections / 8, when the server starts
  CHECK(o.answer_timeout == std::chrono::seconds(60));
  CHECK(o.request_timeout < o.idle_timeout);
  CHECK(o.trusted_proxies.empty());
  CHECK_FALSE(o.principal);  // the Authorization field, or "anonymous"
  CHECK_FALSE(o.log);        // stderr
}

TEST_CASE("http_options: a designated initializer sets one bound and keeps the others") {
  elicit::http_options o;
  o.port = 8080;
  o.limits = {.max_bytes = 1024};
  CHECK(o.port == 8080);
  CHECK(o.limits.max_bytes == 1024);
  CHECK(o.limits.max_depth == 32);  // json_limits' own default, not the transport's 64
  CHECK(o.max_sessions == 16384);
}

}  // namespace unit_server_http_options
