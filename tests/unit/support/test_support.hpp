// Helpers shared by the unit tests: a form's property as text, and the spec's example files.
#pragma once

#include <elicit/form/schema.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <fstream>
#include <string>
#include <string_view>

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

}  // namespace test_support
