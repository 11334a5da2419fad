# ci/gpu/tests.sh — steps of ci/gpu-check.sh: the GPU tests and a smoke run: the environment and devices, the test programs that need a GPU, the micro suite on CUDA and NVIDIA's OpenCL, the HIP plugin on NVIDIA.
# Sourced by ci/gpu-check.sh after ci/gpu/common.sh; gpu_step_tests STEP runs
# STEP and returns 0, or returns 99 when STEP is not one of these.
# Steps: env tests micro hip
gpu_step_tests() {
local s=$1
case $s in
env)
  log "env"
  { nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,clocks.sm,power.limit --format=csv; $H devices; } 2>&1 | tee "$out/devices.txt" ;;
tests)
  log "tests"
  for t in build/tests/test_run build/tests/test_isolation build/tests/test_remap build/tests/test_sanitize; do
    [ -x $t ] && timeout 300 $t 2>&1 | tail -n 12 | tee -a "$out/tests.txt"
  done ;;
micro)
  log "micro suite, cuda (${SIZE:-medium})"
  timeout 540 $H run --suite micro --size "${SIZE:-medium}" --backend cuda --reps "${REPS:-20}" \
      --out "$out/micro-cuda" ${SUITE_ARGS:-} 2>&1 | tee "$out/micro-cuda.txt"
  if [ -n "$ocl_gpu" ]; then
    log "micro suite, opencl device $ocl_gpu"
    timeout 540 $H run --suite micro --size "${SIZE:-medium}" --backend opencl --device "$ocl_gpu" \
        --reps "${REPS:-20}" --out "$out/micro-opencl" ${SUITE_ARGS:-} 2>&1 | tee "$out/micro-opencl.txt"
  fi ;;
hip)
  # the HIP backend through HIP's NVIDIA platform (plugin build/lib/libdh-hip.so,
  # `make hip-nvidia` on the build machine): its tests, then the micro suite
  log "hip: devices and tests"
  $H devices 2>&1 | sed -n '/^hip/,/^[a-z]/p' | head -4 | tee "$out/hip-devices.txt"
  for t in build/tests/test_hip build/tests/test_remap; do
    [ -x $t ] && timeout 200 $t 2>&1 | tail -n 25 | tee -a "$out/hip-tests.txt"
  done
  log "micro suite, hip (${SIZE:-medium})"
  timeout 400 $H run --suite micro --size "${SIZE:-medium}" --backend hip --reps "${REPS:-20}" \
      --out "$out/micro-hip" ${SUITE_ARGS:-} 2>&1 | tee "$out/micro-hip.txt" | tail -n 40 ;;
*) return 99 ;;
esac
return 0
}
