#!/usr/bin/env bash
# tools/measured-replay.sh H100DIR OUT — the model priced with per-instruction
# counts recorded on a CUDA machine (`bash ci/gpu-check.sh H100DIR measured`
# and `measured-2`: H100DIR/measured-dump/*.pcs), on this machine's default
# backend (PoCL: the BBVs do not depend on the device) as the H100 (sm_90
# code, warp 32, its latency table), the same workloads and windows as the
# gpu-check steps (ci/measured-workloads.sh); each baseline's modeled CFE
# against the CUPTI figure of the H100's own run (H100DIR/m-NAME/
# results.xml). Needs NVRTC and an nvdisasm that reads its CUBINs
# (DH_NVDISASM). ONLY="ms bfs-win1" replays those workloads alone (their
# names as in ci/measured-workloads.sh).
set -u
src=${1:?usage: tools/measured-replay.sh H100DIR OUT}
out=${2:?usage: tools/measured-replay.sh H100DIR OUT}
cd "$(dirname "$0")/.."
mkdir -p "$out/pcs"
H=build/harness
# the counts as committed (gzip'd) or as the GPU machine wrote them
for f in "$src"/measured-dump/*.pcs.gz; do [ -e "$f" ] && gunzip -c "$f" > "$out/pcs/$(basename "$f" .gz)"; done
cp "$src"/measured-dump/*.pcs "$out/pcs/" 2>/dev/null
export DH_BLOCK_COSTS=measured DH_MEASURED_LOAD=$out/pcs DH_SASS_ARCH=90 \
       DH_LATENCY_TABLE=nvidia-sm90 DH_WARP_WIDTH=32 DH_MODEL_CUS=132 DH_BBV_LIMIT_MB=24000
rerun() {
  local name=$1; shift
  case " ${ONLY:-$name} " in *" $name "*) ;; *) return ;; esac
  [ -f "$src/m-$name/results.xml" ] || { echo "$name: no H100 run in $src"; return; }
  timeout 1500 $H run --variant baseline --reps 1 --fresh --out "$out/m-$name" "$@" \
      > "$out/m-$name.txt" 2>&1
  echo "$name rc=$?"
}
. ci/measured-workloads.sh
measured_workloads all rerun
python3 - "$src" "$out" <<'P'
import glob, os, re, sys
src, out = sys.argv[1], sys.argv[2]
def runs(f):
    x = open(f).read()
    for m in re.finditer(r'<run [^>]*id="([^"]*)"', x):
        seg = x[m.start():x.find('</run>', m.start())]
        parts = m.group(1).split('/')
        yield parts[2] + " " + parts[-1], seg
errs = []
for f in sorted(glob.glob(out + "/m-*/results.xml")):
    name = f.split('/')[-2]
    cupti = {w: re.findall(r'source="counters" value="([0-9.]*)"', seg)
             for w, seg in runs(os.path.join(src, name, "results.xml"))}
    for w, seg in runs(f):
        c = re.findall(r'<model [^>]*costs="([^"]*)"[^>]*cfe32="([0-9.]*)"', seg)
        k = cupti.get(w) or []
        if c and k:
            e = 100 * (float(c[0][1]) - float(k[0]))
            errs.append(abs(e))
            print("%-12s %-48s %-9s modeled %.3f CUPTI %.3f  %+.1f" %
                  (name[2:], w[:48], c[0][0], float(c[0][1]), float(k[0]), e))
if errs:
    print("%d baselines: within 3 points %d, mean |error| %.2f, largest %.1f" %
          (len(errs), sum(e <= 3 for e in errs), sum(errs) / len(errs), max(errs)))
P
