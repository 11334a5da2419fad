#!/usr/bin/env bash
# tools/man.sh HARNESS OUTDIR — the man pages of the harness: harness(1) and
# one harness-CMD(1) per command, made by help2man from the command's own
# --help and --version (so a page cannot say other than --help does). The
# one-line description of each command is its line in `harness help`.
set -euo pipefail
h=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
out=$2
mkdir -p "$out"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
date=$(date -u -d "@${SOURCE_DATE_EPOCH:-$(date +%s)}" '+%B %Y')
page() {  # name wrapper description
  help2man --no-info --no-discard-stderr --section=1 --manual="divharness" \
      --name="$3" "$2" > "$tmp/page"
  local up; up=$(echo "$1" | tr a-z A-Z)
  sed -e "s/^\.TH HARNESS \"1\" \"[^\"]*\"/.TH $up \"1\" \"$date\"/" \
      -e "0,/^harness \\\\- /s//$1 \\\\- /" "$tmp/page" > "$out/$1.1"
}
page harness "$h" "autotuning benchmark harness and regression suite for GPU control-flow divergence"
# the commands and their descriptions from `harness help` (a description
# may go on over indented lines; the first line is enough)
"$h" help | awk '/^commands:/ {on=1; next} on && /^  [a-z]/ {print}' |
while read -r cmd desc; do
  [ "$cmd" = help ] && continue
  case $cmd in --*) continue ;; esac
  printf '#!/bin/sh\nexec "%s" %s "$@"\n' "$h" "$cmd" > "$tmp/harness-$cmd"
  chmod +x "$tmp/harness-$cmd"
  page "harness-$cmd" "$tmp/harness-$cmd" "$desc"
done
ls "$out" | wc -l | xargs echo "man pages:"
