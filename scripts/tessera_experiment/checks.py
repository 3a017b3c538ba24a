"""Checks an experiment against the `tessera` binary before any point runs.

The binary itself judges parameters (`tessera validate NETLIST --set ...`) and
workloads (`tessera workload --list`), so the checks are exactly the
simulator's rules. Errors name the experiment file's JSON pointer.
"""
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor

from .spec import SpecError, pointer


def tessera(binary, *args):
    try:
        p = subprocess.run([binary, *args], capture_output=True, text=True, timeout=120)
    except OSError as e:
        raise SpecError("", f"cannot run {binary}: {e.strerror} (build it, or name it with --tessera)") from None
    return p.returncode, p.stdout, p.stderr


def validate(binary, netlist, overrides):
    """None when `tessera validate` accepts the netlist with these overrides, else its message."""
    args = ["validate", netlist]
    for param, value in overrides:
        args += ["--set", f"{param}={value}"]
    code, _, err = tessera(binary, *args)
    if code == 0:
        return None
    lines = [line.strip() for line in err.strip().splitlines() if not line.startswith("(see")]
    return " ".join(lines).replace("tessera validate: error: ", "")


def check(exp, binary):
    """Raises SpecError for the first unknown workload, parameter or value."""
    check_workloads(exp, binary)
    check_trace(exp, binary)
    with ThreadPoolExecutor(max_workers=4) as pool:
        for _, netlist in exp.netlists:
            check_netlist(exp, binary, netlist, pool)


def check_workloads(exp, binary):
    code, out, err = tessera(binary, "workload", "--list")
    if code != 0:
        raise SpecError("", f"`tessera workload --list` failed: {err.strip()}")
    known = set(re.findall(r"^  (\S+)\s", out, re.MULTILINE))
    for name, _, _, where in exp.workloads:
        if name not in known:
            raise SpecError(where + "/name", f"unknown workload \"{name}\" (known: {', '.join(sorted(known))})")


def check_trace(exp, binary):
    if not exp.trace:
        return
    _, out, _ = tessera(binary, "workload", "--help")
    if "--trace" not in out:
        raise SpecError(pointer("trace"), "this tessera binary has no `workload --trace` option")


def check_netlist(exp, binary, netlist, pool):
    """Every design with every sweep point; a refused one is then narrowed to the
    override that is refused alone, to name it. Overrides are judged together
    first because some are valid only together (a smaller L1 line_size with
    the compute units' vmem_line)."""
    designs = [d for d in exp.designs if exp.runs_on(d, netlist)]
    combos = [(d, s) for d in designs for s in exp.sweep_points()]
    results = pool.map(lambda c: validate(binary, netlist, exp.designs[c[0]] + c[1]), combos)
    for (design, sweep), message in zip(combos, results):
        if message:
            _name_the_override(exp, binary, netlist, pool, design, sweep, message)
            swept = ", ".join(f"{p}={v}" for p, v in sweep)
            raise SpecError(pointer("designs", design), f"with {swept or 'no sweep'} on {netlist}: {message}")


def _name_the_override(exp, binary, netlist, pool, design, sweep, message):
    """Raises SpecError at the first of a refused combination's overrides that is
    refused alone for the combination's reason (`message`)."""
    where_of = {(param, value): pointer("designs", design, "set", param) for param, value in exp.designs[design]}
    for param, value in sweep:
        where_of.setdefault((param, value), pointer("sweep", "parameters", param) +
                            f"/{exp.sweep[param].index(value)}")
    singles = list(where_of)
    for (param, value), alone in zip(singles, pool.map(lambda o: validate(binary, netlist, [o]), singles)):
        if alone == message:
            raise SpecError(where_of[(param, value)], f"{param}={value} on {netlist}: {message}")
