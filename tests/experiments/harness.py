"""Shared by the experiment tests: paths, running scripts/experiment, reading results.csv."""
import csv
import json
import os
import subprocess
import sys
import tempfile

import pandas

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXPERIMENT = os.path.join(ROOT, "scripts", "experiment")
SMOKE = os.path.join(ROOT, "json", "experiments", "smoke.json")
# The build's tessera, from CTest (TESSERA), else this tree's build/.
TESSERA = os.environ.get("TESSERA", os.path.join(ROOT, "build", "tessera"))
# Columns that measure the host, not the simulation: they differ between runs.
HOST_COLUMNS = ("wall_s", "sim_wave_instr_per_s")


def run(*args, timeout=600, **kwargs):
    """scripts/experiment ARGS with this build's tessera; returns the CompletedProcess."""
    cmd = [EXPERIMENT, *args]
    if args and args[0] == "run":
        cmd += ["--tessera", TESSERA]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kwargs)


def read_csv(path, drop_host=True):
    """results.csv as a list of dicts of strings (without the host-time columns)."""
    table = pandas.read_csv(path, dtype=str, keep_default_na=False)
    if drop_host:
        table = table.drop(columns=list(HOST_COLUMNS))
    return table.to_dict("records")


def header(path):
    with open(path, newline="") as f:
        return next(csv.reader(f))


def write_experiment(directory, data, name="exp.json"):
    """An experiment file in directory whose netlists are given relative to the repository."""
    path = os.path.join(directory, name)
    with open(path, "w") as f:
        f.write(data if isinstance(data, str) else json.dumps(data, indent=1))
    return path


def smoke_data():
    """smoke.json with its netlist path made absolute (the copy lives in a temporary directory)."""
    with open(SMOKE) as f:
        data = json.load(f)
    data["netlists"] = [os.path.normpath(os.path.join(os.path.dirname(SMOKE), n)) for n in data["netlists"]]
    return data


def temporary_directory(test):
    d = tempfile.mkdtemp(prefix="tessera-exp-test-")
    test.addCleanup(subprocess.run, ["rm", "-rf", d])
    return d


def require_tessera(test):
    if not os.access(TESSERA, os.X_OK):
        test.fail(f"no tessera binary at {TESSERA}")


def log(message):
    print(message, file=sys.stderr, flush=True)
