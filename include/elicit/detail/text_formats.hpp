// The string formats of the schema, checked on arrival: email, uri, date, date-time.
//
// The rules follow the RFCs the formats name (RFC 5321/5322 dot-atom addresses, RFC 3986
// URIs, RFC 3339 dates and times); where elicit is stricter or looser than Ajv's formats (the
// validator of the TypeScript SDK), docs/internals/differential.md lists each case and why.
#pragma once

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace elicit::detail {

constexpr bool is_digit(char c) noexcept { return c >= '0' && c <= '9'; }
constexpr bool is_alpha(char c) noexcept { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
constexpr bool is_hex(char c) noexcept { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// The classes of bytes the e-mail and URI rules below allow, one bit each, looked up per byte
// in one table: a byte costs one load where a search of each set of characters cost a call,
// and four bytes of one class are told in one test.
enum char_class : unsigned char {
  uri_host = 1,      // unreserved or a sub-delimiter (RFC 3986): a registered name
  uri_userinfo = 2,  // and ":"
  uri_path = 4,      // and ":", "@", "/"
  uri_query = 8,     // and ":", "@", "/", "?" (a query, a fragment)
  uri_scheme = 16,   // letters, digits, "+", "-", "."
  email_atom = 32,   // atext (RFC 5322)
  host_label = 64,   // letters, digits, "-" (a domain's label)
};
inline constexpr std::array<unsigned char, 256> char_classes = [] {
  std::array<unsigned char, 256> table{};
  const auto mark = [&table](std::string_view set, unsigned classes) {
    for (const char c : set) table[static_cast<unsigned char>(c)] |= static_cast<unsigned char>(classes);
  };
  constexpr unsigned uri_parts = uri_host | uri_userinfo | uri_path | uri_query;
  for (int c = 0; c < 256; ++c) {
    const char ch = static_cast<char>(c);
    if (is_alpha(ch) || is_digit(ch))
      table[static_cast<std::size_t>(c)] = static_cast<unsigned char>(uri_parts | uri_scheme | email_atom | host_label);
  }
  mark("-._~!$&'()*+,;=", uri_parts);
  mark(":", uri_userinfo | uri_path | uri_query);
  mark("@/", uri_path | uri_query);
  mark("?", uri_query);
  mark("+-.", uri_scheme);
  mark("!#$%&'*+/=?^_`{|}~-", email_atom);
  mark("-", host_label);
  return table;
}();
constexpr bool has_class(char c, unsigned classes) noexcept {
  return (char_classes[static_cast<unsigned char>(c)] & classes) != 0;
}
// How many bytes from `p` (up to `end`) are of class `part`, counted four at a time.
constexpr std::size_t class_run(const char* p, const char* end, char_class part) noexcept {
  const char* const start = p;
  const auto of = [](char c) { return char_classes[static_cast<unsigned char>(c)]; };
  while (end - p >= 4 && (of(p[0]) & of(p[1]) & of(p[2]) & of(p[3]) & part) != 0) p += 4;
  while (p < end && (of(*p) & part) != 0) ++p;
  return static_cast<std::size_t>(p - start);
}
constexpr char lower(char c) noexcept { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

// `word` is `lowercase` in any case of ASCII letters: a URL's scheme and host, a name's words.
constexpr bool equals_lower(std::string_view word, std::string_view lowercase) noexcept {
  if (word.size() != lowercase.size()) return false;
  for (std::size_t i = 0; i < word.size(); ++i)
    if (lower(word[i]) != lowercase[i]) return false;
  return true;
}

// `a` is `b` in any case of ASCII letters: a choice typed as its title or value, in any case.
constexpr bool equals_any_case(std::string_view a, std::string_view b) noexcept {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

// ---- email: local-part "@" domain, both dot-separated atoms --------------------------------

constexpr bool is_atom_char(char c) noexcept { return has_class(c, email_atom); }

// atext *("." atext): no dot first, last or twice in a row.
constexpr bool is_dot_atom(std::string_view s) noexcept {
  if (s.empty() || s.front() == '.' || s.back() == '.') return false;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '.') {
      if (s[i + 1] == '.') return false;
    } else if (!is_atom_char(s[i])) {
      return false;
    }
  }
  return true;
}

// A domain of at least two labels, each of letters, digits and inner hyphens.
constexpr bool is_host_name(std::string_view s) noexcept {
  std::size_t labels = 0;
  const char* p = s.data();
  const char* const end = p + s.size();
  for (;;) {
    const std::size_t n = class_run(p, end, host_label);
    if (n == 0 || n > 63 || p[0] == '-' || p[n - 1] == '-') return false;
    ++labels;
    p += n;
    if (p == end) break;
    if (*p != '.') return false;
    ++p;
  }
  return labels >= 2;
}

constexpr bool is_email(std::string_view s) noexcept {
  // The first "@" (one search, not a byte at a time from the end): with two, one side holds an
  // "@" and fails, whichever is taken.
  const std::size_t at = s.find('@');
  if (at == std::string_view::npos || s.size() > 254) return false;
  const std::string_view local = s.substr(0, at), domain = s.substr(at + 1);
  return local.size() <= 64 && is_dot_atom(local) && is_host_name(domain);
}

// ---- uri: RFC 3986 absolute URI (scheme ":" hier-part [ "?" query ] [ "#" fragment ]) -------

// Every character is of the class `part` (uri_host, uri_userinfo, uri_path, uri_query) or a
// %XX escape.
constexpr bool is_uri_part(std::string_view s, char_class part) noexcept {
  const char* p = s.data();
  const char* const end = p + s.size();
  while ((p += class_run(p, end, part)) != end) {
    if (*p != '%' || end - p < 3 || !is_hex(p[1]) || !is_hex(p[2])) return false;
    p += 3;
  }
  return true;
}

constexpr bool is_ipv6_literal(std::string_view s) noexcept {  // the inside of [...]
  if (s.size() < 2) return false;
  if (s.front() == 'v' || s.front() == 'V') {  // IPvFuture: "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
    const std::size_t dot = s.find('.');
    if (dot == std::string_view::npos || dot < 2 || dot + 1 == s.size()) return false;
    for (char c : s.substr(1, dot - 1))
      if (!is_hex(c)) return false;
    for (char c : s.substr(dot + 1))
      if (!has_class(c, uri_userinfo)) return false;
    return true;
  }
  int groups = 0;
  bool compressed = false;
  for (std::size_t i = 0; i < s.size();) {
    if (s.substr(i, 2) == "::") {
      if (compressed) return false;
      compressed = true;
      i += 2;
      continue;
    }
    std::size_t n = 0;
    while (i + n < s.size() && is_hex(s[i + n])) ++n;
    if (i + n < s.size() && s[i + n] == '.') {  // a trailing IPv4 address counts as two groups
      std::string_view v4 = s.substr(i);
      int parts = 0;
      while (!v4.empty()) {
        std::size_t k = 0;
        int value = 0;
        while (k < v4.size() && is_digit(v4[k]) && k < 3) value = value * 10 + (v4[k++] - '0');
        if (k == 0 || value > 255 || (k > 1 && v4[0] == '0')) return false;
        ++parts;
        v4.remove_prefix(k);
        if (!v4.empty()) {
          if (v4.front() != '.' || parts == 4) return false;
          v4.remove_prefix(1);
          if (v4.empty()) return false;
        }
      }
      if (parts != 4) return false;
      groups += 2;
      i = s.size();
      break;
    }
    if (n == 0 || n > 4) return false;
    ++groups;
    i += n;
    if (i < s.size()) {
      if (s[i] != ':') return false;
      if (s.substr(i, 2) != "::") {
        ++i;
        if (i == s.size()) return false;
      }
    }
  }
  return compressed ? groups <= 7 : groups == 8;
}

constexpr bool is_uri(std::string_view s) noexcept {
  const std::size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon == 0 || !is_alpha(s[0])) return false;
  for (char c : s.substr(0, colon))
    if (!has_class(c, uri_scheme)) return false;
  std::string_view rest = s.substr(colon + 1);
  std::string_view fragment, query;
  if (const std::size_t hash = rest.find('#'); hash != std::string_view::npos) {
    fragment = rest.substr(hash + 1);
    rest = rest.substr(0, hash);
    if (!is_uri_part(fragment, uri_query)) return false;
  }
  if (const std::size_t q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
    if (!is_uri_part(query, uri_query)) return false;
  }
  std::string_view path = rest;
  if (rest.starts_with("//")) {  // authority
    rest.remove_prefix(2);
    const std::size_t slash = rest.find('/');
    std::string_view authority = rest.substr(0, slash);
    path = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash);
    // Most authorities are a host name alone, told in one run of its characters; the rest
    // (userinfo, an IP literal, a port, an escape) are taken apart below.
    if (class_run(authority.data(), authority.data() + authority.size(), uri_host) == authority.size())
      return is_uri_part(path, uri_path);
    if (const std::size_t at = authority.rfind('@'); at != std::string_view::npos) {
      if (!is_uri_part(authority.substr(0, at), uri_userinfo)) return false;
      authority.remove_prefix(at + 1);
    }
    std::string_view host = authority;
    if (authority.starts_with('[')) {
      const std::size_t close = authority.find(']');
      if (close == std::string_view::npos || !is_ipv6_literal(authority.substr(1, close - 1))) return false;
      host = {};
      authority.remove_prefix(close + 1);
      if (!authority.empty() && authority.front() != ':') return false;
    }
    if (const std::size_t port = authority.rfind(':'); port != std::string_view::npos) {
      for (char c : authority.substr(port + 1))
        if (!is_digit(c)) return false;
      if (!host.empty()) host = authority.substr(0, port);
    }
    if (!host.empty() && !is_uri_part(host, uri_host)) return false;
  } else if (path.starts_with("//")) {
    return false;
  }
  return is_uri_part(path, uri_path);
}

// ---- date and date-time: RFC 3339 ------------------------------------------------------

// The number two ASCII digits at `at` (both within `s`) write, or -1 when either is not a digit.
constexpr int two_digits(std::string_view s, std::size_t at) noexcept {
  const int tens = s[at] - '0', units = s[at + 1] - '0';
  return tens >= 0 && tens <= 9 && units >= 0 && units <= 9 ? tens * 10 + units : -1;
}

constexpr int days_in_month(int year, int month) noexcept {
  constexpr int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  return month == 2 && leap ? 29 : days[month - 1];
}

// full-date: YYYY-MM-DD, a real calendar date (2023-02-29 is not one; 2024-02-29 is).
constexpr std::optional<std::chrono::year_month_day> parse_date(std::string_view s) noexcept {
  if (s.size() != 10 || s[4] != '-' || s[7] != '-') return std::nullopt;
  const int century = two_digits(s, 0), year = two_digits(s, 2), m = two_digits(s, 5), d = two_digits(s, 8);
  if (century < 0 || year < 0 || m < 1 || m > 12 || d < 1) return std::nullopt;  // -1: not digits
  const int y = century * 100 + year;
  if (d > days_in_month(y, m)) return std::nullopt;
  return std::chrono::year_month_day{std::chrono::year{y}, std::chrono::month{static_cast<unsigned>(m)},
                                     std::chrono::day{static_cast<unsigned>(d)}};
}

// A date-time as read from RFC 3339 text: the instant, to the second, and whether the text
// had a non-zero fraction of a second.
struct date_time {
  std::chrono::sys_seconds instant;
  bool has_fraction = false;
};

// date-time: full-date ("T" | "t" | " ") HH:MM:SS[.frac] ("Z" | "z" | +HH:MM | -HH:MM). A leap
// second (:60) is accepted only where it can occur, at 23:59:60 UTC; it reads as the next second.
constexpr std::optional<date_time> parse_date_time(std::string_view s) noexcept {
  if (s.size() < 20) return std::nullopt;
  const auto date = parse_date(s.substr(0, 10));
  if (!date || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || s[13] != ':' || s[16] != ':') return std::nullopt;
  const int hh = two_digits(s, 11), mm = two_digits(s, 14), ss = two_digits(s, 17);
  if (hh < 0 || mm < 0 || ss < 0 || hh > 23 || mm > 59 || ss > 60) return std::nullopt;
  std::size_t i = 19;
  bool fraction = false;
  if (s[i] == '.') {
    const std::size_t start = ++i;
    for (; i < s.size() && is_digit(s[i]); ++i) fraction = fraction || s[i] != '0';
    if (i == start) return std::nullopt;
  }
  int offset_minutes = 0;
  if (i < s.size() && (s[i] == 'Z' || s[i] == 'z')) {
    ++i;
  } else if (i < s.size() && (s[i] == '+' || s[i] == '-')) {
    if (s.size() - i < 6) return std::nullopt;
    const int oh = two_digits(s, i + 1), om = two_digits(s, i + 4);
    if (oh < 0 || om < 0 || s[i + 3] != ':' || oh > 23 || om > 59) return std::nullopt;
    offset_minutes = (oh * 60 + om) * (s[i] == '-' ? -1 : 1);
    i += 6;
  } else {
    return std::nullopt;
  }
  if (i != s.size()) return std::nullopt;
  using namespace std::chrono;
  const sys_seconds local = sys_days{*date} + hours{hh} + minutes{mm} + seconds{ss};
  const sys_seconds utc = local - minutes{offset_minutes};
  if (ss == 60) {
    const auto time_of_day = utc - floor<days>(utc);  // :60 shifted a second past 23:59:59
    if (time_of_day != seconds{0}) return std::nullopt;
  }
  return date_time{utc, fraction};
}

// ---- writing them back (to_content) --------------------------------------------------------

inline void append_padded(std::string& out, long long value, int width) {
  std::string digits = std::to_string(value < 0 ? -value : value);
  if (value < 0) out.push_back('-');
  if (static_cast<int>(digits.size()) < width) out.append(static_cast<std::size_t>(width) - digits.size(), '0');
  out += digits;
}

inline std::string format_date(const std::chrono::year_month_day& d) {
  std::string out;
  append_padded(out, static_cast<int>(d.year()), 4);
  out.push_back('-');
  append_padded(out, static_cast<unsigned>(d.month()), 2);
  out.push_back('-');
  append_padded(out, static_cast<unsigned>(d.day()), 2);
  return out;
}

inline std::string format_date_time(std::chrono::sys_seconds t) {
  using namespace std::chrono;
  const sys_days day = floor<days>(t);
  const hh_mm_ss<seconds> time{t - day};
  std::string out = format_date(year_month_day{day});
  out.push_back('T');
  append_padded(out, time.hours().count(), 2);
  out.push_back(':');
  append_padded(out, time.minutes().count(), 2);
  out.push_back(':');
  append_padded(out, time.seconds().count(), 2);
  out.push_back('Z');
  return out;
}

}  // namespace elicit::detail
