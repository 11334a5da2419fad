# ci/gpu/sanitize.sh — steps of ci/gpu-check.sh: compute-sanitizer (memcheck, racecheck, ...) over every kernel and variant of a suite.
# Sourced by ci/gpu-check.sh after ci/gpu/common.sh; gpu_step_sanitize STEP runs
# STEP and returns 0, or returns 99 when STEP is not one of these.
# Steps: sanitize sanitize-*
gpu_step_sanitize() {
local s=$1
case $s in
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
*) return 99 ;;
esac
return 0
}
