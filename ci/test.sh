#!/usr/bin/env bash
# ci/test.sh BUILD — check the layers' include direction, run every test
# program, then the unit tests again
# under AddressSanitizer + UndefinedBehaviorSanitizer. Prints one summary
# line per program and a total; exits nonzero if any test failed.
# Tests that need a device report SKIPPED where there is none.
set -uo pipefail
build=${1:-build}
fail=0; total_pass=0; total_skip=0; total_fail=0
run_one() {  # name, binary, [env...]
  local name=$1 bin=$2; shift 2
  local out; out=$(env "$@" "$bin" 2>&1); local rc=$?
  local p s f
  p=$(grep -oP '^\[  PASSED  \] \K[0-9]+' <<<"$out" | tail -1); p=${p:-0}
  s=$(grep -oP '^\[  SKIPPED \] \K[0-9]+' <<<"$out" | tail -1); s=${s:-0}
  f=$(grep -oP '^\[  FAILED  \] \K[0-9]+' <<<"$out" | tail -1); f=${f:-0}
  if [ $rc -ne 0 ] && [ "$f" = 0 ]; then f=1; fi
  total_pass=$((total_pass+p)); total_skip=$((total_skip+s)); total_fail=$((total_fail+f))
  printf '%-28s passed %3s  skipped %3s  failed %3s\n' "$name" "$p" "$s" "$f"
  if [ "$f" != 0 ]; then fail=1; echo "$out" | sed 's/^/    /'; fi
}
export DH_CACHE_DIR=${DH_CACHE_DIR:-$(mktemp -d)}
# the nvdisasm that reads NVRTC's CUBINs (ci/deps.sh; test_sass skips without)
nvd=/opt/divharness-nvdisasm/nvidia/cu13/bin/nvdisasm
if [ -z "${DH_NVDISASM:-}" ] && [ -x "$nvd" ]; then export DH_NVDISASM=$nvd; fi
# the direction of every include (README "Layout")
if ! bash "$(dirname "$0")/check-layers.sh"; then fail=1; total_fail=$((total_fail+1)); fi
for t in "$build"/tests/test_*; do
  [ -x "$t" ] && [ "${t%.d}" = "$t" ] || continue
  run_one "$(basename "$t")" "$t"
done
# sanitizers: the unit tests that need no device runtime
san=${build}-san
if make -s BUILD="$san" NO_CUDA=1 \
     EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
     LDFLAGS_EXTRA="-fsanitize=address,undefined" unit-tests >/dev/null; then
  for t in stats params ceiling xml compare measure report export mc_table shard sass stream hostwork \
           bbv_model regroup_window; do
    run_one "test_$t (asan+ubsan)" "$san/tests/test_$t" ASAN_OPTIONS=detect_leaks=1
  done
  # the study's matrix and report (its command, test_study_cmd, needs the binary)
  run_one "test_study (asan+ubsan)" "$san/tests/test_study" ASAN_OPTIONS=detect_leaks=1 \
    DH_TEST_NO_DEVICE=1
  # the regroupings (the model is test_bbv_model, above); their device test is SKIPPED here
  run_one "test_bbv (asan+ubsan)" "$san/tests/test_bbv" ASAN_OPTIONS=detect_leaks=1 \
    DH_TEST_NO_DEVICE=1
  # the block costs' tables and latency classes (their profiling runs are SKIPPED here)
  run_one "test_costs (asan+ubsan)" "$san/tests/test_costs" ASAN_OPTIONS=detect_leaks=1 \
    DH_TEST_NO_DEVICE=1
  # the workload cache's store, keys and host data (its runs: test_wcache_runs)
  run_one "test_wcache (asan+ubsan)" "$san/tests/test_wcache" ASAN_OPTIONS=detect_leaks=1 \
    DH_TEST_NO_DEVICE=1
else
  echo "sanitizer build failed"; fail=1
fi
echo "TOTAL: passed $total_pass, skipped $total_skip, failed $total_fail"
exit $fail
