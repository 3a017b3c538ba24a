"""Bad experiment files are refused with the JSON path at fault, before any point runs;
a directory the runner did not make is never written to."""
import copy
import json
import os
import subprocess
import sys
import unittest

import harness

sys.path.insert(0, os.path.join(harness.ROOT, "scripts"))
from tessera_experiment import checks, points, spec, table  # noqa: E402
from tessera_experiment.spec import Statistic  # noqa: E402


def mutate(change):
    data = harness.smoke_data()
    change(data)
    return data


def set_path(*keys, value):
    def change(data):
        node = data
        for k in keys[:-1]:
            node = node[k]
        node[keys[-1]] = value
    return change


BW = "dram[*].bandwidth"
# (what is wrong, the file's content, the text the error must hold: path and reason)
CASES = [
    ("malformed JSON", '{"name": "smoke", "netlists": [', "/: malformed JSON at line 1, column 32: Expecting value"),
    ("a key given twice", '{"name": "smoke", "designs": {"a": {}, "a": {}}}', '/: the key "a" appears twice'),
    ("unknown design parameter", mutate(set_path("designs", "few_l2_mshrs", "set", value={"l2[*].sise": "16 KiB"})),
     "/designs/few_l2_mshrs/set/l2[*].sise: l2[*].sise=16 KiB on "),
    ("unknown swept parameter", mutate(set_path("sweep", "parameters", value={"dram[*].bandwith": ["8 GB/s"]})),
     "/sweep/parameters/dram[*].bandwith/0: dram[*].bandwith=8 GB/s on "),
    ("empty sweep", mutate(set_path("sweep", "parameters", value={})), "/sweep/parameters: empty sweep"),
    ("sweep with no values", mutate(set_path("sweep", "parameters", BW, "values", value=[])),
     "/sweep/parameters/dram[*].bandwidth/values: empty sweep: no values"),
    ("missing workloads", mutate(lambda d: d.pop("workloads")), "/workloads: missing"),
    ("unknown workload", mutate(set_path("workloads", 1, "name", value="sgemm17")),
     "/workloads/1/name: unknown workload \"sgemm17\""),
    ("workload without sizes", mutate(lambda d: d["workloads"][2].pop("sizes")), "/workloads/2/sizes: missing"),
    ("unknown unit of a sweep", mutate(set_path("sweep", "parameters", BW, "unit", value="GB/sec")),
     "/sweep/parameters/dram[*].bandwidth/unit: unknown unit \"GB/sec\""),
    ("unknown unit in a value", mutate(set_path("designs", "few_l2_mshrs", "set", value={"l2[*].size": "16 KBytes"})),
     "/designs/few_l2_mshrs/set/l2[*].size: unknown unit \"KBytes\""),
    ("values of different kinds", mutate(set_path("sweep", "parameters", value={BW: ["8 GB/s", "1 GHz"]})),
     "/sweep/parameters/dram[*].bandwidth: values of different kinds in one sweep (bandwidth, frequency)"),
    ("a unit the parameter does not take", mutate(set_path("designs", "few_l2_mshrs", "set",
                                                            value={"l2[*].size": "1 GHz"})),
     "/designs/few_l2_mshrs/set/l2[*].size: l2[*].size=1 GHz on "),
    ("unknown baseline", mutate(set_path("baseline", value="base")), "/baseline: expected one of the designs"),
    ("design and sweep set one parameter", mutate(set_path("designs", "few_l2_mshrs", "set", value={BW: "8 GB/s"})),
     "/designs/few_l2_mshrs/set/dram[*].bandwidth: this parameter is also swept"),
    ("zipped sweep of unequal lengths", mutate(lambda d: d["sweep"].update(
        mode="zip", parameters={BW: ["8 GB/s", "16 GB/s"], "l2[*].size": ["16 KiB"]})),
     "/sweep/parameters: a zipped sweep needs the same number of values"),
    ("a design on a netlist the experiment does not name",
     mutate(set_path("designs", "few_l2_mshrs", "netlists", value=["r9_nano"])),
     "/designs/few_l2_mshrs/netlists/0: expected the file name (without .json) of one of the netlists (small_gpu)"),
    ("the baseline on some netlists only", mutate(set_path("designs", "baseline", "netlists", value=["small_gpu"])),
     "/designs/baseline/netlists: the baseline design runs on every netlist"),
    ("unknown key", mutate(set_path("repeat", value=2)), "/repeat: unknown key"),
    ("a log statistic without a group", mutate(set_path("statistics", 0, value={"log": "cycles \\d+"})),
     "/statistics/0/log: expected exactly one group (the number), found 0"),
    ("a statistic with a path and a log", mutate(set_path("statistics", 0, value={"path": "a", "log": "(1)"})),
     "/statistics/0: expected either \"path\""),
]


class BadFiles(unittest.TestCase):
    def test_each_bad_file_names_its_path_before_anything_runs(self):
        harness.require_tessera(self)
        tmp = harness.temporary_directory(self)
        for what, content, expected in CASES:
            with self.subTest(what):
                path = harness.write_experiment(tmp, content if isinstance(content, str) else copy.deepcopy(content))
                out = os.path.join(tmp, "out")
                p = harness.run("run", path, "--out", out)
                self.assertEqual(p.returncode, 3, p.stderr)
                self.assertIn(f"experiment: {path}: {expected}", p.stderr)
                self.assertFalse(os.path.exists(out), "the output directory was made before the file was checked")

    def test_a_directory_it_did_not_make_is_left_alone(self):
        harness.require_tessera(self)
        tmp = harness.temporary_directory(self)
        mine = os.path.join(tmp, "results.csv")
        with open(mine, "w") as f:
            f.write("someone else's table\n")
        p = harness.run("run", harness.SMOKE, "--out", tmp)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn("was not made by scripts/experiment", p.stderr)
        self.assertEqual(sorted(os.listdir(tmp)), ["results.csv"])
        with open(mine) as f:
            self.assertEqual(f.read(), "someone else's table\n")

    def test_a_trace_needs_a_tessera_that_writes_one(self):
        """Without `workload --trace` in the binary, "trace": true is refused before anything runs;
        with it, a traced point keeps a trace that parses as JSON."""
        harness.require_tessera(self)
        tmp = harness.temporary_directory(self)
        data = harness.smoke_data()
        data["trace"] = True
        path = harness.write_experiment(tmp, data)
        out = os.path.join(tmp, "out")
        help_text = subprocess.run([harness.TESSERA, "workload", "--help"], capture_output=True, text=True).stdout
        p = harness.run("run", path, "--out", out, "--jobs", "1", "--only", "small_gpu/baseline/vector_add/*=8 GB/s")
        if "--trace" not in help_text:
            self.assertEqual(p.returncode, 3, p.stderr)
            self.assertIn(f"experiment: {path}: /trace: this tessera binary has no `workload --trace` option", p.stderr)
            self.assertFalse(os.path.exists(out))
            return
        self.assertEqual(p.returncode, 0, p.stderr)
        traces = [n for n in os.listdir(os.path.join(out, "points")) if n.endswith(".trace.json")]
        self.assertEqual(len(traces), 1)
        with open(os.path.join(out, "points", traces[0])) as f:
            json.load(f)

    def test_status_and_report_refuse_a_directory_without_results(self):
        tmp = harness.temporary_directory(self)
        for command in ("status", "report"):
            p = harness.run(command, tmp)
            self.assertEqual(p.returncode, 2, p.stderr)
            self.assertIn("holds no experiment results", p.stderr)
        self.assertEqual(os.listdir(tmp), [])


class DesignNetlists(unittest.TestCase):
    def test_a_design_runs_only_on_its_own_netlists(self):
        data = harness.smoke_data()
        small_gpu = data["netlists"][0]
        data["netlists"].append(os.path.join(os.path.dirname(small_gpu), "r9_nano.json"))
        data["designs"]["few_l2_mshrs"]["netlists"] = ["r9_nano"]
        exp = spec.from_json(data, harness.SMOKE)
        identity = {"version": "test", "sha256": "0"}
        names = {(p.netlist_name(), p.design) for p in points.expand(exp, identity)}
        self.assertEqual(names, {("small_gpu", "baseline"), ("r9_nano", "baseline"), ("r9_nano", "few_l2_mshrs")})
        self.assertEqual(exp.point_count(), len(points.expand(exp, identity)))


class OverridesJudgedTogether(unittest.TestCase):
    """A design's overrides are judged together: some are valid only with another."""

    def check(self, overrides):
        harness.require_tessera(self)
        data = harness.smoke_data()
        data["designs"]["few_l2_mshrs"]["set"] = overrides
        checks.check(spec.from_json(data, harness.SMOKE), harness.TESSERA)

    def test_a_smaller_line_with_the_requests_made_smaller(self):
        self.check({"l1v[*].line_size": "32 B", "cu[*].vmem_line": "32 B"})  # raises nothing

    def test_the_override_refused_alone_is_named(self):
        with self.assertRaisesRegex(spec.SpecError, r"^/designs/few_l2_mshrs/set/l1v\[\*\]\.line_size: "
                                    r"l1v\[\*\]\.line_size=32 B on .*vmem_line"):
            self.check({"cu[*].vmem_line": "64 B", "l1v[*].line_size": "32 B"})

    def test_a_reason_no_override_has_alone_is_the_designs(self):
        # l2[*].line_size=32 B alone is refused for the vector L1s' 64 B requests; with
        # them made 32 B, for the scalar caches' 64 B lines: the design's reason, not one override's.
        with self.assertRaisesRegex(spec.SpecError,
                                    r"^/designs/few_l2_mshrs: with dram\[\*\]\.bandwidth=8 GB/s on .*sqc_scalar"):
            self.check({"l1v[*].line_size": "32 B", "cu[*].vmem_line": "32 B", "l2[*].line_size": "32 B"})


class DesignsTaken(unittest.TestCase):
    """A design written {"from": FILE} is FILE's design of the same name."""

    def setUp(self):
        self.tmp = harness.temporary_directory(self)
        data = harness.smoke_data()
        data["designs"]["few_l2_mshrs"]["description"] = "the other file's"
        harness.write_experiment(self.tmp, data, name="defines.json")
        harness.write_experiment(self.tmp, {"designs": {"baseline": {}}}, name="takes_other.json")
        harness.write_experiment(self.tmp, {"designs": {"few_l2_mshrs": {"from": "defines.json"}}},
                                 name="chained.json")

    def taking(self, design):
        data = harness.smoke_data()
        data["designs"]["few_l2_mshrs"] = design
        return spec.from_json(data, os.path.join(self.tmp, "takes.json"))

    def test_the_design_and_its_description_come_from_the_file(self):
        exp = self.taking({"from": "defines.json", "netlists": ["small_gpu"]})
        defined = harness.smoke_data()["designs"]["few_l2_mshrs"]["set"]
        self.assertEqual(exp.designs["few_l2_mshrs"], [(p, str(v)) for p, v in defined.items()])
        self.assertEqual(exp.raw["designs"]["few_l2_mshrs"]["description"], "the other file's")
        self.assertNotIn("from", exp.raw["designs"]["few_l2_mshrs"])  # a run's manifest stands alone
        self.assertEqual(exp.design_netlists["few_l2_mshrs"], {"small_gpu"})

    def test_mistakes_name_the_design(self):
        where = "/designs/few_l2_mshrs"
        for design, message in [
                ({"from": "nowhere.json"}, f"{where}/from: .*nowhere.json: cannot read the experiment file"),
                ({"from": "defines.json", "set": {}}, f"{where}/set: a design taken from another file has only"),
                ({"from": ""}, f"{where}/from: expected the path of an experiment file"),
                ({"from": "takes_other.json"},
                 f"{where}/from: .*takes_other.json has no design named \"few_l2_mshrs\""),
                ({"from": "chained.json"}, f"{where}/from: .*chained.json takes its design \"few_l2_mshrs\" from "
                                           "another file too")]:
            with self.subTest(design=design):
                with self.assertRaisesRegex(spec.SpecError, message):
                    self.taking(design)


class Sweeps(unittest.TestCase):
    def sweep_points(self, mode, parameters):
        data = harness.smoke_data()
        data["sweep"] = {"mode": mode, "parameters": parameters}
        return spec.from_json(data, harness.SMOKE).sweep_points()

    def test_cartesian_and_zip(self):
        parameters = {"a": [1, 2], "b": {"values": [8, 16], "unit": "GB/s"}}
        self.assertEqual(self.sweep_points("cartesian", parameters),
                         [[("a", "1"), ("b", "8 GB/s")], [("a", "1"), ("b", "16 GB/s")],
                          [("a", "2"), ("b", "8 GB/s")], [("a", "2"), ("b", "16 GB/s")]])
        self.assertEqual(self.sweep_points("zip", parameters),
                         [[("a", "1"), ("b", "8 GB/s")], [("a", "2"), ("b", "16 GB/s")]])

    def test_values_keep_their_text(self):
        self.assertEqual(self.sweep_points("cartesian", {"dram[*].scheduler": ["fcfs", "frfcfs"]}),
                         [[("dram[*].scheduler", "fcfs")], [("dram[*].scheduler", "frfcfs")]])
        self.assertEqual(self.sweep_points("zip", {"a": [1.5, 2], "b": ["16 KiB", "1 MiB"]}),
                         [[("a", "1.5"), ("b", "16 KiB")], [("a", "2"), ("b", "1 MiB")]])
        with self.assertRaisesRegex(spec.SpecError, r"values of different kinds in one sweep \(number, text\)"):
            self.sweep_points("zip", {"a": [1, "fcfs"]})


class StatisticPatterns(unittest.TestCase):
    def test_patterns_match_whole_names(self):
        rx = table.pattern_regex("l2[*].hits")
        self.assertTrue(rx.match("l2[0].hits"))
        self.assertTrue(rx.match("l2[13].hits"))
        self.assertFalse(rx.match("l2[0].hits_dirty"))
        self.assertFalse(rx.match("chiplet[0].l2[0].hits"))
        self.assertTrue(table.pattern_regex("**.l2[*].hits").match("chiplet[1].l2[0].hits"))
        self.assertTrue(table.pattern_regex("cu[*].stall_*").match("cu[3].stall_lds"))
        self.assertFalse(table.pattern_regex("cu[*].stall_*").match("cu[3].stall.lds"))

    def test_sum_and_list(self):
        stats = {"l2[0]": {"hits": 3, "misses": 1}, "l2[1]": {"hits": 4}, "timing_device": {
            "launch_log": [{"cycles": 10}, {"cycles": 20}]}}
        self.assertEqual(table.reduce_values(table.collect(stats, Statistic("h", "l2[*].hits", "sum")), "sum"), "7")
        self.assertEqual(table.reduce_values(table.collect(stats, Statistic("h", "l2[*].hits", "list")), "list"), "3;4")
        self.assertEqual(table.reduce_values(table.collect(
            stats, Statistic("c", "timing_device.launch_log[*].cycles", "sum")), "sum"), "30")
        self.assertEqual(table.reduce_values(table.collect(stats, Statistic("x", "l3[*].hits", "sum")), "sum"), "")

    def test_log_statistics(self):
        output = "(acquire 10, kernel 5)\n(acquire 32, kernel 7)\n"
        acquire = Statistic("a", "", "sum", r"\(acquire (\d+),")
        self.assertEqual(table.reduce_values(table.collect(None, acquire, output), "sum"), "42")
        self.assertEqual(table.reduce_values(table.collect(None, acquire, output), "list"), "10;32")
        self.assertEqual(table.reduce_values(table.collect(None, acquire, "nothing"), "sum"), "")


if __name__ == "__main__":
    unittest.main()
