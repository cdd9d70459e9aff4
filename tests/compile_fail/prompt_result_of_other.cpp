// A prompt written once whose R has no GetPromptResult is refused, saying how to give it one.
// expect: elicit::get_prompt_result: return an elicit::prompt_result or a GetPromptResult JSON
// expect: or declare to_prompt_result(const R&) beside R
#include <elicit/server/prompt_registry.hpp>

#include <string>

namespace kitchen {
struct menu {
  int courses;
};
#ifdef ELICIT_CONTROL
inline elicit::prompt_result to_prompt_result(const menu& m) { return {"", "Plan " + std::to_string(m.courses) + "."}; }
#endif
inline elicit::tool<menu> plan(const elicit::tool_call&) { co_return menu{3}; }
}  // namespace kitchen

inline void serve(elicit::prompt_registry& prompts) { prompts.add({"plan", "Plans."}, kitchen::plan); }
