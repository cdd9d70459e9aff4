// A choice whose options come at run time (elicit::choice) has no schema constant: a schema
// with no options is no question. The diagnostic names the field and says to use form<F>.
// expect: build the form per request with elicit::form<F>
// member: repo
#include <elicit/elicit.hpp>

#include <string>

struct Pick {
  std::string note;
#ifdef ELICIT_CONTROL
  std::string repo;
#else
  elicit::field<elicit::choice, elicit::title<"Repository"> > repo;
#endif
};
constexpr std::string_view text = elicit::schema_json<Pick>;
