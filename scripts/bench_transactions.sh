#!/bin/bash
# Memory transactions per wave-instruction against timing-mode speed: runs
# every workload of the suite once at its default size through
# `tessera workload --stats` and prints a Markdown table of its
# wave-instructions, its memory transactions (requests taken by every cache,
# plus DRAM reads and writes: each is one approximately-timed transaction at
# one level of the hierarchy), their ratio, and the M wave-instructions/s of
# the run. Transaction counts are simulated quantities (the same on every run);
# the speed is one run's and as noisy as the machine.
#
#   scripts/bench_transactions.sh [-N NETLIST] BIN
#
# Default netlist: json/platforms/small_gpu.json. Run from the source tree.
set -euo pipefail

netlist=small_gpu
while getopts "N:" opt; do
  case $opt in
    N) netlist=$OPTARG ;;
    *) echo "usage: $0 [-N NETLIST] BIN" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
[[ $# -eq 1 && -x $1 ]] || { echo "usage: $0 [-N NETLIST] BIN (an executable tessera)" >&2; exit 2; }
bin=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

echo "| workload | wave-instructions | memory transactions | per wave-instruction | M wave-instr/s |"
echo "|---|---:|---:|---:|---:|"
for w in $("$bin" workload --list | awk '/^  [a-z]/{print $1}'); do
  out=$("$bin" workload "$w" --netlist "json/platforms/$netlist.json" --stats "$tmp/stats.json" --force 2>&1) ||
    { echo "$out" >&2; echo "$0: $w failed" >&2; exit 1; }
  grep -q ': PASS' <<<"$out" || { echo "$out" >&2; echo "$0: $w did not pass" >&2; exit 1; }
  waves=$(awk '/^  wave instr\./ {print $3}' <<<"$out")
  rate=$(awk '/^  simulation/ {print $4}' <<<"$out")
  python3 - "$tmp/stats.json" "$w" "$waves" "$rate" <<'PY'
import json, sys
stats, name, waves, rate = json.load(open(sys.argv[1])), sys.argv[2], int(sys.argv[3]), sys.argv[4]
total = 0
for block, values in stats.items():
    if not isinstance(values, dict):
        continue
    total += sum(v for k, v in values.items() if k.startswith("requests_") and isinstance(v, (int, float)))
    if block.startswith("dram"):
        total += values.get("reads", 0) + values.get("writes", 0)
print(f"| {name} | {waves} | {int(total)} | {total / waves:.2f} | {rate} |")
PY
done
