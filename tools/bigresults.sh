#!/usr/bin/env bash
# tools/bigresults.sh OUT.xml [RUNS] — a large synthetic results file for
# measuring the readers (compare, export, report, merge, validate) on a
# year of nightly history. The H100 reference results (371 runs over
# CUDA, OpenCL and HIP, merged as in docs/scale.md) are repeated as if
# from more nodes: copy j renames the device to "GPU node j" in each
# run's id and case (keys get j in their last two digits), so every run
# is its own case; the file's devices stay the reference's three. The
# first RUNS runs (default 4500) are kept. Needs build/harness.
set -euo pipefail
out=${1:?usage: tools/bigresults.sh OUT.xml [RUNS]}
want=${2:-4500}
h=${HARNESS:-build/harness}
R=results/reference/h100
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$h" merge "$tmp/base.xml" $R/micro-cuda.xml $R/micro-opencl.xml \
    $R/frontier-cuda-medium.xml $R/frontier-opencl-medium.xml $R/frontier-cuda-large.xml \
    $R/parboil/parboil-*.xml $R/rodinia/srad-bfs-*.xml $R/rodinia/lud-cuda.xml \
    $R/darm/darm-*.xml $R/darm/nqu-cuda.xml $R/bbv/mc-cuda.xml >/dev/null
awk -v want="$want" '
    state == 0 { print; if ($0 ~ /^  <runs>/) state = 1; next }
    state == 1 && /^  <\/runs>/ { state = 2 }
    state == 2 { tail = tail $0 "\n"; next }
    /^    <run / { n = nruns++ }
    { block[n] = block[n] $0 "\n" }
    END {
        made = 0
        for (j = 0; made < want; j++)
            for (i = 0; i < nruns && made < want; i++) {
                made++
                b = block[i]
                if (j > 0) {
                    gsub(/NVIDIA H100 80GB HBM3/, sprintf("GPU node %d", j), b)
                    k = index(b, "key=\"") + 19
                    b = substr(b, 1, k - 1) sprintf("%02x", j % 256) substr(b, k + 2)
                }
                printf "%s", b
            }
        printf "%s", tail
    }' "$tmp/base.xml" > "$out.tmp"
mv "$out.tmp" "$out"
"$h" validate "$out" >/dev/null
echo "$out: $(grep -c '<run ' "$out") runs, $(wc -c < "$out") bytes"
