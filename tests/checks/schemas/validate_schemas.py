#!/usr/bin/env python3
"""Validates every emitted requestedSchema against the MCP specification's JSON Schema.

Usage: validate_schemas.py SPEC_SCHEMA_JSON EMITTED
EMITTED is a JSON file {"name": schema, ...}, or a directory of <name>.schema.json files (the
generator's output).

Each emitted schema is wrapped as the `requestedSchema` of ElicitRequestFormParams and
validated twice with a JSON Schema 2020-12 validator (python3-jsonschema from Debian):
once against the spec as published, and once with `additionalProperties: false` added to
every primitive schema definition, so that a misspelt or invented keyword is caught too
(the published schema would let it pass). Each emitted schema is also checked as a JSON
Schema document in its own right, against the 2020-12 meta-schema.
"""
import json
import os
import sys

from jsonschema import Draft202012Validator

PRIMITIVES = [
    "StringSchema", "NumberSchema", "BooleanSchema", "UntitledSingleSelectEnumSchema",
    "TitledSingleSelectEnumSchema", "UntitledMultiSelectEnumSchema",
    "TitledMultiSelectEnumSchema", "LegacyTitledEnumSchema",
]


def validator_for(spec, strict):
    spec = json.loads(json.dumps(spec))
    defs = spec["$defs"]
    if strict:
        for name in PRIMITIVES:
            defs[name]["additionalProperties"] = False
        defs["ElicitRequestFormParams"]["properties"]["requestedSchema"]["additionalProperties"] = False
    root = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": defs,
            "$ref": "#/$defs/ElicitRequestFormParams"}
    return Draft202012Validator(root)


def main():
    spec = json.load(open(sys.argv[1]))
    if os.path.isdir(sys.argv[2]):
        emitted = {name[:-len(".schema.json")]: json.load(open(os.path.join(sys.argv[2], name)))
                   for name in sorted(os.listdir(sys.argv[2])) if name.endswith(".schema.json")}
    else:
        emitted = json.load(open(sys.argv[2]))
    if not emitted:
        print("no schemas to validate")
        return 1
    failures = 0
    for strict in (False, True):
        validator = validator_for(spec, strict)
        for name, schema in emitted.items():
            params = {"mode": "form", "message": "Test form " + name, "requestedSchema": schema}
            errors = sorted(validator.iter_errors(params), key=lambda e: list(e.path))
            for error in errors:
                failures += 1
                print(f"FAIL {name} ({'strict' if strict else 'spec'}): {error.message} at "
                      f"{'/'.join(map(str, error.absolute_path))}")
    for name, schema in emitted.items():
        for error in Draft202012Validator(Draft202012Validator.META_SCHEMA).iter_errors(schema):
            failures += 1
            print(f"FAIL {name} (meta-schema): {error.message}")
    verdict = "all valid" if failures == 0 else f"{failures} violations"
    print(f"{len(emitted)} schemas, each against the spec, the strict spec and the meta-schema: {verdict}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
