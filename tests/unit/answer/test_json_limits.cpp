// The two numbers every reader of client JSON checks first (<elicit/answer/json_limits.hpp>): their
// defaults, and that parse_json and exceeds hold to the ones given.
#include <elicit/elicit.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <string>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_answer_json_limits {

TEST_CASE("json_limits: 1 MiB of text, 32 levels, 65,536 values by default, decode_options agrees") {
  const elicit::json_limits l;
  CHECK(l.max_bytes == 1024 * 1024);
  CHECK(l.max_depth == 32);
  CHECK(l.max_values == 65536);
  const elicit::decode_options d;
  CHECK(d.limits().max_bytes == l.max_bytes);
  CHECK(d.limits().max_depth == l.max_depth);
  const elicit::decode_options tight{.max_bytes = 10, .max_depth = 2};
  CHECK(tight.limits().max_bytes == 10);
  CHECK(tight.limits().max_depth == 2);
}

TEST_CASE("json_limits: each bound is held at its edge by parse_json and exceeds") {
  const elicit::json_limits l{.max_bytes = 16, .max_depth = 2, .max_values = 4};
  CHECK(elicit::parse_json("[[1]]", l));
  CHECK(elicit::parse_json("[[[1]]]", l).error()->keyword == "maxDepth");
  CHECK(elicit::parse_json("[1,2,3]", l));  // four values: the list and its three items
  CHECK(elicit::parse_json("[1,2,3,4]", l).error()->keyword == "maxValues");
  CHECK(elicit::parse_json(R"("0123456789abcd")", l));                                  // 16 bytes
  CHECK(elicit::parse_json(R"("0123456789abcde")", l).error()->keyword == "maxBytes");  // 17
  CHECK_FALSE(elicit::exceeds(nlohmann::json::parse("[[1]]"), l));
  CHECK(elicit::exceeds(nlohmann::json::parse("[[[1]]]"), l)->keyword == "maxDepth");
}

}  // namespace unit_answer_json_limits
