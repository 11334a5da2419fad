# ci/gpu/common.sh — what every step of ci/gpu-check.sh shares: the CUDA
# paths, the bundled libraries, the program cache, the harness H, log(),
# the OpenCL index of the NVIDIA GPU (ocl_gpu) and suite_all. Sourced by
# ci/gpu-check.sh with $out set, from the repository root.
export CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH=$CUDA_HOME/bin:$PATH
[ -d build/lib ] && export LD_LIBRARY_PATH=$PWD/build/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export DH_CACHE_DIR=${DH_CACHE_DIR:-/tmp/dh-cache}
H=build/harness
log() { echo "== $* ($(date -u +%T))" | tee -a "$out/gpu-check.log"; }

# NVIDIA's OpenCL is installed but not registered with the ICD loader
if [ -e /usr/lib/x86_64-linux-gnu/libnvidia-opencl.so.1 ] || ldconfig -p | grep -q libnvidia-opencl; then
  [ -f /etc/OpenCL/vendors/nvidia.icd ] || { mkdir -p /etc/OpenCL/vendors; echo libnvidia-opencl.so.1 > /etc/OpenCL/vendors/nvidia.icd; }
fi
if [ ! -x $H ]; then
  log "build"; make -j16 >>"$out/build.log" 2>&1 || { log "build failed"; tail -30 "$out/build.log"; exit 3; }
fi

# the OpenCL device index of the NVIDIA GPU
ocl_gpu=$($H devices 2>/dev/null | awk '/^opencl/ {o=1; next} /^[a-z]/ {o=0} o && /^  \[[0-9]+\]/ && /gpu/ {gsub(/[^0-9]/,"",$1); print $1; exit}')

# suite_all S: suite S at $SIZE with --variant all, CUDA then NVIDIA's
# OpenCL, each table printed
suite_all() {
  log "$1 suite, cuda (${SIZE:-medium})"
  timeout 560 $H run --suite "$1" --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
      --variant all --out "$out/$1-cuda" ${SUITE_ARGS:-} > "$out/$1-cuda.txt" 2>&1
  grep -vE "^\[" "$out/$1-cuda.txt" | sed -n '/^bench/,/^$/p'
  if [ -n "$ocl_gpu" ]; then
    log "$1 suite, opencl device $ocl_gpu (${SIZE:-medium})"
    timeout 560 $H run --suite "$1" --size "${SIZE:-medium}" --backend opencl --device "$ocl_gpu" \
        --reps "${REPS:-20}" --variant all --out "$out/$1-opencl" ${SUITE_ARGS:-} \
        > "$out/$1-opencl.txt" 2>&1
    grep -vE "^\[" "$out/$1-opencl.txt" | sed -n '/^bench/,/^$/p'
  fi
}

