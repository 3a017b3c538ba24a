#!/usr/bin/env bash
# Runs a command that writes a block's pins to a VCD file and checks the file:
# a header with the block's scope and the named pins, value changes at many
# times, and GTKWave's own reader (vcd2fst, of Debian's gtkwave package)
# converting it to GTKWave's FST format and back (fst2vcd) with every signal
# and every time step intact (vcd2fst alone accepts garbage). Then runs the command again: the file must
# not be overwritten (the run is refused as an input error).
# Usage: vcd_check.sh OUT.vcd SCOPE "PIN PIN..." COMMAND...
set -euo pipefail
vcd=$1 scope=$2 pins=$3
shift 3
rm -f "$vcd" "$vcd.fst" "$vcd.back"
"$@"
grep -q "scope module $scope" "$vcd" || { echo "no scope $scope in $vcd"; exit 1; }
for pin in $pins; do
  grep -q " $pin " "$vcd" || { echo "no $pin in $vcd"; exit 1; }
done
grep -q '\$enddefinitions' "$vcd" || { echo "no header end in $vcd"; exit 1; }
times=$(grep -c '^#' "$vcd")
[ "$times" -gt 1000 ] || { echo "only $times time steps in $vcd"; exit 1; }
command -v vcd2fst >/dev/null || { echo "vcd2fst (Debian package gtkwave) is not installed: run scripts/install-deps.sh"; exit 1; }
vcd2fst "$vcd" "$vcd.fst" > "$vcd.fst.log" 2>&1 || { cat "$vcd.fst.log"; echo "GTKWave's vcd2fst rejects $vcd"; exit 1; }
[ -s "$vcd.fst" ] || { echo "vcd2fst wrote no FST file"; exit 1; }
if grep -qi 'error' "$vcd.fst.log"; then cat "$vcd.fst.log"; echo "vcd2fst reports an error"; exit 1; fi
fst2vcd "$vcd.fst" > "$vcd.back" 2>/dev/null || { echo "fst2vcd cannot read back $vcd.fst"; exit 1; }
vars=$(grep -c '\$var' "$vcd")
[ "$(grep -c '\$var' "$vcd.back")" -eq "$vars" ] || { echo "GTKWave read $(grep -c '\$var' "$vcd.back") of $vars signals"; exit 1; }
[ "$(grep -c '^#' "$vcd.back")" -eq "$times" ] || { echo "GTKWave read $(grep -c '^#' "$vcd.back") of $times time steps"; exit 1; }
if "$@" >/dev/null 2>&1; then
  echo "a second run overwrote $vcd"; exit 1
fi
echo "ok: $vars signals, $times time steps, read by GTKWave's vcd2fst and fst2vcd"
