#!/usr/bin/env python3
"""The static shares behind DARSIE's gain, from `tessera disasm --analysis`.

    scripts/darsie_shares.py [BUILD_DIR]        (default: build)
    scripts/darsie_shares.py --stalls STATS.json...

For every 2D workload of the DARSIE study, its 1D controls and the shapes of
the workgroup-shape sweep, one Markdown table row: the kernel's instructions
split into vector (VALU, LDS, vector memory) and scalar (s_*), the DR and CR
vector instructions, the share of vector instructions that are DR or CR, the
share skippable in the workload's workgroup shape under the launch rule (DR in
any shape, CR iff y > 1 and x is a power of two <= 64), and the per-workgroup
ceiling 1 - 1/waves (the leader wave still runs every skipped instruction).
Static counts: every reachable instruction of the kernel's code once (the
`s_nop` padding after `s_endpgm` is left out), whatever runs how often;
docs/DARSIE.md reads them.

With --stalls, one row per statistics file that `tessera workload ... --stats`
wrote (a run with DARSIE off): the instructions issued, split into vector
(VALU, MFMA, LDS, vector memory) and scalar (everything else), the fetches,
and why the resident waves did not issue: the share of the stalled
wave-cycles spent without an instruction (fetch), waiting for memory (vmcnt,
lgkmcnt), on a dependency or a busy unit, at a barrier, or otherwise (branch,
s_nop/s_sleep, launch).
"""
import json
import re
import subprocess
import sys

# (workload, program, kernel, x, y): the workgroup shape each workload launches.
SUBJECTS = [
    ("sgemm16", "sgemm", "sgemm_tile16", 16, 16),
    ("sgemm32", "sgemm", "sgemm_tile32", 32, 32),
    ("conv2d", "conv2d", "conv2d", 16, 16),
    ("stencil2d", "stencil2d", "stencil5", 16, 16),
    ("transpose", "transpose", "transpose", 16, 16),
    ("gaussian_blur", "gaussian_blur", "gaussian_blur", 16, 16),
] + [
    (name if (x, y) == (16, 16) else f"{name}_{x}x{y}", name, name, x, y)
    for name in ("sobel", "xaddr2d")
    for x, y in ((16, 16), (256, 1), (32, 8), (8, 32), (24, 8))
] + [
    ("vector_add", "vector_add", "vector_add", 256, 1),
    ("saxpy", "saxpy", "saxpy", 256, 1),
    ("fir", "fir", "fir", 256, 1),
]

VECTOR = re.compile(r"^(v_|ds_|buffer_|global_|flat_|scratch_)")
ROW = re.compile(r"^\s+[0-9a-f]{6,}\s+(\S+)\s+(DR|CR|V)\s+(?:mc2|mc|-)?\s*(\S+)")


def listing(build, program, kernel):
    out = subprocess.run([f"{build}/tessera", "disasm", f"{build}/sw/kernels/{program}.hsaco", "--kernel", kernel,
                          "--analysis"], check=True, capture_output=True, text=True).stdout
    rows = [ROW.match(line) for line in out.splitlines() if "never reached" not in line]
    return [(m.group(2), m.group(3)) for m in rows if m]


def cr_allowed(x, y):
    return y > 1 and x <= 64 and x & (x - 1) == 0


def row(build, workload, program, kernel, x, y):
    marks = listing(build, program, kernel)
    vector = [mark for mark, mnemonic in marks if VECTOR.match(mnemonic)]
    scalar = sum(1 for _, mnemonic in marks if mnemonic.startswith("s_"))
    dr, cr = vector.count("DR"), vector.count("CR")
    skippable = dr + (cr if cr_allowed(x, y) else 0)
    waves = -(-x * y // 64)
    pct = lambda a, b: f"{100 * a / b:.0f} %" if b else "-"
    return (f"| {workload} | `{kernel}` | {x}x{y} | {waves} | {len(marks)} | {scalar} ({pct(scalar, len(marks))}) | "
            f"{len(vector)} | {dr} | {cr} | {pct(dr + cr, len(vector))} | {pct(skippable, len(vector))} | "
            f"{pct(waves - 1, waves)} |")


VECTOR_CLASSES = ("valu", "mfma", "lds", "vmem_load", "vmem_store", "atomic", "vmem_other")
STALL_GROUPS = [("fetch", ("no_instruction",)), ("memory", ("waiting_memory", "waiting_lds", "waiting_smem")),
                ("dependency", ("dependency",)), ("busy unit", ("structural",)), ("barrier", ("barrier",)),
                ("other", ("sleep", "branch", "launch"))]


def cu_sums(node, sums):
    """Sums the counters of every compute unit's statistics group (one with stall_* counters)."""
    if not isinstance(node, dict):
        return
    if "stall_no_instruction" in node:
        for key, value in node.items():
            if isinstance(value, (int, float)):
                sums[key] = sums.get(key, 0) + value
        return
    for value in node.values():
        cu_sums(value, sums)


def stall_row(path):
    with open(path) as f:
        stats = json.load(f)
    sums = {}
    cu_sums(stats, sums)
    issued = {k[len("issued_"):]: v for k, v in sums.items() if k.startswith("issued_")}
    total = sum(issued.values())
    vector = sum(issued.get(c, 0) for c in VECTOR_CLASSES)
    stalls = {k[len("stall_"):]: v for k, v in sums.items() if k.startswith("stall_")}
    wave_cycles = sum(stalls.values())  # stalled ones: the CU does not count issuing wave-cycles
    pct = lambda a, b: f"{100 * a / b:.0f} %" if b else "-"
    cells = [pct(sum(stalls.get(n, 0) for n in names), wave_cycles) for _, names in STALL_GROUPS]
    return (f"| {path} | {total} | {vector} ({pct(vector, total)}) | {total - vector} ({pct(total - vector, total)}) | "
            f"{sums.get('fetches', 0)} | " + " | ".join(cells) + " |")


def print_stalls(paths):
    print("| run | instructions | vector | scalar | fetches | " +
          " | ".join(f"stalled: {name}" for name, _ in STALL_GROUPS) + " |")
    print("|---|---:|---:|---:|---:|" + "---:|" * len(STALL_GROUPS))
    for path in paths:
        print(stall_row(path))


def main():
    if len(sys.argv) > 1 and sys.argv[1] == "--stalls":
        return print_stalls(sys.argv[2:])
    build = sys.argv[1] if len(sys.argv) > 1 else "build"
    print("| workload | kernel | workgroup | waves | instructions | scalar | vector | DR | CR | DR+CR of vector | "
          "skippable in this shape | ceiling 1 - 1/waves |")
    print("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for subject in SUBJECTS:
        print(row(build, *subject))


if __name__ == "__main__":
    main()
