"""The smoke experiment on a real Dask cluster (a dask-scheduler and two dask-worker
processes on 127.0.0.1) gives the local run's results; the cluster is stopped even
when the test fails."""
import json
import os
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

    def test_smoke_through_a_scheduler_matches_the_local_run(self):
        harness.require_tessera(self)
        self.tmp = harness.temporary_directory(self)
        self.procs = []
        address = f"tcp://127.0.0.1:{free_port()}"
        self.start("dask-scheduler", "--host", "127.0.0.1", "--port", address.rsplit(":", 1)[1],
                   "--dashboard-address", "127.0.0.1:0")
        for _ in range(2):
            self.start("dask-worker", address, "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard")
        with Client(address, timeout=60) as client:
            client.wait_for_workers(2, timeout=60)
            workers = set(client.scheduler_info()["workers"])
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


if __name__ == "__main__":
    unittest.main()
