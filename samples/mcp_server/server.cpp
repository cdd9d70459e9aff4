// A sample MCP server whose every question is a C++ struct: the tools and the prompt that the
// conformance suite's elicitation (2025-11-25) and input-required (2026-07-28) scenarios call,
// and redeem_voucher, whose sealed state opens once across every instance.
// Usage: mcp_server PORT   (serves http://127.0.0.1:PORT/mcp)
//
// The sealing keys are shared by the instances behind one load balancer, and rotate
// (docs/samples.md). Either from a key file named by ELICIT_KEY_FILE (<elicit/key_file.hpp>'s
// format), read again on SIGHUP: checked whole first, a bad file keeps the ring in use. Or from
// the environment, read at start: ELICIT_STATE_SECRET (base64url, 43 characters, as
// elicit::state_key::to_text() writes it) under ELICIT_STATE_KEY_ID (default "k1"); a second
// key ELICIT_STATE_SECRET_NEXT under ELICIT_STATE_KEY_ID_NEXT (default "k2"); and
// ELICIT_STATE_SEAL_WITH, the id of the key that seals (default: the first). Without either, a
// key is generated for this process alone.
//
// The replay store (states that open once): on Redis at ELICIT_REDIS_URL (redis://HOST:PORT),
// shared by every instance, or in this process's memory without it. Its calls run on a small
// pool of threads kept for blocking work, never on the threads that serve connections.
#include "../book_shipment.hpp"
#include "transport.hpp"

#include <elicit/asio_tool.hpp>
#include <elicit/async_open.hpp>
#include <elicit/elicit.hpp>
#include <elicit/key_file.hpp>
#include <elicit/state.hpp>
#include <elicit/tool.hpp>
#ifdef ELICIT_SAMPLE_REDIS
#include <elicit/redis.hpp>
#endif

#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/signal_set.hpp>
#include <boost/asio/thread_pool.hpp>
#include <boost/asio/use_awaitable.hpp>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#ifdef __GLIBC__
#include <malloc.h>  // mallopt
#endif

using mcp::json;

// ---- The forms -----------------------------------------------------------------------------------

struct UserName {
  std::string name;
};
struct FavouriteColor {
  std::string color;
};
struct Confirmation {
  bool ok;
};
struct PromptContext {
  std::string context;
};

struct UserInfo {
  elicit::field<std::string, elicit::description<"User's response">> username;
  elicit::field<std::string, elicit::description<"User's email address">> email;
};

enum class Status { active, inactive, pending };
struct WithDefaults {  // SEP-1034: a default on every primitive type
  elicit::field<std::string, elicit::default_value<"John Doe">> name;
  elicit::field<int, elicit::default_value<30>> age;
  elicit::field<double, elicit::default_value<95.5>> score;
  elicit::field<Status, elicit::default_value<Status::active>> status;
  elicit::field<bool, elicit::default_value<true>> verified;
};

// SEP-1330: the five shapes of a choice.
enum class Plain { option1, option2, option3 };
enum class Titled { value1, value2, value3 };
constexpr auto elicit_options(Titled) {
  return std::array{elicit::option{Titled::value1, "First Option"}, elicit::option{Titled::value2, "Second Option"},
                    elicit::option{Titled::value3, "Third Option"}};
}
enum class Legacy { opt1, opt2, opt3 };
constexpr auto elicit_options(Legacy) {
  return std::array{elicit::option{Legacy::opt1, "Option One"}, elicit::option{Legacy::opt2, "Option Two"},
                    elicit::option{Legacy::opt3, "Option Three"}};
}
enum class Choice { value1, value2, value3 };
constexpr auto elicit_options(Choice) {
  return std::array{elicit::option{Choice::value1, "First Choice"}, elicit::option{Choice::value2, "Second Choice"},
                    elicit::option{Choice::value3, "Third Choice"}};
}
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"  // the deprecated shape, on purpose
struct EnumShapes {
  Plain untitledSingle;
  Titled titledSingle;
  elicit::field<Legacy, elicit::legacy_enum_names> legacyEnum;
  std::vector<Plain> untitledMulti;
  std::vector<Choice> titledMulti;
};
#pragma GCC diagnostic pop

// Tool arguments, described by the same reflection.
struct MessageArgument {
  elicit::field<std::string, elicit::description<"The message to show the user">> message;
};
struct VoucherArgument {
  elicit::field<std::string, elicit::description<"The voucher's code: 1 to 32 of A-Z a-z 0-9 -">> voucher;
};

// ---- The sealed request states (2026-07-28) ------------------------------------------------------

// A state opens only for the server, caller, method, tool or prompt and arguments it was sealed
// for (its binding), so a state need not repeat them. (The tools written once keep no state of
// their own: <elicit/tool.hpp> seals their recorded answers.)
// Which of the three questions still wait for an answer (the bits below), and what the answers
// already given said: a retry answers only the questions of the latest round.
struct ThreeInputs {
  int pending;
  std::string so_far;
};
constexpr int ask_name = 1, ask_model = 2, ask_roots = 4;
// redeem_voucher's question: opens once, on whichever instance the answer comes to.
struct VoucherAsked {
  std::string code;
};

constexpr const char* server_name = "elicit-sample-server";  // the states' audience

// The keys, one ring for the process: filled in main() from the key file or the environment;
// replaced whole on SIGHUP when they come from a file (key_ring::replace_with: seals and opens
// running meanwhile see the old ring or the new one).
elicit::key_ring ring;

// The replay store that redeem_voucher's states open through (Redis or memory), and the pool
// its calls run on: set in main() before the server listens, never changed after.
elicit::replay_guard* replay = nullptr;
boost::asio::thread_pool* blocking = nullptr;
// Whether the replay store's calls block (Redis): a tool_round, which opens its state through
// it, then runs on the blocking pool, never on an I/O thread.
bool replay_blocks = false;

// What a state of this call is sealed for, and opens for: this server, the caller, the method
// and tool or prompt, and the call's arguments.
elicit::state_binding binding_of(const mcp::call& c) {
  const nlohmann::json arguments(c.arguments());
  return {server_name, c.principal(), c.method(), c.target(), elicit::digest_of(arguments, mcp::http_limits)};
}

template <class State>
std::string seal(const State& state, const mcp::call& c) {
  return elicit::seal(state, ring, binding_of(c), std::chrono::minutes(15));
}

// The answers of a retry, or an error when the params are beyond the limits of an answer.
elicit::input_responses responses_of(const mcp::call& c) {
  elicit::input_responses answers{nlohmann::json(c.params())};
  if (const auto& refused = answers.refused()) throw mcp::rpc_error(-32602, refused->message);
  return answers;
}

// One line to stderr in one write: lines of threads logging at once never interleave.
void log_line(const std::string& text) {
  const std::string line = "mcp_server: " + text + "\n";
  std::fwrite(line.data(), 1, line.size(), stderr);
}

// Fails the request with the one error a client is told about a state that did not open; why
// it did not goes to the log only.
[[noreturn]] void invalid_state(const mcp::call& c, std::string_view why) {
  log_line(c.method() + " " + c.target() + ": requestState refused: " + std::string(why));
  throw mcp::rpc_error::of(elicit::invalid_state_error(nullptr));
}

// Opens the state of a retry, or fails the request: a missing, altered, expired or misplaced
// state is the same error to the client.
template <class State>
State open_state(const mcp::call& c, const elicit::input_responses& answers) {
  if (!answers.request_state()) invalid_state(c, "the retry has no requestState");
  const elicit::opened<State> state = elicit::open<State>(*answers.request_state(), ring, binding_of(c));
  if (!state) invalid_state(c, state.message());
  return *state;
}

// A form is asked only of a client that declared form-mode elicitation. Any other gets, at
// 2026-07-28, MissingRequiredClientCapabilityError (-32021) naming it; at 2025-11-25, which has
// no such error, -32600 saying the same in words.
void require_form(const mcp::call& c) {
  if (c.modes().form) return;
  if (c.protocol() == mcp::version::v2025_11_25)
    throw mcp::rpc_error(-32600,
                         "Invalid Request: this asks the user in a form, and the client did not declare "
                         "form-mode elicitation (capabilities.elicitation) in initialize");
  throw mcp::rpc_error(-32021, "Missing required client capability: elicitation (form mode)",
                       {{"requiredCapabilities", {{"elicitation", {{"form", json::object()}}}}}});
}

// ---- One answer to every answer ------------------------------------------------------------------
// Every handler treats the client's answer to a form the same way:
//   accepted             -> used;
//   missing              -> asked again (a new InputRequiredResult), as the spec advises;
//   invalid              -> the JSON-RPC error -32602 listing every violation, whether the answer
//                           was malformed (12345, no action) or broke the form's rules;
//   declined, cancelled  -> a complete result that says so: the user's choice, not an error.
enum class next_step { use, ask_again, report };

template <class Form>
next_step judged(const elicit::response<Form>& r, std::string_view key) {
  switch (r.outcome()) {
    case elicit::outcome::accepted: return next_step::use;
    case elicit::outcome::missing: return next_step::ask_again;
    case elicit::outcome::invalid: throw mcp::rpc_error::of(elicit::invalid_params_error(nullptr, r.violations(), key));
    default: return next_step::report;
  }
}

// What a tool or prompt answers when the user declined or cancelled a question.
std::string not_given(elicit::outcome o, std::string_view question) {
  return std::string(o == elicit::outcome::declined ? "The user declined to answer \""
                                                    : "The user cancelled the question \"") +
         std::string(question) + "\"; nothing was done.";
}
template <class Form>
std::string not_given(const elicit::response<Form>& r, std::string_view question) {
  return not_given(r.outcome(), question);
}

std::string summary(elicit::action a) {
  return a == elicit::action::accept ? "accept" : a == elicit::action::decline ? "decline" : "cancel";
}

// 2025-11-25 conformance tools report the answer as it came, whatever it was.
template <class Form>
std::string described(const elicit::response<Form>& r) {
  if (r.outcome() == elicit::outcome::invalid) return "action=accept, invalid: " + fmt::format("{}", r.violations());
  return "action=" + summary(r.action()) + ", content=" + (r.accepted() ? elicit::to_content(*r).dump() : "{}");
}

const json sampling_question = {
    {"method", "sampling/createMessage"},
    {"params",
     {{"messages",
       json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", "What is the capital of France?"}}}}})},
      {"maxTokens", 100}}}};
const json greeting_request = {
    {"method", "sampling/createMessage"},
    {"params",
     {{"messages", json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Generate a greeting"}}}}})},
      {"maxTokens", 50}}}};
const json roots_request = {{"method", "roots/list"}, {"params", json::object()}};

constexpr std::string_view name_question = "What is your name?";
constexpr std::string_view context_question = "What context should the prompt use?";

// A sampling or roots answer that is not one is invalid params, as an invalid form answer is.
std::string sampled_text(const json& answer) {
  if (!answer.is_object() || !answer.contains("content") || !answer["content"].is_object() ||
      !answer["content"].contains("text") || !answer["content"]["text"].is_string())
    throw mcp::rpc_error(-32602, "Invalid params: the sampling answer has no text content");
  return answer["content"]["text"].get<std::string>();
}

std::string first_root(const json& answer) {
  if (!answer.is_object() || !answer.contains("roots") || !answer["roots"].is_array())
    throw mcp::rpc_error(-32602, "Invalid params: the roots answer has no roots");
  if (answer["roots"].empty()) return "(none)";
  const json& root = answer["roots"][0];
  if (!root.is_object() || !root.contains("uri") || !root["uri"].is_string())
    throw mcp::rpc_error(-32602, "Invalid params: a root has no uri");
  return root["uri"].get<std::string>();
}

// ---- The handlers ----------------------------------------------------------------------------------

// 2026-07-28: the questions of three_inputs still pending, under a state that remembers them.
json three_questions(const mcp::call& c, const ThreeInputs& state) {
  elicit::input_required ask{c.modes()};
  if (state.pending & ask_name) ask.ask<UserName>("user_name", name_question);
  if (state.pending & ask_model) ask.request("greeting", greeting_request);
  if (state.pending & ask_roots) ask.request("client_roots", roots_request);
  return ask.state(seal(state, c)).result();
}

// 2026-07-28: a form, a sampling request and a roots request at once, each only if declared;
// a question left unanswered is asked again, with the answers given so far kept in the state.
json three_inputs(const mcp::call& c) {
  const elicit::input_responses answers = responses_of(c);
  if (!answers.is_retry()) {
    const int asked = (c.modes().form ? ask_name : 0) | (c.declares("sampling") ? ask_model : 0) |
                      (c.declares("roots") ? ask_roots : 0);
    if (asked == 0) require_form(c);  // nothing this client can answer: name what it could declare
    return three_questions(c, {asked, ""});
  }
  const ThreeInputs state = open_state<ThreeInputs>(c, answers);
  ThreeInputs next{0, state.so_far};
  if (state.pending & ask_name) {
    const auto name = answers.get<UserName>("user_name");
    const next_step step = judged(name, "user_name");
    if (step == next_step::ask_again) next.pending |= ask_name;
    else next.so_far += step == next_step::use ? "Name: " + name->name + ". " : not_given(name, name_question) + " ";
  }
  if (state.pending & ask_model) {
    if (const json g = c.raw_response("greeting"); g.is_null()) next.pending |= ask_model;
    else next.so_far += "Greeting: " + sampled_text(g) + ". ";
  }
  if (state.pending & ask_roots) {
    if (const json r = c.raw_response("client_roots"); r.is_null()) next.pending |= ask_roots;
    else next.so_far += "Root: " + first_root(r) + ". ";
  }
  if (next.pending != 0) return three_questions(c, next);
  return mcp::text_result(next.so_far);
}

// The voucher argument of redeem_voucher: shown in the question and the log, so plain.
std::string voucher_of(const mcp::call& c) {
  const json arguments = c.arguments();
  const auto v = arguments.find("voucher");
  const std::string code = v != arguments.end() && v->is_string() ? v->get<std::string>() : std::string();
  const bool plain =
      !code.empty() && code.size() <= 32 &&
      code.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
  if (!plain) throw mcp::rpc_error(-32602, "Invalid params: voucher must be 1 to 32 of A-Z a-z 0-9 -");
  return code;
}

// 2026-07-28: "Redeem voucher CODE?", a confirmation whose sealed state opens once across every
// instance sharing the replay store: the second answer with that state, on any instance, gets
// the one -32602, and the log says why (replayed, or the store did not answer: fails closed).
// The store's call runs on the blocking pool; this coroutine holds no I/O thread meanwhile.
boost::asio::awaitable<json> redeem_voucher(const mcp::call& c) {
  require_form(c);
  const std::string code = voucher_of(c);
  const std::string question = "Redeem voucher " + code + "?";
  const elicit::input_responses answers = responses_of(c);
  const auto ask = [&c, &code, &question] {
    return elicit::input_required{c.modes()}
        .ask<elicit::confirmation>("redeem", question)
        .state(seal(VoucherAsked{code}, c))
        .result();
  };
  if (!answers.is_retry()) co_return ask();
  if (!answers.request_state()) invalid_state(c, "the retry has no requestState");
  const elicit::opened<VoucherAsked> state = co_await elicit::async_open<VoucherAsked>(
      blocking->get_executor(), *answers.request_state(), ring, binding_of(c), {.replay = replay});
  if (!state) invalid_state(c, state.message());
  const auto yes = answers.get<elicit::confirmation>("redeem");
  const next_step next = judged(yes, "redeem");
  if (next == next_step::ask_again) co_return ask();  // the state is spent: a new one
  if (next == next_step::report) co_return mcp::text_result(not_given(yes, question));
  log_line("voucher " + code + " redeemed");
  co_return mcp::text_result("Voucher " + code + " redeemed.");
}

// ---- Tools written once (<elicit/tool.hpp>), served at both versions -------------------------------

// How a tool written once runs here: each question asked up to three times (an invalid answer
// asked again in plain words), each 2026-07-28 state opening once (the replay store).
elicit::tool_options tool_options_of() {
  elicit::tool_options options;
  options.replay = replay;
  return options;
}

// 2026-07-28: one round of `t` for this call: its value, or the InputRequiredResult of the
// questions still open. The client is told what tool_round refuses in its words (a state that
// did not open: the one -32602; its reason to the log only), and a client without form mode
// gets -32021 (tool_error, missing_capability). On the blocking pool when the replay store blocks: the coroutine waits
// without a thread meanwhile. `params` are the request's, unless given.
template <class R>
boost::asio::awaitable<elicit::round_result<R>> one_round(const mcp::call& c, elicit::tool<R> t,
                                                          elicit::tool_options options,
                                                          nlohmann::json params = nullptr) {
  if (params.is_null()) params = nlohmann::json(c.params());
  const elicit::state_binding binding = binding_of(c);
  std::optional<elicit::round_result<R>> round;
  try {
    if (replay_blocks) {
      round = co_await boost::asio::co_spawn(
          blocking->get_executor(),
          [&]() -> boost::asio::awaitable<std::optional<elicit::round_result<R>>> {
            co_return elicit::tool_round(std::move(t), params, ring, binding, options);
          },
          boost::asio::use_awaitable);
    } else {
      round.emplace(elicit::tool_round(std::move(t), params, ring, binding, options));
    }
  } catch (const elicit::tool_error& e) {  // a client without form mode too: -32021 naming it
    log_line(c.method() + " " + c.target() + ": " + e.what());
    throw mcp::rpc_error(e.code(), e.client_message(), json(e.data()));
  }
  co_return std::move(*round);
}

// Both versions: book_shipment (samples/book_shipment.hpp), the one tool of both samples. At
// 2025-11-25 its questions go on the call's stream; at 2026-07-28 one round per request.
boost::asio::awaitable<json> book_shipment(const mcp::call& c) {
  require_form(c);
  std::string shipment;
  try {
    shipment = shipping::shipment_of(nlohmann::json(c.arguments()));
  } catch (const std::invalid_argument& e) {
    throw mcp::rpc_error(-32602, e.what());
  }
  auto t = shipping::book_shipment(shipment, shipping::free_slots());
  if (c.protocol() == mcp::version::v2025_11_25) {
    auto running = c.run_tool(std::move(t), tool_options_of());
    const shipping::booking b = co_await std::move(running);
    if (b.stopped) c.throw_stopped(*b.stopped);
    co_return mcp::text_result(b.text, b.is_error);
  }
  auto rounds = one_round(c, std::move(t), tool_options_of());
  elicit::round_result<shipping::booking> round = co_await std::move(rounds);
  if (!round.done()) co_return json(round.input_required());
  co_return mcp::text_result(round.value().text, round.value().is_error);
}

// ---- The conformance tools written once, served at both versions ---------------------------------
// The name question, the confirmation, the two rounds and the prompt mean the same in both eras:
// each is one elicit::tool, run on the call's stream at 2025-11-25 and one round per request at
// 2026-07-28 (the library's sealed state carries the answers, and refuses an altered one).

// What one of them answers: the result (a tool's or a prompt's), or, at 2025-11-25, why the
// server stopped waiting (the transport then answers as it answers any call it stopped).
struct reply {
  json result;
  std::optional<elicit::stop_reason> stopped;
};

json text_reply(const std::string& text) { return mcp::text_result(text); }

// A question with no valid answer: a decline or a cancel is the user's choice, a complete
// result saying so (through `complete`); an invalid answer is the one -32602 listing every
// violation, naming the input key at 2026-07-28 only (`key` is empty at 2025-11-25, which has
// no such word); the client's JSON-RPC error is -32603. Throws mcp::rpc_error for those two.
template <class Form, class Complete>
reply unanswered(const elicit::ask_result<Form>& r, std::string_view question, const std::string& key,
                 Complete complete) {
  switch (r.outcome()) {
    case elicit::outcome::invalid: throw mcp::rpc_error::of(elicit::invalid_params_error(nullptr, r.violations(), key));
    case elicit::outcome::error: throw mcp::rpc_error(-32603, "The client answered the elicitation with an error");
    case elicit::outcome::stopped:
    case elicit::outcome::timed_out: return {json(), r.stop_reason()};
    default: return {complete(not_given(r.outcome(), question)), {}};
  }
}

// The input key an invalid answer's error names: at 2026-07-28 only.
std::string key_named(bool keyed, const char* key) { return keyed ? key : ""; }

// "What is your name?", then "Hello, NAME!". (Each question is built first, then awaited:
// g++-12 mishandles braced arguments in a co_await.)
elicit::tool<reply> greet(bool keyed) {
  elicit::question<UserName> asked("user_name", std::string(name_question));
  const auto name = co_await std::move(asked);
  if (!name.accepted()) co_return unanswered(name, name_question, key_named(keyed, "user_name"), text_reply);
  co_return reply{mcp::text_result("Hello, " + name->name + "!"), {}};
}

// "Please confirm"; "state-ok" once the state it came back with opened (the library's sealed
// state: an altered one is refused before the tool runs).
elicit::tool<reply> confirm(bool keyed) {
  constexpr std::string_view please = "Please confirm";
  elicit::question<Confirmation> asked("confirm", std::string(please));
  const auto ok = co_await std::move(asked);
  if (!ok.accepted()) co_return unanswered(ok, please, key_named(keyed, "confirm"), text_reply);
  co_return reply{mcp::text_result(std::string("state-ok: confirmed ") + (ok->ok ? "yes" : "no")), {}};
}

// Two rounds: a name, then a favourite color.
elicit::tool<reply> two_rounds(bool keyed) {
  constexpr std::string_view step1 = "Step 1: What is your name?", step2 = "Step 2: What is your favorite color?";
  elicit::question<UserName> first("step1", std::string(step1));
  const auto name = co_await std::move(first);
  if (!name.accepted()) co_return unanswered(name, step1, key_named(keyed, "step1"), text_reply);
  elicit::question<FavouriteColor> second("step2", std::string(step2));
  const auto color = co_await std::move(second);
  if (!color.accepted()) co_return unanswered(color, step2, key_named(keyed, "step2"), text_reply);
  co_return reply{mcp::text_result(name->name + " likes " + color->color + "."), {}};
}

// The prompt: its context first.
elicit::tool<reply> with_context(bool keyed) {
  elicit::question<PromptContext> asked("user_context", std::string(context_question));
  const auto context = co_await std::move(asked);
  const auto no_context = [](const std::string& text) { return mcp::prompt_result("No context", text); };
  if (!context.accepted())
    co_return unanswered(context, context_question, key_named(keyed, "user_context"), no_context);
  co_return reply{mcp::prompt_result("A prompt with context", "Use this context: " + context->context), {}};
}

// The name, the confirmation and the two rounds take one attempt: an invalid answer is the one
// -32602 listing every violation, as their clients expect (tests/sdk); the prompt asks again in
// plain words, up to three forms, as a tool written once does by default.
elicit::tool_options one_attempt() {
  elicit::tool_options options = tool_options_of();
  options.ask.max_attempts = 1;
  return options;
}

// How one of them is made: keyed says whether an invalid answer's error may name an input key.
using make_tool = elicit::tool<reply> (*)(bool keyed);

// 2026-07-28: one round; the result, or the InputRequiredResult of the questions still open.
boost::asio::awaitable<json> round_of(const mcp::call& c, make_tool make, elicit::tool_options options,
                                      nlohmann::json params) {
  auto rounds = one_round(c, make(true), options, std::move(params));
  elicit::round_result<reply> round = co_await std::move(rounds);
  if (!round.done()) co_return json(round.input_required());
  co_return std::move(round).value().result;
}

// Serves one of them: at 2025-11-25 its questions go on the call's stream; at 2026-07-28 one
// round per request, answers without a state answering the first round when `stateless_first`.
// The same options in both eras: a one-attempt tool gives an invalid answer's -32602 in both.
boost::asio::awaitable<json> serve_written_once(const mcp::call& c, make_tool make, elicit::tool_options options,
                                                bool stateless_first) {
  require_form(c);
  if (c.protocol() == mcp::version::v2025_11_25) {
    auto running = c.run_tool(make(false), options);
    const reply r = co_await std::move(running);
    if (r.stopped) c.throw_stopped(*r.stopped);
    co_return r.result;
  }
  // Answers without a state (the suite's missing-input-response and ignore-extra-params send
  // such) answer the first round: tool_options::answers_without_state. No state is opened for
  // them, so they never reach the replay store (100,500 such requests in 10 s filled it for the
  // states of other clients when the sample sealed and opened one, issue #46).
  options.answers_without_state = stateless_first;
  auto answered = round_of(c, make, options, nlohmann::json(c.params()));
  co_return co_await std::move(answered);
}

mcp::asking_handler written_once(make_tool make, elicit::tool_options options, bool stateless_first = false) {
  return [make, options, stateless_first](const mcp::call& c) {
    return serve_written_once(c, make, options, stateless_first);
  };
}

// 2026-07-28: one question to the client's model, asked only of a client that declared sampling.
json ask_the_model(const mcp::call& c) {
  c.require("sampling");
  const json answer = c.raw_response("capital_question");
  if (answer.is_null()) return elicit::input_required{}.request("capital_question", sampling_question).result();
  return mcp::text_result("The model says: " + sampled_text(answer));
}

// 2026-07-28: the client's roots, asked only of a client that declared roots.
json ask_the_roots(const mcp::call& c) {
  c.require("roots");
  const json answer = c.raw_response("client_roots");
  if (answer.is_null()) return elicit::input_required{}.request("client_roots", roots_request).result();
  return mcp::text_result("The first root is " + first_root(answer));
}

// 2025-11-25: asks the client directly, on the call's stream. The arguments are values: the
// coroutine outlives the caller's expression.
template <class Form>
boost::asio::awaitable<json> ask_and_report(const mcp::call& c, std::string message, std::string prefix) {
  if (!c.modes().form) co_return mcp::text_result("This tool needs a client with form elicitation.", true);
  const elicit::response<Form> answer = co_await c.ask<Form>(std::move(message));
  co_return mcp::text_result(prefix + described(answer));
}

// The ring from the environment (see the top of this file). Throws std::invalid_argument for a
// malformed or weak secret, a bad key id, or ELICIT_STATE_SEAL_WITH naming no key of the ring.
void ring_from_environment() {
  const auto env = [](const char* name) -> std::string {
    const char* value = std::getenv(name);
    return value != nullptr ? value : "";
  };
  const std::string secret = env("ELICIT_STATE_SECRET"), next = env("ELICIT_STATE_SECRET_NEXT");
  const std::string id = env("ELICIT_STATE_KEY_ID").empty() ? "k1" : env("ELICIT_STATE_KEY_ID");
  const std::string next_id = env("ELICIT_STATE_KEY_ID_NEXT").empty() ? "k2" : env("ELICIT_STATE_KEY_ID_NEXT");
  if (!secret.empty()) {
    ring.add(id, elicit::state_key::from_text(secret));
  } else {
    if (!next.empty()) throw std::invalid_argument("ELICIT_STATE_SECRET_NEXT is set without ELICIT_STATE_SECRET");
    ring.add(id, elicit::state_key::generate());
    std::cerr << "mcp_server: ELICIT_STATE_SECRET is not set: sealing with a key generated for this process only "
                 "(its states open in no other instance, and not after a restart)\n";
  }
  if (!next.empty()) ring.add(next_id, elicit::state_key::from_text(next));
  if (const std::string seal_with = env("ELICIT_STATE_SEAL_WITH"); !seal_with.empty()) ring.seal_with(seal_with);
  std::cerr << "mcp_server: sealing requestState with key \"" << ring.sealing_id() << "\"\n";
}

// The server's limits, some from the environment (a test shortens them), each a whole number:
//   ELICIT_SESSION_IDLE_SECONDS (default 1800) and ELICIT_ANSWER_TIMEOUT_SECONDS (default 60),
//   ELICIT_REQUEST_TIMEOUT_SECONDS (3), ELICIT_IDLE_TIMEOUT_SECONDS (30): from 1 to 86400;
//   ELICIT_THREADS (default 0: the core count), ELICIT_MAX_SESSIONS (16384),
//   ELICIT_MAX_SESSIONS_PER_CLIENT (1024), ELICIT_SESSION_RATE and ELICIT_SESSION_BURST (2000),
//   ELICIT_WAITING_MEMORY_MB (256: the bytes waiting elicitations may hold, each counted at
//   16 KiB or its request and question; the bound on their number is this budget over 16 KiB,
//   16384), ELICIT_WAITING_MEMORY_PER_CLIENT_MB (a quarter of it), or ELICIT_MAX_WAITING (the
//   bound on their number, directly), ELICIT_MAX_WAITING_PER_CLIENT (1024),
//   ELICIT_MAX_WAITING_PER_SESSION (8), ELICIT_MAX_CONNECTIONS (32768, lowered to what the
//   open-file limit allows), ELICIT_MAX_CONNECTIONS_PER_CLIENT (an eighth of that),
//   ELICIT_REPLAY_CAPACITY (100000: the states the in-memory replay store remembers): up to 10^7;
//   ELICIT_TRUSTED_PROXIES: the peer addresses (comma-separated, e.g. 127.0.0.1 for the nginx of
//   docs/samples.md) whose X-Forwarded-For names the client that the per-client bounds count;
//   ELICIT_PROGRESS_INTERVAL_MS (15000; 0 sends no progress), read by mcp::server itself.
// Throws std::invalid_argument for anything else.
// The whole number in the environment variable `name`, from `low` to `high`, or `fallback` when
// it is unset or empty. Throws std::invalid_argument for anything else.
std::size_t number(const char* name, std::size_t fallback, std::size_t low, std::size_t high) {
  const char* value = std::getenv(name);
  if (value == nullptr || *value == '\0') return fallback;
  const std::string text = value;
  if (text.size() > 8 || text.find_first_not_of("0123456789") != std::string::npos || std::stoul(text) < low ||
      std::stoul(text) > high)
    throw std::invalid_argument(std::string(name) + " must be a whole number from " + std::to_string(low) + " to " +
                                std::to_string(high));
  return static_cast<std::size_t>(std::stoul(text));
}

mcp::server_limits limits_from_environment() {
  mcp::server_limits limits;
  const auto seconds = [](const char* name, std::chrono::seconds fallback) {
    return std::chrono::seconds(number(name, static_cast<std::size_t>(fallback.count()), 1, 86400));
  };
  constexpr std::size_t most = 10'000'000;
  limits.session_idle = seconds("ELICIT_SESSION_IDLE_SECONDS", limits.session_idle);
  limits.answer_timeout = seconds("ELICIT_ANSWER_TIMEOUT_SECONDS", limits.answer_timeout);
  limits.request_timeout = seconds("ELICIT_REQUEST_TIMEOUT_SECONDS", limits.request_timeout);
  limits.idle_timeout = seconds("ELICIT_IDLE_TIMEOUT_SECONDS", limits.idle_timeout);
  limits.threads = number("ELICIT_THREADS", limits.threads, 0, 1024);
  limits.max_connections = number("ELICIT_MAX_CONNECTIONS", limits.max_connections, 1, most);
  limits.max_connections_per_client =
      number("ELICIT_MAX_CONNECTIONS_PER_CLIENT", limits.max_connections_per_client, 1, most);
  limits.max_sessions = number("ELICIT_MAX_SESSIONS", limits.max_sessions, 1, most);
  limits.max_sessions_per_client = number("ELICIT_MAX_SESSIONS_PER_CLIENT", limits.max_sessions_per_client, 1, most);
  limits.session_rate = number("ELICIT_SESSION_RATE", limits.session_rate, 1, most);
  limits.session_burst = number("ELICIT_SESSION_BURST", limits.session_burst, 1, most);
  limits.waiting_memory = number("ELICIT_WAITING_MEMORY_MB", limits.waiting_memory >> 20, 1, 1 << 20) << 20;
  limits.waiting_memory_per_client =
      number("ELICIT_WAITING_MEMORY_PER_CLIENT_MB", limits.waiting_memory >> 22, 1, 1 << 20) << 20;
  limits.max_waiting =
      number("ELICIT_MAX_WAITING", limits.waiting_memory / mcp::server_limits::bytes_per_waiting, 1, most);
  limits.max_waiting_per_client = number("ELICIT_MAX_WAITING_PER_CLIENT", limits.max_waiting_per_client, 1, most);
  limits.max_waiting_per_session = number("ELICIT_MAX_WAITING_PER_SESSION", limits.max_waiting_per_session, 1, most);
  if (const char* proxies = std::getenv("ELICIT_TRUSTED_PROXIES"); proxies != nullptr) {
    std::string_view rest = proxies;
    while (!rest.empty()) {
      const std::size_t comma = rest.find(',');
      const std::string item(rest.substr(0, comma));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      boost::system::error_code ec;
      const auto address = boost::asio::ip::make_address(item, ec);
      if (ec)
        throw std::invalid_argument("ELICIT_TRUSTED_PROXIES must be IP addresses, comma-separated; '" + item +
                                    "' is not one");
      limits.trusted_proxies.push_back(address.to_string());
    }
  }
  return limits;
}

// The ring at start: from ELICIT_KEY_FILE, or from the environment. Throws
// elicit::key_file_error for a bad file, std::invalid_argument as ring_from_environment, or
// when both are given (which would win?).
void ring_at_start(const char* key_file) {
  if (key_file == nullptr) {
    ring_from_environment();
    return;
  }
  for (const char* name : {"ELICIT_STATE_SECRET", "ELICIT_STATE_SECRET_NEXT", "ELICIT_STATE_SEAL_WITH"})
    if (const char* value = std::getenv(name); value != nullptr && *value != '\0')
      throw std::invalid_argument(std::string("ELICIT_KEY_FILE and ") + name + " are both set: keep one");
  const elicit::loaded_key_file file = elicit::read_key_file(key_file);
  ring = file.ring;
  std::cerr << "mcp_server: key file " << key_file << ": " << file.summary() << "\n";
  std::cerr << "mcp_server: sealing requestState with key \"" << ring.sealing_id() << "\"\n";
}

// The replay store: Redis at ELICIT_REDIS_URL, or memory. Throws std::invalid_argument for a
// URL that is not redis://HOST:PORT, or when this build has no Redis (no hiredis).
std::unique_ptr<elicit::replay_guard> replay_store() {
  const char* url = std::getenv("ELICIT_REDIS_URL");
  if (url == nullptr || *url == '\0') {
    std::cerr << "mcp_server: replay store: in memory (this process only; set ELICIT_REDIS_URL to share one)\n";
    return std::make_unique<elicit::memory_replay_guard>(number("ELICIT_REPLAY_CAPACITY", 100'000, 1, 10'000'000));
  }
#ifdef ELICIT_SAMPLE_REDIS
  auto redis = std::make_unique<elicit::redis_replay_guard>(elicit::redis_options::from_url(url, "mcp_server:replay:"));
  try {
    replay_blocks = true;
    redis->ping();
    std::cerr << "mcp_server: replay store: Redis at " << redis->options().host << ":" << redis->options().port << "\n";
  } catch (const elicit::replay_store_error& e) {  // starts anyway: states fail closed until it answers
    std::cerr << "mcp_server: replay store: " << e.what() << " (states are refused until it answers)\n";
  }
  return redis;
#else
  throw std::invalid_argument("ELICIT_REDIS_URL is set, but this mcp_server was built without hiredis");
#endif
}

// SIGHUP: the key file read again on the blocking pool (a file read is blocking work), then the
// wait re-armed. Without a key file there is nothing to read: said, and the process goes on
// (SIGHUP's default would end it).
void reload_on_hangup(boost::asio::signal_set& hangup, const char* key_file) {
  hangup.async_wait([&hangup, key_file](const boost::system::error_code& ec, int) {
    if (ec) return;
    if (key_file == nullptr) {
      log_line("SIGHUP: no ELICIT_KEY_FILE, nothing to reload");
    } else {
      try {
        const elicit::loaded_key_file file = elicit::reload_key_file(ring, key_file);
        log_line("key file reloaded: " + file.summary());
      } catch (const std::exception& e) {  // key_file_error, or OpenSSL failing: the ring in use stays
        log_line(std::string("key file refused, ring kept: ") + e.what());
      }
    }
    reload_on_hangup(hangup, key_file);
  });
}

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: mcp_server PORT\n";
    return 2;
  }
#ifdef __GLIBC__
  // A request body of megabytes is parsed, copied once into its call and freed: with glibc's
  // default, each such free raises the size under which blocks come from the heap instead of
  // their own mapping, and freed heap stays in the process. A waiting 2025-11-25 call with a
  // 3.9 MiB argument then kept 6.7 MB of RSS where it holds 3.9 MB (issue #46); with a fixed
  // threshold a large block goes back to the system when freed, and the waiting budget, which
  // counts a call's request at its length, counts what the process really holds.
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);
#endif
  const char* key_file = std::getenv("ELICIT_KEY_FILE");
  if (key_file != nullptr && *key_file == '\0') key_file = nullptr;
  try {
    ring_at_start(key_file);
  } catch (const std::exception& e) {
    std::cerr << "mcp_server: cannot set up the state keys: " << e.what() << "\n";
    return 2;
  }
  // One Redis call per thread at a time: four calls wait on Redis at once, each at most its
  // timeouts, while the I/O threads go on serving. The SIGHUP wait runs here too.
  boost::asio::thread_pool pool(4);
  blocking = &pool;
  std::unique_ptr<elicit::replay_guard> store;
  try {
    store = replay_store();
  } catch (const std::exception& e) {
    std::cerr << "mcp_server: cannot set up the replay store: " << e.what() << "\n";
    return 2;
  }
  replay = store.get();
  boost::asio::signal_set hangup(pool, SIGHUP);
  reload_on_hangup(hangup, key_file);
  mcp::server_limits limits;
  try {
    limits = limits_from_environment();
  } catch (const std::exception& e) {
    std::cerr << "mcp_server: " << e.what() << "\n";
    return 2;
  }
  mcp::server server(server_name, "0.1.0", limits);
  const json no_arguments = {{"type", "object"}, {"properties", json::object()}};

  // 2025-11-25 only: elicitation/create on the stream of the pending call.
  const auto v2025 = mcp::serves::v2025_11_25;
  server.tool("test_elicitation", "Asks the user for a username and an e-mail address.",
              elicit::schema<MessageArgument>(), v2025, mcp::asking_handler([](const mcp::call& c) {
                return ask_and_report<UserInfo>(c, c.arguments().value("message", "Please provide your information"),
                                                "User response: ");
              }));
  server.tool("test_elicitation_sep1034_defaults", "Asks a form with a default on every primitive type.", no_arguments,
              v2025, mcp::asking_handler([](const mcp::call& c) {
                return ask_and_report<WithDefaults>(c, "Please review your profile", "Elicitation completed: ");
              }));
  server.tool("test_elicitation_sep1330_enums", "Asks a form with the five shapes of a choice.", no_arguments, v2025,
              mcp::asking_handler([](const mcp::call& c) {
                return ask_and_report<EnumShapes>(c, "Please make your choices", "Elicitation completed: ");
              }));

  // Both versions, each one tool written once (<elicit/tool.hpp>): the name question (the first
  // tool listed at 2026-07-28, the one a client that tries "the first tool" gets), the
  // confirmation with a state (the tampered-state scenario calls it under its own name), the
  // two rounds.
  const auto both = mcp::serves::both;
  server.tool("test_input_required_result_elicitation", "Asks the user's name, then greets them.", no_arguments, both,
              written_once(greet, one_attempt(), true));
  server.tool("test_input_required_result_request_state", "Asks for a confirmation, with a sealed request state.",
              no_arguments, both, written_once(confirm, one_attempt()));
  server.tool("test_input_required_result_tampered_state", "Asks for a confirmation; refuses an altered state.",
              no_arguments, both, written_once(confirm, one_attempt()));
  server.tool("test_input_required_result_multi_round", "Asks a name, then a favourite color.", no_arguments, both,
              written_once(two_rounds, one_attempt()));

  // 2026-07-28 only: input requests that 2025-11-25 sends otherwise, or not at all.
  const auto v2026 = mcp::serves::v2026_07_28;
  // A form, a sampling and a roots request in one InputRequiredResult: at 2025-11-25 sampling and
  // roots are requests of their own on the stream, which this server does not send.
  server.tool("test_input_required_result_multiple_inputs", "Asks a form, a sampling and the roots at once.",
              no_arguments, v2026, three_inputs);
  // Reads the capabilities each 2026-07-28 request declares (2025-11-25 declares them once, in initialize).
  server.tool("test_input_required_result_capabilities", "Asks only what the client declared it can answer.",
              no_arguments, v2026, three_inputs);
  // Sampling and roots as input requests: 2026-07-28 words (this server sends no 2025-11-25 requests of them).
  server.tool("test_input_required_result_sampling", "Asks the client's model a question.", no_arguments, v2026,
              ask_the_model);
  server.tool("test_input_required_result_list_roots", "Asks the client for its roots.", no_arguments, v2026,
              ask_the_roots);
  // The tools the suite's server-stateless scenario probes the stateless rules with (SEP-2575,
  // 2026-07-28 alone): -32021 for an undeclared capability, no request on a response stream, no log.
  server.tool("test_missing_capability", "Asks the client's model a question: needs the sampling capability.",
              no_arguments, v2026, ask_the_model);
  server.tool("test_streaming_elicitation", "Asks the user's name in the result, never as a request on a stream.",
              no_arguments, v2026, written_once(greet, one_attempt(), true));
  server.tool("test_logging_tool", "Answers without a log message: this server sends none to clients.", no_arguments,
              v2026, [](const mcp::call&) { return mcp::text_result("Done; nothing was logged."); });

  // 2026-07-28: a state that opens once across every instance (the replay store).
  server.tool("redeem_voucher", "Asks to confirm redeeming a voucher; each question is answered once, on any instance.",
              elicit::schema<VoucherArgument>(), v2026, mcp::asking_handler(redeem_voucher));

  // Both versions: a tool written once (samples/book_shipment.hpp), as the stdio sample serves it.
  const json shipment_arguments = {{"type", "object"}, {"properties", {{"shipment_id", {{"type", "string"}}}}}};
  server.tool("book_shipment", "Book a shipment, asking the user where and how it should go.", shipment_arguments,
              mcp::serves::both, mcp::asking_handler(book_shipment));

  // Both versions: a prompt written once, asking its context first.
  server.prompt("test_input_required_result_prompt", "A prompt that asks for its context first.", both,
                written_once(with_context, tool_options_of(), true));

  server.listen(std::atoi(argv[1]));
}
