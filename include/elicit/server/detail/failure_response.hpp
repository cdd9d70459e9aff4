// What a client is told of a failure out of a handler or a tool, and what only the server's log
// is: written once for the dispatcher's answers and a 2025-11-25 pushed call's response.
//
//   return failure_response(id, std::current_exception(), log, "tools/call", name);
#pragma once

#include <elicit/detail/message.hpp>
#include <elicit/server/rpc_error.hpp>
#include <elicit/state/tool.hpp>

#include <nlohmann/json.hpp>

#include <exception>
#include <functional>
#include <iostream>
#include <string>
#include <string_view>
#include <utility>

namespace elicit::detail {

// A client's text as the server quotes it back: printable ASCII, at most 64 characters (it need
// not be UTF-8, and a cut could split a character).
inline std::string shown(std::string_view text) {
  std::string out;
  for (const char c : text.substr(0, 64)) out += (c >= 0x20 && c < 0x7f) ? c : '?';
  return text.size() > 64 ? out + "..." : out;
}

inline void log_to_stderr(std::string_view line) { std::cerr << line << "\n"; }

// The error response for a failure out of the handler of request `method` ("tools/call",
// "prompts/get") of `name`, in the words the client reads; the rest goes to `log`, as
// "METHOD NAME: why". An rpc_error is sent as it is, a tool_error with its code and words, and
// anything else is -32603 "Internal error".
inline nlohmann::ordered_json failure_response(const nlohmann::json& id, std::exception_ptr failure,
                                               const std::function<void(std::string_view)>& log,
                                               std::string_view method, std::string_view name) {
  try {
    std::rethrow_exception(std::move(failure));
  } catch (const rpc_error& e) {
    return e.response(id);
  } catch (const tool_error& e) {
    log(message(method, " ", name, ": ", e.what()));
    return e.error_response(id);
  } catch (const std::exception& e) {
    log(message(method, " ", name, ": internal error: ", e.what()));
  } catch (...) {
    log(message(method, " ", name, ": internal error"));
  }
  return rpc_error(-32603, "Internal error").response(id);
}

}  // namespace elicit::detail
