"""Runs an experiment's unfinished points on Dask and records each as it ends."""
import os
import signal
import sys
import time

from . import worker
from .worker import LOST


HEARTBEAT_S = 30  # a progress line at least this often while points run


class Interrupted(BaseException):  # like KeyboardInterrupt: no `except Exception` may swallow it
    def __init__(self, signum):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


def start_client(jobs, scheduler):
    """A client on an existing cluster, or on a LocalCluster of `jobs` single-threaded worker processes."""
    import cloudpickle
    from distributed import Client, LocalCluster
    # Workers import nothing of this package: the point runner travels by value.
    cloudpickle.register_pickle_by_value(worker)
    if scheduler:
        return Client(scheduler, timeout=30), None
    # The workers (and the tessera processes they start) ignore SIGINT: a Ctrl-C in the
    # terminal reaches the whole process group, and the runner alone decides what stops.
    handler = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=40)
    finally:
        signal.signal(signal.SIGINT, handler)
    return Client(cluster), cluster


def check_workers(client, binary, identity):
    """Every worker must run the very binary the keys were made with."""
    found = client.run(worker.binary_identity, binary)
    if not found:
        raise RuntimeError("the Dask cluster has no workers")
    for address, theirs in sorted(found.items()):
        if (theirs["version"], theirs["sha256"]) != (identity["version"], identity["sha256"]):
            raise RuntimeError(f"worker {address} ({theirs['host']}) has a different {binary}: "
                               f"{theirs['version']} sha256 {theirs['sha256'][:12] or '(missing)'}, here "
                               f"{identity['version']} sha256 {identity['sha256'][:12]}; workers need the same "
                               "build at the same path")
    return sum(client.nthreads().values())


def task_of(exp, point, binary):
    return {"binary": binary, "netlist_path": point.netlist_path, "netlist_sha256": point.netlist_sha256,
            "overrides": point.overrides, "workload": point.workload, "size": point.size, "seed": point.seed,
            "max_cycles": exp.max_cycles, "timeout_s": exp.timeout_s, "trace": exp.trace}


class Progress:
    """Points done / running / failed / left with an estimate of the time left, on stderr."""

    def __init__(self, total, slots):
        self.total, self.slots = total, slots
        self.done = self.failed = 0
        self.start = time.monotonic()

    def finished(self, point, record):
        self.done += 1
        self.failed += record["status"] != "ok"
        what = f"{record['cycles']} cycles" if record["status"] == "ok" else record["status"]
        self.report(f"{point.name}: {what}")

    def report(self, what):
        left = self.total - self.done
        running = min(self.slots, left)
        elapsed = time.monotonic() - self.start
        eta = f"about {format_seconds(elapsed / self.done * left)} left" if self.done else "no estimate yet"
        print(f"experiment: {self.done}/{self.total} done ({self.failed} failed), {running} running, "
              f"{left - running} waiting, {eta}, {format_seconds(elapsed)} so far | {what}",
              file=sys.stderr, flush=True)


def format_seconds(s):
    s = int(round(s))
    return f"{s // 3600} h {s % 3600 // 60:02d} min" if s >= 3600 else f"{s // 60} min {s % 60:02d} s"


def run_points(exp, todo, store, binary, identity, jobs, scheduler, retry):
    """Runs `todo` (points without a record, or failed ones when retrying); returns the points
    lost, [(point, why)]; raises Interrupted on SIGINT or SIGTERM."""

    def interrupt(signum, frame):
        raise Interrupted(signum)
    old = {s: signal.signal(s, interrupt) for s in (signal.SIGINT, signal.SIGTERM)}
    client = cluster = None
    try:
        client, cluster = start_client(jobs, scheduler)
        slots = check_workers(client, binary, identity)
        print(f"experiment: {len(todo)} points to run on {slots} worker threads"
              f"{' at ' + scheduler if scheduler else ''}", file=sys.stderr, flush=True)
        progress = Progress(len(todo), slots)
        futures = {}
        for i, p in enumerate(todo):
            f = client.submit(worker.run_point, task_of(exp, p, binary), key=f"point-{p.key}", pure=False,
                              priority=-i)
            futures[f] = p
        return collect(futures, store, progress, retry)
    finally:
        # Leave quietly: a second signal while closing must not hide the results already saved.
        for s in old:
            signal.signal(s, signal.SIG_IGN)
        try:
            if client is not None:
                client.close(timeout=10)
            if cluster is not None:
                cluster.close(timeout=10)
        except Exception:
            pass
        for s, handler in old.items():
            signal.signal(s, handler)


def collect(futures, store, progress, retry):
    """Saves each point as it finishes; says how far the run is when none has for a while.
    Returns the points lost (their worker died, or their process was stopped by a signal)."""
    from distributed import as_completed
    finished = as_completed(futures)
    lost = []
    quiet_since = time.monotonic()
    while not finished.is_empty():
        batch = finished.next_batch(block=False)
        if not batch:
            if time.monotonic() - quiet_since >= HEARTBEAT_S:
                progress.report("still running")
                quiet_since = time.monotonic()
            time.sleep(0.1)
            continue
        quiet_since = time.monotonic()
        for f in batch:
            point = futures[f]
            try:
                record = f.result()
            except Exception as e:  # the worker itself died, not the point's process
                record = {"status": LOST, "error": f"its worker failed: {e!r}"}
            record.setdefault("cycles", None)
            progress.finished(point, record)
            if record["status"] == LOST:
                lost.append((point, record["error"]))  # not the point's result: it runs again next time
            else:
                store.save(point, record, replace=retry)
    return lost


def pending(points, store, retry):
    """Points to run: those with no record (and failed ones when retrying), one per key."""
    todo, seen = [], set()
    for p in points:
        if p.key in seen:
            continue
        seen.add(p.key)
        record = store.load(p.key)
        if record is None or (retry and record["status"] != "ok"):
            todo.append(p)
    return todo


def default_jobs():
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
