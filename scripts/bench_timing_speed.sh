#!/bin/bash
# Timing-mode simulation speed: runs workloads through `tessera workload` on
# netlists, several times each, and prints a Markdown table of the medians of
# the "simulation ... M wave-instructions/s" line, with the simulated cycles
# (which must not differ between runs). With two binaries (A and B), the runs
# alternate A, B, A, B, ... so that both see the same machine load, and the
# table adds the ratio of the medians (B over A: above 1 means B is faster);
# with one, it adds the median of the simulated cycles per second, and a second
# table gives per netlist the medians over the workloads and how many reach
# 1 M wave-instructions/s.
#
#   scripts/bench_timing_speed.sh [-n RUNS] [-w "w1 w2 ..."] [-N "net1 net2 ..."] BIN_A [BIN_B]
#
# Defaults: 3 runs; vector_add reduction sgemm16 stencil2d nbody spmv at their
# default sizes; json/platforms/small_gpu.json. A netlist is a name in
# json/platforms/ or a path ending in .json. A run that does not PASS stops
# the script. Run from the source tree.
set -euo pipefail

runs=3
workloads="vector_add reduction sgemm16 stencil2d nbody spmv"
netlists="small_gpu"
while getopts "n:w:N:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    w) workloads=$OPTARG ;;
    N) netlists=$OPTARG ;;
    *) echo "usage: $0 [-n RUNS] [-w WORKLOADS] [-N NETLISTS] BIN_A [BIN_B]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -ge 1 && $# -le 2 ]] || { echo "usage: $0 [-n RUNS] [-w WORKLOADS] [-N NETLISTS] BIN_A [BIN_B]" >&2; exit 2; }
bins=("$@")
for b in "${bins[@]}"; do [[ -x $b ]] || { echo "$0: $b is not an executable" >&2; exit 2; }; done

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

netlist_file() { if [[ $1 == *.json ]]; then echo "$1"; else echo "json/platforms/$1.json"; fi; }

# One run: prints "<M wave-instructions/s> <simulated cycles> <M simulated cycles/s>".
run_once() {
  local bin=$1 w=$2 net=$3 out
  out=$("$bin" workload "$w" --netlist "$(netlist_file "$net")" 2>&1) || { echo "$out" >&2; echo "$0: $w on $net failed" >&2; exit 1; }
  grep -q ': PASS' <<<"$out" || { echo "$out" >&2; echo "$0: $w on $net did not pass" >&2; exit 1; }
  local rate cycles cycle_rate
  rate=$(awk '/^  simulation/ {print $4}' <<<"$out")
  cycles=$(awk '/^  cycles/ {print $2}' <<<"$out")
  cycle_rate=$(awk '/^  cycles/ {print substr($4, 2)}' <<<"$out")
  echo "$rate $cycles $cycle_rate"
}

if [[ ${#bins[@]} -eq 1 ]]; then
  echo "| netlist | workload | simulated cycles | M wave-instr/s (median of $runs) | M cycles/s (median of $runs) |"
  echo "|---|---|---:|---:|---:|"
else
  echo "| netlist | workload | simulated cycles A | simulated cycles B | A M wave-instr/s | B M wave-instr/s | B / A |"
  echo "|---|---|---:|---:|---:|---:|---:|"
fi
summary=""
for net in $netlists; do
  label=$(basename "$net" .json)
  net_rates="" net_cycle_rates=""
  for w in $workloads; do
    declare -a rates=("" "") cycles=("" "") cycle_rates=("" "")
    for ((r = 0; r < runs; r++)); do
      for k in "${!bins[@]}"; do
        read -r rate cyc cycle_rate < <(run_once "${bins[$k]}" "$w" "$net")
        rates[$k]+="$rate"$'\n'
        cycle_rates[$k]+="$cycle_rate"$'\n'
        if [[ -n ${cycles[$k]} && ${cycles[$k]} != "$cyc" ]]; then
          echo "$0: $w on $label: simulated cycles differ between runs (${cycles[$k]}, $cyc)" >&2
          exit 1
        fi
        cycles[$k]=$cyc
      done
    done
    a=$(printf "%s" "${rates[0]}" | median)
    if [[ ${#bins[@]} -eq 1 ]]; then
      c=$(printf "%s" "${cycle_rates[0]}" | median)
      echo "| $label | $w | ${cycles[0]} | $a | $c |"
      net_rates+="$a"$'\n'
      net_cycle_rates+="$c"$'\n'
    else
      b=$(printf "%s" "${rates[1]}" | median)
      echo "| $label | $w | ${cycles[0]} | ${cycles[1]} | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN {printf "%.2f", b / a}') |"
    fi
  done
  if [[ ${#bins[@]} -eq 1 ]]; then
    fast=$(printf "%s" "$net_rates" | awk '$1 >= 1' | wc -l)
    summary+="| $label | $(printf "%s" "$net_rates" | median) | $(printf "%s" "$net_cycle_rates" | median) | $fast of $(wc -w <<<"$workloads") |"$'\n'
  fi
done
if [[ ${#bins[@]} -eq 1 ]]; then
  echo
  echo "| netlist | median M wave-instr/s | median M cycles/s | workloads at or above 1 M wave-instr/s |"
  echo "|---|---:|---:|---:|"
  printf "%s" "$summary"
fi
