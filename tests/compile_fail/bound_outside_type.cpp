// expect: a minimum or maximum lies outside what the field's C++ type can hold
// member: percent
#include <elicit/form/schema.hpp>

#include <cstdint>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<std::uint8_t, elicit::maximum<100>> percent;
#else
  elicit::field<std::uint8_t, elicit::maximum<300>> percent;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
