#!/usr/bin/env bash
# Installs what is missing, builds Tessera (Release, -j2) and runs its main job
# on the default embedded platform, printing a readable result.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
"$root/scripts/install-deps.sh"
dir="$("$root/scripts/build.sh" | tail -n 1)"
tessera="$dir/tessera"
stats="$(mktemp -d)/demo-stats.json"

echo
echo "== Memory system: traffic generators -> router -> two memories (json/platforms/traffic_demo.json)"
"$tessera" run "$root/json/platforms/traffic_demo.json" --stats "$stats"

echo
echo "== gfx90a code on the functional executor: vector add, tiled SGEMM and an MFMA GEMM,"
echo "   each checked against its CPU reference"
"$tessera" workload vector_add
"$tessera" workload sgemm16
"$tessera" workload mfma_gemm_f16
