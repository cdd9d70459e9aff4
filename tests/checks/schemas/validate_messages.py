#!/usr/bin/env python3
"""Validates every protocol message elicit builds against the MCP specification's schema.

Usage: validate_messages.py SPEC_DIR EMITTED_JSON

EMITTED_JSON is a list of {"version", "def", "message"}; each message is validated against
$defs[def] of SPEC_DIR/<version>/schema.json with a JSON Schema 2020-12 validator
(python3-jsonschema from Debian).

One known defect of both schema.json files is corrected before validating: ElicitResult's
content values are typed string | integer | boolean | string[], where the TypeScript source
of the same commit (authoritative) says string | number | boolean | string[].
"""
import json
import sys

from jsonschema import Draft202012Validator


def load(spec_dir, version):
    spec = json.load(open(f"{spec_dir}/{version}/schema.json"))
    content = spec["$defs"]["ElicitResult"]["properties"]["content"]["additionalProperties"]
    for branch in content["anyOf"]:
        if branch.get("type") == ["string", "integer", "boolean"]:
            branch["type"] = ["string", "number", "boolean"]
    return spec


def main():
    spec_dir, emitted_path = sys.argv[1], sys.argv[2]
    emitted = json.load(open(emitted_path))
    specs = {}
    failures = 0
    for entry in emitted:
        version, name = entry["version"], entry["def"]
        spec = specs.setdefault(version, load(spec_dir, version))
        if name not in spec["$defs"]:
            print(f"FAIL {version} {name}: no such $defs entry")
            failures += 1
            continue
        root = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$defs": spec["$defs"],
                "$ref": f"#/$defs/{name}"}
        for error in Draft202012Validator(root).iter_errors(entry["message"]):
            failures += 1
            print(f"FAIL {version} {name}: {error.message} at {'/'.join(map(str, error.absolute_path))}")
    kinds = sorted({f"{e['version']} {e['def']}" for e in emitted})
    print(f"{len(emitted)} messages of {len(kinds)} kinds validated: "
          f"{'all valid' if failures == 0 else str(failures) + ' violations'}")
    for kind in kinds:
        print(f"  {kind}")
    return 1 if failures or not emitted else 0


if __name__ == "__main__":
    sys.exit(main())
