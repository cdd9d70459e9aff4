// <elicit/server/pushed_call.hpp>: a 2025-11-25 call that asks, as a transport drives it: its
// first question once started, no question once done, a response before the end that says so,
// what the handler threw as the error response, and a cancelled call that sends nothing.
#include "../support/server_fixture.hpp"

#include <elicit/server/dispatcher.hpp>
#include <elicit/server/pushed_call.hpp>

#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_pushed_call {

using namespace server_fixture;

namespace {

elicit::pushed_call pushed(const elicit::dispatcher& d, const std::string& tool) {
  elicit::client_session session;
  session.initialized = true;
  session.modes.form = true;
  elicit::dispatched out = d.handle(request(3, "tools/call", call_params(tool)), session, "p");
  REQUIRE(out.what == elicit::dispatched::kind::push);
  return std::move(*out.call);
}

}  // namespace

TEST_CASE("pushed_call: driven to its end, and misused") {
  served s;
  elicit::pushed_call call = pushed(s.server, "reserve");
  CHECK(call.id() == 3);
  CHECK(call.method() == "tools/call");
  CHECK_FALSE(call.progress_token());
  CHECK(call.response()["error"]["code"] == -32603);  // not done: an error, said once
  elicit::pushed_call again = pushed(s.server, "reserve");
  CHECK(again.params()["message"] == "How many guests at Chez Elicit?");
  again.take(accept({{"guests", 2}}));
  REQUIRE(again.done());
  CHECK_THROWS_AS(again.params(), std::logic_error);
  CHECK(again.response()["result"]["content"][0]["text"] == "Reserved for 2 at Chez Elicit.");
  again.take(accept({{"guests", 3}}));  // after the end: taken for nothing
  CHECK(again.done());
}

TEST_CASE("pushed_call: what the handler throws is the response, a cancelled call is marked") {
  elicit::dispatcher_options o;
  o.log = [](std::string_view) {};
  elicit::dispatcher d({"test-server", "1"}, ring(), o);
  d.tools().add({"broken", "Throws before it asks."}, [](const elicit::tool_call&) -> elicit::tool<std::string> {
    throw elicit::rpc_error(-32602, "Invalid params: no order");
  });
  d.tools().add({"reserve", "Reserve a table."}, reserve);
  elicit::pushed_call broken = pushed(d, "broken");
  CHECK(broken.done());
  CHECK(broken.response()["error"] == ordered_json{{"code", -32602}, {"message", "Invalid params: no order"}});
  elicit::pushed_call stopped = pushed(d, "reserve");
  stopped.start();
  stopped.stop(elicit::stop_reason::cancelled);
  CHECK(stopped.done());
  CHECK(stopped.cancelled());
}

}  // namespace unit_server_pushed_call
