#!/usr/bin/env python3
"""ci/peerbench.py: gate ab side by side with the tools a user would pick
instead, on the same change, machine and hour.

  python3 ci/peerbench.py [--kernel toy|resize] [--effects 1.5,3,5]
                          [--trials 20] [--null-runs 20]
                          [--procedures gate,hyperfine,gbench,benchstat]
                          [--budget 10 | --budget-sweep 2,4,8,16]
                          [--load none|loop] [--tier default|quick]
                          [--gate-scope variant|kernel] [--keep DIR]
  python3 ci/peerbench.py --smoke

Each case compares side A (unchanged) with side B: unchanged too (a null
case, --null-runs of them) or with +E% of work (each of --effects,
--trials of them). Every procedure decides each case; for trial t the
procedures run in an order rotated by t and the case, so that the
machine's drift meets all of them. The procedures:

  gate      `gate ab --kernel K --variant V --no-cost --seed t` at its
            defaults (61 rounds, its early stop, its confirmation batch;
            --no-cost: the cost pass decides no timing and the peers have
            none). --variant V: the variant the peers time, so that all
            measure the same work (--gate-scope kernel: every variant of
            the kernel, as the runs before --variant existed). Slower: a timing series
            failed. It decides its own length: its seconds a decision are
            measured, not budgeted.
  hyperfine `hyperfine -N --runs N --export-json F 'A' 'B'`: all N runs
            of A, then all of B. Slower: the rank test (below) on its
            runs' times, the direction by its reported means.
  gbench    the toy's work as a Google Benchmark (ci/peerbench/
            toy_bench.cc, built here into build/peerbench/ with g++ -O2
            -lbenchmark -lpthread), run once per side with
            --benchmark_repetitions=N --benchmark_min_time=0.02 (a
            repetition: about the work of one of the toy's samples, 16
            regions), A then B, then `compare.py benchmarks A.json
            B.json`. Slower: its U test's p-value of the time column
            below 0.05 (compare.py colours it so; it prints one from 2
            repetitions on and calls fewer than 9 unreliable), the
            direction by the change of the means. The toy only: a seed
            kernel has no such harness, and the procedure is left out.
  benchstat N pairs of runs, A B A B ..., each run's wall time taken by
            this script; the rank test, a change reported only when
            p < 0.05 (benchstat's convention), the direction by the
            medians.

The rank test of hyperfine and benchstat is compare.py's: the two-sided
Mann-Whitney U test at alpha 0.05, exact without ties when a side has at
most 8 values, else the normal approximation with tie and continuity
correction (scipy 1.10's mannwhitneyu, ci/peerbench_stats.py).

What each executes. hyperfine and benchstat run the kernel's probe
executable for one sample, as the gate starts it: `env KNOB=P
build/tests/kernels/toy --variant single --params small` (16 regions,
best_of=16; docs/protocol.md, "One sample"). They time the whole process,
its start and exit included: that is their nature, and the region is
about half of the toy's process. gate ab times the region inside the same
process. Google Benchmark times the same region's work in one process per
side, no start included.

The change is the same for all: one binary, the knob in the environment
of side B (TOY_SLOWDOWN_PERCENT=E for the toy; side A gets =0). Two
builds with a compile-time -D would also differ in code layout, which
alone moves timing by a few percent (Mytkowicz et al., ASPLOS 2009,
docs/noise.md "Rounds"), and the null case would compare two binaries.
The seed kernel is resize (kernels/resize.c): the peers run variant
copy_grow on 256KB_512B (about 0.2 s a sample, the region most of the
process), the change ALLOCGATE_SLOWDOWN_PERCENT=E (every outermost region
E% longer, perf/probe/probe_region.c); gate ab measures copy_grow alone
(--gate-scope kernel: all six variants, its seconds including them).

Budget. --budget S: each peer's N (runs or repetitions a side) is chosen
once, before the trials, so that a decision takes about S seconds: one run
of each side is timed (A unchanged, B with the largest effect; for gbench
one process of one repetition) and N = S / (2 x the mean run), at least 4
(the fewest with which the two-sided rank test can reach p < 0.05: 4 vs 4
gives 2/70 = 0.029; each tool's own minimum is lower). --budget-sweep
2,4,8,16 runs every peer at each budget, to find the budget each needs.

Verdicts and counts (ci/peerbench_stats.py). A detection is a "slower"
verdict on a case with work added. A false alarm is what would fail a
user's CI gate on an unchanged pair: "slower", or gate ab failing for any
other reason. A "faster" verdict fails no gate; it is counted in its own
column. "error": the tool gave no decision.

The table, at the end, after the machine's CPU (/proc/cpuinfo's model
name, family and model), the date in UTC, the options and the exact
commands: per procedure (at each budget) and case, the runs, the
verdicts, the mean seconds a decision, the median change of time the
procedure measured (its own estimate, B against A: gate ab's per-round
median ratio of the variant's region, hyperfine's means, compare.py's
change of the means, the benchstat-style runs' medians; a process-timing
peer sees the region's change diluted by the process's start and exit)
and the detection or false-alarm rate; then per procedure and effect the seconds a decision at the smallest
budget that reached 90% detection at <= 5% false alarms; then the issue's
target on +3%: gate ab at 90% detection with no more false alarms than the
best peer, in at most half its seconds.

--load loop keeps a shell loop busy on the last CPU beside every run (as
ci/selftest.py). --keep DIR keeps every raw output: gate's JSON,
hyperfine's JSON, Google Benchmark's JSON and compare.py's text,
benchstat's times (PROCEDURE[@BUDGET]-CASE-NNN.*). --smoke: 2 trials of
+3%, 2 null runs, a 1 s budget and gate ab at --quick, to check that the
script works end to end (about a minute); its numbers mean nothing.

A full run (20 trials of three effects, 20 null runs, a sweep of four
budgets) takes about 2-3 hours: run it on a quiet machine. Build first
(./gate --version; the toy: ninja -C . build/tests/kernels/toy
build/tests/kernels-counted/toy, or ci/test.sh); GATE_BUILD_DIR=DIR
measures the build in DIR. The peers: apt-get install hyperfine
libbenchmark-dev libbenchmark-tools python3-scipy g++ (ci/test.sh does as
root); a procedure whose tools are missing is left out with one line.
"""

import argparse
import functools
import json
import os
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

import gate_result
import peerbench_stats as stats

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("GATE_BUILD_DIR") or os.path.join(ROOT, "build")
GATE = os.path.join(BUILD, "gate")
HARNESS_SRC = os.path.join(ROOT, "ci", "peerbench", "toy_bench.cc")
HARNESS = os.path.join(BUILD, "peerbench", "toy_bench")
HARNESS_WORK = os.path.join(ROOT, "tests", "kernels", "toy_work.h")
HARNESS_NAME = "toy_single_small"
COMPARE_PY = "/usr/share/benchmark/compare.py"
# a repetition of the Google Benchmark: at least this many seconds of
# iterations, about the 16 regions of one of the toy's samples
GBENCH_MIN_TIME_S = 0.02
# the fewest runs a side with which the two-sided rank test can reach
# p < 0.05 (exact p of 4 vs 4, all apart: 2/70)
RUNS_FLOOR = 4
PEERS = ("hyperfine", "gbench", "benchstat")

KERNELS = {
    "toy": {"dir": os.path.join(BUILD, "tests", "kernels"), "name": "toy",
            "args": ["--variant", "single", "--params", "small"],
            "knob": "TOY_SLOWDOWN_PERCENT", "gbench": True},
    "resize": {"dir": os.path.join(BUILD, "kernels"), "name": "resize",
               "args": ["--variant", "copy_grow", "--params", "256KB_512B"],
               "knob": "ALLOCGATE_SLOWDOWN_PERCENT", "gbench": False},
}


def cpu_identity():
    """The first CPU's model name, family and model (/proc/cpuinfo), and
    the count of CPUs."""
    fields = {}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if not line.strip():
                    break
                key, _, value = line.partition(":")
                fields[key.strip()] = value.strip()
    except OSError:
        pass
    return "%s (family %s, model %s), %d CPUs" % (
        fields.get("model name", "unknown CPU"), fields.get("cpu family", "?"),
        fields.get("model", "?"), os.cpu_count() or 1)


def probe_argv(kernel, percent):
    """One sample of the kernel's variant, B's knob at PERCENT."""
    k = KERNELS[kernel]
    return ["env", "%s=%s" % (k["knob"], percent), os.path.join(k["dir"], k["name"])] + k["args"]


def gate_argv(args, percent, trial, json_path):
    k = KERNELS[args.kernel]
    tier = [] if args.tier == "default" else ["--" + args.tier]
    scope = ["--variant", k["args"][1]] if args.gate_scope == "variant" else []
    return [GATE, "ab", "--kernel-dir", k["dir"], "--kernel", k["name"]] + scope + [
        "--no-cost"] + tier + [
        "--seed", str(1 + trial), "--a-env", "%s=0" % k["knob"],
        "--b-env", "%s=%s" % (k["knob"], percent), "--no-color", "--json", json_path]


def hyperfine_argv(args, percent, runs, json_path):
    return ["hyperfine", "-N", "--style", "none", "--runs", str(runs), "--export-json",
            json_path, shlex.join(probe_argv(args.kernel, 0)),
            shlex.join(probe_argv(args.kernel, percent))]


def gbench_argv(percent, runs, json_path):
    return ["env", "TOY_SLOWDOWN_PERCENT=%s" % percent, HARNESS,
            "--benchmark_repetitions=%d" % runs, "--benchmark_min_time=%g" % GBENCH_MIN_TIME_S,
            "--benchmark_out=%s" % json_path, "--benchmark_out_format=json"]


def compare_argv(a_json, b_json):
    return [scipy_python(), COMPARE_PY, "--no-color", "benchmarks", a_json, b_json]


@functools.lru_cache(maxsize=None)
def scipy_python():
    """The Python that has scipy for compare.py: Debian's (python3-scipy)
    first, then the one on PATH."""
    for py in ("/usr/bin/python3", "python3"):
        if subprocess.run([py, "-c", "import scipy, numpy"], stdout=subprocess.DEVNULL,
                          stderr=subprocess.DEVNULL).returncode == 0:
            return py
    return None


def missing_tools(procedure, kernel):
    """Why PROCEDURE cannot run here on KERNEL, or None."""
    if procedure == "gate":
        k = KERNELS[kernel]
        exe = os.path.join(k["dir"], k["name"])
        if not os.access(GATE, os.X_OK) or not os.access(exe, os.X_OK):
            return "no %s or %s: build first (./gate --version; ninja -C . all)" % (GATE, exe)
        return None
    if procedure == "hyperfine":
        return None if shutil.which("hyperfine") else "no hyperfine (apt-get install hyperfine)"
    if procedure == "gbench":
        if not KERNELS[kernel]["gbench"]:
            return "no Google Benchmark harness of %s (the toy only)" % kernel
        if not shutil.which("g++") or not os.path.exists("/usr/include/benchmark/benchmark.h"):
            return "no g++ or libbenchmark-dev (apt-get install g++ libbenchmark-dev)"
        if not os.path.exists(COMPARE_PY):
            return "no %s (apt-get install libbenchmark-tools)" % COMPARE_PY
        if not scipy_python():
            return "no scipy for compare.py (apt-get install python3-scipy)"
    return None


def build_harness():
    """Builds build/peerbench/toy_bench when its source is newer; returns
    an error message or None."""
    if (os.path.exists(HARNESS) and all(os.path.getmtime(HARNESS) >= os.path.getmtime(src)
                                        for src in (HARNESS_SRC, HARNESS_WORK))):
        return None
    os.makedirs(os.path.dirname(HARNESS), exist_ok=True)
    cmd = ["g++", "-O2", "-o", HARNESS, HARNESS_SRC, "-lbenchmark", "-lpthread"]
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    return None if proc.returncode == 0 else "%s failed:\n%s" % (shlex.join(cmd), proc.stdout)


def quiet(cmd):
    """Runs CMD with its output discarded; returns its exit code."""
    return subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode


def timed_run(cmd):
    """Runs CMD once; returns its wall seconds, or None when it failed."""
    t0 = time.perf_counter()
    code = quiet(cmd)
    seconds = time.perf_counter() - t0
    return seconds if code == 0 else None


def keep_path(args, key, case, trial, suffix):
    """Where --keep keeps one raw output, or None."""
    if not args.keep:
        return None
    name, budget = key
    label = name if budget is None else "%s@%g" % (name, budget)
    return os.path.join(args.keep, "%s-%s-%03d%s" % (label, case, trial + 1, suffix))


def keep_text(path, text):
    if path:
        with open(path, "w") as f:
            f.write(text)


def percent_of(case):
    return "0" if case == "null" else case


def decide_gate(args, key, case, trial, tmp):
    path = os.path.join(tmp, "gate.json")
    code = quiet(gate_argv(args, percent_of(case), trial, path))
    result = gate_result.take(path, keep_path(args, key, case, trial, ".json"))
    k = KERNELS[args.kernel]["args"]
    return stats.gate_verdict(code, result), stats.gate_change(result, k[1], k[3])


def decide_hyperfine(args, key, case, trial, tmp):
    path = os.path.join(tmp, "hyperfine.json")
    if quiet(hyperfine_argv(args, percent_of(case), args.runs[key], path)) != 0:
        return "error", None
    result = gate_result.take(path, keep_path(args, key, case, trial, ".json"))
    if not result:
        return "error", None
    return stats.hyperfine_verdict(result), stats.hyperfine_change(result)


def decide_gbench(args, key, case, trial, tmp):
    a_json, b_json = os.path.join(tmp, "A.json"), os.path.join(tmp, "B.json")
    runs = args.runs[key]
    if quiet(gbench_argv(0, runs, a_json)) or quiet(gbench_argv(percent_of(case), runs, b_json)):
        return "error", None
    proc = subprocess.run(compare_argv(a_json, b_json), stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True)
    keep_text(keep_path(args, key, case, trial, "-compare.txt"), proc.stdout)
    for side, path in (("A", a_json), ("B", b_json)):
        gate_result.take(path, keep_path(args, key, case, trial, "-%s.json" % side))
    if proc.returncode != 0:
        return "error", None
    return (stats.compare_py_verdict(proc.stdout, HARNESS_NAME),
            stats.compare_py_change(proc.stdout, HARNESS_NAME))


def decide_benchstat(args, key, case, trial, tmp):
    a_cmd, b_cmd = probe_argv(args.kernel, 0), probe_argv(args.kernel, percent_of(case))
    a, b = [], []
    for _ in range(args.runs[key]):
        a.append(timed_run(a_cmd))
        b.append(timed_run(b_cmd))
    keep_text(keep_path(args, key, case, trial, ".json"), json.dumps({"A": a, "B": b}))
    if None in a or None in b:
        return "error", None
    return stats.rank_verdict(a, b, stats.median), stats.ratio_change(a, b, stats.median)


DECIDE = {"gate": decide_gate, "hyperfine": decide_hyperfine, "gbench": decide_gbench,
          "benchstat": decide_benchstat}


def one_run_seconds(args, name, percent):
    """The wall seconds of one run of PEER NAME's side at PERCENT (for
    gbench one process of one repetition), or None."""
    if name == "gbench":
        with tempfile.TemporaryDirectory() as tmp:
            return timed_run(gbench_argv(percent, 1, os.path.join(tmp, "c.json")))
    return timed_run(probe_argv(args.kernel, percent))


def calibrate(args, keys):
    """N runs a side of every peer key for its budget: {key: N}; gate ab's
    is None. Exits when a side does not run."""
    runs, largest = {}, max(args.effects, key=float)
    for name in sorted({k[0] for k in keys if k[0] != "gate"}):
        one_run_seconds(args, name, 0)     # a first run loads the files
        a, b = one_run_seconds(args, name, 0), one_run_seconds(args, name, largest)
        if a is None or b is None:
            sys.exit("ci/peerbench.py: one run of %s failed" % name)
        print("calibration: one run of %s: A %.3f s, B %.3f s" % (name, a, b), file=sys.stderr)
        for key in keys:
            if key[0] == name:
                runs[key] = stats.runs_for_budget(key[1], a, b, RUNS_FLOOR)
    return runs


def procedure_keys(args):
    """Every procedure at every budget: (name, budget), gate ab's budget None."""
    keys = []
    for name in args.procedures:
        if name == "gate":
            keys.append(("gate", None))
        else:
            keys += [(name, b) for b in args.budgets]
    return keys


def trial_cases(args, trial):
    """The cases of trial TRIAL: a null case while null runs are left, then
    each effect while trials are left."""
    return (["null"] if trial < args.null_runs else []) + (
        args.effects if trial < args.trials else [])


def run_trials(args, keys, tally):
    """Every case of every trial decided by every procedure, in an order
    rotated by the trial and the case."""
    from costbench import Neighbour
    total = max(args.trials, args.null_runs)
    with Neighbour(args.load), tempfile.TemporaryDirectory() as tmp:
        for trial in range(total):
            for c, case in enumerate(trial_cases(args, trial)):
                r = (trial + c) % len(keys)
                for key in keys[r:] + keys[:r]:
                    t0 = time.monotonic()
                    verdict, change = DECIDE[key[0]](args, key, case, trial, tmp)
                    stats.tally_add(tally, key, case, verdict, time.monotonic() - t0,
                                    change)
            print("trial %d/%d done" % (trial + 1, total), file=sys.stderr)


def command_lines(args):
    """The exact commands, E standing for B's percent (0 in a null case),
    N for the runs a side, T for the trial (from 0)."""
    e, n = "E", 0
    gate = gate_argv(args, e, 0, "RESULT.json")
    gate[gate.index("--seed") + 1] = "1+T"
    lines = ["commands (E: B's percent, 0 unchanged; N: runs a side; T: the trial from 0):",
             "  gate      " + shlex.join(gate)]
    if "hyperfine" in args.procedures:
        lines.append("  hyperfine " + shlex.join(hyperfine_argv(args, e, n, "H.json")).replace(
            "--runs 0", "--runs N"))
    if "gbench" in args.procedures:
        lines += ["  gbench    " + shlex.join(gbench_argv(p, n, out)).replace(
                      "repetitions=0", "repetitions=N") for p, out in (("0", "A.json"),
                                                                       (e, "B.json"))]
        lines.append("            " + shlex.join(compare_argv("A.json", "B.json")))
    if "benchstat" in args.procedures:
        lines.append("  benchstat N x (%s; %s), each run's wall time taken in Python" % (
            shlex.join(probe_argv(args.kernel, 0)), shlex.join(probe_argv(args.kernel, e))))
    return lines


def print_report(args, keys, tally, took):
    print("peerbench: kernel %s, load %s, gate ab tier %s scope %s, %d trials of %s, "
          "%d null runs, budgets %s s, %.0f s" % (
              args.kernel, args.load, args.tier, args.gate_scope, args.trials,
              ",".join("+%s%%" % e for e in args.effects), args.null_runs,
              ",".join("%g" % b for b in args.budgets), took))
    print("machine: %s" % cpu_identity())
    print("date: %s" % time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()))
    for line in command_lines(args):
        print(line)
    print()
    for line in stats.table_lines(tally, keys, ["null"] + args.effects, args.runs):
        print(line)
    print()
    names = list(args.procedures)
    for line in stats.needed_lines(tally, names, args.effects):
        print(line)
    peers = [n for n in names if n in PEERS]
    three = [e for e in args.effects if float(e) == 3]
    if "gate" in names and peers and three:
        print(stats.target_line(tally, peers, three[0]))


def parse_args():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--kernel", default="toy", choices=sorted(KERNELS))
    p.add_argument("--trials", type=int, default=20, help="runs of each effect")
    p.add_argument("--null-runs", type=int, default=20, help="unchanged runs")
    p.add_argument("--effects", default="1.5,3,5", help="percent of work added to B")
    p.add_argument("--procedures", default="gate,hyperfine,gbench,benchstat")
    p.add_argument("--budget", type=float, default=10,
                   help="seconds a peer's decision takes (its N is chosen for it)")
    p.add_argument("--budget-sweep", default="", help="budgets to run every peer at: 2,4,8,16")
    p.add_argument("--load", default="none", choices=["none", "loop"],
                   help="loop: a shell loop busy on the last CPU beside every run")
    p.add_argument("--tier", default="default", choices=["default", "quick"],
                   help="gate ab's tier (default: its default, 61 rounds)")
    p.add_argument("--gate-scope", default="variant", choices=["variant", "kernel"],
                   help="gate ab times the peers' variant alone (default) or every variant")
    p.add_argument("--keep", metavar="DIR", help="keep every raw output in DIR")
    p.add_argument("--smoke", action="store_true",
                   help="2 trials of +3%%, 2 null runs, a 1 s budget, gate ab --quick")
    args = p.parse_args()
    if args.smoke:
        args.trials, args.null_runs, args.effects = 2, 2, "3"
        args.budget, args.budget_sweep, args.tier = 1, "", "quick"
    args.effects = [e for e in args.effects.split(",") if e]
    args.procedures = [n for n in args.procedures.split(",") if n]
    args.budgets = ([float(b) for b in args.budget_sweep.split(",") if b]
                    if args.budget_sweep else [args.budget])
    for name in args.procedures:
        if name not in DECIDE:
            p.error("unknown procedure %s (gate, hyperfine, gbench, benchstat)" % name)
    return args


def available(args):
    """Leaves out, with one line each, the procedures this machine cannot run."""
    kept = []
    for name in args.procedures:
        why = missing_tools(name, args.kernel)
        if name == "gbench" and not why:
            why = build_harness()
        if why:
            print("ci/peerbench.py: %s left out: %s" % (name, why), file=sys.stderr)
        else:
            kept.append(name)
    args.procedures = kept


def main():
    args = parse_args()
    available(args)
    if not args.procedures:
        sys.exit("ci/peerbench.py: no procedure can run here")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    keys = procedure_keys(args)
    start = time.time()
    args.runs = calibrate(args, keys)
    tally = {}
    run_trials(args, keys, tally)
    print_report(args, keys, tally, time.time() - start)
    return 0


if __name__ == "__main__":
    sys.exit(main())
