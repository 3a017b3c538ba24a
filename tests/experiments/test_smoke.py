"""The smoke experiment end to end: outputs, a second run that runs nothing, a run
killed with SIGKILL while points are in flight and resumed, and a failing point."""
import fcntl
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
import unittest

import harness

COLUMNS = ["experiment", "netlist", "design", "workload", "size", "seed", "dram[*].bandwidth", "status",
           "outputs_match", "cycles", "wave_instructions", "wall_s", "sim_wave_instr_per_s", "l2_hits", "l2_misses",
           "dram_bytes_read_per_channel"]
POINTS = 18  # 2 designs x 3 bandwidths x 3 workloads


def point_files(out):
    d = os.path.join(out, "points")
    return sorted(n for n in os.listdir(d) if n.endswith(".json") and not n.endswith(".stats.json")) \
        if os.path.isdir(d) else []


class Smoke(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp(prefix="tessera-exp-test-")
        cls.out = os.path.join(cls.tmp, "whole")
        start = time.monotonic()
        cls.first = harness.run("run", harness.SMOKE, "--out", cls.out, "--jobs", "2")
        harness.log(f"smoke: uninterrupted run in {time.monotonic() - start:.1f} s")

    @classmethod
    def tearDownClass(cls):
        subprocess.run(["rm", "-rf", cls.tmp])

    def test_outputs(self):
        self.assertEqual(self.first.returncode, 0, self.first.stderr)
        self.assertEqual(harness.header(os.path.join(self.out, "results.csv")), COLUMNS)
        rows = harness.read_csv(os.path.join(self.out, "results.csv"), drop_host=False)
        self.assertEqual(len(rows), POINTS)
        for r in rows:
            self.assertEqual((r["status"], r["outputs_match"]), ("ok", "true"), r)
            self.assertGreater(int(r["cycles"]), 0)
            self.assertGreater(int(r["wave_instructions"]), 0)
            self.assertGreater(float(r["wall_s"]), 0)
            self.assertEqual(len(r["dram_bytes_read_per_channel"].split(";")), 2)  # small_gpu: 2 DRAM controllers
        self.assertEqual(len(point_files(self.out)), POINTS)
        for name in ["summary.md", "report.html", "plots/speedup.png", "plots/speedup.svg", "plots/sweep_cycles.png",
                     "plots/sweep_cycles.svg", "plots/stat_0.png", "plots/stat_1.svg"]:
            self.assertTrue(os.path.getsize(os.path.join(self.out, name)) > 0, name)
        with open(os.path.join(self.out, "report.html")) as f:
            page = f.read()
        self.assertEqual(page.count("src=\"data:image/png;base64,"), 4)  # offline: every image inline
        self.assertNotIn("http", page)
        with open(os.path.join(self.out, "summary.md")) as f:
            summary = f.read()
        self.assertIn("| **geometric mean** |", summary)
        self.assertIn("## Failures\n\nNone.", summary)

    def test_results_follow_the_parameters(self):
        """The swept and designed parameters reach the simulation: less bandwidth, more cycles;
        fewer L2 MSHRs, more cycles for a streaming kernel."""
        rows = harness.read_csv(os.path.join(self.out, "results.csv"))
        cycles = {(r["design"], r["workload"], r["dram[*].bandwidth"]): int(r["cycles"]) for r in rows}
        for design in ("baseline", "few_l2_mshrs"):
            self.assertGreater(cycles[(design, "vector_add", "8 GB/s")], cycles[(design, "vector_add", "32 GB/s")])
        self.assertGreater(cycles[("few_l2_mshrs", "vector_add", "32 GB/s")],
                           cycles[("baseline", "vector_add", "32 GB/s")])

    def test_a_second_run_runs_nothing(self):
        with open(os.path.join(self.out, "results.csv")) as f:
            table_before = f.read()
        before = {n: os.stat(os.path.join(self.out, "points", n)).st_mtime_ns for n in point_files(self.out)}
        p = harness.run("run", harness.SMOKE, "--out", self.out, "--jobs", "2")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"{POINTS} points selected, {POINTS} already finished, 0 to run", p.stderr)
        after = {n: os.stat(os.path.join(self.out, "points", n)).st_mtime_ns for n in point_files(self.out)}
        self.assertEqual(before, after)
        with open(os.path.join(self.out, "results.csv")) as f:
            self.assertEqual(f.read(), table_before)  # the same records: even the wall times
        s = harness.run("status", self.out)
        self.assertEqual(s.returncode, 0, s.stderr)
        self.assertIn(f"smoke: {POINTS} points: {POINTS} ok", s.stdout)

    def test_one_run_at_a_time_in_a_directory(self):
        with open(os.path.join(self.out, ".lock"), "w") as held:
            fcntl.flock(held, fcntl.LOCK_EX)  # as a run in progress holds it
            for args in (("run", harness.SMOKE, "--out", self.out), ("report", self.out)):
                p = harness.run(*args)
                self.assertEqual(p.returncode, 2, p.stderr)
                self.assertIn(f"another scripts/experiment is using {self.out}; wait for it to end", p.stderr)

    def test_killed_and_resumed_gives_the_same_table(self):
        out = os.path.join(self.tmp, "killed")
        cmd = [harness.EXPERIMENT, "run", harness.SMOKE, "--out", out, "--jobs", "2", "--tessera", harness.TESSERA]
        runner = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                  start_new_session=True)
        deadline = time.monotonic() + 300
        while len(point_files(out)) < 4 and runner.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        os.killpg(runner.pid, signal.SIGKILL)  # the runner, its workers and the points in flight
        runner.wait()
        runner.stderr.close()
        done = len(point_files(out))
        harness.log(f"smoke: killed with {done} of {POINTS} points written")
        self.assertGreaterEqual(done, 4)
        self.assertLess(done, POINTS, "the run finished before it could be killed")
        p = harness.run("run", harness.SMOKE, "--out", out, "--jobs", "2")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"{done} already finished, {POINTS - done} to run", p.stderr)
        self.assertEqual(harness.read_csv(os.path.join(out, "results.csv")),
                         harness.read_csv(os.path.join(self.out, "results.csv")))
        self.assertEqual([n for n in os.listdir(os.path.join(out, "points")) if n.startswith(".tmp-")], [])

    def stop_and_resume(self, name, stop):
        """Starts a run, calls stop(runner) once 2 points are written, checks that the runner
        exits 128 + the signal with the table of what finished, then resumes it."""
        out = os.path.join(self.tmp, name)
        cmd = [harness.EXPERIMENT, "run", harness.SMOKE, "--out", out, "--jobs", "2", "--tessera", harness.TESSERA]
        runner = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                                  start_new_session=True)
        self.addCleanup(lambda: os.killpg(runner.pid, signal.SIGKILL) if runner.poll() is None else None)
        deadline = time.monotonic() + 300
        while len(point_files(out)) < 2 and runner.poll() is None and time.monotonic() < deadline:
            time.sleep(0.02)
        signum = stop(runner)
        _, err = runner.communicate(timeout=120)
        self.assertEqual(runner.returncode, 128 + signum, err)
        self.assertIn(f"stopped by {signal.Signals(signum).name}; run again to finish the points left", err)
        self.assertNotIn("Traceback", err)
        done = len(point_files(out))
        self.assertLess(done, POINTS, "the run finished before it could be stopped")
        rows = harness.read_csv(os.path.join(out, "results.csv"))  # the table of what finished
        self.assertEqual(sum(r["status"] == "ok" for r in rows), done)  # nothing stopped counts as failed
        self.assertEqual(sum(r["status"] == "not_run" for r in rows), POINTS - done)
        p = harness.run("run", harness.SMOKE, "--out", out, "--jobs", "2")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"{done} already finished, {POINTS - done} to run", p.stderr)
        self.assertEqual(harness.read_csv(os.path.join(out, "results.csv")),
                         harness.read_csv(os.path.join(self.out, "results.csv")))

    def test_sigterm_stops_the_run_and_it_resumes(self):
        def terminate(runner):
            runner.send_signal(signal.SIGTERM)  # the runner alone, as `kill PID` would
            return signal.SIGTERM
        self.stop_and_resume("terminated", terminate)

    def test_ctrl_c_stops_the_run_and_it_resumes(self):
        def ctrl_c(runner):
            os.killpg(runner.pid, signal.SIGINT)  # the whole process group, as a terminal's Ctrl-C does
            return signal.SIGINT
        self.stop_and_resume("interrupted", ctrl_c)

    def test_a_changed_netlist_or_binary_runs_again(self):
        """One point, run three times: as it is, with the netlist changed (one more space), and
        with the binary changed (one more byte); the old records stay."""
        tmp = harness.temporary_directory(self)
        netlist = os.path.join(tmp, "small_gpu.json")
        binary = os.path.join(tmp, "tessera")
        shutil.copy(os.path.join(harness.ROOT, "json", "platforms", "small_gpu.json"), netlist)
        shutil.copy(harness.TESSERA, binary)
        data = {"name": "one", "netlists": [netlist], "designs": {"baseline": {}},
                "workloads": [{"name": "vector_add", "sizes": [1024]}]}
        path = harness.write_experiment(tmp, data)
        out = os.path.join(tmp, "out")

        def run_once(expect_to_run):
            p = subprocess.run([harness.EXPERIMENT, "run", path, "--out", out, "--jobs", "1", "--tessera", binary],
                               capture_output=True, text=True, timeout=300)
            self.assertEqual(p.returncode, 0, p.stderr)
            self.assertIn(f"1 points selected, {1 - expect_to_run} already finished, {expect_to_run} to run",
                          p.stderr)
        run_once(1)
        run_once(0)
        with open(netlist, "a") as f:
            f.write(" ")
        run_once(1)
        with open(binary, "ab") as f:
            f.write(b"\0")
        run_once(1)
        self.assertEqual(len(point_files(out)), 3)
        self.assertEqual(len(harness.read_csv(os.path.join(out, "results.csv"))), 1)

    def test_repeats_fold_into_one_row(self):
        tmp = harness.temporary_directory(self)
        data = harness.smoke_data()
        data.update(name="repeats", repeats=3, designs={"baseline": {}})
        data.pop("sweep")
        data["workloads"] = [{"name": "vector_add", "sizes": [1024]}]
        out = os.path.join(tmp, "out")
        p = harness.run("run", harness.write_experiment(tmp, data), "--out", out, "--jobs", "2")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(len(point_files(out)), 3)
        records = []
        for name in point_files(out):
            with open(os.path.join(out, "points", name)) as f:
                records.append(json.load(f))
        self.assertEqual(sorted(r["repeat"] for r in records), [0, 1, 2])
        self.assertEqual(len({r["cycles"] for r in records}), 1)  # deterministic
        rows = harness.read_csv(os.path.join(out, "results.csv"), drop_host=False)
        self.assertEqual(len(rows), 1)
        self.assertEqual((rows[0]["status"], rows[0]["cycles"]), ("ok", str(records[0]["cycles"])))
        walls = sorted(r["wall_s"] for r in records)
        self.assertEqual(rows[0]["wall_s"], f"{walls[1]:.3f}")  # the median of the three

    def test_wrong_output_is_recorded(self):
        """A firmware that skips the kernel-end write-back leaves the next kernel on the other
        chiplet reading stale data: the point is wrong_output, with the workload's reason."""
        tmp = harness.temporary_directory(self)
        data = {"name": "stale", "netlists": [os.path.join(harness.ROOT, "json", "platforms", "chiplet2_small.json")],
                "designs": {"baseline": {}, "skip_release": {"set": {"cp.debug_flags": 1}}},
                "workloads": [{"name": "producer_consumer", "sizes": [4096]}], "baseline": "baseline"}
        out = os.path.join(tmp, "out")
        p = harness.run("run", harness.write_experiment(tmp, data), "--out", out, "--jobs", "2")
        self.assertEqual(p.returncode, 1, p.stderr)
        rows = {r["design"]: r for r in harness.read_csv(os.path.join(out, "results.csv"))}
        self.assertEqual((rows["baseline"]["status"], rows["baseline"]["outputs_match"]), ("ok", "true"))
        self.assertEqual((rows["skip_release"]["status"], rows["skip_release"]["outputs_match"]),
                         ("wrong_output", "false"))
        with open(os.path.join(out, "summary.md")) as f:
            self.assertIn("producer_consumer: **wrong_output** (exit status 1): x1: ", f.read())

    def test_a_failing_point_is_recorded_and_the_run_goes_on(self):
        tmp = harness.temporary_directory(self)
        data = harness.smoke_data()
        data.update(name="hang", max_cycles=5000, designs={"baseline": {}})
        data.pop("sweep")
        data["workloads"] = [{"name": "vector_add", "sizes": [256, 65536]}]  # 3731 cycles, and far more
        out = os.path.join(tmp, "out")
        p = harness.run("run", harness.write_experiment(tmp, data), "--out", out, "--jobs", "2")
        self.assertEqual(p.returncode, 1, p.stderr)
        self.assertIn("1 cases failed", p.stderr)
        rows = {r["size"]: r for r in harness.read_csv(os.path.join(out, "results.csv"))}
        self.assertEqual(rows["256"]["status"], "ok")
        self.assertGreater(int(rows["256"]["cycles"]), 0)
        self.assertEqual((rows["65536"]["status"], rows["65536"]["cycles"]), ("hang", ""))
        with open(os.path.join(out, "summary.md")) as f:
            summary = f.read()
        self.assertIn("vector_add, size 65536: **hang** (exit status 1): ", summary)
        self.assertIn("not done within 5 us (hung?)", summary)
        s = harness.run("status", out)
        self.assertEqual(s.returncode, 1)
        self.assertIn("2 points: 1 hang, 1 ok", s.stdout)


if __name__ == "__main__":
    unittest.main()
