// The driver of a tool written once (<elicit/state/tool.hpp>) at 2025-11-25: tool_loop, the ask
// loop of a whole tool with no I/O, and run_tool, which drives it through a blocking `send`
// (async_run_tool, <elicit/asio/tool.hpp>, drives it from Asio). CMake target elicit::state.
//
//   std::string text = elicit::run_tool(send, book(carrier));
#pragma once

#include <elicit/state/tool.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstddef>
#include <exception>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace elicit {

// The ask loop of a whole tool at 2025-11-25, as a value with no I/O (sans-I/O), as ask_loop
// is for one question: whoever holds it sends params() as an elicitation/create, hands the
// client's response to take(), and does it again until done(); then result() is what the tool
// returned. run_tool (blocking, below) and async_run_tool (<elicit/asio/tool.hpp>) drive it.
//
//   elicit::tool_loop loop(book(carrier));
//   while (!loop.done()) loop.take(send(loop.params()));
//   std::string text = std::move(loop).result();
template <class R>
class tool_loop {
 public:
  // Runs the tool up to its first question. Throws only std::bad_alloc (what the tool throws
  // comes out of result()).
  explicit tool_loop(tool<R> t, const tool_options& options = {}) : tool_(std::move(t)), options_(options) {
    options_.max_rounds = std::max<std::size_t>(options_.max_rounds, 1);
    advance();
  }

  // True once the tool returned or threw, or the call failed (result() says how).
  [[nodiscard]] bool done() const noexcept { return current_ == nullptr; }

  // The params of the elicitation/create to send now: the same each time it is called. Throws
  // std::logic_error when done(), form_error as ask_loop::params does.
  [[nodiscard]] nlohmann::ordered_json params() const {
    if (done()) throw std::logic_error("elicit::tool_loop::params: the tool is done; read result()");
    return current_->params();
  }
  // The key of the question asked now. Throws std::logic_error when done().
  [[nodiscard]] const std::string& key() const {
    if (done()) throw std::logic_error("elicit::tool_loop::key: the tool is done; read result()");
    return current_->key();
  }

  // The client's JSON-RPC response to the last params, as ask_loop::take reads it; then the
  // next question, or the tool's end. Throws std::logic_error when done(), else only
  // std::bad_alloc.
  void take(const nlohmann::json& reply) {
    if (done()) throw std::logic_error("elicit::tool_loop::take: the tool is done; a late reply belongs to no one");
    group_rounds_ = std::max(group_rounds_, current_->attempt());
    current_->take(reply);
    advance();
  }

  // The server stops waiting (the call was cancelled, or no reply came in time): the question
  // asked now, and every one after it, ends with outcome::stopped (or timed_out) and the reason, unsent; the
  // tool runs on to its end with them. Nothing when done(). Throws only std::bad_alloc.
  void stop(stop_reason why) {
    if (done()) return;
    stopped_ = why;
    for (detail::asked_question* q : waiting_) q->stop(why);
    advance();
  }

  // What the tool returned. Throws what the tool threw, tool_error (too_many_rounds) when the
  // cap stopped it, std::logic_error for a key asked twice or when not done(), form_error for a
  // choice field with no choices.
  [[nodiscard]] R result() && {
    if (!done()) throw std::logic_error("elicit::tool_loop::result: the tool is not done; take() the reply first");
    if (failure_) std::rethrow_exception(failure_);
    return detail::tool_access::result(tool_);
  }

  // The rounds asked so far, counted as max_rounds counts them.
  [[nodiscard]] std::size_t rounds() const noexcept { return base_rounds_ + group_rounds_; }

 private:
  using access = detail::tool_access;

  // Finds the next question to send, resuming the tool whenever the questions it waits on are done.
  void advance() {
    try {
      for (;;) {
        for (detail::asked_question* q : waiting_)
          if (!q->done()) {
            if (base_rounds_ + std::max(group_rounds_, q->attempt()) > options_.max_rounds)
              throw detail::too_many_rounds(options_.max_rounds);
            current_ = q;
            return;
          }
        current_ = nullptr;
        base_rounds_ += group_rounds_;
        group_rounds_ = 0;
        waiting_ = {};
        if (access::resume(tool_)) return;
        waiting_ = access::waiting(tool_);
        for (detail::asked_question* q : waiting_) {
          detail::note_key(keys_, q->key());
          q->begin(options_.ask);
          if (stopped_) q->stop(*stopped_);
        }
      }
    } catch (...) {
      failure_ = std::current_exception();
      current_ = nullptr;
      waiting_ = {};
      access::destroy(tool_);
    }
  }

  tool<R> tool_;
  tool_options options_;
  std::span<detail::asked_question* const> waiting_;
  detail::asked_question* current_ = nullptr;
  std::vector<std::string> keys_;
  std::size_t base_rounds_ = 0, group_rounds_ = 0;
  std::optional<stop_reason> stopped_;
  std::exception_ptr failure_;
};

// Runs `t` at 2025-11-25, each question sent through `send` as ask() sends it: `send(params)`
// sends an elicitation/create with these params and returns the client's JSON-RPC response.
// Returns what the tool returned. Throws what `send` throws, and what tool_loop::result throws.
template <class R, class Send>
[[nodiscard]] R run_tool(Send&& send, tool<R> t, const tool_options& options = {}) {
  tool_loop<R> loop(std::move(t), options);
  while (!loop.done()) loop.take(send(loop.params()));
  return std::move(loop).result();
}

}  // namespace elicit
