// The credential rule holds on the schema constant itself, not only in the request builders:
// a server that sends schema_json would ask for the password. One diagnostic, naming the field.
// expect: forms must never ask for one: send the user to a page of yours in URL mode instead
// member: db_password
#include <elicit/form/schema.hpp>

#include <string>

struct Migration {
  std::string database;
#ifdef ELICIT_CONTROL
  bool confirm;
#else
  std::string db_password;
#endif
};
constexpr std::string_view text = elicit::schema_json<Migration>;
