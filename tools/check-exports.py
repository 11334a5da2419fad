#!/usr/bin/env python3
"""tools/check-exports.py DIR — check what `harness export` wrote into DIR
the way its consumers read it: DIR/results.json against our JSON schema
(results/divharness-results.schema.json), every DIR/t4/*.json against Kernel
Tuner's own T4 results schema (from the kernel_tuner package: PyPI's, which
ci/deps.sh puts in /opt/divharness-kt, or one on sys.path), and DIR/runs.csv
and DIR/samples.csv loaded with pandas: one column per parameter, numbers
as numbers, samples in long form agreeing with the JSON.

Exit 0 all good, 1 a check failed (it says which), 77 a tool is missing
(jsonschema, pandas or the kernel_tuner schema: the caller reports SKIPPED).
"""
import glob
import json
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(here)


def missing(what):
    print(f"check-exports: {what} is not installed: skipped")
    sys.exit(77)


try:
    import jsonschema
except ImportError:
    missing("python3-jsonschema")
try:
    import pandas as pd
except ImportError:
    missing("python3-pandas")
kt = None
for base in ["/opt/divharness-kt"] + sys.path:
    p = os.path.join(base, "kernel_tuner", "schema", "T4", "1.0.0", "results-schema.json")
    if os.path.exists(p):
        kt = p
        break
if not kt:
    missing("kernel_tuner (its T4 schema; ci/deps.sh test installs it)")

d = sys.argv[1]
fails = []


def check(cond, what):
    if not cond:
        fails.append(what)


# our JSON against our schema
doc = json.load(open(os.path.join(d, "results.json")))
ours = json.load(open(os.path.join(root, "results", "divharness-results.schema.json")))
try:
    jsonschema.validate(doc, ours)
except jsonschema.ValidationError as e:
    fails.append(f"results.json: {e.message} at {list(e.absolute_path)}")

# T4 against Kernel Tuner's schema
t4s = sorted(glob.glob(os.path.join(d, "t4", "*.json")))
tuned = sum(1 for r in doc["runs"] if r["tuning"] and r["tuning"]["evaluations"])
check(len(t4s) == tuned, f"{len(t4s)} T4 files for {tuned} tuned runs")
schema = json.load(open(kt))
for f in t4s:
    t = json.load(open(f))
    try:
        jsonschema.validate(t, schema)
    except jsonschema.ValidationError as e:
        fails.append(f"{os.path.basename(f)}: {e.message} at {list(e.absolute_path)}")
    check(t.get("metadata", {}).get("timeunit") == "milliseconds", f"{f}: no metadata.timeunit")
    for r in t["results"]:
        if r["invalidity"] == "correct":
            check(len(r["times"].get("runtimes", [])) >= 1, f"{f}: an evaluation without runtimes")
        check(all(not k in ("mech", "regroup") for k in r["configuration"]),
              f"{f}: cpu_tdr's choices among the baseline's tunables")

# CSV with pandas: one column per parameter, numbers as numbers
runs = pd.read_csv(os.path.join(d, "runs.csv"))
check(len(runs) == len(doc["runs"]), "runs.csv and results.json disagree on the runs")
for r in doc["runs"]:
    for kind in ("choices", "workload", "tunables"):
        for name, v in r[kind].items():
            col = name if name in runs.columns else "param_" + name
            check(col in runs.columns, f"runs.csv has no column for parameter {name}")
            if col in runs.columns and isinstance(v, (int, float)):
                check(pd.api.types.is_numeric_dtype(runs[col]),
                      f"runs.csv: column {col} is not numeric")
check(pd.api.types.is_numeric_dtype(runs["kernel_median_ms"]), "kernel_median_ms is not numeric")
samples = pd.read_csv(os.path.join(d, "samples.csv"))
for c in ("key", "variant", "rep", "kernel_ms", "e2e_ms"):
    check(c in samples.columns, f"samples.csv has no column {c}")
n = sum(len(r["samples"]["kernel_ms"]) for r in doc["runs"])
check(len(samples) == n, f"samples.csv has {len(samples)} rows, results.json {n} kernel samples")
if len(samples):
    med = samples.groupby("key")["kernel_ms"].median()
    for r in doc["runs"]:
        if r["key"] in med and r["kernel"]["median_ms"] is not None:
            check(abs(med[r["key"]] - r["kernel"]["median_ms"]) < 1e-6 * max(1, med[r["key"]]),
                  f"{r['key']}: the samples' median is not the JSON's")

for f in fails:
    print("check-exports:", f)
print(f"check-exports: {len(doc['runs'])} runs, {len(samples)} samples, {len(t4s)} T4 files: "
      + ("ok" if not fails else f"{len(fails)} failures"))
sys.exit(1 if fails else 0)
