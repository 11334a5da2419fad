#!/bin/bash
# gdt's spaces tuned exhaustively on the H100 (medium, CUDA), then random, annealing and the model replayed
set -u
R=$OUT/tunegdt; mkdir -p $R
export DH_CACHE_DIR=/tmp/dhcache
H=build/harness
DH_JOURNAL=/tmp/dh-journal-gdt.tsv timeout 400 $H run --suite frontier --bench gdt --backend cuda \
   --variant baseline,gpu_tdr --param alg=dgi,dgi_scan,hot_dgi,hot_warp_scan,buy_pool --size medium --tune exhaustive \
   --tune-reps 5 --reps 10 --remap-overhead no --out $R/tune > $R/tune.txt 2>&1
echo "exit $?" >> $R/tune.txt
timeout 150 $H tune-study $R/tune/results.xml --bbv-backend cuda --model-picks 3 > $R/tune-study.txt 2>&1
echo "exit $?" >> $R/tune-study.txt
cd $OUT && tar czf tunegdt.tgz tunegdt
