"""What runs on a Dask worker: one `tessera workload` process per point.

Standard library only, and shipped to the workers by value (run.py), so a
worker needs the tessera build and the netlists at the same paths, nothing of
this package. Results come back as data: the runner alone writes the output
directory.
"""
import hashlib
import os
import re
import signal
import socket
import subprocess
import tempfile
import time

OUTPUT_KEPT = 4000  # characters of the error and of stdout kept with a failed point
LOST = "lost"  # a point that did not finish through no fault of its own: never saved


def file_sha256(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def binary_identity(binary):
    """What `tessera --version` prints and the binary's content hash, on this host."""
    try:
        out = subprocess.run([binary, "--version"], capture_output=True, text=True, timeout=60)
        version = out.stdout.strip() if out.returncode == 0 else f"error: exit {out.returncode}"
        return {"version": version, "sha256": file_sha256(binary), "host": socket.gethostname()}
    except OSError as e:
        return {"version": f"error: {e.strerror}", "sha256": "", "host": socket.gethostname()}


def command(task, stats_file, trace_file):
    cmd = [task["binary"], "workload", task["workload"], "--size", str(task["size"]), "--seed",
           str(task["seed"]), "--netlist", task["netlist_path"], "--stats", stats_file, "--progress", "0"]
    for param, value in task["overrides"]:
        cmd += ["--set", f"{param}={value}"]
    if task["max_cycles"]:
        cmd += ["--max-cycles", str(task["max_cycles"])]
    if trace_file:
        cmd += ["--trace", trace_file]
    return cmd


def parse_output(stdout):
    """The figures of `tessera workload`'s summary (platform/cmd_workload.cpp)."""
    def number(pattern, kind=int):
        m = re.search(pattern, stdout, re.MULTILINE)
        return kind(m.group(1)) if m else None
    outcome = re.search(r"^workload \S+ on \S+: (PASS|FAIL)$", stdout, re.MULTILINE)
    return {
        "outputs_match": None if outcome is None else outcome.group(1) == "PASS",
        "cycles": number(r"^  cycles\s+(\d+) simulated"),
        "wave_instructions": number(r"^  wave instr\. (\d+)"),
        "simulation_s": number(r"^  simulation\s+([0-9.]+) s", float),
    }


def classify(exit_status, figures, stderr, timed_out):
    """ok, wrong_output, hang, device_error, crashed, timeout or error; LOST when the process
    was stopped from outside (SIGINT, SIGTERM): not a result of the point."""
    if timed_out:
        return "timeout"
    if exit_status in (-signal.SIGINT, -signal.SIGTERM):
        return LOST
    if exit_status < 0:
        return "crashed"
    if exit_status == 0 and figures["outputs_match"]:
        return "ok"
    if exit_status == 1 and figures["outputs_match"] is False:
        return "wrong_output"
    if exit_status == 1 and ("did not finish within" in stderr or "(hung?)" in stderr):  # direct / through a CP
        return "hang"
    if exit_status == 1:
        return "device_error"
    return "error"


def read_text(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except OSError:
        return None


def dask_worker():
    """The Dask worker running this point (None outside one)."""
    try:
        from distributed import get_worker
        return get_worker()
    except (ImportError, ValueError):
        return None


def netlist_problem(path, sha256, host):
    """Why this host's copy of the netlist cannot be used (None when it is the runner's)."""
    try:
        if file_sha256(path) == sha256:
            return None
        return f"{path} on {host} differs from the runner's copy"
    except OSError as e:
        return f"cannot read {path} on {host}: {e.strerror}"


def run_tessera(cmd, timeout_s, cwd):
    """(exit status or None, stdout, stderr, timed out); raises OSError when cmd cannot start."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout_s or None, cwd=cwd)
        return p.returncode, p.stdout, p.stderr, False
    except subprocess.TimeoutExpired as e:
        stdout = e.stdout.decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        return None, stdout, f"killed after {timeout_s} s of wall time", True


def run_point(task):
    """Runs one point; returns its record (never raises for a point's own failure)."""
    worker = dask_worker()
    host = socket.gethostname()
    record = {"host": host, "worker": worker.address if worker else None, "command": None}
    problem = netlist_problem(task["netlist_path"], task["netlist_sha256"], host)
    if problem:
        record.update(status="error", exit_status=None,
                      error=problem + " (workers need the same tree at the same path)")
        return record
    # In the worker's own directory, which Dask removes when the worker stops (or, after a
    # SIGKILL, when a worker next starts there).
    with tempfile.TemporaryDirectory(prefix="tessera-point-", dir=worker.local_directory if worker else None) as tmp:
        stats_file = os.path.join(tmp, "stats.json")
        trace_file = os.path.join(tmp, "trace.json") if task["trace"] else None
        record["command"] = cmd = command(task, stats_file, trace_file)
        start = time.monotonic()
        try:
            exit_status, stdout, stderr, timed_out = run_tessera(cmd, task["timeout_s"], tmp)
        except OSError as e:
            record.update(status="error", exit_status=None, error=f"cannot run {cmd[0]}: {e.strerror}")
            return record
        record["wall_s"] = time.monotonic() - start
        figures = parse_output(stdout)
        record.update(figures, exit_status=exit_status)
        record["status"] = classify(exit_status if exit_status is not None else 0, figures, stderr, timed_out)
        if record["status"] == "ok":
            record.update(output=stdout, stats=read_text(stats_file),
                          trace=read_text(trace_file) if trace_file else None)
        else:
            # The workload's own verdict first (wrong outputs), then what tessera reported.
            reason = re.search(r"^  reason: (.*)$", stdout, re.MULTILINE)
            error = "\n".join(part for part in (reason.group(1) if reason else "", stderr.strip()) if part)
            record["error"] = (error or stdout.strip())[:OUTPUT_KEPT]  # the first lines say what failed
            record["stdout"] = stdout[-OUTPUT_KEPT:]
        return record
