// A credential-like wire name counts too, in camelCase.
// expect: this field's name says it is a credential
// member: access
#include <elicit/elicit.hpp>

struct Connect {
#ifdef ELICIT_CONTROL
  elicit::field<std::string, elicit::name<"accessLevel">> access;
#else
  elicit::field<std::string, elicit::name<"accessToken">> access;
#endif
};
const auto request = elicit::form_request<Connect>("Connect?");
