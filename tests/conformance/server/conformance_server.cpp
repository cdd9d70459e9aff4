// The server the official conformance suite's server scenarios run against (tests/conformance):
// the tools and the prompt its elicitation (2025-11-25) and input-required (2026-07-28)
// scenarios call, each a fixture of the suite's, served by the library's envelope and HTTP
// transport as a user's server is (<elicit/server/http/server.hpp>), beside the samples' two
// tools (book_shipment, redeem_voucher) that the SDK, scale and attack tests also call.
// Usage: conformance_server PORT   (serves http://127.0.0.1:PORT/mcp); the environment as
// samples/mcp_server's (samples/server_settings.hpp).
#include "../../../samples/book_shipment.hpp"
#include "../../../samples/mcp_server/redeem_voucher.hpp"
#include "../../../samples/server_settings.hpp"

#include <elicit/elicit.hpp>
#include <elicit/server/detail/failure_response.hpp>  // detail::shown: a client's words quoted back
#include <elicit/server/dispatcher.hpp>
#include <elicit/server/http/server.hpp>
#include <elicit/state/state.hpp>
#include <elicit/state/tool.hpp>

#include <boost/asio/thread_pool.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>
#ifdef __GLIBC__
#include <malloc.h>  // mallopt
#endif

namespace {

using json = nlohmann::ordered_json;
using elicit::era;

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

// ---- The sealed request states of the tools that ask by hand (2026-07-28) --------------------------

// Which of the three questions still wait for an answer (the bits below), and what the answers
// already given said: a retry answers only the questions of the latest round.
struct ThreeInputs {
  int pending;
  std::string so_far;
};
constexpr int ask_name = 1, ask_model = 2, ask_roots = 4;

constexpr const char* server_name = "elicit-sample-server";  // the states' audience
constexpr elicit::json_limits argument_limits{.max_bytes = std::size_t{4} * 1024 * 1024, .max_depth = 64};

// The keys: filled in main() from the key file or the environment.
elicit::key_ring ring;

std::string target_of(const elicit::tool_call& c) {
  const auto name = c.params().find("name");
  return name != c.params().end() && name->is_string() ? name->get<std::string>() : std::string();
}

// What a state of this call is sealed for, and opens for: this server, the caller, the tool and
// the call's arguments.
elicit::state_binding binding_of(const elicit::tool_call& c) {
  return {server_name, c.principal(), "tools/call", target_of(c), elicit::digest_of(c.arguments(), argument_limits)};
}

template <class State>
std::string seal(const State& state, const elicit::tool_call& c) {
  return elicit::seal(state, ring, binding_of(c), std::chrono::minutes(15));
}

// The answers of a retry, or an error when the params are beyond the limits of an answer.
elicit::input_responses responses_of(const elicit::tool_call& c) {
  elicit::input_responses answers{c.params()};
  if (const auto& refused = answers.refused()) throw elicit::rpc_error(-32602, refused->message);
  return answers;
}

// Fails the request with the one error a client is told about a state that did not open; why
// it did not goes to the log only.
[[noreturn]] void invalid_state(const elicit::tool_call& c, std::string_view why) {
  std::cerr << ("conformance_server: tools/call " + target_of(c) + ": requestState refused: " + std::string(why) +
                "\n");
  throw elicit::rpc_error::of(elicit::invalid_state_error(nullptr));
}

template <class State>
State open_state(const elicit::tool_call& c, const elicit::input_responses& answers) {
  if (!answers.request_state()) invalid_state(c, "the retry has no requestState");
  const elicit::opened<State> state = elicit::open<State>(*answers.request_state(), ring, binding_of(c));
  if (!state) invalid_state(c, state.message());
  return *state;
}

// The client capabilities a 2026-07-28 request declares in its _meta.
bool declares(const elicit::tool_call& c, const char* capability) {
  return elicit::declares_capability(c.params(), capability);
}

// A client that did not declare `capability` gets MissingRequiredClientCapabilityError (-32021):
// a server must not send an input request the client cannot answer.
void require(const elicit::tool_call& c, const char* capability) {
  if (!declares(c, capability))
    throw elicit::rpc_error(-32021, std::string("Missing required client capability: ") + capability,
                            {{"requiredCapabilities", {{capability, nlohmann::json::object()}}}});
}

void require_form(const elicit::tool_call& c) {
  if (!c.modes().form)
    throw elicit::rpc_error(-32021, "Missing required client capability: elicitation (form mode)",
                            {{"requiredCapabilities", {{"elicitation", {{"form", nlohmann::json::object()}}}}}});
}

// The client's raw answer under `key` (sampling, roots), or null.
nlohmann::json raw_response(const elicit::tool_call& c, const char* key) {
  const auto r = c.params().find("inputResponses");
  if (r == c.params().end() || !r->is_object() || !r->contains(key)) return nullptr;
  return (*r)[key];
}

json text_result(const std::string& text, bool is_error = false) {
  return elicit::tool_result{text, is_error}.to_json();
}
json prompt_result(const std::string& description, const std::string& text) {
  return elicit::get_prompt_result(elicit::prompt_result{description, text});
}

// ---- One answer to every answer ------------------------------------------------------------------
// A question with no valid answer: a decline or a cancel is the user's choice, a complete result
// saying so; an invalid answer is the one -32602 listing every violation, naming the input key
// at 2026-07-28 only (`key` is empty at 2025-11-25, which has no such word); the client's JSON-RPC
// error is -32603; a question the server stopped waiting for, an error result saying so.
std::string not_given(elicit::outcome o, std::string_view question) {
  return std::string(o == elicit::outcome::declined ? "The user declined to answer \""
                                                    : "The user cancelled the question \"") +
         std::string(question) + "\"; nothing was done.";
}

template <class Form, class Complete>
json unanswered(const elicit::ask_result<Form>& r, std::string_view question, const std::string& key,
                Complete complete) {
  switch (r.outcome()) {
    case elicit::outcome::invalid:
      throw elicit::rpc_error::of(elicit::invalid_params_error(nullptr, r.violations(), key));
    case elicit::outcome::error: throw elicit::rpc_error(-32603, "The client answered the elicitation with an error");
    case elicit::outcome::stopped:
    case elicit::outcome::timed_out: return text_result("The client did not answer in time; nothing was done.", true);
    default: return complete(not_given(r.outcome(), question));
  }
}
json text_reply(const std::string& text) { return text_result(text); }

// The input key an invalid answer's error names: at 2026-07-28 only.
std::string key_named(const elicit::tool_call& c, const char* key) {
  return c.protocol() == era::v2026_07_28 ? key : "";
}

constexpr std::string_view name_question = "What is your name?";
constexpr std::string_view context_question = "What context should the prompt use?";

// ---- The tools and the prompt written once, served at both versions --------------------------------
// The name question, the confirmation, the two rounds and the prompt mean the same in both eras:
// each is one elicit::tool, pushed at 2025-11-25 and one round per request at 2026-07-28 (the
// library's sealed state carries the answers, and refuses an altered one). Each question is built
// first, then awaited: g++-12 mishandles braced arguments in a co_await.

// "What is your name?", then "Hello, NAME!".
elicit::tool<json> greet(std::string key) {
  elicit::question<UserName> asked("user_name", std::string(name_question));
  const auto name = co_await std::move(asked);
  if (!name.accepted()) co_return unanswered(name, name_question, key, text_reply);
  co_return text_result("Hello, " + name->name + "!");
}

// "Please confirm"; "state-ok" once the state it came back with opened.
elicit::tool<json> confirm(std::string key) {
  constexpr std::string_view please = "Please confirm";
  elicit::question<Confirmation> asked("confirm", std::string(please));
  const auto ok = co_await std::move(asked);
  if (!ok.accepted()) co_return unanswered(ok, please, key, text_reply);
  co_return text_result(std::string("state-ok: confirmed ") + (ok->ok ? "yes" : "no"));
}

// Two rounds: a name, then a favourite color.
elicit::tool<json> two_rounds(std::string step1_key, std::string step2_key) {
  constexpr std::string_view step1 = "Step 1: What is your name?", step2 = "Step 2: What is your favorite color?";
  elicit::question<UserName> first("step1", std::string(step1));
  const auto name = co_await std::move(first);
  if (!name.accepted()) co_return unanswered(name, step1, step1_key, text_reply);
  elicit::question<FavouriteColor> second("step2", std::string(step2));
  const auto color = co_await std::move(second);
  if (!color.accepted()) co_return unanswered(color, step2, step2_key, text_reply);
  co_return text_result(name->name + " likes " + color->color + ".");
}

// The prompt: its context first.
elicit::tool<json> with_context(std::string key) {
  elicit::question<PromptContext> asked("user_context", std::string(context_question));
  const auto context = co_await std::move(asked);
  const auto no_context = [](const std::string& text) { return prompt_result("No context", text); };
  if (!context.accepted()) co_return unanswered(context, context_question, key, no_context);
  co_return prompt_result("A prompt with context", "Use this context: " + context->context);
}

// The client's JSON-RPC error to a question, as the caller reads it: -32603 with its message,
// printable and at most 64 characters (it need not be UTF-8).
elicit::rpc_error client_error(const nlohmann::json& error) {
  const auto m = error.find("message");
  const std::string message = error.is_object() && m != error.end() && m->is_string() ? m->get<std::string>() : "";
  return elicit::rpc_error(-32603, "The client answered the elicitation with an error" +
                                       (message.empty() ? std::string() : ": " + elicit::detail::shown(message)));
}

// 2025-11-25 conformance tools report the answer as it came, whatever it was.
template <class Form>
elicit::tool<json> ask_and_report(std::string message, std::string prefix) {
  elicit::question<Form> asked("answer", std::move(message));
  const auto r = co_await std::move(asked);
  const auto action = [&r] {
    const elicit::action a = r.answer().action();
    return a == elicit::action::accept ? "accept" : a == elicit::action::decline ? "decline" : "cancel";
  };
  switch (r.outcome()) {
    case elicit::outcome::error: throw client_error(*r.client_error());
    case elicit::outcome::stopped:
    case elicit::outcome::timed_out: co_return text_result("The client did not answer in time.", true);
    case elicit::outcome::invalid:
      co_return text_result(prefix + "action=accept, invalid: " + fmt::format("{}", r.violations()));
    default:
      co_return text_result(prefix + "action=" + action() +
                            ", content=" + (r.accepted() ? elicit::to_content(*r).dump() : std::string("{}")));
  }
}

// ---- The tools that ask by hand (2026-07-28 alone) -------------------------------------------------

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

// A sampling or roots answer that is not one is invalid params, as an invalid form answer is.
std::string sampled_text(const nlohmann::json& answer) {
  if (!answer.is_object() || !answer.contains("content") || !answer["content"].is_object() ||
      !answer["content"].contains("text") || !answer["content"]["text"].is_string())
    throw elicit::rpc_error(-32602, "Invalid params: the sampling answer has no text content");
  return answer["content"]["text"].get<std::string>();
}

std::string first_root(const nlohmann::json& answer) {
  if (!answer.is_object() || !answer.contains("roots") || !answer["roots"].is_array())
    throw elicit::rpc_error(-32602, "Invalid params: the roots answer has no roots");
  if (answer["roots"].empty()) return "(none)";
  const nlohmann::json& root = answer["roots"][0];
  if (!root.is_object() || !root.contains("uri") || !root["uri"].is_string())
    throw elicit::rpc_error(-32602, "Invalid params: a root has no uri");
  return root["uri"].get<std::string>();
}

// The questions of three_inputs still pending, under a state that remembers them.
json three_questions(const elicit::tool_call& c, const ThreeInputs& state) {
  elicit::input_required ask{c.modes()};
  if (state.pending & ask_name) ask.ask<UserName>("user_name", name_question);
  if (state.pending & ask_model) ask.request("greeting", greeting_request);
  if (state.pending & ask_roots) ask.request("client_roots", roots_request);
  return ask.state(seal(state, c)).result();
}

// A form, a sampling request and a roots request at once, each only if declared; a question left
// unanswered is asked again, with the answers given so far kept in the state.
json three_inputs(const elicit::tool_call& c) {
  const elicit::input_responses answers = responses_of(c);
  if (!answers.is_retry()) {
    const int asked = (c.modes().form ? ask_name : 0) | (declares(c, "sampling") ? ask_model : 0) |
                      (declares(c, "roots") ? ask_roots : 0);
    if (asked == 0) require_form(c);  // nothing this client can answer: name what it could declare
    return three_questions(c, {asked, ""});
  }
  const ThreeInputs state = open_state<ThreeInputs>(c, answers);
  ThreeInputs next{0, state.so_far};
  if (state.pending & ask_name) {
    const auto name = answers.get<UserName>("user_name");
    if (name.outcome() == elicit::outcome::missing) {
      next.pending |= ask_name;
    } else if (name.outcome() == elicit::outcome::invalid) {
      throw elicit::rpc_error::of(elicit::invalid_params_error(nullptr, name.violations(), "user_name"));
    } else {
      next.so_far += name.accepted() ? "Name: " + name->name + ". " : not_given(name.outcome(), name_question) + " ";
    }
  }
  if (state.pending & ask_model) {
    if (const nlohmann::json g = raw_response(c, "greeting"); g.is_null()) next.pending |= ask_model;
    else next.so_far += "Greeting: " + sampled_text(g) + ". ";
  }
  if (state.pending & ask_roots) {
    if (const nlohmann::json r = raw_response(c, "client_roots"); r.is_null()) next.pending |= ask_roots;
    else next.so_far += "Root: " + first_root(r) + ". ";
  }
  if (next.pending != 0) return three_questions(c, next);
  return text_result(next.so_far);
}

// One question to the client's model, asked only of a client that declared sampling.
json ask_the_model(const elicit::tool_call& c) {
  require(c, "sampling");
  const nlohmann::json answer = raw_response(c, "capital_question");
  if (answer.is_null()) return elicit::input_required{}.request("capital_question", sampling_question).result();
  return text_result("The model says: " + sampled_text(answer));
}

// The client's roots, asked only of a client that declared roots.
json ask_the_roots(const elicit::tool_call& c) {
  require(c, "roots");
  const nlohmann::json answer = raw_response(c, "client_roots");
  if (answer.is_null()) return elicit::input_required{}.request("client_roots", roots_request).result();
  return text_result("The first root is " + first_root(answer));
}

const json no_arguments = {{"type", "object"}, {"properties", json::object()}};

// ---- The tasks extension's fixtures (2026-07-28, SEP-2663) ----------------------------------------
// What the suite's tasks-* scenarios call: a tool that never becomes a task, tools that work a
// while as tasks (stopped by tasks/cancel), tools written once whose questions are a task's
// inputRequests, and one that asks a round first and then becomes a task.

struct DeleteConfirmation {
  bool confirm;
};
struct NameAndConfirmation {
  std::string name;
  bool confirm;
};

// Waits `seconds` (0 to 600), or until the task is cancelled: then true.
bool cancelled_within(const elicit::tool_call& c, double seconds) {
  std::mutex m;
  std::condition_variable_any never;
  std::unique_lock lock(m);
  const auto span = std::chrono::duration<double>(std::clamp(seconds, 0.0, 600.0));
  never.wait_for(lock, c.stop_token(), std::chrono::duration_cast<std::chrono::milliseconds>(span),
                 [] { return false; });
  return c.stop_requested();
}

json slow_compute(const elicit::tool_call& c) {
  const json& a = c.arguments();
  const double seconds = a.contains("seconds") && a["seconds"].is_number() ? a["seconds"].get<double>() : 1.0;
  const std::string label = a.contains("label") && a["label"].is_string() ? a["label"].get<std::string>() : "work";
  if (cancelled_within(c, seconds)) throw elicit::rpc_error(-32603, "Cancelled before the computation ended");
  return text_result("Computed " + elicit::detail::shown(label) + ".");
}

elicit::tool<json> confirm_delete(std::string filename) {
  elicit::question<DeleteConfirmation> asked("confirm", "Delete " + filename + "?");
  const auto answer = co_await std::move(asked);
  if (!answer.accepted()) co_return text_result("Kept " + filename + ": the deletion was not confirmed.");
  co_return text_result((answer->confirm ? "Deleted " : "Kept ") + filename + ".");
}

elicit::tool<json> multi_input() {
  elicit::question<NameAndConfirmation> first("first", "The first name, and your confirmation.");
  elicit::question<NameAndConfirmation> second("second", "The second name, and your confirmation.");
  auto both = elicit::together(std::move(first), std::move(second));
  const auto [a, b] = co_await std::move(both);
  if (!a.accepted() || !b.accepted()) co_return text_result("Not both names were given; nothing was done.");
  co_return text_result("Got " + a->name + " and " + b->name + ".");
}

void serve_task_fixtures(elicit::dispatcher& server, const elicit::tool_options& base) {
  auto& tools = server.tools();
  const auto spec = [&](const char* name, const char* description, elicit::task_support task, json schema) {
    elicit::tool_spec s{.name = name, .description = description, .input_schema = std::move(schema)};
    s.only_in = era::v2026_07_28;
    s.options = base;
    s.task = task;
    return s;
  };
  const json name_argument = {{"type", "object"}, {"properties", {{"name", {{"type", "string"}}}}}};
  const json compute_arguments = {
      {"type", "object"},
      {"properties",
       {{"seconds", {{"type", "number"}, {"minimum", 0}, {"maximum", 600}}}, {"label", {{"type", "string"}}}}}};
  const json file_argument = {{"type", "object"}, {"properties", {{"filename", {{"type", "string"}}}}}};
  tools.add(
      spec("greet", "Greets by name, at once (never a task).", elicit::task_support::forbidden, name_argument),
      [](const elicit::tool_call& c) {
        const json& a = c.arguments();
        return text_result(
            "Hello, " + (a.contains("name") && a["name"].is_string() ? a["name"].get<std::string>() : "world") + "!");
      });
  tools.add(spec("slow_compute", "Works `seconds`, as a task when the client takes tasks.",
                 elicit::task_support::optional, compute_arguments),
            slow_compute);
  tools.add(spec("failing_job", "Works a second, then reports a tool error (a task only).",
                 elicit::task_support::required, no_arguments),
            [](const elicit::tool_call& c) {
              if (cancelled_within(c, 1.0)) throw elicit::rpc_error(-32603, "Cancelled");
              return text_result("The job failed: its input was rejected.", true);
            });
  tools.add(spec("protocol_error_job", "Fails with a JSON-RPC error (a task only).", elicit::task_support::required,
                 no_arguments),
            [](const elicit::tool_call&) -> json {
              throw elicit::rpc_error(-32603, "Internal error: the job's worker crashed");
            });
  tools.add(spec("confirm_delete", "Asks to confirm a deletion, as a task when the client takes tasks.",
                 elicit::task_support::optional, file_argument),
            [](const elicit::tool_call& c) {
              const json& a = c.arguments();
              return confirm_delete(
                  a.contains("filename") && a["filename"].is_string() ? a["filename"].get<std::string>() : "the file");
            });
  tools.add(spec("multi_input", "Asks two questions at once, as a task when the client takes tasks.",
                 elicit::task_support::optional, no_arguments),
            [](const elicit::tool_call&) { return multi_input(); });
  // A round of 2026-07-28 first (the name), then a task with the answer.
  elicit::tool_spec with_task = spec("test_tool_with_task", "Asks your name in a round, then greets you as a task.",
                                     elicit::task_support::required, no_arguments);
  with_task.task_when = [](const elicit::tool_call& c) { return c.params().contains("inputResponses"); };
  tools.add(std::move(with_task), [](const elicit::tool_call& c) { return greet(key_named(c, "user_name")); });
}

// ---- Serving them ------------------------------------------------------------------------------------

// A tool or prompt spec: `only` its era (none: both), one attempt per question (an invalid answer
// is the one -32602 listing every violation, as the suite's clients expect), and answers without
// a state answering the first round only where `stateless_first` (the suite's
// missing-input-response and ignore-extra-params send such to the name question).
template <class Spec>
Spec spec_of(Spec spec, std::optional<era> only, const elicit::tool_options& base, int attempts, bool stateless_first) {
  spec.only_in = only;
  spec.options = base;
  spec.options->ask.max_attempts = attempts;
  spec.options->answers_without_state = stateless_first;
  return spec;
}

void serve_fixtures(elicit::dispatcher& server, const elicit::tool_options& base) {
  auto& tools = server.tools();
  const auto v2025 = era::v2025_11_25, v2026 = era::v2026_07_28;
  const auto tool = [&](const char* name, const char* description, std::optional<era> only, int attempts = 1,
                        bool stateless_first = false, json schema = no_arguments) {
    return spec_of(elicit::tool_spec{.name = name, .description = description, .input_schema = std::move(schema)}, only,
                   base, attempts, stateless_first);
  };

  // 2025-11-25 only: elicitation/create on the stream of the pending call.
  tools.add(tool("test_elicitation", "Asks the user for a username and an e-mail address.", v2025, 1, false,
                 json(elicit::schema<MessageArgument>())),
            [](const elicit::tool_call& c) {
              return ask_and_report<UserInfo>(c.arguments().value("message", "Please provide your information"),
                                              "User response: ");
            });
  tools.add(tool("test_elicitation_sep1034_defaults", "Asks a form with a default on every primitive type.", v2025),
            [](const elicit::tool_call&) {
              return ask_and_report<WithDefaults>("Please review your profile", "Elicitation completed: ");
            });
  tools.add(tool("test_elicitation_sep1330_enums", "Asks a form with the five shapes of a choice.", v2025),
            [](const elicit::tool_call&) {
              return ask_and_report<EnumShapes>("Please make your choices", "Elicitation completed: ");
            });

  // Both versions, each written once: the name question (the first tool listed at 2026-07-28,
  // the one a client that tries "the first tool" gets), the confirmation with a state (the
  // tampered-state scenario calls it under its own name), the two rounds.
  const auto greeting = [](const elicit::tool_call& c) { return greet(key_named(c, "user_name")); };
  const auto confirmation = [](const elicit::tool_call& c) { return confirm(key_named(c, "confirm")); };
  tools.add(tool("test_input_required_result_elicitation", "Asks the user's name, then greets them.", {}, 1, true),
            greeting);
  tools.add(
      tool("test_input_required_result_request_state", "Asks for a confirmation, with a sealed request state.", {}),
      confirmation);
  tools.add(tool("test_input_required_result_tampered_state", "Asks for a confirmation; refuses an altered state.", {}),
            confirmation);
  tools.add(tool("test_input_required_result_multi_round", "Asks a name, then a favourite color.", {}),
            [](const elicit::tool_call& c) { return two_rounds(key_named(c, "step1"), key_named(c, "step2")); });

  // 2026-07-28 only: input requests that 2025-11-25 sends otherwise, or not at all.
  tools.add(tool("test_input_required_result_multiple_inputs", "Asks a form, a sampling and the roots at once.", v2026),
            three_inputs);
  tools.add(tool("test_input_required_result_capabilities", "Asks only what the client declared it can answer.", v2026),
            three_inputs);
  tools.add(tool("test_input_required_result_sampling", "Asks the client's model a question.", v2026), ask_the_model);
  tools.add(tool("test_input_required_result_list_roots", "Asks the client for its roots.", v2026), ask_the_roots);
  // The tools the suite's server-stateless scenario probes the stateless rules with (SEP-2575):
  // -32021 for an undeclared capability, no request on a response stream, no log.
  tools.add(
      tool("test_missing_capability", "Asks the client's model a question: needs the sampling capability.", v2026),
      ask_the_model);
  tools.add(tool("test_streaming_elicitation", "Asks the user's name in the result, never as a request on a stream.",
                 v2026, 1, true),
            greeting);
  tools.add(tool("test_logging_tool", "Answers without a log message: this server sends none to clients.", v2026),
            [](const elicit::tool_call&) { return text_result("Done; nothing was logged."); });

  // Both versions: a prompt written once, asking its context first, up to three forms.
  server.prompts().add(spec_of(elicit::prompt_spec{.name = "test_input_required_result_prompt",
                                                   .description = "A prompt that asks for its context first."},
                               {}, base, 3, true),
                       [](const elicit::tool_call& c) { return with_context(key_named(c, "user_context")); });
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: conformance_server PORT\n";
    return 2;
  }
#ifdef __GLIBC__
  mallopt(M_MMAP_THRESHOLD, 256 * 1024);  // as samples/mcp_server: large blocks go back when freed
#endif
  boost::asio::thread_pool blocking(4);
  const char* key_file = std::getenv("ELICIT_KEY_FILE");
  if (key_file != nullptr && *key_file == '\0') key_file = nullptr;
  std::unique_ptr<elicit::replay_guard> replay;
  std::unique_ptr<elicit::task_store> tasks;
  elicit::dispatcher_options served;
  elicit::http_options options;
  bool replay_blocks = false;
  try {
    samples::ring_at_start(ring, key_file, "conformance_server");
    replay = samples::replay_store("conformance_server", replay_blocks);
    tasks = samples::task_store("conformance_server");
    samples::tasks_from_environment(served.tasks);
    options = samples::http_options_from_environment(static_cast<unsigned short>(std::atoi(argv[1])));
  } catch (const std::exception& e) {
    std::cerr << "conformance_server: " << e.what() << "\n";
    return 2;
  }
  if (replay_blocks) options.blocking = blocking.get_executor();
  boost::asio::signal_set hangup(blocking, SIGHUP);
  samples::reload_on_hangup(hangup, ring, key_file, "conformance_server");
  served.tool.replay = replay.get();
  served.tasks.store = tasks.get();  // null: in this process's memory
  elicit::dispatcher server({server_name, "0.1.0"}, ring, served);
  serve_fixtures(server, served.tool);
  serve_task_fixtures(server, served.tool);
  elicit::tool_spec voucher = vouchers::redeem_voucher_spec();
  voucher.options = served.tool;
  voucher.options->answers_without_state = false;
  server.tools().add(std::move(voucher), vouchers::redeem_voucher_call);
  server.tools().add(shipping::book_shipment_spec(), shipping::book_shipment_call);
  elicit::http_server http(server, options);
  boost::asio::signal_set stop(http.context(), SIGINT, SIGTERM);  // ends run(): a clean exit
  stop.async_wait([&http](const boost::system::error_code&, int) { http.stop(); });
  std::cerr << "conformance_server listening on http://127.0.0.1:" << http.port() << "/mcp (" << http.threads()
            << " threads)\n";
  http.run();
  blocking.stop();  // before the server goes: no blocking work is left to answer on it
  blocking.join();
}
