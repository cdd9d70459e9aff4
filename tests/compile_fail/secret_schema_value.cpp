// The credential rule holds on schema<F>(), the schema as a JSON value.
// expect: forms must never ask for one: send the user to a page of yours in URL mode instead
// member: apiKey
#include <elicit/form/schema.hpp>

#include <string>

struct Connect {
  std::string host;
#ifdef ELICIT_CONTROL
  int port;
#else
  std::string apiKey;
#endif
};
const auto value = elicit::schema<Connect>();
