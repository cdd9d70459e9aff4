#!/usr/bin/env python3
"""The tiers of include/elicit/ (docs/internals/design.md, "Layers"), checked on the sources.

Every header has a tier, known by its folder (detail/ is the foundation) or named in the lists
below; a header in no tier fails the check, so that a new one is placed on purpose. A header
includes only headers of its own tier or of a lower one (and the standard library, Boost,
nlohmann_json, fmt, OpenSSL, hiredis), always as <elicit/...>. The generator includes public
headers only.

Usage: check_layers.py ROOT. Prints every offending line and exits 1, or exits 0.
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')

# The tiers, lowest first. Which folder a header is in says whether it is public; its tier says
# what it may include. The machinery tiers are detail/'s folders: detail/model/, detail/declaration/,
# detail/engine/, and detail/ itself the foundation; public headers are named in the lists.
FOUNDATION, VOCABULARY, MODEL, DECLARATION, ENGINE, API, SERVING = range(7)
NAMES = ["foundation", "vocabulary", "model", "declaration", "engine", "API", "serving"]

# Public types that describe a value and its faults, and know nothing of a form's description.
VOCABULARY_HEADERS = {
    "answer/answer.hpp", "form/choice.hpp", "form/enums.hpp", "form/formats.hpp", "answer/json_limits.hpp",
    "answer/messages.hpp", "answer/message_kind.hpp", "answer/print.hpp", "answer/result.hpp", "form/value_as.hpp", "form/value_type.hpp",
    "answer/violation.hpp",
}
# detail/model/: a field's description and what a value type means (its traits, its keywords,
# its violations), which the declaration tier fills in.
# Public: what a form's author writes on a member (an annotation's apply() fills a field_spec, a
# field starts from its default as the value's traits read it); its machinery is in
# detail/declaration/.
DECLARATION_HEADERS = {"form/annotations.hpp", "form/field.hpp"}
# The machinery tiers are detail/'s folders (tier_of): detail/model/ (a field's description and
# what a value type means), detail/declaration/, detail/engine/ (what reads a declared form).
# The public folders by domain and CMake target: declaring forms, decoding answers, the protocol
# and asking, the host's side of a form (client/; elicit::elicit); sealed state and the tool
# written once (elicit::state); Asio (elicit::asio); Redis (elicit::redis). server/ is the
# serving tier of its own.
PUBLIC_FOLDERS = ("form/", "answer/", "protocol/", "client/", "state/", "asio/", "redis/")
# Serving headers outside server/: the Redis task store keeps the server's task records (the
# folder is its CMake target's, elicit::redis; the tier is what it includes).
SERVING_HEADERS = {"redis/task_store.hpp"}


def tier_of(name):
    """The tier of `name` (a path under include/elicit/), or None."""
    for folder, tier in (("detail/model/", MODEL), ("detail/declaration/", DECLARATION), ("detail/engine/", ENGINE)):
        if name.startswith(folder):
            return tier
    if name.startswith("detail/"):
        return FOUNDATION
    if name.startswith("server/") or name in SERVING_HEADERS:
        return SERVING  # the envelope and the transports, on the API (elicit::server, server/asio/, server/http/)
    for tier, names in ((VOCABULARY, VOCABULARY_HEADERS), (DECLARATION, DECLARATION_HEADERS)):
        if name in names:
            return tier
    if "/" not in name or name.startswith(PUBLIC_FOLDERS):
        return API  # every other public header: the umbrella, and those of each domain's folder
    return None


def includes(path):
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = INCLUDE.match(line)
        if match:
            yield number, match.group(1), match.group(2)


def header_problems(root):
    base = root / "include/elicit"
    headers = sorted(base.rglob("*.hpp"))
    for header in headers:
        name = header.relative_to(base).as_posix()
        tier = tier_of(name)
        if tier is None:
            yield header, 0, f"{name} is in no tier: name it in tests/checks/layers/check_layers.py and docs/internals/design.md"
            continue
        for number, quote, included in includes(header):
            if quote == '"':
                yield header, number, f'"{included}": include elicit\'s headers as <elicit/...>'
                continue
            if not included.startswith("elicit/"):
                continue
            target = tier_of(included[len("elicit/"):])
            if target is None:
                yield header, number, f"<{included}>: not a header of any tier"
            elif target > tier:
                yield header, number, (f"<{included}>: a {NAMES[tier]} header includes no "
                                       f"{NAMES[target]} header")
    for name in sorted(VOCABULARY_HEADERS | DECLARATION_HEADERS):
        if not (base / name).is_file():
            yield base / name, 0, f"{name}: listed in a tier, but there is no such header"


def generator_problems(root):
    for source in sorted((root / "generator").glob("*.[ch]pp")):
        for number, _, name in includes(source):
            if name.startswith("elicit/detail/"):
                yield source, number, f"<{name}>: the generator uses the public API only"


def main():
    root = pathlib.Path(sys.argv[1])
    if not list((root / "include/elicit/detail").glob("*.hpp")):
        print("no header found under include/elicit/detail/: wrong root?")
        return 1
    problems = list(header_problems(root)) + list(generator_problems(root))
    for path, number, what in problems:
        print(f"{path.relative_to(root)}:{number}: {what}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
