// The driver of a tool written once (<elicit/state/tool.hpp>) at 2026-07-28: tool_round, one
// request of the tool, its answers so far in a sealed requestState (<elicit/state/state.hpp>),
// and round_result, what the request gives. CMake target elicit::state.
//
//   elicit::round_result<std::string> round = elicit::tool_round(book(carrier), params, ring, binding);
//   if (!round.done()) return round.input_required();   // the InputRequiredResult of this round
//   return text_result(round.value());
#pragma once

#include <elicit/protocol/protocol.hpp>
#include <elicit/state/state.hpp>
#include <elicit/state/tool.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace elicit {

// What one request of a tool at 2026-07-28 gives: the tool's value, when it has every answer it
// needs, or the InputRequiredResult of the next round.
template <class R>
class round_result {
 public:
  explicit round_result(R value) : value_(std::move(value)) {}
  round_result(nlohmann::ordered_json input_required, std::size_t round)
      : input_required_(std::move(input_required)), round_(round) {}

  // True when the tool returned: value() is what it returned.
  [[nodiscard]] bool done() const noexcept { return value_.has_value(); }
  // Throws std::logic_error when the tool still waits for answers.
  [[nodiscard]] R& value() & { return checked(); }
  [[nodiscard]] R&& value() && { return std::move(checked()); }
  // {"resultType":"input_required","inputRequests":{...},"requestState":"..."}: the answer to
  // this request. Throws std::logic_error when done().
  [[nodiscard]] const nlohmann::ordered_json& input_required() const {
    if (done()) throw std::logic_error("elicit::round_result::input_required: the tool is done; read value()");
    return input_required_;
  }
  // The number of this round's InputRequiredResult in the call, from 1; 0 when done().
  [[nodiscard]] std::size_t round() const noexcept { return round_; }

 private:
  R& checked() {
    if (!done()) throw std::logic_error("elicit::round_result::value: the tool still waits for answers");
    return *value_;
  }
  std::optional<R> value_;
  nlohmann::ordered_json input_required_;
  std::size_t round_ = 0;
};

namespace detail {

// The sealed state of a tool between the rounds of 2026-07-28: what it asked last, and every
// answer given in the call so far, pinned to its question. The JSON is written ASCII-only, so
// the text fields meet the state's text policy whatever the answers hold.
struct tool_state {
  int round;            // the InputRequiredResults sent so far in this call
  std::string asked;    // ["key", ...]: the questions of the last round
  std::string answers;  // [["key", "digest", [ElicitResult, ...]], ...], in the order asked
};

struct recorded_answers {
  std::string key;
  std::string digest;
  std::vector<nlohmann::json> answers;  // as the client sent them, in order
};

inline std::string ascii_json(const nlohmann::json& j) {
  return j.dump(-1, ' ', true, nlohmann::json::error_handler_t::replace);
}

// The recorded answers and the keys asked last, read back; false when they do not read as the
// shape this driver writes.
inline bool read_state(const tool_state& s, std::vector<recorded_answers>& records, std::vector<std::string>& asked) {
  const auto keys = nlohmann::json::parse(s.asked, nullptr, false);
  const auto list = nlohmann::json::parse(s.answers, nullptr, false);
  if (!keys.is_array() || !list.is_array() || s.round < 1) return false;
  for (const auto& k : keys) {
    if (!k.is_string()) return false;
    asked.push_back(k.get<std::string>());
  }
  for (const auto& r : list) {
    if (!r.is_array() || r.size() != 3 || !r[0].is_string() || !r[1].is_string() || !r[2].is_array()) return false;
    records.push_back({r[0].get<std::string>(), r[1].get<std::string>(), r[2].get<std::vector<nlohmann::json>>()});
  }
  return true;
}

inline tool_state write_state(int round, const std::vector<asked_question*>& pending,
                              const std::vector<recorded_answers>& records) {
  nlohmann::json keys = nlohmann::json::array();
  for (const asked_question* q : pending) keys.push_back(q->key());
  nlohmann::json list = nlohmann::json::array();
  for (const recorded_answers& r : records) list.push_back({r.key, r.digest, r.answers});
  return {round, ascii_json(keys), ascii_json(list)};
}

// Where a replay stopped: every question still open (empty when the tool returned) and the
// answers kept for the questions it asked, in the order asked. The questions live in the tool's
// frame: valid while the tool lives and is not resumed.
struct replay_step {
  std::vector<asked_question*> pending;
  std::vector<recorded_answers> kept;
};

// Runs `t` from the start, each question fed the answers `records` hold for it (pinned by its
// digest: a question whose words changed starts afresh) and, for the questions it asks at once,
// the one `first(key)` gives (or null). Stops where questions are open, or when the tool returns.
// Throws what the tool throws, std::logic_error for a key asked twice, std::bad_alloc.
template <class R, class First>
replay_step replay(tool<R>& t, std::vector<recorded_answers>& records, const ask_options& per_question,
                   const First& first) {
  using access = tool_access;
  replay_step step;
  std::vector<std::string> keys;
  bool at_once = true;
  while (!access::resume(t)) {
    for (asked_question* q : access::waiting(t)) {
      note_key(keys, q->key());
      recorded_answers record{q->key(), q->digest(), {}};
      q->begin(per_question);
      const auto old = std::find_if(records.begin(), records.end(), [&](const auto& r) { return r.key == q->key(); });
      if (old != records.end() && old->digest == record.digest) record.answers = std::move(old->answers);
      if (const nlohmann::json* given = at_once ? first(q->key()) : nullptr) record.answers.push_back(*given);
      for (const nlohmann::json& answer : record.answers) {
        if (q->done()) break;
        q->take(answer);
      }
      if (!q->done()) step.pending.push_back(q);
      step.kept.push_back(std::move(record));
    }
    at_once = false;
    if (!step.pending.empty()) return step;
  }
  return step;
}

// The answers would not fit the bound on what a tool carries between rounds.
inline tool_error state_too_large(std::size_t size, std::size_t bound) {
  return tool_error(tool_failure::state_too_large, -32602,
                    message("The answers given are too large for this tool to carry between rounds (", size,
                            " bytes, at most ", bound, ")."),
                    message("elicit::tool: the recorded answers are ", size,
                            " bytes of JSON, more than tool_options::max_state_bytes (", bound,
                            "): give the forms' text fields a max_length, or ask fewer questions"));
}

// What is wrong with the shape of a 2026-07-28 retry's params, or nullptr: inputResponses that
// is no object (null included: it is no first call either) or a requestState that is no text.
// Throws only std::bad_alloc (a lookup by a key of text makes a string of it).
inline const char* misshapen_retry(const nlohmann::json& params) {
  if (!params.is_object()) return nullptr;
  if (const auto r = params.find("inputResponses"); r != params.end() && !r->is_object())
    return "inputResponses must be an object";
  if (const auto s = params.find("requestState"); s != params.end() && !s->is_string())
    return "requestState must be a string";
  return nullptr;
}

// What a 2026-07-28 request of a tool brings: the rounds asked so far, and the answers recorded in
// its state with those of this retry added to the questions of the last round (a first call:
// none). `stateless`: a retry without a state, whose answers answer the first round's questions
// (answers_without_state). Throws as tool_round does for params and states it refuses.
struct retry_answers {
  int round = 0;
  bool stateless = false;
  std::vector<recorded_answers> records;
};

inline retry_answers read_retry(const input_responses& answers, const nlohmann::json& request_params,
                                const key_ring& ring, const state_binding& binding, const tool_options& options) {
  if (const auto& refused = answers.refused())
    throw tool_error(tool_failure::invalid_params, -32602, refused->message,
                     message("elicit::tool: the retry's params were refused unread: ", refused->message));
  if (const char* misshapen = misshapen_retry(request_params))
    throw tool_error(tool_failure::invalid_params, -32602, message("Invalid params: ", misshapen),
                     message("elicit::tool: the retry's params were refused unread: ", misshapen));
  retry_answers out;
  if (answers.is_retry() && !answers.request_state() && options.answers_without_state) {
    out.stateless = true;
    out.round = 1;  // the first round counts as asked
  } else if (answers.is_retry()) {
    if (!answers.request_state()) throw invalid_state("the retry has no requestState");
    open_options how;
    how.clock_skew = options.clock_skew;
    how.replay = options.replay;
    const opened<tool_state> state = open<tool_state>(*answers.request_state(), ring, binding, how);
    if (!state) throw invalid_state(state.message());
    std::vector<std::string> asked;
    if (!read_state(*state, out.records, asked)) throw invalid_state("the recorded answers in it do not read");
    out.round = state->round;
    for (const std::string& key : asked) {
      const nlohmann::json* given = answers.raw(key);
      const auto it = std::find_if(out.records.begin(), out.records.end(), [&](const auto& r) { return r.key == key; });
      if (given != nullptr && it != out.records.end()) it->answers.push_back(*given);
    }
  }
  return out;
}

}  // namespace detail

// One request of `t` at 2026-07-28: `request_params` are the params of the tools/call (or
// prompts/get, resources/read) as the client sent them, its inputResponses and requestState
// included. A first call runs the tool; a retry opens the state (sealed with `ring` for exactly
// `binding`), adds the answers to the questions of the last round, and runs the tool again from
// the start, each question fed the answers it was given. It returns the tool's value, or the
// InputRequiredResult of every question still open where the tool stopped, with a fresh state.
//
// A missing answer, or an invalid one (while max_attempts allows), is asked again in a new
// round, not an error. An answer under a key the last round did not ask is not read.
//
// A retry with answers and no requestState is refused, unless options.answers_without_state:
// then its answers answer the questions of the first round (the first the tool asks at once).
//
// Throws tool_error: invalid_state (-32602, invalid_state_message) for a retry whose state is
// missing (without answers_without_state) or does not open (altered, expired, replayed with
// options.replay set, sealed for another binding), invalid_params (-32602, "Invalid params:
// inputResponses must be an object", or requestState "must be a string") for params beyond the
// decode limits or of the wrong shape, too_many_rounds when a
// round past max_rounds would be needed, state_too_large when the answers would take more than
// max_state_bytes, missing_capability (-32021, data() naming elicitation's form mode) when the
// request's capabilities declare no form mode;
// std::logic_error for a key asked twice; what the tool throws; form_error; std::bad_alloc.
template <class R>
[[nodiscard]] round_result<R> tool_round(tool<R> t, const nlohmann::json& request_params, const key_ring& ring,
                                         const state_binding& binding, const tool_options& options = {}) {
  using access = detail::tool_access;
  const input_responses answers(request_params, options.ask.decode);
  const detail::retry_answers retry = detail::read_retry(answers, request_params, ring, binding, options);
  int round = retry.round;
  std::vector<detail::recorded_answers> records = retry.records;
  const bool stateless = retry.stateless;

  // The answers of a retry without a state answer the first round's questions alone.
  detail::replay_step step = detail::replay(
      t, records, options.ask, [&](const std::string& key) { return stateless ? answers.raw(key) : nullptr; });
  if (step.pending.empty()) return round_result<R>(access::result(t));

  const std::size_t cap = std::max<std::size_t>(options.max_rounds, 1);
  if (static_cast<std::size_t>(round) >= cap) throw detail::too_many_rounds(cap);
  if (!modes_from_request(request_params).form) throw detail::no_form_mode(step.pending.front()->key());
  input_required out;
  for (detail::asked_question* q : step.pending)
    out.request(q->key(), nlohmann::ordered_json{{"method", "elicitation/create"}, {"params", q->params()}});
  const detail::tool_state next = detail::write_state(round + 1, step.pending, step.kept);
  const std::size_t bound = std::min(options.max_state_bytes, detail::max_state_bytes);
  if (const std::size_t size = to_content(next).dump().size(); size > bound) throw detail::state_too_large(size, bound);
  out.state(seal(next, ring, binding, options.time_to_live));
  step.pending.clear();
  access::destroy(t);  // the suspended frame goes: the next retry runs the tool from the start
  return {out.result(), static_cast<std::size_t>(round) + 1};
}

}  // namespace elicit
