#!/usr/bin/env python3
"""ci/selftest.py: the gate's detection benchmark.

Measures the two numbers a regression gate lives by, on this machine:
  - false alarms: comparisons of unchanged code that fail;
  - detection: comparisons with a known injected regression that fail on it.

It uses the test suite's toy kernel (tests/kernels/toy.c), whose knobs
inject extra work into the measured region (TOY_SLOWDOWN_PERCENT=N: N%
more work that allocates nothing) or one extra malloc per operation
(TOY_EXTRA_ALLOC=1). Two modes:

  --mode ab        (default) each case is one `gate ab` run: A without the
                   knob, B with it, in the same shuffled rounds; the null
                   case is an A/A run.
  --mode baseline  each trial records a baseline (--runs 3, as
                   --update-baseline does), then runs `gate run` once
                   unchanged and once per injected effect against it.

A case counts as caught when the gate exits 1 because of the metric class
under test (timing for extra work, exact for the extra malloc).

  python3 ci/selftest.py [--mode ab|baseline] [--trials 20]
                         [--effects 2,3,5,10,20,50] [--min-effect P]
                         [--tier quick|default|full] [--rounds N] [--best-of K]
                         [--seed 1]
  python3 ci/selftest.py --suite-runs N [--mode ab|baseline] [--tier default]
                         [--keep DIR]

--suite-runs N measures false alarms of the whole suite instead: N
unchanged runs of every kernel (A/A runs, B with a variable set that
nothing reads so that both sides are measured, or `gate run` against the
committed baseline) and how many of them failed, with the series that did.

--ab-modes interleaved,duet measures `gate ab`'s sampling modes side by
side (docs/noise.md, "Duet"; a run that ran another mode than asked, duet
where it cannot run, is counted on a line of its own): each case of each trial runs once per mode,
the modes in alternating order, so that the machine's drift meets both;
--null-runs N takes N A/A runs per mode (default: one per trial); --keep
DIR keeps each run's JSON result (MODE-null-001.json, MODE-EFFECT-001.json),
to read why a run missed or alarmed; a mode
written MODE@N runs with N measured rounds (interleaved@61). --load
loop keeps a shell loop busy on the last CPU beside every run, --load gate
a second `gate run --quick` (as ci/costbench.py). The table gives, per mode
and case, the runs caught by timing and the seconds a run took.

  python3 ci/selftest.py --ab-modes interleaved,duet --tier default
                         --effects 1,3,5,10 --trials 20 --null-runs 100
                         [--load none|loop|gate] [--no-cost] [--keep DIR]

Build first (./gate --version builds); GATE_BUILD_DIR=DIR measures the
build in DIR instead of build/. Prints a table and the runtime.
"""

import argparse
import os
import subprocess
import sys
import tempfile
import time

import gate_result

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
# GATE_BUILD_DIR: a build to measure other than build/ (e.g. a copy that
# stays unchanged while you keep working)
BUILD = os.environ.get("GATE_BUILD_DIR") or os.path.join(ROOT, "build")
GATE = os.path.join(BUILD, "gate")
KERNELS = os.path.join(BUILD, "tests", "kernels")


def tier_flags(tier):
    """The gate's flag for TIER: the default tier has none."""
    return [] if tier == "default" else ["--" + tier]


def tuning_flags(args):
    """--rounds, --min-effect and --best-of as given to this script."""
    out = []
    if args.rounds:
        out += ["--rounds", str(args.rounds)]
    if args.min_effect is not None:
        out += ["--min-effect", str(args.min_effect)]
    if args.best_of:
        out += ["--best-of", str(args.best_of)]
    return out


def gate(args, keep=None):
    """Runs build/gate ARGS with --json; returns (exit code, result JSON).
    KEEP: a path to keep the JSON result at."""
    with tempfile.NamedTemporaryFile(suffix=".json", delete=False) as out:
        path = out.name
    cmd = [GATE] + args + ["--no-color", "--json", path]
    proc = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    result = gate_result.take(path, keep)
    return proc.returncode, result


def advisory_series(result):
    """How many timing series of RESULT were advisory (drift too large to gate)."""
    return sum(1 for s in (result or {}).get("series", [])
               if s["class"] == "timing" and s.get("advisory"))


def failed_series(result):
    """The failing series of RESULT as (class, 'kernel/variant/params metric')."""
    return [(s["class"], "%s/%s/%s %s" % (s["kernel"], s["variant"], s["params"], s["metric"]))
            for s in (result or {}).get("series", []) if s["verdict"] == "fail"]


def failed_expectations(result):
    """The violated expectations of RESULT that fail the run, as 'file:line on
    params: expr' (a claim of another allocator is information, not gated)."""
    return ["%s:%s on %s: %s" % (e.get("file"), e.get("line"), e.get("params"), e.get("expr"))
            for e in (result or {}).get("expectations", [])
            if e.get("verdict") == "fail" and e.get("gated", True)]


def measured_change(result):
    """Change of toy/single task_clock_ns (B against A or the baseline), or None."""
    for s in (result or {}).get("series", []):
        if s["variant"] == "single" and s["metric"] == "task_clock_ns":
            return s["change"]
    return None


def cases(args):
    out = [("null", "TOY_SLOWDOWN_PERCENT=0", None)]
    out += [("+%s%% work" % e, "TOY_SLOWDOWN_PERCENT=%s" % e, "timing") for e in args.effects]
    out += [("+1 malloc/op", "TOY_EXTRA_ALLOC=1", "exact")]
    return out


def tally_case(tally, name, cls, code, result):
    row = tally.setdefault(name, {"runs": 0, "exit1": 0, "hit": 0, "changes": []})
    row["runs"] += 1
    change = measured_change(result)
    if change is not None:
        row["changes"].append(change)
    row["exit1"] += code == 1
    if cls:
        row["hit"] += code == 1 and cls in {c for c, _ in failed_series(result)}


def ab_case_args(i, args, knob, mode=None):
    """The gate ab command line of trial I's case KNOB (B's setting), in MODE
    ("duet", or "duet@61": with 61 measured rounds; a ":all" suffix adds
    --all-rounds, every round taken: "interleaved:all")."""
    common = ["ab", "--kernel-dir", KERNELS, "--kernel", "toy"] + tier_flags(args.tier) + [
              "--seed", str(args.seed + i)] + tuning_flags(args)
    if mode:
        mode, _, all_rounds = mode.partition(":")
        sampling, _, rounds = mode.partition("@")
        common += ["--sampling", sampling] + (["--rounds", rounds] if rounds else [])
        common += ["--all-rounds"] if all_rounds == "all" else []
    # A runs with the knob at zero, so both sides carry the same variables
    a_knob = "TOY_EXTRA_ALLOC=0" if knob.startswith("TOY_EXTRA") else "TOY_SLOWDOWN_PERCENT=0"
    return common + ["--a-env", a_knob, "--b-env", knob]


def trial_ab(i, args, tally):
    for name, knob, cls in cases(args):
        code, result = gate(ab_case_args(i, args, knob))
        tally_case(tally, name, cls, code, result)


def compare_modes(args):
    """--ab-modes: every case in every mode, side by side."""
    from costbench import Neighbour
    modes = [m for m in args.ab_modes.split(",") if m]
    work = [("+%s%% work" % e, "TOY_SLOWDOWN_PERCENT=%s" % e) for e in args.effects]
    null_runs = args.null_runs or args.trials
    tally = {m: {} for m in modes}
    seconds = {m: [] for m in modes}
    start = time.time()
    with Neighbour(args.load):
        for i in range(max(args.trials, null_runs)):
            todo = ([("null", "TOY_SLOWDOWN_PERCENT=0")] if i < null_runs else []) + (
                work if i < args.trials else [])
            for name, knob in todo:
                order = modes if i % 2 == 0 else modes[::-1]
                for mode in order:
                    extra = ["--no-cost"] if args.no_cost else []
                    t0 = time.time()
                    keep = None
                    if args.keep:
                        os.makedirs(args.keep, exist_ok=True)
                        keep = os.path.join(args.keep, "%s-%s-%03d.json" % (
                            mode.replace(":", "_"), "null" if name == "null" else
                            knob.partition("=")[2], i + 1))
                    code, result = gate(ab_case_args(i, args, knob, mode) + extra, keep)
                    seconds[mode].append(time.time() - t0)
                    ran = ((result or {}).get("ab_schedule") or {}).get("mode")
                    if ran != mode.partition(":")[0].partition("@")[0]:   # duet where it cannot
                        what = "ran %s" % ran
                        tally[mode][what] = tally[mode].get(what, 0) + 1
                    if code not in (0, 1):
                        what = "exit %d (%s)" % (code, name)
                        tally[mode][what] = tally[mode].get(what, 0) + 1
                    tally_case(tally[mode], name, None if name == "null" else "timing", code,
                               result)
            print("round %d/%d done" % (i + 1, max(args.trials, null_runs)), file=sys.stderr)
    took = time.time() - start
    print("gate ab sampling modes side by side: toy kernel, %s tier, %s rounds, load %s, "
          "cost pass %s, %d trials, %d A/A runs per mode, %.0f s, %s" % (
              args.tier, args.rounds or "the gate's", args.load,
              "off" if args.no_cost else "on", args.trials, null_runs, took,
              time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())))
    print("%-12s %-12s %6s %14s %10s %s" % ("mode", "case", "runs", "median change",
                                             "exit 1", "caught by timing"))
    for mode in modes:
        for name, row in tally[mode].items():
            if not isinstance(row, dict):
                print("%-12s %s: %d" % (mode, name, row))
                continue
            ch = sorted(row["changes"])
            med = "%+.1f%%" % (100 * ch[len(ch) // 2]) if ch else "-"
            hit = "- (false alarms)" if name == "null" else "%d of %d" % (row["hit"], row["runs"])
            print("%-12s %-12s %6d %14s %10d %s" % (mode, name, row["runs"], med, row["exit1"],
                                                    hit))
        runs = seconds[mode]
        print("%-12s seconds per run: mean %.1f, median %.1f" % (
            mode, sum(runs) / max(len(runs), 1), sorted(runs)[len(runs) // 2] if runs else 0))


def trial_baseline(i, args, tally):
    with tempfile.TemporaryDirectory() as bdir:
        common = ["run", "--kernel-dir", KERNELS, "--kernel", "toy", "--baseline-dir", bdir
                  ] + tier_flags(args.tier) + ["--seed", str(args.seed + i)] + tuning_flags(args)
        code, _ = gate(common + ["--update-baseline", "--runs", "3"])
        if code != 0:
            tally["baseline errors"] = tally.get("baseline errors", 0) + 1
            return
        for name, knob, cls in cases(args):
            code, result = gate(common + ["--env", knob])
            tally_case(tally, name, cls, code, result)


def print_table(args, tally, took):
    min_effect = args.min_effect if args.min_effect is not None else (
        2 if args.mode == "ab" else 25)
    print("detection benchmark: toy kernel, mode %s, %s tier, %s rounds, best of %s, %d trials, "
          "minimum effect %g%%, %.0f s" % (args.mode, args.tier, args.rounds or "the gate's",
                                          args.best_of or "the parameter set's", args.trials,
                                          min_effect, took))
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


def suite_runs(args):
    """False alarms of the whole suite: N unchanged runs."""
    start = time.time()
    failing, exits, culprits, advisory, seconds = 0, {}, {}, [], []
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    for i in range(args.suite_runs):
        if args.mode == "ab":
            # a variable nothing reads: without it both sides are the same
            # code, and gate ab leaves every kernel out unmeasured
            cmd = ["ab"] + tier_flags(args.tier) + ["--seed", str(args.seed + i),
                   "--b-env", "ALLOCGATE_NOTHING_READS_THIS=1"]
        else:
            # the committed baseline's seed: kernels draw sizes from it
            cmd = ["run"] + tier_flags(args.tier) + ["--seed", str(args.seed),
                   "--baseline-dir", os.path.join(ROOT, "baselines")]
        keep = os.path.join(args.keep, "run-%03d.json" % (i + 1)) if args.keep else None
        run_start = time.time()
        code, result = gate(cmd + tuning_flags(args), keep)
        seconds.append(time.time() - run_start)
        advisory.append(advisory_series(result))
        exits[code] = exits.get(code, 0) + 1
        failing += code == 1
        for _, what in failed_series(result):
            culprits[what] = culprits.get(what, 0) + 1
        for what in failed_expectations(result):
            what = "expectation " + what
            culprits[what] = culprits.get(what, 0) + 1
        print("suite run %d/%d: exit %d, %.1f s" % (i + 1, args.suite_runs, code, seconds[-1]),
              file=sys.stderr)
    took = time.time() - start
    print("false alarms of the whole suite: mode %s, %s tier, %d unchanged runs, %.0f s "
          "(%.1f s a run)" % (args.mode, args.tier, args.suite_runs, took,
                              took / max(args.suite_runs, 1)))
    if seconds:
        ordered = sorted(seconds)
        print("seconds a run: min %.1f, median %.1f, max %.1f" % (
            ordered[0], ordered[len(ordered) // 2], ordered[-1]))
    bad = sum(n for c, n in exits.items() if c not in (0, 1))
    if bad:
        print("WARNING: %d runs exited neither 0 nor 1: not a false-alarm measurement" % bad)
    print("failing runs: %d of %d; exit codes: %s" % (
        failing, args.suite_runs, ", ".join("%d x%d" % (c, n) for c, n in sorted(exits.items()))))
    for what, n in sorted(culprits.items(), key=lambda x: -x[1]):
        print("  failed %d time(s): %s" % (n, what))
    if args.mode == "baseline" and advisory:
        print("advisory timing series a run (drift too large to gate): %d to %d" % (
            min(advisory), max(advisory)))


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--mode", default="ab", choices=["ab", "baseline"])
    p.add_argument("--trials", type=int, default=20)
    p.add_argument("--effects", default="2,3,5,10,20,50")
    p.add_argument("--min-effect", type=float, default=None,
                   help="percent (default: the gate's, 3 for ab and 25 for baseline)")
    p.add_argument("--tier", default="quick", choices=["quick", "default", "full"])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--rounds", type=int, default=0, help="measured rounds (default: the gate's)")
    p.add_argument("--best-of", type=int, default=0,
                   help="repetitions per timed sample (default: each parameter set's best_of)")
    p.add_argument("--suite-runs", type=int, default=0)
    p.add_argument("--ab-modes", default="",
                   help="comma-separated gate ab sampling modes to compare side by side "
                        "(interleaved,duet; MODE@N with N rounds, MODE:all with "
                        "--all-rounds: interleaved,interleaved:all)")
    p.add_argument("--null-runs", type=int, default=0,
                   help="--ab-modes: A/A runs per mode (default: one per trial)")
    p.add_argument("--load", choices=["none", "loop", "gate"], default="none",
                   help="--ab-modes: a neighbour beside every run (as ci/costbench.py)")
    p.add_argument("--no-cost", action="store_true",
                   help="--ab-modes: pass --no-cost (timing is what the modes differ in)")
    p.add_argument("--keep", metavar="DIR",
                   help="--suite-runs: keep each run's JSON result in DIR (run-001.json, ...); "
                        "--ab-modes: each case's (MODE-null-001.json, MODE-2.5-001.json, ...)")
    args = p.parse_args()
    args.effects = [e for e in args.effects.split(",") if e]
    if not os.access(GATE, os.X_OK) or not os.path.isdir(KERNELS):
        sys.exit("ci/selftest.py: build first: ninja all (or ci/test.sh)")
    if args.suite_runs:
        suite_runs(args)
        return 0
    if args.ab_modes:
        compare_modes(args)
        return 0
    tally = {}
    start = time.time()
    for i in range(args.trials):
        (trial_ab if args.mode == "ab" else trial_baseline)(i, args, tally)
        print("trial %d/%d done" % (i + 1, args.trials), file=sys.stderr)
    print_table(args, tally, time.time() - start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
