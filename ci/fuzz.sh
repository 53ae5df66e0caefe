#!/bin/sh
# ci/fuzz.sh: builds the fuzz targets of tests/fuzz/ with clang's libFuzzer
# (and ASan/UBSan) into build-fuzz/, and runs each for RUNS executions
# (default 1000000) from the seeds in tests/fuzz/corpus/<target>/.
#   ci/fuzz.sh                 every target, 1,000,000 executions each
#   ci/fuzz.sh record 20000    one target, fewer executions
# Dictionaries of the formats' words: tests/fuzz/dict/<target>.dict.
# New inputs found go to build-fuzz/corpus/<target>/ (the committed seeds
# are not changed); a crash leaves build-fuzz/crash-* and exits 1.
# Not part of ninja's default build: it needs clang with -fsanitize=fuzzer
# (Debian: apt-get install clang libclang-rt-14-dev, or clang-14).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
targets=${1:-"baseline record expr kernel_info"}
runs=${2:-1000000}
cc=${FUZZ_CC:-clang}
out=build-fuzz
mkdir -p "$out"
flags="-g -O1 -std=c11 -D_GNU_SOURCE -fsanitize=fuzzer,address,undefined"
flags="$flags -fno-sanitize-recover=undefined -fno-omit-frame-pointer -Igates -Iperf"
# The parsers and what they use (not the whole runner: a file being
# edited elsewhere in gates/ does not stop the fuzzing).
srcs="gates/store/baseline.c gates/sample/record.c gates/decide/expr.c
	gates/sample/kernel_info.c gates/core/result.c gates/store/jsonout.c gates/core/lines.c
	gates/os/atomic_file_posix.c"
jansson=$(pkg-config --cflags --libs jansson) || { echo "ci/fuzz.sh: jansson not found" >&2; exit 2; }
status=0
for t in $targets; do
	exe=$out/fuzz_$t
	# shellcheck disable=SC2086
	$cc $flags -o "$exe" "tests/fuzz/fuzz_$t.c" $srcs $jansson -lm -pthread || {
		echo "ci/fuzz.sh: cannot build fuzz_$t with $cc (needs -fsanitize=fuzzer)" >&2
		exit 2
	}
	mkdir -p "$out/corpus/$t"
	log=$out/fuzz_$t.log
	start=$(date +%s)
	dict=-dict=/dev/null
	[ -f "tests/fuzz/dict/$t.dict" ] && dict="-dict=../tests/fuzz/dict/$t.dict"
	(cd "$out" && "./fuzz_$t" -runs="$runs" -max_len=4096 -timeout=10 "$dict" \
		-print_final_stats=1 "corpus/$t" "../tests/fuzz/corpus/$t") >"$log" 2>&1
	rc=$?
	end=$(date +%s)
	done_line=$(grep -E '^Done [0-9]+ runs' "$log" | tail -1)
	if [ $rc -eq 0 ] && [ -n "$done_line" ]; then
		echo "fuzz_$t: ok: $done_line (wall $((end - start)) s), log $log"
	else
		echo "fuzz_$t: FAILED (exit $rc) after $((end - start)) s; see $log:" >&2
		grep -E 'ERROR|SUMMARY|crash-|Test unit written' "$log" | head -5 >&2
		status=1
	fi
done
exit $status
