// A fixed-size array is still a list.
// expect: a form field cannot be a container
// member: scores
#include <elicit/form/schema.hpp>

#include <array>

struct Scores {
  std::string player;
#ifdef ELICIT_CONTROL
  int scores;
#else
  std::array<int, 3> scores;
#endif
};
constexpr auto schema = elicit::schema_json<Scores>;
