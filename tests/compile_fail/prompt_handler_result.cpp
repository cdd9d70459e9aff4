// A prompt handler whose value is no prompt result (nor an elicit::tool<R>) is refused where it
// is added, saying what a prompt handler may return.
// expect: elicit::prompt_registry::add: the handler returns elicit::tool<R> (a prompt that asks) or R
// expect: an elicit::prompt_result, a GetPromptResult JSON, or a type with to_prompt_result
#include <elicit/server/prompt_registry.hpp>

#include <string>

inline void serve(elicit::prompt_registry& prompts) {
#ifdef ELICIT_CONTROL
  prompts.add({"greet", "Greets."}, [](const elicit::tool_call&) { return elicit::prompt_result{"", "Say hello."}; });
#else
  prompts.add({"greet", "Greets."}, [](const elicit::tool_call&) { return std::string("Say hello."); });
#endif
}
