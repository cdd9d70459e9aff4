#!/usr/bin/env python3
"""Turns bench_runtime's JSON output (--benchmark_out) into the markdown tables of
docs/internals/performance.md: the median CPU time of each benchmark in ns, and elicit / hand-written.
Given bench_ajv.mjs's output as well, adds the table against Node + Ajv and simdjson, with
the allocations per answer. Given callgrind's output files of `bench_count decode ANSWER FROM
REPS` (--callgrind), adds the instructions per decode, which do not move with the machine's
load. --commit names the commit measured in each table's heading. A table is printed only
when the run holds its benchmarks (a run filtered to 'decode/' prints the decode tables).

    report_runtime.py bench_runtime.json [bench_ajv.json] [--commit HASH] [--callgrind FILE...] [--level N]"""
import argparse
import json


def callgrind_counts(paths):
    """(answer, from) -> instructions per call, from callgrind files of bench_count decode runs
    (their `cmd:` line names the answer and the repetitions; `summary:` is what was collected,
    `measured` alone with --toggle-collect)."""
    counts = {}
    for path in paths:
        cmd = summary = None
        with open(path) as f:
            for line in f:
                if line.startswith("cmd:"):
                    cmd = line.split()[1:]
                elif line.startswith("summary:"):
                    summary = int(line.split()[1])
        if cmd is None or summary is None:
            raise SystemExit(f"{path}: no cmd: or summary: line (not a callgrind output file?)")
        args = cmd[cmd.index("decode") + 1:] if "decode" in cmd else []
        if len(args) != 3:
            raise SystemExit(f"{path}: not a run of `bench_count decode ANSWER FROM REPS`")
        answer, source, reps = args
        counts[(answer, source)] = summary / int(reps)
    return counts


def main(path, ajv_path=None, commit=None, callgrind=(), level=3):
    with open(path) as f:
        data = json.load(f)
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    times = {}
    allocs = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        times[b["run_name"]] = b["cpu_time"] * scale[b.get("time_unit", "ns")]
        if "allocs" in b:
            allocs[b["run_name"]] = b["allocs"]
    reps = data["benchmarks"][0].get("repetitions", 1) if data["benchmarks"] else 0
    ctx = data.get("context", {})

    def t(name):
        return times.get(name)

    def ns(v):
        if v is None:
            return "n/a"
        return f"{v:.1f}" if v < 10 else f"{v:,.0f}"

    def ratio(a, b):
        if a is None or b is None:
            return "n/a"
        r = a / b
        return f"{r:.2f}" if r >= 0.1 else f"{r:.5f}"

    at = f", at {commit}" if commit else ""
    printed = False

    def heading(text):
        nonlocal printed
        if printed:
            print()
        printed = True
        print("#" * level + " " + text)
        print()

    forms = []
    for name in times:
        parts = name.split("/")
        if parts[0] == "schema" and parts[1] not in forms:
            forms.append(parts[1])
    if forms:
        heading(f"Schema retrieval (ns per call, median CPU time of {reps} repetitions; "
                f"{ctx.get('num_cpus', '?')} CPUs at {ctx.get('mhz_per_cpu', '?')} MHz{at})")
        print("| form | elicit: schema_json (view) | elicit: std::string copy | elicit: schema() as ordered_json"
              " | hand: build json | hand: build json + dump | copy / hand text | schema() / hand json |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for form in forms:
        view, copy, ej = (t(f"schema/{form}/elicit_{k}") for k in ("view", "string", "json"))
        hj, ht = t(f"schema/{form}/hand_json"), t(f"schema/{form}/hand_text")
        print(f"| {form} | {ns(view)} | {ns(copy)} | {ns(ej)} | {ns(hj)} | {ns(ht)} | {ratio(copy, ht)} | {ratio(ej, hj)} |")

    decode_forms = {}  # form -> its answer kinds, in the order the benchmarks ran
    for name in times:
        parts = name.split("/")
        if parts[0] == "decode" and parts[2] not in decode_forms.setdefault(parts[1], []):
            decode_forms[parts[1]].append(parts[2])
    if decode_forms:
        heading(f"Decoding an answer (ns per answer, median CPU time of {reps} repetitions{at})")
        print("| form | answer | parse alone | text: elicit | text: hand | text: elicit / hand"
              " | json: elicit | json: hand | json: elicit / hand |")
        print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for form, kinds in decode_forms.items():
        for kind in kinds:
            p = t(f"parse/{form}/{kind}")
            te, th = t(f"decode/{form}/{kind}/text/elicit"), t(f"decode/{form}/{kind}/text/hand")
            je, jh = t(f"decode/{form}/{kind}/json/elicit"), t(f"decode/{form}/{kind}/json/hand")
            print(f"| {form} | {kind} | {ns(p)} | {ns(te)} | {ns(th)} | {ratio(te, th)} | {ns(je)} | {ns(jh)} | {ratio(je, jh)} |")

    choice_counts = []  # the option counts of the choices/ benchmarks, in the order they ran
    for name in times:
        parts = name.split("/")
        if parts[0] == "choices" and parts[1].isdigit() and parts[1] not in choice_counts:
            choice_counts.append(parts[1])
    if choice_counts:
        def ms(v):
            return "n/a" if v is None else f"{v / 1e6:.3f}" if v < 1e6 else f"{v / 1e6:.1f}"
        heading(f"Many run-time choices (ms per call, median CPU time of {reps} repetitions{at})")
        print("| options | choices() | title + items + default | decode: 1 MiB of picks | "
              "decode: 1 MiB of wrong picks | all: choices, title, decode |")
        print("|---:|---:|---:|---:|---:|---:|")
        for n in choice_counts:
            cells = [ms(t(f"choices/{n}/{k}")) for k in ("offer", "retitle", "decode_valid", "decode_wrong", "all")]
            print(f"| {int(n):,} | " + " | ".join(cells) + " |")
        enum = t("choices/enum250/decode_wrong")
        if enum is not None:
            print()
            print(f"A compile-time enum of 250 options, 1 MiB of wrong picks: {ms(enum)} ms.")

    if callgrind:
        counts = callgrind_counts(callgrind)
        heading(f"Instructions per decode (callgrind, `bench_count`, one call{at})")
        print("| form | answer | decode(text) | decode(json) |")
        print("|---|---|---:|---:|")
        prefixes = {"contact": "Contact", "shipment": "ShipmentOptions", "order": "Order"}
        answers = []  # in the order of the decode benchmarks when there are some, else as given
        for form, kinds in decode_forms.items():
            for prefix, name in prefixes.items():
                if name == form:
                    answers += [f"{prefix}_{kind}" for kind in kinds]
        answers += [a for a, _ in counts if a not in answers]
        for answer in dict.fromkeys(answers):
            text, parsed = counts.get((answer, "text")), counts.get((answer, "json"))
            if text is None and parsed is None:
                continue
            prefix, kind = answer.split("_", 1)
            cells = ["n/a" if v is None else f"{v:,.0f}" for v in (text, parsed)]
            print(f"| {prefixes.get(prefix, prefix)} | {kind} | " + " | ".join(cells) + " |")

    if ajv_path is None:
        return
    with open(ajv_path) as f:
        ajv = json.load(f)
    node = {b["name"]: b for b in ajv["benchmarks"]}
    actx = ajv.get("context", {})

    def count(name):
        v = allocs.get(name)
        return "n/a" if v is None else f"{v:.0f}" if abs(v - round(v)) < 0.05 else f"{v:.1f}"

    heading(f"Against Node + Ajv and simdjson (ns per answer from text, median of {reps} repetitions{at})")
    print(f"C++ (one binary, -march: {ctx.get('march', '?')}): CPU time of the thread. simdjson "
          f"{ctx.get('simdjson_version', '?')}: stage 1 on the `{ctx.get('simdjson_stage1_kernel', '?')}` kernel "
          f"(picked at run time by the library), On-Demand reading on `{ctx.get('simdjson_ondemand_kernel', '?')}` "
          f"(picked at compile time). Node {actx.get('node', '?')} (V8 {actx.get('v8', '?')}), ajv "
          f"{actx.get('ajv', '?')}, ajv-formats {actx.get('ajv-formats', '?')}: CPU time of the process, "
          f"and wall-clock time. Ratios are elicit / the other, on CPU time; below 1.0 elicit is faster. "
          f"allocs: calls of operator new per answer.")
    print()
    print("| form | answer | elicit decode(text) | hand: nlohmann | hand: simdjson | Node: JSON.parse + Ajv"
          " | Node, wall | elicit / Ajv | elicit / simdjson | allocs: elicit | allocs: nlohmann | allocs: simdjson |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for form, kinds in decode_forms.items():
        for kind in kinds:
            base = f"decode/{form}/{kind}/text/"
            te, th, ts = t(base + "elicit"), t(base + "hand"), t(base + "simdjson")
            nb = node.get(base + "ajv")
            na = nb["cpu_ns"] if nb else None
            nw = nb["wall_ns"] if nb else None
            print(f"| {form} | {kind} | {ns(te)} | {ns(th)} | {ns(ts)} | {ns(na)} | {ns(nw)} | {ratio(te, na)}"
                  f" | {ratio(te, ts)} | {count(base + 'elicit')} | {count(base + 'hand')} | {count(base + 'simdjson')} |")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="bench_runtime's JSON output as markdown tables")
    parser.add_argument("bench_runtime", help="bench_runtime --benchmark_out=... --benchmark_out_format=json")
    parser.add_argument("bench_ajv", nargs="?", help="bench_ajv.mjs --out ...")
    parser.add_argument("--commit", help="the commit measured, named in each table's heading")
    parser.add_argument("--callgrind", nargs="+", default=(), metavar="FILE",
                        help="callgrind outputs of `bench_count decode ANSWER text|json REPS` runs")
    parser.add_argument("--level", type=int, default=3, help="the markdown level of the tables' headings (3: ###)")
    a = parser.parse_args()
    main(a.bench_runtime, a.bench_ajv, a.commit, a.callgrind, a.level)
