// A list of free text has no widget every client agrees on.
// expect: a form field cannot be a container
// member: reviewers
#include <elicit/form/schema.hpp>

#include <vector>

struct Review {
#ifdef ELICIT_CONTROL
  std::string reviewers;
#else
  std::vector<std::string> reviewers;
#endif
};
constexpr auto schema = elicit::schema_json<Review>;
