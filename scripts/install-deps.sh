#!/usr/bin/env bash
# Installs every Debian package Tessera needs. Idempotent; runs as root with no prompts
# (uses sudo when not root). Safe to run again: only missing packages are installed.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config ccache git
  libsystemc-dev nlohmann-json3-dev libboost-dev catch2
  libelf-dev libunicorn-dev
  libmimalloc-dev  # the tessera program's allocator (platform/CMakeLists.txt)
  clang-14 lld-14 llvm-14 libclc-14 libclc-14-dev
  libclang-rt-14-dev  # libFuzzer and the sanitizers for scripts/fuzz.sh
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf gdb-multiarch
  pocl-opencl-icd ocl-icd-opencl-dev opencl-c-headers
  verilator
  gtkwave  # its vcd2fst and fst2vcd check that the bridges' VCD files open in GTKWave
  python3  # the benchmark scripts read --stats JSON with it; the trace tests check traces
  # scripts/experiment (docs/EXPERIMENTS.md): Dask, plots, and the tests' table checks
  python3-distributed python3-matplotlib python3-pandas
)

missing=()
for p in "${PACKAGES[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
