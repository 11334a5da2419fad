#!/usr/bin/env bash
# ci/hip-amd-check.sh BUILD — compile every kernel build for AMD GPUs with
# hipcc, on a machine without a GPU.
#
# `harness emit` writes the exact source and options of every build a run
# makes (every benchmark, variant, choice, default workload point and
# size) for a device of the given wavefront width; each is compiled as
# hipRTC would: HIP source, hip_runtime.h pre-included, device code only,
# for each arch in HIP_ARCHS (default: gfx90a, CDNA2, wave64; gfx1030,
# RDNA2, wave32), with DH_WAVE = that arch's wavefront width. The
# warp-vote forms are compiled too (the hip backend runs them on AMD only
# with DH_HIP_WARP_VOTES=1), and one check shows that a warp-vote build
# with DH_NO_WARP_VOTES (what the backend passes on AMD by default) fails
# at a name the backend recognises.
#
# Exit: 0 all compiled; 1 a build failed (its log is printed); 77 hipcc
# is not installed (the caller reports SKIPPED); 3 harness missing.
set -uo pipefail
build=${1:-build}
hipcc=${HIPCC:-hipcc}
archs=${HIP_ARCHS:-gfx90a gfx1030}
jobs=${JOBS:-$(nproc)}
if ! command -v "$hipcc" >/dev/null 2>&1; then
  echo "hip-amd-check: $hipcc not found (apt-get install hipcc): skipped"
  exit 77
fi
[ -x "$build/harness" ] || { echo "hip-amd-check: no $build/harness (run make)"; exit 3; }
tmp=$(mktemp -d /tmp/dh-hip-amd.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# clang's HIP driver leaves two empty folders in TMPDIR per build (669
# builds: 1,338 folders in /tmp per check): its scratch goes here instead
mkdir -p "$tmp/scratch"
export TMPDIR=$tmp/scratch

wave_of() {  # gfx9 (GCN/CDNA) runs wave64; gfx10 and later default to wave32
  case $1 in gfx9*|gfx8*) echo 64 ;; *) echo 32 ;; esac
}

# hip_runtime.h, which hipRTC pre-includes, is most of a build's compile time
# (0.6 of 0.7 s here): it is parsed once per arch into a precompiled header
# that every build of that arch includes instead. Same flags, same header:
# the objects are byte-identical to a build without it (checked below on
# one build per arch). Where the PCH cannot be made, every build includes
# the header itself.
pch_of() {  # arch -> the flags that pre-include hip_runtime.h for it
  local arch=$1 pch=$tmp/hip_runtime-$1.pch
  if [ ! -f "$pch" ] && [ -z "${DH_HIP_NO_PCH:-}" ]; then
    printf '#include <hip/hip_runtime.h>\n' > "$tmp/hip_runtime_pch.h"
    "$hipcc" -x hip --offload-arch="$arch" --cuda-device-only -O2 -Xclang -emit-pch -S \
        "$tmp/hip_runtime_pch.h" -o "$pch" >"$tmp/pch-$arch.log" 2>&1 || rm -f "$pch"
  fi
  if [ -s "$pch" ]; then echo "-Xclang -include-pch -Xclang $pch"
  else echo "-include hip/hip_runtime.h"; fi
}

# hipcc is a perl wrapper that, per build, starts perl and asks clang for
# its version and target twice before it runs the one clang command that
# compiles (a build is 0.41 s through hipcc, 0.24 s as that command alone,
# here). That command is the same for every build of an arch but for the
# source's own flags: it is learned once
# per arch from hipcc itself (HIPCC_VERBOSE=1 prints it) and run directly.
# The check below compiles one build through hipcc proper and requires the
# same object. Where the command cannot be learned, hipcc runs every build.
driver_of() {  # arch -> the compiler command hipcc runs for it, up to -x hip
  local arch=$1 cmd
  [ -n "${DH_HIP_VIA_HIPCC:-}" ] && { echo "$hipcc --offload-arch=$arch"; return; }
  printf '__global__ void dh_probe(int *p) { *p = 1; }\n' > "$tmp/probe.hip"
  cmd=$(HIPCC_VERBOSE=1 "$hipcc" -x hip --offload-arch="$arch" --cuda-device-only -O2 -c \
        "$tmp/probe.hip" -o "$tmp/probe.o" 2>&1 | sed -n 's/^hipcc-cmd: //p' | head -1)
  case $cmd in
    *" -x hip "*"$tmp/probe.hip"*) echo "${cmd%% -x hip *}" ;;
    *) echo "$hipcc --offload-arch=$arch" ;;
  esac
}

compile_one() {  # driver src [include flags] -> 0/1, log beside src
  local driver=$1 src=$2 inc=${3:--include hip/hip_runtime.h} opts drv
  opts=$(cat "${src%.hip}.options")
  eval "drv=($driver)"   # hipcc's own command line, quoted as hipcc quotes it
  # shellcheck disable=SC2086
  "${drv[@]}" -x hip $inc --cuda-device-only -O2 -c $opts "$src" -o "${src%.hip}.o" \
      >"${src%.hip}.log" 2>&1
}
export -f compile_one
export hipcc

fail=0; total=0; t0=$(date +%s)
for arch in $archs; do
  wave=$(wave_of "$arch")
  dir=$tmp/$arch
  "$build/harness" emit --out "$dir" --backend hip --wave "$wave" >/dev/null || {
    echo "hip-amd-check: harness emit failed"; exit 3; }
  n=$(ls "$dir"/*.hip | wc -l)
  total=$((total + n))
  inc=$(pch_of "$arch")
  case $inc in *include-pch*) ;; *) echo "hip-amd-check: $arch: hipcc could not precompile hip_runtime.h: every build parses it" ;; esac
  driver=$(driver_of "$arch")
  ls "$dir"/*.hip | xargs -P "$jobs" -I{} bash -c 'compile_one "$0" "$1" "$2" || echo "FAIL $1"' \
      "$driver" {} "$inc" > "$tmp/$arch.fails"
  # neither the PCH nor the direct command changes anything: one build
  # again through hipcc with the header itself must give the same object
  first=$(ls "$dir"/*.hip | head -1)
  cp "${first%.hip}.o" "$tmp/fast.o" 2>/dev/null
  if compile_one "$hipcc --offload-arch=$arch" "$first" && ! cmp -s "${first%.hip}.o" "$tmp/fast.o"; then
    echo "hip-amd-check: $arch: $(basename "$first") differs from hipcc's own build (precompiled header or direct compiler command)"
    fail=1
  fi
  nf=$(grep -c '^FAIL' "$tmp/$arch.fails")
  echo "hip-amd-check: $arch (wave$wave): $((n - nf)) of $n builds compiled"
  if [ "$nf" -gt 0 ]; then
    fail=1
    while read -r _ src; do
      id=$(basename "${src%.hip}")
      echo "--- $arch build $id: $(awk -F'\t' -v id="$id" '$1 == id {print $2}' "$dir/builds.tsv")"
      grep -E "error" "${src%.hip}.log" | head -5
    done < <(grep '^FAIL' "$tmp/$arch.fails")
  fi
done

# the backend's default on AMD: a warp-vote build with DH_NO_WARP_VOTES must
# fail at a warp-vote name (the hip backend turns that into a clear refusal)
arch=${archs%% *}
vote=$(awk -F'\t' '/alg=(hot_warp|dgi_scan)/ {print $1; exit}' "$tmp/$arch/builds.tsv")
if [ -n "$vote" ]; then
  src=$tmp/$arch/$vote.hip
  opts=$(cat "$tmp/$arch/$vote.options")
  # shellcheck disable=SC2086
  if "$hipcc" -x hip -include hip/hip_runtime.h --offload-arch="$arch" --cuda-device-only \
       -c $opts -DDH_NO_WARP_VOTES "$src" -o "$tmp/novote.o" >"$tmp/novote.log" 2>&1; then
    echo "hip-amd-check: build $vote compiled with DH_NO_WARP_VOTES: the warp-vote forms are not switched off"
    fail=1
  elif ! grep -qE "dh_tdr_hot_warp|dh_tdr_dgi_scan|DH_TDR_SCAN_INTS|dh_ballot" "$tmp/novote.log"; then
    echo "hip-amd-check: build $vote with DH_NO_WARP_VOTES failed for another reason:"
    grep error "$tmp/novote.log" | head -5
    fail=1
  else
    echo "hip-amd-check: DH_NO_WARP_VOTES leaves the warp-vote forms out (build $vote refused as expected)"
  fi
fi
echo "hip-amd-check: $total builds, $(( $(date +%s) - t0 )) s, $([ $fail = 0 ] && echo ok || echo FAILED)"
exit $fail
