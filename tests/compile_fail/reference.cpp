// A reference member: Boost.PFR cannot form member addresses in such a form, so the
// diagnostic names the form rather than the member.
// expect: a form cannot have a reference member: store the value itself
// expect: form_rules<Parcel>
#include <elicit/form/schema.hpp>

struct Parcel {
  int weight;
#ifdef ELICIT_CONTROL
  std::string city;
#else
  std::string& city;
#endif
};
constexpr auto schema = elicit::schema_json<Parcel>;
