// expect: a form needs at least one field
// expect: Nothing
#include <elicit/elicit.hpp>

struct Nothing {
#ifdef ELICIT_CONTROL
  bool confirm;
#endif
};
constexpr auto schema = elicit::schema_json<Nothing>;
