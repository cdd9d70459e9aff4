// Forms that break each lint rule of the generator once (the test expects each warning).
#pragma once

#include <elicit/elicit.hpp>

namespace lint {
enum class Size { small, large };
constexpr auto elicit_options(Size) {
  return std::array{elicit::option{Size::small, "small"}, elicit::option{Size::large, "large"}};  // titles = values
}

struct Long {                                                    // seven fields
  elicit::field<std::string, elicit::title<"Free text">> notes;  // no length bound
  int untitled;                                                  // neither title nor description
  elicit::field<Size, elicit::title<"Size">> size;
  elicit::field<bool, elicit::title<"A">> a;
  elicit::field<bool, elicit::title<"B">> b;
  elicit::field<bool, elicit::title<"C">> c;
  elicit::field<bool, elicit::title<"D">> d;
};

struct Clean {
  elicit::field<std::string, elicit::title<"Name">, elicit::max_length<80>> name;
};
}  // namespace lint
