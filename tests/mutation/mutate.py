#!/usr/bin/env python3
"""The mutation check: elicit's core claims, each broken on purpose, must each be caught.

    mutate.py [--source DIR] [--work DIR] [--compiler CXX] [--jobs N] [--only NAME ...] [--list]

Copies the source tree (DIR, default: the repository this script is in) to WORK/src, configures
one build of it in WORK/build (-O0, no debug information, only what the checks need; clang++ when
there is one, as it compiles the tests fastest), and builds
and runs the unit tests unmutated: they must pass, or the check stops. Then, for each mutation
below, one at a time: patches the copy (each patch an exact snippet that must occur exactly as
often as the mutation says), rebuilds unit_tests (an incremental build: the headers it touched),
runs the tests that should catch it (unit_tests filtered by file, and for some a CTest test of
the copy), restores the file, and records whether the mutation was caught. The source tree
itself is never written to.

Prints a table of the mutations, caught or not, with the time of each; exits 1 when a mutation
survived (its tests passed) or could not be applied or built, 2 when the check itself could not
run (the unmutated tests failed, a tool is missing). The work directory is kept between runs,
so that a second run rebuilds only what changed.

CMake target: mutation_check; CTest: mutation.check, label mutation (docs/internals/testing.md).
"""

import argparse
import dataclasses
import filecmp
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

# ---- The mutations --------------------------------------------------------------------------
#
# Each: a name, the claim it breaks, the header (relative to the source tree), a list of
# (snippet, replacement, count) patches, the unit test files (tags [#file]) whose tests must
# catch it, and CTest tests of the copy (regular expressions) that must too, if any.


@dataclasses.dataclass
class Mutation:
    name: str
    claim: str
    path: str
    patches: list  # [(old, new)] or [(old, new, count)]
    unit: list  # unit test files, e.g. ["test_decode"]
    ctest: str = ""  # a ctest -R regular expression, run in the copy's build


KW = "include/elicit/detail/model/keywords.hpp"
STATE = "include/elicit/state/state.hpp"
DECODE = "include/elicit/answer/decode.hpp"
READ = "include/elicit/detail/engine/read_value.hpp"
REPLY = "include/elicit/detail/engine/reply.hpp"
SCANNER = "include/elicit/detail/json_scanner.hpp"

MUTATIONS = [
    Mutation(
        "max_length_off_by_one",
        "maxLength is checked exactly: one code point more is refused",
        KW,
        [("if (s.max_length && code_point_count > *s.max_length)",
          "if (s.max_length && code_point_count > *s.max_length + 1)")],
        ["test_decode"]),
    Mutation(
        "minimum_exclusive",
        "minimum is inclusive: the bound itself is accepted",
        KW,
        [("if (s.minimum && compare(v, *s.minimum) < 0)", "if (s.minimum && compare(v, *s.minimum) <= 0)")],
        ["test_decode", "test_limits"]),
    Mutation(
        "max_items_off_by_one",
        "maxItems is checked exactly",
        KW,
        [("if (s.max_items && count > *s.max_items)", "if (s.max_items && count > *s.max_items + 1)")],
        ["test_decode"]),
    Mutation(
        "max_length_not_emitted",
        "every constraint is in the schema: maxLength is written",
        KW,
        [('  write_optional_count(out, "maxLength", s.max_length, first);\n', "")],
        ["test_schema", "test_enums", "test_protocol"]),
    Mutation(
        "properties_reordered",
        "properties keep the declaration order",
        KW,
        [("  bool first = true;\n  for (const field_spec& s : specs) {\n    write_key(out, s.wire, first);",
          "  bool first = true;\n  for (std::size_t k = specs.size(); k-- > 0;) {\n"
          "    const field_spec& s = specs[k];\n    write_key(out, s.wire, first);")],
        ["test_schema", "test_protocol"]),
    Mutation(
        "enum_member_not_checked",
        "a choice is one of the wire values offered",
        KW,
        [("    if (same_text(s.options[i].wire, wire)) return &s.options[i];\n  return nullptr;",
          "    if (same_text(s.options[i].wire, wire)) return &s.options[i];\n"
          "  return s.option_count > 0 ? &s.options[0] : nullptr;")],
        ["test_decode", "test_reply"]),
    Mutation(
        "email_accepts_any_at",
        "format email is checked: an address with an @ is not enough",
        "include/elicit/detail/text_formats.hpp",
        [("  return local.size() <= 64 && is_dot_atom(local) && is_host_name(domain);",
          "  return !local.empty() || domain.empty() || true;")],
        ["test_decode"]),
    Mutation(
        "default_not_applied",
        "an absent field with a default decodes to its default",
        DECODE,
        [("  } else if (s.has_default()) {\n    read_value(default_json(s), s, target, at);",
          "  } else if (s.has_default()) {\n    target = {};")],
        ["test_decode", "test_enums", "test_protocol"]),
    Mutation(
        "state_header_not_authenticated",
        "a sealed state's clear header (version, type tag, key id) is authenticated",
        STATE,
        [("aes_gcm(true, key->bytes(), nonce, std::span(token.data(), header), plain,",
          "aes_gcm(true, key->bytes(), nonce, std::span(token.data(), std::size_t{0}), plain,"),
         ("aes_gcm(false, key->bytes(), nonce, std::span(token->data(), header), cipher,",
          "aes_gcm(false, key->bytes(), nonce, std::span(token->data(), std::size_t{0}), cipher,")],
        ["test_state"]),
    Mutation(
        "expiry_not_checked",
        "a sealed state does not open after it expires",
        STATE,
        [("if (last_second < now) return {state_error::expired",
          "if (false && last_second < now) return {state_error::expired")],
        ["test_state"]),
    Mutation(
        "principal_not_checked",
        "a sealed state opens only for the principal it was sealed for",
        STATE,
        [("    if (CRYPTO_memcmp(got + i * bind_bytes, want.data() + i * bind_bytes, bind_bytes) != 0)",
          "    if (i != 1 && CRYPTO_memcmp(got + i * bind_bytes, want.data() + i * bind_bytes, bind_bytes) != 0)")],
        ["test_state"]),
    Mutation(
        "credential_word_dropped",
        "a field named for a token is refused as a credential",
        "include/elicit/detail/engine/secrets.hpp",
        [('"secret",    "token",      "jwt",', '"secret",    "jwt",')],
        ["test_protocol"],
        ctest=r"^compile_fail\.secret_camel_case_wire_name$"),  # accessToken
    Mutation(
        "text_depth_limit_off_by_one",
        "decode(text) refuses nesting deeper than max_depth, at exactly that level",
        SCANNER,
        [("    if (depth_ == max_depth_) return fail(failure::too_deep);",
          "    if (depth_ == max_depth_ + 1) return fail(failure::too_deep);")],
        ["test_reply", "test_limits", "test_decode"]),
    Mutation(
        "parse_json_depth_off_by_one",
        "parse_json refuses nesting deeper than max_depth, at exactly that level",
        "include/elicit/form/limits.hpp",
        [("static_cast<std::size_t>(depth) >= limits.max_depth", "static_cast<std::size_t>(depth) > limits.max_depth")],
        ["test_limits"]),
    Mutation(
        "format_violation_lost",
        "every rule a value breaks is reported: a length fault does not hide a format fault",
        READ,
        [("    check_length(s, length, r);\n    check_format(s, text, r);",
          "    check_length(s, length, r);\n    if (r.out.total() == before) check_format(s, text, r);")],
        ["test_decode"]),
    Mutation(
        "indexed_choice_not_checked",
        "a pick among many options is one of the wire values offered (found through the index)",
        "include/elicit/detail/model/option_index.hpp",
        [("      if (s.tag == tag && same_text(options_[s.position - 1].wire, wire)) return &options_[s.position - 1];",
          "      return &options_[s.position - 1];")],
        ["test_protocol", "test_form"]),
    Mutation(
        "choice_list_unbounded",
        "a message about a choice lists at most 10 options, then how many more",
        "include/elicit/detail/model/reporter.hpp",
        [("    const std::size_t shown = s.option_count < shown_options ? s.option_count : shown_options;",
          "    const std::size_t shown = s.option_count;")],
        ["test_protocol"]),
    Mutation(
        "violation_budget_ignored",
        "a violation list costs at most max_text: the -32602 error is bounded for any answer and form",
        "include/elicit/answer/violation.hpp",
        [("    if (!summary && list_.cost_ + cost > violation_list::max_text - summary_room) {",
          "    if (false) {")],
        ["test_protocol"]),
    Mutation(
        "violation_summary_lost",
        "violations past the limit are counted and summarised, not dropped",
        "include/elicit/answer/violation.hpp",
        [("  if (summarized_ || total_ == listed()) return;", "  if (summarized_ || total_ >= listed()) return;")],
        ["test_limits", "test_decode"]),
    Mutation(
        "decline_read_as_cancel",
        "decline and cancel are kept apart",
        DECODE,
        [('  if (named && same_text(said, "decline")) return {action::decline, std::nullopt};',
          '  if (named && same_text(said, "decline")) return {action::cancel, std::nullopt};')],
        ["test_decode", "test_protocol", "test_reply"]),
    Mutation(
        "text_reader_first_action_wins",
        "decode(text) reads a repeated action as the parser does: the last one wins",
        REPLY,
        [('    if (action) {\n      action_ = text_value{};',
          '    if (action && action_.kind == json_kind::nothing) {\n      action_ = text_value{};')],
        ["test_reply"]),
    Mutation(
        "escaped_key_taken_as_bytes",
        "a key JSON spells with escapes is read, never taken as its bytes",
        REPLY,
        [("if (hint < specs_.size() && specs_[hint].plain_wire && scan_.take_key(specs_[hint].wire)) {",
          "if (hint < specs_.size() && scan_.take_key(specs_[hint].wire)) {")],
        ["test_reply"]),
    Mutation(
        "key_taken_without_its_colon",
        "decode(text) refuses a key with no colon after it, as the parser does, at the same byte",
        SCANNER,
        [("    if (colon == end_ || *colon != ':') return false;\n    at_ = colon + 1;",
          "    if (colon == end_ || *colon != ':') {\n      at_ = colon;\n      return false;\n    }\n    at_ = colon + 1;")],
        ["test_reply"]),
    Mutation(
        "lone_low_surrogate_read",
        "decode(text) refuses what the JSON parser refuses: an escaped low surrogate alone",
        SCANNER,
        [("      if (cp >= 0xDC00 && cp <= 0xDFFF) return fail(failure::syntax);",
          "      if (false && cp >= 0xDC00 && cp <= 0xDFFF) return fail(failure::syntax);")],
        ["test_reply"]),
    Mutation(
        "length_in_bytes",
        "lengths are counted in code points, not bytes",
        READ,
        [("    const std::size_t length = code_points(text);",
          "    const std::size_t length = is_utf8(text) ? text.size() : invalid_utf8;")],
        ["test_decode"]),
    Mutation(
        "integer_takes_fraction",
        "an integer field refuses 12.5",
        READ,
        [('    if (!n || !n->is_whole()) return report_type(r, s, "a whole number", j);',
          '    if (!n) return report_type(r, s, "a whole number", j);')],
        ["test_decode", "test_limits"]),
]

# ---- Running ----------------------------------------------------------------------------------

IGNORED_TOP = {".git", "build", ".cache"}


def log(text):
    print(text, flush=True)


def sync_tree(source: Path, dest: Path):
    """Makes dest a copy of source (build directories and .git left out), writing only the files
    whose content differs, so that an unchanged file keeps its time and is not rebuilt."""
    written = 0
    for root, dirs, files in os.walk(source):
        rel = Path(root).relative_to(source)
        if rel == Path("."):
            dirs[:] = [d for d in dirs if d not in IGNORED_TOP]
        dirs[:] = [d for d in dirs if d != "node_modules" and d != "__pycache__"]
        (dest / rel).mkdir(parents=True, exist_ok=True)
        for name in files:
            src, dst = Path(root) / name, dest / rel / name
            if dst.exists() and filecmp.cmp(src, dst, shallow=False):
                continue
            shutil.copy2(src, dst)
            os.utime(dst)  # newer than anything built from the old content
            written += 1
    # Files gone from the source are removed from the copy.
    for root, dirs, files in os.walk(dest):
        rel = Path(root).relative_to(dest)
        for name in files:
            if not (source / rel / name).exists():
                (Path(root) / name).unlink()
    return written


def run(cmd, cwd=None, log_path=None, env=None):
    """Runs cmd; returns (exit status, seconds). Output goes to log_path (appended)."""
    start = time.monotonic()
    with open(log_path, "a") if log_path else open(os.devnull, "w") as out:
        out.write(f"\n$ {' '.join(str(c) for c in cmd)}\n")
        out.flush()
        rc = subprocess.run([str(c) for c in cmd], cwd=cwd, stdout=out, stderr=subprocess.STDOUT, env=env).returncode
    return rc, time.monotonic() - start


def tail(path, n=25):
    lines = Path(path).read_text(errors="replace").splitlines()
    return "\n".join("    " + l for l in lines[-n:])


def unit_filter(files):
    return ",".join(f"[#{f}]" for f in files)


def apply(src: Path, m: Mutation):
    """Patches the copy; returns the original text of the file, or raises ValueError."""
    path = src / m.path
    original = path.read_text()
    text = original
    for patch in m.patches:
        old, new, count = (patch + (1,))[:3]
        found = text.count(old)
        if found != count:
            raise ValueError(f"{m.path}: the snippet occurs {found} times, not {count}: {old!r}")
        text = text.replace(old, new)
    path.write_text(text)
    return original


def main():
    here = Path(__file__).resolve().parent
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--source", type=Path, default=here.parent.parent)
    parser.add_argument("--work", type=Path, default=Path(os.environ.get("TMPDIR", "/tmp")) / "elicit-mutation")
    # clang++ compiles the unit tests about a third faster than g++ at -O0.
    parser.add_argument("--compiler", default=next(
        (c for c in ("clang++-14", "clang++", "g++-12", "c++") if shutil.which(c)), "c++"))
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", default=None, help="run only these mutations")
    parser.add_argument("--list", action="store_true", help="list the mutations and exit")
    args = parser.parse_args()

    if args.list:
        for m in MUTATIONS:
            log(f"{m.name:32} {m.path}: {m.claim}")
        return 0
    selected = MUTATIONS
    if args.only:
        unknown = set(args.only) - {m.name for m in MUTATIONS}
        if unknown:
            log(f"mutation: no mutation named {', '.join(sorted(unknown))}")
            return 2
        selected = [m for m in MUTATIONS if m.name in args.only]
    for tool in ("cmake", "ninja"):
        if not shutil.which(tool):
            log(f"mutation: {tool} is not on PATH")
            return 2

    source = args.source.resolve()
    work = args.work.resolve()
    if work == source or source in work.parents and not str(work.relative_to(source)).startswith("build"):
        log(f"mutation: the work directory must be outside the source tree (or under its build/): {work}")
        return 2
    src, build, logs = work / "src", work / "build", work / "logs"
    logs.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()

    log(f"mutation: copying {source} to {src}")
    written = sync_tree(source, src)
    log(f"mutation: {written} files written")

    setup_log = logs / "setup.log"
    setup_log.write_text("")
    # Only what the checks need; -O0 without debug information compiles fastest.
    rc, _ = run(["cmake", "-S", src, "-B", build, "-G", "Ninja", f"-DCMAKE_CXX_COMPILER={args.compiler}",
                 "-DCMAKE_BUILD_TYPE=None", "-DCMAKE_CXX_FLAGS=-O0", "-DELICIT_WERROR=OFF",
                 "-DELICIT_BUILD_SAMPLES=OFF", "-DELICIT_INSTALL=OFF", "-DELICIT_CONSUMER_TESTS=OFF",
                 "-DELICIT_HEADER_TESTS=OFF", "-DELICIT_DIFFERENTIAL_TESTS=OFF", "-DELICIT_PEER_TESTS=OFF",
                 "-DELICIT_COMPILE_FAIL_TESTS=ON", "-DELICIT_FUZZ=OFF", "-DELICIT_BENCHMARKS=OFF",
                 "-DELICIT_MUTATION_TESTS=OFF",
                 # It builds unit_tests alone: a compile-fail case it runs is compiled whole, on no
                 # precompiled header (the build would have to make it again after each mutation).
                 "-DELICIT_COMPILE_FAIL_PCH=OFF"], log_path=setup_log)
    if rc != 0:
        log(f"mutation: configuring the copy failed:\n{tail(setup_log)}")
        return 2
    unit_tests = build / "tests" / "unit_tests"

    def build_units(log_path):
        return run(["cmake", "--build", build, "-j", args.jobs, "--target", "unit_tests"], log_path=log_path)

    def run_checks(unit, ctest, log_path):
        """Runs the unit test files `unit` and the CTest tests matching `ctest`: True when they all
        pass. An empty selection fails (--warn NoTests, --no-tests=error)."""
        rc, _ = run([unit_tests, "-#", unit_filter(unit), "--warn", "NoTests", "--order", "decl"], log_path=log_path)
        passed = rc == 0
        if ctest:
            rc, _ = run(["ctest", "--test-dir", build, "-R", ctest, "--no-tests=error", "-j", args.jobs,
                         "--output-on-failure"], log_path=log_path)
            passed = passed and rc == 0
        return passed

    # The tests must pass on the unmutated copy, or a "caught" means nothing.
    log("mutation: building and running the tests unmutated")
    rc, seconds = build_units(setup_log)
    if rc != 0:
        log(f"mutation: the unmutated copy does not build:\n{tail(setup_log)}")
        return 2
    all_unit = sorted({f for m in selected for f in m.unit})
    all_ctest = "|".join(f"({m.ctest})" for m in selected if m.ctest)
    if not run_checks(all_unit, all_ctest, setup_log):
        log(f"mutation: the tests fail without a mutation: see {setup_log}\n{tail(setup_log)}")
        return 2
    log(f"mutation: baseline passes (build {seconds:.0f} s; {time.monotonic() - started:.0f} s so far)")

    results = []
    for m in selected:
        m_log = logs / f"{m.name}.log"
        m_log.write_text(f"mutation {m.name}: {m.claim}\n")
        t0 = time.monotonic()
        try:
            original = apply(src, m)
        except ValueError as e:
            results.append((m, "NOT APPLIED", 0.0, 0.0, str(e)))
            log(f"  {m.name}: NOT APPLIED: {e}")
            continue
        try:
            rc, build_seconds = build_units(m_log)
            if rc != 0:
                # A test's static_assert that fails is a catch; any other compile error is the
                # mutation's own fault (its patch must compile).
                test_static = [l for l in m_log.read_text(errors="replace").splitlines()
                               if "/tests/" in l and "static assertion failed" in l]
                test_seconds = 0.0
                if test_static:
                    status, note = "caught", "at compile time: " + test_static[0].split("/tests/", 1)[1][:100]
                else:
                    status, note = "BUILD FAILED", f"see {m_log}"
            else:
                t1 = time.monotonic()
                survived = run_checks(m.unit, m.ctest, m_log)
                test_seconds = time.monotonic() - t1
                status, note = ("SURVIVED", f"see {m_log}") if survived else ("caught", "")
        finally:
            (src / m.path).write_text(original)  # restored; its new time rebuilds what used the mutant
        results.append((m, status, build_seconds, test_seconds, note))
        log(f"  {m.name}: {status} (build {build_seconds:.0f} s, tests {test_seconds:.0f} s, "
            f"{time.monotonic() - t0:.0f} s in all)")

    log("")
    log(f"{'mutation':32} {'result':12} {'build':>7} {'tests':>7}  claim")
    for m, status, b, t, note in results:
        log(f"{m.name:32} {status:12} {b:6.0f}s {t:6.0f}s  {m.claim}" + (f" [{note}]" if note else ""))
    caught = sum(1 for r in results if r[1] == "caught")
    log(f"\nmutation: {caught} of {len(results)} mutations caught, in {time.monotonic() - started:.0f} s; "
        f"logs in {logs}")
    return 0 if caught == len(results) else 1


if __name__ == "__main__":
    sys.exit(main())
