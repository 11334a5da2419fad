#!/usr/bin/env bash
# tools/tablev.sh OUT_DIR — Table V, docs/results/h100-model.md (the BBV model on the H100)
# recomputed on this machine from committed results: the BBVs and the
# regroupings' orders come from runs of the same cases on the local
# OpenCL device (BBVs do not depend on the device), priced as the H100
# (warp 32, table nvidia-sm90, 132 compute units: DH_MODEL_CUS); the
# measured speedups are the committed H100 runs'. Writes OUT_DIR/<set>/
# results.xml per set of cases and prints tools/tablev.py's table.
# Needs build/harness; about an hour on 2 cores (SW's kernels take
# one to two minutes a run on PoCL). Sets whose results.xml exists are
# not run again, so `tools/tablev.sh results/reference/h100/tablev`
# prints the table from the committed modeled runs.
set -euo pipefail
out=${1:?usage: tools/tablev.sh OUT_DIR}
h=${HARNESS:-build/harness}
R=results/reference/h100
mkdir -p "$out"
export DH_LATENCY_TABLE=nvidia-sm90 DH_WARP_WIDTH=32 DH_MODEL_CUS=132
# the H100's compiled code where a benchmark prefers compiled block costs
# (pol, dh_bench.costs): needs NVRTC and nvdisasm (DH_NVDISASM or PATH);
# without them pol is priced with its hand table and "s (run)" differs
export DH_SASS_ARCH=90
run() {   # name, then run options
    local name=$1
    shift
    # a failed or timed-out run (SW's baselines take minutes on 2 cores)
    # loses only its own timing: every cpu_tdr run's <model> prices the
    # launch order too
    "$h" run --size medium --backend opencl --reps 1 --warmup 1 --variant baseline,cpu_tdr \
        --timeout 1200 --out "$out/$name" "$@" >"$out/$name.txt" 2>"$out/$name.log" ||
        echo "tablev: $name: harness run exited $? (see $out/$name.log)" >&2
    [ -f "$out/$name/results.xml" ] || { echo "tablev: $name: no results" >&2; exit 3; }
}
[ -f "$out/frontier/results.xml" ] ||
    run frontier --suite frontier --bench cvp,pol --param regroup=key,sort,greedy,greedymax
# pol with its hand table, a contrast (docs/model.md "Which costs a
# benchmark prefers")
[ -f "$out/frontier-hand/results.xml" ] ||
    DH_BLOCK_COSTS=hand run frontier-hand --suite frontier --bench pol \
        --param regroup=key,sort,greedy,greedymax
# deal is a tunable, not part of a case: one run each
[ -f "$out/sw-deal2/results.xml" ] ||
    run sw-deal2 --suite bbv --bench sw --param regroup=key,sort,greedy,greedymax --param deal=2
[ -f "$out/sw-deal1/results.xml" ] ||
    run sw-deal1 --suite bbv --bench sw --param regroup=key,sort,greedy,greedymax --param deal=1
[ -f "$out/sw-deal0/results.xml" ] ||
    run sw-deal0 --suite bbv --bench sw --param mode=local --param regroup=key,sort,greedy,greedymax \
        --param deal=0
[ -f "$out/nqu/results.xml" ] ||
    run nqu --suite darm --bench nqu --param per_launch=all,2wg --param order=natural,random \
        --param regroup=key,sort,greedy,greedymax --param deal=0
# cvp and pol: the H100 run of today's code (pol's BBV regroupings sort on
# its 61 blocks since its guards were marked; the first run, model-frontier.xml,
# regrouped on 34, orders this code no longer makes)
# pol: its compiled costs (the run of 2026-11-26 with them, whose
# greedy orders they weigh); cvp keeps its hand table
F=$R/model-frontier-2026-11-26/hand.xml
P=$R/model-preferred-2026-11-26/pol.xml
python3 tools/tablev.py \
    --set cvp $F "$out/frontier/results.xml" bench=cvp \
    --set pol $P "$out/frontier/results.xml" bench=pol \
    --set "SW deal=2" $R/bbv/sw-deal2.xml "$out/sw-deal2/results.xml" - \
    --set "NQU all" $R/darm/nqu-deal0.xml "$out/nqu/results.xml" - \
    --set "NQU 2wg" $R/darm/nqu-cuda.xml "$out/nqu/results.xml" per_launch=2wg \
    --contrast "pol, hand costs" $F "$out/frontier-hand/results.xml" bench=pol \
    --contrast "SW deal=1" $R/bbv/sw-deal1.xml "$out/sw-deal1/results.xml" - \
    --contrast "SW deal=0" $R/bbv/sw-deal0.xml "$out/sw-deal0/results.xml" mode=local
