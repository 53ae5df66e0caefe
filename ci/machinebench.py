#!/usr/bin/env python3
"""ci/machinebench.py: does the gate tell the machine's move from the code's?

Records a baseline of the whole suite on this machine (--update-baseline,
three batches, into a scratch directory), then runs `gate run --gate all`
against it in four cases, RUNS times each, in turn; with --baselines N,
N times over, each baseline recorded after the last one's runs (a baseline
recorded while the host drifted decides what any rule can tell, so more
than one reads the rule rather than one recording):

  unchanged   the same build, nothing beside it
  slowdown    every kernel's measured regions PERCENT% longer
              (ALLOCGATE_SLOWDOWN_PERCENT, perf/probe/probe_region.c: a
              busy loop inside each outermost region; the cost pass is
              not touched), nothing beside it: the code slowed, the
              reference workload did not, so timing must fail
  slowdown-no-reference
              the same slowdown against a copy of the baseline without
              its reference samples (a baseline of an older version):
              the kernels' median move then stands for the machine's
  loop        the same build beside a busy loop on the last CPU
  memory-neighbour
              the same build beside a neighbour that loads the memory
              rather than a CPU's time: `dd if=/dev/zero of=/dev/null
              bs=64M` on the last CPU (the kernel writes zeros into its
              64 MiB buffer over and over: a stream through the
              last-level cache to the memory); the reference's memory
              part is there for such a neighbour
  same-cpu    the same build and the gate pinned to CPU 0 with a busy
              loop on CPU 0 too: the machine slows for everything,
              the reference workload with it

and prints, per run, the exit code, the reference workload's state and
change, how many timing series were compared and how many advisory, the
median change of the compared ones and how many failed and were
inconclusive; at the end, per case, the runs that exited 1 and the
reference's states.

  python3 ci/machinebench.py [--tier quick|default] [--runs 3]
                             [--baselines 1]
                             [--percent 50] [--min-effect P] [--no-cost]
                             [--cases unchanged,slowdown,loop,same-cpu,
                                      memory-neighbour,
                                      slowdown-no-reference] [--keep DIR]

Build first (./gate --version builds). docs/measurements.md, "The
reference workload: a slowdown of every kernel against a baseline",
records what it printed; docs/noise.md, "The reference workload", the
rules it measures.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

import gate_result

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
GATE = os.path.join(ROOT, "build", "gate")


def tier_flags(tier):
    return [] if tier == "default" else ["--" + tier]


BUSY_LOOP = ["sh", "-c", "while :; do :; done"]
MEMORY_STREAM = ["dd", "if=/dev/zero", "of=/dev/null", "bs=64M"]


class Loop:
    """COMMAND (a busy shell loop by default) on CPU CPU, for the length of
    a with block."""

    def __init__(self, cpu, command=None):
        self.cpu, self.command, self.proc = cpu, command or BUSY_LOOP, None

    def __enter__(self):
        if self.cpu is not None:
            self.proc = subprocess.Popen(["taskset", "-c", str(self.cpu)] + self.command,
                                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                         start_new_session=True)
        return self

    def __exit__(self, *exc):
        if self.proc:
            os.killpg(self.proc.pid, 9)
            self.proc.wait()


def without_reference(bdir):
    """A copy of the baselines in BDIR without their reference samples."""
    out = tempfile.mkdtemp(prefix="machinebench-noref-")
    for name in os.listdir(bdir):
        if name.endswith(".json"):
            with open(os.path.join(bdir, name)) as f:
                b = json.load(f)
            b.pop("reference", None)
            with open(os.path.join(out, name), "w") as f:
                json.dump(b, f)
    return out


def run_gate(args, bdir, extra, pin=None, keep=None):
    """One gate run; returns (exit code, result JSON or None, seconds).
    KEEP: a path to keep the JSON result at."""
    fd, path = tempfile.mkstemp(suffix=".json")
    os.close(fd)
    cmd = [GATE, "run", "--baseline-dir", bdir, "--no-color", "--json", path,
           "--gate", "all"] + tier_flags(args.tier) + extra
    if args.min_effect is not None:
        cmd += ["--min-effect", str(args.min_effect)]
    if args.no_cost:
        cmd.append("--no-cost")
    if pin is not None:
        cmd = ["taskset", "-c", str(pin)] + cmd
    start = time.time()
    code = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
    took = time.time() - start
    result = gate_result.take(path, keep)
    return code, result, took


def summary(result):
    """The reference's state and parts, timing failures and inconclusives,
    and the median change of the compared timing series."""
    if not result:
        return "no result"
    parts = ", ".join("%s %+.1f%%" % (p["part"], 100 * p["change"])
                      for p in result.get("reference", []) if p.get("change") is not None)
    timing = [s for s in result["series"] if s["class"] == "timing"
              and s.get("change") is not None and s["verdict"] in
              ("pass", "fail", "improved", "inconclusive")
              and not s["metric"].split(".")[-1] in ("ctx_switches", "cpu_migrations",
                                                      "sched_wait_ns", "others_cpu_permille")]
    fail = sum(1 for s in timing if s["verdict"] == "fail" and s.get("gated", True))
    inconclusive = sum(1 for s in timing if s["verdict"] == "inconclusive")
    advisory = sum(1 for s in result["series"] if s["class"] == "timing" and s.get("advisory"))
    moved = statistics.median([s["change"] for s in timing]) if timing else float("nan")
    return ("reference %s (%s); timing: %d compared, %d advisory, median %+.1f%%, %d fail, "
            "%d inconclusive" % (result.get("reference_state"), parts, len(timing), advisory,
                                 100 * moved, fail, inconclusive))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--tier", default="quick", choices=["quick", "default"])
    p.add_argument("--runs", type=int, default=3, help="runs of each case against each baseline")
    p.add_argument("--baselines", type=int, default=1,
                   help="baselines recorded one after the other, each with its runs")
    p.add_argument("--percent", type=float, default=50)
    p.add_argument("--min-effect", type=float, default=None,
                   help="percent (default: the gate's, 25 against a baseline)")
    p.add_argument("--no-cost", action="store_true")
    p.add_argument("--cases", default="unchanged,slowdown,loop,same-cpu")
    p.add_argument("--keep", metavar="DIR", help="keep each run's JSON result as DIR/CASE-N.json")
    args = p.parse_args()
    if not os.access(GATE, os.X_OK):
        sys.exit("ci/machinebench.py: build first (./gate --version)")
    last = (os.cpu_count() or 1) - 1
    # case: (gate's extra arguments, the neighbour's CPU, the gate's CPU,
    # the neighbour's command)
    cases = {
        "unchanged": ([], None, None, None),
        "slowdown": (["--env", "ALLOCGATE_SLOWDOWN_PERCENT=%g" % args.percent], None, None,
                     None),
        "loop": ([], last, None, None),
        "same-cpu": ([], 0, 0, None),
        "memory-neighbour": ([], last, None, MEMORY_STREAM),
        "slowdown-no-reference": (["--env", "ALLOCGATE_SLOWDOWN_PERCENT=%g" % args.percent],
                                  None, None, None),
    }
    names = [c for c in args.cases.split(",") if c]
    for c in names:
        if c not in cases:
            sys.exit("ci/machinebench.py: unknown case %s" % c)
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    print("machinebench: %s tier, %d baseline%s, %d runs a case each, slowdown %g%%, minimum "
          "effect %s, cost %s" % (
              args.tier, args.baselines, "s" if args.baselines != 1 else "", args.runs,
              args.percent,
              "%g%%" % args.min_effect if args.min_effect is not None else "the gate's",
              "off" if args.no_cost else "on"))
    sys.stdout.flush()
    start = time.time()
    tally = {c: {"runs": 0, "failed": 0, "holds": 0, "unsure": 0, "moved": 0} for c in names}
    for b in range(args.baselines):
        if measure(args, b, names, cases, tally):
            return 2
    for c in names:
        t = tally[c]
        print("%-10s exit 1 in %d of %d runs; reference holds %d, unsure %d, moved %d"
              % (c, t["failed"], t["runs"], t["holds"], t["unsure"], t["moved"]))
    print("machinebench: %.0f s" % (time.time() - start))
    return 0


def measure(args, b, names, cases, tally):
    """Baseline B (from 0): recorded, then ARGS.runs runs of each case
    against it, counted into TALLY. Returns 1 when the recording failed."""
    bdir = tempfile.mkdtemp(prefix="machinebench-")
    noref = None
    try:
        code, _, took = run_gate(args, bdir, ["--update-baseline"])
        print("baseline %d recorded in %.0f s (exit %d)" % (b + 1, took, code))
        sys.stdout.flush()
        if code != 0:
            return 1
        noref = without_reference(bdir)
        for i in range(args.runs):
            n = b * args.runs + i + 1
            for c in names:
                extra, loop_cpu, pin, command = cases[c]
                with Loop(loop_cpu, command):
                    keep = os.path.join(args.keep, "%s-%d.json" % (c, n)) if args.keep else None
                    code, result, took = run_gate(
                        args, noref if c == "slowdown-no-reference" else bdir, extra, pin, keep)
                print("%-10s run %d: exit %d, %.0f s; %s" % (c, n, code, took, summary(result)))
                sys.stdout.flush()
                t = tally[c]
                t["runs"] += 1
                t["failed"] += code == 1
                state = (result or {}).get("reference_state")
                if state in t:
                    t[state] += 1
    finally:
        shutil.rmtree(bdir, ignore_errors=True)
        if noref:
            shutil.rmtree(noref, ignore_errors=True)
    return 0

if __name__ == "__main__":
    sys.exit(main())
