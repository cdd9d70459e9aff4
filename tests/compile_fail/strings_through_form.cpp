// A rule broken under elicit::form<F> stops elicit there: one diagnostic, naming the field,
// whatever of the form is used after it (clang++-14 gave 10 errors).
// expect: a form field cannot be a container of free values
// member: tags
#include <elicit/form/form.hpp>

#include <string>
#include <vector>

struct Tagging {
#ifdef ELICIT_CONTROL
  std::string tags;
#else
  std::vector<std::string> tags;
#endif
};
inline std::string schema_and_answer(const char* text) {
  elicit::form<Tagging> f;
  f.title("tags", "Tags");
  return f.schema_json() + (f.decode(text).accepted() ? "ok" : "refused");
}
