#!/bin/bash
# micro on an input already uniform (divfrac=0): baseline, cpu_tdr[rr,key] and adapt_scan, timed and under ncu
set -u
R=$OUT/uni; mkdir -p $R
export DH_CACHE_DIR=/tmp/dhcache
H=build/harness
w="--suite micro --size medium --backend cuda --param divfrac=0 --param layers=1 --param paths=2 --param wg=512"
$H run $w --reps 20 --counters no --no-model --variant baseline,cpu_tdr --param mech=rr --param regroup=key --out $R/t1 > $R/t1.log 2>&1
$H run $w --reps 20 --counters no --no-model --remap-overhead no --variant gpu_tdr --param alg=adapt_scan,scan_multi --param ipl=8 --out $R/t2 > $R/t2.log 2>&1
m=smsp__inst_executed.sum,smsp__inst_executed_pipe_fma.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active
m=$m,sm__warps_active.avg.pct_of_peak_sustained_active,gpu__time_duration.sum,launch__registers_per_thread,launch__grid_size
m=$m,smsp__thread_inst_executed_per_inst_executed.ratio,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,dram__throughput.avg.pct_of_peak_sustained_elapsed
for vk in baseline::mb_baseline cpu_tdr::mb_rr gpu_tdr:adapt_scan:mb_gpu_tdr gpu_tdr:scan_multi:mb_gpu_tdr; do
  IFS=: read -r v a k <<< "$vk"
  extra=""; [ $v = cpu_tdr ] && extra="--param mech=rr --param regroup=key"
  [ $v = gpu_tdr ] && extra="--param alg=$a --param ipl=8 --remap-overhead no"
  timeout 120 ncu --metrics $m -k $k -c 1 --csv $H run $w --variant $v $extra --reps 1 --warmup 1 --isolate no \
     --counters no --no-model --out /tmp/u-$v$a > $R/ncu-$v$a.csv 2>&1
  echo "$v $a: $(grep -E '^"[0-9]' $R/ncu-$v$a.csv | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
done > $R/ncu.txt
grep -hoE '(baseline|cpu_tdr\[[^]]*\]|gpu_tdr\[[^]]*\]) .*: ok, [0-9.]+ ms' $R/t1.log $R/t2.log > $R/summary.txt
cd $OUT && tar czf uni.tgz uni
