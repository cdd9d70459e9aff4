// Helpers shared by the unit tests: a form's property as text, the spec's example files, and
// violations as "pointer keyword" strings.
#pragma once

#include <elicit/answer/decode.hpp>
#include <elicit/form/schema.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace test_support {

// A property's schema as text, keys in the order the schema writes them.
template <class Form>
std::string property_text(std::string_view key) {
  return elicit::schema<Form>()["properties"][std::string(key)].dump();
}

// A file of ../spec/2026-07-28/examples/, keys in the order the file has them.
inline nlohmann::ordered_json spec_example(const std::string& relative) {
  std::ifstream in(std::string(ELICIT_SPEC_DIR) + "/2026-07-28/examples/" + relative);
  REQUIRE(in.good());
  return nlohmann::ordered_json::parse(in);
}

// The violations of a result (a decode, a response) as "pointer keyword" strings, in order.
template <class R>
std::vector<std::string> violation_keys(const R& r) {
  std::vector<std::string> out;
  for (const auto& v : r.violations()) out.push_back(std::string(v.pointer) + " " + std::string(v.keyword));
  return out;
}

// Those of an answer's content decoded as Form; a value comes exactly when there are none.
template <class Form>
std::vector<std::string> content_violations(const nlohmann::json& content, elicit::decode_options options = {}) {
  const auto d = elicit::decode_content<Form>(content, options);
  std::vector<std::string> out = violation_keys(d);
  CHECK(d.has_value() == out.empty());
  return out;
}

}  // namespace test_support
