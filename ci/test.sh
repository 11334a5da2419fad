#!/usr/bin/env bash
# ci/test.sh BUILD [full|quick] — check the layers' include direction, then
# run every test program and, in the full tier, the unit tests again under
# AddressSanitizer + UndefinedBehaviorSanitizer: one queue, side by side
# (JOBS at a time, default the number of cores), the slowest first.
#
# Each program's output stays in its own file, BUILD/test-logs/NAME.log,
# with cmocka's JUnit XML beside it (NAME.xml: every test and its seconds).
# The summary prints one line per program (passed, skipped, failed, wall
# seconds) and, for a program that took 10 s or more, its slowest tests;
# then a total with the wall time. Exits nonzero if any test failed.
#
# Tiers (docs/development/tests.md):
#   full  — everything: device runs on PoCL, the harness end to end, the
#           AMD compile check, the sanitizer pass (`make test`);
#   quick — the same programs with DH_TEST_QUICK=1: a test that needs a
#           device, runs the built harness or a ci/ script reports
#           SKIPPED (`make test-quick`, the edit loop).
# Tests that need a device report SKIPPED where there is none.
set -uo pipefail
build=${1:-build}
tier=${2:-full}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}
here=$(dirname "$0")
logs=$build/test-logs
t_start=$(date +%s.%N)
rm -rf "$logs"
mkdir -p "$logs"
export DH_CACHE_DIR=${DH_CACHE_DIR:-$(mktemp -d)}
# the nvdisasm that reads NVRTC's CUBINs (ci/deps.sh; test_sass skips without)
nvd=/opt/divharness-nvdisasm/nvidia/cu13/bin/nvdisasm
if [ -z "${DH_NVDISASM:-}" ] && [ -x "$nvd" ]; then export DH_NVDISASM=$nvd; fi
[ "$tier" = quick ] && export DH_TEST_QUICK=1
# PoCL compiles each kernel into one generic work-group function and, by
# default, one more for every local size it is launched with; the tests
# verify results, they time nothing that is judged, so the generic one
# serves every launch (the same kernels, the same verification; a third
# less compile time). Set it to 1 to test PoCL's specialised functions.
export POCL_WORK_GROUP_SPECIALIZATION=${POCL_WORK_GROUP_SPECIALIZATION:-0}

# run_prog NAME BINARY [VAR=VALUE...] — one program, its output in
# $logs/NAME.log, cmocka's XML in $logs/NAME.xml, its exit code and wall
# seconds in $logs/NAME.rc
run_prog() {
  local name=$1 bin=$2; shift 2
  local key=${name// /_}; key=${key//[()+]/}
  rm -f "$logs/$key.xml"          # cmocka writes XML only to a new file
  local t0 t1 rc
  t0=$(date +%s.%N)
  env CMOCKA_MESSAGE_OUTPUT=xml CMOCKA_XML_FILE="$logs/$key.xml" "$@" "$bin" \
      >"$logs/$key.log" 2>&1 </dev/null
  rc=$?
  t1=$(date +%s.%N)
  printf '%s %s\n' "$rc" "$(echo "$t1 - $t0" | bc)" > "$logs/$key.rc"
}
export -f run_prog
export logs

# summarize NAME — the program's line; its log and failures when it failed
fail=0; total_pass=0; total_skip=0; total_fail=0
summarize() {
  local name=$1 key=${1// /_}; key=${key//[()+]/}
  local xml=$logs/$key.xml rc=1 secs=0 n=0 s=0 f=0
  [ -f "$logs/$key.rc" ] && read -r rc secs < "$logs/$key.rc"
  if [ -s "$xml" ]; then
    n=$(grep -c '<testcase ' "$xml")
    s=$(grep -c '<skipped' "$xml")
    f=$(grep -cE '<failure|<error' "$xml")
  fi
  local p=$((n - s - f))
  if [ "$rc" -ne 0 ] && [ "$f" = 0 ]; then f=1; fi
  total_pass=$((total_pass + p)); total_skip=$((total_skip + s)); total_fail=$((total_fail + f))
  printf '%-30s passed %3s  skipped %3s  failed %3s  %7.1f s\n' "$name" "$p" "$s" "$f" "$secs"
  if [ -s "$xml" ] && [ "$(echo "$secs >= 10" | bc)" = 1 ]; then
    sed -n 's/.*<testcase name="\([^"]*\)" time="\([0-9.]*\)".*/\2 \1/p' "$xml" \
      | sort -rn | head -3 | awk '$1 >= 1 {printf "    %7.1f s  %s\n", $1, $2}'
  fi
  if [ "$f" != 0 ]; then
    fail=1
    sed 's/^/    /' "$logs/$key.log"
    [ -s "$xml" ] && grep -A8 -E '<failure|<error' "$xml" | sed 's/^/    /'
    [ "$rc" -ge 128 ] && echo "    (killed by signal $((rc - 128)))"
  fi
}

# the direction of every include (docs/development/layout.md)
if ! bash "$here/check-layers.sh"; then fail=1; total_fail=$((total_fail + 1)); fi

# the sanitizer build first (full tier): its unit tests then join the one
# queue, so that the two kinds share the cores to the end
san_tests=(stats params ceiling xml compare measure report export mc_table shard sass stream
           hostwork bbv_model regroup_window study bbv costs wcache)
export san=${build}-san
jobs_list=$logs/.jobs
: > "$jobs_list"
for t in "$build"/tests/test_*; do
  [ -x "$t" ] && [ "${t%.d}" = "$t" ] && echo "$(basename "$t")|$t|DH_TEST_TIER=$tier" >> "$jobs_list"
done
if [ "$tier" = full ]; then
  if make -s -j"$jobs" BUILD="$san" NO_CUDA=1 \
       EXTRA_CFLAGS="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined" \
       LDFLAGS_EXTRA="-fsanitize=address,undefined" \
       $(printf "$san/tests/test_%s " "${san_tests[@]}") >/dev/null; then
    # the study's, the regroupings', the block costs' and the workload
    # cache's programs have device parts: SKIPPED here, run above
    for t in "${san_tests[@]}"; do
      case $t in study|bbv|costs|wcache) nd=DH_TEST_NO_DEVICE=1 ;; *) nd=DH_TEST_SAN=1 ;; esac
      echo "test_$t (asan+ubsan)|$san/tests/test_$t|ASAN_OPTIONS=detect_leaks=1 $nd" >> "$jobs_list"
    done
  else
    echo "sanitizer build failed"; fail=1; total_fail=$((total_fail + 1))
  fi
fi

# one queue, the slowest first so that the last ones to finish are short
# (their seconds from the previous run of this tier in this build folder,
# else the order of ci/test-slow.txt, else by name)
order=$build/.test-seconds-$tier
while IFS='|' read -r name bin envs; do
  s=$(awk -F'\t' -v p="$name" '$2 == p {print $1}' "$order" 2>/dev/null)
  [ -z "$s" ] && s=$(awk -v p="$name" '$0 == p {print 1000 - NR}' "$here/test-slow.txt" 2>/dev/null)
  printf '%s\t%s|%s|%s\n' "${s:-0}" "$name" "$bin" "$envs"
done < "$jobs_list" | sort -t$'\t' -k1,1 -rn | cut -f2- > "$logs/.queue"
# shellcheck disable=SC2016
tr '\n' '\0' < "$logs/.queue" \
  | xargs -0 -P "$jobs" -I{} bash -c 'IFS="|" read -r n b e <<<"$1"; run_prog "$n" "$b" $e' _ {}
: > "$order.new"
while IFS='|' read -r name _ _; do
  summarize "$name"
  key=${name// /_}; key=${key//[()+]/}
  read -r _ s < "$logs/$key.rc" 2>/dev/null && printf '%s\t%s\n' "$s" "$name" >> "$order.new"
done < "$jobs_list"
mv "$order.new" "$order"
wall=$(echo "$(date +%s.%N) - $t_start" | bc)
printf 'TOTAL: passed %s, skipped %s, failed %s (%s tier, %s jobs, %.0f s; logs in %s)\n' \
  "$total_pass" "$total_skip" "$total_fail" "$tier" "$jobs" "$wall" "$logs"
exit $fail
