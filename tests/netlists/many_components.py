#!/usr/bin/env python3
"""Writes a netlist of N components (N/2 traffic generators, each bound to its
own memory, every one a key of its own) and validates it with `tessera`:
exits 0 if validation succeeds. The test around it bounds the time."""
import json
import subprocess
import sys

tessera, count, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
components, bindings = {}, []
for i in range(count // 2):
    components[f"tg{i}"] = {"type": "traffic_gen", "size": "4 KiB", "count": 16}
    components[f"m{i}"] = {"type": "memory"}
    bindings.append(f"tg{i}.mem -> m{i}.in")
with open(out, "w") as f:
    json.dump({"components": components, "bindings": bindings}, f)
r = subprocess.run([tessera, "validate", out, "--limit", f"instances={count}"], capture_output=True, text=True)
sys.stdout.write(r.stdout)
sys.stderr.write(r.stderr)
if r.returncode != 0 or f"ok: {count} instances" not in r.stdout:
    sys.exit(f"validation of {count} components failed (exit {r.returncode})")
