// elicit::form<F>: a form made per request, from the compile-time description of F, refined
// with run-time data before it is sent, and the same value then decodes the answer, so that
// what the user was offered is exactly what is checked.
//
//   auto f = elicit::form<Booking>()
//                .choices(&Booking::slot, {{"s-0900", "9:00"}, {"s-0930", "9:30"}})  // elicit::choice field
//                .range(&Booking::party, 1, seats_left)                              // narrowed, never widened
//                .default_value(&Booking::email, account.email);                     // prefilled
//   send(elicit::form_params(f, "Book a table"));
//   elicit::response<Booking> r = f.decode(reply_text);   // "s-1000" or a party of 7 is refused
//
// A field is named by its member pointer or property key. Every refinement is checked when made,
// by the decoder's rules; one the field cannot take throws form_error, naming the field, and
// leaves the form as it was. An unrefined form writes exactly elicit::schema_json<F>.
#pragma once

#include <elicit/answer/decode.hpp>
#include <elicit/answer/violation.hpp>
#include <elicit/detail/dependent.hpp>
#include <elicit/detail/engine/describe.hpp>
#include <elicit/detail/engine/read_value.hpp>
#include <elicit/detail/engine/refinements.hpp>
#include <elicit/detail/engine/rules.hpp>
#include <elicit/detail/engine/write_value.hpp>
#include <elicit/detail/indices.hpp>
#include <elicit/detail/json_pointer.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/model/keywords.hpp>
#include <elicit/detail/model/option_index.hpp>
#include <elicit/detail/reflection.hpp>
#include <elicit/detail/string_sink.hpp>
#include <elicit/detail/utf8.hpp>
#include <elicit/form/choice.hpp>
#include <elicit/form/field_info.hpp>
#include <elicit/form/schema.hpp>

#include <boost/pfr.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <concepts>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <ranges>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace elicit {

// Thrown by a refinement a field cannot take, by naming a field the form does not have, and by
// asking or decoding a form whose run-time choices were never given. The message names the field.
class form_error : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

template <class Form>
class form {
  static constexpr std::size_t count = detail::member_count<Form>;
  struct index_tag {
    std::size_t i;
  };

 public:
  // A field of the form: a pointer to its member (&Booking::slot) or its property key ("slot").
  // Throws form_error for a key the form does not have.
  class field_ref {
   public:
    template <class M>
      requires(!std::is_function_v<M>)
    field_ref(M Form::*member) : index_(index_of(member)) {}          // NOLINT: a member names its field
    field_ref(std::string_view key) : index_(index_of(key)) {}        // NOLINT
    field_ref(const char* key) : field_ref(std::string_view(key)) {}  // NOLINT
    [[nodiscard]] std::size_t index() const noexcept { return index_; }

   private:
    friend class form;
    explicit field_ref(index_tag t) noexcept : index_(t.i) {}
    std::size_t index_;
  };

  // The form as F describes it at compile time. Throws only std::bad_alloc.
  form() : d_(std::make_unique<data>()) { (void)detail::form_askable<Form>; }
  form(const form& other) : d_(std::make_unique<data>(other.d())) { relink(); }
  form(form&&) noexcept = default;
  form& operator=(const form& other) {
    if (this != &other) *this = form(other);
    return *this;
  }
  form& operator=(form&&) noexcept = default;
  ~form() = default;

  // ---- Refinements: each throws form_error, naming the field, when it cannot be made ----

  // The label a client shows.
  form& title(field_ref f, std::string text) {
    return refine(f, [&](detail::field_spec&, detail::refinements& r) { r.title = std::move(text); });
  }
  // The helper text under the field.
  form& description(field_ref f, std::string text) {
    return refine(f, [&](detail::field_spec&, detail::refinements& r) { r.description = std::move(text); });
  }

  // The options of an elicit::choice field (or a std::vector / std::set of them), in the order
  // given: {wire value, title} pairs, or wire values alone. With any title the field is titled
  // (oneOf / items.anyOf), otherwise plain (enum / items.enum). Refused: a field that is not an
  // elicit::choice, no option, an empty or repeated wire value, a default no longer offered.
  form& choices(field_ref f, std::vector<choice_option> options) {
    return refine(f, [&](detail::field_spec& s, detail::refinements& r) {
      if (!s.runtime_options)
        fail(s, "its options are fixed at compile time; only an elicit::choice field takes choices()");
      r.offered = detail::make_offered(std::move(options));
    });
  }
  // The same from any range of wire values, {value, title} pairs (a std::map's entries) or rows
  // with `value` and `title` members (elicit::option_like).
  template <std::ranges::input_range R>
  form& choices(field_ref f, const R& options) {
    using item = std::remove_cvref_t<std::ranges::range_reference_t<const R&>>;
    static_assert(option_like<item>,
                  "elicit::form::choices: give the options as wire values (text), {value, title} pairs, "
                  "elicit::choice_option, or rows with `value` and `title` members");
    if constexpr (option_like<item>) {
      std::vector<choice_option> list;
      if constexpr (std::ranges::sized_range<const R&>) list.reserve(std::ranges::size(options));
      for (const auto& o : options) list.emplace_back(o);
      return choices(f, std::move(list));
    } else {
      return *this;
    }
  }

  // The value the field starts with, of the field's own type (an enumerator, a choice's wire
  // value, a date...); std::nullopt removes it. It is checked as an answer would be. A field
  // with a default is not required: a client that leaves it out sends the default.
  template <class V>
  form& default_value(field_ref f, const V& value) {
    return refine(f, [&](detail::field_spec& s, detail::refinements& r) {
      try {
        r.default_value = detail::default_json(s, value);
      } catch (const std::invalid_argument& e) {  // an enumerator the field does not offer
        fail(s, e.what());
      }
    });
  }
  form& default_value(field_ref f, const char* value) { return default_value(f, std::string(value)); }

  // Every field's default from a value of F at once (std::nullopt members left as they are).
  // All or nothing: when one field refuses its value, no default is changed, and form_error
  // says why; prefill_each sets the fields that take their value and reports the others.
  form& prefill(const Form& value) {
    return all_or_nothing([&] {
      detail::for_each_index<count>([&]<std::size_t I>() {
        const auto& v = detail::value_of(boost::pfr::get<I>(value));
        if constexpr (detail::is_optional<std::remove_cvref_t<decltype(v)>>::value) {
          if (v) default_value(field_ref(index_tag{I}), *v);
        } else {
          default_value(field_ref(index_tag{I}), v);
        }
      });
    });
  }

  // Each field's default from a value of F, field by field (std::nullopt members left as they
  // are): a field that refuses its value (a date "0000-00-00", a number out of range) keeps
  // what it had (no default, unless the form gave it one) and is reported, the others are set.
  // Returns the refusals in field order, each a violation at the field ("/wire_name", keyword
  // "default", the words form_error would have said); empty when every field took its value.
  // Throws only std::bad_alloc.
  [[nodiscard]] std::vector<violation> prefill_each(const Form& value) {
    std::vector<violation> refused;
    detail::for_each_index<count>([&]<std::size_t I>() {
      const auto& v = detail::value_of(boost::pfr::get<I>(value));
      try {
        if constexpr (detail::is_optional<std::remove_cvref_t<decltype(v)>>::value) {
          if (v) default_value(field_ref(index_tag{I}), *v);
        } else {
          default_value(field_ref(index_tag{I}), v);
        }
      } catch (const std::invalid_argument& e) {  // form_error, or a value to_content cannot write
        refused.push_back({detail::message("/", detail::pointer_token(d().specs[I].wire)), "default", e.what()});
      }
    });
    return refused;
  }

  // The fields of an answer's content that meet their rules, as defaults; the others are left
  // as they were. What a form asked again shows: the user's valid answers, kept. Returns how
  // many were kept. Throws only std::bad_alloc.
  std::size_t prefill_valid(const nlohmann::json& content) {
    if (!content.is_object() || exceeds(content, json_limits{}).has_value()) return 0;
    std::size_t kept = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const auto it = content.find(d().specs[i].wire);
      if (it == content.end() || it->is_null()) continue;                            // null is no value of any field
      if (d().specs[i].runtime_options && d().specs[i].option_count == 0) continue;  // nothing to check it against
      try {
        refine(field_ref(index_tag{i}), [&](detail::field_spec&, detail::refinements& r) { r.default_value = *it; });
        ++kept;
      } catch (const form_error&) {
      }
    }
    return kept;
  }

  // Narrows `minimum` and `maximum` of a number field; never widens them.
  template <class Lo, class Hi>
  form& range(field_ref f, Lo lo, Hi hi) {
    return all_or_nothing([&] { minimum(f, lo).maximum(f, hi); });
  }
  template <class N>
  form& minimum(field_ref f, N value) {
    return narrow(f, [&](detail::field_spec& s) { return detail::narrowed_bound(s, detail::number(value), true); });
  }
  template <class N>
  form& maximum(field_ref f, N value) {
    return narrow(f, [&](detail::field_spec& s) { return detail::narrowed_bound(s, detail::number(value), false); });
  }

  // Narrows `minLength` and `maxLength` (code points) of a text field; never widens them.
  form& length(field_ref f, std::size_t min, std::size_t max) {
    return all_or_nothing([&] { min_length(f, min).max_length(f, max); });
  }
  form& min_length(field_ref f, std::size_t n) {
    return narrow(f, [&](detail::field_spec& s) { return detail::narrowed_length(s, s.min_length, n, true); });
  }
  form& max_length(field_ref f, std::size_t n) {
    return narrow(f, [&](detail::field_spec& s) { return detail::narrowed_length(s, s.max_length, n, false); });
  }

  // Narrows `minItems` and `maxItems` of a multi-select; never widens them.
  form& items(field_ref f, std::size_t min, std::size_t max) {
    return all_or_nothing([&] { min_items(f, min).max_items(f, max); });
  }
  form& min_items(field_ref f, std::size_t n) {
    return narrow(f, [&](detail::field_spec& s) { return detail::narrowed_items(s, s.min_items, n, true); });
  }
  form& max_items(field_ref f, std::size_t n) {
    return narrow(f, [&](detail::field_spec& s) { return detail::narrowed_items(s, s.max_items, n, false); });
  }

  // ---- Reading ----

  // The fields as refined. The views are valid while this form lives and is not refined further.
  [[nodiscard]] std::vector<field_info> fields() const {
    std::vector<field_info> out;
    for (const detail::field_spec& s : d().specs) out.emplace_back(s);
    return out;
  }

  // The requestedSchema, as compact JSON text: byte for byte elicit::schema_json<F> when
  // nothing was refined. Throws form_error when an elicit::choice field was given no choices.
  [[nodiscard]] std::string schema_json() const {
    if constexpr (!detail::form_askable<Form>) {
      return {};
    } else {
      require_choices();
      detail::string_sink out;
      detail::write_schema(out, d().specs);
      return std::move(out.text);
    }
  }
  // The same, as a JSON value with the keys in the text's order. Throws as schema_json().
  // (The parser is named through Form, so that it is compiled only where schema() is used.)
  [[nodiscard]] nlohmann::ordered_json schema() const {
    return detail::dependent_t<Form, nlohmann::ordered_json>::parse(schema_json());
  }

  // Decodes an answer to this form, as elicit::decode<F> does, against what this form offered.
  // Throws form_error when an elicit::choice field was given no choices; otherwise only
  // std::bad_alloc.
  [[nodiscard]] response<Form> decode(std::string_view json_text, const decode_options& options = {}) const {
    if constexpr (!detail::describable<Form>) return detail::not_decodable<Form>();
    else return require_choices(), detail::decode_text<Form>(json_text, specs(), options);
  }
  [[nodiscard]] response<Form> decode(const char* json_text, const decode_options& options = {}) const {
    return decode(std::string_view(json_text), options);
  }
  [[nodiscard]] response<Form> decode(const std::string& json_text, const decode_options& options = {}) const {
    return decode(std::string_view(json_text), options);
  }
  [[nodiscard]] response<Form> decode(const nlohmann::json& result, const decode_options& options = {}) const {
    if constexpr (!detail::describable<Form>) return detail::not_decodable<Form>();
    else return require_choices(), detail::decode_result<Form>(result, specs(), options);
  }
  [[nodiscard]] decoded<Form> decode_content(const nlohmann::json& content, const decode_options& options = {}) const {
    if constexpr (!detail::describable<Form>) return decoded<Form>(violation_list{});
    else return require_choices(), detail::decode_content<Form>(content, specs(), options);
  }

 private:
  struct data {
    std::array<detail::field_spec, count> specs = detail::form_spec<Form>;
    std::array<detail::refinements, count> refined{};
  };

  template <class M>
  static std::size_t index_of(M Form::*member) {
    static const Form probe{};  // the member's address in one object tells which field it is
    const void* target = &(probe.*member);
    std::size_t found = count;
    detail::for_each_index<count>([&]<std::size_t I>() {
      if (static_cast<const void*>(&boost::pfr::get<I>(probe)) == target) found = I;
    });
    return found;  // every member of an aggregate is one of its fields
  }
  static std::size_t index_of(std::string_view key) {
    const auto& specs = detail::form_spec<Form>;
    for (std::size_t i = 0; i < count; ++i)
      if (specs[i].wire == key) return i;
    for (std::size_t i = 0; i < count; ++i)  // the member's own name, when the key differs
      if (specs[i].member == key) return i;
    throw form_error(detail::message("elicit::form: this form has no field \"", key, "\""));
  }

  [[noreturn]] static void fail(const detail::field_spec& s, std::string_view why) {
    throw form_error(detail::message("elicit::form: field \"", s.wire, "\": ", why));
  }
  // Applies `change` to one field, then checks the field whole; a refused change is undone.
  template <class Change>
  form& refine(field_ref f, Change&& change) {
    data& all = d();
    const std::size_t i = f.index();
    detail::field_spec saved_spec = all.specs[i];
    detail::refinements saved = all.refined[i];
    try {
      change(all.specs[i], all.refined[i]);
      detail::link(all.specs[i], detail::form_spec<Form>[i], all.refined[i]);
      if (std::string problem = detail::problem_of<Form>(i, all.specs[i], all.refined[i]); !problem.empty())
        fail(all.specs[i], problem);
    } catch (...) {
      all.specs[i] = saved_spec;
      all.refined[i] = std::move(saved);
      detail::link(all.specs[i], detail::form_spec<Form>[i], all.refined[i]);
      throw;
    }
    return *this;
  }

  // Two refinements as one: when the second is refused, the first is undone too.
  template <class Change>
  form& all_or_nothing(Change&& change) {
    auto before = std::make_unique<data>(d());
    try {
      change();
    } catch (...) {
      d_ = std::move(before);
      relink();
      throw;
    }
    return *this;
  }

  // A narrowing made by `rule` (detail/engine/refinements.hpp: it says why it cannot be made, or ""),
  // or form_error saying why.
  template <class Rule>
  form& narrow(field_ref f, Rule rule) {
    return refine(f, [&](detail::field_spec& s, detail::refinements&) {
      if (std::string why = rule(s); !why.empty()) fail(s, why);
    });
  }

  void require_choices() const {
    for (const detail::field_spec& s : d().specs)
      if (s.runtime_options && s.option_count == 0)
        fail(s, "its choices are given at run time: call choices() before asking or decoding");
  }

  [[nodiscard]] detail::runtime_specs<Form> specs() const { return {d().specs}; }

  // A moved-from form reads as a fresh one, and is one again when refined.
  data& d() {
    if (!d_) d_ = std::make_unique<data>();
    return *d_;
  }
  const data& d() const {
    static const data fresh{};
    return d_ ? *d_ : fresh;
  }
  void relink() {
    data& all = d();
    for (std::size_t i = 0; i < count; ++i) detail::link(all.specs[i], detail::form_spec<Form>[i], all.refined[i]);
  }

  std::unique_ptr<data> d_;
};

}  // namespace elicit
