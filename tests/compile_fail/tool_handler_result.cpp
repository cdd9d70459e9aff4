// A handler whose value is no tool result (nor an elicit::tool<R>) is refused where it is added,
// saying what a handler may return.
// expect: elicit::tool_registry::add: the handler returns elicit::tool<R> (a tool that asks) or R
#include <elicit/server/tool_registry.hpp>

#include <string>

inline void serve(elicit::tool_registry& tools) {
#ifdef ELICIT_CONTROL
  tools.add({"count", "Counts."}, [](const elicit::tool_call&) { return std::to_string(3); });
#else
  tools.add({"count", "Counts."}, [](const elicit::tool_call&) { return 3; });
#endif
}
