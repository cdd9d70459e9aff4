// The fields of a form, as a program reads them: name, type, annotations, choices, default.
// The same description the schema writer and the decoder read (detail/model/field_spec.hpp), behind a
// read-only view; the generator's catalogue, form<F> and the docs read it from here.
//
//   for (const elicit::field_info& f : elicit::fields<Address>())
//     std::cout << f.name() << ": " << f.constraints() << "\n";   // "postcode: at least 5 characters; ..."
#pragma once

#include <elicit/detail/engine/describe.hpp>
#include <elicit/detail/engine/read_value.hpp>
#include <elicit/detail/indices.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/model/keywords.hpp>
#include <elicit/form/value_type.hpp>

#include <nlohmann/json.hpp>

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace elicit {

// One option of a choice field, read back: its wire value and its label ("" when it has none).
struct option_view {
  std::string_view value;
  std::string_view title;
};
using option_info [[deprecated("renamed elicit::option_view")]] = option_view;  // kept for one release

// A read-only view of one field. It refers to the description it was made from: the static
// description of a type (fields<F>(), valid for the whole program), or a form<F> (valid while
// that form lives and is not refined further). Nothing here throws but std::bad_alloc.
class field_info {
 public:
  constexpr explicit field_info(const detail::field_spec& spec) noexcept : s_(&spec) {}

  [[nodiscard]] constexpr std::string_view name() const noexcept { return s_->wire; }      // the property key
  [[nodiscard]] constexpr std::string_view member() const noexcept { return s_->member; }  // the C++ member
  [[nodiscard]] constexpr value_type type() const noexcept { return s_->type; }
  [[nodiscard]] constexpr elicit::format format() const noexcept { return s_->fmt; }
  [[nodiscard]] constexpr std::string_view title() const noexcept { return s_->title; }
  [[nodiscard]] constexpr std::string_view description() const noexcept { return s_->description; }
  // How messages name the field: its title, or else its property key.
  [[nodiscard]] constexpr std::string_view label() const noexcept { return detail::label_of(*s_); }
  // In the schema's `required`: neither optional nor defaulted.
  [[nodiscard]] constexpr bool required() const noexcept { return s_->required(); }
  // A std::optional member: the user may leave it empty.
  [[nodiscard]] constexpr bool optional() const noexcept { return s_->optional; }

  // Bounds as exact JSON numbers (an int64 stays an int64).
  [[nodiscard]] std::optional<nlohmann::json> minimum() const { return bound(s_->minimum); }
  [[nodiscard]] std::optional<nlohmann::json> maximum() const { return bound(s_->maximum); }
  [[nodiscard]] constexpr std::optional<std::size_t> min_length() const noexcept { return s_->min_length; }
  [[nodiscard]] constexpr std::optional<std::size_t> max_length() const noexcept { return s_->max_length; }
  [[nodiscard]] constexpr std::optional<std::size_t> min_items() const noexcept { return s_->min_items; }
  [[nodiscard]] constexpr std::optional<std::size_t> max_items() const noexcept { return s_->max_items; }

  // The options of a choice field, in the order offered; empty for other fields, and for a
  // run-time choice (elicit::choice) until a form gives them.
  [[nodiscard]] std::vector<option_view> options() const {
    std::vector<option_view> out;
    out.reserve(s_->option_count);
    for (std::size_t i = 0; i < s_->option_count; ++i) out.push_back({s_->options[i].wire, s_->options[i].title});
    return out;
  }
  // Options with labels: written as oneOf / items.anyOf (or enum + enumNames, the deprecated shape).
  [[nodiscard]] constexpr bool titled() const noexcept { return s_->titled; }
  [[nodiscard]] constexpr bool legacy_enum_names() const noexcept { return s_->legacy_names; }
  // An elicit::choice field: its options are given per request by form<F>.
  [[nodiscard]] constexpr bool runtime_options() const noexcept { return s_->runtime_options; }

  // The default as the JSON a client would send, or nothing.
  [[nodiscard]] std::optional<nlohmann::json> default_value() const {
    if (!s_->has_default()) return std::nullopt;
    return detail::default_json(*s_);
  }

  // The constraints in words, as the generator's catalogue shows them:
  // ">= 1; <= 20", "at least 5 characters; at most 8 characters", "one of `GB` (United Kingdom), ...".
  [[nodiscard]] std::string constraints() const {
    std::string out;
    auto add = [&out](const std::string& part) { out += (out.empty() ? "" : "; ") + part; };
    const auto characters = [](std::size_t n) { return detail::counted{n, "character", "characters"}; };
    using detail::message;
    if (s_->minimum) add(message(">= ", *s_->minimum));
    if (s_->maximum) add(message("<= ", *s_->maximum));
    if (s_->min_length) add(message("at least ", characters(*s_->min_length)));
    if (s_->max_length) add(message("at most ", characters(*s_->max_length)));
    if (s_->min_items) add(message("pick at least ", *s_->min_items));
    if (s_->max_items) add(message("pick at most ", *s_->max_items));
    if (s_->runtime_options && s_->option_count == 0) add("choices given at run time");
    if (s_->option_count > 0) add(options_text());
    return out;
  }

 private:
  static std::optional<nlohmann::json> bound(const detail::bound<detail::number>& n) {
    if (!n) return std::nullopt;
    if (n->kind == detail::number::kind_t::signed_int) return nlohmann::json(n->i);
    if (n->kind == detail::number::kind_t::unsigned_int) return nlohmann::json(n->u);
    return nlohmann::json(n->as_double());
  }
  [[nodiscard]] std::string options_text() const {
    std::string text = "one of ";
    for (std::size_t i = 0; i < s_->option_count; ++i) {
      const detail::enum_entry& o = s_->options[i];
      if (i != 0) text += ", ";
      // Appended piece by piece: GCC 12 at -O3 warns (-Wrestrict) on "literal" + std::string&&.
      text.append("`").append(o.wire).append("`");
      if (!o.title.empty() && o.title != o.wire) text.append(" (").append(o.title).append(")");
    }
    return text;
  }

  const detail::field_spec* s_;
};

namespace detail {
template <class Form>
inline constexpr auto field_infos = with_indices<member_count<Form>>([]<std::size_t... I>(std::index_sequence<I...>) {
  return std::array<field_info, sizeof...(I)>{field_info(spec_of<Form, I>)...};
});
}  // namespace detail

// The fields of `Form`, in declaration order, as described at compile time.
template <class Form>
[[nodiscard]] constexpr std::span<const field_info> fields() noexcept {
  return detail::field_infos<Form>;
}

// True when some field of `Form` is an elicit::choice, whose options only a form<Form> gives:
// such a form has no schema_json, and is asked and decoded through a form<Form>.
template <class Form>
inline constexpr bool has_runtime_choices = detail::first_runtime_field<Form>() != detail::member_count<Form>;

}  // namespace elicit
