// Forms must never ask for a credential; the diagnostic names the field and points to URL mode.
// expect: forms must never ask for one: send the user to a page of yours in URL mode instead
// member: db_password
#include <elicit/elicit.hpp>

struct Migration {
  std::string database;
#ifdef ELICIT_CONTROL
  bool confirm;
#else
  std::string db_password;
#endif
};
const auto params = elicit::form_params<Migration>("Run the migration?");
