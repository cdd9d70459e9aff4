// A handler that does not take the call is refused where it is added, saying what it takes.
// expect: elicit::tool_registry::add: the handler takes the call: (const elicit::tool_call&)
#include <elicit/server/tool_registry.hpp>

#include <string>

inline void serve(elicit::tool_registry& tools) {
#ifdef ELICIT_CONTROL
  tools.add({"hello", "Says hello."}, [](const elicit::tool_call&) { return std::string("hello"); });
#else
  tools.add({"hello", "Says hello."}, [](const std::string& name) { return "hello " + name; });
#endif
}
