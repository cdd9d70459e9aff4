// A narrow integer's own range bounds its default too.
// expect: the default lies outside the field's own minimum and maximum (or its C++ type's range)
// member: level
#include <elicit/form/schema.hpp>

#include <cstdint>

struct Form {
#ifdef ELICIT_CONTROL
  elicit::field<std::uint8_t, elicit::default_value<255>> level;
#else
  elicit::field<std::uint8_t, elicit::default_value<256>> level;
#endif
};
constexpr auto schema = elicit::schema_json<Form>;
