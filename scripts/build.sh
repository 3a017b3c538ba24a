#!/usr/bin/env bash
# Configures and builds Tessera. Usage: scripts/build.sh [--sanitize]
#   default     Release build in build/
#   --sanitize  Debug build with AddressSanitizer + UBSan in build-asan/
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$root/build"
args=(-DCMAKE_BUILD_TYPE=Release)
if [ "${1:-}" = "--sanitize" ]; then
  dir="$root/build-asan"
  args=(-DCMAKE_BUILD_TYPE=Debug -DTESSERA_SANITIZE=ON)
fi
jobs="${TESSERA_JOBS:-2}"
cmake -S "$root" -B "$dir" "${args[@]}" >&2
cmake --build "$dir" -j"$jobs" >&2
echo "$dir"
