// The baseline: what a server author writes without elicit. The requestedSchema built with
// nlohmann::json and dumped, and the answer checked field by field with nlohmann::json, with
// the same rules the schema states (types, required, bounds, lengths in code points, enum
// membership, email / uri / date / date-time formats) and one message per broken rule.
// Written plainly, as a careful user would: no regular expressions, no exceptions for
// control flow, no tricks.
#pragma once

#include <nlohmann/json.hpp>

#include <charconv>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace hand {

// ---- Schemas -------------------------------------------------------------------------------

inline nlohmann::json delivery_address_schema() {
  nlohmann::json schema;
  schema["type"] = "object";
  nlohmann::json& p = schema["properties"];
  p["street"] = {{"type", "string"}, {"title", "Street address"}, {"maxLength", 120}};
  p["city"] = {{"type", "string"}, {"title", "City"}, {"maxLength", 60}};
  p["postcode"] = {{"type", "string"},
                   {"title", "Postcode"},
                   {"description", "UK format, e.g. SW1A 1AA"},
                   {"minLength", 5},
                   {"maxLength", 8}};
  p["country_code"] = {{"type", "string"},
                       {"title", "Country"},
                       {"oneOf",
                        {{{"const", "GB"}, {"title", "United Kingdom"}},
                         {{"const", "IE"}, {"title", "Ireland"}},
                         {{"const", "FR"}, {"title", "France"}},
                         {{"const", "DE"}, {"title", "Germany"}},
                         {{"const", "NL"}, {"title", "Netherlands"}}}}};
  schema["required"] = {"street", "city", "postcode", "country_code"};
  return schema;
}

inline nlohmann::json shipment_options_schema() {
  nlohmann::json schema;
  schema["type"] = "object";
  nlohmann::json& p = schema["properties"];
  p["country_code"] = {{"type", "string"},
                       {"title", "Destination country"},
                       {"oneOf",
                        {{{"const", "GB"}, {"title", "United Kingdom"}},
                         {{"const", "IE"}, {"title", "Ireland"}},
                         {{"const", "FR"}, {"title", "France"}},
                         {{"const", "DE"}, {"title", "Germany"}},
                         {{"const", "NL"}, {"title", "Netherlands"}}}}};
  p["insured_value_gbp"] = {{"type", "integer"},
                            {"title", "Insured value (GBP)"},
                            {"description", "Leave blank for the default cover of £50."},
                            {"minimum", 0},
                            {"maximum", 5000}};
  p["signature_required"] = {{"type", "boolean"}, {"title", "Signature required"}, {"default", false}};
  schema["required"] = {"country_code"};
  return schema;
}

inline nlohmann::json order_schema() {
  nlohmann::json schema;
  schema["type"] = "object";
  nlohmann::json& p = schema["properties"];
  p["newsletter"] = {{"type", "boolean"}, {"title", "Newsletter"}, {"default", true}};
  p["quantity"] = {{"type", "integer"}, {"title", "Quantity"}, {"minimum", 1}, {"maximum", 99}};
  p["account_id"] = {{"type", "integer"}, {"title", "Account number"}, {"minimum", 1}};
  p["weight_kg"] = {{"type", "number"}, {"title", "Weight (kg)"}, {"minimum", 0.1}, {"maximum", 1000}};
  p["name"] = {{"type", "string"},
               {"title", "Name"},
               {"description", "As it should appear on the label"},
               {"minLength", 1},
               {"maxLength", 80}};
  p["email"] = {{"type", "string"}, {"title", "E-mail"}, {"format", "email"}};
  p["website"] = {{"type", "string"}, {"title", "Website"}, {"format", "uri"}};
  p["ship_on"] = {{"type", "string"}, {"title", "Ship on"}, {"format", "date"}};
  p["deliver_after"] = {{"type", "string"}, {"title", "Deliver after"}, {"format", "date-time"}};
  p["speed"] = {
      {"type", "string"}, {"title", "Speed"}, {"enum", {"standard", "express", "overnight"}}, {"default", "standard"}};
  p["ribbon"] = {{"type", "string"},
                 {"title", "Ribbon"},
                 {"oneOf",
                  {{{"const", "#FF0000"}, {"title", "Red"}},
                   {{"const", "#00FF00"}, {"title", "Green"}},
                   {{"const", "#0000FF"}, {"title", "Blue"}}}}};
  p["extras"] = {{"type", "array"},
                 {"title", "Extras"},
                 {"maxItems", 3},
                 {"items", {{"type", "string"}, {"enum", {"gift_wrap", "fragile", "eco_box", "insurance"}}}}};
  schema["required"] = {"quantity", "account_id",    "weight_kg", "name",  "email",
                        "ship_on",  "deliver_after", "ribbon",    "extras"};
  return schema;
}

// ---- Answers -------------------------------------------------------------------------------

enum class action { accept, decline, cancel };

template <class T>
struct result {
  action what = action::cancel;
  std::optional<T> value;           // set when accepted and valid
  std::vector<std::string> errors;  // one message per broken rule
};

// Code points of UTF-8 text (the parser, nlohmann's or simdjson's, has already rejected invalid UTF-8).
inline std::size_t utf8_length(std::string_view s) {
  std::size_t n = 0;
  for (char c : s)
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  return n;
}

// local@domain.tld: one @, no spaces, a dot in the domain, no empty labels.
inline bool is_email(std::string_view s) {
  const std::size_t at = s.find('@');
  if (at == std::string_view::npos || at == 0 || s.find('@', at + 1) != std::string_view::npos) return false;
  if (s.find(' ') != std::string_view::npos || s.size() > 254) return false;
  const std::string_view domain = s.substr(at + 1);
  const std::size_t dot = domain.find('.');
  return dot != std::string_view::npos && dot != 0 && domain.back() != '.' &&
         domain.find("..") == std::string_view::npos;
}

// scheme:rest, the scheme a letter then letters, digits, + - .
inline bool is_uri(std::string_view s) {
  const std::size_t colon = s.find(':');
  if (colon == std::string_view::npos || colon == 0 || colon + 1 == s.size()) return false;
  for (std::size_t i = 0; i < colon; ++i) {
    const char c = s[i];
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
    if (!letter && (i == 0 || !((c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.'))) return false;
  }
  for (char c : s)
    if (static_cast<unsigned char>(c) <= ' ') return false;
  return true;
}

inline bool read_int(std::string_view s, std::size_t at, std::size_t n, int& out) {
  if (at + n > s.size()) return false;
  for (std::size_t i = at; i < at + n; ++i)
    if (s[i] < '0' || s[i] > '9') return false;
  std::from_chars(s.data() + at, s.data() + at + n, out);
  return true;
}

// YYYY-MM-DD, a real calendar date.
inline std::optional<std::chrono::year_month_day> parse_date(std::string_view s) {
  int y = 0, m = 0, d = 0;
  if (s.size() != 10 || s[4] != '-' || s[7] != '-' || !read_int(s, 0, 4, y) || !read_int(s, 5, 2, m) ||
      !read_int(s, 8, 2, d))
    return std::nullopt;
  const std::chrono::year_month_day date{std::chrono::year{y}, std::chrono::month{static_cast<unsigned>(m)},
                                         std::chrono::day{static_cast<unsigned>(d)}};
  if (!date.ok()) return std::nullopt;
  return date;
}

// YYYY-MM-DDTHH:MM:SS followed by Z or +HH:MM / -HH:MM, whole seconds.
inline std::optional<std::chrono::sys_seconds> parse_date_time(std::string_view s) {
  if (s.size() < 20) return std::nullopt;
  const auto date = parse_date(s.substr(0, 10));
  int hh = 0, mm = 0, ss = 0;
  if (!date || (s[10] != 'T' && s[10] != 't') || s[13] != ':' || s[16] != ':' || !read_int(s, 11, 2, hh) ||
      !read_int(s, 14, 2, mm) || !read_int(s, 17, 2, ss) || hh > 23 || mm > 59 || ss > 59)
    return std::nullopt;
  int offset = 0;
  const std::string_view zone = s.substr(19);
  if (zone != "Z" && zone != "z") {
    int oh = 0, om = 0;
    if (zone.size() != 6 || (zone[0] != '+' && zone[0] != '-') || zone[3] != ':' || !read_int(zone, 1, 2, oh) ||
        !read_int(zone, 4, 2, om) || oh > 23 || om > 59)
      return std::nullopt;
    offset = (oh * 60 + om) * (zone[0] == '-' ? -1 : 1);
  }
  using namespace std::chrono;
  return sys_days{*date} + hours{hh} + minutes{mm} + seconds{ss} - minutes{offset};
}

// The action and the content of an ElicitResult; false when there is no content to read.
template <class T>
bool read_action(const nlohmann::json& answer, result<T>& r, const nlohmann::json*& content) {
  static const nlohmann::json empty = nlohmann::json::object();
  if (!answer.is_object()) {
    r.errors.push_back("The result must be a JSON object.");
    return false;
  }
  const auto a = answer.find("action");
  if (a == answer.end() || !a->is_string()) {
    r.errors.push_back("The result has no action.");
    return false;
  }
  const std::string& name = a->get_ref<const std::string&>();
  if (name == "decline") r.what = action::decline;
  else if (name == "cancel") r.what = action::cancel;
  else if (name == "accept") r.what = action::accept;
  else r.errors.push_back("Unknown action \"" + name + "\".");
  if (r.what != action::accept || !r.errors.empty()) return false;
  const auto c = answer.find("content");
  content = c == answer.end() ? &empty : &*c;
  if (!content->is_object()) {
    r.errors.push_back("The content must be a JSON object.");
    return false;
  }
  return true;
}

template <class T, class Decode>
result<T> decode_text(std::string_view text, Decode decode) {
  nlohmann::json answer;
  try {
    answer = nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    result<T> r;
    r.errors.push_back(std::string("The answer is not valid JSON: ") + e.what());
    return r;
  }
  return decode(answer);
}

// -- shipping::Contact: name (1 to 80 characters), email, optional date --

struct Contact {
  std::string name;
  std::string email;
  std::optional<std::chrono::year_month_day> not_before;
  bool operator==(const Contact&) const = default;  // bench_runtime compares the two baselines' values
};

inline result<Contact> decode_contact(const nlohmann::json& answer) {
  result<Contact> r;
  const nlohmann::json* content = nullptr;
  if (!read_action(answer, r, content)) return r;
  Contact c;

  if (const auto it = content->find("name"); it == content->end()) {
    r.errors.push_back("Name is required.");
  } else if (!it->is_string()) {
    r.errors.push_back("Name must be text.");
  } else {
    const std::string& s = it->get_ref<const std::string&>();
    const std::size_t n = utf8_length(s);
    if (n < 1 || n > 80) r.errors.push_back("Name must be 1 to 80 characters long; got " + std::to_string(n) + ".");
    else c.name = s;
  }

  if (const auto it = content->find("email"); it == content->end()) {
    r.errors.push_back("E-mail is required.");
  } else if (!it->is_string()) {
    r.errors.push_back("E-mail must be text.");
  } else if (!is_email(it->get_ref<const std::string&>())) {
    r.errors.push_back("E-mail must be an e-mail address such as name@example.com.");
  } else {
    c.email = it->get_ref<const std::string&>();
  }

  if (const auto it = content->find("not_before"); it != content->end()) {
    if (!it->is_string()) {
      r.errors.push_back("Not before must be a date (YYYY-MM-DD).");
    } else if (const auto date = parse_date(it->get_ref<const std::string&>()); !date) {
      r.errors.push_back("Not before must be a calendar date as YYYY-MM-DD; got \"" +
                         it->get_ref<const std::string&>() + "\".");
    } else {
      c.not_before = *date;
    }
  }

  if (r.errors.empty()) r.value = std::move(c);
  return r;
}

// -- shipping::ShipmentOptions: destination country (one of five), optional insured value
//    0 to 5000, signature required (default false) --

enum class Country { GB, IE, FR, DE, NL };

struct ShipmentOptions {
  Country country_code{};
  std::optional<int> insured_value_gbp;
  bool signature_required = false;
  bool operator==(const ShipmentOptions&) const = default;
};

inline result<ShipmentOptions> decode_shipment_options(const nlohmann::json& answer) {
  static constexpr std::pair<std::string_view, Country> countries[] = {
      {"GB", Country::GB}, {"IE", Country::IE}, {"FR", Country::FR}, {"DE", Country::DE}, {"NL", Country::NL}};
  result<ShipmentOptions> r;
  const nlohmann::json* content = nullptr;
  if (!read_action(answer, r, content)) return r;
  ShipmentOptions o;

  if (const auto it = content->find("country_code"); it == content->end()) {
    r.errors.push_back("Destination country is required.");
  } else if (!it->is_string()) {
    r.errors.push_back("Destination country must be one of \"GB\", \"IE\", \"FR\", \"DE\", \"NL\".");
  } else {
    bool found = false;
    for (const auto& [wire, value] : countries) {
      if (wire == it->get_ref<const std::string&>()) {
        o.country_code = value;
        found = true;
      }
    }
    if (!found)
      r.errors.push_back("Destination country must be one of \"GB\", \"IE\", \"FR\", \"DE\", \"NL\"; got \"" +
                         it->get_ref<const std::string&>() + "\".");
  }

  if (const auto it = content->find("insured_value_gbp"); it != content->end()) {
    if (!it->is_number_integer()) {
      r.errors.push_back("Insured value (GBP) must be a whole number.");
    } else if (const std::int64_t v = it->get<std::int64_t>(); v < 0 || v > 5000) {
      r.errors.push_back("Insured value (GBP) must be between 0 and 5000; got " + std::to_string(v) + ".");
    } else {
      o.insured_value_gbp = static_cast<int>(v);
    }
  }

  if (const auto it = content->find("signature_required"); it != content->end()) {
    if (!it->is_boolean()) r.errors.push_back("Signature required must be true or false.");
    else o.signature_required = it->get<bool>();
  }

  if (r.errors.empty()) r.value = std::move(o);
  return r;
}

// -- bench::Order: twelve fields, one of every kind --

enum class Speed { standard, express, overnight };
enum class Ribbon { red, green, blue };
enum class Extra { gift_wrap, fragile, eco_box, insurance };

struct Order {
  bool newsletter = true;
  int quantity = 0;
  std::int64_t account_id = 0;
  double weight_kg = 0;
  std::string name;
  std::string email;
  std::optional<std::string> website;
  std::chrono::year_month_day ship_on;
  std::chrono::sys_seconds deliver_after;
  Speed speed = Speed::standard;
  Ribbon ribbon{};
  std::vector<Extra> extras;
  bool operator==(const Order&) const = default;
};

inline result<Order> decode_order(const nlohmann::json& answer) {
  static constexpr std::pair<std::string_view, Speed> speeds[] = {
      {"standard", Speed::standard}, {"express", Speed::express}, {"overnight", Speed::overnight}};
  static constexpr std::pair<std::string_view, Ribbon> ribbons[] = {
      {"#FF0000", Ribbon::red}, {"#00FF00", Ribbon::green}, {"#0000FF", Ribbon::blue}};
  static constexpr std::pair<std::string_view, Extra> extras[] = {{"gift_wrap", Extra::gift_wrap},
                                                                  {"fragile", Extra::fragile},
                                                                  {"eco_box", Extra::eco_box},
                                                                  {"insurance", Extra::insurance}};
  result<Order> r;
  const nlohmann::json* content = nullptr;
  if (!read_action(answer, r, content)) return r;
  Order o;
  const auto end = content->end();

  if (const auto it = content->find("newsletter"); it != end) {
    if (!it->is_boolean()) r.errors.push_back("Newsletter must be true or false.");
    else o.newsletter = it->get<bool>();
  }

  if (const auto it = content->find("quantity"); it == end) {
    r.errors.push_back("Quantity is required.");
  } else if (!it->is_number_integer()) {
    r.errors.push_back("Quantity must be a whole number.");
  } else if (const std::int64_t v = it->get<std::int64_t>(); v < 1 || v > 99) {
    r.errors.push_back("Quantity must be between 1 and 99; got " + std::to_string(v) + ".");
  } else {
    o.quantity = static_cast<int>(v);
  }

  if (const auto it = content->find("account_id"); it == end) {
    r.errors.push_back("Account number is required.");
  } else if (!it->is_number_integer()) {
    r.errors.push_back("Account number must be a whole number.");
  } else if (const std::int64_t v = it->get<std::int64_t>(); v < 1) {
    r.errors.push_back("Account number must be at least 1; got " + std::to_string(v) + ".");
  } else {
    o.account_id = v;
  }

  if (const auto it = content->find("weight_kg"); it == end) {
    r.errors.push_back("Weight (kg) is required.");
  } else if (!it->is_number()) {
    r.errors.push_back("Weight (kg) must be a number.");
  } else if (const double v = it->get<double>(); !(v >= 0.1 && v <= 1000)) {
    r.errors.push_back("Weight (kg) must be between 0.1 and 1000; got " + it->dump() + ".");
  } else {
    o.weight_kg = v;
  }

  if (const auto it = content->find("name"); it == end) {
    r.errors.push_back("Name is required.");
  } else if (!it->is_string()) {
    r.errors.push_back("Name must be text.");
  } else {
    const std::string& s = it->get_ref<const std::string&>();
    const std::size_t n = utf8_length(s);
    if (n < 1 || n > 80) r.errors.push_back("Name must be 1 to 80 characters long; got " + std::to_string(n) + ".");
    else o.name = s;
  }

  if (const auto it = content->find("email"); it == end) {
    r.errors.push_back("E-mail is required.");
  } else if (!it->is_string()) {
    r.errors.push_back("E-mail must be text.");
  } else if (!is_email(it->get_ref<const std::string&>())) {
    r.errors.push_back("E-mail must be an e-mail address such as name@example.com.");
  } else {
    o.email = it->get_ref<const std::string&>();
  }

  if (const auto it = content->find("website"); it != end) {
    if (!it->is_string()) r.errors.push_back("Website must be text.");
    else if (!is_uri(it->get_ref<const std::string&>()))
      r.errors.push_back("Website must be an absolute URI such as https://example.com/page.");
    else o.website = it->get_ref<const std::string&>();
  }

  if (const auto it = content->find("ship_on"); it == end) {
    r.errors.push_back("Ship on is required.");
  } else if (!it->is_string()) {
    r.errors.push_back("Ship on must be a date (YYYY-MM-DD).");
  } else if (const auto date = parse_date(it->get_ref<const std::string&>()); !date) {
    r.errors.push_back("Ship on must be a calendar date as YYYY-MM-DD; got \"" + it->get_ref<const std::string&>() +
                       "\".");
  } else {
    o.ship_on = *date;
  }

  if (const auto it = content->find("deliver_after"); it == end) {
    r.errors.push_back("Deliver after is required.");
  } else if (!it->is_string()) {
    r.errors.push_back("Deliver after must be a date and time.");
  } else if (const auto t = parse_date_time(it->get_ref<const std::string&>()); !t) {
    r.errors.push_back("Deliver after must be a date and time as in RFC 3339; got \"" +
                       it->get_ref<const std::string&>() + "\".");
  } else {
    o.deliver_after = *t;
  }

  if (const auto it = content->find("speed"); it != end) {
    bool found = false;
    if (it->is_string()) {
      for (const auto& [wire, value] : speeds) {
        if (wire == it->get_ref<const std::string&>()) {
          o.speed = value;
          found = true;
        }
      }
    }
    if (!found)
      r.errors.push_back("Speed must be one of \"standard\", \"express\", \"overnight\"; got " + it->dump() + ".");
  }

  if (const auto it = content->find("ribbon"); it == end) {
    r.errors.push_back("Ribbon is required.");
  } else {
    bool found = false;
    if (it->is_string()) {
      for (const auto& [wire, value] : ribbons) {
        if (wire == it->get_ref<const std::string&>()) {
          o.ribbon = value;
          found = true;
        }
      }
    }
    if (!found)
      r.errors.push_back("Ribbon must be one of \"#FF0000\", \"#00FF00\", \"#0000FF\"; got " + it->dump() + ".");
  }

  if (const auto it = content->find("extras"); it == end) {
    r.errors.push_back("Extras is required.");
  } else if (!it->is_array()) {
    r.errors.push_back("Extras must be a list of choices.");
  } else {
    if (it->size() > 3) r.errors.push_back("Pick at most 3 for Extras; got " + std::to_string(it->size()) + ".");
    for (std::size_t i = 0; i < it->size(); ++i) {
      const nlohmann::json& e = (*it)[i];
      bool found = false;
      if (e.is_string()) {
        for (const auto& [wire, value] : extras) {
          if (wire == e.get_ref<const std::string&>()) {
            o.extras.push_back(value);
            found = true;
          }
        }
      }
      if (!found)
        r.errors.push_back("Extras item " + std::to_string(i) +
                           " must be one of \"gift_wrap\", \"fragile\", \"eco_box\", \"insurance\"; got " + e.dump() +
                           ".");
    }
  }

  if (r.errors.empty()) r.value = std::move(o);
  return r;
}

}  // namespace hand
