"""Every experiment file in json/experiments/ passes the checks `scripts/experiment run`
makes before its first point: the file's own rules, workloads this build knows, and each
netlist accepting each design's overrides (with every sweep point). A renamed workload or
parameter fails here instead of at the start of a long run."""
import glob
import os
import sys
import unittest

import harness

sys.path.insert(0, os.path.join(harness.ROOT, "scripts"))
from tessera_experiment import checks, spec  # noqa: E402

FILES = sorted(glob.glob(os.path.join(harness.ROOT, "json", "experiments", "*.json")))


class ShippedFiles(unittest.TestCase):
    def test_there_are_files(self):
        self.assertIn(harness.SMOKE, FILES)

    def test_every_file_passes_the_run_checks(self):
        for path in FILES:
            with self.subTest(file=os.path.basename(path)):
                try:
                    checks.check(spec.load(path), harness.TESSERA)
                except spec.SpecError as e:
                    self.fail(f"{os.path.relpath(path, harness.ROOT)}: {e}")

    def test_a_check_can_fail(self):
        exp = spec.load(harness.SMOKE)
        exp.workloads[0] = ("no_such_workload",) + tuple(exp.workloads[0][1:])
        with self.assertRaises(spec.SpecError) as caught:
            checks.check(exp, harness.TESSERA)
        self.assertIn('unknown workload "no_such_workload"', str(caught.exception))


if __name__ == "__main__":
    unittest.main()
