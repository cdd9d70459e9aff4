// A sample MCP server whose every question is a C++ struct: the tools and the prompt that the
// conformance suite's elicitation (2025-11-25) and input-required (2026-07-28) scenarios call.
// Usage: mcp_server PORT   (serves http://127.0.0.1:PORT/mcp)
//
// The sealing keys come from the environment, so that instances behind one load balancer share
// them and can rotate them (docs/samples.md): ELICIT_STATE_SECRET (base64url, 43 characters, as
// elicit::state_key::to_text() writes it) under ELICIT_STATE_KEY_ID (default "k1"); a second
// key ELICIT_STATE_SECRET_NEXT under ELICIT_STATE_KEY_ID_NEXT (default "k2"); and
// ELICIT_STATE_SEAL_WITH, the id of the key that seals (default: the first). Without a secret,
// a key is generated for this process alone.
#include "transport.hpp"

#include <elicit/elicit.hpp>
#include <elicit/state.hpp>

#include <array>
#include <chrono>
#include <cstdlib>
#include <iostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

using mcp::json;

// ---- The forms -----------------------------------------------------------------------------------

struct UserName { std::string name; };
struct FavouriteColor { std::string color; };
struct Confirmation { bool ok; };
struct PromptContext { std::string context; };

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
struct MessageArgument { elicit::field<std::string, elicit::description<"The message to show the user">> message; };

// ---- The sealed request states (2026-07-28) ------------------------------------------------------

// A state opens only for the server, caller, method, tool or prompt and arguments it was sealed
// for (its binding), so a state need not repeat them.
struct ConfirmAsked { int round; };
struct MultiRound { std::string name; int step; };
struct ThreeInputs { int asked; };

constexpr const char* server_name = "elicit-sample-server";  // the states' audience

// The keys, one ring for the process: filled in main() from the environment, read-only after.
elicit::key_ring ring;

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

// Fails the request with the one error a client is told about a state that did not open; why
// it did not goes to the log only.
[[noreturn]] void invalid_state(const mcp::call& c, std::string_view why) {
  std::cerr << "mcp_server: " << c.method() << " " << c.target() << ": requestState refused: " << why << "\n";
  throw mcp::rpc_error::from_message(elicit::invalid_state_error(nullptr));
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

// The text a tool answers for a form that was not accepted.
template <class Form>
std::string not_accepted(const elicit::response<Form>& r) {
  switch (r.outcome()) {
    case elicit::outcome::declined: return "The user declined.";
    case elicit::outcome::cancelled: return "The user cancelled.";
    default: return "The answer was not valid: " + fmt::format("{}", r.violations());
  }
}

std::string summary(elicit::action a) {
  return a == elicit::action::accept ? "accept" : a == elicit::action::decline ? "decline" : "cancel";
}

template <class Form>
std::string described(const elicit::response<Form>& r) {
  if (r.outcome() == elicit::outcome::invalid) return "action=accept, invalid: " + fmt::format("{}", r.violations());
  return "action=" + summary(r.action()) + ", content=" + (r.accepted() ? elicit::to_content(*r).dump() : "{}");
}

const json sampling_question = {
    {"method", "sampling/createMessage"},
    {"params", {{"messages", json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", "What is the capital of France?"}}}}})},
                {"maxTokens", 100}}}};
const json greeting_request = {
    {"method", "sampling/createMessage"},
    {"params", {{"messages", json::array({{{"role", "user"}, {"content", {{"type", "text"}, {"text", "Generate a greeting"}}}}})},
                {"maxTokens", 50}}}};
const json roots_request = {{"method", "roots/list"}, {"params", json::object()}};

std::string sampled_text(const json& answer) {
  if (!answer.is_object() || !answer.contains("content") || !answer["content"].is_object())
    throw mcp::rpc_error(-32602, "Invalid params: the sampling answer has no content");
  return answer["content"].value("text", "");
}

std::string first_root(const json& answer) {
  if (!answer.is_object() || !answer.contains("roots") || !answer["roots"].is_array())
    throw mcp::rpc_error(-32602, "Invalid params: the roots answer has no roots");
  return answer["roots"].empty() ? "(none)" : answer["roots"][0].value("uri", "");
}

// ---- The handlers ----------------------------------------------------------------------------------

// 2026-07-28: asks "What is your name?" until it has an answer; needs no state.
json greet(const mcp::call& c) {
  const auto name = responses_of(c).get<UserName>("user_name");
  switch (name.outcome()) {
    case elicit::outcome::accepted: return mcp::text_result("Hello, " + name->name + "!");
    case elicit::outcome::missing:
      return elicit::input_required{c.modes()}.ask<UserName>("user_name", "What is your name?").result();
    case elicit::outcome::invalid:
      throw mcp::rpc_error::from_message(elicit::invalid_params_error(nullptr, name.violations(), "user_name"));
    default: return mcp::text_result(not_accepted(name));
  }
}

// 2026-07-28: one confirmation, with a sealed state that must come back unchanged.
json confirm_with_state(const mcp::call& c) {
  const elicit::input_responses answers = responses_of(c);
  if (!answers.is_retry())
    return elicit::input_required{c.modes()}
        .ask<Confirmation>("confirm", "Please confirm")
        .state(seal(ConfirmAsked{1}, c))
        .result();
  open_state<ConfirmAsked>(c, answers);  // sealed for this tool, caller and arguments, or an error
  const auto ok = answers.get<Confirmation>("confirm");
  if (ok.outcome() == elicit::outcome::invalid)
    throw mcp::rpc_error::from_message(elicit::invalid_params_error(nullptr, ok.violations(), "confirm"));
  if (!ok.accepted()) return mcp::text_result(not_accepted(ok));
  return mcp::text_result(std::string("state-ok: confirmed ") + (ok->ok ? "yes" : "no"));
}

// 2026-07-28: two rounds of questions; the name of round 1 travels in the state of round 2.
json multi_round(const mcp::call& c) {
  const elicit::input_responses answers = responses_of(c);
  if (!answers.is_retry())
    return elicit::input_required{c.modes()}
        .ask<UserName>("step1", "Step 1: What is your name?")
        .state(seal(MultiRound{"", 1}, c))
        .result();
  const MultiRound progress = open_state<MultiRound>(c, answers);
  if (progress.step == 1) {
    const auto name = answers.get<UserName>("step1");
    if (!name.accepted()) return mcp::text_result(not_accepted(name));
    return elicit::input_required{c.modes()}
        .ask<FavouriteColor>("step2", "Step 2: What is your favorite color?")
        .state(seal(MultiRound{name->name, 2}, c))
        .result();
  }
  const auto color = answers.get<FavouriteColor>("step2");
  if (!color.accepted()) return mcp::text_result(not_accepted(color));
  return mcp::text_result(progress.name + " likes " + color->color + ".");
}

// 2026-07-28: a form, a sampling request and a roots request at once, each only if declared.
json three_inputs(const mcp::call& c) {
  const elicit::input_responses answers = responses_of(c);
  if (!answers.is_retry()) {
    elicit::input_required ask{c.modes()};
    if (c.modes().form) ask.ask<UserName>("user_name", "What is your name?");
    if (c.declares("sampling")) ask.request("greeting", greeting_request);
    if (c.declares("roots")) ask.request("client_roots", roots_request);
    return ask.state(seal(ThreeInputs{3}, c)).result();
  }
  open_state<ThreeInputs>(c, answers);
  std::string text;
  if (const auto name = answers.get<UserName>("user_name"); name.accepted()) text += "Name: " + name->name + ". ";
  if (const json g = c.raw_response("greeting"); !g.is_null()) text += "Greeting: " + sampled_text(g) + ". ";
  if (const json r = c.raw_response("client_roots"); !r.is_null()) text += "Root: " + first_root(r) + ".";
  return mcp::text_result(text);
}

// 2025-11-25: asks the client directly, on the call's stream.
template <class Form>
json ask_and_report(const mcp::call& c, std::string_view message, const std::string& prefix) {
  if (!c.modes().form) return mcp::text_result("This tool needs a client with form elicitation.", true);
  return mcp::text_result(prefix + described(c.ask<Form>(message)));
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

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: mcp_server PORT\n";
    return 2;
  }
  try {
    ring_from_environment();
  } catch (const std::exception& e) {
    std::cerr << "mcp_server: cannot set up the state keys: " << e.what() << "\n";
    return 2;
  }
  mcp::server server(server_name, "0.1.0");
  const json no_arguments = {{"type", "object"}, {"properties", json::object()}};

  // 2025-11-25: elicitation/create on the stream of the pending call.
  server.tool("test_elicitation", "Asks the user for a username and an e-mail address.",
              elicit::schema<MessageArgument>(), [](const mcp::call& c) {
                return ask_and_report<UserInfo>(c, c.arguments().value("message", "Please provide your information"),
                                                "User response: ");
              });
  server.tool("test_elicitation_sep1034_defaults", "Asks a form with a default on every primitive type.", no_arguments,
              [](const mcp::call& c) {
                return ask_and_report<WithDefaults>(c, "Please review your profile", "Elicitation completed: ");
              });
  server.tool("test_elicitation_sep1330_enums", "Asks a form with the five shapes of a choice.", no_arguments,
              [](const mcp::call& c) {
                return ask_and_report<EnumShapes>(c, "Please make your choices", "Elicitation completed: ");
              });

  // 2026-07-28: InputRequiredResult and retries.
  server.tool("test_input_required_result_elicitation", "Asks the user's name, then greets them.", no_arguments, greet);
  server.tool("test_input_required_result_request_state", "Asks for a confirmation, with a sealed request state.",
              no_arguments, confirm_with_state);
  server.tool("test_input_required_result_tampered_state", "Asks for a confirmation; refuses an altered state.",
              no_arguments, confirm_with_state);
  server.tool("test_input_required_result_multi_round", "Asks a name, then a favourite color.", no_arguments, multi_round);
  server.tool("test_input_required_result_multiple_inputs", "Asks a form, a sampling and the roots at once.",
              no_arguments, three_inputs);
  server.tool("test_input_required_result_capabilities", "Asks only what the client declared it can answer.",
              no_arguments, three_inputs);
  server.tool("test_input_required_result_sampling", "Asks the client's model a question.", no_arguments,
              [](const mcp::call& c) {
                const json answer = c.raw_response("capital_question");
                if (answer.is_null())
                  return elicit::input_required{}.request("capital_question", sampling_question).result();
                return mcp::text_result("The model says: " + sampled_text(answer));
              });
  server.tool("test_input_required_result_list_roots", "Asks the client for its roots.", no_arguments,
              [](const mcp::call& c) {
                const json answer = c.raw_response("client_roots");
                if (answer.is_null()) return elicit::input_required{}.request("client_roots", roots_request).result();
                return mcp::text_result("The first root is " + first_root(answer));
              });
  server.prompt("test_input_required_result_prompt", "A prompt that asks for its context first.",
                [](const mcp::call& c) {
                  const auto context = responses_of(c).get<PromptContext>("user_context");
                  if (context.outcome() == elicit::outcome::missing)
                    return elicit::input_required{c.modes()}
                        .ask<PromptContext>("user_context", "What context should the prompt use?")
                        .result();
                  if (!context.accepted()) return mcp::prompt_result("No context", not_accepted(context));
                  return mcp::prompt_result("A prompt with context", "Use this context: " + context->context);
                });

  server.listen(std::atoi(argv[1]));
}
