// What an HTTP server of ours reads at start, as a deployed server would: its limits, its state
// keys and its replay store, from the environment (a test shortens the limits), with a clear
// message for anything malformed. Used by samples/mcp_server and the conformance suite's server.
//
// Limits, each a whole number: ELICIT_SESSION_IDLE_SECONDS (1800), ELICIT_ANSWER_TIMEOUT_SECONDS
// (60), ELICIT_REQUEST_TIMEOUT_SECONDS (3), ELICIT_IDLE_TIMEOUT_SECONDS (30): 1 to 86400;
// ELICIT_THREADS (0: the core count), ELICIT_MAX_SESSIONS (16384), ELICIT_MAX_SESSIONS_PER_CLIENT
// (1024), ELICIT_SESSION_RATE and ELICIT_SESSION_BURST (2000), ELICIT_WAITING_MEMORY_MB (256: the
// bytes waiting questions may hold, each counted at 16 KiB or its request and question),
// ELICIT_WAITING_MEMORY_PER_CLIENT_MB (a quarter of it), ELICIT_MAX_WAITING (the budget over
// 16 KiB), ELICIT_MAX_WAITING_PER_CLIENT (1024), ELICIT_MAX_WAITING_PER_SESSION (8),
// ELICIT_MAX_CONNECTIONS (32768, lowered to what the open-file limit allows),
// ELICIT_MAX_CONNECTIONS_PER_CLIENT (an eighth of that), ELICIT_PROGRESS_INTERVAL_MS (15000; 0
// sends no progress); ELICIT_TRUSTED_PROXIES: the peer addresses (comma-separated) whose
// X-Forwarded-For names the client that the per-client bounds count.
//
// Keys: a key file named by ELICIT_KEY_FILE (<elicit/state/key_file.hpp>'s format), read again on
// SIGHUP (checked whole first: a bad file keeps the ring in use). Or from the environment:
// ELICIT_STATE_SECRET (base64url, as elicit::state_key::to_text() writes it) under
// ELICIT_STATE_KEY_ID (default "k1"); a second key ELICIT_STATE_SECRET_NEXT under
// ELICIT_STATE_KEY_ID_NEXT ("k2"); ELICIT_STATE_SEAL_WITH, the id of the key that seals (default:
// the first). Without either, a key generated for this process alone.
//
// Replay store (states that open once) and task store (the tasks extension): Redis at
// ELICIT_REDIS_URL (redis://HOST:PORT), shared by every instance, or this process's memory
// (ELICIT_REPLAY_CAPACITY states, 100000; 100000 tasks).
#pragma once

#include "environment.hpp"

#include <elicit/server/http/options.hpp>
#include <elicit/server/task_store.hpp>
#include <elicit/state/key_file.hpp>
#include <elicit/state/replay_guard.hpp>
#include <elicit/state/state.hpp>
#ifdef ELICIT_SAMPLE_REDIS
#include <elicit/redis/replay_guard.hpp>
#include <elicit/redis/task_store.hpp>
#endif

#include <boost/asio/ip/address.hpp>
#include <boost/asio/signal_set.hpp>

#include <csignal>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

namespace samples {

// ELICIT_TRUSTED_PROXIES, each address as the transport compares it. Throws
// std::invalid_argument for an item that is not an IP address.
inline std::vector<std::string> trusted_proxies_from_environment() {
  std::vector<std::string> proxies;
  const char* text = std::getenv("ELICIT_TRUSTED_PROXIES");
  for (std::string_view rest = text != nullptr ? text : ""; !rest.empty();) {
    const std::size_t comma = rest.find(',');
    const std::string item(rest.substr(0, comma));
    rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    boost::system::error_code ec;
    const auto address = boost::asio::ip::make_address(item, ec);
    if (ec)
      throw std::invalid_argument("ELICIT_TRUSTED_PROXIES must be IP addresses, comma-separated; '" + item +
                                  "' is not one");
    proxies.push_back(address.to_string());
  }
  return proxies;
}

// The HTTP options on `port`, the limits from the environment. Throws std::invalid_argument.
inline elicit::http_options http_options_from_environment(unsigned short port) {
  elicit::http_options o;
  o.port = port;
  const auto seconds = [](const char* name, std::chrono::seconds fallback) {
    return std::chrono::seconds(number(name, static_cast<std::size_t>(fallback.count()), 1, 86400));
  };
  constexpr std::size_t most = 10'000'000;
  o.session_idle = seconds("ELICIT_SESSION_IDLE_SECONDS", o.session_idle);
  o.answer_timeout = seconds("ELICIT_ANSWER_TIMEOUT_SECONDS", o.answer_timeout);
  o.request_timeout = seconds("ELICIT_REQUEST_TIMEOUT_SECONDS", o.request_timeout);
  o.idle_timeout = seconds("ELICIT_IDLE_TIMEOUT_SECONDS", o.idle_timeout);
  o.threads = number("ELICIT_THREADS", o.threads, 0, 1024);
  o.max_connections = number("ELICIT_MAX_CONNECTIONS", o.max_connections, 1, most);
  o.max_connections_per_client = number("ELICIT_MAX_CONNECTIONS_PER_CLIENT", o.max_connections_per_client, 1, most);
  o.max_sessions = number("ELICIT_MAX_SESSIONS", o.max_sessions, 1, most);
  o.max_sessions_per_client = number("ELICIT_MAX_SESSIONS_PER_CLIENT", o.max_sessions_per_client, 1, most);
  o.session_rate = number("ELICIT_SESSION_RATE", o.session_rate, 1, most);
  o.session_burst = number("ELICIT_SESSION_BURST", o.session_burst, 1, most);
  o.waiting_memory = number("ELICIT_WAITING_MEMORY_MB", o.waiting_memory >> 20, 1, 1 << 20) << 20;
  o.waiting_memory_per_client = number("ELICIT_WAITING_MEMORY_PER_CLIENT_MB", o.waiting_memory >> 22, 1, 1 << 20) << 20;
  o.max_waiting = number("ELICIT_MAX_WAITING", o.waiting_memory / elicit::http_options::bytes_per_waiting, 1, most);
  o.max_waiting_per_client = number("ELICIT_MAX_WAITING_PER_CLIENT", o.max_waiting_per_client, 1, most);
  o.max_waiting_per_session = number("ELICIT_MAX_WAITING_PER_SESSION", o.max_waiting_per_session, 1, most);
  o.progress_interval = progress_interval_from_environment(o.progress_interval);
  o.trusted_proxies = trusted_proxies_from_environment();
  return o;
}

// The ring from ELICIT_STATE_SECRET and the variables beside it. Throws std::invalid_argument
// for a malformed or weak secret, a bad key id, or ELICIT_STATE_SEAL_WITH naming no key.
inline void ring_from_environment(elicit::key_ring& ring, std::string_view program) {
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
    std::cerr << program << ": ELICIT_STATE_SECRET is not set: sealing with a key generated for this process only "
              << "(its states open in no other instance, and not after a restart)\n";
  }
  if (!next.empty()) ring.add(next_id, elicit::state_key::from_text(next));
  if (const std::string seal_with = env("ELICIT_STATE_SEAL_WITH"); !seal_with.empty()) ring.seal_with(seal_with);
}

// The ring at start: from `key_file` (null: none), or from the environment. Throws
// elicit::key_file_error for a bad file, std::invalid_argument as ring_from_environment, or when
// both are given (which would win?).
inline void ring_at_start(elicit::key_ring& ring, const char* key_file, std::string_view program) {
  if (key_file == nullptr) {
    ring_from_environment(ring, program);
  } else {
    for (const char* name : {"ELICIT_STATE_SECRET", "ELICIT_STATE_SECRET_NEXT", "ELICIT_STATE_SEAL_WITH"})
      if (const char* value = std::getenv(name); value != nullptr && *value != '\0')
        throw std::invalid_argument(std::string("ELICIT_KEY_FILE and ") + name + " are both set: keep one");
    const elicit::loaded_key_file file = elicit::read_key_file(key_file);
    ring.replace_with(file.ring);
    std::cerr << program << ": key file " << key_file << ": " << file.summary() << "\n";
  }
  std::cerr << program << ": sealing requestState with key \"" << ring.sealing_id() << "\"\n";
}

// SIGHUP: the key file read again (on the signal set's executor, a pool kept for blocking work),
// then the wait re-armed. Without a key file there is nothing to read: said, and the process
// goes on (SIGHUP's default would end it).
inline void reload_on_hangup(boost::asio::signal_set& hangup, elicit::key_ring& ring, const char* key_file,
                             std::string program) {
  hangup.async_wait([&hangup, &ring, key_file, program](const boost::system::error_code& ec, int) {
    if (ec) return;
    std::string line;
    if (key_file == nullptr) {
      line = "SIGHUP: no ELICIT_KEY_FILE, nothing to reload";
    } else {
      try {
        line = "key file reloaded: " + elicit::reload_key_file(ring, key_file).summary();
      } catch (const std::exception& e) {  // key_file_error, or OpenSSL failing: the ring in use stays
        line = std::string("key file refused, ring kept: ") + e.what();
      }
    }
    std::cerr << (program + ": " + line + "\n") << std::flush;
    reload_on_hangup(hangup, ring, key_file, program);
  });
}

// The replay store: Redis at ELICIT_REDIS_URL (its keys under "PROGRAM:replay:"), or memory.
// Sets `blocks` when its calls block (Redis). Throws std::invalid_argument for a URL that is not
// redis://HOST:PORT, or when this build has no Redis (no hiredis).
inline std::unique_ptr<elicit::replay_guard> replay_store(const std::string& program, bool& blocks) {
  blocks = false;
  const char* url = std::getenv("ELICIT_REDIS_URL");
  if (url == nullptr || *url == '\0') {
    std::cerr << program << ": replay store: in memory (this process only; set ELICIT_REDIS_URL to share one)\n";
    return std::make_unique<elicit::memory_replay_guard>(number("ELICIT_REPLAY_CAPACITY", 100'000, 1, 10'000'000));
  }
#ifdef ELICIT_SAMPLE_REDIS
  auto redis = std::make_unique<elicit::redis_replay_guard>(elicit::redis_options::from_url(url, program + ":replay:"));
  blocks = true;
  try {
    redis->ping();
    std::cerr << program << ": replay store: Redis at " << redis->options().host << ":" << redis->options().port
              << "\n";
  } catch (const elicit::replay_store_error& e) {  // starts anyway: states fail closed until it answers
    std::cerr << program << ": replay store: " << e.what() << " (states are refused until it answers)\n";
  }
  return redis;
#else
  throw std::invalid_argument("ELICIT_REDIS_URL is set, but this " + program + " was built without hiredis");
#endif
}

// How tasks run: ELICIT_TASK_LEASE_MS (600000: how long a step may run on the instance that took it
// before another reports the task failed), ELICIT_TASK_TTL_SECONDS (3600: how long a task is kept).
inline void tasks_from_environment(elicit::task_options& o) {
  o.lease = std::chrono::milliseconds(
      number("ELICIT_TASK_LEASE_MS", static_cast<std::size_t>(o.lease.count()), 100, 86'400'000));
  o.time_to_live = std::chrono::seconds(
      number("ELICIT_TASK_TTL_SECONDS", static_cast<std::size_t>(o.time_to_live.count() / 1000), 1, 604'800));
}

// The task store of the tasks extension: Redis at ELICIT_REDIS_URL (its keys under "PROGRAM:"),
// shared by every instance, or null: the dispatcher's own, in memory. Throws as replay_store.
inline std::unique_ptr<elicit::task_store> task_store(const std::string& program) {
  const char* url = std::getenv("ELICIT_REDIS_URL");
  if (url == nullptr || *url == '\0') return nullptr;
#ifdef ELICIT_SAMPLE_REDIS
  return std::make_unique<elicit::redis_task_store>(elicit::redis_options::from_url(url, program + ":"));
#else
  throw std::invalid_argument("ELICIT_REDIS_URL is set, but this " + program + " was built without hiredis");
#endif
}

}  // namespace samples
