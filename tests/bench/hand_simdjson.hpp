// The second baseline: the same answers decoded by hand with simdjson's On-Demand API
// (Debian's libsimdjson-dev 3.0.1), as a careful server author would write it for speed. The
// same rules as hand_written.hpp's decoders (type, required, bounds, length in code points,
// enum membership, e-mail / URI / date / date-time formats, items), one message per broken
// rule, the same plain structs filled, and the same format checks (hand_written.hpp's
// functions). What differs is only how the text is read:
//   - the caller owns the parser and the padded input and reuses both (a server reads the
//     request into a padded buffer and keeps one parser per thread);
//   - each object is read in one pass, field by field in the order of the text, so field order
//     does not matter, and nothing is built but the result;
//   - no exceptions: every simdjson call returns an error code.
// On-Demand validates what it reads: the values of the fields it reads, the structure of the
// whole text (stage 1) and the end of the document. Values it does not read (an unknown key's,
// a value of the wrong type) are stepped over by their structure, not checked atom by atom; so
// `{"x": tru}` is not refused as invalid JSON where nlohmann, elicit and JSON.parse refuse it.
// The bench answers hold no such value; if anything this makes the baseline faster.
#pragma once

#include "hand_written.hpp"

#include <simdjson.h>

#include <charconv>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace hand_simd {

namespace od = simdjson::ondemand;
using hand::result;

// ---- Reading one value ---------------------------------------------------------------------

// What reading a value of an expected type found.
enum class got { value, other_type, malformed };

inline got read_type(od::value& v, od::json_type& t) { return v.type().get(t) ? got::malformed : got::value; }

inline got read_text(od::value& v, std::string_view& out) {
  od::json_type t;
  if (read_type(v, t) != got::value) return got::malformed;
  if (t != od::json_type::string) return got::other_type;
  return v.get_string().get(out) ? got::malformed : got::value;
}

inline got read_bool(od::value& v, bool& out) {
  od::json_type t;
  if (read_type(v, t) != got::value) return got::malformed;
  if (t != od::json_type::boolean) return got::other_type;
  return v.get_bool().get(out) ? got::malformed : got::value;
}

// A whole number as nlohmann's is_number_integer() sees one: written without fraction or
// exponent and held by an int64. Other numbers are numbers of the wrong kind, unless they are
// no numbers at all.
inline got read_int(od::value& v, std::int64_t& out) {
  od::json_type t;
  if (read_type(v, t) != got::value) return got::malformed;
  if (t != od::json_type::number) return got::other_type;
  const auto e = v.get_int64().get(out);
  if (!e) return got::value;
  if (e == simdjson::NUMBER_ERROR) return got::malformed;
  double d;  // 2.5, 1e2 or past int64: the wrong kind of number, if it is one
  return v.get_double().get(d) ? got::malformed : got::other_type;
}

inline got read_double(od::value& v, double& out) {
  od::json_type t;
  if (read_type(v, t) != got::value) return got::malformed;
  if (t != od::json_type::number) return got::other_type;
  return v.get_double().get(out) ? got::malformed : got::value;
}

// The JSON text of a value not read, for "got ..." in a message.
inline std::string raw_text(od::value& v) {
  std::string_view raw = v.raw_json_token();
  while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\n' || raw.back() == '\r' || raw.back() == '\t'))
    raw.remove_suffix(1);
  return std::string(raw);
}

inline std::string number_text(double v) {
  char buf[32];
  const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
  return std::string(buf, end);
}

template <class E, std::size_t N>
bool find_choice(const std::pair<std::string_view, E> (&choices)[N], std::string_view wire, E& out) {
  for (const auto& [w, value] : choices) {
    if (w == wire) {
      out = value;
      return true;
    }
  }
  return false;
}

// ---- The ElicitResult around the content ---------------------------------------------------

template <class T>
result<T> not_json(result<T>& r, simdjson::error_code e) {
  r.what = hand::action::cancel;
  r.value.reset();
  r.errors.clear();
  r.errors.push_back(std::string("The answer is not valid JSON: ") + simdjson::error_message(e));
  return std::move(r);
}

// Reads {"action": ..., "content": {...}} in one pass, in any order. Reader is a form's
// content reader: field(key, value, errors) reads one property (false: the JSON is malformed),
// finish(result) adds what is missing and sets the value when nothing is broken. The content
// is read only for "accept": not at all when the action comes first and is another one, and its
// messages dropped when the action comes after it. A repeated "action" counts the last time
// (as nlohmann's parse keeps the last), a repeated "content" the first.
template <class Reader>
result<typename Reader::value_type> decode(od::parser& parser, simdjson::padded_string_view text) {
  result<typename Reader::value_type> r;
  od::document doc;
  if (const auto e = parser.iterate(text).get(doc)) return not_json(r, e);
  od::json_type t;
  if (const auto e = doc.type().get(t)) return not_json(r, e);
  if (t != od::json_type::object) {
    r.errors.push_back("The result must be a JSON object.");
    return r;
  }
  od::object top;
  if (const auto e = doc.get_object().get(top)) return not_json(r, e);

  Reader reader;
  std::string_view action;
  bool has_action = false, action_is_text = false, has_content = false, content_is_object = true;
  for (auto maybe_field : top) {
    od::field f;
    if (const auto e = std::move(maybe_field).get(f)) return not_json(r, e);
    std::string_view key;
    if (const auto e = f.unescaped_key().get(key)) return not_json(r, e);
    od::value v = f.value();
    if (key == "action") {
      has_action = true;
      const got g = read_text(v, action);
      if (g == got::malformed) return not_json(r, simdjson::TAPE_ERROR);
      action_is_text = g == got::value;
    } else if (key == "content" && !has_content) {
      has_content = true;
      if (has_action && !(action_is_text && action == "accept")) continue;  // never read
      if (const auto e = v.type().get(t)) return not_json(r, e);
      if (t != od::json_type::object) {
        content_is_object = false;
        continue;
      }
      od::object content;
      if (const auto e = v.get_object().get(content)) return not_json(r, e);
      for (auto maybe_property : content) {
        od::field p;
        if (const auto e = std::move(maybe_property).get(p)) return not_json(r, e);
        std::string_view name;
        if (const auto e = p.unescaped_key().get(name)) return not_json(r, e);
        if (!reader.field(name, p.value(), r.errors)) return not_json(r, simdjson::TAPE_ERROR);
      }
    }
  }
  // Read to the end: nothing may follow the object.
  if (const auto e = doc.current_location().error(); e != simdjson::OUT_OF_BOUNDS)
    return not_json(r, e ? e : simdjson::TRAILING_CONTENT);

  if (!has_action || !action_is_text) {
    r.errors.clear();
    r.errors.push_back("The result has no action.");
    return r;
  }
  if (action == "accept") {
    r.what = hand::action::accept;
  } else {
    r.errors.clear();
    if (action == "decline") r.what = hand::action::decline;
    else if (action == "cancel") r.what = hand::action::cancel;
    else r.errors.push_back("Unknown action \"" + std::string(action) + "\".");
    return r;
  }
  if (!content_is_object) {
    r.errors.push_back("The content must be a JSON object.");
    return r;
  }
  reader.finish(r);
  return r;
}

// ---- shipping::Contact: name (1 to 80 characters), email, optional date --------------------

struct contact_reader {
  using value_type = hand::Contact;
  hand::Contact c;
  bool has_name = false, has_email = false;

  bool field(std::string_view key, od::value v, std::vector<std::string>& errors) {
    std::string_view s;
    if (key == "name") {
      has_name = true;
      switch (read_text(v, s)) {
        case got::malformed: return false;
        case got::other_type: errors.push_back("Name must be text."); break;
        case got::value:
          if (const std::size_t n = hand::utf8_length(s); n < 1 || n > 80)
            errors.push_back("Name must be 1 to 80 characters long; got " + std::to_string(n) + ".");
          else c.name = s;
      }
    } else if (key == "email") {
      has_email = true;
      switch (read_text(v, s)) {
        case got::malformed: return false;
        case got::other_type: errors.push_back("E-mail must be text."); break;
        case got::value:
          if (!hand::is_email(s)) errors.push_back("E-mail must be an e-mail address such as name@example.com.");
          else c.email = s;
      }
    } else if (key == "not_before") {
      switch (read_text(v, s)) {
        case got::malformed: return false;
        case got::other_type: errors.push_back("Not before must be a date (YYYY-MM-DD)."); break;
        case got::value:
          if (const auto date = hand::parse_date(s); !date)
            errors.push_back("Not before must be a calendar date as YYYY-MM-DD; got \"" + std::string(s) + "\".");
          else c.not_before = *date;
      }
    }
    return true;
  }

  void finish(result<value_type>& r) {
    if (!has_name) r.errors.push_back("Name is required.");
    if (!has_email) r.errors.push_back("E-mail is required.");
    if (r.errors.empty()) r.value = std::move(c);
  }
};

inline result<hand::Contact> decode_contact(od::parser& parser, simdjson::padded_string_view text) {
  return decode<contact_reader>(parser, text);
}

// ---- shipping::ShipmentOptions: country (one of five), optional insured value 0 to 5000,
//      signature required (default false) ------------------------------------------------------

struct shipment_options_reader {
  using value_type = hand::ShipmentOptions;
  static constexpr std::pair<std::string_view, hand::Country> countries[] = {{"GB", hand::Country::GB},
                                                                             {"IE", hand::Country::IE},
                                                                             {"FR", hand::Country::FR},
                                                                             {"DE", hand::Country::DE},
                                                                             {"NL", hand::Country::NL}};
  hand::ShipmentOptions o;
  bool has_country = false;

  bool field(std::string_view key, od::value v, std::vector<std::string>& errors) {
    if (key == "country_code") {
      has_country = true;
      std::string_view s;
      switch (read_text(v, s)) {
        case got::malformed: return false;
        case got::other_type:
          errors.push_back("Destination country must be one of \"GB\", \"IE\", \"FR\", \"DE\", \"NL\".");
          break;
        case got::value:
          if (!find_choice(countries, s, o.country_code))
            errors.push_back("Destination country must be one of \"GB\", \"IE\", \"FR\", \"DE\", \"NL\"; got \"" +
                             std::string(s) + "\".");
      }
    } else if (key == "insured_value_gbp") {
      std::int64_t n;
      switch (read_int(v, n)) {
        case got::malformed: return false;
        case got::other_type: errors.push_back("Insured value (GBP) must be a whole number."); break;
        case got::value:
          if (n < 0 || n > 5000)
            errors.push_back("Insured value (GBP) must be between 0 and 5000; got " + std::to_string(n) + ".");
          else o.insured_value_gbp = static_cast<int>(n);
      }
    } else if (key == "signature_required") {
      switch (read_bool(v, o.signature_required)) {
        case got::malformed: return false;
        case got::other_type: errors.push_back("Signature required must be true or false."); break;
        case got::value: break;
      }
    }
    return true;
  }

  void finish(result<value_type>& r) {
    if (!has_country) r.errors.push_back("Destination country is required.");
    if (r.errors.empty()) r.value = std::move(o);
  }
};

inline result<hand::ShipmentOptions> decode_shipment_options(od::parser& parser, simdjson::padded_string_view text) {
  return decode<shipment_options_reader>(parser, text);
}

// ---- bench::Order: twelve fields, one of every kind ----------------------------------------

struct order_reader {
  using value_type = hand::Order;
  static constexpr std::pair<std::string_view, hand::Speed> speeds[] = {
      {"standard", hand::Speed::standard}, {"express", hand::Speed::express}, {"overnight", hand::Speed::overnight}};
  static constexpr std::pair<std::string_view, hand::Ribbon> ribbons[] = {
      {"#FF0000", hand::Ribbon::red}, {"#00FF00", hand::Ribbon::green}, {"#0000FF", hand::Ribbon::blue}};
  static constexpr std::pair<std::string_view, hand::Extra> extra_choices[] = {{"gift_wrap", hand::Extra::gift_wrap},
                                                                               {"fragile", hand::Extra::fragile},
                                                                               {"eco_box", hand::Extra::eco_box},
                                                                               {"insurance", hand::Extra::insurance}};
  // The required properties, one bit each, cleared as they are met.
  enum : unsigned {
    quantity = 1u << 0,
    account_id = 1u << 1,
    weight_kg = 1u << 2,
    name = 1u << 3,
    email = 1u << 4,
    ship_on = 1u << 5,
    deliver_after = 1u << 6,
    ribbon = 1u << 7,
    extras = 1u << 8,
  };
  hand::Order o;
  unsigned missing = quantity | account_id | weight_kg | name | email | ship_on | deliver_after | ribbon | extras;

  bool field(std::string_view key, od::value v, std::vector<std::string>& errors) {
    std::string_view s;
    std::int64_t n;
    if (key == "newsletter") {
      switch (read_bool(v, o.newsletter)) {
        case got::malformed: return false;
        case got::other_type: errors.push_back("Newsletter must be true or false."); break;
        case got::value: break;
      }
    } else if (key == "quantity") {
      missing &= ~quantity;
      switch (read_int(v, n)) {
        case got::malformed: return false;
        case got::other_type: errors.push_back("Quantity must be a whole number."); break;
        case got::value:
          if (n < 1 || n > 99) errors.push_back("Quantity must be between 1 and 99; got " + std::to_string(n) + ".");
          else o.quantity = static_cast<int>(n);
      }
    } else if (key == "account_id") {
      missing &= ~account_id;
      switch (read_int(v, n)) {
        case got::malformed: return false;
        case got::other_type: errors.push_back("Account number must be a whole number."); break;
        case got::value:
          if (n < 1) errors.push_back("Account number must be at least 1; got " + std::to_string(n) + ".");
          else o.account_id = n;
      }
    } else if (key == "weight_kg") {
      missing &= ~weight_kg;
      double d;
      switch (read_double(v, d)) {
        case got::malformed: return false;
        case got::other_type: errors.push_back("Weight (kg) must be a number."); break;
        case got::value:
          if (!(d >= 0.1 && d <= 1000))
            errors.push_back("Weight (kg) must be between 0.1 and 1000; got " + number_text(d) + ".");
          else o.weight_kg = d;
      }
    } else if (key == "name") {
      missing &= ~name;
      switch (read_text(v, s)) {
        case got::malformed: return false;
        case got::other_type: errors.push_back("Name must be text."); break;
        case got::value:
          if (const std::size_t len = hand::utf8_length(s); len < 1 || len > 80)
            errors.push_back("Name must be 1 to 80 characters long; got " + std::to_string(len) + ".");
          else o.name = s;
      }
    } else if (key == "email") {
      missing &= ~email;
      switch (read_text(v, s)) {
        case got::malformed: return false;
        case got::other_type: errors.push_back("E-mail must be text."); break;
        case got::value:
          if (!hand::is_email(s)) errors.push_back("E-mail must be an e-mail address such as name@example.com.");
          else o.email = s;
      }
    } else if (key == "website") {
      switch (read_text(v, s)) {
        case got::malformed: return false;
        case got::other_type: errors.push_back("Website must be text."); break;
        case got::value:
          if (!hand::is_uri(s)) errors.push_back("Website must be an absolute URI such as https://example.com/page.");
          else o.website = std::string(s);
      }
    } else if (key == "ship_on") {
      missing &= ~ship_on;
      switch (read_text(v, s)) {
        case got::malformed: return false;
        case got::other_type: errors.push_back("Ship on must be a date (YYYY-MM-DD)."); break;
        case got::value:
          if (const auto date = hand::parse_date(s); !date)
            errors.push_back("Ship on must be a calendar date as YYYY-MM-DD; got \"" + std::string(s) + "\".");
          else o.ship_on = *date;
      }
    } else if (key == "deliver_after") {
      missing &= ~deliver_after;
      switch (read_text(v, s)) {
        case got::malformed: return false;
        case got::other_type: errors.push_back("Deliver after must be a date and time."); break;
        case got::value:
          if (const auto t = hand::parse_date_time(s); !t)
            errors.push_back("Deliver after must be a date and time as in RFC 3339; got \"" + std::string(s) + "\".");
          else o.deliver_after = *t;
      }
    } else if (key == "speed") {
      switch (read_text(v, s)) {
        case got::malformed: return false;
        case got::other_type:
          errors.push_back("Speed must be one of \"standard\", \"express\", \"overnight\"; got " + raw_text(v) + ".");
          break;
        case got::value:
          if (!find_choice(speeds, s, o.speed))
            errors.push_back("Speed must be one of \"standard\", \"express\", \"overnight\"; got \"" + std::string(s) +
                             "\".");
      }
    } else if (key == "ribbon") {
      missing &= ~ribbon;
      switch (read_text(v, s)) {
        case got::malformed: return false;
        case got::other_type:
          errors.push_back("Ribbon must be one of \"#FF0000\", \"#00FF00\", \"#0000FF\"; got " + raw_text(v) + ".");
          break;
        case got::value:
          if (!find_choice(ribbons, s, o.ribbon))
            errors.push_back("Ribbon must be one of \"#FF0000\", \"#00FF00\", \"#0000FF\"; got \"" + std::string(s) +
                             "\".");
      }
    } else if (key == "extras") {
      missing &= ~extras;
      return read_extras(v, errors);
    }
    return true;
  }

  bool read_extras(od::value& v, std::vector<std::string>& errors) {
    od::json_type t;
    if (read_type(v, t) != got::value) return false;
    if (t != od::json_type::array) {
      errors.push_back("Extras must be a list of choices.");
      return true;
    }
    od::array list;
    if (v.get_array().get(list)) return false;
    std::size_t i = 0;
    for (auto maybe_item : list) {
      od::value item;
      if (std::move(maybe_item).get(item)) return false;
      std::string_view s;
      hand::Extra e{};
      switch (read_text(item, s)) {
        case got::malformed: return false;
        case got::other_type:
          errors.push_back("Extras item " + std::to_string(i) +
                           " must be one of \"gift_wrap\", \"fragile\", \"eco_box\", \"insurance\"; got " +
                           raw_text(item) + ".");
          break;
        case got::value:
          if (find_choice(extra_choices, s, e)) o.extras.push_back(e);
          else
            errors.push_back("Extras item " + std::to_string(i) +
                             " must be one of \"gift_wrap\", \"fragile\", \"eco_box\", \"insurance\"; got \"" +
                             std::string(s) + "\".");
      }
      ++i;
    }
    if (i > 3) errors.push_back("Pick at most 3 for Extras; got " + std::to_string(i) + ".");
    return true;
  }

  void finish(result<value_type>& r) {
    if (missing) {
      if (missing & quantity) r.errors.push_back("Quantity is required.");
      if (missing & account_id) r.errors.push_back("Account number is required.");
      if (missing & weight_kg) r.errors.push_back("Weight (kg) is required.");
      if (missing & name) r.errors.push_back("Name is required.");
      if (missing & email) r.errors.push_back("E-mail is required.");
      if (missing & ship_on) r.errors.push_back("Ship on is required.");
      if (missing & deliver_after) r.errors.push_back("Deliver after is required.");
      if (missing & ribbon) r.errors.push_back("Ribbon is required.");
      if (missing & extras) r.errors.push_back("Extras is required.");
    }
    if (r.errors.empty()) r.value = std::move(o);
  }
};

inline result<hand::Order> decode_order(od::parser& parser, simdjson::padded_string_view text) {
  return decode<order_reader>(parser, text);
}

}  // namespace hand_simd
