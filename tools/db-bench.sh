#!/usr/bin/env bash
# tools/db-bench.sh [N] [HARNESS] — `harness db add` of N nights (default
# 400) of every suite at medium: the H200's committed night (301 cases)
# with N start times, added in one command into a new database; then the
# same again (nothing read twice). Prints the times and the size.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-400}
h=${2:-build/harness}
src=results/reference/h200/night/night-all.xml
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
for i in $(seq 1 "$n"); do
  d=$(date -u -d "2026-01-01 + $i days" +%Y-%m-%d)
  sed "s|<started>[^<]*</started>|<started>${d}T02:00:00Z</started>|" "$src" > "$tmp/n$i.xml"
done
t0=$(date +%s.%N)
"$h" db add "$tmp/h.db" "$tmp"/n*.xml | tail -1
t1=$(date +%s.%N)
"$h" db add "$tmp/h.db" "$tmp"/n*.xml 2>/dev/null | tail -1
t2=$(date +%s.%N)
printf 'add %d nights: %.1f s; again: %.2f s; %s\n' "$n" "$(echo "$t1 - $t0" | bc)" \
  "$(echo "$t2 - $t1" | bc)" "$(du -h "$tmp/h.db" | cut -f1)"
