// A tool co_awaits only its questions: at 2026-07-28 it runs again from the start on every
// retry, so any other waiting inside it would be done again. Awaiting anything else is refused,
// with a message that says where that waiting goes.
// expect: elicit::tool: a tool co_awaits only its questions (elicit::question, elicit::together)
// flags: -Wall
#include <elicit/state/tool.hpp>

#include <coroutine>
#include <string>

struct Name {
  std::string name;
};

elicit::tool<std::string> greet() {
#ifdef ELICIT_CONTROL
  auto name = co_await elicit::question<Name>("name", "What is your name?");
#else
  co_await std::suspend_always{};  // a wait of its own, not a question
  auto name = co_await elicit::question<Name>("name", "What is your name?");
#endif
  co_return "Hello, " + name->name;
}
