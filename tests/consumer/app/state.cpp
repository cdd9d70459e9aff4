// Seals a request state and opens it again, with elicit::state (OpenSSL); prints what opened.
#include "booking.hpp"

#include <elicit/state/state.hpp>

#include <iostream>

struct Progress {
  std::string booking_id;
  int step;
};

int main() {
  elicit::key_ring ring;
  ring.add("k1", elicit::state_key::generate());
  const elicit::state_binding here{"consumer", "alice", "tools/call", "book",
                                   elicit::digest_of(nlohmann::json::object())};
  const auto opened = elicit::open<Progress>(elicit::seal(Progress{"B-7", 2}, ring, here), ring, here);
  std::cout << opened->booking_id << " " << opened->step << "\n";
}
