#!/usr/bin/env bash
# tools/reference-index.sh [HARNESS] — the readers' index of the reference
# results: for each device folder results/reference/DEVICE/ with an
# index.tsv (suite, file, what), one report per listed results file made
# by `harness report` into DEVICE/index/NAME/ (tables, charts, the
# environment and the exact command that made the file), and
# DEVICE/index.md linking them suite by suite. Run it after committing a
# new reference file and listing it in index.tsv.
set -euo pipefail
cd "$(dirname "$0")/.."
h=${1:-build/harness}
[ -x "$h" ] || { echo "tools/reference-index.sh: no $h (run make)" >&2; exit 3; }
for tsv in results/reference/*/index.tsv; do
  dev=$(dirname "$tsv")
  rm -rf "$dev/index"
  {
    echo "# Reference results: $(basename "$dev")"
    echo
    echo "Made by \`tools/reference-index.sh\` from \`index.tsv\`: one report per"
    echo "results file (\`harness report FILE --out index/NAME\`); each report's"
    echo "Environment table names the device, the driver, the revision and the"
    echo "command that made the file. Everything else in this folder is"
    echo "described by its NOTES file."
    suite_seen=
    grep -v '^#' "$tsv" | while IFS=$'\t' read -r suite file what; do
      [ -n "$suite" ] || continue
      name=$(echo "${file%.xml}" | tr '/' '-')
      if [ "$suite" != "$suite_seen" ]; then printf '\n## %s\n\n' "$suite"; suite_seen=$suite; fi
      if "$h" report "$dev/$file" --out "$dev/index/$name" >/dev/null 2>&1; then
        cmd=$(sed -n 's/^| command | \(.*\) |$/\1/p' "$dev/index/$name/index.md" | head -1)
        printf -- '- [%s](index/%s/index.md) — %s (`%s`)\n' "$file" "$name" "$what" "${cmd:-command not recorded}"
        # only the SVG charts and index.md are kept (the PNGs are the same
        # charts, index.html the same page)
        rm -f "$dev/index/$name"/*.png "$dev/index/$name/index.html"
        sed -i 's/\.png)/.svg)/g' "$dev/index/$name/index.md"
      else
        printf -- '- %s — %s (no report: `harness report` failed)\n' "$file" "$what"
      fi
    done
    printf '\n## Experiments\n\nThe other folders: named experiments, each described where its figures are\nused (or by a NOTES file of its own).\n\n'
    for d in "$dev"/*/; do
      d=${d%/}; b=$(basename "$d")
      [ "$b" = index ] && continue
      where=$(grep -rl -- "$(basename "$dev")/$b" docs 2>/dev/null | sort | head -3 |
              sed 's|.*|[&](../../../&)|' | paste -sd, - | sed 's/,/, /g' || true)
      own=$(ls "$d" 2>/dev/null | grep -m1 -E '^(NOTES|README)' || true)
      [ -n "$own" ] && where="${where:+$where, }[$b/$own]($b/$own)"
      printf -- '- `%s/` — %s\n' "$b" "${where:-described in NOTES beside this file}"
    done
  } > "$dev/index.md"
  echo "$dev/index.md: $(grep -c '^- \[' "$dev/index.md") reports, $(grep -c '^- `' "$dev/index.md") experiments"
done
