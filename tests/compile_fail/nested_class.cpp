// A class with its own constructor is no more a form field than a nested aggregate.
// expect: a form field cannot be a nested object or class
// member: window
#include <elicit/form/schema.hpp>

class TimeWindow {
 public:
  TimeWindow(int from, int to) : from_(from), to_(to) {}

 private:
  int from_, to_;
};
struct Delivery {
#ifdef ELICIT_CONTROL
  int window;
#else
  TimeWindow window;
#endif
};
constexpr auto schema = elicit::schema_json<Delivery>;
