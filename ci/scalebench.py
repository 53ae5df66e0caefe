#!/usr/bin/env python3
"""ci/scalebench.py [--sizes 10,20,40] [--shards 2,4] [--keep DIR]

The scale benchmark (docs/measurements.md, "At scale"): how the gate's time
and memory grow with the number of kernels of a project. For each size N it
writes a synthetic project of N kernels (ci/synth_project.py: 4 variants, 2
parameter sets in the default tier), builds it as a user's project is built
(its own Makefile against this checkout's build installed into a temporary
prefix, found by pkg-config), once as is (A) and once with every kernel's
code changed and its work the same (B, REVISION=1), and measures:

  run        `gate run --kernel-dir build/kernels` (default tier: rounds,
             the counted twins, the cost pass; no baseline)
  no-cost    the same with --no-cost; the cost pass's time is the difference
  ab         `gate ab` of B against A: the pull request of N changed kernels

with the seconds each took and the gate process's own peak resident memory
(VmHWM of /proc/PID/status, read every 0.1 s: the kernels it starts are
other processes and are not counted). At the largest N, for each count S of
--shards, `gate ab --shard I/S --json` is run for every I, one after
another on this machine (on a CI matrix they run side by side, so the
matrix's time is the slowest shard's), and `gate merge` joins them.

Build first (./gate --version). Prints one line per measurement and a
table; exit 0 when every step ran (whatever the gate's verdicts, which are
printed), 1 when a step failed, 2 on bad arguments.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def fail(msg):
    print("scalebench: " + msg, file=sys.stderr)
    sys.exit(1)


def measure(argv, cwd, env, log):
    """Run ARGV; return (exit status, seconds, peak KiB of that process, last line)."""
    with open(log, "w") as out:
        t0 = time.monotonic()
        p = subprocess.Popen(argv, cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        peak = 0
        status_path = "/proc/%d/status" % p.pid
        while p.poll() is None:
            try:
                with open(status_path) as f:
                    for line in f:
                        if line.startswith("VmHWM:"):
                            peak = max(peak, int(line.split()[1]))
            except (OSError, ValueError):
                pass
            time.sleep(0.1)
        seconds = time.monotonic() - t0
    with open(log) as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    last = lines[-1] if lines else ""
    rounds = next((l for l in lines if l.startswith("rounds:")), "")
    return p.returncode, seconds, peak, last, rounds


def install(tmp):
    dest = os.path.join(tmp, "dest")
    env = dict(os.environ, DESTDIR=dest)
    r = subprocess.run(["ninja", "install"], cwd=ROOT, env=env, capture_output=True, text=True)
    if r.returncode != 0:
        fail("ninja install failed:\n" + r.stdout + r.stderr)
    gate = None
    for d, _, files in os.walk(dest):
        if "gate" in files and d.endswith("/bin"):
            gate = os.path.join(d, "gate")
    if not gate:
        fail("ninja install put no bin/gate under DESTDIR")
    prefix = os.path.dirname(os.path.dirname(gate))
    env = dict(os.environ)
    for k in ("ALLOCGATE_COMMIT", "GITHUB_SHA", "ALLOCGATE_COST"):
        env.pop(k, None)
    env["PATH"] = os.path.dirname(gate) + os.pathsep + env["PATH"]
    env["PKG_CONFIG_PATH"] = os.path.join(prefix, "lib", "pkgconfig")
    env["NO_COLOR"] = "1"
    return env


def build_project(n, where, env):
    r = subprocess.run([sys.executable, os.path.join(ROOT, "ci", "synth_project.py"), str(n), where])
    if r.returncode != 0:
        fail("synth_project.py %d failed" % n)
    jobs = str(os.cpu_count() or 1)
    for extra in ([], ["BUILD=build-b", "REVISION=1"]):
        r = subprocess.run(["make", "-s", "-j" + jobs] + extra, cwd=where, env=env,
                           capture_output=True, text=True)
        if r.returncode != 0:
            fail("make %s in %s failed:\n%s%s" % (" ".join(extra), where, r.stdout, r.stderr))


def show(n, what, m):
    status, seconds, peak, last, rounds = m
    print("N=%-3d %-12s exit %d  %7.1f s  peak %6.1f MiB  %s" % (n, what, status, seconds,
                                                                peak / 1024.0, last))
    if rounds:
        print("      %-12s %s" % ("", rounds))
    sys.stdout.flush()


def main():
    ap = argparse.ArgumentParser(description="the gate's time and memory against the number of kernels")
    ap.add_argument("--sizes", default="10,20,40", help="kernel counts, comma list (default 10,20,40)")
    ap.add_argument("--shards", default="2,4", help="shard counts at the largest size ('' for none)")
    ap.add_argument("--keep", help="write the projects and logs here and keep them")
    a = ap.parse_args()
    try:
        sizes = [int(s) for s in a.sizes.split(",")]
        shards = [int(s) for s in a.shards.split(",") if s]
    except ValueError:
        print("scalebench: --sizes and --shards take comma lists of integers", file=sys.stderr)
        return 2
    if not sizes or min(sizes) < 1 or max(sizes) > 999 or any(s < 2 for s in shards):
        print("scalebench: sizes from 1 to 999, shard counts from 2", file=sys.stderr)
        return 2
    tmp = a.keep or tempfile.mkdtemp(prefix="allocgate-scalebench-")
    os.makedirs(tmp, exist_ok=True)
    try:
        env = install(tmp)
        print("scalebench: %s, %d CPUs, sizes %s, shards %s at N=%d" %
              (time.strftime("%Y-%m-%d %H:%M:%S"), os.cpu_count() or 0, sizes, shards, max(sizes)))
        table = []
        for n in sizes:
            proj = os.path.join(tmp, "synth-%d" % n)
            shutil.rmtree(proj, ignore_errors=True)
            build_project(n, proj, env)
            run = measure(["gate", "run", "--kernel-dir", "build/kernels"], proj, env,
                          os.path.join(proj, "run.log"))
            show(n, "run", run)
            nocost = measure(["gate", "run", "--kernel-dir", "build/kernels", "--no-cost"], proj,
                             env, os.path.join(proj, "run-no-cost.log"))
            show(n, "run no-cost", nocost)
            ab = measure(["gate", "ab", "--a-kernel-dir", "build/kernels", "--b-kernel-dir",
                          "build-b/kernels"], proj, env, os.path.join(proj, "ab.log"))
            show(n, "ab", ab)
            table.append((n, run, nocost, ab))
        n = max(sizes)
        proj = os.path.join(tmp, "synth-%d" % n)
        shard_rows = []
        for s in shards:
            times, peaks, files, statuses = [], [], [], []
            for i in range(1, s + 1):
                out = os.path.join(proj, "shard-%d-of-%d.json" % (i, s))
                m = measure(["gate", "ab", "--a-kernel-dir", "build/kernels", "--b-kernel-dir",
                             "build-b/kernels", "--shard", "%d/%d" % (i, s), "--json", out],
                            proj, env, os.path.join(proj, "shard-%d-of-%d.log" % (i, s)))
                show(n, "ab %d/%d" % (i, s), m)
                times.append(m[1])
                peaks.append(m[2])
                statuses.append(m[0])
                files.append(out)
            merged = measure(["gate", "merge"] + files, proj, env,
                             os.path.join(proj, "merge-%d.log" % s))
            show(n, "merge of %d" % s, merged)
            shard_rows.append((s, max(times), sum(times), max(peaks), statuses, merged[0]))
        print()
        print("| N kernels | series timed (variants x sets) | `gate run` | of it the cost pass | `gate ab` | peak memory (gate) |")
        print("|---|---|---|---|---|---|")
        for n, run, nocost, ab in table:
            print("| %d | %d | %.0f s (exit %d) | %.0f s | %.0f s (exit %d) | %.1f MiB |" %
                  (n, 8 * n, run[1], run[0], run[1] - nocost[1], ab[1], ab[0],
                   max(run[2], nocost[2], ab[2]) / 1024.0))
        if shard_rows:
            print()
            print("| N=%d, `gate ab` in S shards | slowest shard | all shards one after another | peak memory | exits | merge |" % max(sizes))
            print("|---|---|---|---|---|---|")
            for s, slowest, total, peak, statuses, merged in shard_rows:
                print("| %d | %.0f s | %.0f s | %.1f MiB | %s | exit %d |" %
                      (s, slowest, total, peak / 1024.0, ",".join(map(str, statuses)), merged))
        return 0
    finally:
        if not a.keep:
            shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
