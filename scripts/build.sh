#!/usr/bin/env bash
# Configures and builds Tessera. Usage: scripts/build.sh [--sanitize | --fast]
#   default     Release build in build/
#   --sanitize  Debug build at -O1 with AddressSanitizer + UBSan in build-asan/
#   --fast      the `tessera` binary only, for long timing-mode runs, in
#               build-fast/: Release with link-time and profile-guided
#               optimisation. An instrumented build (build-fast-train/) runs
#               the training set below; its profile then guides the final
#               build. Same results and cycle counts as the Release build.
# Prints the build directory on its last line.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
jobs="${TESSERA_JOBS:-2}"

# The training set: every workload at a small size on a single-die and a
# chiplet netlist, two on the 64-CU netlist, and the functional mode. Small
# sizes, so that training takes seconds; the code paths are those of the
# default sizes.
training_runs() {
  local w s
  while read -r w s; do
    echo "workload $w --size $s --netlist $root/json/platforms/small_gpu.json"
    echo "workload $w --size $s --netlist $root/json/platforms/chiplet4_small.json"
    echo "workload $w --size $s --device tessera-functional"
  done <<'EOF'
babelstream 65536
babelstream_iter 8192
bfs 10000
conv2d 64
fir 65536
histogram 65536
kmeans 10000
mfma_gemm_f16 64
mfma_gemm_f32 64
nbody 512
no_reuse 8192
permuted_consumer 8192
producer_consumer 8192
pruned_gemv_0 128
pruned_gemv_50 128
pruned_gemv_90 128
reduction 65536
relu 65536
saxpy 65536
scan 65536
sgemm16 64
sgemm32 64
spmv 3000
stencil2d 64
stencil_iter 64
transpose 128
vector_add 65536
EOF
  echo "workload vector_add --size 65536 --netlist $root/json/platforms/r9_nano.json"
  echo "workload sgemm16 --size 64 --netlist $root/json/platforms/r9_nano.json"
}

configure_and_build() {  # DIR TARGETS... (cmake arguments come from $args)
  local dir=$1
  shift
  cmake -S "$root" -B "$dir" "${args[@]}" >&2
  cmake --build "$dir" -j"$jobs" "$@" >&2
}

build_fast() {
  local train="$root/build-fast-train" dir="$root/build-fast"
  local profile="$train/profile" run n=0
  args=(-DCMAKE_BUILD_TYPE=Release -DTESSERA_LTO=ON -DTESSERA_PGO=generate "-DTESSERA_PGO_DIR=$profile")
  echo "fast build: instrumented build in $train" >&2
  configure_and_build "$train" --target tessera tessera_firmware
  rm -rf "$profile"
  echo "fast build: training runs" >&2
  while read -r run; do
    # shellcheck disable=SC2086  # a run is a list of arguments
    if ! "$train/tessera" $run >/dev/null 2>&1; then
      echo "fast build: training run failed: tessera $run" >&2
      exit 1
    fi
    n=$((n + 1))
  done < <(training_runs)
  echo "fast build: $n training runs done; optimised build in $dir" >&2
  args=(-DCMAKE_BUILD_TYPE=Release -DTESSERA_LTO=ON -DTESSERA_PGO=use "-DTESSERA_PGO_DIR=$profile")
  # Every object depends on the profile, which make does not track: rebuild all.
  configure_and_build "$dir" --clean-first --target tessera tessera_firmware
  check_fast "$train/tessera" "$dir/tessera"
  echo "$dir"
}

# "PASS <simulated cycles>" of one workload run on chiplet4_small.
outcome_and_cycles() {
  local bin=$1
  shift
  "$bin" workload "$@" --netlist "$root/json/platforms/chiplet4_small.json" 2>&1 |
    awk '/: (PASS|FAIL)$/ {r = $NF} /^  cycles / {c = $2} END {print r, c}'
}

# The optimised binary must simulate exactly what the instrumented one did:
# a few runs, compared by outcome and simulated cycles.
check_fast() {
  local reference=$1 fast=$2 w a b
  for w in "vector_add --size 65536" "sgemm16 --size 64" "spmv --size 3000" "stencil_iter --size 64"; do
    # shellcheck disable=SC2086  # a run is a list of arguments
    a=$(outcome_and_cycles "$reference" $w)
    # shellcheck disable=SC2086
    b=$(outcome_and_cycles "$fast" $w)
    if [[ $a != "$b" || $a != PASS\ [0-9]* ]]; then
      printf 'fast build: %s differs from the instrumented build or fails:\n%s\n---\n%s\n' "$w" "$a" "$b" >&2
      exit 1
    fi
  done
  echo "fast build: the optimised binary matches the instrumented one (outcome and cycles of 4 runs)" >&2
}

case "${1:-}" in
  "")
    args=(-DCMAKE_BUILD_TYPE=Release)
    configure_and_build "$root/build"
    echo "$root/build"
    ;;
  --sanitize)
    args=(-DCMAKE_BUILD_TYPE=Debug -DTESSERA_SANITIZE=ON)
    configure_and_build "$root/build-asan"
    echo "$root/build-asan"
    ;;
  --fast) build_fast ;;
  *)
    echo "usage: $0 [--sanitize | --fast]" >&2
    exit 2
    ;;
esac
