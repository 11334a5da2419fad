#!/bin/bash
# micro P=2 and 8: cpu_tdr's kernel (mb_rr, key regrouping) against scan_multi (wg 512, ipl 16) under ncu
set -u
R=$OUT/gap8; mkdir -p $R
export DH_CACHE_DIR=/tmp/dhcache
H=build/harness
m=smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active
m=$m,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__thread_inst_executed_per_inst_executed.ratio,gpu__time_duration.sum
m=$m,smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio,smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio
m=$m,smsp__average_warps_issue_stalled_short_scoreboard_per_issue_active.ratio,smsp__average_warps_issue_stalled_wait_per_issue_active.ratio
m=$m,smsp__average_warps_issue_stalled_math_pipe_throttle_per_issue_active.ratio,smsp__average_warps_issue_stalled_not_selected_per_issue_active.ratio
m=$m,smsp__average_warps_issue_stalled_selected_per_issue_active.ratio,smsp__average_warps_issue_stalled_dispatch_stall_per_issue_active.ratio
m=$m,sm__cycles_active.avg,sm__cycles_elapsed.max,launch__grid_size,launch__registers_per_thread,smsp__inst_executed_pipe_fma.sum
for p in 2 4; do
  timeout 150 ncu --metrics $m -k mb_rr -c 1 --csv $H run --suite micro --size medium --backend cuda --variant cpu_tdr \
    --param mech=rr --param regroup=key --param wg=512 --param paths=$p --param layers=1 --reps 1 --warmup 1 --isolate no \
    --counters no --no-model --out /tmp/g-rr-$p > $R/ncu-p$p-cpu_tdr.csv 2>&1
  timeout 150 ncu --metrics $m -k mb_gpu_tdr -c 1 --csv $H run --suite micro --size medium --backend cuda --variant gpu_tdr \
    --param alg=scan_multi --param ipl=8 --param wg=512 --param paths=$p --param layers=1 --reps 1 --warmup 1 --isolate no \
    --counters no --no-model --remap-overhead no --out /tmp/g-sm-$p > $R/ncu-p$p-scan_multi.csv 2>&1
  for v in cpu_tdr scan_multi; do
    echo "P=$p $v: $(grep -E '^"[0-9]' $R/ncu-p$p-$v.csv | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
  done
done > $R/ncu.txt
cd $OUT && tar czf gap8.tgz gap8
