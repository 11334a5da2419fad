#!/usr/bin/env bash
# ci/check-layers.sh — the direction of every dependency (docs/development/layout.md).
#
# Each folder of the code is a room with a floor; an #include may point at
# its own room or at a lower floor, never up and never sideways into a
# peer (two benchmarks, two vendor backends). Files of one room may not
# include each other in a circle (header circles).
# Prints every offending include with its file and line; exits 1 on any.
# Run by `make test`; tests/ and tools/ may include anything. One exception:
# backends/gpu/ (the CUDA and HIP bookkeeping, written once) includes the
# vendor vocabulary it is compiled against (backends/<vendor>/*_vendor.h).
set -uo pipefail
cd "$(dirname "$0")/.."

# room of a path (longest prefix first), and its floor
room_of() {
  case $1 in
    harness/cli/*)     echo "harness/cli 90" ;;
    tuning/*)          echo "tuning 80" ;;
    harness/run/*)     echo "harness/run 70" ;;
    harness/report/*)  echo "harness/report 60" ;;
    harness/stats/*)   echo "harness/stats 50" ;;
    suites/lib/*)      echo "suites/lib 42" ;;
    suites/*/*/*)      local r=${1#suites/}; r=${r%/*}; echo "suites/$r 45" ;;
    suites/*)          echo "suites 40" ;;
    harness/model/*)   echo "harness/model 30" ;;
    results/*)         echo "results 20" ;;
    harness/support/*) echo "harness/support 10" ;;
    backends/gpu/*)    echo "backends/gpu 3" ;;
    backends/*/*)      local r=${1#backends/}; r=${r%%/*}; echo "backends/$r 5" ;;
    backends/*)        echo "backends 0" ;;
    *)                 echo "" ;;
  esac
}

bad=0
edges=$(mktemp)
trap 'rm -f "$edges"' EXIT
while IFS= read -r f; do
  read -r froom ffloor <<<"$(room_of "$f")"
  [ -n "${froom:-}" ] || continue
  while IFS=: read -r line inc; do
    target=$(realpath -m --relative-to=. "$(dirname "$f")/$inc")
    [ -e "$target" ] || target=$(realpath -m --relative-to=. "$inc")   # -I. paths
    read -r troom tfloor <<<"$(room_of "$target")"
    [ -n "${troom:-}" ] || continue
    # the one sanctioned arrow up: backends/gpu/ is written once against a
    # vocabulary that each vendor's *_vendor.h supplies, chosen at compile
    # time (the CUDA build and the HIP plugin build)
    if [ "$froom" = backends/gpu ] && [[ $target == backends/*/*_vendor.h ]]; then
      continue
    fi
    if [ "$troom" = "$froom" ]; then
      echo "$f $target" >>"$edges"
    elif [ "$tfloor" -ge "$ffloor" ]; then
      why="up"; [ "$tfloor" -eq "$ffloor" ] && why="sideways"
      echo "$f:$line: includes $target: $froom (floor $ffloor) -> $troom (floor $tfloor) runs $why"
      bad=1
    fi
  done < <(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" \
             | sed -E 's/^([0-9]+):.*"([^"]+)".*/\1:\2/')
done < <(git ls-files 'harness/*' 'tuning/*' 'suites/*' 'results/*' 'backends/*' \
           | grep -E '\.(c|h|cpp|cu)$')

# circles between units of one room
loops=$(awk '$1 != $2' "$edges" | tsort 2>&1 >/dev/null | grep -v 'input contains a loop')
if [ -n "$loops" ]; then
  echo "includes in a circle:"; echo "$loops" | sed 's/^tsort: /  /'
  bad=1
fi
if [ $bad -eq 0 ]; then
  echo "layers: every include runs down ($(git ls-files 'harness/*' 'tuning/*' 'suites/*' 'results/*' 'backends/*' | grep -cE '\.(c|h|cpp|cu)$') files)"
fi
exit $bad
