#!/usr/bin/env python3
"""ci/costbench.py: the cost pass's benchmark (docs/cost.md).

Measures, on this machine, what the cost pass (gates/sample/cost_pass.h) adds to a
regression gate whose timing cannot be compared:

  detect   real allocator changes and injected work, each a `gate run` (or a
           `gate ab`) with the change in the kernels' environment, against a
           baseline of this machine recorded first. Mode `relabelled` is the
           same baseline with its CPU model replaced, as every hosted runner
           sees a baseline recorded elsewhere: timing is not compared there.
           Prints, per change, how often the gate failed and on which metric
           class (cost, counted, exact/near, timing, expectation).
  false    unchanged runs against that baseline (same machine or relabelled):
           how many failed, and on what.
  time     one run of the tier with the cost pass and one without.

  python3 ci/costbench.py detect [--mode relabelled|same|given|ab] [--trials 20]
                                 [--tier quick|default] [--changes a,b,...]
  python3 ci/costbench.py false  [--mode relabelled|same|given|ab] [--runs 100]
                                 [--tier quick|default]
  python3 ci/costbench.py time   [--tier quick|default]

--kernels a,b runs only those seed kernels (the toy changes are unaffected).
--mode given --baseline-dir DIR compares against the baselines in DIR (a
copy: nothing is written there), e.g. one recorded on another CPU model
(../shared/machines/<model>); the toy changes need a baseline of their own
and are skipped there. --mode ab runs `gate ab` with both sides the same
build (false alarms: an A/A run) or B's environment changed (detection).
--load loop keeps a shell loop busy on the last CPU beside every run (a
busy neighbour); --load gate runs `gate run --quick` over and over beside
it (a second gate on the same machine). Each run's line counts its
inconclusive verdicts too: they are allowed, never failing.

The changes: tcache (glibc.malloc.tcache_count=0), arena
(glibc.malloc.arena_max=1), mmap (glibc.malloc.mmap_threshold=4096),
perturb (MALLOC_PERTURB_=165), jemalloc and mimalloc (LD_PRELOAD of the
Debian libraries libjemalloc2 and libmimalloc2.0, not --allocator: an
allocator the image preloads without saying so), toy1 and toy3 (the test
kernel toy with 1% and 3% more work, TOY_SLOWDOWN_PERCENT). Build first
(./gate --version); GATE_BUILD_DIR=DIR measures the build in DIR (a frozen
copy while you keep working).
"""

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("GATE_BUILD_DIR") or os.path.join(ROOT, "build")
GATE = os.path.join(BUILD, "gate")
TOY_KERNELS = os.path.join(BUILD, "tests", "kernels")
LIBDIR = "/usr/lib/x86_64-linux-gnu"

FAILED_EXPECTATIONS = []   # file:line of every failing expectation, in run order
FAILED_SERIES = []         # kernel/variant/params metric change of every failing series

CHANGES = {
    "tcache": ("GLIBC_TUNABLES=glibc.malloc.tcache_count=0", False),
    "arena": ("GLIBC_TUNABLES=glibc.malloc.arena_max=1", False),
    "mmap": ("GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4096", False),
    "perturb": ("MALLOC_PERTURB_=165", False),
    "jemalloc": ("LD_PRELOAD=%s/libjemalloc.so.2" % LIBDIR, False),
    "mimalloc": ("LD_PRELOAD=%s/libmimalloc.so.2" % LIBDIR, False),
    # realloc always moving the block: a preloaded shim (tests/preload)
    "moving": ("LD_PRELOAD=%s/tests/preload/libmoving_realloc.so" % BUILD, False),
    "toy1": ("TOY_SLOWDOWN_PERCENT=1", True),
    "toy3": ("TOY_SLOWDOWN_PERCENT=3", True),
    # one extra malloc/free per operation of the toy
    "toyalloc": ("TOY_EXTRA_ALLOC=1", True),
}


def tier_flags(tier):
    return [] if tier == "default" else ["--" + tier]


KERNELS = []   # --kernels: the seed kernels to run (default: all of them)


def scope(toy):
    """The kernel selection of a change: the toy, or the seed kernels."""
    if toy:
        return ["--kernel-dir", TOY_KERNELS, "--kernel", "toy"]
    return [flag for k in KERNELS for flag in ("--kernel", k)]


def metric_class(series):
    base = series["metric"].rsplit(".", 1)[-1]
    if base.startswith("cost_"):
        return "cost"
    if base.startswith("heap_") or base.startswith("sys_"):
        return "counted"
    return "timing" if series["class"] == "timing" else "exact/near"


def run(cmd, json_path):
    """Runs CMD; returns (exit status, set of metric classes that failed, or
    that improved: "improved CLASS")."""
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    classes = set()
    try:
        with open(json_path) as f:
            result = json.load(f)
        for s in result.get("series", []):
            if s.get("verdict") == "fail":
                classes.add(metric_class(s))
                FAILED_SERIES.append("%s/%s/%s %s %+.1f%%" % (
                    s.get("kernel"), s.get("variant"), s.get("params"), s.get("metric"),
                    100 * (s.get("change") or 0)))
            elif s.get("verdict") == "improved":
                classes.add("improved " + metric_class(s))
        inconclusive = sum(s.get("verdict") == "inconclusive" for s in result.get("series", []))
        for e in result.get("expectations", []):
            # a claim declared for another allocator is information: its
            # "fail" fails nothing (docs/kernels.md, "Conditions")
            if e.get("verdict") == "fail" and e.get("gated", True):
                classes.add("expectation")
                FAILED_EXPECTATIONS.append("%s:%s" % (e.get("file"), e.get("line")))
            inconclusive += e.get("verdict") == "inconclusive" and e.get("gated", True)
        if inconclusive:
            classes.add("inconclusive:%d" % inconclusive)
    except (OSError, ValueError):
        classes.add("no result")
    return p.returncode, classes


def record(tmp, tier, toy):
    """A baseline of this machine in TMP/same and its relabelled copy in
    TMP/relabelled; returns the two directories."""
    same = os.path.join(tmp, "same-toy" if toy else "same")
    relabelled = os.path.join(tmp, "relabelled-toy" if toy else "relabelled")
    os.makedirs(same, exist_ok=True)
    os.makedirs(relabelled, exist_ok=True)
    cmd = [GATE, "run", "--update-baseline", "--baseline-dir", same, "--no-color"]
    subprocess.run(cmd + tier_flags(tier) + scope(toy), stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    for name in os.listdir(same):
        with open(os.path.join(same, name)) as f:
            text = f.read()
        b = json.loads(text)
        old = b["context"]["cpu_model"]
        text = text.replace('"cpu_model": %s' % json.dumps(old),
                            '"cpu_model": "relabelled CPU (ci/costbench.py)"', 1)
        with open(os.path.join(relabelled, name), "w") as f:
            f.write(text)
    return same, relabelled


def given(tmp, source):
    """A copy of the baselines in SOURCE (--mode given): nothing is written
    to SOURCE. Returns the directory, twice (as record's pair)."""
    d = os.path.join(tmp, "given")
    os.makedirs(d, exist_ok=True)
    for name in os.listdir(source):
        if name.endswith(".json"):
            shutil.copy(os.path.join(source, name), d)
    return d, d


class Neighbour:
    """--load: a busy loop on the last CPU, or a second gate, beside the runs."""

    def __init__(self, kind):
        self.kind, self.proc = kind, None

    def __enter__(self):
        cpu = str((os.cpu_count() or 1) - 1)
        if self.kind == "loop":
            self.proc = subprocess.Popen(["taskset", "-c", cpu, "sh", "-c", "while :; do :; done"],
                                         start_new_session=True)
        elif self.kind == "gate":
            loop = "while :; do '%s' run --quick --no-color >/dev/null 2>&1; done" % GATE
            self.proc = subprocess.Popen(["sh", "-c", loop], start_new_session=True)
        return self

    def __exit__(self, *exc):
        if self.proc:
            os.killpg(self.proc.pid, 9)
            self.proc.wait()


def gate_cmd(mode, dirs, tier, env, toy, json_path):
    if mode == "ab":
        cmd = [GATE, "ab", "--no-color", "--json", json_path] + tier_flags(tier)
        return cmd + scope(toy) + (["--b-env", env] if env else [])
    d = dirs[0] if mode in ("same", "given") else dirs[1]
    cmd = [GATE, "run", "--baseline-dir", d, "--no-color", "--json", json_path]
    return cmd + tier_flags(tier) + scope(toy) + (["--env", env] if env else [])


def detect(args, tmp):
    names = [c for c in args.changes.split(",") if c]
    dirs = {}
    print("detection: mode %s, %s tier, %d trials, build %s, kernels %s" % (
        args.mode, args.tier, args.trials, BUILD, ",".join(KERNELS) or "all"))
    print("%-10s %-8s %s" % ("change", "caught", "failing (and improved) metric classes (runs)"))
    for name in names:
        env, toy = CHANGES[name]
        if toy and args.mode == "given":
            print("%-10s skipped: the toy has no baseline in %s" % (name, args.baseline_dir))
            continue
        if toy not in dirs and args.mode == "given":
            dirs[toy] = given(tmp, args.baseline_dir)
        elif toy not in dirs and args.mode != "ab":
            dirs[toy] = record(tmp, args.tier, toy)
        caught, by = 0, {}
        # the baselines are recorded quietly; the neighbour joins the runs
        with Neighbour(args.load):
            for _ in range(args.trials):
                path = os.path.join(tmp, "r.json")
                code, classes = run(gate_cmd(args.mode, dirs.get(toy), args.tier, env, toy,
                                             path), path)
                caught += code == 1
                for c in classes:
                    by[c] = by.get(c, 0) + 1
        print("%-10s %2d of %-2d %s" % (name, caught, args.trials,
                                        ", ".join("%s %d" % kv for kv in sorted(by.items()))))
        sys.stdout.flush()


def false_alarms(args, tmp):
    if args.mode == "given":
        dirs = given(tmp, args.baseline_dir)
    elif args.mode == "ab":
        dirs = None
    else:
        dirs = record(tmp, args.tier, False)
    failing, by, codes = 0, {}, {}
    with Neighbour(args.load):
        for i in range(args.runs):
            path = os.path.join(tmp, "r.json")
            code, classes = run(gate_cmd(args.mode, dirs, args.tier, None, False, path), path)
            # one line a run, so that a series cut short still says what it saw
            print("run %d: exit %d %s%s" % (i + 1, code, " ".join(sorted(classes)) or "-",
                                            "".join("\n  failed: " + f for f in FAILED_SERIES)))
            del FAILED_SERIES[:]
            sys.stdout.flush()
            failing += code != 0
            codes[code] = codes.get(code, 0) + 1
            for c in classes:
                by[c] = by.get(c, 0) + 1
    print("false alarms: mode %s, %s tier, kernels %s, %d unchanged runs: %d failing; "
          "exit codes %s; failing metric classes %s" % (
              args.mode, args.tier, ",".join(KERNELS) or "all", args.runs, failing,
              sorted(codes.items()), sorted(by.items()) or "none"))
    if FAILED_EXPECTATIONS:
        print("failing expectations: %s" % ", ".join(FAILED_EXPECTATIONS))


def timed(args, tmp):
    for flag in ["--cost", "--no-cost"]:
        start = time.time()
        subprocess.run([GATE, "run", flag, "--no-color", "--baseline-dir", tmp] +
                       tier_flags(args.tier), stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        print("%s tier %-9s %.1f s" % (args.tier, flag, time.time() - start))


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("what", choices=["detect", "false", "time"])
    p.add_argument("--mode", choices=["relabelled", "same", "given", "ab"], default="relabelled")
    p.add_argument("--baseline-dir", help="with --mode given: the baselines to compare against")
    p.add_argument("--load", choices=["none", "loop", "gate"], default="none")
    p.add_argument("--trials", type=int, default=20)
    p.add_argument("--runs", type=int, default=100)
    p.add_argument("--tier", choices=["quick", "default"], default="quick")
    p.add_argument("--changes", default=",".join(CHANGES))
    p.add_argument("--kernels", default="", help="only these seed kernels (a,b)")
    args = p.parse_args()
    KERNELS.extend(k for k in args.kernels.split(",") if k)
    if not os.access(GATE, os.X_OK):
        sys.exit("ci/costbench.py: %s is not built (./gate --version)" % GATE)
    for name in args.changes.split(","):
        if name and name not in CHANGES:
            sys.exit("ci/costbench.py: unknown change %s (known: %s)" % (name, ",".join(CHANGES)))
    if args.mode == "given" and not (args.baseline_dir and os.path.isdir(args.baseline_dir)):
        sys.exit("ci/costbench.py: --mode given needs --baseline-dir DIR")
    tmp = tempfile.mkdtemp(prefix="allocgate-costbench-")
    start = time.time()
    print("load: %s; %s" % (args.load, time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())))
    try:
        {"detect": detect, "false": false_alarms, "time": timed}[args.what](args, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("took %.0f s" % (time.time() - start))


if __name__ == "__main__":
    main()
