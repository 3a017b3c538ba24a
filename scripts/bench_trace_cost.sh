#!/bin/bash
# What tracing costs: whole-process wall time of `tessera workload` runs with
# a binary from before tracing existed (BEFORE), the same runs with the
# current binary and no trace (OFF), and with `--trace` (ON, the default
# filter and limit, written to a temporary directory and deleted). The three
# alternate run by run (BEFORE, OFF, ON, BEFORE, ...), so that all see the
# same machine load; the table gives the medians and the ratios to BEFORE, and
# checks that the three give the same simulated cycles.
#
#   scripts/bench_trace_cost.sh [-n RUNS] [-w "w1 w2 ..."] [-N NETLIST] BEFORE AFTER
#
# Defaults: 5 runs; sgemm16 vector_add stencil2d at their default sizes;
# json/platforms/small_gpu.json. A workload may carry its size: "spmv:1000".
# Run from the source tree.
set -euo pipefail

runs=5
workloads="sgemm16 vector_add stencil2d"
netlist=json/platforms/small_gpu.json
usage="usage: $0 [-n RUNS] [-w WORKLOADS] [-N NETLIST] BEFORE AFTER"
while getopts "n:w:N:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    w) workloads=$OPTARG ;;
    N) netlist=$OPTARG ;;
    *) echo "$usage" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -eq 2 ]] || { echo "$usage" >&2; exit 2; }
before=$1 after=$2
for b in "$before" "$after"; do [[ -x $b ]] || { echo "$0: $b is not an executable" >&2; exit 2; }; done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }

# One run: prints "<wall seconds> <simulated cycles> <trace events or ->".
run_once() {
  local bin=$1 w=$2 trace=$3 size_args=() extra=() out t0 t1
  [[ $w == *:* ]] && size_args=(--size "${w#*:}")
  [[ $trace == on ]] && extra=(--trace "$work/t.json")
  rm -f "$work/t.json"
  t0=$(date +%s%N)
  out=$("$bin" workload "${w%%:*}" "${size_args[@]}" --netlist "$netlist" "${extra[@]}" 2>&1) ||
    { echo "$out" >&2; echo "$0: $w failed" >&2; exit 1; }
  t1=$(date +%s%N)
  grep -q ': PASS' <<<"$out" || { echo "$out" >&2; echo "$0: $w did not pass" >&2; exit 1; }
  local events
  events=$(awk '/^  trace / {print $2}' <<<"$out")
  echo "$(awk -v a="$t0" -v b="$t1" 'BEGIN {printf "%.3f", (b - a) / 1e9}') $(awk '/^  cycles/ {print $2}' <<<"$out") ${events:--}"
}

echo "| workload | simulated cycles | before (s) | after, trace off (s) | off / before | after, --trace (s) | on / before | trace events |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
for w in $workloads; do
  declare -a ta=() tb=() tc=()
  cycles="" events=""
  for ((i = 0; i < runs; i++)); do
    read -r s c _ < <(run_once "$before" "$w" off); ta+=("$s"); cycles=${cycles:-$c}
    [[ $c == "$cycles" ]] || { echo "$0: $w: cycles differ ($c vs $cycles)" >&2; exit 1; }
    read -r s c _ < <(run_once "$after" "$w" off); tb+=("$s")
    [[ $c == "$cycles" ]] || { echo "$0: $w: cycles differ without trace ($c vs $cycles)" >&2; exit 1; }
    read -r s c e < <(run_once "$after" "$w" on); tc+=("$s"); events=$e
    [[ $c == "$cycles" ]] || { echo "$0: $w: cycles differ with --trace ($c vs $cycles)" >&2; exit 1; }
  done
  ma=$(printf '%s\n' "${ta[@]}" | median)
  mb=$(printf '%s\n' "${tb[@]}" | median)
  mc=$(printf '%s\n' "${tc[@]}" | median)
  awk -v w="$w" -v c="$cycles" -v a="$ma" -v b="$mb" -v t="$mc" -v e="$events" \
    'BEGIN {printf "| `%s` | %s | %.3f | %.3f | %.3f | %.3f | %.2f | %s |\n", w, c, a, b, b / a, t, t / a, e}'
  echo "  $w: before ${ta[*]}; off ${tb[*]}; on ${tc[*]}" >&2
done
