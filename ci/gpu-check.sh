#!/usr/bin/env bash
# ci/gpu-check.sh OUTDIR [STEPS] — everything the GPU machine should do, in
# one call: environment, device list, the tests that need a GPU, the micro
# suite on CUDA and on NVIDIA's OpenCL, compute-sanitizer memcheck and
# racecheck. Results, logs and XML go to OUTDIR.
#
# The GPU machine has no network: bring build/ from a machine with the
# packages (make && make unit-tests && ci/bundle-libs.sh build), or let
# this script build there when it can. STEPS (default "env tests micro
# sanitize") picks steps. Each step has its own time limit, well under 10
# minutes. Knobs: SIZE (medium), REPS (20), SUITE_ARGS (extra run args).
# Steps: env tests micro sanitize (sanitize-SUITE: frontier parboil rodinia darm bbv) standalone ncu sweep wg tune
# tune-frontier frontier
# frontier-large tdr-new tdr-more gdt-meld gdt-meld-port sw-heavy nqu-windows nqu-launches darm-windows measured measured-2 each darm-large parboil parboil-ncu pb-static-ncu model-ncu micro-gap rodinia rodinia-lud rodinia-hip rodinia-ncu darm bbv study nightly model (= model-micro model-frontier) hip ab-micro
# overlap (= overlap-micro overlap-frontier: run --overlap no, yes, no, yes with a cold cache each)
# aa ab-frontier (OLD=an earlier build's harness: the same cases timed by
# both, alternating, judged by harness compare);
# "all" = every one.
set -u
out=${1:?usage: ci/gpu-check.sh OUTDIR [STEPS]}
steps=${2:-env tests micro sanitize}
[ "$steps" = all ] && steps="env tests micro sanitize sanitize-frontier sanitize-parboil standalone ncu sweep wg tune frontier frontier-large hip"
mkdir -p "$out"
cd "$(dirname "$0")/.."
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH=$CUDA_HOME/bin:$PATH
[ -d build/lib ] && export LD_LIBRARY_PATH=$PWD/build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export DH_CACHE_DIR=${DH_CACHE_DIR:-/tmp/dh-cache}
H=build/harness
log() { echo "== $* ($(date -u +%T))" | tee -a "$out/gpu-check.log"; }

# NVIDIA's OpenCL is installed but not registered with the ICD loader
if [ -e /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 ] || ldconfig -p | grep -q libnvidia-opencl; then
  [ -f /etc/OpenCL/vendors/nvidia.icd ] || { mkdir -p /etc/OpenCL/vendors; echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd; }
fi
if [ ! -x $H ]; then
  log "build"; make -j16 >>"$out/build.log" 2>&1 || { log "build failed"; tail -30 "$out/build.log"; exit 3; }
fi

# the OpenCL device index of the NVIDIA GPU
ocl_gpu=$($H devices 2>/dev/null | awk '/^opencl/ {o=1; next} /^[a-z]/ {o=0} o && /^  \[[0-9]+\]/ && /gpu/ {gsub(/[^0-9]/,"",$1); print $1; exit}')

# suite_all S: suite S at $SIZE with --variant all, CUDA then NVIDIA's
# OpenCL, each table printed
suite_all() {
  log "$1 suite, cuda (${SIZE:-medium})"
  timeout 560 $H run --suite "$1" --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
      --variant all --out "$out/$1-cuda" ${SUITE_ARGS:-} > "$out/$1-cuda.txt" 2>&1
  grep -vE "^\[" "$out/$1-cuda.txt" | sed -n '/^bench/,/^$/p'
  if [ -n "$ocl_gpu" ]; then
    log "$1 suite, opencl device $ocl_gpu (${SIZE:-medium})"
    timeout 560 $H run --suite "$1" --size "${SIZE:-medium}" --backend opencl --device "$ocl_gpu" \
        --reps "${REPS:-20}" --variant all --out "$out/$1-opencl" ${SUITE_ARGS:-} \
        > "$out/$1-opencl.txt" 2>&1
    grep -vE "^\[" "$out/$1-opencl.txt" | sed -n '/^bench/,/^$/p'
  fi
}

for s in $steps; do case $s in
env)
  log "env"
  { nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,power.limit --format=csv; $H devices; } 2>&1 | tee "$out/devices.txt" ;;
tests)
  log "tests"
  for t in build/tests/test_run build/tests/test_isolation build/tests/test_remap build/tests/test_sanitize; do
    [ -x $t ] && timeout 300 $t 2>&1 | tail -n 12 | tee -a "$out/tests.txt"
  done ;;
micro)
  log "micro suite, cuda (${SIZE:-medium})"
  timeout 540 $H run --suite micro --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
      --out "$out/micro-cuda" ${SUITE_ARGS:-} 2>&1 | tee "$out/micro-cuda.txt"
  if [ -n "$ocl_gpu" ]; then
    log "micro suite, opencl device $ocl_gpu"
    timeout 540 $H run --suite micro --size "${SIZE:-medium}" --backend opencl --device "$ocl_gpu" \
        --reps "${REPS:-20}" --out "$out/micro-opencl" ${SUITE_ARGS:-} 2>&1 | tee "$out/micro-opencl.txt"
  fi ;;
sanitize|sanitize-*)
  # every kernel and variant of a suite (sanitize = micro; sanitize-frontier,
  # sanitize-parboil, sanitize-rodinia, ...), small, in-process so the tool
  # sees every launch; each tool under SAN_LIMIT seconds (190); one
  # line per tool: exit code, errors/hazards reported, kernels launched
  suite=${s#sanitize}; suite=${suite#-}; suite=${suite:-micro}
  extra=""; [ "$suite" = micro ] && extra="--param iters=16"
  if command -v compute-sanitizer >/dev/null; then
    for tool in memcheck racecheck synccheck; do
      log "compute-sanitizer $tool: $suite"
      f="$out/sanitize-$suite-$tool.txt"
      # racecheck over darm or bbv takes 8-10 minutes here: SAN_LIMIT=590
      timeout ${SAN_LIMIT:-190} compute-sanitizer --tool $tool --error-exitcode 9 --print-limit 20 \
          $H run --suite $suite --size small --variant all --backend cuda --reps 1 --warmup 1 \
          --isolate no --counters no $extra --out "/tmp/san-$suite-$tool" > "$f" 2>&1
      rc=$?
      echo "$suite $tool exit $rc; $(grep -E 'ERROR SUMMARY|RACECHECK SUMMARY|SYNCCHECK SUMMARY' "$f" | tail -1); cases: $(grep -cE ' ok | wrong | timeout | crash | build ' "$f")" \
          | tee -a "$out/gpu-check.log" "$out/sanitize-summary.txt"
    done
  fi ;;
standalone)
  # harness vs a plain CUDA program around the same kernel (P=2, medium)
  log "standalone timing"
  rm -rf /tmp/dh-dump
  $H run --suite micro --backend cuda --variant baseline --param paths=2 --param layers=1 \
      --size medium --reps 50 --counters no --dump-source /tmp/dh-dump --out "$out/standalone" \
      > "$out/standalone.txt" 2>&1
  opts=$(sed 's/-D /-D/g' /tmp/dh-dump/*.options)
  if nvcc -O3 -arch=sm_90 $opts -o /tmp/micro_baseline tools/standalone/micro_baseline.cu \
       >>"$out/standalone.txt" 2>&1; then
    for k in 1 2 3; do /tmp/micro_baseline $((1 << 22)) 50; done | tee -a "$out/standalone.txt"
  fi
  grep -A1 "^bench" "$out/standalone.txt" | tail -1 ;;
ncu)
  # CUPTI (the harness's counters) vs ncu on the same launch
  log "ncu vs counters"
  for v in baseline melded; do
    timeout 300 ncu --metrics smsp__thread_inst_executed_pred_on.sum,smsp__inst_executed.sum \
        -k mb_$v -c 1 --csv $H run --suite micro --backend cuda --variant $v --param paths=4 \
        --param layers=1 --size medium --reps 1 --warmup 1 --isolate no --counters no \
        --out /tmp/ncu-$v > "$out/ncu-$v.csv" 2>&1
    grep -E "smsp__" "$out/ncu-$v.csv" | tail -2
  done
  $H run --suite micro --backend cuda --variant baseline,melded --param paths=4 --param layers=1 \
      --size medium --reps 5 --counters yes --out "$out/cupti" 2>&1 | grep -E "^branch" ;;
sweep)
  log "break-even sweep over path length"
  timeout 540 $H run --suite micro --backend cuda --variant baseline,gpu_tdr,melded \
      --param paths=2,4 --param layers=1 --param iters=4,16,64,256,1024,4096 --size medium \
      --reps "${REPS:-20}" --out "$out/sweep" > "$out/sweep.txt" 2>&1; tail -3 "$out/sweep.txt" ;;
wg)
  log "work-group size sweep"
  for wg in 64 128 256 512 1024; do
    timeout 300 $H run --suite micro --backend cuda --variant baseline,gpu_tdr --param wg=$wg \
        --size medium --reps "${REPS:-20}" --out "$out/wg-$wg" > "$out/wg-$wg.txt" 2>&1
    echo "wg $wg: exit $?"
  done ;;
tune)
  # exhaustive tuning of the micro spaces, then the strategies replayed on it
  log "tuning (exhaustive) and tune-study"
  DH_JOURNAL=/tmp/dh-journal.tsv timeout 540 $H run --suite micro --backend cuda \
      --variant baseline,gpu_tdr --size medium --tune exhaustive --tune-reps 5 \
      --reps "${REPS:-20}" --out "$out/tune-micro" > "$out/tune-micro.txt" 2>&1
  grep -E "^tuned" "$out/tune-micro.txt"
  $H tune-study "$out/tune-micro/results.xml" | tee "$out/tune-study.txt" ;;
tune-frontier)
  # the frontier spaces tuned exhaustively (medium, CUDA), one benchmark a
  # step of its own time limit, then random, annealing and the model's
  # ranking replayed on them (the model's BBVs from a profiling run on
  # this GPU: --bbv-backend cuda)
  log "frontier tuning (exhaustive) and tune-study"
  for b in gdt cvp pol; do
    DH_JOURNAL=/tmp/dh-journal-frontier.tsv timeout 580 $H run --suite frontier --bench $b \
        --backend cuda --variant baseline,gpu_tdr --size medium --tune exhaustive \
        --tune-reps 5 --reps 10 --remap-overhead no --out "$out/tune-frontier-$b" \
        > "$out/tune-frontier-$b.txt" 2>&1
    echo "tune-frontier $b: exit $?"
    grep -E "^tuned" "$out/tune-frontier-$b.txt"
    timeout 300 $H tune-study "$out/tune-frontier-$b/results.xml" --bbv-backend cuda \
        --model-picks 3 | tee "$out/tune-study-frontier-$b.txt"
  done ;;
frontier|frontier-large)
  size=medium; [ "$s" = frontier-large ] && size=large
  log "frontier suite, cuda ($size)"
  timeout 560 $H run --suite frontier --size $size --backend cuda --reps "${REPS:-20}" \
      --out "$out/frontier-cuda-$size" > "$out/frontier-cuda-$size.txt" 2>&1
  grep -E "^(bench|cvp|gdt|pol) |^    " "$out/frontier-cuda-$size.txt"
  if [ -n "$ocl_gpu" ] && [ "$size" = medium ]; then
    log "frontier suite, opencl device $ocl_gpu ($size)"
    timeout 560 $H run --suite frontier --size $size --backend opencl --device "$ocl_gpu" \
        --reps "${REPS:-20}" --out "$out/frontier-opencl-$size" > "$out/frontier-opencl-$size.txt" 2>&1
    grep -E "^(cvp|gdt|pol) " "$out/frontier-opencl-$size.txt"
  fi ;;
tdr-new)
  # the gpu_tdr forms not yet timed on a GPU: pb's static_trips (CUDA and
  # NVIDIA's OpenCL), gdt's forms without a remap per layer (default wg,
  # then wg 512), micro's multi-item forms on the nested branch
  log "tdr-new: pb static_trips (${SIZE:-medium})"
  timeout 120 $H run --suite parboil --bench pb --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
      --variant baseline,gpu_tdr --param alg=static_trips,hot --out "$out/pb-static-cuda" > "$out/pb-static-cuda.txt" 2>&1
  [ -n "$ocl_gpu" ] && timeout 120 $H run --suite parboil --bench pb --size "${SIZE:-medium}" --backend opencl \
      --device "$ocl_gpu" --reps "${REPS:-20}" --variant baseline,gpu_tdr --param alg=static_trips,hot \
      --out "$out/pb-static-opencl" > "$out/pb-static-opencl.txt" 2>&1
  log "tdr-new: gdt forms (${SIZE:-medium})"
  timeout 240 $H run --suite frontier --bench gdt --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
      --variant baseline,gpu_tdr --remap-overhead no --out "$out/gdt-forms" > "$out/gdt-forms.txt" 2>&1
  timeout 150 $H run --suite frontier --bench gdt --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
      --variant baseline,gpu_tdr --param alg=kind_buy_pool,key_dlt,key_dlt_buy_pool --param wg=512 \
      --remap-overhead no --out "$out/gdt-forms-wg512" > "$out/gdt-forms-wg512.txt" 2>&1
  log "tdr-new: micro multi-item, nested (${SIZE:-medium})"
  timeout 90 $H run --suite micro --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
      --variant baseline,cpu_tdr,gpu_tdr --param paths=2 --param layers=2 --param mech=rr --param regroup=key \
      --param alg=scan_multi,adapt_scan --param ipl=8 --param wg=512 --param once=1 --remap-overhead no \
      --out "$out/micro-multi-nested" > "$out/micro-multi-nested.txt" 2>&1
  grep -hE "^(bench|pb|gdt|branch) " "$out"/pb-static-*.txt "$out"/gdt-forms*.txt "$out/micro-multi-nested.txt" ;;
tdr-more)
  # the frontier's gpu_tdr forms where they were not yet timed: gdt's best
  # forms at large (CUDA); CVP's and POL's one-remap forms, tuned as on
  # CUDA (wg 512, minb 2), on NVIDIA's OpenCL (no warp votes: the _dgi
  # forms) and HIP (the _scan forms); then gdt's forms under ncu (DRAM,
  # sectors per request: why CFE rises and the time does not)
  log "tdr-more: gdt forms, large"
  timeout 200 $H run --suite frontier --bench gdt --size large --backend cuda --reps 10 \
      --variant baseline,gpu_tdr --param alg=buy_pool,key_dlt,key_dlt_buy_pool --remap-overhead no \
      --no-model --counters no --out "$out/gdt-forms-large" > "$out/gdt-forms-large.txt" 2>&1
  for be in opencl hip; do
    dev=0; if [ $be = opencl ]; then [ -n "$ocl_gpu" ] || continue; dev=$ocl_gpu; fi
    ca=model_scan; pa=natkey_scan; [ $be = opencl ] && { ca=model_dgi; pa=natkey_dgi; }
    log "tdr-more: cvp $ca, pol $pa on $be (${SIZE:-medium}, wg 512, minb 2)"
    timeout 120 $H run --suite frontier --bench cvp --size "${SIZE:-medium}" --backend $be --device $dev \
        --reps "${REPS:-20}" --variant baseline,gpu_tdr --param alg=$ca --param wg=512 --param minb=2 \
        --param nf=32 --remap-overhead no --out "$out/cvp-onetdr-$be" > "$out/cvp-onetdr-$be.txt" 2>&1
    timeout 120 $H run --suite frontier --bench pol --size "${SIZE:-medium}" --backend $be --device $dev \
        --reps "${REPS:-20}" --variant baseline,gpu_tdr --param alg=$pa --param wg=512 --param minb=2 \
        --param kstat=0 --param nf=32 --remap-overhead no --out "$out/pol-onetdr-$be" > "$out/pol-onetdr-$be.txt" 2>&1
  done
  grep -hE "^(bench|gdt|cvp|pol) " "$out"/gdt-forms-large.txt "$out"/cvp-onetdr-*.txt "$out"/pol-onetdr-*.txt
  NCU_SUITE=frontier RODINIA_NCU="gdt:baseline:gdt_baseline: gdt:gpu_tdr:gdt_gpu_tdr:alg=buy_pool gdt:gpu_tdr:gdt_gpu_tdr:alg=kind_buy_pool gdt:gpu_tdr:gdt_gpu_tdr:alg=key_dlt gdt:gpu_tdr:gdt_gpu_tdr:alg=key_regroup" \
      bash "$0" "$out" rodinia-ncu ;;
gdt-meld)
  # gdt's meld_buy_pool (buy_pool with layers 1-2, fill and sell melded)
  # beside buy_pool and the melded variant: the defaults, then each tuned
  # exhaustively (wg; minb for the pool forms) at medium and at large,
  # then ncu on one launch of each kernel at medium
  # (GDT_SIZES: the sizes, default "medium large"; GDT_NCU=no skips ncu;
  # GDT_NCU_SPECS: the kernels, as RODINIA_NCU of rodinia-ncu)
  for sz in ${GDT_SIZES:-medium large}; do
    log "gdt-meld: defaults, then tuned ($sz)"
    r=20; [ $sz = large ] && r=10
    timeout 150 $H run --suite frontier --bench gdt --size $sz --backend cuda --reps $r \
        --variant baseline,gpu_tdr,melded --param alg=buy_pool,meld_buy_pool,meld_key_dlt --remap-overhead no \
        --tune none --out "$out/gdt-meld-$sz" > "$out/gdt-meld-$sz.txt" 2>&1
    DH_JOURNAL=/tmp/dh-journal-gdt-meld.tsv timeout 420 $H run --suite frontier --bench gdt --size $sz \
        --backend cuda --variant baseline,gpu_tdr,melded --param alg=buy_pool,meld_buy_pool,meld_key_dlt \
        --tune exhaustive --tune-reps 3 --reps $r --remap-overhead no \
        --out "$out/gdt-meld-$sz-tuned" > "$out/gdt-meld-$sz-tuned.txt" 2>&1
  done
  grep -hE "^(bench|gdt|tuned) " "$out"/gdt-meld-*.txt
  [ "${GDT_NCU:-yes}" = no ] ||
  NCU_SUITE=frontier RODINIA_NCU="${GDT_NCU_SPECS:-gdt:baseline:gdt_baseline: gdt:melded:gdt_melded: gdt:gpu_tdr:gdt_gpu_tdr:alg=buy_pool gdt:gpu_tdr:gdt_gpu_tdr:alg=meld_buy_pool gdt:gpu_tdr:gdt_gpu_tdr:alg=meld_key_dlt,wg=512 gdt:melded:gdt_melded:wg=512}" \
      bash "$0" "$out" rodinia-ncu ;;
gdt-meld-port)
  # gdt's meld_key_dlt on NVIDIA's OpenCL (tuned over wg, beside the
  # baseline and melded, tuned too) and on HIP (NVIDIA platform; the
  # defaults, then wg 1024: each HIP build takes seconds)
  if [ -n "$ocl_gpu" ]; then
    log "gdt-meld-port: opencl device $ocl_gpu (${SIZE:-medium})"
    DH_JOURNAL=/tmp/dh-journal-gdt-port.tsv timeout 300 $H run --suite frontier --bench gdt \
        --size "${SIZE:-medium}" --backend opencl --device "$ocl_gpu" --reps "${REPS:-20}" \
        --variant baseline,gpu_tdr,melded --param alg=meld_key_dlt --tune exhaustive --tune-reps 3 \
        --remap-overhead no --out "$out/gdt-port-opencl" > "$out/gdt-port-opencl.txt" 2>&1
  fi
  for wg in 256 1024; do
    log "gdt-meld-port: hip, wg $wg (${SIZE:-medium})"
    timeout 200 $H run --suite frontier --bench gdt --size "${SIZE:-medium}" --backend hip \
        --reps "${REPS:-20}" --variant baseline,gpu_tdr,melded --param alg=meld_key_dlt --param wg=$wg \
        --tune none --remap-overhead no --out "$out/gdt-port-hip-wg$wg" > "$out/gdt-port-hip-wg$wg.txt" 2>&1
  done
  grep -hE "^(bench|gdt|tuned) " "$out"/gdt-port-*.txt ;;
sw-heavy)
  # bbv/sw's BBV regroupings dealt as they come (deal=1) and costliest
  # first (deal=2), local mode: whether a shortest-first order (sort) or
  # merge order (greedy) loses to key's longest-first only by the order
  # of the work-groups an SM favours
  for d in 1 2; do
    log "sw-heavy: deal=$d (${SIZE:-medium})"
    timeout 250 $H run --suite bbv --bench sw --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
        --variant baseline,cpu_tdr --param mode=local --param regroup=key,sort,greedy,greedymax \
        --param deal=$d --out "$out/sw-deal$d" > "$out/sw-deal$d.txt" 2>&1
  done
  grep -hE "^(bench|sw) " "$out"/sw-deal*.txt ;;
nqu-windows)
  # darm/nqu's modeled CFE with ordered BBVs (one window per K iterations
  # of the search) against CUPTI's, the same runs: totals, then K = 4, 2, 1
  # (K = 1 at medium: 16 GB of counters, DH_BBV_LIMIT_MB raised)
  for k in 0 4 2 1; do
    log "nqu-windows: K=$k (${SIZE:-medium})"
    if [ $k = 0 ]; then w=; else w=$k; fi
    DH_BBV_WINDOW=$w DH_BBV_LIMIT_MB=24000 timeout 300 $H run --suite darm --bench nqu \
        --size "${SIZE:-medium}" --backend cuda --reps 5 --variant baseline \
        --param per_launch=all,2wg --param order=natural,random --fresh --no-cache \
        --out "$out/nqu-win$k" > "$out/nqu-win$k.txt" 2>&1
  done
  grep -hE "^(bench|nqu) " "$out"/nqu-win*.txt ;;
measured|measured-2|measured-tdr|each)
  # block costs measured per instruction (DH_BLOCK_COSTS=measured: CUPTI's
  # SASS metrics of each workload's baseline, mapped through the listing):
  # each baseline's modeled CFE against CUPTI's in the same run, per-block
  # tables in measured-dump/ (docs/model.md "Block costs measured per
  # instruction"); the workloads: ci/measured-workloads.sh (set 1;
  # measured-2: set 2, the rest of the newer suites).
  # measured-tdr: the cpu_tdr regroupings of micro and pol priced with
  # the baseline's measured costs (the model's speedup errors).
  # each: the benchmarks whose tables declare blocks decided each
  # iteration (dh_bb_def.each: ms, bfs, pb), their baselines with
  # measured costs, then with their preferred costs (e-*) and BFS's and
  # PB's cpu_tdr regroupings as Table V runs them (docs/results/h100-model.md), counters on.
  mkdir -p "$out/measured-dump"
  mrun() {
    local name=$1; shift
    DH_BLOCK_COSTS=measured DH_MEASURED_DUMP="$out/measured-dump" DH_BBV_LIMIT_MB=24000 \
      timeout 280 $H run --backend cuda --reps "${MREPS:-3}" --variant "${MVARIANT:-baseline}" --fresh --no-cache \
      --out "$out/m-$name" "$@" > "$out/m-$name.txt" 2>&1
    echo "$name rc=$?"; grep -m3 "measured\|error" "$out/m-$name.txt"
  }
  . ci/measured-workloads.sh
  if [ "$s" = measured ]; then
    measured_workloads 1 mrun
  elif [ "$s" = each ]; then
    mrun ms --suite darm --bench ms --size medium
    DH_BBV_WINDOW=1 mrun bfs-win1 --suite rodinia --bench bfs --size medium
    mrun pb --suite parboil --bench pb --size medium
    erun() {
      local name=$1; shift
      timeout 280 $H run --backend cuda --reps 10 --fresh --no-cache --out "$out/e-$name" "$@" \
        > "$out/e-$name.txt" 2>&1
      echo "e-$name rc=$?"; sed -n '/^BBV model/,/^mean/p' "$out/e-$name.txt"
    }
    erun ms --suite darm --bench ms --size medium --variant baseline
    DH_BBV_WINDOW=1 erun bfs-win1 --suite rodinia --bench bfs --size medium --variant baseline
    DH_BLOCK_COSTS=hand DH_BBV_WINDOW=1 erun bfs-win1-hand --suite rodinia --bench bfs --size medium \
        --variant baseline
    erun bfs-tdr --suite rodinia --bench bfs --size medium --variant baseline,cpu_tdr \
        --param mech=dlt --param regroup=key,sort,greedy,greedymax
    erun pb-tdr --suite parboil --bench pb --size medium --variant baseline,cpu_tdr \
        --param mech=rr --param regroup=key,sort,greedy,greedymax
  elif [ "$s" = measured-tdr ]; then
    MREPS=10 MVARIANT=baseline,cpu_tdr mrun tdr-micro --suite micro --size medium --param mech=rr \
        --param regroup=key,sort,greedy,greedymax
    MREPS=10 MVARIANT=baseline,cpu_tdr mrun tdr-pol --suite frontier --bench pol --size medium \
        --param regroup=key,sort,greedy,greedymax
    sed -n '/^BBV model/,/^mean/p' "$out"/m-tdr-*.txt
  else
    measured_workloads 2 mrun
  fi
  python3 - "$out" <<'P'
import glob, re, sys
for f in sorted(glob.glob(sys.argv[1] + "/m-*/results.xml")):
    x = open(f).read()
    for m in re.finditer(r'<run [^>]*id="([^"]*)"', x):
        seg = x[m.start():x.find('</run>', m.start())]
        c = re.findall(r'<model [^>]*costs="([^"]*)"[^>]*cfe32="([0-9.]*)"', seg)
        k = re.findall(r'source="counters" value="([0-9.]*)"', seg)
        if c and k:
            print("%-60s %-9s modeled %.3f CUPTI %.3f  %+.1f" % (m.group(1)[-60:], c[0][0],
                  float(c[0][1]), float(k[0]), 100 * (float(c[0][1]) - float(k[0]))))
P
  ;;
darm-windows)
  # darm's pcm (a step a phase) and bit (a step a (k, j) of the network)
  # with one-step windows of ordered BBVs, CUPTI's CFE in the same runs
  # (their totals' figures are the committed darm runs')
  log "darm-windows: pcm and bit, K=1 (${SIZE:-medium})"
  DH_BBV_WINDOW=1 DH_BBV_LIMIT_MB=24000 timeout 280 $H run --suite darm --bench pcm \
      --size "${SIZE:-medium}" --backend cuda --reps 5 --variant baseline --param bs=32,256 \
      --param input=ranges,random --fresh --no-cache --out "$out/pcm-win1" > "$out/pcm-win1.txt" 2>&1
  DH_BBV_WINDOW=1 DH_BBV_LIMIT_MB=24000 timeout 280 $H run --suite darm --bench bit \
      --size "${SIZE:-medium}" --backend cuda --reps 5 --variant baseline --param bs=32,256 \
      --param input=desc,random --fresh --no-cache --out "$out/bit-win1" > "$out/bit-win1.txt" 2>&1
  grep -hE "^(bench|pcm|bit) " "$out"/pcm-win1.txt "$out"/bit-win1.txt ;;
nqu-launches)
  # the scheduled metric run launch by launch, checked on launch shapes
  # it was not fixed on: NQU with two groups a launch at wg 64 and 256
  # (the rows it was fixed on are wg 128), natural and random order
  for wg in 64 256; do
    log "nqu-launches: wg $wg (${SIZE:-medium})"
    timeout 250 $H run --suite darm --bench nqu --size "${SIZE:-medium}" --backend cuda --reps 10 \
        --variant baseline,cpu_tdr --param per_launch=2wg --param order=natural,random \
        --param regroup=key,sort,greedy,greedymax --param deal=0 --param wg=$wg --tune none \
        --out "$out/nqu-2wg-wg$wg" > "$out/nqu-2wg-wg$wg.txt" 2>&1
  done
  grep -hE "^(bench|nqu) " "$out"/nqu-2wg-wg*.txt ;;
parboil)
  # the parboil suite at medium, every remap form, CUDA then NVIDIA's
  # OpenCL (no warp votes there: hot and dgi only); counters on for CFE
  log "parboil suite, cuda (${SIZE:-medium})"
  timeout 560 $H run --suite parboil --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
      --param alg=hot,dgi,hot_warp,dgi_scan --param gkey=trips,hits --out "$out/parboil-cuda" ${SUITE_ARGS:-} \
      > "$out/parboil-cuda.txt" 2>&1
  grep -E "^(bench|lbm|pb|histo) |^    " "$out/parboil-cuda.txt"
  if [ -n "$ocl_gpu" ]; then
    log "parboil suite, opencl device $ocl_gpu (${SIZE:-medium})"
    timeout 560 $H run --suite parboil --size "${SIZE:-medium}" --backend opencl --device "$ocl_gpu" \
        --reps "${REPS:-20}" --param alg=hot,dgi --param gkey=trips,hits --out "$out/parboil-opencl" ${SUITE_ARGS:-} \
        > "$out/parboil-opencl.txt" 2>&1
    grep -E "^(lbm|pb|histo) " "$out/parboil-opencl.txt"
  fi ;;
parboil-ncu)
  # why the parboil variants gain or lose: one launch of each kernel under
  # ncu (DRAM and SM throughput, sectors per load request, occupancy,
  # registers, thread-instructions per warp-instruction = CFE)
  log "parboil under ncu (${SIZE:-medium})"
  m=dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
  m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  m=$m,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
  m=$m,smsp__thread_inst_executed_per_inst_executed.ratio,gpu__time_duration.sum
  for bv in lbm:baseline:lbm_base lbm:cpu_tdr:lbm_rr lbm:gpu_tdr:lbm_gpu_tdr pb:baseline:pb_base \
            pb:cpu_tdr:pb_rr pb:gpu_tdr:pb_gpu_tdr histo:baseline:histo_main \
            histo:cpu_tdr:histo_main histo:gpu_tdr:histo_gpu_tdr; do
    IFS=: read -r b v k <<< "$bv"
    timeout 200 ncu --metrics $m -k $k -c 1 --csv $H run --suite parboil --bench $b --backend cuda \
        --variant $v $([ $v = gpu_tdr ] && echo --param alg=dgi_scan) --size "${SIZE:-medium}" --reps 1 --warmup 1 --isolate no \
        --counters no --no-model --out /tmp/ncu-$b-$v > "$out/ncu-$b-$v.csv" 2>&1
    echo "$b $v: $(grep -E '^"[0-9]' "$out/ncu-$b-$v.csv" | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
  done | tee "$out/parboil-ncu.txt" ;;
model-ncu)
  # why a regrouped pol runs faster than its CFE says (docs/model.md "pol
  # against its model"): the baseline and cpu_tdr key / sort of pol and
  # cvp, every launch of the timed kernel under ncu (a BBV regrouping's
  # profiling launch comes first; the last row is the timed one): issue,
  # instructions, warps active, each stall reason per issued instruction,
  # the busiest SM against the mean
  log "model under ncu (${SIZE:-medium})"
  m=smsp__inst_executed.sum,smsp__thread_inst_executed.sum,gpu__time_duration.sum
  m=$m,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
  m=$m,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.max,launch__registers_per_thread
  m=$m,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  m=$m,smsp__warps_eligible.avg.per_cycle_active,smsp__warps_active.avg.per_cycle_active
  for r in no_instruction branch_resolving barrier long_scoreboard short_scoreboard wait math_pipe_throttle \
           not_selected selected dispatch_stall mio_throttle lg_throttle imc_miss drain membar sleeping tex_throttle; do
    m=$m,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
  done
  for spec in ${MODEL_NCU:-pol:baseline:pl_baseline: pol:cpu_tdr:pl_baseline:regroup=key pol:cpu_tdr:pl_baseline:regroup=sort \
              cvp:baseline:cvp_baseline: cvp:cpu_tdr:cvp_baseline:regroup=key cvp:cpu_tdr:cvp_baseline:regroup=sort}; do
    IFS=: read -r b v k p <<< "$spec"
    pa=(); for kv in ${p//,/ }; do pa+=(--param "$kv"); done
    f="$out/ncu-$b-$v${p:+-${p//[,=]/_}}.csv"
    # a BBV regrouping needs its profiling launch (the model on); key and
    # the baseline run without it
    nm=--no-model; case $p in *regroup=sort*|*regroup=greedy*) nm= ;; esac
    timeout 200 ncu --metrics $m -k $k -c 4 --csv $H run --suite frontier --bench $b --backend cuda \
        --variant $v "${pa[@]}" --size "${SIZE:-medium}" --reps 1 --warmup 1 --isolate no \
        --counters no $nm --fresh --out /tmp/ncu-m-$b-$v-$p > "$f" 2>&1
    # one line per launch: instructions and time (the profiling launch
    # counts blocks, so it issues more)
    grep -E '^"[0-9]' "$f" | awk -F'","' '$(NF-2)=="smsp__inst_executed.sum" || $(NF-2)=="gpu__time_duration.sum" {printf "  launch %s %s=%s\n", substr($1,2), $(NF-2), $NF}'
    echo "$b $v $p: $(grep -E '^"[0-9]' "$f" | tail -n $(echo $m | tr , '\n' | wc -l) | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
  done | tee "$out/model-ncu.txt" ;;
pb-static-ncu)
  # PB's static map against the baseline and hot, one launch each under ncu
  # at k=3 s=2 and k=2 s=2: the prediction in docs/results/ for static_trips is about
  # 13% fewer warp instructions at k=3 s=2 and twice the store sectors
  log "pb static_trips under ncu (${SIZE:-medium})"
  m=dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
  m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__thread_inst_executed_per_inst_executed.ratio
  m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__inst_executed.sum
  m=$m,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,gpu__time_duration.sum
  for ks in "3 2" "2 2"; do
    read -r k s <<< "$ks"
    for vk in baseline::pb_base gpu_tdr:static_trips:pb_gpu_tdr gpu_tdr:hot:pb_gpu_tdr; do
      IFS=: read -r v a kern <<< "$vk"
      tag=k$k-s$s-$v${a:+-$a}
      timeout 200 ncu --metrics $m -k $kern -c 1 --csv $H run --suite parboil --bench pb --backend cuda \
          --variant $v ${a:+--param alg=$a} --param k=$k --param s=$s --size "${SIZE:-medium}" --reps 1 \
          --warmup 1 --isolate no --counters no --no-model --out /tmp/ncu-pb-$tag > "$out/ncu-pb-$tag.csv" 2>&1
      echo "pb $tag: $(grep -E '^"[0-9]' "$out/ncu-pb-$tag.csv" | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
    done
  done | tee "$out/pb-static-ncu.txt" ;;
micro-gap)
  # micro's multi-item remap (scan_multi, wg 512, ipl IPL, default 16)
  # against cpu_tdr's own kernel (mb_rr, key regrouping), one launch each
  # under ncu at each of PATHS (default "2 8"): instructions, issue rate,
  # active cycles, warps active, stall reasons (docs/results/h100-micro.md,
  # "Where the rest of the gap is")
  log "micro gap under ncu (ipl ${IPL:-16}, paths ${PATHS:-2 8})"
  m=smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active
  m=$m,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__thread_inst_executed_per_inst_executed.ratio,gpu__time_duration.sum
  for r in barrier long_scoreboard short_scoreboard wait math_pipe_throttle not_selected selected dispatch_stall; do
    m=$m,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
  done
  m=$m,sm__cycles_active.avg,sm__cycles_elapsed.max,launch__grid_size,launch__registers_per_thread,smsp__inst_executed_pipe_fma.sum
  for p in ${PATHS:-2 8}; do
    timeout 150 ncu --metrics $m -k mb_rr -c 1 --csv $H run --suite micro --size medium --backend cuda --variant cpu_tdr \
        --param mech=rr --param regroup=key --param wg=512 --param paths=$p --param layers=1 --reps 1 --warmup 1 \
        --isolate no --counters no --no-model --out /tmp/g-rr-$p > "$out/ncu-p$p-cpu_tdr.csv" 2>&1
    timeout 150 ncu --metrics $m -k mb_gpu_tdr -c 1 --csv $H run --suite micro --size medium --backend cuda \
        --variant gpu_tdr --param alg=scan_multi --param ipl=${IPL:-16} --param wg=512 --param paths=$p --param layers=1 \
        --reps 1 --warmup 1 --isolate no --counters no --no-model --remap-overhead no --out /tmp/g-sm-$p \
        > "$out/ncu-p$p-scan_multi.csv" 2>&1
    for v in cpu_tdr scan_multi; do
      echo "P=$p $v: $(grep -E '^"[0-9]' "$out/ncu-p$p-$v.csv" | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
    done
  done | tee "$out/ncu.txt" ;;
rodinia)
  # the rodinia suite at medium: every benchmark and variant, each bs and
  # meld form, CUDA then NVIDIA's OpenCL; counters on for CFE
  suite_all rodinia ;;
rodinia-lud)
  # rodinia/lud alone: every bs (16 32 64), baseline against melded
  # (meld=wave and always), ddom and kms, the perimeter launches timed, at
  # medium then large (LUD_SIZES; large's CPU reference LU takes a while)
  for sz in ${LUD_SIZES:-medium large}; do
    log "rodinia/lud, cuda ($sz)"
    timeout 560 $H run --suite rodinia --bench lud --size "$sz" --backend cuda --reps "${REPS:-20}" \
        --variant all --param mat=ddom,kms --out "$out/lud-$sz" ${SUITE_ARGS:-} > "$out/lud-$sz.txt" 2>&1
    grep -vE "^\[" "$out/lud-$sz.txt" | sed -n '/^bench/,/^$/p'
  done ;;
darm)
  # the darm suite at medium: every benchmark and variant, each bs, input
  # and meld form, CUDA then NVIDIA's OpenCL; counters on for CFE
  suite_all darm ;;
darm-large)
  # the darm suite at large, baseline against melded[darm], on DARM_BACKENDS
  # (default "cuda opencl hip"): BIT, PCM, MS and NQU in one call, then
  # DCT's bs=16 alone (its large case spends about 30 s in its measure
  # phase); timings only, 5 repetitions (MS's baseline is 1.7 s a launch)
  for be in ${DARM_BACKENDS:-cuda opencl hip}; do
    dev=0; [ $be = opencl ] && { [ -n "$ocl_gpu" ] || continue; dev=$ocl_gpu; }
    if [ $be != cuda ]; then
      log "darm large, $be: bit pcm ms nqu"
      timeout 400 $H run --suite darm --bench bit,pcm,ms,nqu --size large --backend $be --device $dev \
          --reps 5 --variant baseline,melded --param meld=darm --param per_launch=all --no-model --counters no \
          --out "$out/darm-large-$be" > "$out/darm-large-$be.txt" 2>&1
      grep -vE "^\[" "$out/darm-large-$be.txt" | sed -n '/^bench/,/^$/p'
    fi
    log "darm large, $be: dct bs=16"
    timeout 200 $H run --suite darm --bench dct --size large --backend $be --device $dev --reps 5 \
        --variant baseline,melded --param meld=darm --param bs=16 --param wg=256 --no-model --counters no \
        --out "$out/dct16-large-$be" > "$out/dct16-large-$be.txt" 2>&1
    grep -vE "^\[" "$out/dct16-large-$be.txt" | sed -n '/^bench/,/^$/p'
  done ;;
rodinia-hip)
  log "rodinia suite, hip (${SIZE:-medium})"
  timeout 560 $H run --suite rodinia --size "${SIZE:-medium}" --backend hip --reps "${REPS:-20}" \
      --variant all --out "$out/rodinia-hip" ${SUITE_ARGS:-} > "$out/rodinia-hip.txt" 2>&1
  grep -vE "^\[" "$out/rodinia-hip.txt" | sed -n '/^bench/,/^$/p' ;;
rodinia-ncu)
  # why the rodinia variants gain or lose: one launch of each timed kernel
  # under ncu, per bs / meld form (RODINIA_NCU: "bench:variant:kernel:params ...",
  # e.g. "lud:baseline:lu_peri_base:bs=16,wg=32 lud:melded:lu_peri_meld:bs=16,wg=32";
  # NCU_SUITE picks another suite, e.g. NCU_SUITE=bbv RODINIA_NCU="sw:cpu_tdr:sw_align:regroup=key")
  ns=${NCU_SUITE:-rodinia}
  log "$ns under ncu (${SIZE:-medium})"
  m=dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
  m=$m,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum
  m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
  m=$m,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,gpu__time_duration.sum
  m=$m,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,sm__cycles_active.max
  m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  for spec in ${RODINIA_NCU:-}; do
    IFS=: read -r b v k p <<< "$spec"
    pa=(); for kv in ${p//,/ }; do pa+=(--param "$kv"); done
    timeout 200 ncu --metrics $m -k $k -c 1 --csv $H run --suite "$ns" --bench $b --backend cuda \
        --variant $v "${pa[@]}" --size "${SIZE:-medium}" --reps 1 --warmup 1 --isolate no \
        --counters no --no-model --fresh --out /tmp/ncu-$b-$v > "$out/ncu-$b-$v-${p//[,=]/_}.csv" 2>&1
    echo "$b $v $p: $(grep -E '^"[0-9]' "$out/ncu-$b-$v-${p//[,=]/_}.csv" | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
  done | tee "$out/$ns-ncu.txt" ;;
study)
  # the vendor-comparison study (issue: H100 and H200, each through CUDA,
  # NVIDIA OpenCL and HIP): STUDY_SUITES (default micro,frontier) at $SIZE
  # on every backend's device 0 into $out/study (resumable: the same step
  # again in the same OUT keeps finished cases), then the report
  log "study ${STUDY_SUITES:-micro,frontier} (${SIZE:-medium})"
  timeout 560 $H study --suite "${STUDY_SUITES:-micro,frontier}" --backend cuda,opencl,hip \
      --device 0 --size "${SIZE:-medium}" --reps "${REPS:-20}" --out "$out/study" ${SUITE_ARGS:-} \
      > "$out/study.txt" 2>&1
  tail -20 "$out/study.txt" ;;
bbv)
  # the bbv suite (loop-trip workloads) at medium: every variant, every
  # host regrouping and remap form, CUDA then NVIDIA's OpenCL (no warp
  # votes there: dgi only); the BBV model's predictions beside them
  log "bbv suite, cuda (${SIZE:-medium})"
  timeout 560 $H run --suite bbv --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
      --variant all --param regroup=key,sort,greedy,greedymax --param alg=dgi,dgi_scan \
      --out "$out/bbv-cuda" ${SUITE_ARGS:-} > "$out/bbv-cuda.txt" 2>&1
  grep -vE "^\[" "$out/bbv-cuda.txt" | sed -n '/^bench/,$p'
  if [ -n "$ocl_gpu" ]; then
    log "bbv suite, opencl device $ocl_gpu (${SIZE:-medium})"
    timeout 560 $H run --suite bbv --size "${SIZE:-medium}" --backend opencl --device "$ocl_gpu" \
        --reps "${REPS:-20}" --variant all --param regroup=key,sort,greedy,greedymax \
        --param alg=dgi --out "$out/bbv-opencl" ${SUITE_ARGS:-} > "$out/bbv-opencl.txt" 2>&1
    grep -vE "^\[" "$out/bbv-opencl.txt" | sed -n '/^bench/,/^$/p'
  fi ;;
nightly)
  # the nightly's own run: every suite at medium, default variants, CUDA;
  # the log's per-case lines give each suite's share of the time
  log "every suite, cuda (${SIZE:-medium}), the nightly"
  t0=$(date +%s)
  timeout 590 $H run --suite all --size "${SIZE:-medium}" --backend cuda ${SUITE_ARGS:-} \
      --out "$out/nightly" > "$out/nightly.txt" 2> "$out/nightly-progress.txt"
  echo "exit $?, $(( $(date +%s) - t0 )) s" | tee -a "$out/nightly-progress.txt"
  tail -n 3 "$out/nightly-progress.txt" ;;
model|model-micro|model-frontier)
  # the BBV model against CUPTI: baseline and every cpu_tdr regrouping,
  # counters on (docs/model.md); micro first (where the table was checked),
  # then the frontier (held out); "model" does both
  if [ "$s" != model-frontier ]; then
  log "BBV model: micro (medium)"
  timeout 500 $H run --suite micro --size medium --backend cuda --variant baseline,cpu_tdr \
      --param mech=rr --param regroup=key,sort,greedy,greedymax --reps "${REPS:-10}" \
      --out "$out/model-micro" > "$out/model-micro.txt" 2>&1
  sed -n '/^BBV model/,/^mean/p' "$out/model-micro.txt"
  fi
  if [ "$s" != model-micro ]; then
  log "BBV model: frontier (${SIZE:-medium})"
  timeout 560 $H run --suite frontier --size "${SIZE:-medium}" --backend cuda \
      --variant baseline,cpu_tdr --param regroup=key,sort,greedy,greedymax --reps "${REPS:-10}" \
      --out "$out/model-frontier" > "$out/model-frontier.txt" 2>&1
  sed -n '/^BBV model/,/^mean/p' "$out/model-frontier.txt"
  fi ;;
hip)
  # the HIP backend through HIP's NVIDIA platform (plugin build/lib/libdh-hip.so,
  # `make hip-nvidia` on the build machine): its tests, then the micro suite
  log "hip: devices and tests"
  $H devices 2>&1 | sed -n '/^hip/,/^[a-z]/p' | head -4 | tee "$out/hip-devices.txt"
  for t in build/tests/test_hip build/tests/test_remap; do
    [ -x $t ] && timeout 200 $t 2>&1 | tail -n 25 | tee -a "$out/hip-tests.txt"
  done
  log "micro suite, hip (${SIZE:-medium})"
  timeout 400 $H run --suite micro --size "${SIZE:-medium}" --backend hip --reps "${REPS:-20}" \
      --out "$out/micro-hip" ${SUITE_ARGS:-} 2>&1 | tee "$out/micro-hip.txt" | tail -n 40 ;;
aa)
  # A/A false alarms: micro three times and frontier twice at $SIZE on
  # CUDA, the nightly's way (default variants, --remap-overhead no), every
  # pair of runs compared; one line per pair with its verdict counts
  for suite in micro frontier; do
    n=3; [ $suite = frontier ] && n=2
    for k in $(seq 1 $n); do
      log "aa: $suite run $k"
      timeout 300 $H run --suite $suite --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
          --remap-overhead no --out "$out/aa-$suite-$k" > "$out/aa-$suite-$k.txt" 2>&1
    done
    for a in $(seq 1 $n); do for b in $(seq $((a + 1)) $n); do
      $H compare "$out/aa-$suite-$a/results.xml" "$out/aa-$suite-$b/results.xml" \
          > "$out/aa-cmp-$suite-$a$b.txt" 2>&1
      echo "$suite $a-$b: $(grep -E '^[0-9]+ cases:' "$out/aa-cmp-$suite-$a$b.txt")"
      grep -E '^slower' "$out/aa-cmp-$suite-$a$b.txt"
    done; done
  done | tee "$out/aa.txt" ;;
ab-micro|ab-frontier)
  # an earlier build (OLD) against this one on the same cases: medium,
  # cuda, cpu_tdr by key, no model or counters (timings only); old, new,
  # old, new, so that drift shows as a difference between the two pairs
  suite=${s#ab-}
  if [ ! -x "${OLD:-}" ]; then log "$s: set OLD to an earlier build's harness"; continue; fi
  for k in 1 2; do for who in old new; do
    bin=$H; [ $who = old ] && bin=$OLD
    log "$s: $who ($k)"
    timeout 130 $bin run --suite "$suite" --size "${SIZE:-medium}" --backend cuda \
        --reps "${REPS:-20}" --param regroup=key --no-model --counters no \
        --out "$out/ab-$suite-$who$k" > "$out/ab-$suite-$who$k.txt" 2>&1
  done; done
  for k in 1 2; do
    $H compare "$out/ab-$suite-old$k/results.xml" "$out/ab-$suite-new$k/results.xml" \
        > "$out/ab-$suite-compare$k.txt" 2>&1
    tail -n 25 "$out/ab-$suite-compare$k.txt"
  done ;;
overlap|overlap-micro|overlap-frontier)
  # run --overlap (the next workload's input and CPU reference made in a
  # background process while the current one is timed): micro and
  # frontier at $SIZE on CUDA, no, yes, no, yes, each with a cold
  # workload and program cache (a fresh DH_CACHE_DIR); wall time, setup
  # time and what the background made per run, then harness compare on
  # the kernel medians: no against yes in each pair, and no against no,
  # yes against yes (A/A: the noise the verdicts stand against)
  suites="micro frontier"; [ "$s" != overlap ] && suites=${s#overlap-}
  for suite in $suites; do
    for k in 1 2; do for ov in no yes; do
      d="$out/overlap-$suite-$ov$k"
      rm -rf "$d" "$d.cache"; mkdir -p "$d.cache"
      log "overlap $suite: --overlap $ov ($k), cold cache"
      t0=$(date +%s.%N)
      DH_CACHE_DIR="$d.cache" timeout 280 $H run --suite "$suite" --size "${SIZE:-medium}" \
          --backend cuda --reps "${REPS:-10}" --overlap $ov --out "$d" ${SUITE_ARGS:-} \
          > "$d.txt" 2> "$d.progress.txt"
      rc=$?
      wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
      setup=$(grep -o 'setup_ms="[^"]*"' "$d/results.xml" 2>/dev/null | tr -dc '0-9.\n' \
              | awk '{s += $1} END {printf "%.2f", s / 1000}')
      echo "overlap $suite $ov$k: exit $rc, wall $wall s, setup in the cases $setup s;" \
           "$(grep '^harness: overlap' "$d.progress.txt" | tail -1)" | tee -a "$out/overlap.txt"
      rm -rf "$d.cache"
    done; done
    for pair in "no1 yes1" "no2 yes2" "no1 no2" "yes1 yes2"; do
      set -- $pair
      $H compare "$out/overlap-$suite-$1/results.xml" "$out/overlap-$suite-$2/results.xml" \
          > "$out/overlap-$suite-compare-$1-$2.txt" 2>&1
      rc=$?
      echo "compare $suite $1 -> $2: exit $rc; $(grep -E '^[0-9]+ cases|regression' "$out/overlap-$suite-compare-$1-$2.txt" | tr '\n' ' ')" \
          | tee -a "$out/overlap.txt"
    done
  done ;;
*) log "unknown step $s" ;;
esac
# whatever has finished comes back, even if a later step runs out of time
tar czf "$out.tgz" -C "$out" . 2>/dev/null
done
log "done"
# one archive, so every result comes back in one file
tar czf "$out.tgz" -C "$out" . && echo "archive: $out.tgz"
