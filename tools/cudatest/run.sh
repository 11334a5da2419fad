#!/bin/bash
# Throwaway: build and exercise backends/cuda on the GPU machine.
cd "$(dirname "$0")/../.."
OUT=${OUT:-/tmp/out}; mkdir -p "$OUT"
B=/tmp/cudatest; rm -rf $B; mkdir -p $B; chmod 755 $B
echo "== tools"; which gcc g++ nvcc ncu setpriv; gcc --version | head -1; ldd --version | head -1
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv 2>&1 | head -3
echo "== cupti headers/libs"
ls -d /usr/local/cuda/extras/CUPTI/* 2>&1; ls -ld /usr/local/cuda /usr/local/cuda/include /usr/local/cuda/lib64 /usr/local/cuda/extras/CUPTI 2>&1
cat /proc/driver/nvidia/params 2>/dev/null | grep -i profil
echo "== build (exact flags)"
set -e
gcc -std=gnu11 -O2 -g -Wall -Wextra -Werror -I backends -I /usr/local/cuda/include -DDH_HAVE_CUDA -c backends/cuda/cuda.c -o $B/cuda.o
gcc -std=gnu11 -O2 -g -Wall -Wextra -Werror -I backends -I /usr/local/cuda/include -DDH_HAVE_CUDA -c backends/cuda/cuda_load.c -o $B/cuda_load.o
gcc -std=gnu11 -O2 -g -Wall -Wextra -Werror -I backends -I /usr/local/cuda/include -DDH_HAVE_CUDA -c backends/cuda/cuda_rtc.c -o $B/cuda_rtc.o
echo "makefile-style flags:"; for f in cuda cuda_load cuda_rtc; do gcc -std=gnu11 -O2 -g -Wall -Wextra -Wno-format-truncation -Werror -ffp-contract=off -fopenmp -MMD -MP -I. -DDH_HAVE_CUDA -Ibackends -I/usr/local/cuda/include -I/usr/local/cuda/extras/CUPTI/include -c backends/cuda/$f.c -o $B/mk_$f.o; done
g++ -std=c++17 -O2 -g -Wall -Wextra -Wno-format-truncation -Werror -MMD -MP -I. -Ibackends -I/usr/local/cuda/include -I/usr/local/cuda/extras/CUPTI/include -c backends/cuda/cupti_cfe.cpp -o $B/mk_cupti.o
g++ -std=c++17 -O2 -g -Wall -Wextra -Werror -I backends -I /usr/local/cuda/include -I /usr/local/cuda/extras/CUPTI/include -c backends/cuda/cupti_cfe.cpp -o $B/cupti_cfe.o
gcc -std=gnu11 -O2 -g -Wall -Wextra -I backends -o $B/t tools/cudatest/main.c $B/cuda.o $B/cuda_load.o $B/cuda_rtc.o $B/cupti_cfe.o backends/errors.c backends/cache.c -ldl -lstdc++ -lm
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
echo "== no CUPTI findable"; CUDA_HOME=/nonexistent LD_LIBRARY_PATH= $B/t $B/dialect.h 2>&1 | grep -E 'counters|OK|FAILED' | head -4
echo "== under ncu (CUPTI busy)"; timeout 200 ncu --metrics smsp__inst_executed.sum -k dv -c 1 $B/t $B/dialect.h 2>&1 | grep -E 'counters|smsp__|OK|FAILED' | head -6
ls -la $B/cache/programs
