#!/bin/bash
set -u
R=$OUT/ipl; mkdir -p $R
export DH_CACHE_DIR=/tmp/dhcache
H=build/harness
for round in 1 2; do
for wg in 256 512 1024; do for ipl in 2 4 8 16; do
  $H run --suite micro --size medium --backend cuda --reps 20 --variant gpu_tdr --param alg=scan_multi --param layers=1 \
    --param paths=2,4,8 --param wg=$wg --param ipl=$ipl --remap-overhead no --counters no --no-model --out $R/wg$wg-ipl$ipl-r$round > $R/wg$wg-ipl$ipl-r$round.log 2>&1
  echo "wg=$wg ipl=$ipl round=$round: $(grep -oE 'paths=[0-9],seed=1: [a-z]+, [0-9.]+ ms' $R/wg$wg-ipl$ipl-r$round.log | sed 's/,seed=1: ok,//' | tr '\n' ' ')"
done; done; done > $R/summary.txt
$H run --suite micro --size medium --backend cuda --reps 20 --variant cpu_tdr --param mech=rr --param regroup=key --param layers=1 --param paths=2,4,8 --param wg=512 --counters no --no-model --out $R/cpu > $R/cpu.log 2>&1
grep -oE 'paths=[0-9],seed=1: [a-z]+, [0-9.]+ ms' $R/cpu.log >> $R/summary.txt
cd $OUT && tar czf ipl.tgz ipl
