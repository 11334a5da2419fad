#!/usr/bin/env bash
# ci/gpu-check.sh OUTDIR [STEPS] — what the GPU machine should do, in one
# call; results, logs and XML go to OUTDIR, and one archive OUTDIR.tgz is
# made after every step (whatever finished comes back even if a later step
# runs out of time).
#
# The steps live in one file per purpose, each sourced here:
#   ci/gpu/tests.sh       env tests micro hip — the GPU tests and a smoke run
#   ci/gpu/sanitize.sh    sanitize, sanitize-SUITE — compute-sanitizer
#   ci/gpu/reference.sh   the reference runs behind docs/results/ (frontier,
#                         parboil, rodinia, darm, bbv, model, tune, study, ...)
#   ci/gpu/experiments.sh named one-off experiments behind figures in docs/
#   ci/gpu/common.sh      what they share (H, log, suite_all, ocl_gpu)
# `ci/gpu-check.sh OUT list` prints every step and its file.
#
# The GPU machine has no network: bring build/ from a machine with the
# packages (make && make unit-tests && ci/bundle-libs.sh build), or let
# this script build there when it can. STEPS default "env tests micro
# sanitize"; "all" = env tests micro sanitize sanitize-frontier
# sanitize-parboil standalone ncu sweep wg tune frontier frontier-large
# hip. Each step has its own time limit, well under 10 minutes. Knobs:
# SIZE (medium), REPS (20), SUITE_ARGS (extra run args), OLD (ab-*: an
# earlier build's harness).
set -u
out=${1:?usage: ci/gpu-check.sh OUTDIR [STEPS|list]}
steps=${2:-env tests micro sanitize}
cd "$(dirname "$0")/.."
purposes="tests sanitize reference experiments"
if [ "$steps" = list ]; then
  for p in $purposes; do
    printf '%-12s %s\n' "$p" "$(sed -n 's/^# Steps: //p' "ci/gpu/$p.sh")"
  done
  exit 0
fi
[ "$steps" = all ] && steps="env tests micro sanitize sanitize-frontier sanitize-parboil standalone ncu sweep wg tune frontier frontier-large hip"
mkdir -p "$out"
# shellcheck source=ci/gpu/common.sh
. ci/gpu/common.sh
for p in $purposes; do
  # shellcheck disable=SC1090
  . "ci/gpu/$p.sh"
done

for s in $steps; do
  done_it=0
  for p in $purposes; do
    "gpu_step_$p" "$s"
    [ $? -ne 99 ] && { done_it=1; break; }
  done
  [ $done_it = 1 ] || log "unknown step $s (ci/gpu-check.sh OUT list)"
  tar czf "$out.tgz" -C "$out" . 2>/dev/null
done
log "done"
# one archive, so every result comes back in one file
tar czf "$out.tgz" -C "$out" . && echo "archive: $out.tgz"
