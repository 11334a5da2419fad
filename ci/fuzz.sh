#!/usr/bin/env bash
# ci/fuzz.sh BUILD SECONDS TARGET... — run each fuzz target for SECONDS
# from its committed seeds (fuzz/corpus/TARGET; new inputs go to a scratch
# corpus, the repository is not touched), JOBS targets at a time (default
# the number of cores: a target is one process on one core, so each gets
# its SECONDS of a core as it would alone). Prints executions and findings
# per target; exits nonzero on any finding (the input is kept under
# BUILD/findings/TARGET/ with the sanitizer's report).
set -uo pipefail
build=$1; secs=$2; shift 2
jobs=${JOBS:-$(nproc 2>/dev/null || echo 2)}

fuzz_one() {  # target: runs it, leaves BUILD/findings/TARGET/{fuzz.log,rc}
  local t=$1 bin="$build/fuzz/fuzz_$1" found="$build/findings/$1" work
  work=$(mktemp -d); mkdir -p "$found"
  "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
      -print_final_stats=1 -artifact_prefix="$found/" "$work" "fuzz/corpus/$t" \
      >"$found/fuzz.log" 2>&1 </dev/null
  echo $? > "$found/rc"
  rm -rf "$work"
}
export -f fuzz_one
export build secs

for t in "$@"; do rm -f "$build/findings/$t/rc"; done
printf '%s\n' "$@" | xargs -P "$jobs" -I{} bash -c 'fuzz_one "$1"' _ {}

fail=0
printf '%-12s %12s %10s %8s\n' target executions "exec/s" findings
for t in "$@"; do
  found="$build/findings/$t"; log="$found/fuzz.log"
  rc=$(cat "$found/rc" 2>/dev/null || echo 1)
  execs=$(grep -oP 'stat::number_of_executed_units:\s*\K[0-9]+' "$log" | tail -1)
  rate=$(grep -oP 'stat::average_exec_per_sec:\s*\K[0-9]+' "$log" | tail -1)
  n=$(find "$found" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  [ "$rc" -ne 0 ] && [ "$n" -eq 0 ] && n=1
  printf '%-12s %12s %10s %8s\n' "$t" "${execs:-?}" "${rate:-?}" "$n"
  if [ "$n" -ne 0 ]; then
    fail=1
    grep -m1 -A30 -E 'ERROR: |oracle:|runtime error' "$log" | sed 's/^/    /'
  fi
done
exit $fail
