// redeem_voucher, written once (<elicit/state/tool.hpp>): "Redeem voucher CODE?", a confirmation whose
// answer counts once across every instance of the server. In rounds (a stateless client) the
// answer comes back with a sealed requestState that opens once, on whichever instance it reaches,
// through a replay store every instance shares (Redis: ELICIT_REDIS_URL); the same answer sent
// again, to any instance, is refused (-32602), and the log says why. Pushed to a client with a
// session, the question goes on the call's stream and is answered once by its nature.
#pragma once

#include <elicit/form/single.hpp>
#include <elicit/server/rpc_error.hpp>
#include <elicit/server/tool_call.hpp>
#include <elicit/server/tool_registry.hpp>
#include <elicit/server/tool_result.hpp>
#include <elicit/state/tool.hpp>

#include <cstdio>
#include <string>
#include <utility>

namespace vouchers {

// The voucher argument: shown in the question and the log, so plain. Throws elicit::rpc_error
// (-32602) for anything else: the caller's mistake.
inline std::string voucher_of(const elicit::tool_call& call) {
  const auto v = call.arguments().find("voucher");
  const std::string code = v != call.arguments().end() && v->is_string() ? v->get<std::string>() : std::string();
  const bool plain =
      !code.empty() && code.size() <= 32 &&
      code.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
  if (!plain) throw elicit::rpc_error(-32602, "Invalid params: voucher must be 1 to 32 of A-Z a-z 0-9 -");
  return code;
}

inline elicit::tool<elicit::tool_result> redeem(std::string code) {
  const std::string question = "Redeem voucher " + code + "?";
  elicit::question<elicit::confirmation> asked("redeem", question);
  const auto yes = co_await std::move(asked);
  if (yes.outcome() == elicit::outcome::declined || yes.outcome() == elicit::outcome::cancelled)
    co_return elicit::tool_result{"Voucher " + code + " was not redeemed: the user did not confirm."};
  if (!yes.accepted()) co_return elicit::tool_result::error("Voucher " + code + " was not redeemed: no valid answer.");
  std::fprintf(stderr, "mcp_server: voucher %s redeemed\n", code.c_str());
  co_return elicit::tool_result{"Voucher " + code + " redeemed."};
}

inline elicit::tool_spec redeem_voucher_spec() {
  return {.name = "redeem_voucher",
          .description = "Asks to confirm redeeming a voucher; each answer counts once, on any instance.",
          .input_schema = {
              {"type", "object"},
              {"properties",
               {{"voucher", {{"type", "string"}, {"description", "The voucher's code: 1 to 32 of A-Z a-z 0-9 -"}}}}},
              {"required", {"voucher"}}}};
}

inline elicit::tool<elicit::tool_result> redeem_voucher_call(const elicit::tool_call& call) {
  return redeem(voucher_of(call));
}

}  // namespace vouchers
