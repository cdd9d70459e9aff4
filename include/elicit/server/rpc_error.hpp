// A JSON-RPC error a tool's handler throws to answer its request with, instead of a result:
// the code, the message the client reads, and data. CMake target elicit::server.
//
//   if (!arguments.contains("order")) throw elicit::rpc_error::invalid_params("order is required");
//
// The dispatcher (<elicit/server/dispatcher.hpp>) sends it as it is, in either era. Any other
// exception out of a handler is -32603 "Internal error" to the client, its what() to the log.
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>
#include <utility>

namespace elicit {

class rpc_error : public std::runtime_error {
 public:
  // `message` is what the client reads (and what() gives); `data` goes out as error.data unless
  // it is null. Throws only std::bad_alloc.
  rpc_error(int code, const std::string& message, nlohmann::json data = nullptr)
      : std::runtime_error(message), code_(code), data_(std::move(data)) {}

  // The error of a whole JSON-RPC error response (as elicit's builders make them:
  // invalid_params_error, unsupported_version_error...), to throw. Throws
  // std::invalid_argument when `response` has no error with a code and a message.
  template <class Json>
  [[nodiscard]] static rpc_error of(const Json& response) {
    const auto e = response.is_object() ? response.find("error") : response.end();
    if (!response.is_object() || e == response.end() || !e->is_object() || !e->contains("code") ||
        !(*e)["code"].is_number_integer() || !e->contains("message") || !(*e)["message"].is_string())
      throw std::invalid_argument("elicit::rpc_error::of: not a JSON-RPC error response");
    return {(*e)["code"].template get<int>(), (*e)["message"].template get<std::string>(),
            e->contains("data") ? nlohmann::json((*e)["data"]) : nlohmann::json()};
  }

  // -32602, "Invalid params: <why>".
  [[nodiscard]] static rpc_error invalid_params(const std::string& why) { return {-32602, "Invalid params: " + why}; }

  [[nodiscard]] int code() const noexcept { return code_; }
  [[nodiscard]] const nlohmann::json& data() const noexcept { return data_; }

  // {"jsonrpc":"2.0","id":...,"error":{"code":...,"message":...[,"data":...]}}. Throws only
  // std::bad_alloc.
  [[nodiscard]] nlohmann::ordered_json response(const nlohmann::json& id) const {
    nlohmann::ordered_json error{{"code", code_}, {"message", what()}};
    if (!data_.is_null()) error["data"] = data_;
    return {{"jsonrpc", "2.0"}, {"id", id}, {"error", std::move(error)}};
  }

 private:
  int code_;
  nlohmann::json data_;
};

}  // namespace elicit
