# ci/gpu/reference.sh — steps of ci/gpu-check.sh: the reference runs behind docs/results/: every suite at medium on CUDA (and NVIDIA's OpenCL), the model against the counters, tuning, the study, the nightly.
# Sourced by ci/gpu-check.sh after ci/gpu/common.sh; gpu_step_reference STEP runs
# STEP and returns 0, or returns 99 when STEP is not one of these.
# Steps: standalone sweep wg tune tune-frontier frontier frontier-large parboil rodinia rodinia-lud darm darm-large bbv study nightly model model-micro model-frontier
gpu_step_reference() {
local s=$1
case $s in
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
*) return 99 ;;
esac
return 0
}
