#!/usr/bin/env python3
"""docs/reference.md lists the public API, and cannot drift from it.

The public names are read from the sources: every name declared directly in `namespace elicit`
of a public header (include/elicit/*.hpp and every header of the domain folders form/, answer/,
protocol/, client/, state/, asio/, redis/ and server/; not detail/, not a nested `namespace
detail`): classes, structs, enums, aliases, concepts, functions, variables. docs/reference.md has
a section per header, headed `## <elicit/FOLDER/NAME.hpp>`, and in it a table row per name,
"| `elicit::name` | what it is |". The test fails on a public name the page does not list, on
a listed name the header does not declare (renamed or gone), on a name listed under another
header, and on a row whose line is empty.

Usage: check_reference.py ROOT. Prints every difference and exits 1, or exits 0.
"""
import pathlib
import re
import sys


# ---- the names the headers declare ---------------------------------------------------------
# A small scanner, not a C++ parser: comments, literals and preprocessor lines are blanked, then
# each statement or block head met directly inside `namespace elicit` is read for the name it
# declares. Members defined out of line (`a::b(...)`) are skipped: their class is listed.
def strip(text):
    # comments, string and char literals -> spaces (keep newlines)
    out = []; i = 0; n = len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i); j = n if j < 0 else j; i = j; continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2); j = n if j < 0 else j + 2; out.append(" "); i = j; continue
        if text.startswith('R"', i) and (i == 0 or not (text[i-1].isalnum() or text[i-1] == '_')):
            m = re.match(r'R"([^(]*)\(', text[i:])
            if m:
                end = text.find(")" + m.group(1) + '"', i)
                out.append('""'); i = end + len(m.group(1)) + 2; continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append('""'); i = j + 1; continue
        out.append(c); i += 1
    return "".join(out)

DECL = [
    re.compile(r"\b(?:class|struct|union)\s+(?:\[\[[^\]]*\]\]\s*)?([A-Za-z_]\w*)\s*(?:final\s*)?(?:[:{]|$)"),
    re.compile(r"\benum\s+(?:class|struct)\s+([A-Za-z_]\w*)"),
    re.compile(r"\busing\s+([A-Za-z_]\w*)\s*(?:\[\[[^\]]*\]\]\s*)?="),  # an alias, deprecated or not
    re.compile(r"\bconcept\s+([A-Za-z_]\w*)\s*="),
]
FUNC = re.compile(r"(?:operator\s*[^\s(]+|[A-Za-z_]\w*)\s*\($")
VAR = re.compile(r"\b([A-Za-z_]\w*)\s*(?:=|\{)")

def names(path):
    text = strip(path.read_text(encoding="utf-8"))
    text = re.sub(r"^\s*#.*$", "", text, flags=re.M)
    stack = []   # entries: 'elicit', 'detail', 'other'
    stmt = ""
    found = []
    i = 0
    while i < len(text):
        c = text[i]
        if c == "{":
            head = stmt.strip()
            m = re.search(r"\bnamespace\s+([\w:]*)\s*$", head)
            if m:
                parts = m.group(1).split("::") if m.group(1) else ["anon"]
                kind = "elicit" if parts == ["elicit"] else ("detail" if stack and stack[-1] == "elicit" and parts == ["detail"] else "other")
                if parts[0] == "elicit" and len(parts) > 1: kind = "other"
                stack.append(kind)
            else:
                if stack == ["elicit"]: record(head, found)
                stack.append("other")
            stmt = ""
        elif c == "}":
            if stack: stack.pop()
            stmt = ""
        elif c == ";":
            if stack == ["elicit"]: record(stmt.strip(), found)
            stmt = ""
        else:
            stmt += c
        i += 1
    return found

def record(head, found):
    head = " ".join(head.split())
    if not head: return
    head = re.sub(r"^template\s*<.*?>\s*(?=[a-z\[])", "", head)  # crude
    while head.startswith("template"):
        depth = 0; k = 8
        while k < len(head):
            if head[k] == "<": depth += 1
            elif head[k] == ">":
                depth -= 1
                if depth == 0: break
            k += 1
        head = head[k+1:].strip()
    while head.startswith("requires"):
        k = head.find("(")
        depth = 0
        while k < len(head):
            if head[k] == "(": depth += 1
            elif head[k] == ")":
                depth -= 1
                if depth == 0: break
            k += 1
        head = head[k+1:].strip()
    if head.startswith(("friend ", "static_assert", "extern template", "namespace ")): return
    for d in DECL:
        m = d.search(head)
        if m and not ("(" in head and head.index("(") < m.start()):
            found.append(m.group(1)); return
    # function: name before the first '(' at top level
    p = head.find("(")
    if p > 0:
        m = FUNC.search(head[:p+1])
        if m:
            if head[:m.start()].rstrip().endswith("::"): return  # a member defined out of line
            found.append(re.sub(r"\s+", "", m.group(0)[:-1])); return
    m = re.search(r"([A-Za-z_]\w*)\s*(?:=|$)", head.split("=")[0] + "=")
    if m: found.append(m.group(1))


# ---- the names the page lists --------------------------------------------------------------
SECTION = re.compile(r"^##\s+`?<elicit/((?:\w+/)*\w+\.hpp)>`?\s*$")
ROW = re.compile(r"^\|\s*`elicit::([^`]+)`\s*\|(.*)\|\s*$")


def listed(page):
    where, header = {}, None
    problems = []
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        section = SECTION.match(line)
        if section:
            header = section.group(1)
            continue
        if line.startswith("## "):
            header = None
        row = ROW.match(line)
        if not row:
            continue
        name, text = row.group(1), row.group(2).strip(" |")
        if header is None:
            problems.append(f"docs/reference.md:{number}: `elicit::{name}` is listed outside a header's section")
        elif name in where.get(header, {}):
            problems.append(f"docs/reference.md:{number}: `elicit::{name}` is listed twice under <elicit/{header}>")
        elif not text:
            problems.append(f"docs/reference.md:{number}: `elicit::{name}` has no line saying what it is")
        if header is not None:
            where.setdefault(header, {})[name] = number
    return where, problems


def main():
    root = pathlib.Path(sys.argv[1])
    base = root / "include/elicit"
    # The public folders: the top one (the umbrella), each domain's and each optional target's.
    folders = ("form", "answer", "protocol", "client", "state", "asio", "redis", "server")
    headers = sorted(base.glob("*.hpp")) + sorted(h for f in folders for h in (base / f).rglob("*.hpp"))
    if not headers:
        print("no header found under include/elicit/: wrong root?")
        return 1
    declared = {h.relative_to(base).as_posix(): set(names(h)) for h in headers}
    where, problems = listed(root / "docs/reference.md")
    for header, found in declared.items():
        for name in sorted(found - set(where.get(header, {}))):
            elsewhere = [h for h, rows in where.items() if name in rows]
            hint = f" (listed under <elicit/{elsewhere[0]}>)" if elsewhere else ""
            problems.append(f"include/elicit/{header}: `elicit::{name}` is public and not in docs/reference.md{hint}")
    for header, rows in where.items():
        for name, number in rows.items():
            if name not in declared.get(header, set()):
                problems.append(f"docs/reference.md:{number}: <elicit/{header}> declares no `elicit::{name}`")
    for problem in problems:
        print(problem)
    print(f"{sum(map(len, declared.values()))} public names in {len(headers)} headers")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
