"""PNG and SVG plots of an experiment's table (matplotlib, Agg: no display needed)."""
import os

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402  (after the backend is chosen)

from . import table as tbl  # noqa: E402
from . import units  # noqa: E402

# Fixed fonts and no timestamps: the same table draws the same SVG.
plt.rcParams.update({"svg.hashsalt": "tessera", "font.size": 9, "svg.fonttype": "none"})


def save(fig, directory, name):
    """Writes name.png and name.svg; returns the PNG's file name."""
    os.makedirs(directory, exist_ok=True)
    fig.tight_layout()
    fig.savefig(os.path.join(directory, name + ".png"), dpi=100)
    fig.savefig(os.path.join(directory, name + ".svg"), metadata={"Date": None})
    plt.close(fig)
    return name + ".png"


def speedup_bars(exp, rows, directory):
    """Speedup over the baseline, bars per workload case and design."""
    by_case = tbl.speedups(exp, rows)
    designs = [d for d in exp.designs if d != exp.baseline]
    if not designs or not by_case:
        return None
    labels = list(by_case)
    fig, ax = plt.subplots(figsize=(max(6, 0.7 * len(labels) * len(designs) + 2), 4))
    width = 0.8 / len(designs)
    for i, d in enumerate(designs):
        ys = [by_case[c].get(d, (None, None))[1] or 0 for c in labels]
        ax.bar([x + i * width for x in range(len(labels))], ys, width, label=d)
    ax.axhline(1.0, color="black", linewidth=0.8)
    ax.set_xticks([x + width * (len(designs) - 1) / 2 for x in range(len(labels))])
    ax.set_xticklabels(labels, rotation=30, ha="right")
    ax.set_ylabel(f"speedup over {exp.baseline}")
    swept = f" @ {', '.join(exp.sweep)}" if exp.sweep else ""
    ax.set_title(f"{exp.name}: speedup per case (workload{swept})")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return save(fig, directory, "speedup")


def sweep_x(values):
    """Numeric x positions for swept values (base units), or None when they are not all numbers."""
    try:
        return [units.parse(v)[1] if units.looks_like_quantity(v) else float(v) for v in values]
    except (units.UnitError, ValueError):
        return None


def sweep_lines(exp, rows, directory, column, ylabel, name):
    """y = column against the first swept parameter; one line per design (and other swept values)."""
    if not exp.sweep:
        return None
    param = next(iter(exp.sweep))
    others = [p for p in exp.sweep if p != param]
    cases = {}
    for r in rows:
        if r["status"] != "ok" or r[column] in ("", None):
            continue
        panel = f"{r['netlist']} {r['workload']} {r['size']} seed {r['seed']}"
        line = " ".join([r["design"]] + [f"{p}={r[p]}" for p in others]) if exp.sweep_mode == "cartesian" \
            else r["design"]
        cases.setdefault(panel, {}).setdefault(line, []).append((r[param], float(r[column])))
    if not cases:
        return None
    values = exp.sweep[param]
    xs = sweep_x(values)
    if xs and min(xs) <= 0:
        xs = None  # a log axis needs positive values: place them evenly instead
    cols = min(3, len(cases))
    nrows = (len(cases) + cols - 1) // cols
    fig, axes = plt.subplots(nrows, cols, figsize=(4.2 * cols, 3.2 * nrows), squeeze=False)
    for ax, (panel, lines) in zip(axes.flat, cases.items()):
        for line, points in lines.items():
            order = sorted(points, key=lambda p: values.index(p[0]))
            px = [xs[values.index(v)] if xs else values.index(v) for v, _ in order]
            ax.plot(px, [y for _, y in order], marker="o", label=line)
        if xs:
            ax.set_xscale("log", base=2)
            ax.set_xticks(xs)
        else:
            ax.set_xticks(range(len(values)))
        ax.set_xticklabels(values, rotation=30, ha="right")
        ax.minorticks_off()
        top = max(y for points in lines.values() for _, y in points)
        ax.set_ylim(0, top * 1.15 or 1)  # from zero, so that a flat line looks flat
        ax.set_title(panel, fontsize=9)
        ax.set_xlabel(param)
        ax.set_ylabel(ylabel)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(cases):]:
        ax.set_visible(False)
    return save(fig, directory, name)


def statistic_bars(exp, rows, directory, statistic, name):
    """A summed statistic per case and design, when nothing is swept."""
    by_case = {}
    for r in rows:
        if r["status"] == "ok" and r[statistic.name] != "":
            by_case.setdefault(tbl.case_label(r, exp, len(exp.netlists) > 1), {})[r["design"]] = \
                float(r[statistic.name])
    if not by_case:
        return None
    designs = list(exp.designs)
    labels = list(by_case)
    width = 0.8 / len(designs)
    fig, ax = plt.subplots(figsize=(max(6, 0.7 * len(labels) * len(designs) + 2), 4))
    for i, d in enumerate(designs):
        ax.bar([x + i * width for x in range(len(labels))], [by_case[c].get(d, 0) for c in labels], width, label=d)
    ax.set_xticks([x + width * (len(designs) - 1) / 2 for x in range(len(labels))])
    ax.set_xticklabels(labels, rotation=30, ha="right")
    ax.set_ylabel(statistic.name)
    ax.set_title(f"{exp.name}: {statistic.name} ({statistic.path or statistic.log}, summed)")
    ax.legend(loc="upper left", bbox_to_anchor=(1.0, 1.0))
    return save(fig, directory, name)


def draw_all(exp, rows, directory):
    """Every plot the experiment calls for; returns [(title, PNG file name)]."""
    made = [("Speedup over the baseline", speedup_bars(exp, rows, directory)),
            ("Cycles against the swept parameter",
             sweep_lines(exp, rows, directory, "cycles", "cycles", "sweep_cycles"))]
    for i, s in enumerate(exp.statistics):
        if s.reduce != "sum":
            continue  # listed statistics are in results.csv only
        name = f"stat_{i}"
        png = sweep_lines(exp, rows, directory, s.name, s.name, name) if exp.sweep else \
            statistic_bars(exp, rows, directory, s, name)
        made.append((f"Statistic {s.name} ({s.path or s.log})", png))
    return [(title, png) for title, png in made if png]
