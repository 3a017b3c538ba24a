#!/usr/bin/env bash
# End to end with the real debugger: `tessera run cp_hello.json` waits for
# gdb-multiarch on a loopback port; GDB stops at main, checks the pc, steps,
# removes the breakpoint and lets the firmware run to its exit. The run's
# simulated time must be the same as without GDB.
# Usage: gdb_session.sh TESSERA FIRMWARE_DIR SOURCE_DIR   (exit 77: no gdb-multiarch)
set -uo pipefail
tessera=$1 fw_dir=$2 src=$3
if ! command -v gdb-multiarch > /dev/null; then
  echo "gdb-multiarch is not installed (scripts/install-deps.sh installs it): skipped"
  exit 77
fi
work=$(mktemp -d)
pid=""
trap '[ -n "$pid" ] && kill "$pid" 2> /dev/null; rm -rf "$work"' EXIT
netlist=$src/json/platforms/cp_hello.json
export TESSERA_FIRMWARE_DIR=$fw_dir

# A port that is free: a taken one makes tessera exit at once with a clear error.
for attempt in 1 2 3 4 5; do
  port=$((20000 + RANDOM % 30000))
  "$tessera" run "$netlist" --set cp.gdb_port=$port > "$work/run.txt" 2>&1 &
  pid=$!
  for _ in $(seq 100); do
    grep -q "waiting for GDB" "$work/run.txt" && break
    kill -0 "$pid" 2> /dev/null || break
    sleep 0.1
  done
  grep -q "waiting for GDB" "$work/run.txt" && break
  kill "$pid" 2> /dev/null
  wait "$pid"
  pid=""
done
[ -n "$pid" ] || { echo "tessera never waited for GDB:"; cat "$work/run.txt"; exit 1; }

cat > "$work/commands" << EOF
set pagination off
set confirm off
target remote 127.0.0.1:$port
break main
continue
print \$pc == main
stepi
print \$pc > main
delete
continue
EOF
timeout 60 gdb-multiarch -batch -nx -x "$work/commands" "$fw_dir/hello.elf" > "$work/gdb.txt" 2>&1
wait "$pid"
rc=$?
pid=""
"$tessera" run "$netlist" > "$work/plain.txt" 2>&1

echo "--- gdb-multiarch"; cat "$work/gdb.txt"
echo "--- tessera run under GDB (exit $rc)"; cat "$work/run.txt"
fail=0
check() {  # check FILE PATTERN WHAT
  grep -q -- "$2" "$1" || { echo "FAILED: $3"; fail=1; }
}
check "$work/gdb.txt" "Breakpoint 1, main ()" "GDB stops at the breakpoint on main"
check "$work/gdb.txt" '^\$1 = 1' "the pc is main's address there"
check "$work/gdb.txt" '^\$2 = 1' "a step moves the pc on"
check "$work/gdb.txt" "exited normally" "the firmware exits with code 0 under GDB"
check "$work/run.txt" "hello from the command processor" "the firmware's console output"
[ "$rc" -eq 0 ] || { echo "FAILED: tessera run exited $rc"; fail=1; }
simulated() { grep -o "simulated [0-9.]* [a-z]*s" "$1"; }
if [ "$(simulated "$work/run.txt")" != "$(simulated "$work/plain.txt")" ]; then
  echo "FAILED: simulated time differs: '$(simulated "$work/run.txt")' under GDB, '$(simulated "$work/plain.txt")' without"
  fail=1
fi
exit $fail
