#!/usr/bin/env python3
"""tools/tablev.py — Table V (docs/results/h100-model.md): measured cpu_tdr kernel speedups from
one results file (the H100's committed runs) against the BBV model's
predictions from another (the same cases run where the BBVs were taken,
priced as the measuring device: tools/tablev.sh).

  tools/tablev.py --set NAME MEASURED.xml MODELED.xml FILTER [--set ...]
                  [--contrast NAME MEASURED.xml MODELED.xml FILTER ...]

FILTER: "k=v,k=v" (bench, workload parameters or choices a run must have)
or "-".
Every cpu_tdr run of MEASURED that passes FILTER, has a baseline of its
workload and a modeled run of the same case (suite, bench, variant,
choices, size, workload; not backend, device or tunables) is a row. The
errors are the paper's: |predicted - measured improvement| in points,
improvement = 1 - 1/speedup. Means: each set's, and over all --set rows
(the --contrast sets are shown, not counted). "s (run)" is the
scheduled prediction the measuring run printed itself: where it equals
"s", the modeled file reproduces the measured file's model. Reads XML as
data (xml.etree); prints Markdown.
"""
import argparse
import sys
import xml.etree.ElementTree as ET


def case_key(run):
    c = run.find("case")
    ps = sorted((p.get("name"), p.get("value")) for p in c.findall("param")
                if p.get("kind") in ("workload", "choice"))
    return (c.get("suite"), c.get("bench"), c.get("variant"), c.get("size"), tuple(ps))


def workload_key(run):
    c = run.find("case")
    ps = sorted((p.get("name"), p.get("value")) for p in c.findall("param")
                if p.get("kind") == "workload")
    return (c.get("suite"), c.get("bench"), c.get("size"), tuple(ps))


def load(path):
    try:
        root = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as e:
        sys.exit("tablev: cannot read %s: %s (a divharness results file)" % (path, e))
    runs = [r for r in root.iter("run") if r.get("status") == "ok" and r.find("case") is not None]
    return runs


def median(run):
    k = run.find("timing/kernel")
    return float(k.get("median")) if k is not None else float("nan")


def fnum(e, name):
    v = e.get(name) if e is not None else None
    return float(v) if v is not None else float("nan")


def err(pred, meas):
    if pred != pred or meas != meas or pred <= 0 or meas <= 0:
        return float("nan")
    return abs((1 - 1 / pred) - (1 - 1 / meas)) * 100


def parse_filter(text):
    if text == "-":
        return []
    out = []
    for kv in text.split(","):
        if "=" not in kv:
            sys.exit("tablev: filter %r: want k=v,k=v or -" % text)
        out.append(tuple(kv.split("=", 1)))
    return out


def rows_of(name, measured, modeled, filt):
    mruns = load(measured)
    mod = {}
    for r in load(modeled):
        mod[case_key(r)] = r
    base = {}
    for r in mruns:
        if r.find("case").get("variant") == "baseline":
            base.setdefault(workload_key(r), r)
    rows = []
    for r in mruns:
        c = r.find("case")
        if c.get("variant") != "cpu_tdr" or r.find("model") is None:
            continue
        params = dict((p.get("name"), p.get("value")) for p in c.findall("param"))
        where = dict(params, bench=c.get("bench"))
        if any(where.get(k) != v for k, v in filt):
            continue
        b = base.get(workload_key(r))
        o = mod.get(case_key(r))
        if b is None:
            continue
        if o is None or o.find("model") is None:
            sys.exit("tablev: %s: no modeled run of %s in %s" % (name, r.get("id"), modeled))
        meas = median(b) / median(r)
        m = o.find("model")
        sp = {}
        for k in ("weighted", "sched", "floor"):
            t, bt = fnum(m, "t_" + k), fnum(m, "base_t_" + k)
            sp[k] = bt / t if t > 0 else float("nan")
        dwr = fnum(m, "improvement_dwr")
        own = fnum(r.find("model"), "speedup_sched")
        wl = ",".join("%s=%s" % (k, v) for k, v in sorted(params.items())
                      if k not in ("mech", "regroup", "seed"))
        rows.append({
            "set": name, "bench": c.get("bench"), "workload": wl,
            "regroup": params.get("regroup", "?"), "meas": meas,
            "w": sp["weighted"], "s": sp["sched"], "f": sp["floor"], "s_run": own,
            "err_w": err(sp["weighted"], meas), "err_s": err(sp["sched"], meas),
            "err_f": err(sp["floor"], meas),
            "err_d": abs(dwr - (1 - 1 / meas)) * 100 if dwr == dwr else float("nan"),
        })
    return rows


def mean(rows, k):
    v = [r[k] for r in rows if r[k] == r[k]]
    return sum(v) / len(v) if v else float("nan")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--set", nargs=4, action="append", default=[],
                    metavar=("NAME", "MEASURED", "MODELED", "FILTER"))
    ap.add_argument("--contrast", nargs=4, action="append", default=[],
                    metavar=("NAME", "MEASURED", "MODELED", "FILTER"))
    a = ap.parse_args()
    if not a.set:
        ap.error("at least one --set")
    counted, shown = [], []
    for group, target in ((a.set, counted), (a.contrast, shown)):
        for name, meas, mod, filt in group:
            rows = rows_of(name, meas, mod, parse_filter(filt))
            if not rows:
                sys.exit("tablev: set %s: no cpu_tdr run with a baseline and a model in %s"
                         % (name, meas))
            target.append((name, rows))
    print("| set | workload | regroup | measured | w | s (run) | s | f | err w | err s | err f | err d |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for name, rows in counted + shown:
        for r in rows:
            print("| %s | %s | %s | %.2f | %.2f | %.2f | %.2f | %.2f | %.1f | %.1f | %.1f | %.1f |"
                  % (name, r["workload"], r["regroup"], r["meas"], r["w"], r["s_run"], r["s"],
                     r["f"], r["err_w"], r["err_s"], r["err_f"], r["err_d"]))
    print()
    print("| set | runs | mean err w | mean err s | mean err f | mean err d |")
    print("|---|---:|---:|---:|---:|---:|")
    every = []
    for name, rows in counted + shown:
        print("| %s%s | %d | %.1f | %.1f | %.1f | %.1f |"
              % (name, "" if (name, rows) in counted else " (not counted)", len(rows),
                 mean(rows, "err_w"), mean(rows, "err_s"), mean(rows, "err_f"),
                 mean(rows, "err_d")))
    for name, rows in counted:
        every += rows
    print("| **all counted** | %d | %.1f | %.1f | %.1f | %.1f |"
          % (len(every), mean(every, "err_w"), mean(every, "err_s"), mean(every, "err_f"),
             mean(every, "err_d")))


if __name__ == "__main__":
    main()
