#!/usr/bin/env python3
"""Turns bench_runtime's JSON output (--benchmark_out) into the markdown tables of
docs/performance.md: the median CPU time of each benchmark in ns, and elicit / hand-written."""
import json
import sys


def main(path):
    with open(path) as f:
        data = json.load(f)
    scale = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}
    times = {}
    for b in data["benchmarks"]:
        if b.get("run_type") == "aggregate" and b.get("aggregate_name") != "median":
            continue
        times[b["run_name"]] = b["cpu_time"] * scale[b.get("time_unit", "ns")]
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

    forms = []
    for name in times:
        parts = name.split("/")
        if parts[0] == "schema" and parts[1] not in forms:
            forms.append(parts[1])
    print(f"### Schema retrieval (ns per call, median CPU time of {reps} repetitions; "
          f"{ctx.get('num_cpus', '?')} CPUs at {ctx.get('mhz_per_cpu', '?')} MHz)")
    print()
    print("| form | elicit: schema_json (view) | elicit: std::string copy | elicit: schema() as ordered_json"
          " | hand: build json | hand: build json + dump | copy / hand text | schema() / hand json |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for form in forms:
        view, copy, ej = (t(f"schema/{form}/elicit_{k}") for k in ("view", "string", "json"))
        hj, ht = t(f"schema/{form}/hand_json"), t(f"schema/{form}/hand_text")
        print(f"| {form} | {ns(view)} | {ns(copy)} | {ns(ej)} | {ns(hj)} | {ns(ht)} | {ratio(copy, ht)} | {ratio(ej, hj)} |")

    decode_forms = []
    for name in times:
        parts = name.split("/")
        if parts[0] == "decode" and parts[1] not in decode_forms:
            decode_forms.append(parts[1])
    print()
    print(f"### Decoding an answer (ns per answer, median CPU time of {reps} repetitions)")
    print()
    print("| form | answer | parse alone | text: elicit | text: hand | text: elicit / hand"
          " | json: elicit | json: hand | json: elicit / hand |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for form in decode_forms:
        for kind in ("valid", "invalid"):
            p = t(f"parse/{form}/{kind}")
            te, th = t(f"decode/{form}/{kind}/text/elicit"), t(f"decode/{form}/{kind}/text/hand")
            je, jh = t(f"decode/{form}/{kind}/json/elicit"), t(f"decode/{form}/{kind}/json/hand")
            print(f"| {form} | {kind} | {ns(p)} | {ns(te)} | {ns(th)} | {ratio(te, th)} | {ns(je)} | {ns(jh)} | {ratio(je, jh)} |")


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit("usage: report_runtime.py bench_runtime.json")
    main(sys.argv[1])
