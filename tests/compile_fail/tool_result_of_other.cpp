// A tool written once whose R has no CallToolResult is refused, saying how to give it one.
// expect: elicit::call_tool_result: return an elicit::tool_result, a std::string or a CallToolResult JSON
// expect: or declare to_tool_result(const R&) beside R
#include <elicit/server/tool_registry.hpp>

namespace shop {
struct receipt {
  int cents;
};
#ifdef ELICIT_CONTROL
inline elicit::tool_result to_tool_result(const receipt& r) { return {std::to_string(r.cents)}; }
#endif
inline elicit::tool<receipt> pay(const elicit::tool_call&) { co_return receipt{100}; }
}  // namespace shop

inline void serve(elicit::tool_registry& tools) { tools.add({"pay", "Pays."}, shop::pay); }
