#!/usr/bin/env bash
# ci/gpu-tuned.sh OUTDIR [BENCH...] — the tuned reference of the frontier
# on a CUDA GPU: each benchmark (default: gdt pol cvp) at medium, every
# variant tuned by the product's own tuner over the same knobs (the
# baseline over its whole space, the techniques by the BBV model's
# ranking with a budget of TUNE_BUDGET evaluations, default 12), each
# case's best saved to the tuned-configurations file TUNED (default
# OUTDIR/h100-frontier-medium.tsv; a file that exists is merged into).
# Before that, one check that the code-generation knob reaches CUDA: a
# baseline built with launch bounds (minb=2) verified beside minb=0.
#
# H: the harness to run (default build/harness; a bundle made with
# ci/bundle-libs.sh carries its libraries in $(dirname H)/lib).
set -u
out=${1:?usage: ci/gpu-tuned.sh OUTDIR [BENCH...]}
shift
benches=${*:-gdt pol cvp}
cd "$(dirname "$0")/.." || exit 3
mkdir -p "$out"
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH=$CUDA_HOME/bin:$PATH
H=${H:-build/harness}
hlib=$(cd "$(dirname "$H")" && pwd)/lib
[ -d "$hlib" ] && export LD_LIBRARY_PATH=$hlib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export DH_CACHE_DIR=${DH_CACHE_DIR:-/tmp/dh-cache}
export DH_JOURNAL=${DH_JOURNAL:-/tmp/dh-journal-tuned.tsv}
TUNED=${TUNED:-$out/h100-frontier-medium.tsv}
BUDGET=${TUNE_BUDGET:-12}
log() { echo "== $* ($(date -u +%T))" | tee -a "$out/gpu-tuned.log"; }

log "devices"
"$H" devices 2>&1 | head -20 | tee "$out/devices.txt"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu \
    --format=csv 2>&1 | tee -a "$out/devices.txt"

log "minb reaches CUDA: cvp baseline, small, minb=0 and 2"
for mb in 0 2; do
  timeout 120 "$H" run --suite frontier --bench cvp --variant baseline --size small \
      --backend cuda --param minb=$mb --tune none --reps 5 --out "$out/minb-check-$mb" \
      > "$out/minb-check-$mb.txt" 2>&1
  echo "minb-check minb=$mb: exit $?"
  grep -E "^cvp " "$out/minb-check-$mb.txt"
done
grep -o 'options="[^"]*DH_MINB=2[^"]*"' "$out/minb-check-2/results.xml" | head -1

for b in $benches; do
  log "tuned frontier $b (medium, cuda, --tune model --tune-budget $BUDGET)"
  t0=$(date +%s)
  timeout 570 "$H" run --suite frontier --bench "$b" --size medium --backend cuda \
      --tune model --tune-budget "$BUDGET" --save-tuned "$TUNED" \
      --out "$out/tuned-frontier-$b" > "$out/tuned-frontier-$b.txt" 2>&1
  echo "tuned-frontier $b: exit $?, $(( $(date +%s) - t0 )) s"
  sed -n '/^bench/,/^$/p' "$out/tuned-frontier-$b.txt"
  grep -E "^(tuned|UNTUNED)" "$out/tuned-frontier-$b.txt"
done
log "done"
# every results file in one archive (what comes back from a GPU machine
# may be limited in its number of files)
tar -C "$out" -czf "$out/results.tgz" $(cd "$out" && ls -d minb-check-* tuned-frontier-* 2>/dev/null | grep -v '\.txt$')
