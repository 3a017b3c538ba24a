"""The smoke experiment on a real Dask cluster (a dask-scheduler and two dask-worker
processes on 127.0.0.1) gives the local run's results; the cluster is stopped even
when the test fails."""
import json
import os
import shutil
import signal
import socket
import subprocess
import time
import unittest

import harness
from distributed import Client


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Cluster(unittest.TestCase):
    def start(self, *cmd):
        """A process in its own session, killed with all its children at cleanup."""
        log = open(os.path.join(self.tmp, f"{os.path.basename(cmd[0])}-{len(self.procs)}.log"), "w")
        p = subprocess.Popen(cmd, stdout=log, stderr=subprocess.STDOUT, start_new_session=True, cwd=self.tmp)
        self.procs.append(p)
        self.addCleanup(self.stop, p, log)
        return p

    @staticmethod
    def stop(p, log):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
            try:
                p.wait(timeout=10)
            except subprocess.TimeoutExpired:
                os.killpg(p.pid, signal.SIGKILL)
                p.wait()
        log.close()

    def setUp(self):
        harness.require_tessera(self)
        self.tmp = harness.temporary_directory(self)
        self.procs = []

    def start_cluster(self, *worker_commands):
        """A dask-scheduler on a free port and the given workers (commands without the
        address, which is appended); returns the address and the workers' addresses."""
        address = f"tcp://127.0.0.1:{free_port()}"
        self.start("dask-scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                   "--dashboard-address", "127.0.0.1:0")
        for cmd in worker_commands:
            self.start(*cmd, address)
        with Client(address, timeout=60) as client:
            client.wait_for_workers(len(worker_commands), timeout=60)
            return address, set(client.scheduler_info()["workers"])

    def test_smoke_through_a_scheduler_matches_the_local_run(self):
        worker = ("dask-worker", "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard")
        address, workers = self.start_cluster(worker, worker)
        self.assertEqual(len(workers), 2)

        remote = os.path.join(self.tmp, "remote")
        start = time.monotonic()
        p = harness.run("run", harness.SMOKE, "--out", remote, "--scheduler", address)
        harness.log(f"cluster: smoke through {address} in {time.monotonic() - start:.1f} s")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertIn(f"on 2 worker threads at {address}", p.stderr)
        used = set()
        for name in os.listdir(os.path.join(remote, "points")):
            if name.endswith(".json") and not name.endswith(".stats.json"):
                with open(os.path.join(remote, "points", name)) as f:
                    used.add(json.load(f)["worker"])
        self.assertEqual(used, workers)  # both workers ran points, and nothing else did

        local = os.path.join(self.tmp, "local")
        p = harness.run("run", harness.SMOKE, "--out", local, "--jobs", "2")
        self.assertEqual(p.returncode, 0, p.stderr)
        self.assertEqual(harness.read_csv(os.path.join(remote, "results.csv")),
                         harness.read_csv(os.path.join(local, "results.csv")))

    def test_a_worker_with_another_binary_is_refused(self):
        """A worker whose file at the binary's path differs (here: a copy with one more byte,
        mounted over it in the worker's own mount namespace) stops the run before any point."""
        if os.geteuid() != 0 or not shutil.which("unshare"):
            self.skipTest("needs root and unshare(1) to give a worker another file at the same path")
        other = os.path.join(self.tmp, "other-tessera")
        shutil.copy(harness.TESSERA, other)
        with open(other, "ab") as f:
            f.write(b"\0")
        worker = ("unshare", "-m", "sh", "-c", 'mount --bind "$1" "$2" && exec dask-worker --nthreads 1 '
                  '--host 127.0.0.1 --no-dashboard "$3"', "sh", other, os.path.realpath(harness.TESSERA))
        address, workers = self.start_cluster(worker)
        out = os.path.join(self.tmp, "out")
        p = harness.run("run", harness.SMOKE, "--out", out, "--scheduler", address)
        self.assertEqual(p.returncode, 2, p.stderr)
        self.assertIn(f"worker {next(iter(workers))} ", p.stderr)
        self.assertIn("workers need the same build at the same path", p.stderr)
        self.assertEqual(os.listdir(os.path.join(out, "points")), [])


if __name__ == "__main__":
    unittest.main()
