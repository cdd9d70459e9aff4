// A prompt handler that does not take the request is refused where it is added, saying what it takes.
// expect: elicit::prompt_registry::add: the handler takes the request: (const elicit::tool_call&)
#include <elicit/server/prompt_registry.hpp>

#include <string>

inline void serve(elicit::prompt_registry& prompts) {
#ifdef ELICIT_CONTROL
  prompts.add({"greet", "Greets."}, [](const elicit::tool_call&) { return elicit::prompt_result{"", "Say hello."}; });
#else
  prompts.add({"greet", "Greets."}, [](const std::string& who) { return elicit::prompt_result{"", "Greet " + who}; });
#endif
}
