// decode(text) reads the answer straight from its text (detail/json_scanner.hpp, detail/engine/reply.hpp), without
// building the document; decode(json) reads the parsed document. They must judge every answer
// alike: same action, same violations in the same order, same value. Here on hand-picked
// documents (repeated keys, keys in any order, content that is not an object, nesting in
// unknown keys) and on thousands of generated ones.
#include "../../../../samples/forms.hpp"
#include "../../support/forms.hpp"

#include <elicit/detail/same_text.hpp>

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_detail_engine_reply {

using nlohmann::json;

namespace {

// Returns what came of the answer (the same from both readings, or the test fails).
template <class Form>
elicit::outcome same_reading(const std::string& text, elicit::decode_options options = {}) {
  INFO(text);
  const elicit::response<Form> from_text = elicit::decode<Form>(text, options);
  const json parsed = json::parse(text);
  const elicit::response<Form> from_json = elicit::decode<Form>(parsed, options);
  // Only text shows a key that comes twice: strict refuses it there (duplicateKey); every other
  // violation is the same as the parsed document's.
  std::vector<elicit::violation> others;
  for (const elicit::violation_view v : from_text.violations())
    if (v.keyword != "duplicateKey") others.emplace_back(v);
  if (others.size() != from_text.violations().size()) {
    CHECK(options.strict);
    CHECK(from_text.outcome() == elicit::outcome::invalid);
    CHECK(others == from_json.violations().items());
    return from_text.outcome();
  }
  CHECK(from_text.action() == from_json.action());
  CHECK(from_text.outcome() == from_json.outcome());
  CHECK(fmt::format("{}", from_text.violations()) == fmt::format("{}", from_json.violations()));
  CHECK(from_text.violations().items() == from_json.violations().items());
  REQUIRE(from_text.accepted() == from_json.accepted());
  if (from_text.accepted()) CHECK(elicit::to_content(*from_text) == elicit::to_content(*from_json));
  return from_text.outcome();
}

// What came of the answer read without `strict`.
template <class Form>
elicit::outcome same_reading_strict_or_not(const std::string& text) {
  const elicit::outcome lenient = same_reading<Form>(text);
  same_reading<Form>(text, {.strict = true});
  return lenient;
}

}  // namespace

TEST_CASE("decode(text) and decode(json) read hand-picked answers alike") {
  for (
      const std::string text : {
          R"({"action":"accept","content":{"country_code":"FR","insured_value_gbp":10}})",
          R"({"content":{"country_code":"FR"},"action":"accept"})",                      // content first
          R"({"action":"accept","content":{"country_code":"XX","country_code":"IE"}})",  // repeated field: last wins
          R"({"action":"accept","content":{"country_code":"IE","country_code":"XX"}})",
          R"({"action":"decline","action":"accept","content":{"country_code":"IE"}})",  // repeated action
          R"({"action":"accept","content":{"country_code":"IE"},"content":{"insured_value_gbp":-1}})",
          R"({"action":"accept","content":{"country_code":"IE"},"content":7})",  // repeated content, not an object
          R"({"action":"accept","content":[1,{"a":2}],"content":{"country_code":"NL"}})",
          R"({"action":"accept","content":null})",
          R"({"action":"accept","content":"text"})",
          R"({"action":"accept","content":[]})",
          R"({"action":"accept"})",
          R"({"action":"accept","content":{}})",
          R"({"action":["accept"],"content":{"country_code":"IE"}})",
          R"({"action":{"accept":true}})",
          R"({"action":null})",
          R"({})",
          R"([])",
          R"([{"action":"accept"}])",
          R"("accept")",
          R"(12.5)",
          R"(null)",
          // Unknown keys, at every level, named like the keys that matter.
          R"({"_meta":{"action":"decline","content":{"country_code":"XX"}},"action":"accept","content":{"country_code":"GB"}})",
          R"({"action":"accept","content":{"country_code":"GB","action":"decline","content":{"country_code":"XX"}}})",
          R"({"action":"accept","content":{"zz":[[[{"country_code":"XX"}]]],"country_code":"GB","aa":{"b":[1,2,{}]}}})",
          R"({"action":"accept","content":{"country_code":"GB","extra":1,"extra":2,"Extra":3,"é":4}})",
          // Field values of every shape.
          R"({"action":"accept","content":{"country_code":["GB"],"insured_value_gbp":{"v":1},"signature_required":[]}})",
          R"({"action":"accept","content":{"country_code":{},"insured_value_gbp":[[]],"signature_required":null}})",
          R"({"action":"accept","content":{"country_code":"GB","insured_value_gbp":1e3,"signature_required":true}})",
          R"({"action":"accept","content":{"country_code":"GB","insured_value_gbp":18446744073709551615}})",
          R"({"action":"accept","content":{"country_code":"GB","insured_value_gbp":-9223372036854775808}})",
      }) {
    same_reading_strict_or_not<shipping::ShipmentOptions>(text);
  }
  for (
      const std::string text : {
          R"({"action":"accept","content":{"plain":"Red","titled":"g","size":"L","code":"B","many":["Red",["Blue"],{"x":1}]}})",
          R"({"action":"accept","content":{"plain":"Red","titled":"g","size":"L","code":"B","many":["Red","Red"],"some":["r"],"few":[]}})",
          R"({"action":"accept","content":{"many":[],"many":["Green"],"plain":"Blue","titled":"b","size":"S","code":"A"}})",
      }) {
    same_reading_strict_or_not<forms::Choices>(text);
  }
}

TEST_CASE("decode(text) keeps the depth limit at the same place as before") {
  auto nested = [](std::size_t depth) {  // the result object is level 1, content 2, the value 3...
    return R"({"action":"accept","content":{"street":)" + std::string(depth - 2, '[') + std::string(depth - 2, ']') +
           "}}";
  };
  CHECK(elicit::decode<shipping::DeliveryAddress>(nested(32)).violations()[0].keyword == "type");
  CHECK(elicit::decode<shipping::DeliveryAddress>(nested(33)).violations()[0].keyword == "maxDepth");
  same_reading<shipping::DeliveryAddress>(nested(33));  // the same violation, in the same words, both ways
  CHECK(elicit::decode<shipping::DeliveryAddress>(nested(4), {.max_depth = 4}).violations()[0].keyword == "type");
  CHECK(elicit::decode<shipping::DeliveryAddress>(nested(5), {.max_depth = 4}).violations()[0].keyword == "maxDepth");
  // Skipped and unknown values count too: depth is a property of the text, not of the form.
  const std::string deep_meta = R"({"_meta":)" + std::string(40, '[') + std::string(40, ']') + R"(,"action":"cancel"})";
  CHECK(elicit::decode<shipping::DeliveryAddress>(deep_meta).violations()[0].keyword == "maxDepth");
  CHECK(elicit::decode<shipping::DeliveryAddress>(R"({"a":{"b":{}}})", {.max_depth = 2}).violations()[0].keyword ==
        "maxDepth");
  CHECK(elicit::decode<shipping::DeliveryAddress>("[]", {.max_depth = 0}).violations()[0].keyword == "maxDepth");
  // The text is read once: what comes first in it, a syntax error or the level past the limit, is reported.
  const std::string deep = std::string(40, '[');
  CHECK(elicit::decode<shipping::DeliveryAddress>(R"({"action":"cancel"})" + deep).violations()[0].keyword == "json");
  CHECK(elicit::decode<shipping::DeliveryAddress>("x" + deep).violations()[0].keyword == "json");
  CHECK(elicit::decode<shipping::DeliveryAddress>(deep + "x").violations()[0].keyword == "maxDepth");
}

namespace {

// A valid value of a field, as JSON text, for each field of a form (its wire name), and whether
// the field may be left out.
struct valid_field {
  std::string wire;
  bool required;
  std::vector<std::string> values;
};

// A random JSON document shaped like an ElicitResult for a form with these wire names: the
// keys that matter and others, in any order, sometimes repeated, with values of every kind.
// One in three is a valid accepted answer (every required field, each with a valid value), so
// that the readings are compared on accepted answers too.
class answer_maker {
 public:
  answer_maker(std::vector<std::string> fields, std::vector<std::string> words, std::vector<valid_field> valid)
      : fields_(std::move(fields)), words_(std::move(words)), valid_(std::move(valid)) {}

  std::string result() {
    if (chance(3)) return valid_result();
    if (chance(5)) return value(0);
    std::vector<std::string> members;
    if (!chance(10)) members.push_back(R"("action":)" + action());
    if (!chance(10)) members.push_back(R"("content":)" + (chance(10) ? value(1) : content()));
    if (chance(5)) members.push_back(R"("action":)" + action());
    if (chance(8)) members.push_back(R"("content":)" + (chance(4) ? value(1) : content()));
    if (chance(5)) members.push_back(R"("_meta":)" + value(1));
    std::shuffle(members.begin(), members.end(), random_);
    return "{" + join(members) + "}";
  }

 private:
  std::string valid_result() {
    std::vector<std::string> content;
    for (const valid_field& f : valid_) {
      if (!f.required && chance(3)) continue;
      content.push_back(json(f.wire).dump() + ":" + f.values[pick(f.values.size())]);
    }
    if (chance(6)) content.push_back(json(words_[pick(words_.size())] + "_x").dump() + ":" + value(2));  // unknown
    std::shuffle(content.begin(), content.end(), random_);
    std::vector<std::string> members{R"("action":"accept")", R"("content":{)" + join(content) + "}"};
    if (chance(4)) members.push_back(R"("_meta":)" + value(1));
    std::shuffle(members.begin(), members.end(), random_);
    return "{" + join(members) + "}";
  }
  std::string action() {
    static const std::vector<std::string> actions = {R"("accept")", R"("accept")", R"("accept")", R"("decline")",
                                                     R"("cancel")", R"("ACCEPT")", "1",           "null"};
    return actions[pick(actions.size())];
  }
  std::string content() {
    std::vector<std::string> members;
    for (const std::string& f : fields_) {
      if (!chance(8)) members.push_back(json(f).dump() + ":" + field_value());
      if (chance(10)) members.push_back(json(f).dump() + ":" + field_value());  // repeated
    }
    if (chance(6)) members.push_back(json(words_[pick(words_.size())] + "_x").dump() + ":" + value(2));
    std::shuffle(members.begin(), members.end(), random_);
    return "{" + join(members) + "}";
  }
  std::string field_value() {
    if (chance(6)) return value(2);
    if (chance(3)) {
      std::vector<std::string> items;
      for (std::size_t n = pick(4); n > 0; --n) items.push_back(chance(6) ? value(3) : word());
      return "[" + join(items) + "]";
    }
    return chance(2) ? word() : scalar();
  }
  std::string word() { return json(words_[pick(words_.size())]).dump(); }
  std::string scalar() {
    // clang-format off
    static const std::vector<std::string> scalars = {"0",     "1",     "-1",    "2.5",   "1e3",  "99999999999",
                                                     "true",  "false", "null",  "5000",  "5001", "-0.0",
                                                     R"("")", R"("x")", R"("2025-01-31")", R"("2025-01-31T09:30:00Z")",
                                                     R"("a@b.co")", R"("https://e.org")"};
    // clang-format on
    return scalars[pick(scalars.size())];
  }
  std::string value(int depth) {
    if (depth > 5 || chance(2)) return chance(2) ? scalar() : word();
    std::vector<std::string> items;
    const bool object = chance(2);
    for (std::size_t n = pick(4); n > 0; --n)
      items.push_back(object ? word() + ":" + value(depth + 1) : value(depth + 1));
    return object ? "{" + join(items) + "}" : "[" + join(items) + "]";
  }
  static std::string join(const std::vector<std::string>& parts) {
    std::string out;
    for (const std::string& p : parts) out += (out.empty() ? "" : ",") + p;
    return out;
  }
  std::size_t pick(std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random_); }
  bool chance(std::size_t one_in) { return pick(one_in) == 0; }

  std::vector<std::string> fields_, words_;
  std::vector<valid_field> valid_;
  std::mt19937 random_{20261130};
};

// Reads `count` generated answers both ways, and requires that at least `min_accepted` of them
// were accepted and at least `min_invalid` were invalid (accept with content that broke a rule,
// or a malformed result): a generator that made only one kind would compare little.
template <class Form>
void generated_answers_read_alike(std::vector<std::string> words,
                                  const std::map<std::string, std::vector<std::string>>& valid, int count,
                                  int min_accepted, int min_invalid) {
  std::vector<std::string> fields;
  std::vector<valid_field> valid_fields;
  for (const auto& s : elicit::detail::form_spec<Form>) {
    fields.emplace_back(s.wire);
    REQUIRE(valid.contains(std::string(s.wire)));  // a valid value for every field
    valid_fields.push_back({std::string(s.wire), s.required(), valid.at(std::string(s.wire))});
  }
  words.insert(words.end(), fields.begin(), fields.end());
  words.insert(words.end(), {"action", "content", "accept"});
  answer_maker make(fields, words, valid_fields);
  std::map<elicit::outcome, int> outcomes;
  for (int i = 0; i < count; ++i) ++outcomes[same_reading_strict_or_not<Form>(make.result())];
  INFO("accepted " << outcomes[elicit::outcome::accepted] << ", invalid " << outcomes[elicit::outcome::invalid]
                   << ", declined " << outcomes[elicit::outcome::declined] << ", cancelled "
                   << outcomes[elicit::outcome::cancelled] << " of " << count);
  CHECK(outcomes[elicit::outcome::accepted] >= min_accepted);
  CHECK(outcomes[elicit::outcome::invalid] >= min_invalid);
  CHECK(outcomes[elicit::outcome::declined] > 0);
  CHECK(outcomes[elicit::outcome::cancelled] > 0);
}

}  // namespace

TEST_CASE("decode(text) and decode(json) read generated answers alike") {
  // About a third of the answers are made valid, and most of the rest break a rule: each form
  // must see at least 20% accepted and 40% invalid.
  const std::vector<std::string> countries{R"("GB")", R"("IE")", R"("FR")", R"("DE")", R"("NL")"};
  generated_answers_read_alike<shipping::ShipmentOptions>(
      {"GB", "IE", "FR", "DE", "NL", "US"},
      {{"country_code", countries},
       {"insured_value_gbp", {"0", "50", "5000", "1e3", "250.0", "-0"}},
       {"signature_required", {"true", "false"}}},
      3000, 600, 1200);
  generated_answers_read_alike<shipping::DeliveryAddress>(
      {"SW1A 1AA", "London", "GB", "a very long street name"},
      {{"street", {R"("1 High St")", R"("")", R"("a very long street name")", R"("Zoë's \"yard\"")"}},
       {"city", {R"("London")", R"("Zoë")", R"("中文")"}},
       {"postcode", {R"("SW1A 1AA")", R"("12345")", R"("AB1 2CD")", R"("😀😀😀😀😀😀😀😀")"}},
       {"country_code", countries}},
      3000, 600, 1200);
  generated_answers_read_alike<forms::Choices>(
      {"Red", "Green", "Blue", "r", "g", "b", "S", "M", "L", "A", "B", "urgent", "high", "normal", "low"},
      {{"plain", {R"("Red")", R"("Green")", R"("Blue")"}},
       {"titled", {R"("#FF0000")", R"("#00FF00")", R"("#0000FF")"}},
       {"size", {R"("small")", R"("medium")", R"("large")"}},
       {"priority", {R"("urgent")", R"("high")", R"("normal")"}},
       {"code", {R"("A")", R"("B")"}},
       {"maybe", {R"("Red")", R"("Blue")"}},
       {"many", {"[]", R"(["Red","Red"])", R"(["Blue"])"}},
       {"some", {R"(["#FF0000"])", R"(["#0000FF","#FF0000"])"}},
       {"few", {"[]", R"(["high"])", R"(["urgent","normal"])"}}},
      3000, 600, 1200);
  generated_answers_read_alike<forms::Plain>(
      {"x", "héllo", "a.b@ex.org"},
      {{"flag", {"true", "false"}},
       {"count", {"0", "-5", "30.0", "1e3", "2147483647", "-2147483648"}},
       {"big", {"-9007199254740993", "0", "9223372036854775807"}},
       {"ratio", {"0.25", "-1e300", "3"}},
       {"weight", {"70.5", "0", "-1.5e3"}},
       {"text", {R"("x")", R"("héllo")", R"("")"}},
       {"day", {R"("2024-02-29")", R"("2000-01-01")"}},
       {"moment", {R"("2025-01-31T09:30:00Z")", R"("2025-01-31T10:30:00+01:00")"}},
       {"mail", {R"("a.b@ex.org")"}},
       {"link", {R"("https://e.org")", R"("urn:x:y")"}}},
      3000, 600, 1200);
  generated_answers_read_alike<forms::Optionals>({"x", ""},
                                                 {{"maybe_flag", {"true"}},
                                                  {"maybe_count", {"4", "-1"}},
                                                  {"maybe_text", {R"("")", R"("y")"}},
                                                  {"maybe_day", {R"("2000-01-01")"}},
                                                  {"always", {R"("x")"}}},
                                                 2000, 400, 800);
}

namespace {

// Whether decode(text) refused the text as JSON (not as an answer).
template <class Form>
bool refused_as_json(const elicit::response<Form>& r) {
  return r.violations().size() == 1 && r.violations()[0].pointer.empty() && r.violations()[0].keyword == "json";
}

// decode(text) refuses `text` as JSON exactly when nlohmann::json::parse does (a NUL byte
// aside: the parser takes it for the end of the text), and reads it as decode(json) reads the
// parsed document when it does not.
template <class Form>
void parses_alike(const std::string& text) {
  INFO(json(text).dump(-1, ' ', true, json::error_handler_t::replace));
  const elicit::response<Form> r = elicit::decode<Form>(text);
  const bool parser_refuses = json::parse(text, nullptr, false).is_discarded() || text.find('\0') != std::string::npos;
  REQUIRE(refused_as_json(r) == parser_refuses);
  if (!parser_refuses) same_reading<Form>(text);
}

}  // namespace

TEST_CASE("decode(text) refuses exactly the texts the parser refuses, and reads values as it does") {
  const std::string head = R"({"action":"accept","content":{"flag":true,"count":)";
  // Values of a field, of an unknown key, and whole texts: every corner of the JSON grammar.
  const std::vector<std::string> values = {
      // numbers
      "0", "-0", "00", "01", "-01", "1.", ".5", "1.e3", "1e", "1e+", "1E-2", "-", "+1", "1.5e308", "1e309", "-1e400",
      "1e-400", "2.4e-324", "4.9e-324", "0.0000000000000000000000000000001e-300", "123456789012345678901234567890",
      "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
      "18446744073709551615", "18446744073709551616", "0e99999999999", "1e-99999999999", "1e99999999999",
      std::string(400, '9'), "0." + std::string(400, '0') + "1", "NaN", "Infinity", "-Infinity", "0x10", "1_000",
      // literals
      "true", "false", "null", "tru", "True", "nul", "nulll", "falsey",
      // strings and escapes
      R"("")", R"("a\"b")", R"("\\")", R"("\/")", R"("\b\f\n\r\t")", R"("\u0041")", R"("\u00e9")", R"("\u20AC")",
      R"("\uD83D\uDE00")", R"("\uD83D")", R"("\uDE00")", R"("\uD83D\u0041")", R"("\uD83Dx")", R"("\u12")",
      R"("\u12G4")", R"("\x41")", R"("\a")", R"("\)", "\"\\u0000\"", "\"tab\there\"", "\"new\nline\"", "\"\x7f\"",
      "\"\xc3\xa9\"", "\"\xc3\"", "\"\xc3(\"", "\"\xe2\x82\xac\"", "\"\xe2\x82\"", "\"\xed\xa0\x80\"",
      "\"\xf0\x9f\x98\x80\"", "\"\xf4\x90\x80\x80\"", "\"\xc0\xaf\"", "\"\xe0\x80\xaf\"", "\"\xff\"", "\"\x80\"",
      "\"unterminated", "'single'",
      // lists and objects
      "[]", "[1,]", "[,1]", "[1 2]", "[[[]]]", "{}", R"({"a":1,})", R"({"a" 1})", R"({1:2})", R"({"a":1 "b":2})",
      R"({"a":[{"b":null}]})", "[", "{", "]", "}",
      // whitespace and stray bytes
      " 1 ", "\t1\r\n",
      "\x0b"
      "1",
      "\f1", std::string("1\0", 2),
      "\xc2\xa0"
      "1",
      "1 x"};
  for (const std::string& v : values) {
    parses_alike<forms::Plain>(head + v + "}}");                                          // a field's value
    parses_alike<forms::Plain>(R"({"action":"accept","content":{"x":)" + v + "}}");       // an unknown key's
    parses_alike<forms::Plain>(R"({"_meta":)" + v + R"(,"action":"cancel"})");            // outside the content
    parses_alike<forms::Plain>(v);                                                        // the whole text
    parses_alike<forms::Plain>(R"({"action":"accept","content":{"text":[)" + v + "]}}");  // an item of a list
    parses_alike<forms::Choices>(R"({"action":"accept","content":{"many":[)" + v + "]}}");
  }
  // Keys with escapes are the same keys; a byte order mark may start the text, and nothing else.
  parses_alike<forms::Plain>(R"({"\u0061ction":"accept","content":{"\u0074ext":"x\u0041"}})");
  parses_alike<forms::Plain>(
      "\xEF\xBB\xBF"
      R"({"action":"decline"})");
  parses_alike<forms::Plain>(
      "\xEF\xBB"
      R"({"action":"decline"})");
  parses_alike<forms::Plain>(
      " \xEF\xBB\xBF"
      R"({"action":"decline"})");
  parses_alike<forms::Plain>("");
  parses_alike<forms::Plain>("   ");
  // A number of a million digits whose exponent outweighs them: read as 0, or refused as too
  // large, as the parser does (the exponent must not saturate below the digits' count).
  const std::string zeros(1'000'400, '0');
  parses_alike<forms::Plain>(head + "0,\"ratio\":1" + zeros + "e-1000000000}}");
  parses_alike<forms::Plain>(head + "0,\"ratio\":0." + zeros + "1e1000000000}}");
  CHECK(elicit::decode<forms::Plain>(head + "0,\"ratio\":0." + zeros + "1e1000000000}}").violations()[0].message ==
        "The answer holds a number too large to read.");
}

TEST_CASE("decode(text) refuses exactly the texts the parser refuses, on mutated answers") {
  const std::vector<std::string> seeds = {
      R"({"action":"accept","content":{"flag":true,"count":-12,"big":9007199254740993,"ratio":2.5e-3,"weight":1.5,)"
      R"("text":"h\u00e9llo \"w\"","day":"2024-02-29","moment":"2025-01-31T09:30:00Z","mail":"a@b.org",)"
      R"("link":"https://e.org/x?y=1"},"_meta":{"k":[1,2,{"z":null}]}})",
      R"({"content":{"many":["Red","Blue"],"plain":"Green","titled":"#00FF00","size":"small"},"action":"accept"})"};
  // Bytes that matter to the grammar, and some that never may appear outside a string.
  static constexpr char bytes[] = "\"\\{}[],:0123456789-+.eEtrufalsn \t\n\r\x01\x7f\x80\xbf\xc3\xe2\xed\xf0\xff";
  const std::string interesting(bytes, sizeof bytes);  // the closing NUL too
  std::mt19937 random(20261130);
  auto pick = [&](std::size_t n) { return std::uniform_int_distribution<std::size_t>(0, n - 1)(random); };
  int refused = 0, read = 0;
  for (int i = 0; i < 6000; ++i) {
    std::string text = seeds[pick(seeds.size())];
    for (std::size_t edits = 1 + pick(3); edits > 0; --edits) {
      const std::size_t at = pick(text.size() + 1);
      const char byte = interesting[pick(interesting.size())];
      switch (pick(4)) {
        case 0:
          if (at < text.size()) text[at] = byte;
          break;
        case 1: text.insert(text.begin() + static_cast<std::ptrdiff_t>(at), byte); break;
        case 2:
          if (at < text.size()) text.erase(at, 1);
          break;
        default: text.resize(at); break;
      }
    }
    const bool choices = text.find("many") != std::string::npos;
    if (choices) parses_alike<forms::Choices>(text);
    else parses_alike<forms::Plain>(text);
    ++(json::accept(text) ? read : refused);
  }
  // Both kinds, in numbers: a mutation that always broke (or never broke) the text tests little.
  CHECK(refused > 1000);
  CHECK(read > 1000);
}

TEST_CASE("decode(text) takes keys spelled as the form spells them, and reads any other spelling alike") {
  // In the form's order, out of it, spelled with escapes, with whitespace about the colon, and
  // keys that only begin like a field's.
  for (const std::string text : {
           R"({"action":"accept","content":{"country_code":"FR","insured_value_gbp":10,"signature_required":true}})",
           R"({"action":"accept","content":{"signature_required":true,"insured_value_gbp":10,"country_code":"FR"}})",
           R"({"\u0061ction":"accept","con\u0074ent":{"country_\u0063ode":"FR","insured_value_gbp":10}})",
           R"({ "action" : "accept" , "content" : { "country_code" :"FR", "insured_value_gbp"	:	7 } })",
           R"({"action":"accept","content":{"country_code_2":"FR","country_cod":"IE","country_code":"NL"}})",
           R"({"actions":"decline","action":"accept","contents":{},"content":{"country_code":"GB"}})",
           R"({"action":"accept","content":{"country_code":"GB","country_code":"XX"}})",
       }) {
    same_reading_strict_or_not<shipping::ShipmentOptions>(text);
  }
  // A key that JSON spells with escapes is never taken as its bytes: `"say "hi""` is not JSON.
  static_assert(!elicit::detail::form_spec<forms::OddKeys>[0].plain_wire);
  static_assert(!elicit::detail::form_spec<forms::OddKeys>[1].plain_wire);
  static_assert(!elicit::detail::form_spec<forms::OddKeys>[2].plain_wire);
  static_assert(elicit::detail::form_spec<forms::OddKeys>[3].plain_wire);
  const std::string odd =
      R"({"action":"accept","content":{"say \"hi\"":"x","back\\slash":3,"tab\there":true,"plain":1}})";
  CHECK(same_reading_strict_or_not<forms::OddKeys>(odd) == elicit::outcome::accepted);
  CHECK(elicit::decode<forms::OddKeys>(odd)->slashed == 3);
  parses_alike<forms::OddKeys>(R"({"action":"accept","content":{"say "hi"":"x","plain":1}})");
  parses_alike<forms::OddKeys>("{\"action\":\"accept\",\"content\":{\"tab\there\":true}}");
  // A key that would be taken, then what must follow it: a key with no colon after it is
  // refused where it always was (not read as if the next string were the key).
  for (const std::string text :
       {R"({"action" "accept"})", R"({"action")", R"({"action":)", R"({"action)",
        R"({"action":"accept","content":{"country_code" "FR"}})", R"({"action":"accept","content":{"country_code")",
        R"({"action":"accept","content":{"country_code":}})",
        R"({"action":"accept","content":{"country_code" : "FR"}})", R"({"action" "content":1})",
        R"({"action""content":1})", R"({"content""action":"accept"})", R"({"action" "action":"accept"})",
        R"({"action":"accept","content":{"country_code""country_code":"FR"}})",
        R"({"action":"accept","content":{"country_code":"FR","insured_value_gbp""x":3}})"}) {
    parses_alike<shipping::ShipmentOptions>(text);
  }
  CHECK(elicit::decode<shipping::ShipmentOptions>(R"({"action" "content":1})").violations()[0].message ==
        "The answer is not valid JSON (at byte 11).");
  CHECK(elicit::decode<shipping::ShipmentOptions>(R"({"action":"accept","content":{"country_code" "FR"}})")
            .violations()[0]
            .message == "The answer is not valid JSON (at byte 46).");
}

TEST_CASE("keys and choices compare byte for byte at every length, a difference anywhere found") {
  // same_text compares words that overlap at the end: each length around the word sizes, the
  // one differing byte at each place, and the texts at their constant-evaluated reading too.
  for (std::size_t n = 0; n <= 40; ++n) {
    std::string a(n, ' ');
    for (std::size_t i = 0; i < n; ++i) a[i] = static_cast<char>('a' + i % 26);
    CHECK(elicit::detail::same_text(a, std::string(a)));
    CHECK_FALSE(elicit::detail::same_text(a, a + "x"));
    for (std::size_t at = 0; at < n; ++at) {
      std::string b = a;
      b[at] = '#';
      CHECK_FALSE(elicit::detail::same_text(a, b));
    }
  }
  static_assert(elicit::detail::same_text("country_code", "country_code"));
  static_assert(!elicit::detail::same_text("country_code", "country_cod3"));
}

}  // namespace unit_detail_engine_reply
