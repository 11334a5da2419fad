#!/bin/bash
# tune-study replays with the remap priced per round, over the committed H100 exhaustive records
set -u
R=$OUT/study; mkdir -p $R
export DH_CACHE_DIR=/tmp/dhcache
H=build/harness
for f in results/reference/h100/tune-gdt-2026-11-26/results.xml \
         results/reference/h100/tune-frontier-2026-11-26/tune-frontier-cvp/results.xml \
         results/reference/h100/tune-frontier-2026-11-26/tune-frontier-pol/results.xml \
         results/reference/h100/tune-micro.xml; do
  n=$(echo $f | sed 's#results/reference/h100/##; s#/#_#g; s#.xml##')
  timeout 170 $H tune-study $f --bbv-backend cuda --model-picks 3 > $R/$n.txt 2>&1
  echo "exit $?" >> $R/$n.txt
done
cd $OUT && tar czf study.tgz study
