#!/bin/sh
# ci/fuzz.sh: runs the fuzz targets (tests/fuzz/fuzz_<target>.c), which the
# build itself makes when configure.py finds clang with libFuzzer
# (build/fuzz/fuzz_<target>, -fsanitize=fuzzer,address,undefined), one
# target at a time, from the seeds in tests/fuzz/corpus/<target>/ and the
# regressions in tests/fuzz/regressions/<target>/, with the dictionary
# tests/fuzz/dict/<target>.dict (docs/robustness.md, "Fuzzing").
#   ci/fuzz.sh                      every target, 10,000,000 executions each
#   ci/fuzz.sh expr record          those targets only
#   ci/fuzz.sh --runs 50000 expr    fewer executions
#   ci/fuzz.sh --time 600           at most 600 s a target (what it reached is printed)
#   ci/fuzz.sh --smoke              3 s a target from the seeds (ci/test.sh runs this)
# New inputs go to build/fuzz/corpus/<target>/ (the committed seeds are not
# changed; --smoke keeps none); a crash, leak or timeout leaves its input in
# build/fuzz/crashes/<target>/ and fails the target. Logs:
# build/fuzz/logs/<target>.log (--smoke: build/fuzz/smoke/<target>.log). Exit 0 when every target ran and passed, 1
# when one failed, 2 when the targets could not be built.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
runs=10000000
max_time=0
smoke=""
while [ $# -gt 0 ]; do
	case "$1" in
	--runs) runs=$2; shift 2 ;;
	--time) max_time=$2; shift 2 ;;
	--smoke) smoke=1 runs=-1 max_time=3; shift ;;
	-*) echo "ci/fuzz.sh: unknown option $1 (see the comment at its top)" >&2; exit 2 ;;
	*) break ;;
	esac
done
targets=$*
[ -n "$targets" ] || targets=$(cd tests/fuzz && ls fuzz_*.c | sed 's/^fuzz_//; s/\.c$//')

. "$root/ci/deps.sh"
# configured again (same arguments) when clang was installed since
[ -f build.ninja ] || python3 configure.py >/dev/null || exit 2
ninja build.ninja >/dev/null || exit 2
if ! grep -q '^build fuzz: phony' build.ninja; then
	echo "ci/fuzz.sh: no fuzz targets in this build:" \
		"$(sed -n 's/^# fuzz: //p' build.ninja)" >&2
	exit 2
fi
gate_build "$root" fuzz || exit 2

# fuzz_run TARGET: runs one target; prints one line; 0 when it passed.
fuzz_run() {
	t=$1
	exe=build/fuzz/fuzz_$t
	[ -x "$exe" ] || { echo "fuzz_$t: FAILED: no $exe (tests/fuzz/fuzz_$t.c?)"; return 1; }
	log=build/fuzz/logs/$t.log
	new=build/fuzz/corpus/$t
	if [ -n "$smoke" ]; then # apart from a long run going on beside it
		log=build/fuzz/smoke/$t.log
		new=build/fuzz/smoke/$t
		rm -rf "$new"
	fi
	mkdir -p build/fuzz/logs "$new" "build/fuzz/crashes/$t"
	dict=""
	[ -f "tests/fuzz/dict/$t.dict" ] && dict="-dict=tests/fuzz/dict/$t.dict"
	seeds="tests/fuzz/corpus/$t"
	[ -d "tests/fuzz/regressions/$t" ] && seeds="$seeds tests/fuzz/regressions/$t"
	start=$(date +%s)
	# shellcheck disable=SC2086
	"$exe" -runs="$runs" -max_total_time="$max_time" -max_len=16384 -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 $dict \
		-artifact_prefix="build/fuzz/crashes/$t/" "$new" $seeds >"$log" 2>&1
	rc=$?
	wall=$(($(date +%s) - start))
	done_line=$(grep -aE '^Done [0-9]+ runs' "$log" | tail -1)
	cov=$(grep -aoE 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
	if [ $rc -eq 0 ] && [ -n "$done_line" ]; then
		echo "fuzz_$t: ok: ${done_line#Done } ($cov, $rate exec/s, wall $wall s)"
		return 0
	fi
	echo "fuzz_$t: FAILED (exit $rc, wall $wall s); log $log:"
	grep -aE 'ERROR|SUMMARY|Test unit written' "$log" | head -5
	echo "  keep the input as tests/fuzz/regressions/$t/<name> with the fix and a unit test"
	return 1
}

ran=0 failed=0
for t in $targets; do
	ran=$((ran + 1))
	fuzz_run "$t" || failed=$((failed + 1))
done
echo "ci/fuzz.sh: $ran targets ran, $((ran - failed)) passed, $failed failed" \
	"(${smoke:+smoke: }runs $runs, max $max_time s each)"
[ $failed -eq 0 ]
