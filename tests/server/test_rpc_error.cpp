// <elicit/server/rpc_error.hpp>: the error a handler throws, as the JSON-RPC error sent.
#include <elicit/server/rpc_error.hpp>

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

TEST_CASE("rpc_error: its code, message and data as a JSON-RPC error response") {
  const elicit::rpc_error e(-32000, "Order is locked", {{"order", "A-17"}});
  CHECK(e.code() == -32000);
  CHECK(std::string(e.what()) == "Order is locked");
  CHECK(e.response(5).dump() ==
        R"({"jsonrpc":"2.0","id":5,"error":{"code":-32000,"message":"Order is locked","data":{"order":"A-17"}}})");
  CHECK(elicit::rpc_error::invalid_params("order is required").response("a").dump() ==
        R"({"jsonrpc":"2.0","id":"a","error":{"code":-32602,"message":"Invalid params: order is required"}})");
}
