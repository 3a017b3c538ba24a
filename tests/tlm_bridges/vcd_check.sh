#!/usr/bin/env bash
# Runs the RTL traffic demo with mem[0]'s pins written to a VCD file and checks
# the file: a header naming the pins, then value changes at many times.
# Usage: vcd_check.sh TESSERA NETLIST OUT.vcd
set -euo pipefail
tessera=$1 netlist=$2 vcd=$3
rm -f "$vcd"
"$tessera" run "$netlist" --quiet --set "mem[0].vcd=$vcd"
grep -q 'scope module mem(0)' "$vcd" || { echo "no scope mem(0) in $vcd"; exit 1; }
grep -q ' awvalid ' "$vcd" || { echo "no awvalid in $vcd"; exit 1; }
grep -q ' rdata ' "$vcd" || { echo "no rdata in $vcd"; exit 1; }
grep -q '\$enddefinitions' "$vcd" || { echo "no header end in $vcd"; exit 1; }
times=$(grep -c '^#' "$vcd")
[ "$times" -gt 1000 ] || { echo "only $times time steps in $vcd"; exit 1; }
# A second run does not overwrite the file: it is refused as an input error.
if "$tessera" run "$netlist" --quiet --set "mem[0].vcd=$vcd" 2>/dev/null; then
  echo "a second run overwrote $vcd"; exit 1
fi
echo "ok: $times time steps"
