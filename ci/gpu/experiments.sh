# ci/gpu/experiments.sh — steps of ci/gpu-check.sh: named, one-off experiments behind figures in docs/ (each step's comment says what it measured; its results are under results/reference/<device>/<step>-<date>/).
# Sourced by ci/gpu-check.sh after ci/gpu/common.sh; gpu_step_experiments STEP runs
# STEP and returns 0, or returns 99 when STEP is not one of these.
# Steps: ncu tdr-new tdr-more gdt-meld gdt-meld-port sw-heavy nqu-windows measured measured-2 measured-tdr each darm-windows nqu-launches parboil-ncu model-ncu pb-static-ncu micro-gap rodinia-hip rodinia-ncu aa ab-micro ab-frontier overlap overlap-micro overlap-frontier
gpu_step_experiments() {
local s=$1
case $s in
ncu)
  # CUPTI (the harness's counters) vs ncu on the same launch
  log "ncu vs counters"
  for v in baseline melded; do
    timeout 300 ncu --metrics smsp__thread_inst_executed_pred_on.sum,smsp__inst_executed.sum \
        -k mb_$v -c 1 --csv $H run --suite micro --backend cuda --variant $v --param paths=4 \
        --param layers=1 --size medium --reps 1 --warmup 1 --isolate no --counters no \
        --out /tmp/ncu-$v > "$out/ncu-$v.csv" 2>&1
    grep -E "smsp__" "$out/ncu-$v.csv" | tail -2
  done
  $H run --suite micro --backend cuda --variant baseline,melded --param paths=4 --param layers=1 \
      --size medium --reps 5 --counters yes --out "$out/cupti" 2>&1 | grep -E "^branch" ;;
tdr-new)
  # the gpu_tdr forms not yet timed on a GPU: pb's static_trips (CUDA and
  # NVIDIA's OpenCL), gdt's forms without a remap per layer (default wg,
  # then wg 512), micro's multi-item forms on the nested branch
  log "tdr-new: pb static_trips (${SIZE:-medium})"
  timeout 120 $H run --suite parboil --bench pb --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
      --variant baseline,gpu_tdr --param alg=static_trips,hot --out "$out/pb-static-cuda" > "$out/pb-static-cuda.txt" 2>&1
  [ -n "$ocl_gpu" ] && timeout 120 $H run --suite parboil --bench pb --size "${SIZE:-medium}" --backend opencl \
      --device "$ocl_gpu" --reps "${REPS:-20}" --variant baseline,gpu_tdr --param alg=static_trips,hot \
      --out "$out/pb-static-opencl" > "$out/pb-static-opencl.txt" 2>&1
  log "tdr-new: gdt forms (${SIZE:-medium})"
  timeout 240 $H run --suite frontier --bench gdt --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
      --variant baseline,gpu_tdr --remap-overhead no --out "$out/gdt-forms" > "$out/gdt-forms.txt" 2>&1
  timeout 150 $H run --suite frontier --bench gdt --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
      --variant baseline,gpu_tdr --param alg=kind_buy_pool,key_dlt,key_dlt_buy_pool --param wg=512 \
      --remap-overhead no --out "$out/gdt-forms-wg512" > "$out/gdt-forms-wg512.txt" 2>&1
  log "tdr-new: micro multi-item, nested (${SIZE:-medium})"
  timeout 90 $H run --suite micro --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
      --variant baseline,cpu_tdr,gpu_tdr --param paths=2 --param layers=2 --param mech=rr --param regroup=key \
      --param alg=scan_multi,adapt_scan --param ipl=8 --param wg=512 --param once=1 --remap-overhead no \
      --out "$out/micro-multi-nested" > "$out/micro-multi-nested.txt" 2>&1
  grep -hE "^(bench|pb|gdt|branch) " "$out"/pb-static-*.txt "$out"/gdt-forms*.txt "$out/micro-multi-nested.txt" ;;
tdr-more)
  # the frontier's gpu_tdr forms where they were not yet timed: gdt's best
  # forms at large (CUDA); CVP's and POL's one-remap forms, tuned as on
  # CUDA (wg 512, minb 2), on NVIDIA's OpenCL (no warp votes: the _dgi
  # forms) and HIP (the _scan forms); then gdt's forms under ncu (DRAM,
  # sectors per request: why CFE rises and the time does not)
  log "tdr-more: gdt forms, large"
  timeout 200 $H run --suite frontier --bench gdt --size large --backend cuda --reps 10 \
      --variant baseline,gpu_tdr --param alg=buy_pool,key_dlt,key_dlt_buy_pool --remap-overhead no \
      --no-model --counters no --out "$out/gdt-forms-large" > "$out/gdt-forms-large.txt" 2>&1
  for be in opencl hip; do
    dev=0; if [ $be = opencl ]; then [ -n "$ocl_gpu" ] || continue; dev=$ocl_gpu; fi
    ca=model_scan; pa=natkey_scan; [ $be = opencl ] && { ca=model_dgi; pa=natkey_dgi; }
    log "tdr-more: cvp $ca, pol $pa on $be (${SIZE:-medium}, wg 512, minb 2)"
    timeout 120 $H run --suite frontier --bench cvp --size "${SIZE:-medium}" --backend $be --device $dev \
        --reps "${REPS:-20}" --variant baseline,gpu_tdr --param alg=$ca --param wg=512 --param minb=2 \
        --param nf=32 --remap-overhead no --out "$out/cvp-onetdr-$be" > "$out/cvp-onetdr-$be.txt" 2>&1
    timeout 120 $H run --suite frontier --bench pol --size "${SIZE:-medium}" --backend $be --device $dev \
        --reps "${REPS:-20}" --variant baseline,gpu_tdr --param alg=$pa --param wg=512 --param minb=2 \
        --param kstat=0 --param nf=32 --remap-overhead no --out "$out/pol-onetdr-$be" > "$out/pol-onetdr-$be.txt" 2>&1
  done
  grep -hE "^(bench|gdt|cvp|pol) " "$out"/gdt-forms-large.txt "$out"/cvp-onetdr-*.txt "$out"/pol-onetdr-*.txt
  NCU_SUITE=frontier RODINIA_NCU="gdt:baseline:gdt_baseline: gdt:gpu_tdr:gdt_gpu_tdr:alg=buy_pool gdt:gpu_tdr:gdt_gpu_tdr:alg=kind_buy_pool gdt:gpu_tdr:gdt_gpu_tdr:alg=key_dlt gdt:gpu_tdr:gdt_gpu_tdr:alg=key_regroup" \
      bash "$0" "$out" rodinia-ncu ;;
gdt-meld)
  # gdt's meld_buy_pool (buy_pool with layers 1-2, fill and sell melded)
  # beside buy_pool and the melded variant: the defaults, then each tuned
  # exhaustively (wg; minb for the pool forms) at medium and at large,
  # then ncu on one launch of each kernel at medium
  # (GDT_SIZES: the sizes, default "medium large"; GDT_NCU=no skips ncu;
  # GDT_NCU_SPECS: the kernels, as RODINIA_NCU of rodinia-ncu)
  for sz in ${GDT_SIZES:-medium large}; do
    log "gdt-meld: defaults, then tuned ($sz)"
    r=20; [ $sz = large ] && r=10
    timeout 150 $H run --suite frontier --bench gdt --size $sz --backend cuda --reps $r \
        --variant baseline,gpu_tdr,melded --param alg=buy_pool,meld_buy_pool,meld_key_dlt --remap-overhead no \
        --tune none --out "$out/gdt-meld-$sz" > "$out/gdt-meld-$sz.txt" 2>&1
    DH_JOURNAL=/tmp/dh-journal-gdt-meld.tsv timeout 420 $H run --suite frontier --bench gdt --size $sz \
        --backend cuda --variant baseline,gpu_tdr,melded --param alg=buy_pool,meld_buy_pool,meld_key_dlt \
        --tune exhaustive --tune-reps 3 --reps $r --remap-overhead no \
        --out "$out/gdt-meld-$sz-tuned" > "$out/gdt-meld-$sz-tuned.txt" 2>&1
  done
  grep -hE "^(bench|gdt|tuned) " "$out"/gdt-meld-*.txt
  [ "${GDT_NCU:-yes}" = no ] ||
  NCU_SUITE=frontier RODINIA_NCU="${GDT_NCU_SPECS:-gdt:baseline:gdt_baseline: gdt:melded:gdt_melded: gdt:gpu_tdr:gdt_gpu_tdr:alg=buy_pool gdt:gpu_tdr:gdt_gpu_tdr:alg=meld_buy_pool gdt:gpu_tdr:gdt_gpu_tdr:alg=meld_key_dlt,wg=512 gdt:melded:gdt_melded:wg=512}" \
      bash "$0" "$out" rodinia-ncu ;;
gdt-meld-port)
  # gdt's meld_key_dlt on NVIDIA's OpenCL (tuned over wg, beside the
  # baseline and melded, tuned too) and on HIP (NVIDIA platform; the
  # defaults, then wg 1024: each HIP build takes seconds)
  if [ -n "$ocl_gpu" ]; then
    log "gdt-meld-port: opencl device $ocl_gpu (${SIZE:-medium})"
    DH_JOURNAL=/tmp/dh-journal-gdt-port.tsv timeout 300 $H run --suite frontier --bench gdt \
        --size "${SIZE:-medium}" --backend opencl --device "$ocl_gpu" --reps "${REPS:-20}" \
        --variant baseline,gpu_tdr,melded --param alg=meld_key_dlt --tune exhaustive --tune-reps 3 \
        --remap-overhead no --out "$out/gdt-port-opencl" > "$out/gdt-port-opencl.txt" 2>&1
  fi
  for wg in 256 1024; do
    log "gdt-meld-port: hip, wg $wg (${SIZE:-medium})"
    timeout 200 $H run --suite frontier --bench gdt --size "${SIZE:-medium}" --backend hip \
        --reps "${REPS:-20}" --variant baseline,gpu_tdr,melded --param alg=meld_key_dlt --param wg=$wg \
        --tune none --remap-overhead no --out "$out/gdt-port-hip-wg$wg" > "$out/gdt-port-hip-wg$wg.txt" 2>&1
  done
  grep -hE "^(bench|gdt|tuned) " "$out"/gdt-port-*.txt ;;
sw-heavy)
  # bbv/sw's BBV regroupings dealt as they come (deal=1) and costliest
  # first (deal=2), local mode: whether a shortest-first order (sort) or
  # merge order (greedy) loses to key's longest-first only by the order
  # of the work-groups an SM favours
  for d in 1 2; do
    log "sw-heavy: deal=$d (${SIZE:-medium})"
    timeout 250 $H run --suite bbv --bench sw --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
        --variant baseline,cpu_tdr --param mode=local --param regroup=key,sort,greedy,greedymax \
        --param deal=$d --out "$out/sw-deal$d" > "$out/sw-deal$d.txt" 2>&1
  done
  grep -hE "^(bench|sw) " "$out"/sw-deal*.txt ;;
nqu-windows)
  # darm/nqu's modeled CFE with ordered BBVs (one window per K iterations
  # of the search) against CUPTI's, the same runs: totals, then K = 4, 2, 1
  # (K = 1 at medium: 16 GB of counters, DH_BBV_LIMIT_MB raised)
  for k in 0 4 2 1; do
    log "nqu-windows: K=$k (${SIZE:-medium})"
    if [ $k = 0 ]; then w=; else w=$k; fi
    DH_BBV_WINDOW=$w DH_BBV_LIMIT_MB=24000 timeout 300 $H run --suite darm --bench nqu \
        --size "${SIZE:-medium}" --backend cuda --reps 5 --variant baseline \
        --param per_launch=all,2wg --param order=natural,random --fresh --no-cache \
        --out "$out/nqu-win$k" > "$out/nqu-win$k.txt" 2>&1
  done
  grep -hE "^(bench|nqu) " "$out"/nqu-win*.txt ;;
measured|measured-2|measured-tdr|each)
  # block costs measured per instruction (DH_BLOCK_COSTS=measured: CUPTI's
  # SASS metrics of each workload's baseline, mapped through the listing):
  # each baseline's modeled CFE against CUPTI's in the same run, per-block
  # tables in measured-dump/ (docs/model.md "Block costs measured per
  # instruction"); the workloads: ci/measured-workloads.sh (set 1;
  # measured-2: set 2, the rest of the newer suites).
  # measured-tdr: the cpu_tdr regroupings of micro and pol priced with
  # the baseline's measured costs (the model's speedup errors).
  # each: the benchmarks whose tables declare blocks decided each
  # iteration (dh_bb_def.each: ms, bfs, pb), their baselines with
  # measured costs, then with their preferred costs (e-*) and BFS's and
  # PB's cpu_tdr regroupings as Table V runs them (docs/results/h100-model.md), counters on.
  mkdir -p "$out/measured-dump"
  mrun() {
    local name=$1; shift
    DH_BLOCK_COSTS=measured DH_MEASURED_DUMP="$out/measured-dump" DH_BBV_LIMIT_MB=24000 \
      timeout 280 $H run --backend cuda --reps "${MREPS:-3}" --variant "${MVARIANT:-baseline}" --fresh --no-cache \
      --out "$out/m-$name" "$@" > "$out/m-$name.txt" 2>&1
    echo "$name rc=$?"; grep -m3 "measured\|error" "$out/m-$name.txt"
  }
  . ci/measured-workloads.sh
  if [ "$s" = measured ]; then
    measured_workloads 1 mrun
  elif [ "$s" = each ]; then
    mrun ms --suite darm --bench ms --size medium
    DH_BBV_WINDOW=1 mrun bfs-win1 --suite rodinia --bench bfs --size medium
    mrun pb --suite parboil --bench pb --size medium
    erun() {
      local name=$1; shift
      timeout 280 $H run --backend cuda --reps 10 --fresh --no-cache --out "$out/e-$name" "$@" \
        > "$out/e-$name.txt" 2>&1
      echo "e-$name rc=$?"; sed -n '/^BBV model/,/^mean/p' "$out/e-$name.txt"
    }
    erun ms --suite darm --bench ms --size medium --variant baseline
    DH_BBV_WINDOW=1 erun bfs-win1 --suite rodinia --bench bfs --size medium --variant baseline
    DH_BLOCK_COSTS=hand DH_BBV_WINDOW=1 erun bfs-win1-hand --suite rodinia --bench bfs --size medium \
        --variant baseline
    erun bfs-tdr --suite rodinia --bench bfs --size medium --variant baseline,cpu_tdr \
        --param mech=dlt --param regroup=key,sort,greedy,greedymax
    erun pb-tdr --suite parboil --bench pb --size medium --variant baseline,cpu_tdr \
        --param mech=rr --param regroup=key,sort,greedy,greedymax
  elif [ "$s" = measured-tdr ]; then
    MREPS=10 MVARIANT=baseline,cpu_tdr mrun tdr-micro --suite micro --size medium --param mech=rr \
        --param regroup=key,sort,greedy,greedymax
    MREPS=10 MVARIANT=baseline,cpu_tdr mrun tdr-pol --suite frontier --bench pol --size medium \
        --param regroup=key,sort,greedy,greedymax
    sed -n '/^BBV model/,/^mean/p' "$out"/m-tdr-*.txt
  else
    measured_workloads 2 mrun
  fi
  python3 - "$out" <<'P'
import glob, re, sys
for f in sorted(glob.glob(sys.argv[1] + "/m-*/results.xml")):
    x = open(f).read()
    for m in re.finditer(r'<run [^>]*id="([^"]*)"', x):
        seg = x[m.start():x.find('</run>', m.start())]
        c = re.findall(r'<model [^>]*costs="([^"]*)"[^>]*cfe32="([0-9.]*)"', seg)
        k = re.findall(r'source="counters" value="([0-9.]*)"', seg)
        if c and k:
            print("%-60s %-9s modeled %.3f CUPTI %.3f  %+.1f" % (m.group(1)[-60:], c[0][0],
                  float(c[0][1]), float(k[0]), 100 * (float(c[0][1]) - float(k[0]))))
P
  ;;
darm-windows)
  # darm's pcm (a step a phase) and bit (a step a (k, j) of the network)
  # with one-step windows of ordered BBVs, CUPTI's CFE in the same runs
  # (their totals' figures are the committed darm runs')
  log "darm-windows: pcm and bit, K=1 (${SIZE:-medium})"
  DH_BBV_WINDOW=1 DH_BBV_LIMIT_MB=24000 timeout 280 $H run --suite darm --bench pcm \
      --size "${SIZE:-medium}" --backend cuda --reps 5 --variant baseline --param bs=32,256 \
      --param input=ranges,random --fresh --no-cache --out "$out/pcm-win1" > "$out/pcm-win1.txt" 2>&1
  DH_BBV_WINDOW=1 DH_BBV_LIMIT_MB=24000 timeout 280 $H run --suite darm --bench bit \
      --size "${SIZE:-medium}" --backend cuda --reps 5 --variant baseline --param bs=32,256 \
      --param input=desc,random --fresh --no-cache --out "$out/bit-win1" > "$out/bit-win1.txt" 2>&1
  grep -hE "^(bench|pcm|bit) " "$out"/pcm-win1.txt "$out"/bit-win1.txt ;;
nqu-launches)
  # the scheduled metric run launch by launch, checked on launch shapes
  # it was not fixed on: NQU with two groups a launch at wg 64 and 256
  # (the rows it was fixed on are wg 128), natural and random order
  for wg in 64 256; do
    log "nqu-launches: wg $wg (${SIZE:-medium})"
    timeout 250 $H run --suite darm --bench nqu --size "${SIZE:-medium}" --backend cuda --reps 10 \
        --variant baseline,cpu_tdr --param per_launch=2wg --param order=natural,random \
        --param regroup=key,sort,greedy,greedymax --param deal=0 --param wg=$wg --tune none \
        --out "$out/nqu-2wg-wg$wg" > "$out/nqu-2wg-wg$wg.txt" 2>&1
  done
  grep -hE "^(bench|nqu) " "$out"/nqu-2wg-wg*.txt ;;
parboil-ncu)
  # why the parboil variants gain or lose: one launch of each kernel under
  # ncu (DRAM and SM throughput, sectors per load request, occupancy,
  # registers, thread-instructions per warp-instruction = CFE)
  log "parboil under ncu (${SIZE:-medium})"
  m=dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
  m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  m=$m,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread
  m=$m,smsp__thread_inst_executed_per_inst_executed.ratio,gpu__time_duration.sum
  for bv in lbm:baseline:lbm_base lbm:cpu_tdr:lbm_rr lbm:gpu_tdr:lbm_gpu_tdr pb:baseline:pb_base \
            pb:cpu_tdr:pb_rr pb:gpu_tdr:pb_gpu_tdr histo:baseline:histo_main \
            histo:cpu_tdr:histo_main histo:gpu_tdr:histo_gpu_tdr; do
    IFS=: read -r b v k <<< "$bv"
    timeout 200 ncu --metrics $m -k $k -c 1 --csv $H run --suite parboil --bench $b --backend cuda \
        --variant $v $([ $v = gpu_tdr ] && echo --param alg=dgi_scan) --size "${SIZE:-medium}" --reps 1 --warmup 1 --isolate no \
        --counters no --no-model --out /tmp/ncu-$b-$v > "$out/ncu-$b-$v.csv" 2>&1
    echo "$b $v: $(grep -E '^"[0-9]' "$out/ncu-$b-$v.csv" | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
  done | tee "$out/parboil-ncu.txt" ;;
model-ncu)
  # why a regrouped pol runs faster than its CFE says (docs/model.md "pol
  # against its model"): the baseline and cpu_tdr key / sort of pol and
  # cvp, every launch of the timed kernel under ncu (a BBV regrouping's
  # profiling launch comes first; the last row is the timed one): issue,
  # instructions, warps active, each stall reason per issued instruction,
  # the busiest SM against the mean
  log "model under ncu (${SIZE:-medium})"
  m=smsp__inst_executed.sum,smsp__thread_inst_executed.sum,gpu__time_duration.sum
  m=$m,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__warps_active.avg.pct_of_peak_sustained_active
  m=$m,sm__cycles_active.avg,sm__cycles_active.max,sm__cycles_elapsed.max,launch__registers_per_thread
  m=$m,dram__throughput.avg.pct_of_peak_sustained_elapsed,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum
  m=$m,smsp__warps_eligible.avg.per_cycle_active,smsp__warps_active.avg.per_cycle_active
  for r in no_instruction branch_resolving barrier long_scoreboard short_scoreboard wait math_pipe_throttle \
           not_selected selected dispatch_stall mio_throttle lg_throttle imc_miss drain membar sleeping tex_throttle; do
    m=$m,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
  done
  for spec in ${MODEL_NCU:-pol:baseline:pl_baseline: pol:cpu_tdr:pl_baseline:regroup=key pol:cpu_tdr:pl_baseline:regroup=sort \
              cvp:baseline:cvp_baseline: cvp:cpu_tdr:cvp_baseline:regroup=key cvp:cpu_tdr:cvp_baseline:regroup=sort}; do
    IFS=: read -r b v k p <<< "$spec"
    pa=(); for kv in ${p//,/ }; do pa+=(--param "$kv"); done
    f="$out/ncu-$b-$v${p:+-${p//[,=]/_}}.csv"
    # a BBV regrouping needs its profiling launch (the model on); key and
    # the baseline run without it
    nm=--no-model; case $p in *regroup=sort*|*regroup=greedy*) nm= ;; esac
    timeout 200 ncu --metrics $m -k $k -c 4 --csv $H run --suite frontier --bench $b --backend cuda \
        --variant $v "${pa[@]}" --size "${SIZE:-medium}" --reps 1 --warmup 1 --isolate no \
        --counters no $nm --fresh --out /tmp/ncu-m-$b-$v-$p > "$f" 2>&1
    # one line per launch: instructions and time (the profiling launch
    # counts blocks, so it issues more)
    grep -E '^"[0-9]' "$f" | awk -F'","' '$(NF-2)=="smsp__inst_executed.sum" || $(NF-2)=="gpu__time_duration.sum" {printf "  launch %s %s=%s\n", substr($1,2), $(NF-2), $NF}'
    echo "$b $v $p: $(grep -E '^"[0-9]' "$f" | tail -n $(echo $m | tr , '\n' | wc -l) | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
  done | tee "$out/model-ncu.txt" ;;
pb-static-ncu)
  # PB's static map against the baseline and hot, one launch each under ncu
  # at k=3 s=2 and k=2 s=2: the prediction in docs/results/ for static_trips is about
  # 13% fewer warp instructions at k=3 s=2 and twice the store sectors
  log "pb static_trips under ncu (${SIZE:-medium})"
  m=dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
  m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,smsp__thread_inst_executed_per_inst_executed.ratio
  m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,smsp__inst_executed.sum
  m=$m,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,gpu__time_duration.sum
  for ks in "3 2" "2 2"; do
    read -r k s <<< "$ks"
    for vk in baseline::pb_base gpu_tdr:static_trips:pb_gpu_tdr gpu_tdr:hot:pb_gpu_tdr; do
      IFS=: read -r v a kern <<< "$vk"
      tag=k$k-s$s-$v${a:+-$a}
      timeout 200 ncu --metrics $m -k $kern -c 1 --csv $H run --suite parboil --bench pb --backend cuda \
          --variant $v ${a:+--param alg=$a} --param k=$k --param s=$s --size "${SIZE:-medium}" --reps 1 \
          --warmup 1 --isolate no --counters no --no-model --out /tmp/ncu-pb-$tag > "$out/ncu-pb-$tag.csv" 2>&1
      echo "pb $tag: $(grep -E '^"[0-9]' "$out/ncu-pb-$tag.csv" | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
    done
  done | tee "$out/pb-static-ncu.txt" ;;
micro-gap)
  # micro's multi-item remap (scan_multi, wg 512, ipl IPL, default 16)
  # against cpu_tdr's own kernel (mb_rr, key regrouping), one launch each
  # under ncu at each of PATHS (default "2 8"): instructions, issue rate,
  # active cycles, warps active, stall reasons (docs/results/h100-micro.md,
  # "Where the rest of the gap is")
  log "micro gap under ncu (ipl ${IPL:-16}, paths ${PATHS:-2 8})"
  m=smsp__inst_executed.sum,sm__throughput.avg.pct_of_peak_sustained_elapsed,smsp__issue_active.avg.pct_of_peak_sustained_active
  m=$m,sm__warps_active.avg.pct_of_peak_sustained_active,smsp__thread_inst_executed_per_inst_executed.ratio,gpu__time_duration.sum
  for r in barrier long_scoreboard short_scoreboard wait math_pipe_throttle not_selected selected dispatch_stall; do
    m=$m,smsp__average_warps_issue_stalled_${r}_per_issue_active.ratio
  done
  m=$m,sm__cycles_active.avg,sm__cycles_elapsed.max,launch__grid_size,launch__registers_per_thread,smsp__inst_executed_pipe_fma.sum
  for p in ${PATHS:-2 8}; do
    timeout 150 ncu --metrics $m -k mb_rr -c 1 --csv $H run --suite micro --size medium --backend cuda --variant cpu_tdr \
        --param mech=rr --param regroup=key --param wg=512 --param paths=$p --param layers=1 --reps 1 --warmup 1 \
        --isolate no --counters no --no-model --out /tmp/g-rr-$p > "$out/ncu-p$p-cpu_tdr.csv" 2>&1
    timeout 150 ncu --metrics $m -k mb_gpu_tdr -c 1 --csv $H run --suite micro --size medium --backend cuda \
        --variant gpu_tdr --param alg=scan_multi --param ipl=${IPL:-16} --param wg=512 --param paths=$p --param layers=1 \
        --reps 1 --warmup 1 --isolate no --counters no --no-model --remap-overhead no --out /tmp/g-sm-$p \
        > "$out/ncu-p$p-scan_multi.csv" 2>&1
    for v in cpu_tdr scan_multi; do
      echo "P=$p $v: $(grep -E '^"[0-9]' "$out/ncu-p$p-$v.csv" | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
    done
  done | tee "$out/ncu.txt" ;;
rodinia-hip)
  log "rodinia suite, hip (${SIZE:-medium})"
  timeout 560 $H run --suite rodinia --size "${SIZE:-medium}" --backend hip --reps "${REPS:-20}" \
      --variant all --out "$out/rodinia-hip" ${SUITE_ARGS:-} > "$out/rodinia-hip.txt" 2>&1
  grep -vE "^\[" "$out/rodinia-hip.txt" | sed -n '/^bench/,/^$/p' ;;
rodinia-ncu)
  # why the rodinia variants gain or lose: one launch of each timed kernel
  # under ncu, per bs / meld form (RODINIA_NCU: "bench:variant:kernel:params ...",
  # e.g. "lud:baseline:lu_peri_base:bs=16,wg=32 lud:melded:lu_peri_meld:bs=16,wg=32";
  # NCU_SUITE picks another suite, e.g. NCU_SUITE=bbv RODINIA_NCU="sw:cpu_tdr:sw_align:regroup=key")
  ns=${NCU_SUITE:-rodinia}
  log "$ns under ncu (${SIZE:-medium})"
  m=dram__throughput.avg.pct_of_peak_sustained_elapsed,sm__throughput.avg.pct_of_peak_sustained_elapsed
  m=$m,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum
  m=$m,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared.sum
  m=$m,sm__warps_active.avg.pct_of_peak_sustained_active,launch__registers_per_thread,gpu__time_duration.sum
  m=$m,smsp__issue_active.avg.pct_of_peak_sustained_active,sm__cycles_active.avg,sm__cycles_active.max
  m=$m,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum
  for spec in ${RODINIA_NCU:-}; do
    IFS=: read -r b v k p <<< "$spec"
    pa=(); for kv in ${p//,/ }; do pa+=(--param "$kv"); done
    timeout 200 ncu --metrics $m -k $k -c 1 --csv $H run --suite "$ns" --bench $b --backend cuda \
        --variant $v "${pa[@]}" --size "${SIZE:-medium}" --reps 1 --warmup 1 --isolate no \
        --counters no --no-model --fresh --out /tmp/ncu-$b-$v > "$out/ncu-$b-$v-${p//[,=]/_}.csv" 2>&1
    echo "$b $v $p: $(grep -E '^"[0-9]' "$out/ncu-$b-$v-${p//[,=]/_}.csv" | awk -F'","' '{printf "%s=%s ", $(NF-2), $NF}')"
  done | tee "$out/$ns-ncu.txt" ;;
aa)
  # A/A false alarms: micro three times and frontier twice at $SIZE on
  # CUDA, the nightly's way (default variants, --remap-overhead no), every
  # pair of runs compared; one line per pair with its verdict counts
  for suite in micro frontier; do
    n=3; [ $suite = frontier ] && n=2
    for k in $(seq 1 $n); do
      log "aa: $suite run $k"
      timeout 300 $H run --suite $suite --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
          --remap-overhead no --out "$out/aa-$suite-$k" > "$out/aa-$suite-$k.txt" 2>&1
    done
    for a in $(seq 1 $n); do for b in $(seq $((a + 1)) $n); do
      $H compare "$out/aa-$suite-$a/results.xml" "$out/aa-$suite-$b/results.xml" \
          > "$out/aa-cmp-$suite-$a$b.txt" 2>&1
      echo "$suite $a-$b: $(grep -E '^[0-9]+ cases:' "$out/aa-cmp-$suite-$a$b.txt")"
      grep -E '^slower' "$out/aa-cmp-$suite-$a$b.txt"
    done; done
  done | tee "$out/aa.txt" ;;
ab-micro|ab-frontier)
  # an earlier build (OLD) against this one on the same cases: medium,
  # cuda, cpu_tdr by key, no model or counters (timings only); old, new,
  # old, new, so that drift shows as a difference between the two pairs
  suite=${s#ab-}
  if [ ! -x "${OLD:-}" ]; then log "$s: set OLD to an earlier build's harness"; return 0; fi
  for k in 1 2; do for who in old new; do
    bin=$H; [ $who = old ] && bin=$OLD
    log "$s: $who ($k)"
    timeout 130 $bin run --suite "$suite" --size "${SIZE:-medium}" --backend cuda \
        --reps "${REPS:-20}" --param regroup=key --no-model --counters no \
        --out "$out/ab-$suite-$who$k" > "$out/ab-$suite-$who$k.txt" 2>&1
  done; done
  for k in 1 2; do
    $H compare "$out/ab-$suite-old$k/results.xml" "$out/ab-$suite-new$k/results.xml" \
        > "$out/ab-$suite-compare$k.txt" 2>&1
    tail -n 25 "$out/ab-$suite-compare$k.txt"
  done ;;
overlap|overlap-micro|overlap-frontier)
  # run --overlap (the next workload's input and CPU reference made in a
  # background process while the current one is timed): micro and
  # frontier at $SIZE on CUDA, no, yes, no, yes, each with a cold
  # workload and program cache (a fresh DH_CACHE_DIR); wall time, setup
  # time and what the background made per run, then harness compare on
  # the kernel medians: no against yes in each pair, and no against no,
  # yes against yes (A/A: the noise the verdicts stand against)
  suites="micro frontier"; [ "$s" != overlap ] && suites=${s#overlap-}
  for suite in $suites; do
    for k in 1 2; do for ov in no yes; do
      d="$out/overlap-$suite-$ov$k"
      rm -rf "$d" "$d.cache"; mkdir -p "$d.cache"
      log "overlap $suite: --overlap $ov ($k), cold cache"
      t0=$(date +%s.%N)
      DH_CACHE_DIR="$d.cache" timeout 280 $H run --suite "$suite" --size "${SIZE:-medium}" \
          --backend cuda --reps "${REPS:-10}" --overlap $ov --out "$d" ${SUITE_ARGS:-} \
          > "$d.txt" 2> "$d.progress.txt"
      rc=$?
      wall=$(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN {printf "%.1f", b - a}')
      setup=$(grep -o 'setup_ms="[^"]*"' "$d/results.xml" 2>/dev/null | tr -dc '0-9.\n' \
              | awk '{s += $1} END {printf "%.2f", s / 1000}')
      echo "overlap $suite $ov$k: exit $rc, wall $wall s, setup in the cases $setup s;" \
           "$(grep '^harness: overlap' "$d.progress.txt" | tail -1)" | tee -a "$out/overlap.txt"
      rm -rf "$d.cache"
    done; done
    for pair in "no1 yes1" "no2 yes2" "no1 no2" "yes1 yes2"; do
      set -- $pair
      $H compare "$out/overlap-$suite-$1/results.xml" "$out/overlap-$suite-$2/results.xml" \
          > "$out/overlap-$suite-compare-$1-$2.txt" 2>&1
      rc=$?
      echo "compare $suite $1 -> $2: exit $rc; $(grep -E '^[0-9]+ cases|regression' "$out/overlap-$suite-compare-$1-$2.txt" | tr '\n' ' ')" \
          | tee -a "$out/overlap.txt"
    done
  done ;;
*) return 99 ;;
esac
return 0
}
