#!/usr/bin/env bash
# cold then warm, per suite: harness run --suite S --size medium --backend cuda (default variants)
set -u
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}; export PATH=$CUDA_HOME/bin:$PATH
export DH_CACHE_DIR=$(mktemp -d /tmp/night-XXXXXX)
H=build/harness
o=$OUT
nvidia-smi --query-gpu=name,clocks.max.sm --format=csv,noheader > $o/gpu.txt
for s in $SUITES; do
  for t in cold warm; do
    a=$(date +%s.%N)
    timeout ${LIMIT:-280} $H run --suite $s --size medium --backend cuda --out /tmp/n-$s-$t > $o/$s-$t.txt 2> $o/$s-$t.log
    rc=$?
    b=$(date +%s.%N)
    echo "$s $t rc=$rc wall=$(python3 -c "print(round($b-$a,1))")" | tee -a $o/walls.txt
    cp /tmp/n-$s-$t/results.xml $o/$s-$t.xml 2>/dev/null
  done
done
cd $o && tar czf ../night.tgz . && mv ../night.tgz .
