#!/bin/bash
# the multi-item placer's offsets by a warp scan (new) against the loop (old), alternating
set -u
R=$OUT/scan; mkdir -p $R
export DH_CACHE_DIR=/tmp/dhcache
cp .gpu/harness-old build/harness-old; chmod +x build/harness-old
common="--suite micro --size medium --backend cuda --reps 20 --counters no --no-model --remap-overhead no --variant gpu_tdr --param wg=512"
for round in 1 2; do for b in old new; do
  H=build/harness; [ $b = old ] && H=build/harness-old
  for ipl in 8 16; do
    $H run $common --param alg=scan_multi,adapt_scan,count_multi --param ipl=$ipl --param layers=1 --param paths=2,4,8 --out $R/$b-ipl$ipl-r$round > $R/$b-ipl$ipl-r$round.log 2>&1
  done
  $H run $common --param alg=scan_multi,adapt_scan --param ipl=8 --param layers=2 --param paths=2 --param once=1 --out $R/$b-nested-r$round > $R/$b-nested-r$round.log 2>&1
done; done
build/harness run --suite micro --size medium --backend cuda --reps 20 --counters no --no-model --variant cpu_tdr --param mech=rr --param regroup=key --param wg=512 --param layers=1,2 --param paths=2,4,8 --out $R/cpu > $R/cpu.log 2>&1
for f in $R/*.log; do echo "== $(basename $f)"; grep -oE 'gpu_tdr\[alg=[a-z_]+\].*paths=[0-9],seed=1: [a-z]+, [0-9.]+ ms|cpu_tdr.*paths=[0-9],seed=1: [a-z]+, [0-9.]+ ms' $f | sed -E 's/divfrac=1,iters=1024,//; s/,seed=1//'; done > $R/summary.txt
cd $OUT && tar czf scan.tgz scan
