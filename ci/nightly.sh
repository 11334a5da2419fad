#!/usr/bin/env bash
# ci/nightly.sh — the nightly regression job: build, run the chosen suites,
# compare with the stored baseline of this machine (store one on the first
# night), write JUnit and a report, exit with compare's code.
#
# Environment (all optional):
#   SUITES        suites, space or comma separated, or all (default: all,
#                 every suite in one run)
#   SIZE          small | medium | large (default: small)
#   REPS          timed repetitions per case (default: 20; compare needs >= 10)
#   BACKEND       harness run --backend (default: opencl)
#   TUNED         a tuned-configurations file (harness run --tune MODE
#                 --save-tuned FILE; results/tuned/ has the reference
#                 machines'): every case runs at its configuration there
#                 (--tuned FILE). Without it every case runs at its
#                 defaults (--tune none): the nightly never reads the tuning
#                 journal, so an engineer's ad-hoc --tune cannot change what
#                 it measures
#   RUN_ARGS      more `harness run` options, e.g. "--device 1"
#   OVERLAP       yes | no | auto: harness run --overlap, the next
#                 workload's input and CPU reference made in the background
#                 while the current one is timed (default: the harness's, auto)
#   COMPARE_ARGS  more `harness compare` options, e.g. "--threshold 8"
#   OUT           output folder (default: results/nightly/<UTC time>)
#   BASELINE_DIR  the baseline store (default: $DH_BASELINE_DIR, else
#                 results/baselines); keep it outside a CI workspace that is
#                 wiped between jobs
#   ACCEPT=1      after a night without regression, store its results as the
#                 new baseline (rolling baseline; off by default because slow
#                 drift below the threshold then never alarms)
#   HISTORY_DB    the nights' SQLite database every night is added to
#                 (default: $BASELINE_DIR/history.sqlite; harness db list|show)
#   BUILD         build folder (default: build); SKIP_BUILD=1 uses it as it is
#
# Writes into $OUT: results.xml (every suite, merged), run-<suite>/ (each
# suite's results.xml and log), compare.txt, junit.xml, report/index.md with
# the charts.
# Exit: compare's code — 0 no regression, 2 regression (slower, wrong,
# failed run, CFE drop), 3 infrastructure or data problem (also: the build
# failed, or no suite produced results), 64 usage, 130 interrupted.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 3

SUITES=${SUITES:-all}
SIZE=${SIZE:-small}
REPS=${REPS:-20}
BACKEND=${BACKEND:-opencl}
BUILD=${BUILD:-build}
OUT=${OUT:-results/nightly/$(date -u +%Y%m%d-%H%M%S)}
BASELINE_DIR=${BASELINE_DIR:-${DH_BASELINE_DIR:-results/baselines}}
H=$BUILD/harness

say() { echo "nightly: $*" >&2; }

mkdir -p "$OUT" || { say "cannot create $OUT"; exit 3; }

if [ "${SKIP_BUILD:-0}" != 1 ]; then
  bash ci/deps.sh || { say "missing Debian packages (see above)"; exit 3; }
  make BUILD="$BUILD" -j"$(nproc)" >"$OUT/build.log" 2>&1 \
    || { tail -20 "$OUT/build.log" >&2; say "build failed (log: $OUT/build.log)"; exit 3; }
fi
[ -x "$H" ] || { say "no $H: build first or unset SKIP_BUILD"; exit 3; }

# ---- run each suite; a wrong result (exit 1) is judged by compare below ----
if [ -n "${TUNED:-}" ]; then
  [ -f "$TUNED" ] || { say "TUNED=$TUNED: no such file"; exit 64; }
  tuning=(--tuned "$TUNED")
else
  tuning=(--tune none)
fi
inputs=()
for s in ${SUITES//,/ }; do
  say "run --suite $s --size $SIZE --reps $REPS --backend $BACKEND ${tuning[*]}${OVERLAP:+ --overlap $OVERLAP} ${RUN_ARGS:-}"
  # shellcheck disable=SC2086  # RUN_ARGS is a list of options
  "$H" run --suite "$s" --size "$SIZE" --reps "$REPS" --backend "$BACKEND" "${tuning[@]}" \
      ${OVERLAP:+--overlap "$OVERLAP"} ${RUN_ARGS:-} \
      --out "$OUT/run-$s" >"$OUT/run-$s.log" 2>&1
  rc=$?
  case $rc in
    0|1) ;;
    64|130) tail -5 "$OUT/run-$s.log" >&2; say "run --suite $s: exit $rc"; exit $rc ;;
    *) tail -5 "$OUT/run-$s.log" >&2; say "run --suite $s: exit $rc (results kept where written)" ;;
  esac
  [ -f "$OUT/run-$s/results.xml" ] && inputs+=("$OUT/run-$s/results.xml")
done
[ ${#inputs[@]} -gt 0 ] || { say "no suite produced results"; exit 3; }
"$H" merge "$OUT/results.xml" "${inputs[@]}" >/dev/null || { say "merge failed"; exit 3; }
# ---- every night into the history database (before judging: a night is a
# night whatever the verdict) ----
HISTORY_DB=${HISTORY_DB:-$BASELINE_DIR/history.sqlite}
mkdir -p "$(dirname "$HISTORY_DB")" && "$H" db add "$HISTORY_DB" "$OUT/results.xml" \
  || say "could not add the night to $HISTORY_DB (the night's files stand)"
# the nights as a static site (every case, its sparkline and steps): $OUT/site
"$H" publish "$HISTORY_DB" --out "$OUT/site" >/dev/null || say "publish failed"

# ---- compare with this machine's baseline, or store the first one ----
# compare --baseline takes the baseline of these devices and drivers, or after
# a driver update the last one of the same devices (a note says so); with
# none at all, tonight's results become the baseline and are judged alone
# (their own verification: a wrong result still fails).
base=$("$H" baseline path "$OUT/results.xml" --dir "$BASELINE_DIR" 2>/dev/null)
exact=0; [ -f "$base" ] && exact=1
# shellcheck disable=SC2086  # COMPARE_ARGS is a list of options
"$H" compare --baseline --dir "$BASELINE_DIR" "$OUT/results.xml" --junit "$OUT/junit.xml" \
    ${COMPARE_ARGS:-} 2>"$OUT/compare.err" | tee "$OUT/compare.txt"
rc=${PIPESTATUS[0]}
cat "$OUT/compare.err" >&2
first=0
if [ "$rc" = 3 ] && [ "$exact" = 0 ] && grep -q "no baseline for this machine" "$OUT/compare.err"; then
  first=1
  if "$H" baseline save "$OUT/results.xml" --dir "$BASELINE_DIR"; then
    say "no baseline for these devices yet: stored tonight's results as $base"
  else
    say "no baseline stored (tonight's results are not acceptable as one)"
  fi
  # shellcheck disable=SC2086
  "$H" compare "$OUT/results.xml" "$OUT/results.xml" --junit "$OUT/junit.xml" \
      ${COMPARE_ARGS:-} | tee "$OUT/compare.txt"
  rc=${PIPESTATUS[0]}
elif [ "$exact" = 0 ] && [ "$rc" = 0 ]; then
  # a new driver that passed against the previous driver's baseline
  "$H" baseline save "$OUT/results.xml" --dir "$BASELINE_DIR" \
    && say "new drivers, no regression against the previous baseline: stored as $base"
  first=1
fi

# ---- report (charts need gnuplot; without it the tables are still written) ----
"$H" report "$OUT/results.xml" --out "$OUT/report" || say "report failed (compare's verdict stands)"
# each case's history over the nights kept beside this one (same parent folder)
mapfile -t nights < <(ls -1 "$(dirname "$OUT")"/*/results.xml 2>/dev/null | tail -n 60)
if [ "${#nights[@]}" -ge 2 ]; then
  "$H" history "${nights[@]}" --out "$OUT/history" >/dev/null || say "history failed"
fi

if [ "${ACCEPT:-0}" = 1 ] && [ "$rc" = 0 ] && [ "$first" = 0 ]; then
  "$H" baseline save "$OUT/results.xml" --dir "$BASELINE_DIR" && say "ACCEPT=1: baseline updated"
fi
say "compare exit $rc; JUnit $OUT/junit.xml; report $OUT/report/index.md"
exit "$rc"
