#!/usr/bin/env bash
# ci/deps.sh — install the Debian packages divharness needs, when missing.
# As root it runs apt-get; otherwise it prints the exact line and stops.
set -euo pipefail
pkgs=(gcc g++ make pkg-config libxml2-dev libxml2-utils libcmocka-dev
      ocl-icd-libopencl1 ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
      gnuplot-nox
      libxxhash-dev                      # the workload cache's keys and checksums
      clang libclang-rt-dev libomp-dev   # make fuzz: libFuzzer, ASan, UBSan
      fiu-utils                          # tests: failing fsync/rename/fdatasync
      slurmctld slurmd slurm-client munge  # tests: harness slurm on a one-node Slurm
      hipcc libamdhip64-dev)   # the HIP backend's AMD compile check and plugin
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
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
