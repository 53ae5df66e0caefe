#!/bin/sh
# ci/test.sh: the test command (README). Installs what the tests need (as
# root with apt-get; otherwise names it), configures, builds everything, and
# runs the Criterion suite (unit tests and end-to-end tests on the test
# kernels), then each fuzz target for a few seconds (ci/fuzz.sh --smoke:
# a target that no longer builds or crashes on its seeds fails the test
# command; without clang's libFuzzer one line says why none ran). Extra arguments go to configure.py, e.g. --sanitize=address,undefined;
# but --no-install (or ALLOCGATE_NO_INSTALL=1): no apt-get, only the names
# of what is missing (ci/deps.sh, docs/install.md).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
for arg in "$@"; do
	shift
	if [ "$arg" = --no-install ]; then
		ALLOCGATE_NO_INSTALL=1
		export ALLOCGATE_NO_INSTALL
	else
		set -- "$@" "$arg"
	fi
done
. "$root/ci/deps.sh"
gate_deps_ensure tests || exit 2
gate_optional_ensure
gate_tests_optional_ensure
gate_fuzz_ensure
if [ $# -gt 0 ] || [ ! -f build.ninja ]; then
	python3 configure.py "$@" || exit 2
fi
gate_build "$root" all || exit 2
# One job: the end-to-end tests time kernels, and tests running beside them
# on a 2-core machine would be the noise they have to see through.
# --verbose names each skipped test with its reason ([SKIP] lines); the
# lines of the tests that ran and passed go to build/tests/unit.log only.
{
	build/tests/unit --jobs 1 --timeout 600 --verbose 2>&1
	echo $? >build/tests/unit.status
} | tee build/tests/unit.log | grep -v -e '^\[RUN \]' -e '^\[PASS\]' -e '^\[====\] Running'
status=$(cat build/tests/unit.status)
[ $status -eq 0 ] || echo "ci/test.sh: the suite failed (exit $status)" >&2
if grep -q '^build fuzz: phony' build.ninja; then
	ci/fuzz.sh --smoke || { echo "ci/test.sh: the fuzz smoke run failed" >&2; status=1; }
else
	echo "ci/test.sh: no fuzz smoke run:" \
		"$(sed -n 's/^# fuzz: //p' build.ninja)" >&2
fi
exit $status
