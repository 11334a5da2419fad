#!/usr/bin/env python3
"""plant_slowdown.py IN.xml OUT.xml KEY [FACTOR [SERIES]] — a copy of a
results file with the kernel samples of the run whose key is KEY multiplied
by FACTOR (default 1.10): the planted slowdown that `harness compare IN.xml
OUT.xml` must call "slower" (docs/guide/regression-checks.md). KEY may be
"all". SERIES "host" scales the host samples instead (a cpu_tdr host
regression, judged on end-to-end time).

The harness recomputes every statistic from the samples when it reads a
file, so only the one series is changed (end-to-end = kernel + host +
transfer is recomputed too). The cmocka tests do the same in C
(tests/test_compare.c, planted_h100)."""
import sys
import xml.etree.ElementTree as ET


def main():
    if len(sys.argv) not in (4, 5, 6):
        sys.stderr.write(__doc__)
        return 64
    src, dst, key = sys.argv[1:4]
    factor = float(sys.argv[4]) if len(sys.argv) >= 5 else 1.10
    series = sys.argv[5] if len(sys.argv) == 6 else "kernel"
    if series not in ("kernel", "host"):
        sys.stderr.write("plant_slowdown: SERIES %s: want kernel or host\n" % series)
        return 64
    tree = ET.parse(src)
    hit = 0
    for run in tree.getroot().iter("run"):
        if key != "all" and run.get("key") != key:
            continue
        kern = run.find("timing/" + series)
        if kern is None or not (kern.text or "").strip():
            continue
        if series == "host" and not any(float(v) > 0 for v in kern.text.split()):
            continue
        kern.text = " ".join("%.9g" % (float(v) * factor) for v in kern.text.split())
        hit += 1
    if not hit:
        sys.stderr.write("plant_slowdown: no timed run with key %s in %s\n" % (key, src))
        return 3
    tree.write(dst, encoding="UTF-8", xml_declaration=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
