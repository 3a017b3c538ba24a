#!/bin/bash
# How timing-mode simulation speed scales with the number of compute units:
# the same machine per CU (r9_nano's shader array of 4 CUs, with an L2 slice
# and a DRAM controller per array) at 1, 4 and 16 arrays (4, 16 and 64 CUs;
# the 16-array netlist is r9_nano itself, cycle for cycle), every workload at
# its default size. Prints bench_timing_speed.sh's tables: every run, then per
# netlist (cuN for N CUs) the medians over the workloads of the
# wave-instructions and simulated cycles per second, and how many workloads
# reach 1 M wave-instructions/s.
#
#   scripts/bench_cu_scaling.sh [-n RUNS] [-w "w1 w2 ..."] [-a "1 4 16"] BIN
#
# Defaults: 3 runs, the whole suite, 1 4 16 arrays. Run from the source tree.
set -euo pipefail

runs=3
workloads=""
arrays="1 4 16"
while getopts "n:w:a:" opt; do
  case $opt in
    n) runs=$OPTARG ;;
    w) workloads=$OPTARG ;;
    a) arrays=$OPTARG ;;
    *) echo "usage: $0 [-n RUNS] [-w WORKLOADS] [-a ARRAYS] BIN" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -eq 1 && -x $1 ]] || { echo "usage: $0 [-n RUNS] [-w WORKLOADS] [-a ARRAYS] BIN" >&2; exit 2; }
bin=$1
[[ -n $workloads ]] || workloads=$("$bin" workload --list | awk '/^  [a-z]/ {print $1}' | tr '\n' ' ')
[[ -n ${workloads// /} ]] || { echo "$0: no workloads (give them with -w)" >&2; exit 2; }

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
nets=""
for a in $arrays; do
  python3 "$(dirname "$0")/shader_array_netlist.py" "$a" "$dir/cu$((4 * a)).json"
  nets+="$dir/cu$((4 * a)).json "
done

bash "$(dirname "$0")/bench_timing_speed.sh" -n "$runs" -w "$workloads" -N "$nets" "$bin"
