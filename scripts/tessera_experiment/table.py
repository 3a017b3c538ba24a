"""results.csv and summary.md from the finished points of an experiment."""
import csv
import io
import math
import re
import statistics as stats_math

FIXED = ["experiment", "netlist", "design", "workload", "size", "seed"]
MEASURED = ["status", "outputs_match", "cycles", "wave_instructions", "wall_s", "sim_wave_instr_per_s"]


def flatten(node, prefix=""):
    """{"l2[0]": {"hits": 3}} -> {"l2[0].hits": 3}; lists become [i]."""
    if isinstance(node, dict):
        for k, v in node.items():
            yield from flatten(v, f"{prefix}.{k}" if prefix else k)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from flatten(v, f"{prefix}[{i}]")
    elif isinstance(node, (int, float)) and not isinstance(node, bool):
        yield prefix, node


def pattern_regex(pattern):
    """A statistics path pattern: [*] any index, * any part of a name, ** any run of names."""
    out = ""
    for token in re.split(r"(\[\*\]|\*\*|\*)", pattern):
        out += {"[*]": r"\[\d+\]", "**": r".*", "*": r"[^.\[]*"}.get(token, re.escape(token))
    return re.compile(out + r"\Z")


def collect(stats, statistic, output=None):
    """Values of the counters a statistic's pattern names, in the file's order, or of its
    log pattern's matches in the run's output."""
    if statistic.log:
        return None if output is None else [v for v in map(number_or_none, re.findall(statistic.log, output))
                                            if v is not None]
    if stats is None:
        return None
    rx = pattern_regex(statistic.path)
    return [v for name, v in flatten(stats) if rx.match(name)]


def number_or_none(text):
    try:
        return float(text)
    except ValueError:
        return None  # the expression's group caught something else: not a value


def reduce_values(values, how):
    if values is None or not values:
        return ""
    if how == "list":
        return ";".join(format_number(v) for v in values)
    return format_number(sum(values))


def format_number(v):
    return str(int(v)) if float(v).is_integer() else f"{v:.6g}"


def group_by_case(points, store):
    """[(first point, [records of its repeats or None])] in the experiment's order."""
    cases = {}
    for p in points:
        cases.setdefault(p.case(), (p, []))[1].append(store.load(p.key))
    return list(cases.values())


def case_status(records):
    done = [r for r in records if r is not None]
    if not done:
        return "not_run"
    failed = [r["status"] for r in done if r["status"] != "ok"]
    if failed:
        return failed[0]
    if len(done) < len(records):
        return "incomplete"
    if len({r["cycles"] for r in done}) > 1:
        return "nondeterministic"  # same inputs must give the same cycles
    return "ok"


def median(values):
    values = [v for v in values if v is not None]
    return stats_math.median(values) if values else None


def rows(exp, points, store):
    """One dict per case (repeats folded: wall time as their median)."""
    out = []
    for p, records in group_by_case(points, store):
        done = [r for r in records if r is not None]
        first = done[0] if done else {}
        row = {"experiment": exp.name, "netlist": p.netlist_name(), "design": p.design, "workload": p.workload,
               "size": p.size, "seed": p.seed}
        row.update({param: value for param, value in p.sweep})
        row["status"] = case_status(records)
        row["outputs_match"] = "" if first.get("outputs_match") is None else str(first["outputs_match"]).lower()
        row["cycles"] = first.get("cycles") if row["status"] == "ok" else ""
        row["wave_instructions"] = first.get("wave_instructions") or ""
        wall = median([r.get("wall_s") for r in done])
        row["wall_s"] = "" if wall is None else f"{wall:.3f}"
        speed = median([r["wave_instructions"] / r["simulation_s"] for r in done
                        if r.get("wave_instructions") and r.get("simulation_s")])
        row["sim_wave_instr_per_s"] = "" if speed is None else f"{speed:.4g}"
        st = store.load_stats(p.key) if row["status"] == "ok" else None
        output = store.load_output(p.key) if row["status"] == "ok" and any(s.log for s in exp.statistics) else None
        for s in exp.statistics:
            row[s.name] = reduce_values(collect(st, s, output), s.reduce)
        row["_records"], row["_case"] = records, p.case()
        out.append(row)
    return out


def columns(exp):
    return FIXED + list(exp.sweep) + MEASURED + [s.name for s in exp.statistics]


def csv_text(exp, table):
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns(exp), extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    for row in table:
        w.writerow(row)
    return buf.getvalue()


def case_label(row, exp, with_netlist):
    parts = ([row["netlist"]] if with_netlist else []) + [row["workload"]]
    sizes = {s for _, sz, _, _ in exp.workloads for s in sz}
    seeds = {s for _, _, sd, _ in exp.workloads for s in sd}
    if len(sizes) > 1:
        parts.append(f"size {row['size']}")
    if len(seeds) > 1:
        parts.append(f"seed {row['seed']}")
    label = ", ".join(parts)
    return label + (" @ " + ", ".join(row[p] for p in exp.sweep) if exp.sweep else "")


def speedups(exp, table):
    """{case label: {design: (cycles, speedup over the baseline or None)}} in order."""
    out = {}
    with_netlist = len(exp.netlists) > 1
    base = {case_label(r, exp, with_netlist): r["cycles"] for r in table
            if r["design"] == exp.baseline and r["status"] == "ok"}
    for r in table:
        label = case_label(r, exp, with_netlist)
        cycles = r["cycles"] if r["status"] == "ok" else None
        b = base.get(label)
        out.setdefault(label, {})[r["design"]] = (cycles, b / cycles if cycles and b else None)
    return out


def geomean(values):
    values = [v for v in values if v]
    return math.exp(sum(math.log(v) for v in values) / len(values)) if values else None


def cycles_table(designs, table_by_case):
    """Markdown rows: per case each design's cycles and, with two or more designs, its speedup."""
    compare = len(designs) > 1
    head = [f"{d} cycles" + (f" | {d} speedup" if compare else "") for d in designs]
    lines = ["| case | " + " | ".join(head) + " |", "|---|" + ("---:|---:|" if compare else "---:|") * len(designs)]
    for label, by_design in table_by_case.items():
        cells = []
        for d in designs:
            cycles, speedup = by_design.get(d, (None, None))
            cells += [str(cycles) if cycles else "-"] + ([f"{speedup:.3f}" if speedup else "-"] if compare else [])
        lines.append(f"| {label} | " + " | ".join(cells) + " |")
    if compare:
        means = [geomean([by.get(d, (None, None))[1] for by in table_by_case.values()]) for d in designs]
        lines.append("| **geometric mean** | " + " | ".join(f" | {m:.3f}" if m else " | -" for m in means) + " |")
    return lines


def summary_markdown(exp, table, identity):
    designs = list(exp.designs)
    table_by_case = speedups(exp, table)
    lines = [f"# Experiment {exp.name}", ""]
    if exp.description:
        lines += [exp.description, ""]
    counts = {}
    for r in table:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    lines += [f"Binary: {identity['version']} (sha256 {identity['sha256'][:12]}). Cases: {len(table)} "
              f"({', '.join(f'{n} {s}' for s, n in sorted(counts.items()))}). Baseline design: "
              f"`{exp.baseline}`. Cycles are simulated" +
              ("; speedup = baseline cycles / design cycles." if len(designs) > 1 else "."), ""]
    lines += cycles_table(designs, table_by_case)
    lines += ["", "## Failures", ""]
    failures = [r for r in table if r["status"] not in ("ok", "not_run")]
    if not failures:
        lines.append("None.")
    for r in failures:
        rec = next((x for x in r["_records"] if x and x["status"] != "ok"), None) or {}
        error = (rec.get("error") or "").strip().splitlines()
        lines.append(f"- {r['netlist']} / {r['design']} / {case_label(r, exp, False)}: **{r['status']}** "
                     f"(exit status {rec.get('exit_status')}): {error[0] if error else 'no message'}")
    not_run = sum(r["status"] == "not_run" for r in table)
    if not_run:
        lines += ["", f"{not_run} cases have not run yet (`scripts/experiment run` runs them)."]
    empty = [s.name for s in exp.statistics if all(r[s.name] == "" for r in table if r["status"] == "ok")]
    if empty and any(r["status"] == "ok" for r in table):
        lines += ["", "Statistics that matched no counter: " + ", ".join(f"`{n}`" for n in empty) + "."]
    return "\n".join(lines) + "\n"
