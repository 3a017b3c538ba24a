#!/usr/bin/env python3
"""Checks the traces `tessera ... --trace FILE` writes.

    trace_check.py validate FILE            check one file against the trace-event format
    trace_check.py SCENARIO --tessera BIN --source DIR --work DIR

The format check (validate) is what ui.perfetto.dev and chrome://tracing need
from Chrome trace-event JSON: a "traceEvents" array; per phase its required
fields with the right types; "B"/"E" balanced per track; "X" slices of one
track nested or disjoint; timestamps not decreasing along each track; counter
values numeric; a process_name for every process and a thread_name for every
track that holds slices. The scenarios run tessera and check what the trace
holds, that tracing changes no result, statistic or cycle count, the event
limit, the filter, and the refusals on the command line.
"""
import argparse
import json
import math
import os
import re
import subprocess
import sys

METADATA_NAMES = {"process_name", "thread_name", "process_sort_index", "thread_sort_index"}


def is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def validate(doc):
    """Returns a list of problems (empty: the document is a valid trace)."""
    errors = []
    if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
        return ["the top level must be an object with a \"traceEvents\" array"]
    process_names, thread_names = set(), set()
    last_ts, open_be, open_x, used_tracks, used_pids = {}, {}, {}, set(), set()
    for i, e in enumerate(doc["traceEvents"]):
        where = f"event {i}"
        if not isinstance(e, dict):
            errors.append(f"{where}: not an object")
            continue
        ph = e.get("ph")
        if ph not in ("X", "B", "E", "C", "M", "i", "I"):
            errors.append(f"{where}: unknown or missing phase {ph!r}")
            continue
        for field in ("pid", "tid"):
            if not isinstance(e.get(field), int):
                errors.append(f"{where} ({ph}): \"{field}\" must be an integer")
        if ph != "E" and not isinstance(e.get("name"), str):
            errors.append(f"{where} ({ph}): \"name\" must be a string")
        track = (e.get("pid"), e.get("tid"))
        if ph == "M":
            if e.get("name") not in METADATA_NAMES:
                errors.append(f"{where}: metadata name {e.get('name')!r} is not one of {sorted(METADATA_NAMES)}")
            args = e.get("args")
            if not isinstance(args, dict):
                errors.append(f"{where}: metadata without args")
            elif e["name"] in ("process_name", "thread_name"):
                if not isinstance(args.get("name"), str) or not args["name"]:
                    errors.append(f"{where}: {e['name']} without a name")
                (process_names if e["name"] == "process_name" else thread_names).add(
                    e["pid"] if e["name"] == "process_name" else track)
            elif not is_number(args.get("sort_index")):
                errors.append(f"{where}: {e['name']} without a numeric sort_index")
            continue
        ts = e.get("ts")
        if not is_number(ts) or ts < 0:
            errors.append(f"{where} ({ph}): \"ts\" must be a non-negative number of microseconds, got {ts!r}")
            continue
        used_pids.add(e.get("pid"))
        if ph != "C":
            used_tracks.add(track)
            if ts < last_ts.get(track, -1):
                errors.append(f"{where} ({ph}): ts {ts} goes back on track {track} (after {last_ts[track]})")
            last_ts[track] = ts
        if ph == "X":
            dur = e.get("dur")
            if not is_number(dur) or dur < 0:
                errors.append(f"{where} (X): \"dur\" must be a non-negative number, got {dur!r}")
                continue
            stack = open_x.setdefault(track, [])
            # Sums of microseconds printed with 6 decimals differ from the exact
            # ends by float rounding only: compare to half the last place.
            while stack and stack[-1] <= ts + 5e-7:
                stack.pop()
            if stack and ts + dur > stack[-1] + 5e-7:
                errors.append(f"{where} (X): [{ts}, {ts + dur}] overlaps its enclosing slice ending at "
                              f"{stack[-1]} on track {track} without being inside it")
            stack.append(ts + dur)
        elif ph == "B":
            open_be.setdefault(track, []).append(e["name"])
        elif ph == "E":
            if not open_be.get(track):
                errors.append(f"{where} (E): no open B slice on track {track}")
            else:
                open_be[track].pop()
        elif ph == "C":
            args = e.get("args")
            if not isinstance(args, dict) or not args:
                errors.append(f"{where} (C): a counter needs args with values")
            else:
                for k, v in args.items():
                    if not is_number(v):
                        errors.append(f"{where} (C): counter {e['name']!r} value {k!r} is not a number: {v!r}")
    for track, names in open_be.items():
        if names:
            errors.append(f"track {track}: {len(names)} B slice(s) never ended ({names[-1]!r} last)")
    for pid in sorted(p for p in used_pids if p not in process_names):
        errors.append(f"process {pid} has events but no process_name")
    for track in sorted(t for t in used_tracks if t not in thread_names):
        errors.append(f"track {track} has slices but no thread_name")
    return errors


class Failure(Exception):
    pass


def check(condition, what):
    if not condition:
        raise Failure(what)


def load_valid(path):
    with open(path) as f:
        doc = json.load(f)
    errors = validate(doc)
    check(not errors, f"{path} is not a valid trace:\n  " + "\n  ".join(errors[:20]))
    return doc


def names_by_process(doc):
    """{process name: set of slice and counter names}, and {process name: set of track names}."""
    pname = {e["pid"]: e["args"]["name"] for e in doc["traceEvents"] if e["ph"] == "M" and e["name"] == "process_name"}
    tname = {(e["pid"], e["tid"]): e["args"]["name"] for e in doc["traceEvents"]
             if e["ph"] == "M" and e["name"] == "thread_name"}
    names, tracks = {}, {}
    for e in doc["traceEvents"]:
        if e["ph"] in ("X", "C"):
            names.setdefault(pname[e["pid"]], set()).add(e["name"])
            if e["ph"] == "X":
                tracks.setdefault(pname[e["pid"]], set()).add(tname[(e["pid"], e["tid"])])
    return names, tracks


def pid_of(doc, process):
    return next(e["pid"] for e in doc["traceEvents"]
                if e["ph"] == "M" and e["name"] == "process_name" and e["args"]["name"] == process)


def run(args, tessera, expect_exit=0):
    r = subprocess.run([tessera] + args, capture_output=True, text=True)
    check(r.returncode == expect_exit, f"tessera {' '.join(args)}: exit {r.returncode}, expected {expect_exit}\n"
                                       f"stdout:\n{r.stdout[-3000:]}\nstderr:\n{r.stderr[-3000:]}")
    return r


def comparable_stats(path):
    """The statistics without what depends on the host (wall time, speed)."""
    with open(path) as f:
        s = json.load(f)
    for key in ("wall_time_s", "simulated_cycles_per_second"):
        s["simulation"].pop(key, None)
    return s


def fresh(work, name):
    path = os.path.join(work, name)
    if os.path.exists(path):
        os.remove(path)
    return path


def scenario_content(o):
    """sgemm16 on small_gpu: every kind is there, and tracing changes nothing else."""
    netlist = os.path.join(o.source, "json/platforms/small_gpu.json")
    base = ["workload", "sgemm16", "--size", "32", "--netlist", netlist]
    plain = run(base + ["--stats", fresh(o.work, "plain.json")], o.tessera)
    trace = fresh(o.work, "content.trace.json")
    traced = run(base + ["--stats", fresh(o.work, "traced.json"), "--trace", trace], o.tessera)
    cycles = re.findall(r"cycles +(\d+) simulated", plain.stdout)
    check(cycles and cycles == re.findall(r"cycles +(\d+) simulated", traced.stdout),
          f"cycles differ with --trace: {cycles} vs traced run:\n{traced.stdout}")
    check("PASS" in traced.stdout, "the traced run did not pass")
    check(comparable_stats(os.path.join(o.work, "plain.json")) == comparable_stats(os.path.join(o.work, "traced.json")),
          "the statistics differ with --trace")
    check("trace " in traced.stdout and "events written to " + trace in traced.stdout,
          f"the run does not say where the trace went:\n{traced.stdout}")
    doc = load_valid(trace)
    names, tracks = names_by_process(doc)
    launches = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["pid"] == pid_of(doc, "host")]
    check(len(launches) == 1 and launches[0]["name"] == "sgemm_tile16",
          f"expected one launch of sgemm_tile16 on the host track: {launches}")
    check(set(launches[0]["args"]) == {"launch", "cycles", "kernel_cycles", "workgroups", "wave_instructions", "faulted"},
          f"the launch slice's arguments are not its own: {launches[0]['args']}")
    check(f"cycles      {launches[0]['args']['cycles']} simulated" in traced.stdout,
          f"the launch slice's cycles {launches[0]['args']['cycles']} are not the run's:\n{traced.stdout}")
    check("kernel dispatch" in names.get("cp", set()), f"no CP packet slice: {names.get('cp')}")
    check("awake" in names.get("cp", set()), "no CP firmware slice")
    check(any(p.startswith("dispatcher") for p in names), f"no dispatcher track: {sorted(names)}")
    cu = names.get("cu[0]", set())
    for want in ("workgroup", "wave", "load", "instruction fetch"):
        check(want in cu, f"cu[0] has no {want!r} slice: {sorted(cu)}")
    check(any(n in cu for n in ("waiting_memory", "dependency", "structural", "no_instruction")),
          f"cu[0] has no stall slices: {sorted(cu)}")
    counters = {e["name"] + " " + k for e in doc["traceEvents"] if e["ph"] == "C" for k in e["args"]}
    check({"DRAM bytes read", "DRAM bytes written", "L2 hit rate %", "L2 lookups"} <= counters,
          f"counter tracks missing (as Perfetto names them): {counters}")
    check(any(p.startswith("dram[") and any(t.startswith("requests #") for t in tracks[p]) for p in tracks),
          f"no DRAM request track: {tracks}")
    # Stalls lie inside their wave's slice, which the validator's nesting check proves on every track.
    waves = sum(1 for e in doc["traceEvents"] if e["ph"] == "X" and e["name"] == "wave")
    wgs = sum(1 for e in doc["traceEvents"] if e["ph"] == "X" and e["name"] == "workgroup")
    wave_args = {"x", "y", "z", "wave_in_workgroup", "dispatch_wave", "unfinished"}
    wrong = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["name"] == "wave" and set(e["args"]) != wave_args]
    check(not wrong, f"{len(wrong)} wave slices with other arguments, e.g. {wrong[:1]}")
    wrong = [e for e in doc["traceEvents"] if e["ph"] == "C" and e["name"] == "DRAM bytes"
             and set(e["args"]) != {"read", "written"}]
    check(not wrong, f"{len(wrong)} DRAM counter values with other arguments, e.g. {wrong[:1]}")
    launched = f"launches    1 ({wgs} workgroups, {waves} waves)"
    check(launched in traced.stdout, f"the trace has {wgs} workgroups and {waves} waves, the run says:\n{traced.stdout}")
    check(doc["otherData"]["events_dropped"] == 0, "events were dropped below the default limit")
    # Determinism: the same run writes the same trace.
    again = fresh(o.work, "content.again.json")
    run(base + ["--trace", again], o.tessera)
    with open(trace, "rb") as a, open(again, "rb") as b:
        check(a.read() == b.read(), "two traces of the same run differ")


def scenario_limit(o):
    """The event limit is honoured, said on stderr and in the metadata."""
    netlist = os.path.join(o.source, "json/platforms/small_gpu.json")
    trace = fresh(o.work, "limit.trace.json")
    r = run(["workload", "sgemm16", "--size", "32", "--netlist", netlist, "--trace", trace, "--trace-limit", "300"],
            o.tessera)
    check("limit of 300 events was reached" in r.stderr, f"no message on stderr:\n{r.stderr}")
    doc = load_valid(trace)
    events = [e for e in doc["traceEvents"] if e["ph"] != "M"]
    other = doc["otherData"]
    # Past the limit only the outline (launches, packets, ranges, CP awake) is kept.
    check(len(events) == 300 + other["outline_events_over_limit"] and other["outline_events_over_limit"] <= 10,
          f"{len(events)} events written with --trace-limit 300: {other}")
    check(other["event_limit"] == 300 and other["events_dropped"] > 0 and "limit_reached" in other,
          f"the metadata does not report the limit: {other}")
    check(any(e["ph"] == "X" and e["pid"] == pid_of(doc, "host") for e in events),
          "the launch slice was dropped at the limit")
    check("left out at the --trace-limit" in r.stdout, f"stdout does not report the dropped events:\n{r.stdout}")


def scenario_unfinished(o):
    """A launch stopped as hung still writes its trace, with what was resident marked unfinished."""
    netlist = os.path.join(o.source, "json/platforms/small_gpu.json")
    trace = fresh(o.work, "hung.trace.json")
    r = run(["workload", "sgemm16", "--size", "64", "--netlist", netlist, "--max-cycles", "3000", "--trace", trace],
            o.tessera, 1)
    check("(hung?)" in r.stderr, f"the launch was not stopped as hung:\n{r.stderr[:800]}")
    doc = load_valid(trace)
    unfinished = [e for e in doc["traceEvents"] if e["ph"] == "X" and e.get("args", {}).get("unfinished") == 1]
    check(any(e["name"] == "wave" for e in unfinished) and any(e["name"] == "workgroup" for e in unfinished),
          f"no unfinished wave and workgroup slices: {len(unfinished)} unfinished slices")
    launches = [e for e in doc["traceEvents"] if e["ph"] == "X" and e["pid"] == pid_of(doc, "host")]
    check(len(launches) == 1 and launches[0]["args"]["faulted"] == 1, f"the failed launch is not traced: {launches}")


def scenario_filter(o):
    """--trace-filter keeps the blocks and kinds it names, and nothing else."""
    netlist = os.path.join(o.source, "json/platforms/small_gpu.json")
    trace = fresh(o.work, "filter.trace.json")
    run(["workload", "vector_add", "--size", "4096", "--netlist", netlist, "--trace", trace,
         "--trace-filter", "cu[1]:wave,stall", "--trace-filter", ":launch"], o.tessera)
    doc = load_valid(trace)
    names, tracks = names_by_process(doc)
    check(set(names) == {"cu[1]", "host"}, f"processes other than cu[1] and host: {sorted(names)}")
    check("workgroup" not in names["cu[1]"] and "load" not in names["cu[1]"],
          f"kinds not asked for: {sorted(names['cu[1]'])}")
    check("wave" in names["cu[1]"], "no wave slices for cu[1]")


def scenario_chiplets(o):
    """A chiplet platform has an inter-chiplet bytes counter; `tessera run` traces a CP alone."""
    netlist = os.path.join(o.source, "json/platforms/chiplet4_small.json")
    trace = fresh(o.work, "chiplet.trace.json")
    run(["workload", "vector_add", "--size", "8192", "--netlist", netlist, "--trace", trace,
         "--trace-filter", ":counter,launch,cp,dispatch"], o.tessera)
    doc = load_valid(trace)
    counters = [e for e in doc["traceEvents"] if e["ph"] == "C" and e["name"] == "inter-chiplet"]
    check(counters and sum(e["args"]["bytes"] for e in counters) > 0, "no inter-chiplet bytes counted")
    names, _ = names_by_process(doc)
    check(sum(1 for p in names if p.startswith("chiplet[") and "dispatcher" in p) == 4,
          f"expected four dispatchers' ranges: {sorted(names)}")
    trace = fresh(o.work, "run.trace.json")
    r = run(["run", os.path.join(o.source, "json/platforms/cp_hello.json"), "--trace", trace], o.tessera)
    check("events written to" in r.stdout, f"tessera run does not report its trace:\n{r.stdout}")
    load_valid(trace)


def scenario_refusals(o):
    """Bad trace options are refused before the run; an existing file is kept."""
    netlist = os.path.join(o.source, "json/platforms/small_gpu.json")
    base = ["workload", "vector_add", "--size", "256", "--netlist", netlist]
    existing = os.path.join(o.work, "existing.trace.json")
    with open(existing, "w") as f:
        f.write("keep me\n")
    r = run(base + ["--trace", existing], o.tessera, 2)
    check("already exists" in r.stderr and "--force" in r.stderr, f"no clear refusal:\n{r.stderr}")
    check("PASS" not in r.stdout, "the workload ran before the refusal")
    with open(existing) as f:
        check(f.read() == "keep me\n", "the existing file was changed")
    run(base + ["--trace", existing, "--force"], o.tessera)
    load_valid(existing)
    for args, message in [
        (["--trace", os.path.join(o.work, "no/such/dir/t.json")], "no directory"),
        (["--trace", fresh(o.work, "x.json"), "--trace-filter", "cu[0]:waves"], "unknown event kind \"waves\""),
        (["--trace", fresh(o.work, "x.json"), "--trace-filter", "cu[0..]"], "bad --trace-filter"),
        (["--trace", fresh(o.work, "x.json"), "--trace-limit", "-5"], "--trace-limit expects"),
        (["--trace", fresh(o.work, "x.json"), "--trace-interval", "3 apples"], "bad --trace-interval"),
        (["--trace-limit", "10"], "needs --trace FILE"),
    ]:
        r = run(base + args, o.tessera, 2)
        check(message in r.stderr, f"{args}: expected {message!r} on stderr:\n{r.stderr}")
        check(not os.path.exists(os.path.join(o.work, "x.json")), f"{args}: a trace was written")
    r = run(["workload", "vector_add", "--device", "tessera-functional", "--trace", fresh(o.work, "x.json")],
            o.tessera, 2)
    check("apply to the tessera-timing device" in r.stderr.replace("\n", " ") or "--trace" in r.stderr,
          f"--trace on the functional device:\n{r.stderr}")


def scenario_selftest(o):
    """The validator rejects what it must (a checker that never fires proves nothing)."""
    good = {"traceEvents": [
        {"ph": "M", "pid": 1, "tid": 0, "name": "process_name", "args": {"name": "p"}},
        {"ph": "M", "pid": 1, "tid": 1, "name": "thread_name", "args": {"name": "t"}},
        {"ph": "X", "pid": 1, "tid": 1, "name": "a", "ts": 1.5, "dur": 3},
        {"ph": "X", "pid": 1, "tid": 1, "name": "b", "ts": 2, "dur": 1},
        {"ph": "B", "pid": 1, "tid": 1, "name": "c", "ts": 5},
        {"ph": "E", "pid": 1, "tid": 1, "ts": 6},
        {"ph": "C", "pid": 1, "tid": 0, "name": "n", "ts": 1, "args": {"v": 2}},
    ]}
    check(validate(good) == [], f"a good trace was rejected: {validate(good)}")
    bad = [
        ({"events": []}, "traceEvents"),
        ({"traceEvents": [{"ph": "X", "pid": 1, "tid": 1, "name": "a", "ts": 1}]}, "dur"),
        ({"traceEvents": [{"ph": "X", "pid": 1, "tid": 1, "name": "a", "ts": "1", "dur": 1}]}, "ts"),
        ({"traceEvents": [{"ph": "B", "pid": 1, "tid": 1, "name": "a", "ts": 1}]}, "never ended"),
        ({"traceEvents": [{"ph": "E", "pid": 1, "tid": 1, "ts": 1}]}, "no open B"),
        ({"traceEvents": [{"ph": "X", "pid": 1, "tid": 1, "name": "a", "ts": 5, "dur": 1},
                          {"ph": "X", "pid": 1, "tid": 1, "name": "b", "ts": 4, "dur": 1}]}, "goes back"),
        ({"traceEvents": [{"ph": "X", "pid": 1, "tid": 1, "name": "a", "ts": 1, "dur": 2},
                          {"ph": "X", "pid": 1, "tid": 1, "name": "b", "ts": 2, "dur": 5}]}, "overlaps"),
        ({"traceEvents": [{"ph": "C", "pid": 1, "tid": 0, "name": "n", "ts": 1, "args": {"v": "x"}}]}, "not a number"),
        ({"traceEvents": [{"ph": "X", "pid": 1, "tid": 1, "name": "a", "ts": 1, "dur": 1}]}, "no process_name"),
        ({"traceEvents": [{"ph": "M", "pid": 1, "tid": 0, "name": "process_name", "args": {"name": "p"}},
                          {"ph": "X", "pid": 1, "tid": 1, "name": "a", "ts": 1, "dur": 1}]}, "no thread_name"),
    ]
    for doc, expected in bad:
        errors = validate(doc)
        check(any(expected in e for e in errors), f"the validator missed {expected!r} in {doc}: {errors}")


SCENARIOS = {
    "selftest": scenario_selftest,
    "content": scenario_content,
    "limit": scenario_limit,
    "unfinished": scenario_unfinished,
    "filter": scenario_filter,
    "chiplets": scenario_chiplets,
    "refusals": scenario_refusals,
}


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "validate":
        with open(sys.argv[2]) as f:
            errors = validate(json.load(f))
        for e in errors:
            print(e)
        print(f"{sys.argv[2]}: {'valid' if not errors else f'{len(errors)} problem(s)'}")
        return 1 if errors else 0
    p = argparse.ArgumentParser()
    p.add_argument("scenario", choices=sorted(SCENARIOS))
    p.add_argument("--tessera")
    p.add_argument("--source")
    p.add_argument("--work")
    o = p.parse_args()
    if o.work:
        os.makedirs(o.work, exist_ok=True)
    try:
        SCENARIOS[o.scenario](o)
    except Failure as f:
        print(f"FAILED: {f}")
        return 1
    print(f"{o.scenario}: ok")
    return 0


if __name__ == "__main__":
    sys.exit(main())
