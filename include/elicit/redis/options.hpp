// Where a Redis is, how long to wait for it, and under which prefix an application's keys go: what
// elicit's Redis stores (<elicit/redis/replay_guard.hpp>, <elicit/redis/task_store.hpp>) connect
// with. CMake target elicit::redis.
//
//   auto o = elicit::redis_options::from_url("redis://10.0.0.5:6379", "shipping:");
#pragma once

#include <elicit/detail/message.hpp>

#include <algorithm>
#include <charconv>
#include <chrono>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace elicit {

struct redis_options {
  // An IP address, or a name the resolver answers at once: the name lookup (getaddrinfo) has no
  // timeout of its own.
  std::string host = "127.0.0.1";
  int port = 6379;
  // Put before every key: one per application (and per environment) sharing a Redis, so that
  // two never see each other's states. Required: 1 to 128 printable ASCII characters.
  std::string prefix;
  // Sent as AUTH on each new connection when not empty (Redis' requirepass).
  std::string password;
  std::chrono::milliseconds connect_timeout{500};  // for each new connection's TCP connect
  std::chrono::milliseconds command_timeout{500};  // for each wait on the socket, to send or to read
  std::size_t max_idle = 16;                       // connections kept open between calls

  // The options for "redis://HOST:PORT" ("redis://HOST" is port 6379; an IPv6 address in
  // brackets), with `prefix` and the rest as defaulted. Throws std::invalid_argument for any
  // other text (no user or password in the URL: set `password`; no database number).
  [[nodiscard]] static redis_options from_url(std::string_view url, std::string prefix);
};

namespace detail {

inline bool printable_ascii(std::string_view text) noexcept {
  return std::all_of(text.begin(), text.end(), [](char c) { return c > 0x20 && c < 0x7f; });
}

}  // namespace detail

inline redis_options redis_options::from_url(std::string_view url, std::string prefix) {
  constexpr std::string_view scheme = "redis://";
  const auto refuse = [&](std::string_view why) {
    return std::invalid_argument(detail::message("elicit::redis_options: ", why, " (expected redis://HOST:PORT)"));
  };
  if (url.substr(0, scheme.size()) != scheme) throw refuse("the URL does not start with redis://");
  std::string_view rest = url.substr(scheme.size());
  if (!rest.empty() && rest.back() == '/') rest.remove_suffix(1);
  // Not quoted back: a URL with a password in it must not reach the log.
  if (rest.find('@') != std::string_view::npos) throw refuse("a user or password in the URL: set password instead");
  if (rest.find('/') != std::string_view::npos) throw refuse("a path or database number in the URL");
  redis_options out;
  out.prefix = std::move(prefix);
  std::string_view port;
  if (!rest.empty() && rest.front() == '[') {
    const std::size_t close = rest.find(']');
    if (close == std::string_view::npos) throw refuse("an IPv6 address without its closing ]");
    out.host = std::string(rest.substr(1, close - 1));
    rest.remove_prefix(close + 1);
    if (!rest.empty() && rest.front() != ':') throw refuse("text after the IPv6 address");
    if (!rest.empty()) port = rest.substr(1);
  } else {
    const std::size_t colon = rest.find(':');
    out.host = std::string(rest.substr(0, colon));
    if (colon != std::string_view::npos) port = rest.substr(colon + 1);
  }
  if (out.host.empty() || !detail::printable_ascii(out.host)) throw refuse("no host, or a host that is not printable");
  if (!port.empty() || rest.find(':') != std::string_view::npos) {
    int value = 0;
    const auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value < 1 || value > 65535)
      throw refuse("a port that is not a number from 1 to 65535");
    out.port = value;
  }
  return out;
}

}  // namespace elicit
