// elicit: MCP elicitation forms as C++ structs. The umbrella header: forms, schemas, decoding
// and the protocol messages, with no dependency on OpenSSL. Sealed request state and random
// elicitation ids are in <elicit/state/state.hpp>, with the CMake target elicit::state (OpenSSL).
#pragma once

#include <elicit/answer/decode.hpp>
#include <elicit/answer/messages.hpp>
#include <elicit/answer/violation.hpp>
#include <elicit/form/annotations.hpp>
#include <elicit/form/choice.hpp>
#include <elicit/form/enums.hpp>
#include <elicit/form/field.hpp>
#include <elicit/form/field_info.hpp>
#include <elicit/form/form.hpp>
#include <elicit/form/formats.hpp>
#include <elicit/form/schema.hpp>
#include <elicit/form/single.hpp>
#include <elicit/protocol/ask.hpp>
#include <elicit/protocol/capabilities.hpp>
#include <elicit/protocol/protocol.hpp>
