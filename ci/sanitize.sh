#!/bin/sh
# ci/sanitize.sh: the checks under sanitizers and valgrind, each in its own
# build directory so that the main build/ is left alone.
#   ci/sanitize.sh address,undefined   the whole Criterion suite under ASan/UBSan
#                                      (build-asan/; CI runs this after ci/test.sh)
#   ci/sanitize.sh thread              the threaded kernels and the runner under
#                                      TSan (build-tsan/); Criterion's own runner
#                                      cannot start under TSan, so not the suite
#   ci/sanitize.sh valgrind            build/gate under valgrind memcheck on the
#                                      test kernels: normal, update, and each way a
#                                      kernel can fail (crash, hang, exit, garbage, flood)
# Exits non-zero on the first finding.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
# shellcheck source=ci/deps.sh
. "$root/ci/deps.sh"
gate_deps_ensure tests || exit 2
what=${1:-address,undefined}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/allocgate-sanitize-XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT

build() { # builddir, configure args...
	bd=$1
	shift
	if ! python3 configure.py --builddir "$bd" --ninja-file "$bd.ninja" --debug "$@" >/dev/null ||
		! ninja -f "$bd.ninja" all >"$tmp/ninja.log" 2>&1; then
		cat "$tmp/ninja.log" >&2
		echo "ci/sanitize.sh: $bd does not build" >&2
		exit 2
	fi
}

asan() {
	build build-asan --sanitize=address,undefined
	# quarantine_size_mb=16 (ASan's default is 256): a churning kernel
	# otherwise touches fresh pages for every allocation until 256 MB of
	# frees have passed, and the kernels' runs are most of this suite's time.
	# A use after free is still caught while 16 MB of later frees have not
	# recycled the block: every path of the gate frees far less than that.
	# LeakSanitizer reports when a test's process exits, after Criterion has
	# counted the test as passed: a report anywhere in the output fails.
	{
		UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
			ASAN_OPTIONS=detect_leaks=1:quarantine_size_mb=16 \
			GATE_BUILD_DIR=build-asan build-asan/tests/unit --jobs 1 --timeout 600 2>&1
		echo $? >"$tmp/asan.rc"
	} | tee "$tmp/asan.log"
	if grep -q 'ERROR: LeakSanitizer' "$tmp/asan.log"; then
		echo "ci/sanitize.sh: a test leaked memory (the LeakSanitizer report above)" >&2
		return 1
	fi
	rc=$(cat "$tmp/asan.rc" 2>/dev/null) || rc=2
	return "$rc"
}

tsan() {
	build build-tsan --sanitize=thread
	export TSAN_OPTIONS="halt_on_error=1 exitcode=66"
	for k in refcount thread_cache; do
		list=$(build-tsan/kernels/$k --list) || return 1
		for p in $(echo "$list" | awk '$1 == "params" { print $2 }'); do
			for v in $(echo "$list" | awk '$1 == "variant" { print $2 }'); do
				build-tsan/kernels/$k --variant "$v" --params "$p" >/dev/null ||
					{ echo "tsan: $k $v $p failed" >&2; return 1; }
			done
		done
		echo "tsan: $k: every variant and parameter set ran clean"
	done
	# The runner: expectations may fail under TSan's slowdown (exit 1), but
	# a data race makes it exit 66.
	build-tsan/gate run --kernel-dir build-tsan/kernels --baseline-dir "$tmp" --quick \
		--no-color >/dev/null 2>"$tmp/tsan.err"
	grep -q ThreadSanitizer "$tmp/tsan.err" && { cat "$tmp/tsan.err" >&2; return 1; }
	rc=$?
	[ $rc -le 1 ] || { echo "tsan: build-tsan/gate exit $rc" >&2; return 1; }
	echo "tsan: build-tsan/gate --quick on every kernel: no report (exit $rc)"
}

valgrind_runs() {
	command -v valgrind >/dev/null || { echo "valgrind: not installed (apt-get install valgrind)" >&2; return 2; }
	build build-vg
	vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite,indirect"
	g="build-vg/gate run --kernel-dir build-vg/tests/kernels --baseline-dir $tmp --quick --no-color"
	for args in "--kernel toy --update-baseline" "--kernel toy --json $tmp/r.json" \
		"--kernel toy --seed -1" "--kernel crashy --timeout 2 --env CRASHY_MODE=segv" \
		"--kernel crashy --timeout 2 --env CRASHY_MODE=hang" \
		"--kernel crashy --timeout 2 --env CRASHY_MODE=exit3" \
		"--kernel crashy --timeout 2 --env CRASHY_MODE=garbage" \
		"--kernel crashy --timeout 2 --env CRASHY_MODE=flood --update-baseline"; do
		# shellcheck disable=SC2086
		$vg $g $args >/dev/null 2>"$tmp/vg.err"
		rc=$?
		if [ $rc -eq 99 ] || grep -q '^==' "$tmp/vg.err"; then
			cat "$tmp/vg.err" >&2
			echo "valgrind: gate run $args: errors" >&2
			return 1
		fi
		echo "valgrind: gate run --quick $args: no error (exit $rc)"
	done
}

case $what in
address,undefined | undefined,address) asan ;;
thread) tsan ;;
valgrind) valgrind_runs ;;
*) echo "usage: ci/sanitize.sh [address,undefined|thread|valgrind]" >&2; exit 2 ;;
esac
