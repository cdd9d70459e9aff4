// A replay guard on Redis, with elicit::redis (hiredis): built and linked as a user would. It
// connects to nothing until asked, so it runs without a Redis: prints where it would go.
#include <elicit/redis/replay_guard.hpp>

#include <iostream>

int main() {
  const elicit::redis_replay_guard guard(elicit::redis_options::from_url("redis://127.0.0.1:6390", "consumer:replay:"));
  std::cout << guard.options().host << ":" << guard.options().port << " " << guard.options().prefix << "\n";
}
