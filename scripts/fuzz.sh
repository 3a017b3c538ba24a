#!/usr/bin/env bash
# Builds the libFuzzer targets (tests/fuzz/) with clang-14, AddressSanitizer
# and UBSan into build-fuzz/, and runs each for a bounded time on a corpus
# seeded from the reference files. Fails on any crash, leak, timeout or
# sanitizer report (the reproducer is left in build-fuzz/findings/).
# Usage: scripts/fuzz.sh [--seconds N] [--runs N] [--fork N] [TARGET...]
#   --seconds N  how long each target runs (default 60)
#   --runs N     stop each target after N executions instead (with --seconds 0)
#   --fork N     N worker processes per target (libFuzzer's -fork), one run
#   TARGET       netlist, code_object, firmware, units (default: all four)
# The corpora grow in build-fuzz/corpus/TARGET across runs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="$root/build-fuzz"
jobs="${TESSERA_JOBS:-2}"
seconds=60
runs=-1
fork=0
targets=()
number() {  # NAME VALUE: a whole number, or a usage error
  [[ "$2" =~ ^[0-9]+$ ]] || { echo "fuzz.sh: $1 needs a whole number, got '$2'" >&2; exit 2; }
}
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) number "$1" "${2:-}"; seconds="$2"; shift 2 ;;
    --seconds=*) number --seconds "${1#*=}"; seconds="${1#*=}"; shift ;;
    --runs) number "$1" "${2:-}"; runs="$2"; shift 2 ;;
    --fork) number "$1" "${2:-}"; fork="$2"; shift 2 ;;
    -h|--help) sed -n '2,12p' "$0"; exit 0 ;;
    netlist|code_object|firmware|units) targets+=("$1"); shift ;;
    *) echo "fuzz.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(netlist code_object firmware units)

export CCACHE_BASEDIR="$root" CCACHE_NOHASHDIR=1
cmake -S "$root" -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_C_COMPILER=clang-14 \
  -DCMAKE_CXX_COMPILER=clang++-14 -DTESSERA_FUZZ=ON > "$dir.configure.log" 2>&1 ||
  { cat "$dir.configure.log"; exit 1; }
build_targets=(tessera_kernels tessera_firmware)
for t in "${targets[@]}"; do build_targets+=("fuzz_$t"); done
cmake --build "$dir" -j "$jobs" --target "${build_targets[@]}"

# Seeds: the reference files each target reads.
seed() {  # TARGET FILES...
  local d="$dir/seeds/$1"
  shift
  rm -rf "$d" && mkdir -p "$d"
  cp "$@" "$d/"
}
seed netlist "$root"/json/platforms/*.json "$root"/tests/netlists/*/*.json
seed code_object "$dir"/sw/kernels/*.hsaco
seed firmware "$dir"/sw/firmware/*.elf
mkdir -p "$dir/seeds/units" && rm -f "$dir"/seeds/units/*
i=0
# The first byte picks the parser (tests/fuzz/fuzz_units.cpp).
for s in '\x00''16 KiB' '\x00''0x1000' '\x01''1.8 GHz' '\x02''40 ns' '\x03''768 GB/s' '\x04''cu[0..59]' \
         '\x04''l1[i/4]' '\x05''(i+1)*4%7' '\x06''chiplet[*].l2.size=4 MiB' '\x07''chiplet[2].cu[5]'; do
  printf "%b" "$s" > "$dir/seeds/units/seed$i"
  i=$((i + 1))
done

mkdir -p "$dir/findings"
status=0
for t in "${targets[@]}"; do
  mkdir -p "$dir/corpus/$t"
  log="$dir/fuzz_$t.log"
  limits=(-max_total_time="$seconds" -runs="$runs")
  [ "$fork" -gt 0 ] && limits+=(-fork="$fork")
  echo "fuzz.sh: fuzz_$t for $([ "$seconds" -gt 0 ] && echo "$seconds s" || echo "$runs executions")$([ "$fork" -gt 0 ] && echo ", $fork workers")"
  if "$dir/tests/fuzz/fuzz_$t" "${limits[@]}" -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="$dir/findings/$t-" "$dir/corpus/$t" "$dir/seeds/$t" > "$log" 2>&1; then
    # One process prints its final statistics; -fork says how far its workers got.
    execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' ||
            grep -o 'fuzzed for [0-9]* iterations' "$log" | grep -o '[0-9]*' || echo "?")
    rate=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$log" | grep -o '[0-9]*$' ||
           awk -v n="$execs" '/^INFO: exiting: .* time: [0-9]+s/ {sub("s", "", $NF); if ($NF > 0) printf "%d", n / $NF}' "$log")
    rate=${rate:-?}
    echo "fuzz.sh: fuzz_$t: ok, $execs executions ($rate/s)"
  else
    echo "fuzz.sh: fuzz_$t FAILED (see $log; reproducer in $dir/findings/):" >&2
    grep -E "ERROR|SUMMARY|runtime error|==[0-9]+==" "$log" | head -20 >&2 || tail -30 "$log" >&2
    status=1
  fi
done
exit $status
