// Reading JSON text without building a document: a scanner over the bytes of one text that
// reads what its caller asks for (a string, a scalar, a list of scalars) and steps over the rest,
// checking all of it as JSON. decode(text) drives it (detail/engine/reply.hpp) to read an answer into a
// slot per field: an answer is small and flat, and building a document to read three fields of
// it costs several times reading them.
//
// It accepts exactly the texts nlohmann::json::parse accepts, and reads the same values from
// them, but for one deliberate difference: a NUL byte is refused wherever it is (the parser
// takes it for the end of the text and ignores what follows). The rest: RFC 8259, UTF-8
// checked in strings (no overlong forms, surrogates or code points past U+10FFFF), escapes
// with surrogate pairs, a UTF-8 byte order mark skipped at the start, a number without
// fraction or exponent read as an unsigned (or, with a minus, signed) 64-bit integer when it
// fits and as a double otherwise, a number beyond a double refused. tests/unit/detail/engine/test_reply.cpp and
// the fuzz target compare the two readings.
#pragma once

#include <elicit/detail/number.hpp>
#include <elicit/detail/same_text.hpp>
#include <elicit/detail/utf8.hpp>

#include <bit>
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <system_error>

namespace elicit::detail {

// What a JSON value is. `bad_number` (not finite), `binary` and `nothing` (discarded) are
// found only in values built in a program, never read from text.
enum class json_kind : unsigned char { null, boolean, number, string, array, object, bad_number, binary, nothing };

// A value read from text: a scalar in full; a list read as a field's value with its items (in
// the reader's item pool, from first_item); any other list or object by its kind alone.
struct text_value {
  json_kind kind = json_kind::nothing;
  bool boolean = false;
  number num{};
  std::string_view text{};  // a string, unescaped: into the text, or into the scanner's buffer
  std::uint32_t first_item = 0;
  std::uint32_t item_count = 0;
};

class json_scanner {
 public:
  enum class failure : unsigned char { none, syntax, too_deep, number_range };

  json_scanner(std::string_view text, std::size_t max_depth) noexcept
      : at_(text.data()), begin_(text.data()), end_(text.data() + text.size()), max_depth_(max_depth) {
    // A UTF-8 byte order mark may start the text (as nlohmann's parser allows).
    if (text.size() >= 3 && std::memcmp(at_, "\xEF\xBB\xBF", 3) == 0) at_ += 3;
  }
  json_scanner(const json_scanner&) = delete;
  json_scanner& operator=(const json_scanner&) = delete;

  // ---- Why reading stopped ----
  [[nodiscard]] failure failed() const noexcept { return failure_; }
  [[nodiscard]] std::size_t error_byte() const noexcept { return error_byte_; }  // counted from 1

  // ---- Structure ----
  // The next byte that is not whitespace, or '\0' at the end of the text. A NUL byte in the
  // text fails wherever it is (nlohmann's parser would take it for the end of the text).
  [[nodiscard]] char peek() noexcept {
    // Most answers are sent compact: the next byte is nearly always what is looked for.
    if (at_ < end_ && above_space(*at_)) return *at_;
    skip_whitespace();
    return at_ < end_ ? *at_ : '\0';
  }
  // Takes `c`, the next byte that is not whitespace, or fails.
  bool expect(char c) noexcept {
    if (peek() != c) return fail(failure::syntax);
    ++at_;
    return true;
  }
  // Takes `c` when it comes next.
  bool take(char c) noexcept {
    if (peek() != c) return false;
    ++at_;
    return true;
  }
  // Opens the list or object whose bracket comes next, within the depth limit.
  bool open(char bracket) noexcept {
    if (depth_ == max_depth_) return fail(failure::too_deep);
    ++depth_;
    return expect(bracket);
  }
  // After a member or item: true with `more` set when a comma follows, true with `more`
  // cleared when the closing bracket does (and closes it), false otherwise.
  bool next(char closing, bool& more) noexcept {
    const char c = peek();
    if (c == ',') {
      ++at_;
      more = true;
      return true;
    }
    if (c != closing) return fail(failure::syntax);
    ++at_;
    --depth_;
    more = false;
    return true;
  }
  // Closes a list or object when its closing bracket comes next (an empty one).
  bool close_if(char closing) noexcept {
    if (!take(closing)) return false;
    --depth_;
    return true;
  }
  // Nothing but whitespace is left.
  bool finish() noexcept { return peek() == '\0' && at_ == end_ ? true : fail(failure::syntax); }

  // ---- Values ----
  // A key and its colon; `out` is the key unescaped.
  bool key(std::string_view& out) { return member_key(out, true); }
  // The key `expected` and its colon, when both come next and the key is spelled as it is
  // (it must be plain_in_json: a key spelled with escapes is left to key()): true, taken;
  // false, nothing but whitespace taken, so that key() reads what is there and refuses it
  // where it always has. Most answers name their fields in the form's order, as the schema
  // lists them, so one comparison replaces reading the key and looking it up.
  bool take_key(std::string_view expected) noexcept {
    if (peek() != '"') return false;
    const std::size_t n = expected.size();
    if (static_cast<std::size_t>(end_ - at_) < n + 2 || at_[n + 1] != '"' ||
        !same_text(std::string_view(at_ + 1, n), expected))
      return false;
    const char* colon = at_ + n + 2;
    if (colon < end_ && *colon == ':') {  // compact text: the colon at once
      at_ = colon + 1;
      return true;
    }
    while (colon < end_ && is_whitespace(*colon)) ++colon;
    if (colon == end_ || *colon != ':') return false;
    at_ = colon + 1;
    return true;
  }
  // A scalar in full, or a list or object stepped over and told by its kind.
  bool value(text_value& out) { return value_at(peek(), out); }
  // The same, when the caller has peeked `next` already (a second peek costs as much again).
  bool value_at(char next, text_value& out) {
    switch (next) {
      case '{': out.kind = json_kind::object; return skip();
      case '[': out.kind = json_kind::array; return skip();
      default: return scalar_at(next, out);
    }
  }
  // Steps over one value of any kind, checking it all.
  bool skip();

 private:
  bool fail(failure f) noexcept {
    if (failure_ == failure::none) {
      failure_ = f;
      error_byte_ = static_cast<std::size_t>(at_ - begin_) + 1;
    }
    return false;
  }
  // Most calls find no whitespace (answers are mostly sent compact): any byte above the space
  // is told in one comparison, before the four whitespace bytes are told apart.
  static bool above_space(char c) noexcept { return static_cast<unsigned char>(c) > ' '; }
  static bool is_whitespace(char c) noexcept {
    return static_cast<unsigned char>(c) <= ' ' && (c == ' ' || c == '\n' || c == '\r' || c == '\t');
  }
  void skip_whitespace() noexcept {
    while (at_ < end_ && is_whitespace(*at_)) ++at_;
  }
  bool scalar_at(char next, text_value& out);
  bool literal(std::string_view word) noexcept {
    if (static_cast<std::size_t>(end_ - at_) < word.size() || std::memcmp(at_, word.data(), word.size()) != 0)
      return fail(failure::syntax);
    at_ += word.size();
    return true;
  }
  bool string(std::string_view& out, bool keep);
  bool string_from(const char* start, const char* p, std::string_view& out, bool keep);
  // A high bit in each of the eight bytes at `p` that is a quote, a backslash, a control byte or
  // not ASCII: the lowest byte flagged is always one that should be (the borrows of the test
  // run upwards, so a higher flag may be false).
  static std::uint64_t special_bytes(const char* p) noexcept {
    constexpr std::uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
    std::uint64_t w = 0;  // the eight bytes with the first in the lowest
    if constexpr (std::endian::native == std::endian::little) {
      std::memcpy(&w, p, 8);
    } else {
      for (unsigned i = 0; i < 8; ++i) w |= std::uint64_t{static_cast<unsigned char>(p[i])} << (8 * i);
    }
    const std::uint64_t quote = w ^ (ones * '"'), backslash = w ^ (ones * '\\');
    return (((quote - ones) & ~quote) | ((backslash - ones) & ~backslash) | ((w - ones * 0x20) & ~w) | w) & highs;
  }
  // A key and its colon; with `keep`, `out` is the key unescaped (string()).
  bool member_key(std::string_view& out, bool keep) {
    if (peek() != '"') return fail(failure::syntax);
    return string(out, keep) && expect(':');
  }
  // The length of the valid UTF-8 sequence of a non-ASCII byte at `p`, or 0 when there is none.
  [[nodiscard]] std::size_t utf8_at(const char* p) const noexcept {
    const std::size_t len = utf8_sequence_length(static_cast<unsigned char>(*p));
    if (len == 0 || static_cast<std::size_t>(end_ - p) < len) return 0;
    return code_points(std::string_view(p, len)) == invalid_utf8 ? 0 : len;
  }
  bool escape(bool keep);
  bool hex4(std::uint32_t& out) noexcept;
  bool number_value(number& out);
  void put_code_point(std::uint32_t cp);

  const char* at_;
  const char* begin_;
  const char* end_;
  std::size_t max_depth_;
  std::size_t depth_ = 0;
  failure failure_ = failure::none;
  std::size_t error_byte_ = 0;
  std::string unescaped_;  // strings with escapes, unescaped; never reallocated once reserved
  std::string open_;       // skip(): the brackets open, innermost last
};

inline bool json_scanner::scalar_at(char next, text_value& out) {
  switch (next) {
    case '"': out.kind = json_kind::string; return string(out.text, true);
    case 't':
      out.kind = json_kind::boolean;
      out.boolean = true;
      return literal("true");
    case 'f':
      out.kind = json_kind::boolean;
      out.boolean = false;
      return literal("false");
    case 'n': out.kind = json_kind::null; return literal("null");
    default: out.kind = json_kind::number; return number_value(out.num);
  }
}

inline bool json_scanner::skip() {
  open_.clear();
  text_value scratch;
  std::string_view ignored;
  for (;;) {
    // A value is expected here.
    const char c = peek();
    if (c == '{' || c == '[') {
      if (!open(c)) return false;
      if (close_if(c == '{' ? '}' : ']')) {
        // an empty list or object: a whole value
      } else {
        open_.push_back(c);
        if (c == '{' && !member_key(ignored, false)) return false;
        continue;
      }
    } else if (c == '"') {
      if (!string(ignored, false)) return false;
    } else if (!scalar_at(c, scratch)) {
      return false;
    }
    // A value has ended: close what ends with it, up to the next value.
    for (;;) {
      if (open_.empty()) return true;
      const bool in_object = open_.back() == '{';
      bool more = false;
      if (!next(in_object ? '}' : ']', more)) return false;
      if (!more) {
        open_.pop_back();
        continue;
      }
      if (in_object && !member_key(ignored, false)) return false;
      break;
    }
  }
}

// At the opening quote. With `keep`, `out` is the text unescaped; without, it is only checked.
// Plain ASCII up to the closing quote (nearly every key and value) is read here, eight bytes at a
// time; from the first byte that is anything else, string_from reads the rest (kept out of line:
// its escapes and UTF-8 made every string pay for the registers it saves).
inline bool json_scanner::string(std::string_view& out, bool keep) {
  const char* const start = ++at_;
  const char* p = start;  // a local: the member would be stored and reloaded at every step
  while (end_ - p >= 8) {
    const std::uint64_t special = special_bytes(p);
    if (special == 0) {
      p += 8;
      continue;
    }
    p += static_cast<unsigned>(std::countr_zero(special)) / 8;  // the first byte is the lowest
    if (*p != '"') break;
    out = std::string_view(start, static_cast<std::size_t>(p - start));
    at_ = p + 1;
    return true;
  }
  return string_from(start, p, out, keep);
}

// The rest of a string from `p`, past plain text from `start`: what string() does not read.
[[gnu::noinline]] inline bool json_scanner::string_from(const char* start, const char* p, std::string_view& out,
                                                        bool keep) {
  for (;;) {
    // Eight bytes at a time while eight are left, as in string().
    if (end_ - p >= 8) {
      const std::uint64_t special = special_bytes(p);
      if (special == 0) {
        p += 8;
        continue;
      }
      p += static_cast<unsigned>(std::countr_zero(special)) / 8;  // the first byte is the lowest
    } else if (p == end_) {
      at_ = p;
      return fail(failure::syntax);
    }
    const auto b = static_cast<unsigned char>(*p);
    if (b == '"') {
      out = std::string_view(start, static_cast<std::size_t>(p - start));
      at_ = p + 1;
      return true;
    }
    at_ = p;
    if (b == '\\') break;
    if (b < 0x20) return fail(failure::syntax);
    if (b < 0x80) {
      ++p;
      continue;
    }
    const std::size_t len = utf8_at(p);
    if (len == 0) return fail(failure::syntax);
    p += len;
  }
  // With escapes: the text so far, then the rest unescaped, in the buffer (reserved once for
  // the whole text, so that the views into it stay valid).
  std::size_t from = 0;
  if (keep) {
    // Unescaped, all the strings of a text together are never longer than the text.
    if (unescaped_.capacity() < static_cast<std::size_t>(end_ - begin_))
      unescaped_.reserve(static_cast<std::size_t>(end_ - begin_));
    from = unescaped_.size();
    unescaped_.append(start, at_);
  }
  for (;;) {
    if (at_ == end_) return fail(failure::syntax);
    const auto b = static_cast<unsigned char>(*at_);
    if (b == '"') break;
    if (b == '\\') {
      ++at_;
      if (!escape(keep)) return false;
      continue;
    }
    if (b < 0x20) return fail(failure::syntax);
    const std::size_t len = b < 0x80 ? 1 : utf8_at(at_);
    if (len == 0) return fail(failure::syntax);
    if (keep) unescaped_.append(at_, len);
    at_ += len;
  }
  ++at_;
  if (keep) out = std::string_view(unescaped_).substr(from);
  return true;
}

// After a backslash.
inline bool json_scanner::escape(bool keep) {
  if (at_ == end_) return fail(failure::syntax);
  const char c = *at_++;
  char plain = 0;
  switch (c) {
    case '"': plain = '"'; break;
    case '\\': plain = '\\'; break;
    case '/': plain = '/'; break;
    case 'b': plain = '\b'; break;
    case 'f': plain = '\f'; break;
    case 'n': plain = '\n'; break;
    case 'r': plain = '\r'; break;
    case 't': plain = '\t'; break;
    case 'u': {
      std::uint32_t cp = 0;
      if (!hex4(cp)) return false;
      if (cp >= 0xDC00 && cp <= 0xDFFF) return fail(failure::syntax);  // a low surrogate alone
      if (cp >= 0xD800 && cp <= 0xDBFF) {                              // must be followed by a low one
        std::uint32_t low = 0;
        if (end_ - at_ < 2 || at_[0] != '\\' || at_[1] != 'u') return fail(failure::syntax);
        at_ += 2;
        if (!hex4(low)) return false;
        if (low < 0xDC00 || low > 0xDFFF) return fail(failure::syntax);
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      }
      if (keep) put_code_point(cp);
      return true;
    }
    default: --at_; return fail(failure::syntax);
  }
  if (keep) unescaped_.push_back(plain);
  return true;
}

inline bool json_scanner::hex4(std::uint32_t& out) noexcept {
  if (end_ - at_ < 4) return fail(failure::syntax);
  out = 0;
  for (int k = 0; k < 4; ++k, ++at_) {
    const char h = *at_;
    std::uint32_t digit = 0;
    if (h >= '0' && h <= '9') digit = static_cast<std::uint32_t>(h - '0');
    else if (h >= 'a' && h <= 'f') digit = static_cast<std::uint32_t>(h - 'a' + 10);
    else if (h >= 'A' && h <= 'F') digit = static_cast<std::uint32_t>(h - 'A' + 10);
    else return fail(failure::syntax);
    out = (out << 4) | digit;
  }
  return true;
}

inline void json_scanner::put_code_point(std::uint32_t cp) {
  if (cp < 0x80) {
    unescaped_.push_back(static_cast<char>(cp));
  } else if (cp < 0x800) {
    unescaped_.push_back(static_cast<char>(0xC0 | (cp >> 6)));
    unescaped_.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else if (cp < 0x10000) {
    unescaped_.push_back(static_cast<char>(0xE0 | (cp >> 12)));
    unescaped_.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    unescaped_.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  } else {
    unescaped_.push_back(static_cast<char>(0xF0 | (cp >> 18)));
    unescaped_.push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
    unescaped_.push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
    unescaped_.push_back(static_cast<char>(0x80 | (cp & 0x3F)));
  }
}

// The powers of ten a double holds exactly: number_value's fast path scales by them.
inline constexpr double exact_powers_of_ten[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                                 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};

// A number, by RFC 8259's grammar: -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?
inline bool json_scanner::number_value(number& out) {
  const char* const start = at_;
  const char* p = at_;  // a local: the member would be stored and reloaded at every digit
  const auto digit = [&p, this] { return p < end_ && *p >= '0' && *p <= '9'; };
  const auto refuse = [&p, this](failure f) {
    at_ = p;
    return fail(f);
  };
  const bool negative = p < end_ && *p == '-';
  if (negative) ++p;
  if (!digit()) return refuse(failure::syntax);
  std::uint64_t whole = 0;
  bool fits = true;  // the integer part fits in 64 bits
  const char* const int_start = p;
  if (*p == '0') {
    ++p;
  } else {
    // Nineteen digits always fit in 64 bits: overflow is checked from the twentieth on.
    for (const char* const unchecked = end_ - p > 19 ? p + 19 : end_; p < unchecked && *p >= '0' && *p <= '9'; ++p)
      whole = whole * 10 + static_cast<std::uint64_t>(*p - '0');
    while (digit()) {
      const auto d = static_cast<std::uint64_t>(*p - '0');
      fits = fits && !__builtin_mul_overflow(whole, 10u, &whole) && !__builtin_add_overflow(whole, d, &whole);
      ++p;
    }
  }
  const bool zero_int = *int_start == '0';
  // Counts and the exponent as 64-bit integers: a text of a megabyte can hold a million digits,
  // and the exponent must be able to outweigh them (it saturates far beyond any text's length).
  const auto int_digits = static_cast<std::int64_t>(p - int_start);
  // All the digits as one integer while there are at most 19 (no overflow), and the power of
  // ten that scales it: what the fast path below reads a fraction from.
  std::uint64_t digits = whole;
  std::int64_t digit_count = int_digits, scale = 0;
  std::int64_t leading_zeros = 0;  // of the fraction, when the integer part is 0
  bool integral = true;
  if (p < end_ && *p == '.') {
    integral = false;
    ++p;
    if (!digit()) return refuse(failure::syntax);
    bool counting = zero_int;
    while (digit()) {
      if (counting && *p == '0') ++leading_zeros;
      else counting = false;
      if (++digit_count <= 19) {
        digits = digits * 10 + static_cast<std::uint64_t>(*p - '0');
        --scale;
      }
      ++p;
    }
  }
  std::int64_t exponent = 0;
  if (p < end_ && (*p == 'e' || *p == 'E')) {
    integral = false;
    ++p;
    bool minus = false;
    if (p < end_ && (*p == '+' || *p == '-')) minus = *p++ == '-';
    if (!digit()) return refuse(failure::syntax);
    while (digit()) {
      if (exponent < std::int64_t{1} << 50) exponent = exponent * 10 + (*p - '0');
      ++p;
    }
    if (minus) exponent = -exponent;
  }
  at_ = p;
  if (integral && fits) {
    if (!negative) {
      out = number{whole};
      return true;
    }
    if (whole <= std::uint64_t{1} << 63) {
      out = number{static_cast<std::int64_t>(0 - whole)};  // two's complement: -2^63 included
      return true;
    }
  }
  // Most fractions sent (2.5, 0.1, 12.75) have few digits and a small exponent: their digits
  // and the power of ten are exact doubles, so one multiplication or division, rounded once,
  // is the nearest double, the value from_chars would give.
  const std::int64_t power = scale + exponent;
  if (fits && digit_count <= 19 && digits <= std::uint64_t{1} << 53 && power >= -22 && power <= 22) {
    double d = static_cast<double>(digits);
    d = power < 0 ? d / exact_powers_of_ten[-power] : d * exact_powers_of_ten[power];
    out = number{negative ? -d : d};
    return true;
  }
  double d = 0;
  const auto [end, ec] = std::from_chars(start, at_, d);
  if (ec == std::errc::result_out_of_range) {
    // Too large, or so small it reads as zero (as strtod gives it): tell them by magnitude.
    const std::int64_t magnitude = (zero_int ? -(leading_zeros + 1) : int_digits - 1) + exponent;
    if (magnitude > 0) return fail(failure::number_range);
    d = negative ? -0.0 : 0.0;
  } else if (ec != std::errc() || end != at_) {
    return fail(failure::syntax);
  }
  out = number{d};
  return true;
}

}  // namespace elicit::detail
