#!/usr/bin/env bash
# ci/deps.sh [run|test|hip|docs|all]... — install the Debian packages one
# purpose of divharness needs, when missing (default: run).
#   run   build the harness, run suites on PoCL, write and draw reports
#         (`make run`, `make`, `make install`'s man pages)
#   hip   the HIP backend's AMD compile check and its AMD plugin
#   docs  the documentation site (`make docs`)
#   test  run + hip + docs + the test tools: cmocka, libfiu, a one-node
#         Slurm, clang and its runtimes for the fuzz targets, and an
#         nvdisasm that reads NVRTC 13's CUBINs (`make test`, `.ci/run`)
#   all   every set
# As root it runs apt-get; otherwise it prints the exact line and stops.
set -euo pipefail
run=(gcc g++ make pkg-config libxml2-dev libxml2-utils
     ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
     gnuplot-nox                        # the report's charts
     libxxhash-dev                      # the workload cache's keys and checksums
     libjansson-dev                     # export --json and T4
     libcmark-gfm-dev libcmark-gfm-extensions-dev  # the report's index.html
     libsqlite3-dev                     # harness db: the nights in one database
     help2man)                          # the man pages, from each command's --help
hip=(hipcc libamdhip64-dev)
docs=(mkdocs)
test=(libcmocka-dev
      fiu-utils                          # failing fsync/rename/fdatasync
      slurmctld slurmd slurm-client munge  # harness slurm on a one-node Slurm
      clang libclang-rt-dev libomp-dev   # make fuzz: libFuzzer, ASan, UBSan
      bash-completion                    # the completion script's test
      python3-jsonschema python3-pandas) # the exports read as their consumers read them
pkgs=(); nvdisasm=0
[ $# -eq 0 ] && set -- run
for purpose in "$@"; do
  case $purpose in
    run)  pkgs+=("${run[@]}") ;;
    hip)  pkgs+=("${hip[@]}") ;;
    docs) pkgs+=("${docs[@]}") ;;
    test) pkgs+=("${run[@]}" "${hip[@]}" "${docs[@]}" "${test[@]}"); nvdisasm=1 ;;
    all)  pkgs+=("${run[@]}" "${hip[@]}" "${docs[@]}" "${test[@]}"); nvdisasm=1 ;;
    list) printf 'run: %s\nhip: %s\ndocs: %s\ntest: run hip docs %s\n' "${run[*]}" \
              "${hip[*]}" "${docs[*]}" "${test[*]}"; exit 0 ;;
    *) echo "ci/deps.sh: unknown purpose '$purpose': choose run, test, hip, docs, all or list" >&2
       exit 64 ;;
  esac
done
missing=()
for p in $(printf '%s\n' "${pkgs[@]}" | sort -u); do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# an nvdisasm that reads NVRTC 13's CUBINs (`harness blocks`, test_sass;
# Debian's is CUDA 11.8's): PyPI's, into its own folder; best effort, the
# tests that need it are SKIPPED without it
nvd_dir=/opt/divharness-nvdisasm
if [ "$nvdisasm" = 1 ] && [ "$(id -u)" -eq 0 ] && [ ! -x "$nvd_dir/nvidia/cu13/bin/nvdisasm" ] \
   && command -v python3 >/dev/null; then
  python3 -m pip install --quiet --target "$nvd_dir" "nvidia-cuda-nvdisasm>=13" >&2 \
    || echo "ci/deps.sh: nvidia-cuda-nvdisasm not installed (harness blocks needs it)" >&2
fi
# Kernel Tuner's own T4 schema (tools/check-exports.py validates our T4
# files against it): the package from PyPI without its dependencies, into
# its own folder; best effort, test_exports is SKIPPED without it
kt_dir=/opt/divharness-kt
if [ "$nvdisasm" = 1 ] && [ "$(id -u)" -eq 0 ] && [ ! -f "$kt_dir/kernel_tuner/schema/T4/1.0.0/results-schema.json" ] \
   && command -v python3 >/dev/null; then
  python3 -m pip install --quiet --no-deps --target "$kt_dir" kernel_tuner >&2 \
    || echo "ci/deps.sh: kernel_tuner not installed (test_exports needs its T4 schema)" >&2
fi
[ ${#missing[@]} -eq 0 ] && exit 0
line="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "divharness needs these Debian packages: ${missing[*]}" >&2
  echo "install them as root, then rerun:" >&2
  echo "  sudo apt-get update && sudo $line" >&2
  exit 1
fi
echo "installing: ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$line >/dev/null
