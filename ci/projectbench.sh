#!/bin/sh
# ci/projectbench.sh [--runs N] [--tier quick|default] [--load none|loop] [--gate POLICY]
#
# The benchmark of gating another project's library (docs/install.md):
# examples/hooked_json, a shared library that allocates only through hooks,
# gated by an installed allocgate found on PATH, as a shared CI runner would
# run it. It installs this checkout's build into a temporary prefix, builds
# the example unchanged and with its growth-policy regression
# (-DJW_GROWTH_STEP=64), records a baseline of the unchanged build, then
# runs `gate run` N times on the unchanged build and N times on the
# regression, under the policy given (default: the gate's own default),
# quiet or beside a shell loop busy on the last CPU (--load loop). It
# prints one line per run (exit status, seconds, what failed) and a
# summary: unchanged runs that failed (false alarms) and regression runs
# caught, and whether the library's file:line was named. Build first
# (./gate --version). Exit 0 when it ran, 1 when a step failed.
set -u
runs=10
tier=quick
load=none
policy=
while [ $# -gt 0 ]; do
	case $1 in
	--runs) runs=$2; shift 2 ;;
	--tier) tier=$2; shift 2 ;;
	--load) load=$2; shift 2 ;;
	--gate) policy=$2; shift 2 ;;
	*) echo "usage: ci/projectbench.sh [--runs N] [--tier quick|default] [--load none|loop] [--gate POLICY]" >&2; exit 2 ;;
	esac
done
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/allocgate-projectbench-XXXXXX)
loop_pid=
cleanup() {
	[ -n "$loop_pid" ] && kill "$loop_pid" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
fail() {
	echo "projectbench: $*" >&2
	exit 1
}

cd "$root" && DESTDIR=$tmp/dest ninja install >"$tmp/install.log" 2>&1 ||
	{ cat "$tmp/install.log" >&2; fail "ninja install failed"; }
gate_bin=$(find "$tmp/dest" -path '*/bin/gate' -type f | head -n 1)
[ -n "$gate_bin" ] || fail "ninja install put no bin/gate under DESTDIR"
inst=$(dirname "$(dirname "$gate_bin")")
mkdir -p "$tmp/bin" && ln -s "$gate_bin" "$tmp/bin/gate"
export PATH="$tmp/bin:$PATH" PKG_CONFIG_PATH="$inst/lib/pkgconfig"
unset ALLOCGATE_COMMIT GITHUB_SHA ALLOCGATE_COST

cp -R "$root/examples/hooked_json" "$tmp/project" && cd "$tmp/project" || fail "cannot copy the example"
rm -rf build build-step baselines
make >make.log 2>&1 || { cat make.log >&2; fail "make failed"; }
make BUILD=build-step JW_CFLAGS=-DJW_GROWTH_STEP=64 >make-step.log 2>&1 ||
	{ cat make-step.log >&2; fail "make of the regression failed"; }
line=$(grep -n 'char \*text = jw_realloc' src/jw.c | cut -d: -f1)
tierflag=
[ "$tier" = default ] || tierflag=--$tier
gateflag=
[ -n "$policy" ] && gateflag="--gate $policy"

gate run $tierflag --kernel-dir build/kernels --no-color --update-baseline >update.log 2>&1 ||
	{ cat update.log >&2; fail "--update-baseline failed"; }
# the regression's kernels, under the unchanged build's baseline
mkdir -p baselines-step && cp baselines/*.json baselines-step/

if [ "$load" = loop ]; then
	last=$(($(getconf _NPROCESSORS_ONLN) - 1))
	taskset -c "$last" sh -c 'while :; do :; done' &
	loop_pid=$!
fi
echo "projectbench: examples/hooked_json, $tier tier, $runs runs each, load $load, gate ${policy:-default}, $(date -u '+%Y-%m-%d %H:%M UTC')"
false_alarms=0
caught=0
named=0
i=0
while [ $i -lt "$runs" ]; do
	i=$((i + 1))
	for side in same step; do
		if [ $side = same ]; then dir=build/kernels; bl=baselines; else dir=build-step/kernels; bl=baselines-step; fi
		start=$(date +%s.%N)
		# shellcheck disable=SC2086
		gate run $tierflag $gateflag --kernel-dir "$dir" --baseline-dir "$bl" --no-color \
			--json "$side.json" >"$side.log" 2>&1
		code=$?
		secs=$(awk "BEGIN { print $(date +%s.%N) - $start }")
		what=$(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
bad = sorted({"%s/%s %s" % (s["variant"], s["params"], s["metric"]) for s in d["series"]
              if s["verdict"] == "fail" and s.get("gated", True)})
bad += ["%s:%s" % (e["file"], e["line"]) for e in d["expectations"]
        if e["verdict"] == "fail" and e.get("gated", True)]
print(", ".join(bad[:4]) + (" ..." if len(bad) > 4 else ""))
' "$side.json" 2>/dev/null)
		if [ $side = same ]; then
			[ $code -eq 0 ] || false_alarms=$((false_alarms + 1))
		else
			[ $code -eq 1 ] && caught=$((caught + 1))
			grep -q "src/jw.c:$line: allocation site in" "$side.log" && named=$((named + 1))
		fi
		printf '%-4s %2d exit %d %6.1f s %s\n' "$side" "$i" "$code" "$secs" "$what"
	done
done
echo "projectbench: unchanged: $false_alarms of $runs failed; regression: caught $caught of $runs, src/jw.c:$line named in $named"
