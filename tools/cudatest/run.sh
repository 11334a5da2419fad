#!/bin/bash
# Throwaway: build and exercise backends/cuda on the GPU machine.
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=/tmp/cudatest; rm -rf $B; mkdir -p $B; chmod 755 $B
echo "== tools"; which gcc g++ nvcc ncu setpriv; gcc --version | head -1; ldd --version | head -1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv 2>&1 | head -3
echo "== cupti headers/libs"
find / -xdev -name cupti_range_profiler.h 2>/dev/null; find / -xdev -name 'libcupti.so*' 2>/dev/null; find / -xdev -name 'libnvrtc.so*' 2>/dev/null | head; ls -ld /usr/local/cuda /usr/local/cuda/include /usr/local/cuda/lib64 /usr/local/cuda/extras/CUPTI 2>&1
cat /proc/driver/nvidia/params 2>/dev/null | grep -i profil
echo "== build (exact flags)"
set -e
gcc -std=gnu11 -O2 -g -Wall -Wextra -Werror -I backends -I /usr/local/cuda/include -DDH_HAVE_CUDA -c backends/cuda/cuda.c -o $B/cuda.o
gcc -std=gnu11 -O2 -g -Wall -Wextra -Werror -I backends -I /usr/local/cuda/include -DDH_HAVE_CUDA -c backends/cuda/cuda_load.c -o $B/cuda_load.o
g++ -std=c++17 -O2 -g -Wall -Wextra -Werror -I backends -I /usr/local/cuda/include -I /usr/local/cuda/extras/CUPTI/include -c backends/cuda/cupti_cfe.cpp -o $B/cupti_cfe.o
gcc -std=gnu11 -O2 -g -Wall -Wextra -I backends -o $B/t tools/cudatest/main.c $B/cuda.o $B/cuda_load.o $B/cupti_cfe.o backends/errors.c backends/cache.c -ldl -lstdc++ -lm
set +e
echo "built OK"; ldd $B/t
cp suites/lib/dialect.h $B/dialect.h; chmod 644 $B/dialect.h
export DH_CACHE_DIR=$B/cache
echo "== run 1 (cold cache)"; $B/t $B/dialect.h 2>&1 | tee $OUT/run1.txt
echo "== run 2 (warm cache + fault)"; $B/t $B/dialect.h fault 2>&1 | tee $OUT/run2.txt
echo "== run 3 (PTX/JIT route)"; DH_CUDA_PTX=1 $B/t $B/dialect.h 2>&1 | grep -E 'build|scale:|args:|cfe|OK|FAIL' | tee $OUT/run3.txt
echo "== run 4 (not root)"
mkdir -p /tmp/nb && chmod 777 /tmp/nb
setpriv --reuid=65534 --regid=65534 --clear-groups env DH_CACHE_DIR=/tmp/nb HOME=/tmp/nb $B/t $B/dialect.h 2>&1 | grep -E 'probe|counters|OK|FAILED' | tee $OUT/run4.txt
echo "== ncu cross-check"
for k in dv un; do
  timeout 200 ncu --metrics smsp__thread_inst_executed_pred_on.sum,smsp__inst_executed.sum -k $k -c 1 $B/t $B/dialect.h > $OUT/ncu_$k.txt 2>&1
  grep -E 'smsp__|==PROF==|==ERROR|==WARN' $OUT/ncu_$k.txt | head -8
done
ls -la $B/cache/programs
