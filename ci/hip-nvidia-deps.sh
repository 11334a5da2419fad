#!/usr/bin/env bash
# ci/hip-nvidia-deps.sh — install what `make hip-nvidia` needs (the HIP
# backend's plugin for NVIDIA GPUs, see backends/hip/README.md):
#   libamdhip64-dev      HIP 5.2's headers, with include/hip/nvidia_detail/
#   nvidia-cuda-toolkit  Debian's CUDA 11.8 (nvcc 11.8: HIP 5.2's NVIDIA
#                        headers were written for it; CUDA 13's headers
#                        reject them), from bookworm's non-free component
#   clang-14             nvcc 11.8's host compiler (it refuses gcc 12)
# The non-free component is added in a sources file of its own
# (/etc/apt/sources.list.d/divharness-non-free.sources), so the system's
# own sources stay untouched. CUDA 11.8 lands in /usr/bin and /usr/lib;
# the Makefile pins CUDA 13 ($CUDA_HOME) everywhere else, see hip.mk.
# As root it runs apt-get; otherwise it prints the lines and stops.
set -euo pipefail
pkgs=(libamdhip64-dev nvidia-cuda-toolkit clang-14)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
src=/etc/apt/sources.list.d/divharness-non-free.sources
codename=$(. /etc/os-release; echo "${VERSION_CODENAME:-bookworm}")
if [ "$(id -u)" -ne 0 ]; then
  echo "the HIP NVIDIA route needs: ${missing[*]} (nvidia-cuda-toolkit is in Debian's non-free)" >&2
  echo "as root, run this script again, or:" >&2
  echo "  add 'Components: non-free contrib' for $codename to $src" >&2
  echo "  apt-get update && apt-get install -y --no-install-recommends ${missing[*]}" >&2
  exit 1
fi
if ! grep -rqsE '^(Components:.*non-free( |$)|deb .* non-free( |$))' /etc/apt/sources.list /etc/apt/sources.list.d/; then
  cat > "$src" <<SRC
Types: deb
URIs: http://deb.debian.org/debian
Suites: $codename $codename-updates
Components: contrib non-free
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SRC
  echo "added $src (contrib non-free)" >&2
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
echo "installing: ${missing[*]}" >&2
apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
/usr/bin/nvcc --version | tail -2
