#!/usr/bin/env python3
"""The layers of include/elicit/ (docs/design.md, "Layers"), checked on the sources.

- detail/ is the foundation: it includes only other detail/ headers (and the standard library,
  Boost, nlohmann_json, fmt), never a public header or an impl/ one, so that it can be read and
  changed without knowing the forms vocabulary.
- The generator uses the public API only: it includes no detail/ or impl/ header.

Usage: check_layers.py ROOT. Prints every offending line and exits 1, or exits 0.
"""
import pathlib
import re
import sys

INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def includes(path):
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        match = INCLUDE.match(line)
        if match:
            yield number, match.group(1), match.group(2)


def foundation_problems(root):
    for header in sorted((root / "include/elicit/detail").glob("*.hpp")):
        for number, quote, name in includes(header):
            if quote == '"':
                yield header, number, f'"{name}": include detail/ headers as <elicit/detail/...>'
            elif name.startswith("elicit/") and not name.startswith("elicit/detail/"):
                yield header, number, f"<{name}>: a detail/ header includes only detail/ headers"


def generator_problems(root):
    for source in sorted((root / "generator").glob("*.[ch]pp")):
        for number, _, name in includes(source):
            if name.startswith(("elicit/detail/", "elicit/impl/")):
                yield source, number, f"<{name}>: the generator uses the public API only"


def main():
    root = pathlib.Path(sys.argv[1])
    problems = list(foundation_problems(root)) + list(generator_problems(root))
    for path, number, what in problems:
        print(f"{path.relative_to(root)}:{number}: {what}")
    checked = len(list((root / "include/elicit/detail").glob("*.hpp")))
    if checked == 0:
        print("no header found under include/elicit/detail/: wrong root?")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
