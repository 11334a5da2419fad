# ci/measured-workloads.sh — the workloads of the measured-costs checks,
# sourced by ci/gpu-check.sh (steps measured, measured-2) and
# tools/measured-replay.sh, so the replay prices what the GPU ran.
# measured_workloads SET RUN: RUN NAME ARGS... for each workload of SET
# (1: the frontier and the first of the newer suites, 2: the rest, all:
# both); bit, pcm and gdt small with one-step windows, bfs and nqu with
# one-level windows (DH_BBV_WINDOW=1), as their committed figures.
measured_workloads() {
  local set=$1 run=$2
  if [ "$set" != 2 ]; then
    "$run" micro --suite micro --size medium
    "$run" cvp --suite frontier --bench cvp --size medium
    "$run" pol --suite frontier --bench pol --size medium
    DH_BBV_WINDOW=1 "$run" gdt-win1 --suite frontier --bench gdt --size small
    "$run" dct --suite darm --bench dct --size medium
    "$run" ms --suite darm --bench ms --size medium
    DH_BBV_WINDOW=1 "$run" bit-win1 --suite darm --bench bit --size small --param bs=32,256 --param input=desc,random
    DH_BBV_WINDOW=1 "$run" pcm-win1 --suite darm --bench pcm --size small --param bs=32,256 --param input=ranges,random
    "$run" pb --suite parboil --bench pb --size medium
    "$run" srad --suite rodinia --bench srad --size medium
  fi
  if [ "$set" != 1 ]; then
    "$run" lbm --suite parboil --bench lbm --size medium
    "$run" mc --suite bbv --bench mc --size medium
    "$run" sw --suite bbv --bench sw --size medium
    "$run" lud --suite rodinia --bench lud --size medium
    DH_BBV_WINDOW=1 "$run" bfs-win1 --suite rodinia --bench bfs --size medium
    DH_BBV_WINDOW=1 "$run" nqu-win1 --suite darm --bench nqu --size small
  fi
}
