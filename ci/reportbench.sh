#!/bin/sh
# ci/reportbench.sh [GATE ARGS...]
#
# The --html report of a whole run (docs/measurements.md, "The HTML report
# of the whole suite"): runs `./gate --json R --html P` with GATE ARGS (the
# suite's default run when none), then renders the same result again with
# `gate merge R` ROUNDS times with --html and ROUNDS times without, in
# turn, and prints the page's size, the run's wall time, the render's time
# (the least of the rounds with --html less the least without: loading the
# JSON is in both) and that time as a share of the run, with the machine's
# CPU. Exit 0 when the run measured (0 or 1), else the gate's status.
set -u
rounds=${ROUNDS:-7}
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/allocgate-reportbench-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cd "$root" || exit 2
./gate --json "$tmp/r.json" --html "$tmp/r.html" --svg "$tmp/svg" "$@" >"$tmp/run.log" 2>&1
code=$?
if [ $code -gt 1 ] || [ ! -f "$tmp/r.html" ]; then
	tail -5 "$tmp/run.log" >&2
	echo "reportbench: the run exited $code without its report" >&2
	exit $code
fi
gate=$root/build/gate
now_ms() { date +%s%N | cut -c1-13; }
best_with=0 best_without=0
i=0
while [ $i -lt "$rounds" ]; do
	t0=$(now_ms)
	"$gate" merge "$tmp/r.json" --html "$tmp/m.html" >/dev/null 2>&1
	t1=$(now_ms)
	"$gate" merge "$tmp/r.json" >/dev/null 2>&1
	t2=$(now_ms)
	with=$((t1 - t0)) without=$((t2 - t1))
	{ [ $best_with -eq 0 ] || [ $with -lt $best_with ]; } && best_with=$with
	{ [ $best_without -eq 0 ] || [ $without -lt $best_without ]; } && best_without=$without
	i=$((i + 1))
done
python3 - "$tmp/r.json" "$tmp/r.html" "$tmp/svg" "$best_with" "$best_without" "$code" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1]))
size = os.path.getsize(sys.argv[2])
flames = os.path.join(sys.argv[3], "flame")
n_flame = len(os.listdir(flames)) if os.path.isdir(flames) else 0
wall = float(r.get("wall_seconds") or 0)
render_ms = max(int(sys.argv[4]) - int(sys.argv[5]), 0)
stacks = len(r.get("stacks") or [])
info = {}
try:
    for line in open("/proc/cpuinfo"):
        key, _, value = line.partition(":")
        info.setdefault(key.strip(), value.strip())
except OSError:
    pass
cpu = "%s family %s model %s" % (info.get("model name", "?"), info.get("cpu family", "?"),
                                 info.get("model", "?"))
print(f"reportbench: {cpu}; exit {sys.argv[6]}; {len(r.get('series') or [])} series, {stacks} call stacks")
print(f"reportbench: report.html {size:,} bytes ({size / 2**20:.2f} MiB); {n_flame} flame graph files")
share = render_ms / 1000 / wall * 100 if wall else float("nan")
print(f"reportbench: run {wall:.1f} s; rendering the page {render_ms} ms "
      f"(best of rounds, with less without); {share:.2f}% of the run")
PY
