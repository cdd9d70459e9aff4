// The protocol messages around a form, for MCP 2025-11-25 and 2026-07-28.
//
// 2025-11-25: the server sends `elicitation/create` to the client (form or URL mode) and gets
// an ElicitResult back; URL mode adds an elicitation id, the -32042 URLElicitationRequiredError
// and `notifications/elicitation/complete`.
// 2026-07-28: `tools/call`, `prompts/get` and `resources/read` answer with an
// InputRequiredResult; the client retries the same request with `inputResponses` under the
// same keys and the `requestState` echoed back.
//
// Every builder returns nlohmann::ordered_json, keys in the order the spec and the form give
// them: assigning one to a plain nlohmann::json sorts the keys, and a client then shows the
// form's fields alphabetically. Every message validates against the spec's schema of its
// version (tests/unit/protocol/test_protocol.cpp). Builders throw std::bad_alloc and what each comment says.
//
// The builders that take no form are templates on the JSON type all the same, which only
// nlohmann::ordered_json satisfies (call them without one: url_params(e)), and input_required
// is basic_input_required<nlohmann::ordered_json>: so ordered_json's code is compiled in the
// files that build these messages, not in every file that includes this header (0.6 s of
// g++'s time for `#include <elicit/elicit.hpp>`, docs/internals/performance.md).
#pragma once

#include <elicit/answer/decode.hpp>
#include <elicit/answer/print.hpp>
#include <elicit/answer/violation.hpp>
#include <elicit/detail/message.hpp>
#include <elicit/detail/web_url.hpp>
#include <elicit/form/form.hpp>
#include <elicit/form/limits.hpp>
#include <elicit/form/schema.hpp>
#include <elicit/protocol/capabilities.hpp>
#include <elicit/protocol/errors.hpp>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace elicit {

// ---- Form mode ------------------------------------------------------------------------------

namespace detail {
// The one body of each form-mode message below; the two overloads of each differ only in where
// the requestedSchema comes from: the type's constant (schema<Form>()) or a form<F>'s refinement.
inline nlohmann::ordered_json form_params_of(const nlohmann::ordered_json& schema, std::string_view message) {
  return {{"mode", "form"}, {"message", message}, {"requestedSchema", schema}};
}
inline nlohmann::ordered_json form_request_of(nlohmann::ordered_json params) {
  return {{"method", "elicitation/create"}, {"params", std::move(params)}};
}
inline nlohmann::ordered_json elicitation_request_of(const nlohmann::json& id, nlohmann::ordered_json params) {
  return {{"jsonrpc", "2.0"}, {"id", id}, {"method", "elicitation/create"}, {"params", std::move(params)}};
}
}  // namespace detail

// The params of a form-mode `elicitation/create`: {"mode":"form","message":...,"requestedSchema":...}.
// A form that breaks a rule, or asks for a credential, does not compile: schema<Form>() gives
// the one diagnostic that names the field.
template <class Form>
[[nodiscard]] nlohmann::ordered_json form_params(std::string_view message) {
  return detail::form_params_of(schema<Form>(), message);
}
// The same for a form refined at run time. Throws form_error when an elicit::choice field
// was given no choices.
template <class Form>
[[nodiscard]] nlohmann::ordered_json form_params(const form<Form>& f, std::string_view message) {
  return detail::form_params_of(f.schema(), message);
}

// The request object of an InputRequests map (2026-07-28): {"method":"elicitation/create","params":...}.
template <class Form>
[[nodiscard]] nlohmann::ordered_json form_request(std::string_view message) {
  return detail::form_request_of(form_params<Form>(message));
}
template <class Form>
[[nodiscard]] nlohmann::ordered_json form_request(const form<Form>& f, std::string_view message) {
  return detail::form_request_of(form_params(f, message));
}

// A whole JSON-RPC request from server to client (2025-11-25), with the server's request id.
template <class Form>
[[nodiscard]] nlohmann::ordered_json elicitation_request(const nlohmann::json& id, std::string_view message) {
  return detail::elicitation_request_of(id, form_params<Form>(message));
}
template <class Form>
[[nodiscard]] nlohmann::ordered_json elicitation_request(const nlohmann::json& id, const form<Form>& f,
                                                         std::string_view message) {
  return detail::elicitation_request_of(id, form_params(f, message));
}

// ---- URL mode ---------------------------------------------------------------------------------
// For anything sensitive: the user completes the interaction on a page of the server's, which
// the client opens; nothing typed there passes through the client or the model.

struct url_elicitation {
  std::string url;             // where the user goes: an https: page of the server's
  std::string message;         // why, in words for the user
  std::string elicitation_id;  // 2025-11-25 only: the id the completion notification names
  bool allow_http = false;     // plain http: to any host (a development setup); loopback needs no flag
};

// new_elicitation_id(), in state.hpp (elicit::state, with OpenSSL): a fresh id, 128 random bits.

// The params of a URL-mode `elicitation/create`. With an elicitation id (2025-11-25):
// {"mode":"url","elicitationId":...,"url":...,"message":...}; without one, 2026-07-28's shape.
// The URL must be a web page (detail::web_url_problem): https: with a host, http: only for a
// loopback host or with allow_http, no user name or password before the host; javascript:,
// data:, file: and every other scheme are refused. Throws std::invalid_argument otherwise, its
// text the reason and the URL with control characters escaped.
template <detail::ordered_json_type Json = nlohmann::ordered_json>
[[nodiscard]] Json url_params(const url_elicitation& e) {
  if (const char* problem = detail::web_url_problem(e.url, e.allow_http))
    throw std::invalid_argument(std::string("elicit::url_params: ") + problem + "; got " +
                                detail::quoted_for_log(e.url));
  Json params{{"mode", "url"}};
  if (!e.elicitation_id.empty()) params["elicitationId"] = e.elicitation_id;
  params["url"] = e.url;
  params["message"] = e.message;
  return params;
}

template <detail::ordered_json_type Json = nlohmann::ordered_json>
[[nodiscard]] Json url_request(const url_elicitation& e) {
  return {{"method", "elicitation/create"}, {"params", url_params<Json>(e)}};
}

// JSON-RPC error -32042 (2025-11-25): the request cannot go on until the user completes
// these URL elicitations. Throws std::invalid_argument for an elicitation without an id or
// with a URL url_params refuses.
template <detail::ordered_json_type Json = nlohmann::ordered_json>
[[nodiscard]] Json url_required_error(const nlohmann::json& id, const std::vector<url_elicitation>& elicitations,
                                      std::string_view message = "User interaction required") {
  Json list = Json::array();
  for (const url_elicitation& e : elicitations) {
    if (e.elicitation_id.empty())
      throw std::invalid_argument("elicit::url_required_error: every URL elicitation needs an elicitation_id");
    list.push_back(url_params<Json>(e));
  }
  return {{"jsonrpc", "2.0"},
          {"id", id},
          {"error", {{"code", -32042}, {"message", message}, {"data", {{"elicitations", list}}}}}};
}

// notifications/elicitation/complete (2025-11-25): the user finished the URL elicitation.
template <detail::ordered_json_type Json = nlohmann::ordered_json>
[[nodiscard]] Json elicitation_complete(std::string_view elicitation_id) {
  return {{"jsonrpc", "2.0"},
          {"method", "notifications/elicitation/complete"},
          {"params", {{"elicitationId", elicitation_id}}}};
}

// Thrown when a server would ask in a mode the client did not declare.
class unsupported_mode : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

// ---- 2026-07-28: InputRequiredResult ------------------------------------------------------------

// Builds an InputRequiredResult: forms and URL elicitations under keys of the server's choice,
// other input requests (sampling, roots) as JSON, and the request state.
//
//   auto result = elicit::input_required{modes}
//                     .ask<Address>("address", "Where should the parcel go?")
//                     .state(elicit::seal(progress, ring, binding))   // <elicit/state/state.hpp>
//                     .result();
template <detail::ordered_json_type Json = nlohmann::ordered_json>
class basic_input_required {
 public:
  basic_input_required() = default;  // no check of the client's modes
  explicit basic_input_required(elicitation_modes client) : client_(client), checked_(true) {}

  // Throws unsupported_mode when the client did not declare form mode, std::invalid_argument
  // for an empty or repeated key.
  template <class Form>
  basic_input_required& ask(std::string key, std::string_view message) {
    return ask_form(std::move(key), [&] { return form_request<Form>(message); });
  }
  // The same for a form refined at run time; also throws form_error as form_params does.
  template <class Form>
  basic_input_required& ask(std::string key, const form<Form>& f, std::string_view message) {
    return ask_form(std::move(key), [&] { return form_request(f, message); });
  }

  // Throws unsupported_mode when the client did not declare URL mode, std::invalid_argument for
  // an empty or repeated key or a URL that is not an absolute URI.
  basic_input_required& ask_url(std::string key, url_elicitation e) {
    if (checked_ && !client_.url)
      throw unsupported_mode("elicit: the client did not declare URL-mode elicitation; it cannot be asked \"" + key +
                             "\"");
    e.elicitation_id.clear();  // 2026-07-28 has no elicitation id
    return request(std::move(key), url_request<Json>(e));
  }

  // Any other input request, as {"method":...,"params":...}: sampling/createMessage, roots/list.
  // Throws std::invalid_argument for an empty or repeated key, or a request without "method".
  basic_input_required& request(std::string key, Json input_request) {
    if (key.empty()) throw std::invalid_argument("elicit::input_required: an input request needs a non-empty key");
    if (!input_request.is_object() || !input_request.contains("method"))
      throw std::invalid_argument("elicit::input_required: an input request is an object with a \"method\"");
    if (!requests_.emplace(key, std::move(input_request)).second)
      throw std::invalid_argument("elicit::input_required: the key \"" + key + "\" is used twice");
    order_.push_back(std::move(key));
    return *this;
  }

  basic_input_required& state(std::string request_state) {
    state_ = std::move(request_state);
    return *this;
  }

  // {"resultType":"input_required","inputRequests":{...},"requestState":"..."}. The spec
  // requires at least one of the two: a result with neither is refused (std::logic_error).
  [[nodiscard]] Json result() const {
    if (order_.empty() && !state_)
      throw std::logic_error("elicit::input_required: give at least one input request or a request state");
    Json out{{"resultType", "input_required"}};
    if (!order_.empty()) {
      Json requests = Json::object();
      for (const std::string& key : order_) requests[key] = requests_.at(key);
      out["inputRequests"] = std::move(requests);
    }
    if (state_) out["requestState"] = *state_;
    return out;
  }

 private:
  // Both ask overloads: the client's form mode checked, then the request `build` makes filed.
  // `key` is moved into request(): clang-tidy 14 misses a move in a dependent call.
  template <class Build>
  // NOLINTNEXTLINE(performance-unnecessary-value-param)
  basic_input_required& ask_form(std::string key, Build&& build) {
    if (checked_ && !client_.form)
      throw unsupported_mode("elicit: the client did not declare form-mode elicitation; it cannot be asked \"" + key +
                             "\"");
    return request(std::move(key), std::forward<Build>(build)());
  }

  elicitation_modes client_{};
  bool checked_ = false;
  std::vector<std::string> order_;
  std::map<std::string, Json> requests_;
  std::optional<std::string> state_;
};
using input_required = basic_input_required<>;

// What a request is, read from its params (input_responses::kind()).
enum class request_kind {
  first_call,           // neither inputResponses nor requestState: ask the first round
  retry_with_state,     // a requestState came back as text: open it before trusting any answer
  retry_without_state,  // answers without a state, or a requestState that is no text: a server
                        // that sealed a state refuses this retry (nothing to open)
};
template <>
inline constexpr bool detail::printable_enum<request_kind> = true;  // print.hpp: printed by name

// Reads the retry of a request: `inputResponses` and `requestState` from its params.
//
//   elicit::input_responses answers{params};
//   auto address = answers.get<Address>("address");
//   switch (address.outcome()) { case elicit::outcome::missing: /* ask again */ ... }
//
// The params are checked against the options' limits before anything is copied out of them (two
// levels deeper than one answer may nest: params, inputResponses). Params beyond them are
// refused whole: every get() then gives an invalid answer saying why, and refused() says it too.
class input_responses {
 public:
  // Never throws but std::bad_alloc.
  explicit input_responses(const nlohmann::json& request_params, decode_options options = {}) : options_(options) {
    if (!request_params.is_object()) return;
    if (auto too_big = exceeds(request_params, {options.max_bytes, options.max_depth + 2})) {
      refused_ = std::move(too_big);
      return;
    }
    if (const auto r = request_params.find("inputResponses"); r != request_params.end() && r->is_object())
      responses_ = *r;
    if (const auto s = request_params.find("requestState"); s != request_params.end()) {
      state_sent_ = true;
      if (s->is_string()) state_ = s->get<std::string>();
    }
  }

  // A first call, a retry with its requestState, or a retry without one. Never throws.
  [[nodiscard]] request_kind kind() const noexcept {
    if (state_) return request_kind::retry_with_state;
    if (!responses_.empty() || state_sent_) return request_kind::retry_without_state;
    return request_kind::first_call;
  }
  // True when this is a retry carrying answers or a state (not a first call).
  [[nodiscard]] bool is_retry() const noexcept { return kind() != request_kind::first_call; }
  // The requestState as the client sent it, or empty text when there is none (or it is no
  // string): an empty text never opens (elicit::open refuses it as truncated), so
  // `elicit::open<S>(answers.state(), ring, binding)` is safe on every request. Never throws.
  [[nodiscard]] std::string_view state() const noexcept {
    return state_ ? std::string_view(*state_) : std::string_view();
  }
  [[nodiscard]] bool has(std::string_view key) const { return responses_.contains(key); }
  // The answer under `key` as the client sent it (an ElicitResult), or nullptr: what reask()
  // reads the valid fields from.
  [[nodiscard]] const nlohmann::json* raw(std::string_view key) const {
    const auto it = responses_.find(key);
    return it == responses_.end() ? nullptr : &*it;
  }
  // The requestState when it came as text, else nothing: test it before `*`; state() is the
  // form that cannot be misused.
  [[nodiscard]] const std::optional<std::string>& request_state() const noexcept { return state_; }
  // Why the params were refused unread (keyword "maxDepth" or "maxBytes"), or nothing.
  [[nodiscard]] const std::optional<violation>& refused() const noexcept { return refused_; }

  // The answer under `key`, decoded: accepted, invalid, declined, cancelled, or missing. The
  // violations' pointers are inside the answer's content ("/postcode").
  template <class Form>
  [[nodiscard]] response<Form> get(std::string_view key) const {
    return answer<Form>(key, [this](const nlohmann::json& a) { return decode<Form>(a, options_); });
  }
  // The answer under `key` to a form refined at run time, checked against what `f` offers.
  // For 2026-07-28 the server keeps no memory between rounds: it makes the same form again from
  // the same data when the retry arrives (docs/forms.md, "Run-time data"). Throws form_error as
  // form<Form>::decode does.
  template <class Form>
  [[nodiscard]] response<Form> get(std::string_view key, const form<Form>& f) const {
    return answer<Form>(key, [this, &f](const nlohmann::json& a) { return f.decode(a, options_); });
  }

 private:
  // Both get overloads: refused params, a missing key, or the answer `read` decodes.
  template <class Form, class Read>
  response<Form> answer(std::string_view key, Read&& read) const {
    if (refused_) return response<Form>(action::cancel, std::nullopt, violation_list({*refused_}));
    const auto it = responses_.find(key);
    if (it == responses_.end()) return response<Form>::missing(absent(key));
    return std::forward<Read>(read)(*it);
  }

  static violation absent(std::string_view key) {
    return {detail::message("/inputResponses/", detail::pointer_token(key)), "required",
            detail::message("There is no answer for \"", key, "\".")};
  }

  nlohmann::json responses_ = nlohmann::json::object();
  std::optional<std::string> state_;
  bool state_sent_ = false;  // a requestState member came, text or not
  decode_options options_;
  std::optional<violation> refused_;
};

}  // namespace elicit
