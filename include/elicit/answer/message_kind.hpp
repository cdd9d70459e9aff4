// elicit::message_kind: every kind of sentence a person reads about their answer, and what each
// kind says: its parts and its English and French templates, the tables elicit::messages
// (<elicit/answer/messages.hpp>) is made from. A template is UTF-8 text with parts in braces:
// `{field} must be at least {limit}; got {got}.`; `{name?one|many}` writes `one` when the part's
// count takes the singular and `many` otherwise; `{{` and `}}` write a brace.
#pragma once

#include <elicit/detail/message.hpp>
#include <elicit/detail/utf8.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace elicit {

// One kind of message: the sentence, not its words (the catalogue holds those).
enum class message_kind : unsigned char {
  // About one field's answer
  required,           // {field}
  type,               // {field}, {expected}, {got}
  not_utf8,           // {field}
  one_of,             // {field}, {options}, {got}
  title_for_value,    // {field}, {got}, {value}: a choice sent by its title, not its value
  minimum,            // {field}, {limit}, {got}
  maximum,            // {field}, {limit}, {got}
  too_large,          // {field}, {got}: past what the field's number type holds
  outside_type,       // {field}, {lowest}, {highest}, {got}: past what the field's integer type holds
  min_length,         // {field}, {limit}, {got}: counts of characters
  max_length,         // {field}, {limit}, {got}
  min_items,          // {field}, {limit}, {got}: counts of choices
  max_items,          // {field}, {limit}, {got}
  min_different,      // {field}, {limit}, {got}: enough picks, but repeats among them
  email,              // {field}
  uri,                // {field}
  date,               // {field}, {got}
  date_time,          // {field}, {got}
  whole_seconds,      // {field}, {got}
  nul_character,      // {field}, {at}
  direction_control,  // {field}, {code}, {at}
  // About the answer's content
  not_an_object,    // {got}
  unknown_key,      // {key}
  repeated_key,     // {key}
  more_violations,  // {count}
  // The re-ask's header, before the list of what to fix
  reask_one,
  reask_many,
  // The -32602 error of a refused answer (invalid_params_error), before its violations
  answer_refused,     // no part: the question is not named
  answer_refused_to,  // {question}: the question's key
  // Words the sentences above are made of
  expect_boolean,  // what a field expects, as {expected}
  expect_integer,
  expect_number,
  expect_text,
  expect_date,
  expect_date_time,
  expect_choices,
  got_text,    // {text}: what was sent, as {got}
  got_number,  // {number}
  got_list,
  got_object,
  got_bad_number,
  got_binary,
  got_unreadable,
  got_not_utf8,
  option,             // {option}: one choice in {options}, by its title, or its value when it has none
  more_options,       // {count}: after the first ten choices
  key_named,          // {key}: a key of the content, as {key}
  key_long,           // {size}: a key too long to repeat back
  key_long_not_utf8,  // {size}
};

namespace detail {

// What each kind is: its name (for errors and docs), its parts in order (a `#` after a name: the
// part is a count, so a template may choose a plural by it) and its English text. The one
// description of a kind: the English catalogue, the parser's rules and the docs read it.
struct kind_entry {
  message_kind kind;
  std::string_view name;
  std::string_view parts;  // "field,limit#,got#"
  std::string_view english;
};

inline constexpr kind_entry kind_table[] = {
    {message_kind::required, "required", "field", "{field} is required."},
    {message_kind::type, "type", "field,expected,got", "{field} must be {expected}; got {got}."},
    {message_kind::not_utf8, "not_utf8", "field", "{field} is not valid UTF-8 text."},
    {message_kind::one_of, "one_of", "field,options,got", "{field} must be one of {options}; got {got}."},
    {message_kind::title_for_value, "title_for_value", "field,got,value",
     "{field} got the title \"{got}\" where the value of that choice, \"{value}\", must be sent."},
    {message_kind::minimum, "minimum", "field,limit,got", "{field} must be at least {limit}; got {got}."},
    {message_kind::maximum, "maximum", "field,limit,got", "{field} must be at most {limit}; got {got}."},
    {message_kind::too_large, "too_large", "field,got", "{field} is too large for this field; got {got}."},
    {message_kind::outside_type, "outside_type", "field,lowest,highest,got",
     "{field} must be between {lowest} and {highest}; got {got}."},
    {message_kind::min_length, "min_length", "field,limit#,got#",
     "{field} must be at least {limit} {limit?character|characters} long; got {got} {got?character|characters}."},
    {message_kind::max_length, "max_length", "field,limit#,got#",
     "{field} must be at most {limit} {limit?character|characters} long; got {got} {got?character|characters}."},
    {message_kind::min_items, "min_items", "field,limit#,got#", "Pick at least {limit} for {field}; got {got}."},
    {message_kind::max_items, "max_items", "field,limit#,got#", "Pick at most {limit} for {field}; got {got}."},
    {message_kind::min_different, "min_different", "field,limit#,got#",
     "Pick at least {limit} different choices for {field}; got {got}."},
    {message_kind::email, "email", "field", "{field} must be an e-mail address such as name@example.com."},
    {message_kind::uri, "uri", "field", "{field} must be an absolute URI such as https://example.com/page."},
    {message_kind::date, "date", "field,got",
     "{field} must be a calendar date as YYYY-MM-DD, e.g. 2025-01-31; got {got}."},
    {message_kind::date_time, "date_time", "field,got",
     "{field} must be a date and time as in RFC 3339, e.g. 2025-01-31T09:30:00Z; got {got}."},
    {message_kind::whole_seconds, "whole_seconds", "field,got",
     "{field} holds whole seconds; got a fraction of a second in {got}."},
    {message_kind::nul_character, "nul_character", "field,at#",
     "{field} must not contain a NUL character (U+0000); one is at character {at}."},
    {message_kind::direction_control, "direction_control", "field,code,at#",
     "{field} must not contain the invisible direction control U+{code}, at character {at}: it changes the order in "
     "which the text is shown. Remove it."},
    {message_kind::not_an_object, "not_an_object", "got", "The answer's content must be a JSON object; got {got}."},
    {message_kind::unknown_key, "unknown_key", "key", "{key} is not a field of this form."},
    {message_kind::repeated_key, "repeated_key", "key",
     "{key} comes more than once in the answer's content; send each key once."},
    {message_kind::more_violations, "more_violations", "count#",
     "{count} more {count?violation was|violations were} not listed."},
    {message_kind::reask_one, "reask_one", "", "Please correct this:"},
    {message_kind::reask_many, "reask_many", "", "Please correct these:"},
    {message_kind::answer_refused, "answer_refused", "", "Invalid answer"},
    {message_kind::answer_refused_to, "answer_refused_to", "question", "Invalid answer to \"{question}\""},
    {message_kind::expect_boolean, "expect_boolean", "", "true or false"},
    {message_kind::expect_integer, "expect_integer", "", "a whole number"},
    {message_kind::expect_number, "expect_number", "", "a number"},
    {message_kind::expect_text, "expect_text", "", "text"},
    {message_kind::expect_date, "expect_date", "", "a date (YYYY-MM-DD)"},
    {message_kind::expect_date_time, "expect_date_time", "", "a date and time"},
    {message_kind::expect_choices, "expect_choices", "", "a list of choices"},
    {message_kind::got_text, "got_text", "text", "the text \"{text}\""},
    {message_kind::got_number, "got_number", "number", "the number {number}"},
    {message_kind::got_list, "got_list", "", "a list"},
    {message_kind::got_object, "got_object", "", "an object"},
    {message_kind::got_bad_number, "got_bad_number", "", "a number out of range"},
    {message_kind::got_binary, "got_binary", "", "binary data"},
    {message_kind::got_unreadable, "got_unreadable", "", "nothing readable"},
    {message_kind::got_not_utf8, "got_not_utf8", "", "text that is not valid UTF-8"},
    {message_kind::option, "option", "option", "\"{option}\""},
    {message_kind::more_options, "more_options", "count#", "(and {count} more)"},
    {message_kind::key_named, "key_named", "key", "\"{key}\""},
    {message_kind::key_long, "key_long", "size#", "A key of {size} {size?byte|bytes}"},
    {message_kind::key_long_not_utf8, "key_long_not_utf8", "size#",
     "A key of {size} {size?byte|bytes} that is not UTF-8"},
};

inline constexpr std::size_t kind_count = std::size(kind_table);

// The table is in the enum's order, one entry per kind: a kind is its entry's index.
constexpr bool kinds_in_order() {
  for (std::size_t i = 0; i < kind_count; ++i)
    if (static_cast<std::size_t>(kind_table[i].kind) != i) return false;
  return static_cast<std::size_t>(message_kind::key_long_not_utf8) + 1 == kind_count;
}
static_assert(kinds_in_order(), "elicit: kind_table must list every message_kind once, in the enum's order");

constexpr const kind_entry& entry_of(message_kind k) noexcept { return kind_table[static_cast<std::size_t>(k)]; }

// The number of parts a kind's sentence has.
constexpr std::size_t part_count(message_kind k) noexcept {
  const std::string_view parts = entry_of(k).parts;
  if (parts.empty()) return 0;
  std::size_t n = 1;
  for (const char c : parts) n += c == ',' ? 1 : 0;
  return n;
}

// A kind named in a call, so that the number of parts given is checked when it compiles.
template <message_kind K>
struct kind_tag {
  static constexpr message_kind value = K;
};
template <message_kind K>
inline constexpr kind_tag<K> say{};

// The French catalogue, in kind_table's order.
inline constexpr std::string_view french_table[] = {
    "{field} est obligatoire.",
    "{field} doit être {expected} ; reçu {got}.",
    "{field} n'est pas un texte UTF-8 valide.",
    "{field} doit être l'un de {options} ; reçu {got}.",
    "{field} a reçu le titre « {got} » là où la valeur de ce choix, « {value} », doit être envoyée.",
    "{field} doit valoir au moins {limit} ; reçu {got}.",
    "{field} doit valoir au plus {limit} ; reçu {got}.",
    "{field} est trop grand pour ce champ ; reçu {got}.",
    "{field} doit être compris entre {lowest} et {highest} ; reçu {got}.",
    "{field} doit comporter au moins {limit} {limit?caractère|caractères} ; reçu {got} {got?caractère|caractères}.",
    "{field} doit comporter au plus {limit} {limit?caractère|caractères} ; reçu {got} {got?caractère|caractères}.",
    "Choisissez au moins {limit} {limit?option|options} pour {field} ; reçu {got}.",
    "Choisissez au plus {limit} {limit?option|options} pour {field} ; reçu {got}.",
    "Choisissez au moins {limit} {limit?option différente|options différentes} pour {field} ; reçu {got}.",
    "{field} doit être une adresse e-mail telle que nom@exemple.com.",
    "{field} doit être un URI absolu tel que https://exemple.com/page.",
    "{field} doit être une date au format AAAA-MM-JJ, par exemple 2025-01-31 ; reçu {got}.",
    "{field} doit être une date et une heure au format RFC 3339, par exemple 2025-01-31T09:30:00Z ; reçu {got}.",
    "{field} se compte en secondes entières ; reçu une fraction de seconde dans {got}.",
    "{field} ne doit pas contenir de caractère NUL (U+0000) ; il y en a un au caractère {at}.",
    // NOLINTNEXTLINE(bugprone-suspicious-missing-comma): one entry, written on two lines
    "{field} ne doit pas contenir le caractère invisible de direction U+{code}, au caractère {at} : il change l'ordre "
    "d'affichage du texte. Supprimez-le.",
    "Le contenu de la réponse doit être un objet JSON ; reçu {got}.",
    "{key} n'est pas un champ de ce formulaire.",
    "{key} figure plus d'une fois dans le contenu de la réponse ; envoyez chaque clé une seule fois.",
    "{count} {count?autre violation n'a pas été listée|autres violations n'ont pas été listées}.",
    "Veuillez corriger ceci :",
    "Veuillez corriger ces points :",
    "Réponse invalide",
    "Réponse invalide à « {question} »",
    "vrai ou faux",
    "un nombre entier",
    "un nombre",
    "du texte",
    "une date (AAAA-MM-JJ)",
    "une date et une heure",
    "une liste de choix",
    "le texte « {text} »",
    "le nombre {number}",
    "une liste",
    "un objet",
    "un nombre hors limites",
    "des données binaires",
    "rien de lisible",
    "un texte qui n'est pas de l'UTF-8 valide",
    "« {option} »",
    "(et {count} de plus)",
    "« {key} »",
    "Une clé de {size} {size?octet|octets}",
    "Une clé de {size} {size?octet|octets} qui n'est pas de l'UTF-8",
};
static_assert(std::size(french_table) == kind_count, "elicit: the French catalogue needs one entry per message_kind");

}  // namespace detail

}  // namespace elicit
