// A host's side in a user's project (elicit::client): a received form read, an answer checked.
#include <elicit/client/form_answer.hpp>

#include <iostream>
#include <string_view>

int main() {
  const auto read = elicit::read_form(std::string_view(
      R"({"type":"object","properties":{"age":{"type":"integer","title":"Age"},"name":{"type":"string"}}})"));
  if (!read) return 1;
  elicit::form_answer answer(*read.form);
  const elicit::violation_list said = answer.set("age", "many");
  std::cout << read.form->size() << " fields; " << said[0].message << "\n";
  return 0;
}
