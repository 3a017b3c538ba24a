#!/usr/bin/env python3
"""Writes a copy of json/platforms/r9_nano.json with N shader arrays instead of 16.

Every array keeps its 4 compute units, vector L1s, scalar and instruction
caches, and brings its own L2 slice and DRAM controller, as in r9_nano: the
same machine per CU, with 4N CUs in all. Used to measure how the simulation's
host speed scales with the number of CUs (scripts/bench_cu_scaling.sh).

    scripts/shader_array_netlist.py N OUT.json
"""
import json
import os
import sys


def scaled(netlist, n):
    comps = netlist["components"]
    for name in ("sa", "l2", "dram"):
        key = next(k for k in comps if k.startswith(name + "["))
        comps[f"{name}[0..{n - 1}]"] = comps.pop(key)
    last = n - 1
    cus = 4 * n
    netlist["bindings"] = [
        "cp.dispatcher[0] -> dispatcher.regs",
        "dispatcher.irq -> cp.irq[0]",
        *[f"dispatcher.cu[{k * n}..{k * n + last}] -> sa[0..{last}].cu[{k}].dispatch" for k in range(4)],
        f"sa[0..{last}].l1v[0..3].out -> xbar.in[0..{cus - 1}]",
        f"sa[0..{last}].sqc_scalar.out -> xbar.in[{cus}..{cus + last}]",
        f"sa[0..{last}].sqc_inst.out -> xbar.in[{cus + n}..{cus + n + last}]",
        f"xbar.out[0..{last}] -> l2[0..{last}].in[0]",
        "l2[i].out -> dram[i].in",
        f"dispatcher.acquire[0..{cus - 1}] -> sa[0..{last}].l1v[0..3].ctrl",
        f"dispatcher.acquire[{cus}..{cus + last}] -> sa[0..{last}].sqc_scalar.ctrl",
        f"dispatcher.acquire[{cus + n}..{cus + n + last}] -> sa[0..{last}].sqc_inst.ctrl",
        f"dispatcher.release[0..{last}] -> l2[0..{last}].ctrl",
    ]
    netlist["address_map"][0]["to"] = f"out[0..{last}]"
    netlist["description"] = (f"r9_nano with {n} shader arrays: {cus} compute units, {n} L2 slices and "
                              f"{n} DRAM controllers (scripts/shader_array_netlist.py)")
    return netlist


def main():
    if len(sys.argv) != 3 or not sys.argv[1].isdigit() or not 1 <= int(sys.argv[1]) <= 16:
        sys.exit("usage: shader_array_netlist.py N OUT.json  (N from 1 to 16)")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "json", "platforms", "r9_nano.json")) as f:
        netlist = json.load(f)
    with open(sys.argv[2], "x") as f:  # never replaces a file
        json.dump(scaled(netlist, int(sys.argv[1])), f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
