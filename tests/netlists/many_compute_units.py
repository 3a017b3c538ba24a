#!/usr/bin/env python3
"""Writes a netlist of 96 030 compute units (990 arrays of 97, each array sharing
a vector L1, a scalar and an instruction cache): 99 005 instances, within the
instance limit, about 6 GiB of host memory once elaborated (docs/RELIABILITY.md,
limit platform_bytes). Written by the test rather than kept in tests/netlists/*/,
whose files seed the netlist fuzzer: validating it takes seconds."""
import json
import sys

arrays, cus = 990, 97
half = arrays // 2
netlist = {
    "clocks": {"core": "1 GHz", "cp": "1 GHz"},
    "templates": {
        "array": {
            "components": {
                f"cu[0..{cus - 1}]": {"type": "compute_unit"},
                "l1v": {"type": "l1v_cache"},
                "sqc_scalar": {"type": "scalar_cache"},
                "sqc_inst": {"type": "instruction_cache"},
            },
            "bindings": ["cu[i].vmem -> l1v.in[i]", "cu[i].smem -> sqc_scalar.in[i]",
                         "cu[i].ifetch -> sqc_inst.in[i]"],
        }
    },
    "components": {
        "cp": {"type": "cp_core", "clock": "cp", "firmware": "aql_cp.elf"},
        "dispatcher": {"type": "dispatcher"},
        f"a[0..{arrays - 1}]": {"template": "array"},
        "xbar": {"type": "crossbar"},
        "l2": {"type": "l2_cache"},
        "dram": {"type": "dram_controller"},
    },
    "bindings": [
        "cp.dispatcher[0] -> dispatcher.regs",
        "dispatcher.irq -> cp.irq[0]",
        # A range holds at most 65 536 elements: the dispatcher's ports in two halves.
        f"dispatcher.cu[0..{half * cus - 1}] -> a[0..{half - 1}].cu[0..{cus - 1}].dispatch",
        f"dispatcher.cu[{half * cus}..{arrays * cus - 1}] -> a[{half}..{arrays - 1}].cu[0..{cus - 1}].dispatch",
        f"a[0..{arrays - 1}].l1v.out -> xbar.in[0..{arrays - 1}]",
        f"a[0..{arrays - 1}].sqc_scalar.out -> xbar.in[{arrays}..{2 * arrays - 1}]",
        f"a[0..{arrays - 1}].sqc_inst.out -> xbar.in[{2 * arrays}..{3 * arrays - 1}]",
        "xbar.out[0] -> l2.in[0]",
        "l2.out -> dram.in",
    ],
    "address_map": [{"router": "xbar", "to": "out[0]", "base": "0x0", "size": "256 TiB"}],
}
with open(sys.argv[1], "w") as f:
    json.dump(netlist, f, indent=2)
