#!/usr/bin/env bash
# ci/bundle-libs.sh BUILD — copy the non-system shared libraries that
# build/harness and the tests link (libxml2 and its ICU, cmocka, gomp)
# into BUILD/lib, so the binaries run on a GPU machine that has a driver
# but not these packages (it has no network to install them).
set -euo pipefail
build=${1:-build}
mkdir -p "$build/lib"
for bin in "$build/harness" "$build"/tests/test_run; do
  ldd "$bin" | awk '/=>/ {print $3}' | grep -vE '/(libc|libm|libdl|libpthread|librt|ld-linux)[.-]' |
    while read -r lib; do cp -L "$lib" "$build/lib/"; done
done
du -sh "$build/lib"
