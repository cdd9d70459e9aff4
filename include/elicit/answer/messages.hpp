// elicit::messages: every sentence a person reads about their answer, one entry per kind of
// message, each a template with named parts. English is the default; French ships complete; a
// server picks a catalogue per request (the client's locale is the server's business) or
// replaces single entries.
//
//   static const elicit::messages words = elicit::messages::french()
//       .with(elicit::message_kind::required, "Merci de remplir {field}.");
//   elicit::decode_options options;
//   options.words = &words;                            // the decode and the re-ask both use it
//   auto r = elicit::decode<Booking>(result, options); // "Nom doit comporter au plus 8 caractères ; ..."
//
// A template is UTF-8 text with parts in braces: `{field} must be at least {limit}; got {got}.`
// `{name?one|many}` writes `one` when the part's count takes the singular and `many` otherwise
// (`{limit?character|characters}`); `{{` and `}}` write a brace. Which parts each kind has is
// messages::part_names(kind); reference text: docs/decoding.md, "Messages in the user's language".
//
// What a catalogue covers: the violations of a field's answer and of the answer's content (what
// the re-ask shows), the summary of violations not listed, the re-ask's header, and the words
// of the -32602 error that refuses an answer. The messages about a result that could not be
// read at all (not JSON, no action, past a limit) stay English: they read as cancel, are never
// shown in a re-ask, and speak to the developer.
#pragma once

#include <elicit/answer/message_kind.hpp>
#include <elicit/detail/buffer_sink.hpp>
#include <elicit/detail/json_escape.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/detail/utf8.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace elicit {

namespace detail {
struct offered_options;  // detail/model/reporter.hpp

// A piece of an English template (kind_table), parsed at compile time as messages::set parses a
// template at run time: text, a part, or a plural's two words; with what each text costs as
// JSON over its size.
struct english_piece {
  enum type_t : unsigned char { literal, part_ref, plural } type = literal;
  std::size_t part = 0;
  std::string_view text{}, many{};
  std::size_t extra = 0, many_extra = 0;
};

// A template's faults, as scan_template finds them.
enum class template_fault : unsigned char { closes_nothing, not_closed, plural_without_words };

// Walks a message template once, for the run-time parser (messages::set) and the compile-time
// one (parse_english) alike, telling `to` what it finds, in order:
//   to.literal(begin, end)   a run of text ("{{" and "}}" end a run after their first brace and
//                            the next begins after the second: one brace is written);
//   to.name(name, plural)    the part a brace names, first (it finds the part, or refuses it),
//                            returning what part() and plural() take;
//   to.part(ref)             "{name}";
//   to.plural(ref, one_begin, one_end, many_begin, many_end)   "{name?one|many}";
//   to.fault(fault, name)    a brace that closes nothing, one not closed, a plural without its
//                            two words: the walk stops there (fault() may throw).
template <class To>
constexpr void scan_template(std::string_view text, To& to) {
  std::size_t start = 0;
  const auto flush = [&](std::size_t end) {
    if (end > start) to.literal(start, end);
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if ((c == '{' || c == '}') && i + 1 < text.size() && text[i + 1] == c) {  // "{{": one brace
      flush(i + 1);
      start = ++i + 1;
      continue;
    }
    if (c == '}') return to.fault(template_fault::closes_nothing, {});
    if (c != '{') continue;
    const std::size_t close = text.find('}', i);
    if (close == std::string_view::npos) return to.fault(template_fault::not_closed, {});
    flush(i);
    const std::string_view inside = text.substr(i + 1, close - i - 1);
    const std::size_t question = inside.find('?');
    const std::string_view name = inside.substr(0, question);
    const auto ref = to.name(name, question != std::string_view::npos);
    if (question == std::string_view::npos) {
      to.part(ref);
    } else {
      const std::size_t bar = inside.find('|', question);
      if (bar == std::string_view::npos) return to.fault(template_fault::plural_without_words, name);
      to.plural(ref, i + 1 + question + 1, i + 1 + bar, i + 1 + bar + 1, close);
    }
    i = close;
    start = close + 1;
  }
  flush(text.size());
}

// Kind `kind`'s English template as pieces, into `out` (nullptr: counted only); how many. Only
// evaluated at compile time (english_pieces): a template the run-time parser would refuse is a
// compile error here (the throw).
constexpr std::size_t parse_english(message_kind kind, english_piece* out) {
  struct pieces {
    std::string_view text;
    std::string_view parts;  // kind_table's "field,limit#,got#"
    english_piece* out;
    std::size_t count = 0;

    constexpr void add(const english_piece& piece) {
      if (out != nullptr) out[count] = piece;
      ++count;
    }
    constexpr void literal(std::size_t begin, std::size_t end) {
      const std::string_view t = text.substr(begin, end - begin);
      add({english_piece::literal, 0, t, {}, json_extra_of(t), 0});
    }
    constexpr std::size_t name(std::string_view wanted, bool /*plural*/) const {
      std::string_view rest = parts;
      for (std::size_t i = 0; !rest.empty(); ++i) {
        const std::size_t comma = rest.find(',');
        std::string_view part = rest.substr(0, comma);
        if (part.ends_with('#')) part.remove_suffix(1);
        if (part == wanted) return i;
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      }
      throw "elicit: an English template names a part its kind does not have";
    }
    constexpr void part(std::size_t ref) { add({english_piece::part_ref, ref, {}, {}, 0, 0}); }
    constexpr void plural(std::size_t ref, std::size_t one_begin, std::size_t one_end, std::size_t many_begin,
                          std::size_t many_end) {
      const std::string_view one = text.substr(one_begin, one_end - one_begin);
      const std::string_view many = text.substr(many_begin, many_end - many_begin);
      add({english_piece::plural, ref, one, many, json_extra_of(one), json_extra_of(many)});
    }
    static constexpr void fault(template_fault f, std::string_view /*name*/) {
      if (f == template_fault::closes_nothing) throw "elicit: an English template has a '}' that closes nothing";
      if (f == template_fault::not_closed) throw "elicit: an English template has a '{' that is not closed";
      if (f == template_fault::plural_without_words) throw "elicit: an English plural without its two words";
    }
  } to{entry_of(kind).english, entry_of(kind).parts, out};
  scan_template(to.text, to);
  return to.count;
}
template <message_kind K>
inline constexpr auto english_pieces = [] {
  std::array<english_piece, parse_english(K, nullptr)> pieces{};
  parse_english(K, pieces.data());
  return pieces;
}();
}  // namespace detail

// A catalogue of messages: one template per message_kind, parsed once when it is made. Cheap to
// read from many threads at once; a copy is independent of what it was copied from.
class messages {
 public:
  // Which counts take the singular: 1 alone (English, German...), or 0 and 1 (French).
  enum class plural_rule : unsigned char { one, zero_and_one };

  static constexpr std::size_t kind_count = detail::kind_count;

  // The shipped catalogues, made at their first use. English is what every violation is written
  // in unless a catalogue is given: inline, its use costs the check that it is made.
  [[nodiscard]] [[gnu::always_inline]] static const messages& english() {
    static const messages words = [] {
      messages english = from_table([](std::size_t i) { return detail::kind_table[i].english; }, plural_rule::one);
      english.english_ = true;
      return english;
    }();
    return words;
  }
  [[nodiscard]] static const messages& french() {
    static const messages words =
        from_table([](std::size_t i) { return detail::french_table[i]; }, plural_rule::zero_and_one);
    return words;
  }

  // A catalogue of `texts`, one per kind in message_kind's order. Throws std::invalid_argument,
  // naming the kind, for a template that is not what parse() accepts.
  messages(std::span<const std::string_view, kind_count> texts, plural_rule rule) : rule_(rule) {
    for (std::size_t i = 0; i < kind_count; ++i) set(static_cast<message_kind>(i), texts[i]);
  }

  // This catalogue with one entry replaced. Throws std::invalid_argument, naming the kind and
  // the part, for a template with a part the kind does not have, a plural on a part that is no
  // count, an unclosed brace, text that is not UTF-8, or an empty or over-long (512 bytes) text.
  [[nodiscard]] messages with(message_kind kind, std::string_view text) const {
    messages copy(*this);
    copy.set(kind, text);
    return copy;
  }

  // The template of a kind, as given.
  [[nodiscard]] std::string_view text(message_kind kind) const noexcept { return texts_[index(kind)]; }
  [[nodiscard]] plural_rule rule() const noexcept { return rule_; }
  // The kind's name ("min_length") and its parts' names in order ("field", "limit", "got").
  [[nodiscard]] static constexpr std::string_view kind_name(message_kind kind) noexcept {
    return detail::entry_of(kind).name;
  }
  [[nodiscard]] static std::vector<std::string_view> part_names(message_kind kind) {
    std::vector<std::string_view> names;
    for (const part_info& part : parts_of(kind)) names.push_back(part.name);
    return names;
  }

  static constexpr std::size_t max_template = 512;

  // Writes kind K's sentence, its parts in the order part_names(K) gives them, into a message sink
  // (detail/message.hpp): what elicit's readers call. A part is text, a number, or a type with
  // write(sink, messages) that writes its own words from this catalogue.
  template <class Sink, message_kind K, class... Parts>
  void write(Sink& out, detail::kind_tag<K> kind, const Parts&... parts) const {
    static_assert(sizeof...(Parts) == detail::part_count(K), "elicit: give this message kind each of its parts");
    if (english_) return write_english(out, kind, parts...);
    // The segments lie within the text (set() made them so): no bounds checked per piece.
    const char* const text = texts_[index(K)].data();
    for (const segment& s : segments_[index(K)]) {
      if (s.type == segment::literal)
        detail::put_known(out, std::string_view(text + s.begin, s.end - s.begin), s.extra);
      else if (s.type == segment::part_ref) write_nth(out, s.part, parts...);
      else if (singular(count_nth(s.part, parts...)))
        detail::put_known(out, std::string_view(text + s.begin, s.end - s.begin), s.extra);
      else detail::put_known(out, std::string_view(text + s.many_begin, s.many_end - s.many_begin), s.many_extra);
    }
  }

 private:
  friend struct detail::offered_options;

  // Kind K's sentence from its English template as parsed at compile time (detail::english_pieces):
  // what write() does when the catalogue's templates are English's, each piece a constant.
  template <class Sink, message_kind K, class... Parts>
  void write_english(Sink& out, detail::kind_tag<K> /*kind*/, const Parts&... parts) const {
    [&]<std::size_t... I>(std::index_sequence<I...>) { (write_english_piece<K, I>(out, parts...), ...); }
    (std::make_index_sequence<detail::english_pieces<K>.size()>{});
  }
  template <message_kind K, std::size_t I, class Sink, class... Parts>
  void write_english_piece(Sink& out, const Parts&... parts) const {
    constexpr detail::english_piece piece = detail::english_pieces<K>[I];
    if constexpr (piece.type == detail::english_piece::literal) {
      detail::put_known(out, piece.text, piece.extra);
    } else {
      const auto& part = std::get<piece.part>(std::tie(parts...));
      if constexpr (piece.type == detail::english_piece::part_ref) write_one(out, part);
      else if (singular(count_of(part))) detail::put_known(out, piece.text, piece.extra);
      else detail::put_known(out, piece.many, piece.many_extra);
    }
  }

  // Kind K's sentence for each of `count` parts (`part(i)`, K's one part), `separator` between
  // them: a choice's options (detail::offered_options). A template that is its part between two
  // texts, as the shipped ones write an option, is read once for the list, not once per item,
  // and what comes between two parts (the text after one, the separator, the text before the
  // next: `", "`) is put together once, so that each item costs two pieces.
  template <class Sink, message_kind K, class Part>
  void write_list(Sink& out, detail::kind_tag<K> kind, std::size_t count, detail::known_text separator,
                  Part part) const {
    static_assert(detail::part_count(K) == 1, "elicit: a list item is its kind's one part");
    const std::vector<segment>& pieces = segments_[index(K)];
    const segment* before = nullptr;
    const segment* after = nullptr;
    std::size_t at = 0;
    if (at < pieces.size() && pieces[at].type == segment::literal) before = &pieces[at++];
    const bool one_part = at < pieces.size() && pieces[at++].type == segment::part_ref;
    if (at < pieces.size() && pieces[at].type == segment::literal) after = &pieces[at++];
    if (!one_part || at != pieces.size()) {
      for (std::size_t i = 0; i < count; ++i) {
        if (i != 0) detail::put_known(out, separator);
        write(out, kind, part(i));
      }
      return;
    }
    const char* const text = texts_[index(K)].data();
    const auto piece = [text](const segment* s) {
      return s == nullptr
                 ? detail::known_text{}
                 : detail::known_text{{text + s->begin, static_cast<std::size_t>(s->end - s->begin)}, s->extra};
    };
    const detail::known_text first = piece(before), last = piece(after);
    char joined[3 * max_template];  // not initialized: written before it is read
    const std::size_t size = last.text.size() + separator.text.size() + first.text.size();
    char* end = joined;
    for (const std::string_view t : {last.text, separator.text, first.text}) {
      detail::copy_short(end, t.data(), t.size());  // nearly always a few bytes: inline
      end += t.size();
    }
    const detail::known_text between{{joined, size}, last.extra + separator.extra + first.extra};
    for (std::size_t i = 0; i < count; ++i) {
      detail::put_known(out, i == 0 ? first : between);
      if constexpr (requires { part(i).write(out); }) part(i).write(out);  // inline: one piece per item
      else write_one(out, part(i));
    }
    if (count != 0) detail::put_known(out, last);
  }

  // One piece of a parsed template: text, a part, or a plural (two words, in the text).
  struct segment {
    enum type_t : unsigned char { literal, part_ref, plural } type = literal;
    std::uint8_t part = 0;
    std::uint16_t begin = 0, end = 0;            // the text, or the plural's singular word
    std::uint16_t many_begin = 0, many_end = 0;  // the plural's other word
    // What the text, and the other word, cost as JSON over their size (detail::json_escape_extra):
    // counted once here, not at every violation written with them.
    std::uint16_t extra = 0, many_extra = 0;
  };

  template <class Text>
  static messages from_table(Text text_of, plural_rule rule) {
    std::array<std::string_view, kind_count> texts{};
    for (std::size_t i = 0; i < kind_count; ++i) texts[i] = text_of(i);
    return messages(texts, rule);
  }

  static constexpr std::size_t index(message_kind k) noexcept { return static_cast<std::size_t>(k); }

  [[nodiscard]] bool singular(std::size_t n) const noexcept {
    return n == 1 || (n == 0 && rule_ == plural_rule::zero_and_one);
  }

  template <class Sink, class... Parts>
  void write_nth(Sink& out, std::size_t n, const Parts&... parts) const {
    std::size_t i = 0;
    ((i++ == n ? write_one(out, parts) : void()), ...);
  }
  template <class Sink, class Part>
  [[gnu::always_inline]] void write_one(Sink& out, const Part& part) const {  // a dispatch: inline
    if constexpr (requires { part.write(out, *this); }) part.write(out, *this);
    else if constexpr (requires { part.write(out); }) part.write(out);  // as write_part would, inline
    else if constexpr (std::is_same_v<Part, detail::known_text>) detail::put_known(out, part);  // a label: inline
    else detail::write_part(out, part);
  }
  template <class... Parts>
  static std::size_t count_nth(std::size_t n, const Parts&... parts) noexcept {
    std::size_t i = 0, count = 2;  // a part that is no count reads as many
    ((count = i++ == n ? count_of(parts) : count), ...);
    return count;
  }
  template <class Part>
  static std::size_t count_of(const Part& part) noexcept {
    if constexpr (std::is_integral_v<Part> && std::is_unsigned_v<Part> && !std::is_same_v<Part, bool>)
      return static_cast<std::size_t>(part);
    else return 2;
  }

  // A kind's parts as kind_table says them ("field,limit#,got#"): each name, and whether it is a
  // count (a plural may choose by it).
  struct part_info {
    std::string_view name;
    bool count = false;
  };
  static std::vector<part_info> parts_of(message_kind kind) {
    std::vector<part_info> parts;
    for (std::string_view rest = detail::entry_of(kind).parts; !rest.empty();) {
      const std::size_t comma = rest.find(',');
      part_info part{rest.substr(0, comma)};
      part.count = part.name.ends_with('#');
      if (part.count) part.name.remove_suffix(1);
      parts.push_back(part);
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
    return parts;
  }

  [[noreturn]] static void refuse(message_kind kind, std::string_view why) {
    throw std::invalid_argument(detail::message("elicit::messages: the template of \"", kind_name(kind), "\" ", why));
  }

  // The part named `name` of `kind`: its index, and whether it is a count. Refused when none.
  static std::pair<std::size_t, bool> find_part(message_kind kind, std::string_view name) {
    const std::vector<part_info> parts = parts_of(kind);
    for (std::size_t i = 0; i < parts.size(); ++i)
      if (parts[i].name == name) return {i, parts[i].count};
    std::string known;
    for (const std::string_view part : part_names(kind))
      known += (known.empty() ? "{" : ", {") + std::string(part) + "}";
    refuse(kind, detail::message("has no part {", name, "}; its parts are ", known.empty() ? "none" : known, "."));
  }

  // Parses `text` into segments over texts_[kind] (a brace doubled is kept as one: the text is
  // stored as given and a segment skips the other).
  void set(message_kind kind, std::string_view text) {
    if (text.empty()) refuse(kind, "is empty.");
    if (text.size() > max_template) refuse(kind, detail::message("is longer than ", max_template, " bytes."));
    if (!detail::is_utf8(text)) refuse(kind, "is not valid UTF-8.");
    english_ = false;  // a template changed: no longer English's as compiled
    struct segments {  // what scan_template finds, as this catalogue keeps it
      message_kind kind;
      std::vector<segment> out{};

      static std::uint16_t at(std::size_t i) { return static_cast<std::uint16_t>(i); }
      void literal(std::size_t begin, std::size_t end) { out.push_back({segment::literal, 0, at(begin), at(end)}); }
      std::uint8_t name(std::string_view wanted, bool plural) const {
        const auto [part, is_count] = find_part(kind, wanted);
        if (plural && !is_count)
          refuse(kind, detail::message("chooses a plural by {", wanted, "}, which is no count."));
        return static_cast<std::uint8_t>(part);
      }
      void part(std::uint8_t ref) { out.push_back({segment::part_ref, ref}); }
      void plural(std::uint8_t ref, std::size_t one_begin, std::size_t one_end, std::size_t many_begin,
                  std::size_t many_end) {
        out.push_back({segment::plural, ref, at(one_begin), at(one_end), at(many_begin), at(many_end)});
      }
      [[noreturn]] void fault(detail::template_fault f, std::string_view wanted) const {
        if (f == detail::template_fault::closes_nothing)
          refuse(kind, "has a '}' that closes nothing: write \"}}\" for a brace.");
        if (f == detail::template_fault::not_closed)
          refuse(kind, "has a '{' that is not closed: write \"{{\" for a brace.");
        refuse(kind, detail::message("has a plural without its two words: {", wanted, "?one|many}."));
      }
    } to{kind};
    detail::scan_template(text, to);
    std::vector<segment>& out = to.out;
    for (segment& s : out) {
      if (s.type == segment::part_ref) continue;
      s.extra = segments::at(detail::json_escape_extra(text.substr(s.begin, s.end - s.begin)));
      s.many_extra = segments::at(detail::json_escape_extra(text.substr(s.many_begin, s.many_end - s.many_begin)));
    }
    texts_[index(kind)] = std::string(text);
    segments_[index(kind)] = std::move(out);
  }

  std::array<std::string, kind_count> texts_;
  std::array<std::vector<segment>, kind_count> segments_;
  plural_rule rule_ = plural_rule::one;
  // Its templates are English's and its plural rule English's (english(), or a copy of it not
  // changed since): write() takes each template as parsed at compile time.
  bool english_ = false;
};

namespace detail {

// The catalogue a reader writes in: the one given, or English (made at its first use: throws
// only std::bad_alloc, then).
inline const messages& words_or_english(const messages* words) {
  return words != nullptr ? *words : messages::english();
}

// A kind's words with no parts, as a part of another sentence: {expected}.
template <message_kind K>
struct kind_words {
  template <class Sink>
  void write(Sink& out, const messages& words) const {
    words.write(out, say<K>);
  }
};

}  // namespace detail

}  // namespace elicit
