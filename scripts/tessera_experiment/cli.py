"""scripts/experiment's commands: run, status, report, list (docs/EXPERIMENTS.md)."""
import argparse
import glob
import os
import sys

from . import checks, points, run, spec, table, worker
from .points import OutputError, Store

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
EXIT_OK, EXIT_FAILED_POINTS, EXIT_USAGE, EXIT_BAD_FILE = 0, 1, 2, 3


def fail(code, message):
    print(f"experiment: {message}", file=sys.stderr)
    return code


def write_outputs(exp, all_points, store, identity):
    """results.csv, summary.md, plots/ and report.html from the points on disk; returns the table."""
    from . import plots, report  # matplotlib only when there is something to draw
    rows = table.rows(exp, all_points, store)
    store.write_text("results.csv", table.csv_text(exp, rows))
    summary = table.summary_markdown(exp, rows, identity)
    store.write_text("summary.md", summary)
    plot_dir = os.path.join(store.dir, "plots")
    drawn = plots.draw_all(exp, rows, plot_dir)
    store.write_text("report.html", report.page(exp, rows, summary, drawn, plot_dir))
    return rows


def cmd_run(args):
    try:
        exp = spec.load(args.file)
    except spec.SpecError as e:
        return fail(EXIT_BAD_FILE, f"{args.file}: {e}")
    binary = os.path.abspath(args.tessera or os.path.join(ROOT, "build", "tessera"))
    if not os.access(binary, os.X_OK):
        return fail(EXIT_USAGE, f"no tessera binary at {binary} (scripts/build.sh builds it; or pass --tessera)")
    try:
        checks.check(exp, binary)
    except spec.SpecError as e:
        return fail(EXIT_BAD_FILE, f"{args.file}: {e}")
    identity = worker.binary_identity(binary)
    all_points = points.expand(exp, identity)
    selected = points.select(all_points, args.only)
    if not selected:
        return fail(EXIT_USAGE, f"--only {args.only!r} matches none of the {len(all_points)} points "
                                f"(names look like {all_points[0].name})")
    store = Store(args.out)
    try:
        store.claim(exp, binary, identity)
    except (OutputError, OSError) as e:
        return fail(EXIT_USAGE, str(e))
    todo = run.pending(selected, store, args.retry_failed)
    print(f"experiment: {exp.name}: {len(selected)} points selected, {len(selected) - len(todo)} already "
          f"finished, {len(todo)} to run", file=sys.stderr, flush=True)
    interrupted, lost = None, []
    if todo:
        try:
            lost = run.run_points(exp, todo, store, binary, identity, args.jobs or run.default_jobs(),
                                  args.scheduler, args.retry_failed)
        except run.Interrupted as e:
            interrupted = e
        except (RuntimeError, OSError) as e:
            return fail(EXIT_USAGE, str(e))
    rows = write_outputs(exp, all_points, store, identity)
    print(f"experiment: results in {store.dir}/results.csv, summary.md, plots/, report.html", file=sys.stderr)
    if interrupted:
        return fail(128 + interrupted.signum, f"stopped by {interrupted}; run again to finish the points left")
    chosen = {p.case() for p in selected}
    bad = [r for r in rows if r["_case"] in chosen and r["status"] not in ("ok", "not_run")]
    for point, why in lost:
        print(f"experiment: {point.name}: lost ({why.strip().splitlines()[0]}); it runs again next time",
              file=sys.stderr)
    if bad or lost:
        return fail(EXIT_FAILED_POINTS, f"{len(bad)} cases failed (see summary.md), {len(lost)} points lost")
    return EXIT_OK


def load_store(directory):
    """The experiment a directory holds, its points and the binary identity they were keyed with."""
    store = Store(directory)
    m = store.manifest()
    if m is None:
        raise OutputError(f"{store.dir} holds no experiment results (no {points.MANIFEST} made by "
                          "scripts/experiment)")
    exp = spec.from_json(m["experiment"], m["file"])
    return exp, store, m["identity"], points.expand(exp, m["identity"])


def cmd_status(args):
    try:
        exp, store, identity, all_points = load_store(args.dir)
    except (OutputError, spec.SpecError) as e:
        return fail(EXIT_USAGE, str(e))
    counts = {}
    failed = []
    for p in all_points:
        record = store.load(p.key)
        status = record["status"] if record else "not_run"
        counts[status] = counts.get(status, 0) + 1
        if record and status != "ok":
            failed.append((p, record))
    print(f"{exp.name}: {len(all_points)} points: " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())))
    for p, record in failed:
        error = (record.get("error") or "").strip().splitlines()
        print(f"  {p.name}: {record['status']} (exit status {record.get('exit_status')}): "
              f"{error[0] if error else ''}")
    return EXIT_FAILED_POINTS if failed else EXIT_OK


def cmd_report(args):
    try:
        exp, store, identity, all_points = load_store(args.dir)
        store.lock()
    except (OutputError, spec.SpecError) as e:
        return fail(EXIT_USAGE, str(e))
    write_outputs(exp, all_points, store, identity)
    print(os.path.join(store.dir, "report.html"))
    return EXIT_OK


def cmd_list(args):
    for path in sorted(glob.glob(os.path.join(ROOT, "json", "experiments", "*.json"))):
        try:
            exp = spec.load(path)
        except spec.SpecError as e:
            print(f"{os.path.relpath(path, ROOT)}: invalid: {e}")
            continue
        n = exp.point_count()
        print(f"{os.path.relpath(path, ROOT)}: {exp.name}, {n} points: {exp.description.split('. ')[0]}")
    return EXIT_OK


def parser():
    p = argparse.ArgumentParser(prog="scripts/experiment",
                                description="Run parameter sweeps of tessera workloads (docs/EXPERIMENTS.md).")
    sub = p.add_subparsers(dest="command", required=True)
    r = sub.add_parser("run", help="run an experiment's unfinished points, then write the table, plots and report")
    r.add_argument("file", help="experiment file (json/experiments/*.json)")
    r.add_argument("--out", required=True, help="output directory (made if missing; reused to resume)")
    r.add_argument("--jobs", type=int, default=0, help="worker processes of the local cluster (default: one per core)")
    r.add_argument("--scheduler", help="address of an existing Dask scheduler, e.g. tcp://HOST:8786")
    r.add_argument("--only", help="run only points whose name matches this glob, e.g. '*/vector_add/*'")
    r.add_argument("--tessera", help="the tessera binary (default: this tree's build/tessera)")
    r.add_argument("--retry-failed", action="store_true", help="run failed points again")
    r.set_defaults(run=cmd_run)
    s = sub.add_parser("status", help="points finished, failed and left in an output directory")
    s.add_argument("dir")
    s.set_defaults(run=cmd_status)
    rep = sub.add_parser("report", help="write results.csv, summary.md, plots and report.html again")
    rep.add_argument("dir")
    rep.set_defaults(run=cmd_report)
    lst = sub.add_parser("list", help="list the experiments in json/experiments/")
    lst.set_defaults(run=cmd_list)
    return p


def main(argv=None):
    args = parser().parse_args(argv)
    if getattr(args, "jobs", 0) < 0:
        return fail(EXIT_USAGE, "--jobs must be positive")
    try:
        return args.run(args)
    except KeyboardInterrupt:  # outside the points' run, which handles it itself
        return fail(130, "interrupted")
