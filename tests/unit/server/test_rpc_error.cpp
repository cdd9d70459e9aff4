// <elicit/server/rpc_error.hpp>: the error a handler throws, as the JSON-RPC error sent.
#include <elicit/server/rpc_error.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

// This file's own namespace: the unity build joins several test files in one unit (tests/README.md).
namespace unit_server_rpc_error {

TEST_CASE("rpc_error: its code, message and data as a JSON-RPC error response") {
  const elicit::rpc_error e(-32000, "Order is locked", {{"order", "A-17"}});
  CHECK(e.code() == -32000);
  CHECK(std::string(e.what()) == "Order is locked");
  CHECK(e.response(5).dump() ==
        R"({"jsonrpc":"2.0","id":5,"error":{"code":-32000,"message":"Order is locked","data":{"order":"A-17"}}})");
  CHECK(elicit::rpc_error::invalid_params("order is required").response("a").dump() ==
        R"({"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"Invalid params: order is required"}})");
}

TEST_CASE("rpc_error::of: the error of a whole response, to throw again, not an error response is refused") {
  const auto e = elicit::rpc_error::of(nlohmann::ordered_json::parse(
      R"({"jsonrpc":"2.0","id":null,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"x"}}})"));
  CHECK(
      e.response(3).dump() ==
      R"({"jsonrpc":"2.0","id":3,"error":{"code":-32022,"message":"Unsupported protocol version","data":{"requested":"x"}}})");
  CHECK(elicit::rpc_error::of(nlohmann::json::parse(R"({"error":{"code":-1,"message":"m"}})")).data().is_null());
  for (const char* text : {R"({"result":{}})", R"({"error":{"code":"1","message":"m"}})", R"({"error":{"code":1}})",
                           R"([])", R"({"error":[]})"})
    CHECK_THROWS_WITH(elicit::rpc_error::of(nlohmann::json::parse(text)),
                      "elicit::rpc_error::of: not a JSON-RPC error response");
}

}  // namespace unit_server_rpc_error
