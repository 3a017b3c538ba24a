"""Loading and checking an experiment file (docs/EXPERIMENTS.md).

Every error names the JSON pointer of the value at fault, as the netlist
validator does ("/designs/big_l2/set/l2[*].size"). These checks need no
`tessera` binary; checks.py asks the binary about parameters and workloads.
"""
import itertools
import json
import os
import re
from dataclasses import dataclass, field

from . import units

TOP_KEYS = {"name", "description", "netlists", "designs", "baseline", "workloads", "sweep", "statistics",
            "repeats", "max_cycles", "timeout_s", "trace"}


class SpecError(Exception):
    """A mistake in an experiment file, at a JSON pointer."""

    def __init__(self, pointer, message):
        super().__init__(f"{pointer or '/'}: {message}")
        self.pointer = pointer
        self.message = message


def pointer(*parts):
    """JSON pointer of nested keys and indices (RFC 6901 escaping)."""
    return "".join("/" + str(p).replace("~", "~0").replace("/", "~1") for p in parts)


@dataclass
class Statistic:
    name: str
    path: str  # a pattern over --stats names, or "" for a log statistic
    reduce: str  # "sum" or "list"
    log: str = ""  # a regular expression over the run's output, one group: a number


@dataclass
class Experiment:
    file: str  # absolute path of the experiment file
    name: str
    description: str
    netlists: list  # [(as written, absolute path)]
    designs: dict  # name -> [(parameter path, value string)]
    baseline: str
    workloads: list  # [(name, [sizes], [seeds], pointer)]
    sweep_mode: str  # "cartesian", "zip" or "" for none
    sweep: dict  # parameter path -> [value strings], in file order
    statistics: list
    repeats: int = 1
    max_cycles: int = 0
    timeout_s: float = 0
    trace: bool = False
    raw: dict = field(default_factory=dict)
    # name -> the netlists' file names (without .json) a design runs on, for a
    # design that names its own; the others run on every netlist
    design_netlists: dict = field(default_factory=dict)

    def runs_on(self, design, netlist_path):
        """Whether the design runs on the netlist (a design's own "netlists" may leave it out)."""
        only = self.design_netlists.get(design)
        return only is None or os.path.splitext(os.path.basename(netlist_path))[0] in only

    def point_count(self):
        per_netlist_design = len(self.sweep_points()) * self.repeats * sum(
            len(sizes) * len(seeds) for _, sizes, seeds, _ in self.workloads)
        return per_netlist_design * sum(self.runs_on(d, p) for _, p in self.netlists for d in self.designs)

    def sweep_points(self):
        """Every combination of swept values, as [(parameter, value)] lists."""
        if not self.sweep:
            return [[]]
        names = list(self.sweep)
        if self.sweep_mode == "zip":
            rows = zip(*(self.sweep[n] for n in names))
        else:
            rows = itertools.product(*(self.sweep[n] for n in names))
        return [list(zip(names, row)) for row in rows]


def load(path):
    """Reads and checks an experiment file; raises SpecError."""
    return from_json(_read_json(path), os.path.abspath(path))


def _read_json(path):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        raise SpecError("", f"cannot read the experiment file: {e.strerror}") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except json.JSONDecodeError as e:
        raise SpecError("", f"malformed JSON at line {e.lineno}, column {e.colno}: {e.msg}") from None


def _no_duplicate_keys(pairs):
    """A JSON object, refusing a key given twice (json would keep the last one silently)."""
    out = {}
    for key, value in pairs:
        _expect(key not in out, "", f"the key {json.dumps(key)} appears twice in one object")
        out[key] = value
    return out


def from_json(raw, file):
    _expect(isinstance(raw, dict), "", "an experiment is a JSON object")
    raw = _with_designs_taken(raw, os.path.dirname(file))
    for key in raw:
        _expect(key in TOP_KEYS, pointer(key), f"unknown key (known: {', '.join(sorted(TOP_KEYS))})")
    name = _string(raw, "name", required=True)
    _expect(name.replace("_", "").replace("-", "").isalnum(), pointer("name"),
            "a name is letters, digits, '_' and '-'")
    designs, baseline = _designs(raw)
    netlists = _netlists(raw, os.path.dirname(file))
    design_netlists = _design_netlists(raw, netlists, baseline)
    mode, sweep = _sweep(raw.get("sweep"))
    for design, sets in designs.items():
        for param, _ in sets:
            _expect(param not in sweep, pointer("designs", design, "set", param),
                    "this parameter is also swept (/sweep/parameters); set it in one place only")
    return Experiment(
        file=file, name=name, description=_string(raw, "description"),
        netlists=netlists, designs=designs, baseline=baseline, design_netlists=design_netlists,
        workloads=_workloads(raw), sweep_mode=mode, sweep=sweep, statistics=_statistics(raw),
        repeats=_count(raw, "repeats", 1, minimum=1), max_cycles=_count(raw, "max_cycles", 0),
        timeout_s=_count(raw, "timeout_s", 0), trace=_flag(raw, "trace"), raw=raw)


def _expect(condition, where, message):
    if not condition:
        raise SpecError(where, message)


def _string(raw, key, required=False):
    if key not in raw:
        _expect(not required, pointer(key), "missing (a string)")
        return ""
    _expect(isinstance(raw[key], str) and (raw[key] or not required), pointer(key), "expected a non-empty string")
    return raw[key]


def _count(raw, key, default, minimum=0):
    value = raw.get(key, default)
    _expect(isinstance(value, int) and not isinstance(value, bool) and value >= minimum, pointer(key),
            f"expected an integer >= {minimum}")
    return value


def _flag(raw, key):
    value = raw.get(key, False)
    _expect(isinstance(value, bool), pointer(key), "expected true or false")
    return value


def _list(raw, key, where):
    value = raw.get(key)
    _expect(value is not None, where, "missing (a non-empty list)")
    _expect(isinstance(value, list) and value, where, "expected a non-empty list")
    return value


def _netlists(raw, base):
    out = []
    for i, n in enumerate(_list(raw, "netlists", pointer("netlists"))):
        where = pointer("netlists", i)
        _expect(isinstance(n, str) and n, where, "expected a netlist path (relative to the experiment file)")
        path = os.path.normpath(os.path.join(base, n))
        _expect(os.path.isfile(path), where, f"no such netlist file: {path}")
        out.append((n, path))
    stems = [os.path.splitext(os.path.basename(p))[0] for _, p in out]
    _expect(len(set(stems)) == len(stems), pointer("netlists"), "two netlists have the same file name")
    return out


def _design_netlists(raw, netlists, baseline):
    """A design's own "netlists": the file names (without .json) of top-level
    netlists it runs on, when a design does not apply to every netlist (its
    parameters do not exist there, or it models another organisation)."""
    stems = [os.path.splitext(os.path.basename(p))[0] for _, p in netlists]
    out = {}
    for name, d in raw["designs"].items():
        if "netlists" not in d:
            continue
        where = pointer("designs", name, "netlists")
        _expect(name != baseline, where, "the baseline design runs on every netlist (the speedups are over it)")
        value = d["netlists"]
        _expect(isinstance(value, list) and value, where, "expected a non-empty list of netlist names")
        for i, n in enumerate(value):
            _expect(isinstance(n, str) and n in stems, f"{where}/{i}",
                    f"expected the file name (without .json) of one of the netlists ({', '.join(stems)})")
        out[name] = set(value)
    return out


def _with_designs_taken(raw, base):
    """The experiment with each design written {"from": FILE} replaced by the
    design of the same name in that experiment file (its set and description),
    so that experiments comparing the same designs define them in one place.
    The result is what a run records: its manifest does not depend on FILE."""
    table = raw.get("designs")
    if not isinstance(table, dict):
        return raw
    return dict(raw, designs={name: _taken_design(name, d, base) if isinstance(d, dict) and "from" in d else d
                              for name, d in table.items()})


def _taken_design(name, design, base):
    for key in design:
        _expect(key in ("from", "netlists"), pointer("designs", name, key),
                "a design taken from another file has only \"from\" and optionally \"netlists\" "
                "(its set and description are that file's)")
    where = pointer("designs", name, "from")
    source = design["from"]
    _expect(isinstance(source, str) and source, where, "expected the path of an experiment file (relative to this one)")
    path = os.path.normpath(os.path.join(base, source))
    try:
        other = _read_json(path)
    except SpecError as e:
        raise SpecError(where, f"{path}: {e.message}") from None
    theirs = other.get("designs") if isinstance(other, dict) else None
    _expect(isinstance(theirs, dict) and isinstance(theirs.get(name), dict), where,
            f"{path} has no design named {json.dumps(name)}")
    _expect("from" not in theirs[name], where,
            f"{path} takes its design {json.dumps(name)} from another file too; name the file that defines it")
    out = {key: value for key, value in theirs[name].items() if key in ("set", "description")}
    if "netlists" in design:
        out["netlists"] = design["netlists"]
    return out


def _value_string(value, where, unit=None):
    """A --set value as text: strings as written, numbers with the optional unit."""
    if isinstance(value, bool) or not isinstance(value, (str, int, float)):
        raise SpecError(where, "expected a string or a number")
    if isinstance(value, str):
        _expect(unit is None, where, "a value given with \"unit\" must be a number")
        _expect(value != "", where, "empty value")
        if units.looks_like_quantity(value):
            try:
                units.parse(value)
            except units.UnitError as e:
                raise SpecError(where, str(e)) from None
        return value
    if unit is None:
        return repr(value) if isinstance(value, float) else str(value)
    return f"{value:g} {unit}"


def _designs(raw):
    table = raw.get("designs")
    _expect(isinstance(table, dict) and table, pointer("designs"),
            "expected an object of named designs, e.g. {\"baseline\": {}}")
    designs = {}
    for name, d in table.items():
        where = pointer("designs", name)
        _expect(name.replace("_", "").replace("-", "").isalnum(), where, "a design name is letters, digits, '_', '-'")
        _expect(isinstance(d, dict), where, "expected an object with \"set\" (and optionally \"description\")")
        for key in d:
            _expect(key in ("set", "description", "netlists"), pointer("designs", name, key),
                    "unknown key (set, description, netlists)")
        sets = d.get("set", {})
        _expect(isinstance(sets, dict), pointer("designs", name, "set"), "expected an object of PATH: VALUE")
        designs[name] = [(p, _value_string(v, pointer("designs", name, "set", p))) for p, v in sets.items()]
    baseline = raw.get("baseline", next(iter(designs)) if len(designs) == 1 else None)
    _expect(baseline is not None, pointer("baseline"), "missing: name the baseline design")
    _expect(isinstance(baseline, str) and baseline in designs, pointer("baseline"),
            f"expected one of the designs ({', '.join(designs)})")
    return designs, baseline


def _sweep(sweep):
    if sweep is None:
        return "", {}
    _expect(isinstance(sweep, dict), pointer("sweep"), "expected {\"mode\": ..., \"parameters\": {...}}")
    for key in sweep:
        _expect(key in ("mode", "parameters"), pointer("sweep", key), "unknown key (mode, parameters)")
    mode = sweep.get("mode", "cartesian")
    _expect(mode in ("cartesian", "zip"), pointer("sweep", "mode"), "expected \"cartesian\" or \"zip\"")
    params = sweep.get("parameters")
    _expect(isinstance(params, dict) and params, pointer("sweep", "parameters"),
            "empty sweep: expected an object of PATH: [values] with at least one parameter")
    out = {}
    for param, spec in params.items():
        out[param] = _sweep_values(param, spec)
    lengths = {len(v) for v in out.values()}
    _expect(mode != "zip" or len(lengths) == 1, pointer("sweep", "parameters"),
            "a zipped sweep needs the same number of values for every parameter "
            f"(got {', '.join(f'{p}: {len(v)}' for p, v in out.items())})")
    return mode, out


def _sweep_values(param, spec):
    where = pointer("sweep", "parameters", param)
    unit = None
    if isinstance(spec, dict):
        for key in spec:
            _expect(key in ("values", "unit"), pointer("sweep", "parameters", param, key), "unknown key (values, unit)")
        unit = spec.get("unit")
        if unit is not None:
            _expect(isinstance(unit, str) and unit in units.UNITS, pointer("sweep", "parameters", param, "unit"),
                    f"unknown unit {json.dumps(unit)} (known: {', '.join(units.UNITS)})")
        where = pointer("sweep", "parameters", param, "values")
        spec = spec.get("values")
    _expect(isinstance(spec, list), where, "expected a list of values (or {\"values\": [...], \"unit\": ...})")
    _expect(len(spec) > 0, where, "empty sweep: no values")
    values = [_value_string(v, f"{where}/{i}", unit) for i, v in enumerate(spec)]
    _expect(len(set(values)) == len(values), where, "a value is listed twice")
    dims = {_kind(v) for v in values}
    _expect(len(dims) == 1, where, f"values of different kinds in one sweep ({', '.join(sorted(dims))})")
    return values


def _kind(value):
    """A value's dimension ("size", "frequency"...), "number", or "text" (an enum value)."""
    if units.looks_like_quantity(value):
        return units.parse(value)[0]
    try:
        float(value)
        return "number"
    except ValueError:
        return "text"


def _workloads(raw):
    out = []
    for i, w in enumerate(_list(raw, "workloads", pointer("workloads"))):
        where = pointer("workloads", i)
        _expect(isinstance(w, dict), where, "expected {\"name\": ..., \"sizes\": [...], \"seeds\": [...]}")
        for key in w:
            _expect(key in ("name", "sizes", "seeds"), pointer("workloads", i, key), "unknown key (name, sizes, seeds)")
        name = w.get("name")
        _expect(isinstance(name, str) and name, pointer("workloads", i, "name"), "missing: the workload's name")
        sizes = _positive_ints(w, "sizes", pointer("workloads", i, "sizes"), None)
        seeds = _positive_ints(w, "seeds", pointer("workloads", i, "seeds"), [1])
        out.append((name, sizes, seeds, where))
    return out


def _positive_ints(raw, key, where, default):
    values = raw.get(key, default)
    _expect(values is not None, where, "missing (a list of integers)")
    _expect(isinstance(values, list) and values, where, "expected a non-empty list of integers")
    for i, v in enumerate(values):
        _expect(isinstance(v, int) and not isinstance(v, bool) and v >= (0 if key == "seeds" else 1),
                f"{where}/{i}", "expected a positive integer" if key == "sizes" else "expected an integer >= 0")
    _expect(len(set(values)) == len(values), where, "a value is listed twice")
    return values


def _check_log_pattern(text, where):
    try:
        groups = re.compile(text).groups
    except re.error as e:
        raise SpecError(where, f"not a regular expression: {e}") from None
    _expect(groups == 1, where, f"expected exactly one group (the number), found {groups}")


def _statistics(raw):
    out = []
    for i, s in enumerate(raw.get("statistics", [])):
        where = pointer("statistics", i)
        _expect(isinstance(s, dict), where, "expected {\"path\": \"l2[*].hits\", \"reduce\": \"sum\"}")
        for key in s:
            _expect(key in ("name", "path", "log", "reduce"), pointer("statistics", i, key),
                    "unknown key (name, path, log, reduce)")
        _expect(("path" in s) != ("log" in s), where, "expected either \"path\" (a statistics path pattern, "
                "e.g. \"l2[*].hits\") or \"log\" (a regular expression over the run's output)")
        source = "path" if "path" in s else "log"
        text = s[source]
        _expect(isinstance(text, str) and text, pointer("statistics", i, source), "expected a non-empty string")
        if source == "log":
            _check_log_pattern(text, pointer("statistics", i, "log"))
        reduce = s.get("reduce", "sum")
        _expect(reduce in ("sum", "list"), pointer("statistics", i, "reduce"), "expected \"sum\" or \"list\"")
        name = s.get("name", text)
        _expect(isinstance(name, str) and name, pointer("statistics", i, "name"), "expected a non-empty string")
        out.append(Statistic(name, text if source == "path" else "", reduce, text if source == "log" else ""))
    names = [s.name for s in out]
    _expect(len(set(names)) == len(names), pointer("statistics"), "two statistics have the same name")
    return out
