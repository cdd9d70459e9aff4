// form<F>::choices takes wire values, {value, title} pairs, elicit::choice_option, or rows with `value`
// and `title` members: a range of anything else is refused with one message saying what to
// give, not a concept error that lists every overload.
// expect: elicit::form::choices: give the options as wire values (text), {value, title} pairs, elicit::choice_option,
// or rows with `value` and `title` members
#include <elicit/form/form.hpp>

#include <string>
#include <vector>

struct Pick {
  elicit::choice slot;
};
struct Row {
#ifdef ELICIT_CONTROL
  std::string value;
  std::string title;
#else
  int id;
  std::string name;
#endif
};
inline std::string schema_of(const std::vector<Row>& rows) {
  elicit::form<Pick> f;
  f.choices(&Pick::slot, rows);
  return f.schema_json();
}
