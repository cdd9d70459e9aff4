#!/usr/bin/env python3
"""Compiles the C++ snippets of one Markdown file, runs those whose output the file shows (or
that assert something), and compares what they print with the text shown. The convention is in
tests/checks/docs/README.md; in short:

- Every ```cpp block is compiled. The blocks of one file make one translation unit, in order;
  each block is a namespace that sees the blocks before it (a later block may use a struct an
  earlier one declared, or declare its own `Form` again).
- Inside a block, declarations (struct, enum, function definitions, static_assert, using...)
  stay at namespace scope; the other statements become the body of a function returning
  nlohmann::ordered_json (a handler's result). `int main()` is kept, renamed. `#include` lines
  go to the top of the unit, after <elicit/elicit.hpp>, which every unit includes first.
- Names a file's snippets take as given (`send`, `log`, the sample forms...) come from
  tests/checks/docs/prelude/<file>.hpp, included after the snippets' own includes.
- An HTML comment on the line before a fence says more (GitHub does not show it):
    <!-- snippet: prints -->       this block is exactly what the C++ block before it prints;
    <!-- snippet: prints json -->  the same, compared as JSON text: whitespace between tokens
                                   is ignored and `...` stands for any text;
    <!-- snippet: continues -->    this C++ block goes on with the statements of the one before
                                   (the same function: its local variables are in scope);
    <!-- snippet: skip REASON -->  this block is not checked (the reason is required);
    <!-- snippet: transcript -->   this block is a session with the program of the C++ block
                                   before it (its main): `> ` lines are what a client writes to
                                   its stdin, `< ` lines what it writes back, each compared as
                                   JSON (as `prints json` is); the client reads the `< ` lines
                                   shown before it writes the next `> ` ones; one per file.
    <!-- snippet: transcript http -->  the same over MCP's Streamable HTTP: the program serves
                                   on 127.0.0.1:$PORT, each `> ` line is a POST to /mcp, each
                                   `< ` line a response body or an SSE event; SIGTERM ends it.
- A C++ block whose output is shown, or that calls assert(), is run: its statements (with the
  blocks it continues), or its main. What that function returns, if anything, is printed as
  compact JSON, as if sent. An output block right after a C++ block must be marked.

Usage: check_docs.py --doc FILE --work DIR [--parse-only] [--root DIR] [--prelude-dir DIR]
       --cxx COMPILER [--flags "F..."] [--include DIR]... [--system-include DIR]...
       [--implicit-include DIR]... [--define D]... [--lib FILE]... [--crypto-lib FILE]
       [--replay OUTPUT]
Lists may also be given joined with '|'.
"""

import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys
import time

FENCE = re.compile(r"^(?P<indent> *)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`\s]*)[^`]*$")
MARKER = re.compile(r"^\s*<!--\s*snippet:\s*(?P<body>.*?)\s*-->\s*$")
HEADING = re.compile(r"^ {0,3}#{1,6}\s")
CPP_LANGS = {"cpp", "c++", "cxx"}
OUTPUT_LANGS = {"", "json", "text", "txt"}
STATE_HEADER = re.compile(r"^\s*#\s*include\s*<elicit/(?:state/\w+|server/[\w/]+)\.hpp>", re.M)


class DocError(Exception):
    """A problem with the document itself: a bad marker, an output with no block before it."""


class Block:
    def __init__(self, line, indent, info, lines, marker, marker_line):
        self.line = line              # 1-based line of the opening fence
        self.indent = indent
        self.info = info.lower()
        self.lines = lines            # the content, dedented by the fence's indent
        self.marker = marker          # the snippet marker's text, or None
        self.marker_line = marker_line
        self.heading_before = False   # a heading between the previous fence and this one
        # For C++ blocks:
        self.output = None            # the Block that shows this block's output
        self.continues = None         # the C++ Block this one continues
        self.continued = False        # a later block continues this one

    @property
    def is_cpp(self):
        return self.info in CPP_LANGS

    @property
    def text(self):
        return "".join(line + "\n" for line in self.lines)

    @property
    def skipped(self):
        return self.marker is not None and self.marker.partition(" ")[0] == "skip"


def read_blocks(path):
    """The fenced blocks of a Markdown file, with the snippet marker before each."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    blocks, pending, i, heading = [], None, 0, False
    while i < len(lines):
        line = lines[i]
        m = MARKER.match(line)
        if m:
            if pending is not None:
                raise DocError(f"{path}:{pending[1]}: a snippet marker must be followed by a fence")
            pending = (m.group("body"), i + 1)
            i += 1
            continue
        f = FENCE.match(line)
        if f:
            indent, fence = len(f.group("indent")), f.group("fence")
            body, j = [], i + 1
            while j < len(lines):
                close = lines[j]
                if close.strip().startswith(fence[0] * len(fence)) and close.strip().strip(fence[0]) == "":
                    break
                body.append(close[indent:] if close[:indent].strip() == "" else close.lstrip())
                j += 1
            else:
                raise DocError(f"{path}:{i + 1}: the fence is never closed")
            marker, marker_line = pending if pending else (None, None)
            block = Block(i + 1, indent, f.group("info"), body, marker, marker_line)
            block.heading_before = heading
            blocks.append(block)
            pending, heading, i = None, False, j + 1
            continue
        if line.strip():
            if pending is not None:
                raise DocError(f"{path}:{pending[1]}: a snippet marker must be followed by a fence")
            if HEADING.match(line):
                heading = True
        i += 1
    if pending is not None:
        raise DocError(f"{path}:{pending[1]}: a snippet marker must be followed by a fence")
    return blocks


def link_blocks(path, blocks):
    """Checks the markers and ties each output to its C++ block, each continuation to its start."""
    previous_cpp, previous = None, None
    for b in blocks:
        kind, _, arg = (b.marker or "").partition(" ")
        where = f"{path}:{b.marker_line}"
        if b.marker is None:
            pass
        elif kind == "skip":
            if not arg.strip():
                raise DocError(f"{where}: `snippet: skip` needs a reason: <!-- snippet: skip REASON -->")
        elif kind == "prints":
            if arg not in ("", "json"):
                raise DocError(f"{where}: `snippet: prints` takes nothing or `json`, not {arg!r}")
            if b.is_cpp:
                raise DocError(f"{where}: `snippet: prints` marks the output, not a C++ block")
            if previous_cpp is None:
                raise DocError(f"{where}: an output with no C++ block before it")
            if previous_cpp.output is not None:
                raise DocError(f"{where}: the C++ block at line {previous_cpp.line} already shows an output "
                               f"(line {previous_cpp.output.line})")
            previous_cpp.output = b
        elif kind == "transcript":
            if arg not in ("", "http"):
                raise DocError(f"{where}: `snippet: transcript` takes nothing or `http`, not {arg!r}")
            if b.is_cpp or previous_cpp is None:
                raise DocError(f"{where}: a transcript with no C++ block before it")
            if previous_cpp.output is not None:
                raise DocError(f"{where}: the C++ block at line {previous_cpp.line} already shows an output "
                               f"(line {previous_cpp.output.line})")
            if any(o.output is not None and o.output.marker.startswith("transcript") for o in blocks
                   if o is not previous_cpp):
                raise DocError(f"{where}: a second transcript: a file's program has one stdin, so one transcript")
            read_transcript(path, b)
            previous_cpp.output = b
        elif kind == "continues":
            if arg:
                raise DocError(f"{where}: `snippet: continues` takes no argument")
            if not b.is_cpp or previous_cpp is None:
                raise DocError(f"{where}: `snippet: continues` marks a C++ block that follows another")
            b.continues = previous_cpp
            previous_cpp.continued = True
        else:
            raise DocError(f"{where}: unknown snippet marker {b.marker!r} "
                           "(prints, prints json, continues, transcript, skip REASON)")
        # An unmarked output right after a C++ block is most likely what it prints: say so.
        if (b.marker is None and b.info in OUTPUT_LANGS and previous is not None and previous.is_cpp
                and not previous.skipped and not b.heading_before and previous.output is None):
            raise DocError(f"{path}:{b.line}: this block follows the C++ block at line {previous.line}: if it "
                           "is its output, mark it <!-- snippet: prints --> (or `prints json`); if not, "
                           "<!-- snippet: skip REASON -->")
        if b.is_cpp and not b.skipped:
            previous_cpp = b
        previous = b
    for b in blocks:
        if b.continues is not None and b.continues.skipped:
            raise DocError(f"{path}:{b.line}: continues a skipped block")


def read_transcript(path, block):
    """A transcript's lines: (the turns, what it receives). A turn is (lines the client sends,
    how many lines it then reads before it sends more), as a client does that waits for a
    question before it answers it."""
    turns, received = [], []
    for k, line in enumerate(block.lines, block.line + 1):
        if line.startswith("> "):
            if not turns or turns[-1][1]:
                turns.append(([], 0))
            turns[-1][0].append(line[2:])
        elif line.startswith("< "):
            if not turns:
                turns.append(([], 0))
            turns[-1] = (turns[-1][0], turns[-1][1] + 1)
            received.append(line[2:])
        elif line.strip():
            raise DocError(f"{path}:{k}: a transcript line starts with `> ` (sent to the program) or "
                           "`< ` (what it writes back)")
    if not received:
        raise DocError(f"{path}:{block.line}: a transcript shows at least one line the program writes (`< `)")
    return turns, received


# ---- Reading a C++ block into declarations and statements --------------------------------------

CONTROL = {"if", "for", "while", "switch", "do", "else", "try", "catch", "return", "case", "default",
           "break", "continue", "goto", "co_return", "throw"}
DECL_KEYWORDS = {"struct", "class", "enum", "union", "namespace", "template", "using", "typedef",
                 "static_assert", "constexpr", "consteval", "constinit", "inline", "extern", "concept"}
BODY_TYPES = {"struct", "class", "enum", "union"}
IDENT = re.compile(r"[A-Za-z_]\w*")


def scan(code):
    """Yields (index, char, is_code) for each character; comments and literals are not code."""
    i, n = 0, len(code)
    while i < n:
        c = code[i]
        if code.startswith("//", i):
            j = code.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                yield k, code[k], False
            i = j
            continue
        if code.startswith("/*", i):
            j = code.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                yield k, code[k], False
            i = j
            continue
        raw = re.match(r'(?:u8|u|U|L)?R"([^(\s]*)\(', code[i:])
        if raw and (i == 0 or not (code[i - 1].isalnum() or code[i - 1] == "_")):
            end = code.find(")" + raw.group(1) + '"', i + raw.end())
            j = n if end < 0 else end + len(raw.group(1)) + 2
            for k in range(i, j):
                yield k, code[k], False
            i = j
            continue
        if c == '"' or (c == "'" and not (i > 0 and (code[i - 1].isalnum() or code[i - 1] == "_"))):
            j = i + 1
            while j < n and code[j] != c and code[j] != "\n":
                j += 2 if code[j] == "\\" else 1
            j = min(j + 1, n)
            for k in range(i, j):
                yield k, code[k], False
            i = j
            continue
        yield i, c, True
        i += 1


def code_only(code):
    """The code with comments and literals blanked out (same length, newlines kept)."""
    out = list(code)
    for i, c, is_code in scan(code):
        if not is_code and c != "\n":
            out[i] = " "
    return "".join(out)


def split_items(code):
    """Splits a block's code (preprocessor lines removed) into top-level items: (start, end)."""
    plain = code_only(code)
    items, depth, start, i, n = [], 0, None, 0, len(plain)

    def next_significant(k):
        while k < n and plain[k].isspace():
            k += 1
        return plain[k] if k < n else ""

    def opening_word(s):
        words = IDENT.findall(re.sub(r"template\s*<[^{;]*?>", " ", plain[s:s + 400]))
        while words and words[0] in ("typedef", "inline", "constexpr", "export"):
            words = words[1:]
        return words[0] if words else ""

    while i < n:
        c = plain[i]
        if start is None:
            if c.isspace():
                i += 1
                continue
            start = i
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced '{c}'")
            if c == "}" and depth == 0:
                after = next_significant(i + 1)
                if after == ";":
                    pass  # the item ends at that semicolon
                elif opening_word(start) in BODY_TYPES:
                    pass  # struct X {...} x;
                elif after == "" or after == "{" or after == "#" or IDENT.match(after):
                    items.append((start, i + 1))
                    start = None
        elif c == ";" and depth == 0:
            items.append((start, i + 1))
            start = None
        i += 1
    # An item keeps the comment that ends its last line.
    for k, (s, e) in enumerate(items):
        eol = plain.find("\n", e)
        eol = n if eol < 0 else eol
        if not plain[e:eol].strip():
            items[k] = (s, eol)
    if depth != 0:
        raise ValueError("unbalanced brackets")
    if start is not None and code[start:].strip():
        items.append((start, n))
    return items, plain


def classify(plain_item):
    """'decl' for what belongs at namespace scope, 'main' for int main(), else 'stmt'."""
    words = IDENT.findall(plain_item)
    if not words:
        return "stmt"
    if words[0] in DECL_KEYWORDS:
        return "decl"
    if words[0] in CONTROL:
        return "stmt"
    # A function definition: `type name(params) ... { body }`, no `=` before the parameters.
    body = plain_item.rstrip()
    if body.endswith("}"):
        head = plain_item[:plain_item.find("{")] if "{" in plain_item else ""
        m = re.match(r"^\s*([\w:<>,\s*&]+?)\b(\w+)\s*\(", head)
        if m and "=" not in head[:m.end()] and IDENT.findall(m.group(1)):
            return "main" if m.group(2) == "main" else "decl"
    return "stmt"


def asserts(pieces):
    """True when these pieces assert something: a claim, to be checked by running them."""
    return any(re.search(r"\bassert\s*\(", code_only(p.text)) for p in pieces)


class Piece:
    def __init__(self, kind, text, line):
        self.kind, self.text, self.line = kind, text, line


def read_cpp(path, block):
    """The includes, declarations and statements of a C++ block, each with its line in the doc."""
    includes, kept = [], []
    for k, line in enumerate(block.lines):
        if line.lstrip().startswith("#"):
            includes.append(Piece("include", line.strip(), block.line + 1 + k))
            kept.append("")
        else:
            kept.append(line)
    code = "\n".join(kept) + "\n"
    try:
        items, plain = split_items(code)
    except ValueError as e:
        raise DocError(f"{path}:{block.line}: cannot read this C++ block: {e}")
    pieces = []
    for start, end in items:
        line = block.line + 1 + code.count("\n", 0, start)
        kind = classify(plain[start:end])
        text = code[start:end]
        if kind == "main":
            # int main() { BODY } -> int doc_main_N() { return []() -> int { BODY return 0; }(); },
            # on the same lines: main alone may end without a return.
            plain_text = plain[start:end]
            m = re.search(r"\bmain\s*\(\s*\)[^{]*\{", plain_text)
            close = plain_text.rfind("}")
            if not m or close < m.end():
                raise DocError(f"{path}:{line}: only `int main()` (no parameters) is supported")
            text = (text[:m.start()] + f"doc_main_{block.line}() {{ return []() -> int {{" +
                    text[m.end():close] + " return 0; }(); " + text[close:])
        pieces.append(Piece(kind, text, line))
    return includes, pieces


# ---- The translation unit -------------------------------------------------------------------------

class Unit:
    """Generated C++ text that keeps track of its own line numbers, for #line directives."""

    def __init__(self, name):
        self.name, self.parts, self.lines = name, [], 0

    def add(self, text):
        if not text.endswith("\n"):
            text += "\n"
        self.parts.append(text)
        self.lines += text.count("\n")

    def doc(self, text, line, path):
        self.add(f'#line {line} "{path}"')
        self.add(text)
        self.add(f'#line {self.lines + 2} "{self.name}"')

    def text(self):
        return "".join(self.parts)


def generate(path, source, blocks, prelude, unit_path):
    """The translation unit of a file's C++ blocks, and which blocks it runs. `path` names the
    doc in messages; `source` is its absolute path, for the #line directives."""
    cpp = [b for b in blocks if b.is_cpp and not b.skipped]
    read = {b.line: read_cpp(path, b) for b in cpp}
    u = Unit(unit_path)
    u.add(f"// Generated by tests/checks/docs/check_docs.py from {path}: do not edit.\n"
          "#undef NDEBUG\n#include <cassert>\n#include <cstdio>\n#include <exception>\n#include <iostream>\n"
          "#include <elicit/elicit.hpp>")
    seen = set()
    for b in cpp:
        for inc in read[b.line][0]:
            if inc.text not in seen:
                seen.add(inc.text)
                u.doc(inc.text, inc.line, source)
    if prelude:
        u.add(f'#include "{prelude}"')
    u.add("namespace docs_harness {\n"
          "inline void mark(int block) {\n"
          "  std::cout.flush();\n  std::fflush(stdout);\n  std::printf(\"<<<check_docs block %d>>>\\n\", block);\n  std::fflush(stdout);\n"
          "}\n}  // namespace docs_harness")
    runs = []        # (namespace, function, is_main, first block line)
    previous_ns = None
    chain = []       # the blocks whose statements make the function being built
    for b in cpp:
        ns = f"doc_b{b.line}"
        _, pieces = read[b.line]
        u.add(f"namespace {ns} {{")
        if previous_ns:
            u.add(f"using namespace {previous_ns};")
        mains = [p for p in pieces if p.kind == "main"]
        for p in pieces:
            if p.kind in ("decl", "main"):
                u.doc(p.text, p.line, source)
        if len(mains) > 1:
            raise DocError(f"{path}:{b.line}: more than one main")
        chain.append(b)
        if not b.continued:
            statements = [(c, [p for p in read[c.line][1] if p.kind == "stmt"]) for c in chain]
            if any(s for _, s in statements):
                fn = f"doc_block_{chain[0].line}"
                u.add(f"[[maybe_unused]] inline nlohmann::ordered_json {fn}() {{")
                for c, stmts in statements:
                    u.add(f"docs_harness::mark({c.line});")
                    for p in stmts:
                        u.doc(p.text, p.line, source)
                u.add("return {};\n}")
                if any(c.output is not None or asserts(s) for c, s in statements):
                    runs.append((ns, fn, False, chain[0].line))
            elif any(c.output is not None and not any(p.kind == "main" for p in read[c.line][1]) for c in chain):
                raise DocError(f"{path}:{b.line}: this block's output is shown, but it has no statements to run")
            chain = []
        if mains and (b.output is not None or asserts(mains)):
            runs.append((ns, f"doc_main_{b.line}", True, b.line))
        u.add(f"}}  // namespace {ns}")
        previous_ns = ns
    u.add("int main() {\n  try {")
    for ns, fn, is_main, line in runs:
        if is_main:
            u.add(f"    docs_harness::mark({line});\n"
                  f"    if (const int rc = {ns}::{fn}(); rc != 0) {{ std::fprintf(stderr, \"main returned %d\\n\", rc); return rc; }}")
        else:
            u.add(f"    if (const auto result = {ns}::{fn}(); !result.is_null()) std::cout << result.dump() << '\\n';")
    u.add("  } catch (const std::exception& e) {\n"
          "    std::cout.flush();\n    std::fflush(stdout);\n"
          "    std::fprintf(stderr, \"exception: %s\\n\", e.what());\n    return 1;\n  }\n"
          "  std::cout.flush();\n  std::fflush(stdout);\n  return 0;\n}")
    return u.text(), runs


# ---- Comparing outputs ----------------------------------------------------------------------------

def squeeze_json(text):
    """JSON text without the whitespace between tokens (strings kept as they are)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif c.isspace():
            i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def json_matches(expected, actual):
    pattern = ".*?".join(re.escape(part) for part in squeeze_json(expected).split("..."))
    return re.fullmatch(pattern, squeeze_json(actual), re.S) is not None


def compare_transcript(path, block, actual):
    _, expected = read_transcript(path, block.output)
    lines = [line for line in actual.splitlines() if line.strip()]
    for k, shown in enumerate(expected):
        if k >= len(lines):
            return (f"{path}:{block.output.line}: the program of the C++ block at line {block.line} wrote "
                    f"{len(lines)} lines, the transcript shows {len(expected)}; missing:\n{shown}")
        if not json_matches(shown, lines[k]):
            return (f"{path}:{block.output.line}: the program of the C++ block at line {block.line} wrote "
                    f"something else than the transcript's line {k + 1} shows (whitespace ignored, `...` for "
                    f"any text).\n--- shown:\n{shown}\n--- written:\n{lines[k]}")
    if len(lines) > len(expected):
        return (f"{path}:{block.output.line}: the program of the C++ block at line {block.line} wrote "
                f"{len(lines) - len(expected)} lines more than the transcript shows:\n" + "\n".join(lines[len(expected):]))
    return None


def compare(path, block, actual):
    if block.output.marker.startswith("transcript"):
        return compare_transcript(path, block, actual)
    expected = block.output.text
    as_json = block.output.marker == "prints json"
    if (json_matches(expected, actual) if as_json else expected == actual):
        return None
    where = f"{path}:{block.output.line}"
    if as_json:
        return (f"{where}: the C++ block at line {block.line} prints JSON that does not match the JSON shown "
                f"(whitespace ignored, `...` for any text).\n--- shown:\n{expected}--- printed:\n{actual}")
    diff = "".join(difflib.unified_diff(expected.splitlines(True), actual.splitlines(True),
                                        "shown in the doc", "printed by the snippet"))
    return f"{where}: the C++ block at line {block.line} prints something else than the doc shows:\n{diff}"


# ---- Main -------------------------------------------------------------------------------------------

def split_list(values):
    """Lists come joined with '|' (or ';')."""
    return [v for value in values for v in re.split(r"[|;]", value) if v]


def compiler_flags(args):
    flags = ["-std=c++20"] + shlex.split(args.flags)
    # A snippet may declare something only to show it.
    flags += ["-Wno-unused-variable", "-Wno-unused-but-set-variable", "-Wno-unused-function",
              "-Wno-unused-parameter", "-Wno-unused-local-typedefs"]
    flags += [f"-D{d}" for d in split_list(args.define)]
    includes = split_list(args.include)
    known = {os.path.realpath(d) for d in includes + split_list(args.implicit_include)}
    system = []
    for d in split_list(args.system_include):
        if os.path.realpath(d) not in known:
            known.add(os.path.realpath(d))
            system.append(d)
    return flags + [f"-I{d}" for d in includes] + [f"-isystem{d}" for d in system]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--doc", required=True)
    ap.add_argument("--root", help="paths in messages are relative to this directory")
    ap.add_argument("--cxx")
    ap.add_argument("--work", required=True)
    ap.add_argument("--prelude-dir")
    ap.add_argument("--flags", default="", help="compiler flags, separated by spaces")
    ap.add_argument("--include", action="append", default=[])
    ap.add_argument("--system-include", action="append", default=[])
    ap.add_argument("--implicit-include", action="append", default=[],
                    help="the compiler's own include directories, left out of the others")
    ap.add_argument("--define", action="append", default=[])
    ap.add_argument("--lib", action="append", default=[])
    ap.add_argument("--crypto-lib", help="linked when a snippet includes a header of <elicit/state/...> or <elicit/server/...>")
    ap.add_argument("--parse-only", action="store_true", help="check the markers; compile nothing")
    ap.add_argument("--replay", help="take the snippets' program's output from this file: compile and run "
                                     "nothing (the harness's own tests of the comparison)")
    args = ap.parse_args()

    path = os.path.abspath(args.doc)
    display = os.path.relpath(path, args.root) if args.root else args.doc
    stem = os.path.splitext(os.path.basename(path))[0]
    try:
        blocks = read_blocks(path)
        link_blocks(display, blocks)
    except DocError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    cpp = [b for b in blocks if b.is_cpp]
    skipped = [b for b in cpp if b.skipped]
    for b in skipped:
        print(f"{display}:{b.line}: skipped: {b.marker[len('skip'):].strip()}")
    outputs = [b for b in blocks if b.output is not None]
    if not [b for b in cpp if not b.skipped]:
        print(f"{display}: no C++ snippets to compile ({len(skipped)} skipped)")
        return 0
    if args.parse_only:
        print(f"{display}: markers read: {len(cpp)} C++ blocks, {len(outputs)} outputs, {len(skipped)} skipped")
        return 0

    os.makedirs(args.work, exist_ok=True)
    unit_path = os.path.join(args.work, f"{stem}.cpp")
    prelude = None
    if args.prelude_dir and os.path.exists(os.path.join(args.prelude_dir, f"{stem}.hpp")):
        prelude = os.path.abspath(os.path.join(args.prelude_dir, f"{stem}.hpp"))
    try:
        unit, runs = generate(display, path, blocks, prelude, unit_path)
    except DocError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    with open(unit_path, "w", encoding="utf-8") as f:
        f.write(unit)

    compiled_count = len(cpp) - len(skipped)
    if args.replay:
        with open(args.replay, encoding="utf-8") as f:
            stdout = f.read()
        how = f"not compiled: the output is replayed from {args.replay}"
    else:
        transcripts = [b.output for b in outputs if b.output.marker.startswith("transcript")]
        turns = read_transcript(display, transcripts[0])[0] if transcripts else []
        over_http = bool(transcripts) and transcripts[0].marker == "transcript http"
        stdout, how = compile_and_run(args, display, stem, unit, unit_path, runs, turns, over_http)
        if stdout is None:
            return 1

    failures = []
    if runs:
        printed, current = {}, None
        for piece in re.split(r"(<<<check_docs block \d+>>>\n)", stdout):
            m = re.fullmatch(r"<<<check_docs block (\d+)>>>\n", piece)
            if m:
                current = int(m.group(1))
                printed.setdefault(current, "")
            elif current is not None:
                printed[current] += piece
        for b in outputs:
            failure = compare(display, b, printed.get(b.line, ""))
            if failure:
                failures.append(failure)
    for failure in failures:
        print(f"error: {failure}", file=sys.stderr)
    print(f"{display}: {compiled_count} C++ snippets {how}; {len(runs)} run, {len(outputs)} outputs compared "
          f"({len(outputs) - len(failures)} match), {len(skipped)} skipped")
    return 1 if failures else 0


def compile_and_run(args, display, stem, unit, unit_path, runs, turns, over_http=False):
    """Compiles the unit (and links and runs it when a block is to run, in a conversation of
    `turns` on its stdin, then closed, or over HTTP): its output, or None."""
    flags = compiler_flags(args)
    exe = os.path.join(args.work, stem)
    if runs:
        libs = split_list(args.lib)
        if STATE_HEADER.search(unit) and args.crypto_lib:
            libs.append(args.crypto_lib)
        command = [args.cxx] + flags + [unit_path, "-o", exe] + libs
    else:
        command = [args.cxx] + flags + ["-fsyntax-only", unit_path]
    started = time.monotonic()
    compiled = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", errors="replace")
    took = time.monotonic() - started
    if compiled.returncode != 0:
        print(compiled.stdout + compiled.stderr, file=sys.stderr)
        print(f"error: {display}: its C++ snippets do not compile (generated unit: {unit_path}; "
              f"line numbers point into the doc)\ncommand: {shlex.join(command)}", file=sys.stderr)
        return None, None
    if compiled.stderr.strip():
        print(compiled.stderr, file=sys.stderr)
    if not runs:
        return "", f"compiled (syntax only) in {took:.1f} s"
    returncode, stdout, stderr = (converse_http if over_http else converse)(exe, turns)
    if returncode != 0:
        print(stdout + stderr, file=sys.stderr)
        print(f"error: {display}: the snippets' program failed (exit {returncode}): {exe}", file=sys.stderr)
        return None, None
    return stdout, f"compiled and linked in {took:.1f} s"


def converse(exe, turns, wait=10.0, limit=60.0):
    """Runs `exe`, and for each turn writes its lines to its stdin, then reads as many lines of its
    stdout as the turn shows (each within `wait` seconds: a line that never comes is missing,
    and the comparison says so), then closes its stdin and reads the rest: (exit status, stdout,
    stderr). Reads within `limit` seconds in all, then kills the program."""
    import selectors
    proc = subprocess.Popen([exe], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    out, err = bytearray(), bytearray()
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ, out)
    sel.register(proc.stderr, selectors.EVENT_READ, err)
    end = time.monotonic() + limit

    def pump(until, lines_wanted=None):
        while sel.get_map() and time.monotonic() < min(until, end):
            if lines_wanted is not None and out.count(b"\n") >= lines_wanted:
                return
            for key, _ in sel.select(timeout=max(0.0, min(until, end) - time.monotonic())):
                chunk = os.read(key.fileobj.fileno(), 65536)
                if chunk:
                    key.data.extend(chunk)
                else:
                    sel.unregister(key.fileobj)

    wanted = 1  # the line that says which block runs
    for sent, received in turns:
        try:
            for line in sent:
                proc.stdin.write(line.encode("utf-8") + b"\n")
            proc.stdin.flush()
        except BrokenPipeError:
            break
        wanted += received
        pump(time.monotonic() + wait, wanted)
    try:
        proc.stdin.close()
    except BrokenPipeError:
        pass
    pump(end)
    try:
        returncode = proc.wait(timeout=max(0.1, end - time.monotonic()))
    except subprocess.TimeoutExpired:
        proc.kill()
        returncode = proc.wait()
    pump(time.monotonic() + 1)
    return returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def converse_http(exe, turns, wait=10.0, limit=60.0):
    """Runs `exe` with PORT set to a free loopback port, waits until it listens there, and holds
    the conversation of `turns` with it as an MCP client of Streamable HTTP does: each `> ` line a
    POST to /mcp, with the headers a client sends (a 2026-07-28 request's version, method and
    name mirrored; at 2025-11-25 the session id initialize gave); a JSON body answered is one
    line received, an SSE stream's events are lines received as they come (the stream kept open
    while the client posts its answer on another connection). Then SIGTERM: the program must end
    by itself, with status 0. Returns (exit status, its stdout followed by the lines received,
    its stderr)."""
    import collections
    import http.client
    import json
    import signal
    import socket
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    proc = subprocess.Popen([exe], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=dict(os.environ, PORT=str(port)))
    end = time.monotonic() + limit
    received, pending, streams, session = [], collections.deque(), [], None
    try:
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > end:
                    raise RuntimeError(f"the program did not listen on 127.0.0.1:{port} (PORT)")
                time.sleep(0.05)

        def next_event():
            """The data of the next event of the newest open stream, or None when none is open."""
            while streams:
                conn, response = streams[-1]
                line = response.fp.readline()
                if not line:
                    streams.pop()
                    conn.close()
                elif line.startswith(b"data: "):
                    return line[6:].decode("utf-8", "replace").strip()
            return None

        for sent, count in turns:
            for line in sent:
                message = json.loads(line)
                params = message.get("params") if isinstance(message.get("params"), dict) else {}
                meta = params.get("_meta") if isinstance(params.get("_meta"), dict) else {}
                headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
                version = meta.get("io.modelcontextprotocol/protocolVersion")
                if version:
                    headers.update({"MCP-Protocol-Version": version, "Mcp-Method": message.get("method", "")})
                    if isinstance(params.get("name"), str):
                        headers["Mcp-Name"] = params["name"]
                elif session:
                    headers.update({"Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25"})
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=wait)
                conn.request("POST", "/mcp", body=line.encode("utf-8"), headers=headers)
                response = conn.getresponse()
                session = response.getheader("Mcp-Session-Id") or session
                if response.getheader("Content-Type", "").startswith("text/event-stream"):
                    streams.append((conn, response))
                    continue
                body = response.read().decode("utf-8", "replace").strip()
                conn.close()
                if body:
                    pending.append(body)
            for _ in range(count):
                got = pending.popleft() if pending else next_event()
                if got is None:
                    break
                received.append(got)
        received.extend(pending)
    except (OSError, RuntimeError, http.client.HTTPException, ValueError) as e:
        received.append(f"(the conversation broke: {e})")
    for conn, _ in streams:
        conn.close()
    proc.send_signal(signal.SIGTERM)
    try:
        out, err = proc.communicate(timeout=max(1.0, end - time.monotonic()))
    except subprocess.TimeoutExpired:
        proc.kill()
        out, err = proc.communicate()
        err += b"\n(it did not end within the time after SIGTERM: killed)"
    stdout = out.decode("utf-8", "replace")
    return proc.returncode, stdout + "".join(line + "\n" for line in received), err.decode("utf-8", "replace")


if __name__ == "__main__":
    sys.exit(main())
