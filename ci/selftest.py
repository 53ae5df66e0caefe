#!/usr/bin/env python3
"""ci/selftest.py: the gate's detection benchmark.

Measures the two numbers a regression gate lives by, on this machine:
  - false alarms: unchanged reruns against a fresh baseline that fail;
  - detection: reruns with a known injected regression that fail on it.

It uses the test suite's toy kernel (tests/kernels/toy.c), whose knobs
inject extra work into the measured region (TOY_SLOWDOWN_PERCENT=N: N%
more malloc/touch/free rounds) or one extra malloc per operation
(TOY_EXTRA_ALLOC=1). Each trial records a baseline (--runs 3, as
--update-baseline does by default), then runs the gate once unchanged and
once per injected effect against it, and counts which runs exit 1 because
of the metric class under test. Standard library only.

  python3 ci/selftest.py [--trials 20] [--effects 2,5,10,20,50] [--min-effect 25]
                         [--tier quick] [--seed 1]

Build first (./gate --version builds). Prints a table and the runtime.
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GATE = os.path.join(ROOT, "build", "gate")
KERNELS = os.path.join(ROOT, "build", "tests", "kernels")


def gate(args, env_knob=None):
    """Runs build/gate on the toy kernel; returns (exit code, result JSON)."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as out:
        path = out.name
    cmd = [GATE, "run", "--kernel-dir", KERNELS, "--kernel", "toy", "--no-color",
           "--json", path] + args
    if env_knob:
        cmd += ["--env", env_knob]
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        with open(path) as f:
            result = json.load(f)
    except (OSError, ValueError):
        result = None
    os.unlink(path)
    return proc.returncode, result


def failed_classes(result):
    """Metric classes with a failing series in RESULT."""
    if not result:
        return set()
    return {s["class"] for s in result["series"] if s["verdict"] == "fail"}


def measured_change(result):
    """Change of toy/single task_clock_ns against the baseline, or None."""
    for s in (result or {}).get("series", []):
        if s["variant"] == "single" and s["metric"] == "task_clock_ns":
            return s["change"]
    return None


def trial(i, args, tally):
    with tempfile.TemporaryDirectory() as bdir:
        common = ["--baseline-dir", bdir, "--" + args.tier, "--seed", str(args.seed + i),
                  "--min-effect", str(args.min_effect)]
        code, _ = gate(common + ["--update-baseline", "--runs", "3"])
        if code != 0:
            tally["baseline errors"] = tally.get("baseline errors", 0) + 1
            return
        cases = [("null", None, None)]
        cases += [("+%s%% work" % e, "TOY_SLOWDOWN_PERCENT=%s" % e, "timing")
                  for e in args.effects]
        cases += [("+1 malloc/op", "TOY_EXTRA_ALLOC=1", "exact")]
        for name, knob, cls in cases:
            code, result = gate(common, knob)
            row = tally.setdefault(name, {"runs": 0, "exit1": 0, "hit": 0, "changes": []})
            row["runs"] += 1
            change = measured_change(result)
            if change is not None:
                row["changes"].append(change)
            row["exit1"] += code == 1
            if cls:
                row["hit"] += code == 1 and cls in failed_classes(result)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--trials", type=int, default=20)
    p.add_argument("--effects", default="2,5,10,20,50")
    p.add_argument("--min-effect", type=float, default=25)
    p.add_argument("--tier", default="quick", choices=["quick", "default"])
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    args.effects = [e for e in args.effects.split(",") if e]
    if not os.access(GATE, os.X_OK) or not os.path.isdir(KERNELS):
        sys.exit("ci/selftest.py: build first: ninja all (or ci/test.sh)")
    tally = {}
    start = time.time()
    for i in range(args.trials):
        trial(i, args, tally)
        print("trial %d/%d done" % (i + 1, args.trials), file=sys.stderr)
    took = time.time() - start
    print("detection benchmark: toy kernel, %s tier, %d trials, minimum effect %g%%, %.0f s"
          % (args.tier, args.trials, args.min_effect, took))
    print("%-16s %6s %14s %10s %s" % ("case", "runs", "median change", "exit 1",
                                       "caught by its metric class"))
    for name, row in tally.items():
        if not isinstance(row, dict):
            print("%s: %d" % (name, row))
            continue
        hit = "-" if name == "null" else "%d (%.0f%%)" % (row["hit"], 100.0 * row["hit"] / row["runs"])
        label = "false alarms" if name == "null" else ""
        ch = sorted(row["changes"])
        med = "%+.1f%%" % (100 * ch[len(ch) // 2]) if ch else "-"
        print("%-16s %6d %14s %10d %s %s" % (name, row["runs"], med, row["exit1"], hit, label))
    return 0


if __name__ == "__main__":
    sys.exit(main())
