#!/usr/bin/env bash
set -u
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}; export PATH=$CUDA_HOME/bin:$PATH
export DH_CACHE_DIR=/tmp/dh-cache
H=build/harness; o=$OUT
for bs in 32 256; do
  timeout 150 ncu --section SourceCounters --page source --print-source sass --csv -k pc_base -c 1 \
    $H run --suite darm --bench pcm --variant baseline --param bs=$bs --param input=random --size small \
    --backend cuda --reps 1 --warmup 1 --isolate no --counters no --no-model --fresh --out /tmp/ncu-pcm-$bs \
    > $o/ncu-pcm-bs$bs.csv 2>&1
  echo "ncu bs=$bs rc=$? lines=$(wc -l < $o/ncu-pcm-bs$bs.csv)"
done
DH_BBV_WINDOW=1 DH_BBV_LIMIT_MB=24000 timeout 280 $H run --suite darm --bench pcm --size medium --backend cuda \
  --reps 5 --variant baseline --param bs=32,256 --param input=ranges,random --fresh --no-cache --out $o/pcm-win1 > $o/pcm-win1.txt 2>&1
echo "win1 rc=$?"
python3 - $o/pcm-win1/results.xml <<'P'
import re,sys
x=open(sys.argv[1]).read()
for m in re.finditer(r'<run [^>]*id="([^"]*)"',x):
    seg=x[m.start():x.index('</run>',m.start())]
    print(m.group(1)[-40:], re.findall(r'source="counters" value="([0-9.]*)"',seg)[:1], re.findall(r'cfe32="([0-9.]*)"',seg)[:1])
P
gzip $o/ncu-pcm-bs*.csv
