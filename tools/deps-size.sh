#!/usr/bin/env bash
# tools/deps-size.sh [PURPOSE...] — what ci/deps.sh PURPOSE would download
# and install on a fresh Debian: apt-get simulates the install over a dpkg
# status holding only the base system (the Essential and Priority:
# required packages of this machine and what they depend on), the package
# count and sizes come from apt-cache, then `apt-get -d` downloads them
# into a scratch folder (timed). Root, network and this machine's apt
# lists needed; nothing is installed. Default: run, then test.
set -euo pipefail
cd "$(dirname "$0")/.."
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
python3 - "$tmp/status" <<'PY'
import re, sys
blocks = {}
for b in open('/var/lib/dpkg/status').read().split('\n\n'):
    m = re.search(r'^Package: (\S+)', b, re.M)
    if m: blocks[m.group(1)] = b
def field(b, f):
    m = re.search(r'^%s: (.*(?:\n .*)*)' % f, b, re.M)
    return m.group(1) if m else ''
keep = {p for p, b in blocks.items() if field(b, 'Priority') == 'required' or field(b, 'Essential') == 'yes'}
provides = {}
for p, b in blocks.items():
    for x in field(b, 'Provides').split(','):
        x = x.strip().split(' ')[0]
        if x: provides.setdefault(x, []).append(p)
todo = list(keep)
while todo:
    b = blocks[todo.pop()]
    for f in ('Depends', 'Pre-Depends'):
        for alt in field(b, f).replace('\n', ' ').split(','):
            for n in [a.strip().split(' ')[0].split(':')[0] for a in alt.split('|') if a.strip()]:
                got = n if n in blocks else (provides.get(n) or [None])[0]
                if got:
                    if got not in keep: keep.add(got); todo.append(got)
                    break
open(sys.argv[1], 'w').write('\n\n'.join(blocks[p] for p in keep) + '\n')
print('base system: %d packages' % len(keep))
PY
[ $# -eq 0 ] && set -- run test
for purpose in "$@"; do
  case $purpose in
    test) pkgs=$(bash ci/deps.sh list | sed -n 's/^run: //p;s/^hip: //p;s/^docs: //p;s/^test: run hip docs //p') ;;
    *) pkgs=$(bash ci/deps.sh list | sed -n "s/^$purpose: //p") ;;
  esac
  apt-get -s install --no-install-recommends -o Dir::State::status="$tmp/status" $pkgs 2>/dev/null |
    awk '/^Inst /{print $2}' > "$tmp/list"
  sizes=$(xargs apt-cache show --no-all-versions < "$tmp/list" |
    awk '/^Size:/{d+=$2} /^Installed-Size:/{i+=$2} END{printf "%.0f MiB download, %.0f MiB installed", d/1048576, i/1024}')
  mkdir -p "$tmp/arch/partial"; rm -f "$tmp"/arch/*.deb
  t0=$(date +%s.%N)
  apt-get -y -d install --no-install-recommends -o Dir::Cache::archives="$tmp/arch" \
      -o Dir::State::status="$tmp/status" $pkgs >/dev/null 2>&1
  printf '%s: %d packages, %s; downloaded in %.1f s\n' "$purpose" "$(wc -l < "$tmp/list")" "$sizes" \
      "$(echo "$(date +%s.%N) - $t0" | bc)"
done
