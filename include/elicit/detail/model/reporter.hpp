// Reporting what an answer breaks: `reporter` files a violation of one value at its JSON
// Pointer, and `described` says what a JSON value is in a message ("the text \"abc\"").
#pragma once

#include <elicit/answer/messages.hpp>
#include <elicit/answer/violation.hpp>
#include <elicit/detail/json_escape.hpp>
#include <elicit/detail/json_pointer.hpp>
#include <elicit/detail/json_text.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/detail/model/field_spec.hpp>
#include <elicit/detail/model/keywords.hpp>
#include <elicit/detail/model/value_view.hpp>
#include <elicit/detail/number_text.hpp>
#include <elicit/detail/utf8.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace elicit::detail {

// Where violations of one value go: the list of the whole answer, and the value's place in
// it (a field, or an item of a multi-select field). The JSON Pointer is built only when a
// violation is reported: a valid answer pays nothing for it.
struct reporter {
  violation_list& out;
  std::string_view field;
  std::size_t item = no_item;
  bool plain_text = true;    // decode_options::plain_text: text fields refuse hidden controls
  bool plain_field = false;  // `field` holds no "~" or "/" (field_spec::plain_pointer): written as it is

  static constexpr std::size_t no_item = static_cast<std::size_t>(-1);
  static constexpr std::size_t whole_answer = no_item - 1;  // the pointer is "": the content as a whole

  // Where violations of the content as a whole go (pointer "").
  [[nodiscard]] static reporter whole(violation_list& list) noexcept { return {list, {}, whole_answer}; }

  // Files a violation whose message is kind K's sentence of the list's catalogue (messages.hpp)
  // with these parts, written straight into the list's text.
  template <message_kind K, class... Parts>
  void operator()(std::string_view keyword, kind_tag<K> kind, const Parts&... parts) const {
    with_params(no_params{}, keyword, kind, parts...);
  }
  // The same, with the values the message shows in words, as JSON (violation::params): `params`
  // has write_json(sink).
  template <class Params, message_kind K, class... Parts>
  void with_params(const Params& params, std::string_view keyword, kind_tag<K> kind, const Parts&... parts) const {
    if (out.full()) return out.omit();
    violation_sink text = sink_into(out);
    write_pointer(text);
    text.end_pointer();
    text.put_known(keyword, 0);  // one of elicit's keyword names ("minLength"): nothing to escape
    text.end_keyword();
    out.words().write(text, kind, parts...);
    text.end_message();
    params.write_json(text);
    text.done();
  }
  [[nodiscard]] reporter at(std::size_t index) const { return {out, field, index, plain_text, plain_field}; }

 private:
  // A violation with nothing more than its message: params "".
  struct no_params {
    template <class Sink>
    void write_json(Sink& /*out*/) const {}
  };

  // "/field", or "/field/3" for an item. Inline: a field's name is nearly always plain, a put.
  [[gnu::always_inline]] void write_pointer(violation_sink& pointer) const {
    if (item == whole_answer) return;
    pointer.put('/');
    if (plain_field) pointer.put_known(field, 0);
    else write_pointer_token(pointer, field);
    if (item != no_item) {
      pointer.put('/');
      write_unsigned(pointer, item);
    }
  }
};

// Text up to 40 code points, whole ones, as a message part: `abc`, or `abc...` when cut (the
// catalogue's template puts the quotes).
struct shown_text {
  std::string_view text;
  bool plain = false;  // nothing in `text` is escaped in JSON: its cost is its size

  template <class Sink>
  [[gnu::always_inline]] constexpr void write(Sink& out) const {
    // Text of at most 40 bytes has at most 40 code points: shown whole, without counting them.
    if (text.size() > 40) return write_cut(out);
    if (plain) put_known(out, text, 0);
    else out.put(text);
  }

 private:
  template <class Sink>
  constexpr void write_cut(Sink& out) const {
    std::size_t cut = 0, shown = 0;
    while (cut < text.size() && shown < 40) {
      cut += utf8_sequence_length(static_cast<unsigned char>(text[cut]));
      ++shown;
    }
    if (plain) put_known(out, text.substr(0, cut), 0);
    else out.put(text.substr(0, cut));
    if (cut < text.size()) put_known(out, known("..."));
  }
};

// What a JSON value is, as a message part, in the catalogue's words: `the text "abc"`, `the
// number 12.5`, `a list`... Text is shown up to 40 code points, and never when it is not UTF-8.
// null, true and false are written as JSON writes them.
struct described {
  value_view j;

  template <class Sink>
  void write(Sink& out, const messages& words) const {
    switch (j.kind()) {
      case json_kind::null: return out.put("null");
      case json_kind::boolean: return out.put(j.boolean() ? "true" : "false");
      case json_kind::string: return write_text(out, words, j.text());
      case json_kind::array: return words.write(out, say<message_kind::got_list>);
      case json_kind::object: return words.write(out, say<message_kind::got_object>);
      case json_kind::number: return words.write(out, say<message_kind::got_number>, *j.as_number());
      case json_kind::bad_number: return words.write(out, say<message_kind::got_bad_number>);
      case json_kind::binary: return words.write(out, say<message_kind::got_binary>);
      default:  // discarded: what parse(text, nullptr, false) gives for bad text
        return words.write(out, say<message_kind::got_unreadable>);
    }
  }
  template <class Sink>  // in English: the messages about a result that could not be read
  void write(Sink& out) const {
    write(out, messages::english());
  }
  template <class Sink>
  static void write_text(Sink& out, const messages& words, std::string_view text) {
    // Nearly every text: UTF-8 with nothing to escape, known at one look.
    if (plain_ascii(text)) return words.write(out, say<message_kind::got_text>, shown_text{text, true});
    if (!is_utf8(text)) return words.write(out, say<message_kind::got_not_utf8>);
    words.write(out, say<message_kind::got_text>, shown_text{text});
  }
};

// How a message names one option: by the title the user was shown, or by its value when it has
// no title.
constexpr std::string_view shown_name(const enum_entry& option) noexcept {
  return option.title.empty() ? option.wire : option.title;
}

// The options of a select field as a message part, by the names the user saw: `"Chez Ada",
// "Hopper's Diner"`, each as the catalogue's `option` writes it; past shown_options, the first
// of them and how many more: `"AD", "AE", ... "AR" (and 240 more)`. A message about a choice
// stays short whatever the field offers: 100,000 options cost no more words than 10.
struct offered_options {
  const field_spec& s;

  static constexpr std::size_t shown_options = detail::shown_options;

  template <class Sink>
  void write(Sink& out, const messages& words) const {
    // In English, the list is the same at every violation: written once with the options.
    if (!s.english_options.empty() && words.english_) return put_known(out, s.english_options, s.english_options_extra);
    const std::size_t shown = s.option_count < shown_options ? s.option_count : shown_options;
    words.write_list(out, say<message_kind::option>, shown, known(", "), [this](std::size_t i) {
      return shown_text{shown_name(s.options[i]), s.plain_options};
    });
    if (shown == s.option_count) return;
    out.put(' ');
    words.write(out, say<message_kind::more_options>, s.option_count - shown);
  }
};

// A template of the English catalogue (message_kind.hpp, kind_table) that has one part and no
// plural, as the text before and after the part: read at compile time.
struct around_part {
  std::string_view before, after;
};
consteval around_part english_around(message_kind kind) {
  const std::string_view t = entry_of(kind).english;
  const std::size_t open = t.find('{'), close = t.find('}');
  if (open == std::string_view::npos || close < open || t.find_first_of("{}", close + 1) != std::string_view::npos ||
      t.substr(open, close - open).find_first_of("?{", 1) != std::string_view::npos)
    throw "elicit: write_english_options expects this English template to be one part between two texts";
  return {t.substr(0, open), t.substr(close + 1)};
}

// What offered_options writes with the English catalogue (messages::english()), written
// without it: the options at compile time for an enum (describe.hpp, english_options_of), when
// offered for run-time ones (refinements.hpp); kept as field_spec::english_options.
template <class Sink>
constexpr void write_english_options(Sink& out, const enum_entry* options, std::size_t count) {
  constexpr around_part option = english_around(message_kind::option);
  constexpr around_part more = english_around(message_kind::more_options);
  const std::size_t shown = count < shown_options ? count : shown_options;
  for (std::size_t i = 0; i < shown; ++i) {
    if (i != 0) out.put(std::string_view(", "));
    out.put(option.before);
    shown_text{shown_name(options[i])}.write(out);
    out.put(option.after);
  }
  if (shown == count) return;
  out.put(' ');
  out.put(more.before);
  write_unsigned(out, count - shown);
  out.put(more.after);
}

// How many bytes of wire values a choice's violation lists at most (choice_params).
inline constexpr std::size_t choice_params_max_bytes = 1024;

// A choice's violation params up to "got": {"allowed": the first options' wire values, "more":
// how many others. At most shown_options values while they fit choice_params_max_bytes as
// JSON, the rest counted in "more". The same for every answer about the field, so written once
// with its options where it can be (field_spec::choice_head): into a constant for an enum
// (describe.hpp, choice_head_of), into the offered options for run-time ones (refinements.hpp).
template <class Sink>
constexpr void write_choice_head(Sink& out, const enum_entry* options, std::size_t count) {
  out.put(R"({"allowed":[)");
  const std::size_t most = count < shown_options ? count : shown_options;
  std::size_t listed = 0, spent = 0;
  for (; listed < most; ++listed) {
    const std::string_view wire = options[listed].wire;
    spent += wire.size() + json_extra_of(wire) + 3;
    if (spent > choice_params_max_bytes) break;
    if (listed != 0) out.put(',');
    write_string(out, wire);
  }
  out.put(R"(],"more":)");
  write_unsigned(out, count - listed);
}

// A choice's violation as the client's values (violation::params): the choice head ({"allowed":
// the first options' wire values, "more": how many others), then "got": what was sent. Bounded
// whatever the field offers and the client sends (write_choice_head); "got" only when it is a
// number, true, false, null or UTF-8 text of at most max_got bytes.
struct choice_params {
  const field_spec& s;
  value_view got;

  static constexpr std::size_t max_bytes = choice_params_max_bytes;
  static constexpr std::size_t max_got = 256;

  template <class Sink>
  void write_json(Sink& out) const {
    if (!s.choice_head.empty()) put_known(out, s.choice_head, s.choice_head_extra);
    else write_choice_head(out, s.options, s.option_count);
    write_got(out);
    out.put('}');
  }

 private:
  template <class Sink>
  void write_got(Sink& out) const {
    switch (got.kind()) {
      case json_kind::null: return put_known(out, known(R"(,"got":null)"));
      case json_kind::boolean:
        return put_known(out, got.boolean() ? known(R"(,"got":true)") : known(R"(,"got":false)"));
      case json_kind::number: put_known(out, known(R"(,"got":)")); return write_number(out, *got.as_number());
      case json_kind::string:
        if (got.text().size() > max_got) return;
        if (plain_ascii(got.text())) {  // nearly every text: UTF-8, nothing to escape, known at one look
          put_known(out, known(R"(,"got":")"));
          put_known(out, got.text(), 0);
          return out.put('"');
        }
        if (!is_utf8(got.text())) return;
        put_known(out, known(R"(,"got":)"));
        // Looked at once: text that costs its size as JSON has nothing to escape either.
        if (json_escape_extra(got.text()) != 0) return write_string(out, got.text());
        out.put('"');
        put_known(out, got.text(), 0);
        return out.put('"');
      default: return;
    }
  }
};

template <message_kind K>
void report_type(const reporter& r, const field_spec& s, kind_tag<K> /*expected*/, value_view j) {
  r("type", say<message_kind::type>, label_part(s), kind_words<K>{}, described{j});
}

}  // namespace elicit::detail
