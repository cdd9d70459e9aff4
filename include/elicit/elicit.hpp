// elicit: MCP elicitation forms as C++ structs. The umbrella header: forms, schemas, decoding
// and the protocol messages, with no dependency on OpenSSL. Sealed request state and random
// elicitation ids are in <elicit/state.hpp>, with the CMake target elicit::state (OpenSSL).
#pragma once

#include <elicit/annotations.hpp>
#include <elicit/ask.hpp>
#include <elicit/choice.hpp>
#include <elicit/decode.hpp>
#include <elicit/enums.hpp>
#include <elicit/field.hpp>
#include <elicit/field_info.hpp>
#include <elicit/form.hpp>
#include <elicit/formats.hpp>
#include <elicit/messages.hpp>
#include <elicit/protocol.hpp>
#include <elicit/schema.hpp>
#include <elicit/single.hpp>
#include <elicit/violation.hpp>
