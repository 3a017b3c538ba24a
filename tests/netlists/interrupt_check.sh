#!/usr/bin/env bash
# SIGINT and SIGTERM during long runs (platform/interrupt.h):
#  1. `tessera run` of firmware that never ends, SIGINT after a second: exit
#     130, the statistics written and marked incomplete.
#  2. `tessera workload` on the timing device, SIGTERM after a second: exit
#     143, the statistics so far written and marked incomplete.
#  3. A second signal before the first is acted on ends the process at once:
#     killed by the signal, no statistics file.
# Usage: interrupt_check.sh TESSERA SOURCE_DIR WORK_DIR
set -euo pipefail
tessera=$1 src=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "interrupt_check: $*" >&2; exit 1; }

# Starts tessera in the background (its own process, not a subshell's child
# job control), waits until it has run for a second, sends the signals.
run_and_signal() {  # NAME SIGNALS... -- ARGS...
  local name=$1
  shift
  local signals=()
  while [ "$1" != "--" ]; do signals+=("$1"); shift; done
  shift
  "$tessera" "$@" > "$work/$name.out" 2> "$work/$name.err" &
  local pid=$!
  sleep 1.5
  for s in "${signals[@]}"; do
    if [ "$s" = STOP ] || [ "$s" = CONT ]; then kill -"$s" "$pid"; else kill -s "$s" "$pid"; fi
  done
  local rc=0
  wait "$pid" || rc=$?
  echo "$rc"
}

stat_of() { python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print(d['simulation'].get(sys.argv[2]))" "$@"; }

# 1. run, SIGINT
rc=$(run_and_signal run INT -- run "$src/json/platforms/cp_hello.json" --set cp.firmware=spin.elf \
     --set cp.debug_flags=0 --limit firmware_polls=1000000000000 --stats "$work/run.json")
[ "$rc" = 130 ] || fail "run: exit $rc, expected 130; stderr: $(cat "$work/run.err")"
grep -q "stopping at the next safe point" "$work/run.err" || fail "run: no message on stderr"
grep -q "result: INCOMPLETE (interrupted by SIGINT" "$work/run.out" || fail "run: no INCOMPLETE verdict: $(cat "$work/run.out")"
[ "$(stat_of "$work/run.json" complete)" = False ] || fail "run: statistics not marked incomplete"
[ "$(stat_of "$work/run.json" interrupted_by)" = SIGINT ] || fail "run: statistics do not name SIGINT"

# 2. workload on the timing device, SIGTERM
rc=$(run_and_signal workload TERM -- workload vector_add --size 4000000 --netlist "$src/json/platforms/small_gpu.json" \
     --stats "$work/workload.json")
[ "$rc" = 143 ] || fail "workload: exit $rc, expected 143; stderr: $(cat "$work/workload.err")"
grep -q "interrupted by SIGTERM; the workload did not finish" "$work/workload.err" || fail "workload: no message"
grep -q "written to $work/workload.json (incomplete)" "$work/workload.out" || fail "workload: statistics not written"
[ "$(stat_of "$work/workload.json" complete)" = False ] || fail "workload: statistics not marked incomplete"

# 3. two signals while stopped: delivered together when it continues; the
#    second ends the process as the signal does by default.
rc=$(run_and_signal twice STOP INT TERM CONT -- run "$src/json/platforms/cp_hello.json" --set cp.firmware=spin.elf \
     --set cp.debug_flags=0 --limit firmware_polls=1000000000000 --stats "$work/twice.json")
[ "$rc" = 130 ] || [ "$rc" = 143 ] || fail "twice: exit $rc, expected death by the signal"
[ ! -e "$work/twice.json" ] || fail "twice: a statistics file was written after the second signal"
ls -a "$work" | grep -q "\.tmp-" && fail "a temporary statistics file was left behind"
echo "interrupt_check: ok"
