// elicit::choice: a choice whose options are known only at run time (rows of a table, the
// slots still free), given per request through elicit::form<F> (form.hpp).
//
//   struct Pick {
//     elicit::field<elicit::choice, elicit::title<"Repository">> repo;          // pick one
//     elicit::field<std::vector<elicit::choice>, elicit::items<1, 3>> labels;   // pick one to three
//   };
//   auto f = elicit::form<Pick>()
//                .choices(&Pick::repo, {{"r-17", "elicit"}, {"r-42", "glaze"}})   // {wire value, title}
//                .choices(&Pick::labels, {"bug", "docs", "perf"});                // wire values alone
//
// Any range of options will do: wire values, {value, title} pairs (a std::map<std::string,
// std::string>), elicit::choice_option, or rows of your own with `value` and `title` members.
//
// The answer holds the wire value the user picked (`r->repo->value == "r-17"`), checked
// against the options that form offered. elicit::schema_json<Pick> does not compile: a schema
// with no options is no question.
#pragma once

#include <compare>
#include <concepts>
#include <string>
#include <utility>

namespace elicit {

// The option the user picked, by its wire value.
struct choice {
  std::string value;

  friend bool operator==(const choice&, const choice&) = default;
  friend std::strong_ordering operator<=>(const choice&, const choice&) = default;
};

// One option of a run-time choice: its wire value, and the label a client shows ("" for none:
// the client shows the wire value). An option is named so everywhere: an enum's is option<E>
// (enums.hpp), a run-time choice's is this, and a field's options read back are option_view
// (field_info.hpp).
struct choice_option {
  std::string value;
  std::string title{};

  choice_option(std::string wire_value) : value(std::move(wire_value)) {}  // NOLINT: a plain value is an option
  choice_option(const char* wire_value) : value(wire_value) {}             // NOLINT
  choice_option(std::string wire_value, std::string label) : value(std::move(wire_value)), title(std::move(label)) {}
  // A {wire value, title} pair: an entry of a std::map<std::string, std::string>, say.
  template <class V, class T>
    requires(std::constructible_from<std::string, const V&>&& std::constructible_from<std::string, const T&>)
  explicit choice_option(const std::pair<V, T>& entry) : value(entry.first), title(entry.second) {}
  // A row of the server's own with `value` and `title` members (text, or convertible to it).
  template <class Row>
    requires(!std::same_as<Row, choice_option> && requires(const Row& row) {
      std::string(row.value);
      std::string(row.title);
    })
  explicit choice_option(const Row& row) : value(row.value), title(row.title) {}
};

// What form<F>::choices takes an option from: a wire value, a {value, title} pair, a row with
// `value` and `title` members, or a choice_option.
template <class T>
concept option_like = std::constructible_from<choice_option, const T&>;

// The names these had before, kept for one release.
using offer [[deprecated("renamed elicit::choice_option")]] = choice_option;
template <class T>
concept offerable = option_like<T>;  // deprecated: renamed elicit::option_like

}  // namespace elicit
