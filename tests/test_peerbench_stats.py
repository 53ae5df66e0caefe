#!/usr/bin/env python3
"""tests/test_peerbench_stats.py: ci/peerbench_stats.py, the pure parts
of ci/peerbench.py: the Mann-Whitney U test against scipy's values, each
procedure's decision rule, the parsers of hyperfine's and compare.py's
outputs, the tally, the table and the target; and that the Google
Benchmark harness (ci/peerbench/toy_bench.cc) does the toy's work
(tests/kernels/toy.c's churn and busy). Run by tests/test_peerbench.c;
alone: python3 tests/test_peerbench_stats.py. Nothing is timed."""

import os
import re
import sys
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "ci"))

import peerbench_stats as stats  # noqa: E402

# (A, B, U of A, two-sided p): p and U from scipy 1.10.1's
# scipy.stats.mannwhitneyu(A, B) (method "auto", continuity correction),
# computed once with Debian bookworm's python3-scipy. exact_4_4_apart is
# also the textbook value 2 / C(8, 4) = 2/70.
SCIPY_CASES = {
    "exact_5_6": ([1.1, 2.3, 3.0, 4.8, 5.2], [2.0, 4.1, 6.3, 7.7, 8.4, 9.9],
                  6.0, 0.12554112554112554),
    "exact_4_4_apart": ([1, 2, 3, 4], [5, 6, 7, 8], 0.0, 0.02857142857142857),
    "exact_3_20": ([10.5, 12.25, 30.0], [float(i) for i in range(1, 21)],
                   42.0, 0.3094297007340485),
    "normal_9_9": ([1.2, 3.4, 2.2, 5.1, 0.7, 4.4, 6.6, 2.9, 3.3],
                   [4.0, 5.5, 6.1, 7.2, 3.9, 8.8, 5.0, 9.1, 6.7], 10.0, 0.008071487425268009),
    "normal_ties_10_12": ([1, 2, 2, 3, 3, 3, 4, 5, 5, 6],
                          [2, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8], 25.5, 0.02359080826813771),
    "ties_small_5_5": ([1, 2, 2, 3, 4], [2, 3, 4, 5, 5], 5.0, 0.13509906945732134),
    "all_equal_3_3": ([1, 1, 1], [1, 1, 1], 4.5, 1.0),
}

# compare.py's `--no-color benchmarks A.json B.json` output (Google
# Benchmark 1.7.1, Debian's libbenchmark-tools), per-repetition rows cut
COMPARE_OUTPUT = """Comparing A.json to B.json
Benchmark                                 Time             CPU      Time Old      Time New       CPU Old       CPU New
----------------------------------------------------------------------------------------------------------------------
toy_single_small                       +0.2226         +0.2056       2108312       2577651       1266652       1527106
toy_single_small_pvalue                 0.0411          0.3939      U Test, Repetitions: 6 vs 6. WARNING: Results unreliable! 9+ repetitions recommended.
toy_single_small_mean                  -0.2819         +0.0342       2444860       1755699       1325898       1371278
toy_single_small_median                -0.2054         +0.0740       2040851       1621624       1283317       1378318
OVERALL_GEOMEAN                        -0.2607         +0.0342             0             0             0             0
"""


class MannWhitney(unittest.TestCase):
    def test_matches_scipy(self):
        for name, (a, b, u, p) in SCIPY_CASES.items():
            got_u, got_p = stats.mann_whitney(a, b)
            self.assertEqual(got_u, u, name)
            self.assertAlmostEqual(got_p, p, places=12, msg=name)

    def test_symmetric_in_its_sides(self):
        for name, (a, b, _, p) in SCIPY_CASES.items():
            self.assertAlmostEqual(stats.mann_whitney(b, a)[1], p, places=12, msg=name)

    def test_u_counts_are_the_arrangements(self):
        # C(7, 3) = 35 arrangements, U from 0 to 12, symmetric
        counts = stats.u_counts(3, 4)
        self.assertEqual(sum(counts), 35)
        self.assertEqual(counts, counts[::-1])
        self.assertEqual(counts[:4], [1, 1, 2, 3])

    def test_ranks_average_ties(self):
        self.assertEqual(stats.ranks([3, 1, 3, 2]), [3.5, 1.0, 3.5, 2.0])

    def test_an_empty_side_decides_nothing(self):
        self.assertEqual(stats.mann_whitney([], [1, 2])[1], 1.0)


class Decisions(unittest.TestCase):
    apart_a, apart_b = [1.0, 1.1, 1.2, 1.3], [2.0, 2.1, 2.2, 2.3]

    def test_rank_verdict(self):
        self.assertEqual(stats.rank_verdict(self.apart_a, self.apart_b, stats.median), "slower")
        self.assertEqual(stats.rank_verdict(self.apart_b, self.apart_a, stats.mean), "faster")
        # 3 vs 3 apart: exact p = 2/20, not below 0.05
        self.assertEqual(stats.rank_verdict([1, 2, 3], [4, 5, 6], stats.mean), "same")
        self.assertEqual(stats.rank_verdict([1], [2], stats.mean), "error")

    def test_direction_by_the_procedures_center(self):
        # significant (8 vs 8, U = 8: exact p = 0.0104); the center picks
        # the side: A's one outlier moves its mean, not its median
        a = [1.0, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1000.0]
        b = [2.0, 2.1, 2.2, 2.3, 2.4, 2.5, 2.6, 2.7]
        self.assertEqual(stats.rank_verdict(a, b, stats.median), "slower")
        self.assertEqual(stats.rank_verdict(a, b, stats.mean), "faster")

    def test_hyperfine(self):
        doc = {"results": [{"mean": 1.15, "times": self.apart_a},
                           {"mean": 2.15, "times": self.apart_b}]}
        self.assertEqual(stats.hyperfine_samples(doc), (self.apart_a, self.apart_b))
        self.assertEqual(stats.hyperfine_verdict(doc), "slower")

    def test_compare_py(self):
        fields = stats.compare_py_lines(COMPARE_OUTPUT, "toy_single_small")
        self.assertEqual(fields, {"pvalue": [0.0411, 0.3939], "mean": [-0.2819, 0.0342]})
        self.assertEqual(stats.compare_py_verdict(COMPARE_OUTPUT, "toy_single_small"), "faster")
        slower = COMPARE_OUTPUT.replace("-0.2819", "+0.0100")
        self.assertEqual(stats.compare_py_verdict(slower, "toy_single_small"), "slower")
        same = COMPARE_OUTPUT.replace("0.0411", "0.0500")
        self.assertEqual(stats.compare_py_verdict(same, "toy_single_small"), "same")
        self.assertEqual(stats.compare_py_verdict(COMPARE_OUTPUT, "other_bench"), "error")

    def test_gate(self):
        def result(*verdicts):
            return {"series": [{"class": "timing", "verdict": v} for v in verdicts] +
                    [{"class": "exact", "verdict": "fail"}]}
        self.assertEqual(stats.gate_verdict(1, result("pass", "fail")), "slower")
        self.assertEqual(stats.gate_verdict(1, result("pass")), "other")
        self.assertEqual(stats.gate_verdict(0, result("improved", "pass")), "faster")
        self.assertEqual(stats.gate_verdict(0, result("pass", "inconclusive")), "same")
        self.assertEqual(stats.gate_verdict(2, result("pass")), "error")
        self.assertEqual(stats.gate_verdict(0, None), "error")

    def test_runs_for_budget(self):
        self.assertEqual(stats.runs_for_budget(10, 0.04, 0.06, 4), 100)
        self.assertEqual(stats.runs_for_budget(1, 0.5, 0.5, 4), 4)


def tally_of(spec):
    """A tally from {key: {case: (slower, faster, other, same, seconds)}}."""
    tally = {}
    for key, cases in spec.items():
        for case, (slower, faster, other, same, secs) in cases.items():
            for verdict, n in (("slower", slower), ("faster", faster), ("other", other),
                               ("same", same)):
                for _ in range(n):
                    stats.tally_add(tally, key, case, verdict, secs)
    return tally


# gate ab meets the target at 8 s with no false alarm; hyperfine at its
# 16 s budget (18 s measured) with 1 of 20; benchstat never reaches 90%
SPEC = {
    ("gate", None): {"null": (0, 1, 0, 19, 8.0), "3": (19, 0, 0, 1, 8.0)},
    ("hyperfine", 4.0): {"null": (1, 1, 0, 18, 4.5), "3": (12, 0, 0, 8, 4.5)},
    ("hyperfine", 16.0): {"null": (1, 0, 0, 19, 18.0), "3": (18, 0, 0, 2, 18.0)},
    ("benchstat", 16.0): {"null": (0, 0, 0, 20, 17.0), "3": (10, 0, 0, 10, 17.0)},
}


class Table(unittest.TestCase):
    def test_rates(self):
        tally = tally_of(SPEC)
        self.assertEqual(stats.alarm_rate(tally[("hyperfine", 4.0)]["null"]), 0.05)
        self.assertEqual(stats.detection_rate(tally[("gate", None)]["3"]), 0.95)
        self.assertEqual(stats.seconds_per_decision(tally[("hyperfine", 16.0)]), 18.0)

    def test_budget_needed(self):
        tally = tally_of(SPEC)
        self.assertEqual(stats.budget_needed(tally, "gate", "3"), (None, 8.0))
        self.assertEqual(stats.budget_needed(tally, "hyperfine", "3"), (16.0, 18.0))
        self.assertIsNone(stats.budget_needed(tally, "benchstat", "3"))
        self.assertEqual(stats.best_peer(tally, "3", ["hyperfine", "benchstat"]),
                         ("hyperfine", 16.0, 18.0))

    def test_rows(self):
        tally = tally_of(SPEC)
        keys = list(SPEC)
        lines = stats.table_lines(tally, keys, ["null", "3"], {("hyperfine", 4.0): 40})
        self.assertTrue(lines[0].startswith("procedure"), lines[0])
        self.assertEqual(len(lines), 1 + 2 * len(keys))
        self.assertIn("gate ab                    - unchanged     20      0      1     0     0"
                      "      8.0       -  0% false alarms", lines)
        self.assertIn("hyperfine @4s             40 +3%           20     12      0     0     0"
                      "      4.5       -  60% detected", lines)
        stats.tally_add(tally, ("gate", None), "3", "slower", 8.0, 0.061)
        stats.tally_add(tally, ("gate", None), "3", "slower", 8.0, 0.055)
        stats.tally_add(tally, ("gate", None), "3", "slower", 8.0, 0.058)
        lines = stats.table_lines(tally, keys, ["3"], {})
        self.assertIn("gate ab                    - +3%           23     22      0     0     0"
                      "      8.0   +5.8%  96% detected", lines)

    def test_changes(self):
        doc = {"results": [{"times": [1.0, 1.0, 1.0]}, {"times": [1.1, 1.1, 1.1]}]}
        self.assertAlmostEqual(stats.hyperfine_change(doc), 0.1)
        self.assertAlmostEqual(stats.ratio_change([2, 3, 4], [3, 3, 9], stats.median), 0.0)
        self.assertIsNone(stats.ratio_change([0, 0], [1, 1], stats.median))
        result = {"series": [{"variant": "twice", "params": "small", "metric": "wall_ns",
                              "change": 0.07},
                             {"variant": "single", "params": "small", "metric": "wall_ns",
                              "change": 0.05}]}
        self.assertEqual(stats.gate_change(result, "single", "small"), 0.05)
        self.assertIsNone(stats.gate_change(None, "single", "small"))

    def test_needed(self):
        lines = stats.needed_lines(tally_of(SPEC), ["gate", "hyperfine", "benchstat"], ["3"])
        self.assertEqual(lines[2].split(), ["gate", "ab", "8.0", "s"])
        self.assertEqual(lines[3].split(), ["hyperfine", "18.0", "s", "@16s"])
        self.assertEqual(lines[4].split(), ["benchstat-style", "-"])

    def test_target(self):
        peers = ["hyperfine", "benchstat"]
        line = stats.target_line(tally_of(SPEC), peers, "3")
        self.assertTrue(line.startswith("target (+3%): met: gate ab 8.0 s"), line)
        slow = dict(SPEC)
        slow[("gate", None)] = {"null": (0, 0, 0, 20, 9.5), "3": (19, 0, 0, 1, 9.5)}
        line = stats.target_line(tally_of(slow), peers, "3")
        self.assertTrue(line.startswith("target (+3%): not met: gate ab 9.5 s"), line)
        alarms = dict(SPEC)
        alarms[("gate", None)] = {"null": (1, 0, 1, 18, 5.0), "3": (20, 0, 0, 0, 5.0)}
        line = stats.target_line(tally_of(alarms), peers, "3")
        self.assertTrue(line.startswith("target (+3%): not met: gate ab does not reach"), line)

    def test_target_when_no_peer_reaches_it(self):
        # benchstat alone: its 17 s never reached 90%
        spec = {k: v for k, v in SPEC.items() if k[0] != "hyperfine"}
        line = stats.target_line(tally_of(spec), ["benchstat"], "3")
        self.assertTrue(line.startswith("target (+3%): met: no peer reached it within 17.0 s"),
                        line)
        spec[("gate", None)] = {"null": (0, 0, 0, 20, 9.0), "3": (20, 0, 0, 0, 9.0)}
        line = stats.target_line(tally_of(spec), ["benchstat"], "3")
        self.assertTrue(line.startswith("target (+3%): undecided"), line)


class Harness(unittest.TestCase):
    def test_does_the_toys_work(self):
        with open(os.path.join(ROOT, "tests", "kernels", "toy.c")) as f:
            toy = f.read()
        with open(os.path.join(ROOT, "ci", "peerbench", "toy_bench.cc")) as f:
            harness = f.read()
        # churn() and busy() are one header's, included by both
        self.assertIn('#include "toy_work.h"', toy)
        self.assertIn('#include "../../tests/kernels/toy_work.h"', harness)
        for signature in ("churn(", "busy("):
            self.assertNotIn("static unsigned long long " + signature, harness)
            self.assertNotIn("static void " + signature, harness)
        # the extra work is computed as the toy's run() does
        rule = re.compile(r"\(long long\)\(9\.0 \* \(double\)ops \*\s+"
                          r"env_double\(\"TOY_SLOWDOWN_PERCENT\"\) / 100\.0\)")
        self.assertTrue(rule.search(toy) and rule.search(harness))


if __name__ == "__main__":
    unittest.main()
