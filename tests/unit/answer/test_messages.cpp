// The catalogue of messages (messages.hpp): every kind of message provoked by an answer, in
// English and in French, each sentence written out by hand; proof that each case really uses the
// kinds it claims (a marker put in their place shows up), and that together the cases use every
// kind; templates a catalogue refuses; the French catalogue through the ask loop.
#include <elicit/answer/decode.hpp>
#include <elicit/answer/messages.hpp>
#include <elicit/elicit.hpp>
#include <elicit/protocol/ask.hpp>
#include <elicit/protocol/protocol.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <functional>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_answer_messages {

using elicit::message_kind;
using elicit::messages;
using nlohmann::json;

namespace words_test {

enum class Meal { fish, meat, veggie };
constexpr auto elicit_options(Meal) {
  return std::array{elicit::option{Meal::fish, "Fish"}, elicit::option{Meal::meat, "Meat"},
                    elicit::option{Meal::veggie, "Vegetarian"}};
}
enum class Seat { a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, a12 };

struct Booking {
  elicit::field<std::string, elicit::title<"Name">, elicit::length<2, 8>> name;
  elicit::field<int, elicit::title<"Guests">, elicit::range<1, 8>> guests;
  elicit::field<std::int64_t, elicit::title<"Big">> big;
  elicit::field<float, elicit::title<"Weight">> weight;
  elicit::field<elicit::email, elicit::title<"E-mail">> mail;
  elicit::field<elicit::uri, elicit::title<"Website">> site;
  elicit::field<std::chrono::year_month_day, elicit::title<"Day">> day;
  elicit::field<std::chrono::sys_seconds, elicit::title<"Arrival">> at;
  elicit::field<Meal, elicit::title<"Meal">> meal;
  elicit::field<Seat, elicit::title<"Seat">> seat;
  elicit::field<std::set<Meal>, elicit::title<"Extras">, elicit::items<2, 2>> extras;
  elicit::field<bool, elicit::title<"Confirmed">> ok;
};

}  // namespace words_test

using words_test::Booking;

namespace {

json valid_content() {
  return {{"name", "Ada"},
          {"guests", 2},
          {"big", 1},
          {"weight", 1.5},
          {"mail", "a@example.com"},
          {"site", "https://example.com"},
          {"day", "2025-01-31"},
          {"at", "2025-01-31T09:30:00Z"},
          {"meal", "fish"},
          {"seat", "a1"},
          {"extras", {"fish", "meat"}},
          {"ok", true}};
}

// The content with one field changed (or removed, given a discarded value).
json with_field(const std::string& key, const json& value) {
  json c = valid_content();
  if (value.is_discarded()) c.erase(key);
  else c[key] = value;
  return c;
}

// The message of the one violation at `pointer`, or a text that says there was none.
std::string message_at(const elicit::violation_list& list, const std::string& pointer) {
  for (const auto v : list)
    if (v.pointer == pointer) return std::string(v.message);
  return "(no violation at " + pointer + ")";
}

elicit::decode_options in(const messages& words, bool strict = false) {
  elicit::decode_options o;
  o.words = &words;
  o.strict = strict;
  return o;
}

std::string field_message(const std::string& key, const json& value, const messages& words) {
  return message_at(elicit::decode_content<Booking>(with_field(key, value), in(words)).violations(), "/" + key);
}

// One case: what it provokes, in a catalogue's words, its text in English and in French, and
// the kinds its text is made of.
struct word_case {
  std::string name;
  std::function<std::string(const messages&)> run;
  std::string english, french;
  std::vector<message_kind> kinds;
};

std::vector<word_case> cases() {
  using k = message_kind;
  const auto field = [](std::string key, json value) {
    return [key = std::move(key), value = std::move(value)](const messages& w) { return field_message(key, value, w); };
  };
  const json discarded(json::value_t::discarded);
  return {
      {"required", field("name", discarded), "Name is required.", "Name est obligatoire.", {k::required}},
      {"a boolean's type",
       field("ok", "yes"),
       R"(Confirmed must be true or false; got the text "yes".)",
       "Confirmed doit être vrai ou faux ; reçu le texte « yes ».",
       {k::type, k::expect_boolean, k::got_text}},
      {"an integer's type",
       field("guests", 2.5),
       "Guests must be a whole number; got the number 2.5.",
       "Guests doit être un nombre entier ; reçu le nombre 2.5.",
       {k::type, k::expect_integer, k::got_number}},
      {"a number's type",
       field("weight", json::array({1})),
       "Weight must be a number; got a list.",
       "Weight doit être un nombre ; reçu une liste.",
       {k::type, k::expect_number, k::got_list}},
      {"a text's type",
       field("name", json::object()),
       "Name must be text; got an object.",
       "Name doit être du texte ; reçu un objet.",
       {k::type, k::expect_text, k::got_object}},
      {"a date's type",
       field("day", 5),
       "Day must be a date (YYYY-MM-DD); got the number 5.",
       "Day doit être une date (AAAA-MM-JJ) ; reçu le nombre 5.",
       {k::type, k::expect_date}},
      {"a date and time's type",
       field("at", true),
       "Arrival must be a date and time; got true.",
       "Arrival doit être une date et une heure ; reçu true.",
       {k::type, k::expect_date_time}},
      {"a multi-select's type",
       field("extras", "fish"),
       R"(Extras must be a list of choices; got the text "fish".)",
       "Extras doit être une liste de choix ; reçu le texte « fish ».",
       {k::type, k::expect_choices}},
      {"minimum",
       field("guests", 0),
       "Guests must be at least 1; got 0.",
       "Guests doit valoir au moins 1 ; reçu 0.",
       {k::minimum}},
      {"maximum",
       field("guests", 9),
       "Guests must be at most 8; got 9.",
       "Guests doit valoir au plus 8 ; reçu 9.",
       {k::maximum}},
      {"past a float",
       field("weight", 1e300),
       "Weight is too large for this field; got 1e+300.",
       "Weight est trop grand pour ce champ ; reçu 1e+300.",
       {k::too_large}},
      {"past an integer type",
       field("big", 10'000'000'000'000'000'000ULL),
       "Big must be between -9223372036854775808 and 9223372036854775807; got 10000000000000000000.",
       "Big doit être compris entre -9223372036854775808 et 9223372036854775807 ; reçu 10000000000000000000.",
       {k::outside_type}},
      {"minLength, singular and plural",
       field("name", "A"),
       "Name must be at least 2 characters long; got 1 character.",
       "Name doit comporter au moins 2 caractères ; reçu 1 caractère.",
       {k::min_length}},
      {"maxLength",
       field("name", "Ada Lovelace"),
       "Name must be at most 8 characters long; got 12 characters.",
       "Name doit comporter au plus 8 caractères ; reçu 12 caractères.",
       {k::max_length}},
      {"minItems",
       field("extras", {"fish"}),
       "Pick at least 2 for Extras; got 1.",
       "Choisissez au moins 2 options pour Extras ; reçu 1.",
       {k::min_items}},
      {"maxItems",
       field("extras", {"fish", "meat", "veggie"}),
       "Pick at most 2 for Extras; got 3.",
       "Choisissez au plus 2 options pour Extras ; reçu 3.",
       {k::max_items}},
      {"repeats do not make up the minimum",
       field("extras", {"fish", "fish"}),
       "Pick at least 2 different choices for Extras; got 1.",
       "Choisissez au moins 2 options différentes pour Extras ; reçu 1.",
       {k::min_different}},
      {"e-mail",
       field("mail", "nope"),
       "E-mail must be an e-mail address such as name@example.com.",
       "E-mail doit être une adresse e-mail telle que nom@exemple.com.",
       {k::email}},
      {"URI",
       field("site", "nope"),
       "Website must be an absolute URI such as https://example.com/page.",
       "Website doit être un URI absolu tel que https://exemple.com/page.",
       {k::uri}},
      {"date",
       field("day", "2025-13-01"),
       R"(Day must be a calendar date as YYYY-MM-DD, e.g. 2025-01-31; got the text "2025-13-01".)",
       "Day doit être une date au format AAAA-MM-JJ, par exemple 2025-01-31 ; reçu le texte « 2025-13-01 ».",
       {k::date}},
      {"date and time",
       field("at", "yesterday"),
       R"(Arrival must be a date and time as in RFC 3339, e.g. 2025-01-31T09:30:00Z; got the text "yesterday".)",
       "Arrival doit être une date et une heure au format RFC 3339, par exemple 2025-01-31T09:30:00Z ; reçu le "
       "texte « yesterday ».",
       {k::date_time}},
      {"whole seconds",
       field("at", "2025-01-31T09:30:00.5Z"),
       R"(Arrival holds whole seconds; got a fraction of a second in the text "2025-01-31T09:30:00.5Z".)",
       "Arrival se compte en secondes entières ; reçu une fraction de seconde dans le texte « "
       "2025-01-31T09:30:00.5Z ».",
       {k::whole_seconds}},
      {"NUL",
       field("name", std::string("A\0b", 3)),
       "Name must not contain a NUL character (U+0000); one is at character 2.",
       "Name ne doit pas contenir de caractère NUL (U+0000) ; il y en a un au caractère 2.",
       {k::nul_character}},
      {"direction control",
       field("name", "A\u202Eb"),
       "Name must not contain the invisible direction control U+202E, at character 2: it changes the order in which "
       "the text is shown. Remove it.",
       "Name ne doit pas contenir le caractère invisible de direction U+202E, au caractère 2 : il change l'ordre "
       "d'affichage du texte. Supprimez-le.",
       {k::direction_control}},
      {"text not UTF-8",
       field("name", "\xff\xfe"),
       "Name is not valid UTF-8 text.",
       "Name n'est pas un texte UTF-8 valide.",
       {k::not_utf8}},
      {"a choice, by the titles shown",
       field("meal", "pork"),
       R"(Meal must be one of "Fish", "Meat", "Vegetarian"; got the text "pork".)",
       "Meal doit être l'un de « Fish », « Meat », « Vegetarian » ; reçu le texte « pork ».",
       {k::one_of, k::option}},
      {"a choice among many",
       field("seat", "z9"),
       R"(Seat must be one of "a1", "a2", "a3", "a4", "a5", "a6", "a7", "a8", "a9", "a10" (and 2 more); got the text "z9".)",
       "Seat doit être l'un de « a1 », « a2 », « a3 », « a4 », « a5 », « a6 », « a7 », « a8 », « a9 », « a10 » (et 2 "
       "de plus) ; reçu le texte « z9 ».",
       {k::one_of, k::more_options}},
      {"a choice sent by its title",
       field("meal", "Vegetarian"),
       R"(Meal got the title "Vegetarian" where the value of that choice, "veggie", must be sent.)",
       "Meal a reçu le titre « Vegetarian » là où la valeur de ce choix, « veggie », doit être envoyée.",
       {k::title_for_value}},
      {"a number out of range",
       field("guests", std::numeric_limits<double>::infinity()),
       "Guests must be a whole number; got a number out of range.",
       "Guests doit être un nombre entier ; reçu un nombre hors limites.",
       {k::got_bad_number}},
      {"binary data",
       field("name", json::binary({1, 2})),
       "Name must be text; got binary data.",
       "Name doit être du texte ; reçu des données binaires.",
       {k::got_binary}},
      {"nothing readable",
       [discarded](const messages& w) {
         json c = valid_content();
         c["guests"] = discarded;  // what parse(text, nullptr, false) gives for bad text
         return message_at(elicit::decode_content<Booking>(c, in(w)).violations(), "/guests");
       },
       "Guests must be a whole number; got nothing readable.",
       "Guests doit être un nombre entier ; reçu rien de lisible.",
       {k::got_unreadable}},
      {"a type error on text that is not UTF-8",
       field("guests", "\xff"),
       "Guests must be a whole number; got text that is not valid UTF-8.",
       "Guests doit être un nombre entier ; reçu un texte qui n'est pas de l'UTF-8 valide.",
       {k::got_not_utf8}},
      {"content not an object",
       [](const messages& w) {
         return message_at(elicit::decode_content<Booking>(json::array(), in(w)).violations(), "");
       },
       "The answer's content must be a JSON object; got a list.",
       "Le contenu de la réponse doit être un objet JSON ; reçu une liste.",
       {k::not_an_object}},
      {"an unknown key",
       [](const messages& w) {
         return message_at(elicit::decode_content<Booking>(with_field("x", 1), in(w, true)).violations(), "/x");
       },
       R"("x" is not a field of this form.)",
       "« x » n'est pas un champ de ce formulaire.",
       {k::unknown_key, k::key_named}},
      {"a long unknown key",
       [](const messages& w) {
         return message_at(
             elicit::decode_content<Booking>(with_field(std::string(200, 'k'), 1), in(w, true)).violations(), "");
       },
       "A key of 200 bytes is not a field of this form.",
       "Une clé de 200 octets n'est pas un champ de ce formulaire.",
       {k::unknown_key, k::key_long}},
      {"an unknown key that is not UTF-8, singular",
       [](const messages& w) {
         return message_at(elicit::decode_content<Booking>(with_field("\xff", 1), in(w, true)).violations(), "");
       },
       "A key of 1 byte that is not UTF-8 is not a field of this form.",
       "Une clé de 1 octet qui n'est pas de l'UTF-8 n'est pas un champ de ce formulaire.",
       {k::unknown_key, k::key_long_not_utf8}},
      {"a repeated key",
       [](const messages& w) {
         const std::string content = valid_content().dump();
         const std::string text = R"({"action":"accept","content":{"name":"Bo",)" + content.substr(1) + "}";
         return message_at(elicit::decode<Booking>(text, in(w, true)).violations(), "/name");
       },
       R"("name" comes more than once in the answer's content; send each key once.)",
       "« name » figure plus d'une fois dans le contenu de la réponse ; envoyez chaque clé une seule fois.",
       {k::repeated_key, k::key_named}},
      {"violations not listed",
       [](const messages& w) {
         elicit::decode_options o = in(w);
         o.max_violations = 1;
         json c = with_field("guests", 0);
         c["big"] = 10'000'000'000'000'000'000ULL;
         return message_at(elicit::decode_content<Booking>(c, o).violations(), "");
       },
       "1 more violation was not listed.",
       "1 autre violation n'a pas été listée.",
       {k::more_violations}},
      {"the re-ask of one",
       [](const messages& w) {
         return elicit::reask_message("Book?",
                                      elicit::decode_content<Booking>(with_field("guests", 0), in(w)).violations());
       },
       "Book?\n\nPlease correct this:\n- Guests must be at least 1; got 0.",
       "Book?\n\nVeuillez corriger ceci :\n- Guests doit valoir au moins 1 ; reçu 0.",
       {k::reask_one}},
      {"the re-ask of several",
       [](const messages& w) {
         json c = with_field("guests", 0);
         c.erase("name");
         return elicit::reask_message("Book?", elicit::decode_content<Booking>(c, in(w)).violations());
       },
       "Book?\n\nPlease correct these:\n- Name is required.\n- Guests must be at least 1; got 0.",
       "Book?\n\nVeuillez corriger ces points :\n- Name est obligatoire.\n- Guests doit valoir au moins 1 ; reçu 0.",
       {k::reask_many}},
      {"a refused answer's error",
       [](const messages& w) {
         const auto v = elicit::decode_content<Booking>(with_field("guests", 0), in(w)).violations();
         return elicit::invalid_params_error(1, v)["error"]["message"].get<std::string>();
       },
       "Invalid answer: /guests: Guests must be at least 1; got 0. (minimum)",
       "Réponse invalide: /guests: Guests doit valoir au moins 1 ; reçu 0. (minimum)",
       {k::answer_refused}},
      {"a refused answer's error, naming the question",
       [](const messages& w) {
         const auto v = elicit::decode_content<Booking>(with_field("guests", 0), in(w)).violations();
         return elicit::invalid_params_error(1, v, "booking")["error"]["message"].get<std::string>();
       },
       R"(Invalid answer to "booking": /guests: Guests must be at least 1; got 0. (minimum))",
       "Réponse invalide à « booking »: /guests: Guests doit valoir au moins 1 ; reçu 0. (minimum)",
       {k::answer_refused_to}},
  };
}

}  // namespace

TEST_CASE("messages: every kind of message, in English and in French, message by message", "[messages]") {
  for (const word_case& c : cases()) {
    INFO(c.name);
    CHECK(c.run(messages::english()) == c.english);
    CHECK(c.run(messages::french()) == c.french);
  }
}

TEST_CASE("messages: each case uses the kinds it names, and the cases use every kind", "[messages]") {
  std::set<std::size_t> used;
  for (const word_case& c : cases()) {
    for (const message_kind kind : c.kinds) {
      INFO(c.name << ": " << messages::kind_name(kind));
      const messages marked = messages::english().with(kind, "@@marker@@");
      CHECK(c.run(marked).find("@@marker@@") != std::string::npos);
      used.insert(static_cast<std::size_t>(kind));
    }
  }
  for (std::size_t i = 0; i < messages::kind_count; ++i) {
    INFO(messages::kind_name(static_cast<message_kind>(i)));
    CHECK(used.count(i) == 1);
  }
}

TEST_CASE("messages: every shipped catalogue has every kind, with the parts English uses", "[messages]") {
  // The parts a template names, in order of first use.
  const auto parts_in = [](std::string_view text) {
    std::set<std::string> names;
    for (std::size_t open = text.find('{'); open != std::string_view::npos; open = text.find('{', open + 1)) {
      const std::size_t close = text.find_first_of("}?", open);
      names.insert(std::string(text.substr(open + 1, close - open - 1)));
    }
    return names;
  };
  for (std::size_t i = 0; i < messages::kind_count; ++i) {
    const auto kind = static_cast<message_kind>(i);
    INFO(messages::kind_name(kind));
    CHECK_FALSE(messages::french().text(kind).empty());
    CHECK(messages::french().text(kind) != messages::english().text(kind));
    CHECK(parts_in(messages::french().text(kind)) == parts_in(messages::english().text(kind)));
    const auto declared = messages::part_names(kind);
    CHECK(parts_in(messages::english().text(kind)) == std::set<std::string>(declared.begin(), declared.end()));
  }
}

TEST_CASE("messages: a server replaces one entry and keeps the rest", "[messages]") {
  const messages mine = messages::french().with(message_kind::required, "Merci de remplir {field} {{obligatoire}}.");
  CHECK(field_message("name", json(json::value_t::discarded), mine) == "Merci de remplir Name {obligatoire}.");
  CHECK(field_message("guests", 0, mine) == "Guests doit valoir au moins 1 ; reçu 0.");
  CHECK(field_message("name", json(json::value_t::discarded), messages::french()) == "Name est obligatoire.");
  CHECK(mine.rule() == messages::plural_rule::zero_and_one);
  // A plural by a count: English counts 0 as many, French as one.
  const messages zero = messages::english().with(message_kind::min_length, "{got} {got?item|items}");
  CHECK(field_message("name", "", zero) == "0 items");
}

TEST_CASE("messages: a template the catalogue cannot use is refused, naming the kind and why", "[messages]") {
  const auto refused = [](message_kind kind, std::string_view text) {
    try {
      (void)messages::english().with(kind, text);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("(accepted)");
  };
  CHECK(refused(message_kind::minimum, "{field} >= {limt}") ==
        R"(elicit::messages: the template of "minimum" has no part {limt}; its parts are {field}, {limit}, {got}.)");
  CHECK(refused(message_kind::reask_one, "{field}") ==
        R"(elicit::messages: the template of "reask_one" has no part {field}; its parts are none.)");
  CHECK(refused(message_kind::required, "{field?one|many}") ==
        R"(elicit::messages: the template of "required" chooses a plural by {field}, which is no count.)");
  CHECK(refused(message_kind::min_length, "{limit?one}") ==
        R"(elicit::messages: the template of "min_length" has a plural without its two words: {limit?one|many}.)");
  CHECK(refused(message_kind::required, "{field") ==
        R"(elicit::messages: the template of "required" has a '{' that is not closed: write "{{" for a brace.)");
  CHECK(refused(message_kind::required, "field}") ==
        R"(elicit::messages: the template of "required" has a '}' that closes nothing: write "}}" for a brace.)");
  CHECK(refused(message_kind::required, "") == R"(elicit::messages: the template of "required" is empty.)");
  CHECK(refused(message_kind::required, std::string(513, 'x')) ==
        R"(elicit::messages: the template of "required" is longer than 512 bytes.)");
  CHECK(refused(message_kind::required, "\xff") ==
        R"(elicit::messages: the template of "required" is not valid UTF-8.)");
}

TEST_CASE("messages: a choice's violation keeps the wire values as data, in the error too", "[messages]") {
  const auto d = elicit::decode_content<Booking>(with_field("meal", "pork"));
  const auto v = d.violations()[0];
  CHECK(v.message == R"(Meal must be one of "Fish", "Meat", "Vegetarian"; got the text "pork".)");
  CHECK(json::parse(v.params) == json{{"allowed", {"fish", "meat", "veggie"}}, {"more", 0}, {"got", "pork"}});
  const json error = elicit::invalid_params_error(1, d.violations(), "booking");
  CHECK(error["error"]["data"]["violations"][0]["params"]["allowed"] == json{"fish", "meat", "veggie"});
  // A violation with nothing more than its message has no params.
  const auto other = elicit::decode_content<Booking>(with_field("guests", 0));
  CHECK(other.violations()[0].params.empty());
  CHECK_FALSE(elicit::invalid_params_error(1, other.violations())["error"]["data"]["violations"][0].contains("params"));
  // A long value sent is not repeated into the data.
  const auto long_pick = elicit::decode_content<Booking>(with_field("meal", std::string(300, 'x')));
  CHECK_FALSE(json::parse(long_pick.violations()[0].params).contains("got"));
}

TEST_CASE("messages: the ask loop asks again in French", "[messages][ask]") {
  std::vector<nlohmann::ordered_json> sent;
  const std::vector<json> replies = {
      {{"result", {{"action", "accept"}, {"content", with_field("guests", 0)}}}},
      {{"result", {{"action", "accept"}, {"content", valid_content()}}}},
  };
  auto send = [&](const nlohmann::ordered_json& params) {
    sent.push_back(params);
    return replies.at(sent.size() - 1);
  };
  elicit::ask_options options;
  options.decode.words = &messages::french();
  const auto asked = elicit::ask(send, elicit::form<Booking>(), "Réserver ?", options);
  CHECK(asked.outcome() == elicit::outcome::accepted);
  REQUIRE(sent.size() == 2);
  CHECK(sent[1]["message"] == "Réserver ?\n\nVeuillez corriger ceci :\n- Guests doit valoir au moins 1 ; reçu 0.");
}

}  // namespace unit_answer_messages
