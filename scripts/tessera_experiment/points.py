"""An experiment's points, their keys, and the output directory that keeps them.

A point is one `tessera workload` run. Its key hashes everything that decides
its result: the netlist's content, the overrides, workload, size, seed, repeat,
cycle limit, trace request and the binary (version and content hash). A
finished point is DIR/points/<key>.json (with <key>.stats.json, its output
<key>.out.txt, and <key>.trace.json when traced), written atomically and never replaced.
"""
import fcntl
import fnmatch
import hashlib
import json
import os
import tempfile
from dataclasses import dataclass

from .worker import file_sha256

MADE_BY = "tessera scripts/experiment"
UMASK = os.umask(0o022)
os.umask(UMASK)
MANIFEST = "experiment.json"


@dataclass
class Point:
    key: str
    name: str  # netlist/design/workload/size/seed[/param=value...][#repeat]
    netlist: str  # as written in the experiment
    netlist_path: str
    netlist_sha256: str
    design: str
    sweep: list  # [(parameter, value)]
    overrides: list
    workload: str
    size: int
    seed: int
    repeat: int

    def netlist_name(self):
        """The netlist file's name without .json (unique within an experiment)."""
        return os.path.splitext(os.path.basename(self.netlist_path))[0]

    def case(self):
        """Everything but the repeat: the row of results.csv this point belongs to."""
        return (self.netlist, self.design, self.workload, self.size, self.seed, tuple(self.sweep))


def expand(exp, identity):
    """Every point of the experiment, in a fixed order."""
    points = []
    for netlist, path in exp.netlists:
        sha = file_sha256(path)
        stem = os.path.splitext(os.path.basename(path))[0]
        for design, sets in exp.designs.items():
            if not exp.runs_on(design, path):
                continue
            for sweep in exp.sweep_points():
                for workload, sizes, seeds, _ in exp.workloads:
                    for size in sizes:
                        for seed in seeds:
                            for repeat in range(exp.repeats):
                                points.append(make_point(exp, identity, stem, netlist, path, sha, design,
                                                         sets, sweep, workload, size, seed, repeat))
    return points


def make_point(exp, identity, stem, netlist, path, sha, design, sets, sweep, workload, size, seed, repeat):
    overrides = [list(o) for o in sets + sweep]
    decided_by = {"netlist_sha256": sha, "overrides": overrides, "workload": workload, "size": size, "seed": seed,
                  "repeat": repeat, "max_cycles": exp.max_cycles, "trace": exp.trace,
                  "binary": [identity["version"], identity["sha256"]]}
    key = hashlib.sha256(json.dumps(decided_by, sort_keys=True).encode()).hexdigest()[:24]
    name = "/".join([stem, design, workload, str(size), str(seed)] + [f"{p}={v}" for p, v in sweep])
    if repeat:
        name += f"#{repeat}"
    return Point(key, name, netlist, path, sha, design, [tuple(s) for s in sweep], overrides, workload, size, seed,
                 repeat)


def select(points, pattern):
    """Points whose name matches the glob (all when pattern is None)."""
    return [p for p in points if pattern is None or fnmatch.fnmatchcase(p.name, pattern)]


class OutputError(Exception):
    pass


class Store:
    """The output directory: refuses one it did not make, never replaces a finished point."""

    def __init__(self, directory):
        self.dir = os.path.abspath(directory)
        self.points_dir = os.path.join(self.dir, "points")

    def manifest(self):
        path = os.path.join(self.dir, MANIFEST)
        try:
            with open(path, encoding="utf-8") as f:
                m = json.load(f)
        except (OSError, json.JSONDecodeError):
            return None
        ours = isinstance(m, dict) and m.get("made_by") == MADE_BY
        return m if ours and all(k in m for k in ("file", "identity", "experiment")) else None

    def claim(self, exp, binary, identity):
        """Makes DIR ours for this experiment, or says why it cannot be."""
        if os.path.exists(self.dir) and not os.path.isdir(self.dir):
            raise OutputError(f"{self.dir} exists and is not a directory")
        if os.path.isdir(self.dir) and os.listdir(self.dir):
            m = self.manifest()
            if m is None:
                raise OutputError(f"{self.dir} is not empty and was not made by scripts/experiment; "
                                  "choose another --out (nothing there is touched)")
            theirs = m["experiment"].get("name") if isinstance(m["experiment"], dict) else None
            if theirs != exp.name:
                raise OutputError(f"{self.dir} holds the results of experiment \"{theirs}\", "
                                  f"not \"{exp.name}\"; choose another --out")
        os.makedirs(self.points_dir, exist_ok=True)
        self.lock()
        self.write_text(MANIFEST, json.dumps({"made_by": MADE_BY, "file": exp.file, "binary": binary,
                                              "identity": identity, "experiment": exp.raw}, indent=2) + "\n")
        self.remove_stale_temporaries()

    def lock(self):
        """One run (or report) at a time in DIR: held until this process ends."""
        self.lock_file = open(os.path.join(self.dir, ".lock"), "w")
        try:
            fcntl.flock(self.lock_file, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise OutputError(f"another scripts/experiment is using {self.dir}; wait for it to end") from None

    def remove_stale_temporaries(self):
        """Half-written files of a killed run (only our own temporary names; DIR is locked)."""
        for d in (self.dir, self.points_dir, os.path.join(self.dir, "plots")):
            for name in os.listdir(d) if os.path.isdir(d) else []:
                if name.startswith(".tmp-"):
                    os.unlink(os.path.join(d, name))

    def write_text(self, relative, text, replace=True):
        """Atomic write; with replace=False an existing file is left alone and False returned."""
        path = os.path.join(self.dir, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".tmp-", dir=os.path.dirname(path))
        os.fchmod(fd, 0o666 & ~UMASK)  # as an ordinary file would be, not mkstemp's 0600
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        if replace:
            os.replace(tmp, path)
            return True
        try:
            os.link(tmp, path)  # fails if the file exists: never replaces
            return True
        except FileExistsError:
            return False
        finally:
            if not replace:
                os.unlink(tmp)

    def point_file(self, key, suffix=".json"):
        return os.path.join(self.points_dir, key + suffix)

    def load(self, key):
        """A finished point's record, or None."""
        try:
            with open(self.point_file(key), encoding="utf-8") as f:
                record = json.load(f)
        except (OSError, json.JSONDecodeError):
            return None
        return record if isinstance(record, dict) and record.get("made_by") == MADE_BY else None

    def load_output(self, key):
        """A finished point's standard output, or None."""
        try:
            with open(self.point_file(key, ".out.txt"), encoding="utf-8") as f:
                return f.read()
        except OSError:
            return None

    def load_stats(self, key):
        try:
            with open(self.point_file(key, ".stats.json"), encoding="utf-8") as f:
                return json.load(f)
        except (OSError, json.JSONDecodeError):
            return None

    def save(self, point, record, replace=False):
        """Writes a finished point: its statistics and trace first, the record last.
        replace: only to retry a point whose failed record this runner made."""
        stats, trace, output = record.pop("stats", None), record.pop("trace", None), record.pop("output", None)
        if output is not None:
            self.write_text(os.path.join("points", point.key + ".out.txt"), output, replace=False)
        if stats is not None:
            self.write_text(os.path.join("points", point.key + ".stats.json"), stats, replace=False)
        if trace is not None:
            self.write_text(os.path.join("points", point.key + ".trace.json"), trace, replace=False)
            record["trace_file"] = os.path.join("points", point.key + ".trace.json")
        record.update(made_by=MADE_BY, key=point.key, name=point.name, netlist=point.netlist,
                      design=point.design, sweep=point.sweep, overrides=point.overrides,
                      workload=point.workload, size=point.size, seed=point.seed, repeat=point.repeat)
        return self.write_text(os.path.join("points", point.key + ".json"), json.dumps(record, indent=1) + "\n",
                               replace=replace)
