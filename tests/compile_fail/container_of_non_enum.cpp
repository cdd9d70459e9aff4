// expect: a form field cannot be a container of free values: for a multi-select use std::vector<Enum>
// member: ids
#include <elicit/form/schema.hpp>

#include <set>

enum class Id { a, b };
struct Form {
#ifdef ELICIT_CONTROL
  std::set<Id> ids;
#else
  std::set<int> ids;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
