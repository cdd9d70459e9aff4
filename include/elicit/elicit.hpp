// elicit: MCP elicitation forms as C++ structs. The umbrella header.
#pragma once

#include <elicit/annotations.hpp>
#include <elicit/field.hpp>
#include <elicit/formats.hpp>
#include <elicit/enums.hpp>
#include <elicit/decode.hpp>
#include <elicit/protocol.hpp>
#include <elicit/schema.hpp>
#include <elicit/state.hpp>
#include <elicit/violation.hpp>
