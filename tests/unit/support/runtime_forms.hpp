// Forms refined with run-time data (elicit::form<F>), shared by test_form.cpp, which checks the
// exact schema each one gives, and emit_schemas.cpp, which has every one of them validated
// against the spec. Each builder below exercises one group of refinements.
#pragma once

#include "forms.hpp"

#include <elicit/elicit.hpp>

#include <array>
#include <chrono>
#include <cstdint>
#include <optional>
#include <set>
#include <string>
#include <vector>

namespace rt {

// A table booking: a slot among those still free, a party capped by the seats left.
struct Booking {
  elicit::field<elicit::choice, elicit::title<"Time slot">> slot;
  elicit::field<int, elicit::title<"Party size">, elicit::range<1, 20>> party;
  elicit::field<elicit::email, elicit::title<"E-mail">> email;
  elicit::field<std::optional<std::string>, elicit::title<"Note">, elicit::max_length<200>> note;
  elicit::field<std::optional<std::chrono::year_month_day>, elicit::title<"Date">> day;
};

// Each shape of a run-time choice: one, several into a vector, several into a set with bounds.
struct Picks {
  elicit::choice one;
  std::vector<elicit::choice> many;
  elicit::field<std::set<elicit::choice>, elicit::items<1, 3>> some;
};

// One field of each kind, for defaults given one field at a time.
struct Kinds {
  std::string text;
  int count;
  double ratio;
  bool flag;
  forms::Color color;  // titled, wire values "#FF0000", "#00FF00", "#0000FF"
  elicit::choice pick;
  std::vector<elicit::choice> picks;
  std::chrono::year_month_day day;
  elicit::email mail;
  std::vector<forms::ColorName> colors;
};

// An account a form is prefilled from.
struct Account {
  elicit::field<std::string, elicit::title<"Name">, elicit::length<1, 80>> name;
  elicit::email mail;
  std::optional<int> age;
  std::optional<std::string> nickname;
};

// A 64-bit bound beyond what a double holds exactly.
struct Wide {
  elicit::field<std::int64_t, elicit::range<-9007199254740993LL, 9007199254740993LL>> id;
};

using PartySize = elicit::single<"party_size", int, elicit::title<"Party size">, elicit::range<1, 20>>;
using SlotPick = elicit::single<"slot", elicit::choice, elicit::title<"Slot">>;

// ---- The refined forms ---------------------------------------------------------------------

// Titled options in all three shapes; one option without a title.
inline elicit::form<Picks> picks_titled() {
  elicit::form<Picks> f;
  f.choices(&Picks::one, {{"r-17", "elicit"}, {"r-42", "glaze"}})
      .choices(&Picks::many, {{"bug", "Bug"}, {"docs", "Docs"}, {"perf", ""}})
      .choices("some", {{"s", "Small"}, {"m", "Medium"}, {"l", "Large"}});
  return f;
}

// Untitled options: from a std::vector<std::string>, from plain values, from offers with no title.
inline elicit::form<Picks> picks_untitled() {
  const std::vector<std::string> colours{"red", "green"};
  const std::vector<elicit::choice_option> sizes{elicit::choice_option("s", ""), elicit::choice_option("m", ""),
                                                 elicit::choice_option("l", "")};
  elicit::form<Picks> f;
  f.choices(&Picks::one, colours).choices(&Picks::many, {"bug", "docs"}).choices(&Picks::some, sizes);
  return f;
}

// Untitled options with defaults, and the set's bounds narrowed to exactly two.
inline elicit::form<Picks> picks_defaults() {
  elicit::form<Picks> f = picks_untitled();
  f.default_value(&Picks::one, "green")
      .default_value(&Picks::many, std::vector<elicit::choice>{{"docs"}})
      .items(&Picks::some, 2, 2)
      .default_value(&Picks::some, std::set<elicit::choice>{{"s"}, {"m"}});
  return f;
}

// Slots from a table, the party capped, the e-mail prefilled, a title and a description.
inline elicit::form<Booking> booking() {
  elicit::form<Booking> f;
  f.choices(&Booking::slot, {{"s-0900", "9:00"}, {"s-0930", "9:30"}})
      .range(&Booking::party, 1, 6)
      .description(&Booking::party, "6 seats are left")
      .default_value(&Booking::email, "ada@example.org")
      .title("note", "Anything else?");
  return f;
}

// A default on every kind of field.
inline elicit::form<Kinds> kinds_defaults() {
  using namespace std::chrono;
  elicit::form<Kinds> f;
  f.choices(&Kinds::pick, {"a", "b"}).choices(&Kinds::picks, {{"x", "Ex"}, {"y", "Why"}});
  f.default_value(&Kinds::text, "Ada")
      .default_value(&Kinds::count, 4)
      .default_value(&Kinds::ratio, 0.25)
      .default_value(&Kinds::flag, true)
      .default_value(&Kinds::color, forms::Color::green)
      .default_value(&Kinds::pick, elicit::choice{"b"})
      .default_value(&Kinds::picks, std::vector<elicit::choice>{{"y"}, {"x"}})
      .default_value(&Kinds::day, year_month_day{year{2024}, February, day{29}})
      .default_value(&Kinds::mail, elicit::email("ada@example.org"))
      .default_value(&Kinds::colors, std::vector<forms::ColorName>{forms::ColorName::Blue, forms::ColorName::Red});
  return f;
}

inline Account ada() {
  Account a;
  a.name = "Ada";
  a.mail = "ada@example.org";
  a.age = 36;
  return a;  // nickname: std::nullopt
}

inline elicit::form<Account> account_prefilled() {
  elicit::form<Account> f;
  f.prefill(ada());
  return f;
}

// Bounds and lengths narrowed on forms::Annotated, a field found by its property key.
inline elicit::form<forms::Annotated> annotated_narrowed() {
  elicit::form<forms::Annotated> f;
  f.range(&forms::Annotated::age, 21, 99)
      .maximum(&forms::Annotated::score, 96.25)
      .length(&forms::Annotated::name, 2, 40)
      .min_length("post-code", 6)
      .maximum(&forms::Annotated::rating, 5);
  return f;
}

// The items of fixed choices narrowed, and an enum's default changed.
inline elicit::form<forms::Choices> choices_narrowed() {
  elicit::form<forms::Choices> f;
  f.items(&forms::Choices::few, 1, 1)
      .max_items(&forms::Choices::some, 2)
      .default_value(&forms::Choices::priority, forms::Priority::urgent);
  return f;
}

inline elicit::form<PartySize> party_size_narrowed() {
  elicit::form<PartySize> f;
  f.maximum("party_size", 6);
  return f;
}

inline elicit::form<SlotPick> slot_pick() {
  elicit::form<SlotPick> f;
  f.choices("slot", {{"s-0900", "9:00"}, {"s-0930", "9:30"}});
  return f;
}

}  // namespace rt
