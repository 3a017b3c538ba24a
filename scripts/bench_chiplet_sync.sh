#!/usr/bin/env bash
# Kernel-boundary synchronisation cost against chiplet count: runs the reuse
# workloads on the small chiplet netlists (and small_gpu as one chiplet) with
# the firmware's per-packet trace on, and sums, over every kernel launch, the
# CP cycles spent acquiring (invalidating caches), in the kernel, and
# releasing (writing back the L2s), plus the L2 lines written back and the
# bytes that crossed the chiplet links. All figures are simulated, so they
# repeat exactly. Usage: scripts/bench_chiplet_sync.sh [build-dir]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${1:-$root/build}"
stats="$(mktemp)"
log="$(mktemp)"
trap 'rm -f "$stats" "$log"' EXIT
printf '| workload | chiplets | launches | acquire | kernel | release | sync share | L2 lines written back | remote bytes |\n'
printf '|---|---:|---:|---:|---:|---:|---:|---:|---:|\n'
for w in babelstream_iter stencil_iter producer_consumer permuted_consumer no_reuse; do
  for n in 1 2 4 8; do
    net="$root/json/platforms/chiplet${n}_small.json"
    [ "$n" = 1 ] && net="$root/json/platforms/small_gpu.json"
    "$build/tessera" workload "$w" --netlist "$net" --set cp.debug_flags=4 --stats "$stats" --force > "$log"
    grep -q "PASS" "$log" || { echo "$w on $n chiplets did not pass" >&2; exit 1; }
    python3 - "$w" "$n" "$stats" "$log" <<'EOF'
import json, re, sys
w, n, path, log = sys.argv[1:5]
acq = ker = rel = launches = 0
for line in open(log):
    m = re.search(r"cycles \d+ \(acquire (\d+), kernel (\d+), release (\d+)\)", line)
    if m:
        launches += 1
        acq += int(m.group(1)); ker += int(m.group(2)); rel += int(m.group(3))
s = json.load(open(path))
def l2_groups(node):
    for k, v in node.items():
        if isinstance(v, dict):
            if k.startswith("l2["):
                yield v
            else:
                yield from l2_groups(v)
wb = sum(g.get("lines_written_back", 0) for g in l2_groups(s))
remote = s.get("noc", {}).get("remote_bytes", 0)
share = 100.0 * (acq + rel) / max(1, acq + ker + rel)
print(f"| {w} | {n} | {launches} | {acq} | {ker} | {rel} | {share:.0f}% | {wb} | {remote} |")
EOF
  done
done
