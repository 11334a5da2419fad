#!/bin/bash
set -u
R=$OUT/occ; mkdir -p $R
export DH_CACHE_DIR=/tmp/dhcache
H=build/harness
m=launch__occupancy_limit_shared_mem,launch__occupancy_limit_registers,launch__occupancy_limit_blocks,launch__occupancy_limit_warps
m=$m,sm__maximum_warps_per_active_cycle_pct,launch__shared_mem_config_size,launch__shared_mem_per_block_static,launch__waves_per_multiprocessor
m=$m,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,launch__occupancy_per_block_size
for p in 2 8; do
  timeout 150 ncu --metrics $m -k mb_gpu_tdr -c 1 --csv $H run --suite micro --size medium --backend cuda --variant gpu_tdr \
    --param alg=scan_multi --param ipl=16 --param wg=512 --param paths=$p --param layers=1 --reps 1 --warmup 1 --isolate no \
    --counters no --no-model --remap-overhead no --out /tmp/o-$p > $R/ncu-p$p.csv 2>&1
  echo "P=$p: $(grep -E '^"[0-9]' $R/ncu-p$p.csv | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
done > $R/ncu.txt
cd $OUT && tar czf occ.tgz occ
