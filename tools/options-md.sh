#!/usr/bin/env bash
# tools/options-md.sh HARNESS — docs/reference/options.md on stdout: every
# command's --help, as the harness prints it (`make docs` writes the page
# before mkdocs builds the site; it is not kept in git, so it cannot drift).
set -euo pipefail
h=$1
cat <<'HEAD'
# Options of every command

Each command's `--help`, as `harness` prints it (this page is made from
the built harness by `make docs`; the man pages, `man harness-run` and so
on, are made from the same texts by `make man`). What the commands do and
how their outputs read: [Commands and options](commands.md).

HEAD
printf '## harness\n\n```text\n'
"$h" --version | sed -n 1p       # (sed reads it all: no SIGPIPE under pipefail)
echo
"$h" help
printf '```\n'
"$h" help | awk '/^commands:/ {on=1; next} on && /^  [a-z]/ {print $1}' | while read -r cmd; do
  [ "$cmd" = help ] && continue
  printf '\n## harness %s\n\n```text\n' "$cmd"
  "$h" "$cmd" --help
  printf '```\n'
done
