// Reporting what an answer breaks: `reporter` files a violation of one value at its JSON
// Pointer, and `described` says what a JSON value is in a message ("the text \"abc\"").
#pragma once

#include <elicit/detail/json_pointer.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/detail/number_text.hpp>
#include <elicit/detail/utf8.hpp>
#include <elicit/impl/field_spec.hpp>
#include <elicit/impl/keywords.hpp>
#include <elicit/impl/value_view.hpp>
#include <elicit/violation.hpp>

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
  bool plain_text = true;  // decode_options::plain_text: text fields refuse hidden controls

  static constexpr std::size_t no_item = static_cast<std::size_t>(-1);

  // Files a violation whose message is the parts (detail::message's), written straight into
  // the list's text.
  template <class... Parts>
  void operator()(std::string_view keyword, const Parts&... parts) const {
    if (out.full()) return out.omit();
    violation_sink text(out);
    write_pointer(text);
    text.end_pointer();
    text.put(keyword);
    text.end_keyword();
    (write_part(text, parts), ...);
    text.done();
  }
  [[nodiscard]] reporter at(std::size_t index) const { return {out, field, index, plain_text}; }

 private:
  // "/field", or "/field/3" for an item.
  void write_pointer(violation_sink& pointer) const {
    pointer.put('/');
    write_pointer_token(pointer, field);
    if (item != no_item) {
      pointer.put('/');
      write_unsigned(pointer, item);
    }
  }
};

// What a JSON value is, as a message part: `the text "abc"`, `the number 12.5`, `a list`...
// Text is shown up to 40 code points, whole ones, and never when it is not UTF-8.
struct described {
  value_view j;

  template <class Sink>
  void write(Sink& out) const {
    switch (j.kind()) {
      case json_kind::null: return out.put("null");
      case json_kind::boolean: return out.put(j.boolean() ? "true" : "false");
      case json_kind::string: return write_text(out, j.text());
      case json_kind::array: return out.put("a list");
      case json_kind::object: return out.put("an object");
      case json_kind::number: out.put("the number "); return write_number(out, *j.as_number());
      case json_kind::bad_number: return out.put("a number out of range");
      case json_kind::binary: return out.put("binary data");
      default: return out.put("nothing readable");  // discarded: what parse(text, nullptr, false) gives for bad text
    }
  }
  template <class Sink>
  static void write_text(Sink& out, std::string_view text) {
    if (!is_utf8(text)) return out.put("text that is not valid UTF-8");
    out.put("the text ");
    write_quoted(out, text);
  }
  // UTF-8 text in quotes, up to 40 code points, whole ones: `"abc"`, or `"abc..."` when cut.
  template <class Sink>
  static void write_quoted(Sink& out, std::string_view text) {
    // Text of at most 40 bytes has at most 40 code points: shown whole, without counting them.
    std::size_t cut = text.size() <= 40 ? text.size() : 0, shown = 0;
    while (cut < text.size() && shown < 40) {
      cut += utf8_sequence_length(static_cast<unsigned char>(text[cut]));
      ++shown;
    }
    out.put('"');
    out.put(text.substr(0, cut));
    out.put(cut < text.size() ? "...\"" : "\"");
  }
};

// The options of a select field as a message part: `"GB", "IE", "FR"`, each quoted as
// `described` quotes a value; past shown_options, the first of them and how many more:
// `"AD", "AE", ... "AR" (and 240 more)`. A message about a choice stays short whatever the
// field offers: 100,000 options cost no more words than 10.
struct offered_options {
  const field_spec& s;

  static constexpr std::size_t shown_options = 10;

  template <class Sink>
  void write(Sink& out) const {
    const std::size_t shown = s.option_count < shown_options ? s.option_count : shown_options;
    for (std::size_t i = 0; i < shown; ++i) {
      if (i != 0) out.put(", ");
      described::write_quoted(out, s.options[i].wire);
    }
    if (shown == s.option_count) return;
    out.put(" (and ");
    write_unsigned(out, s.option_count - shown);
    out.put(" more)");
  }
};

inline void report_type(const reporter& r, const field_spec& s, std::string_view expected, value_view j) {
  r("type", label_of(s), " must be ", expected, "; got ", described{j}, ".");
}

}  // namespace elicit::detail
