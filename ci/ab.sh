#!/bin/sh
# ci/ab.sh: the A/B gate of a change. A = the kernels of BASE (a git
# revision), B = this checkout's, measured in the same shuffled rounds by
# `gate ab`, so that the machine's drift hits both and changes of a few
# percent are seen (docs/noise.md). BASE is checked out in a git worktree,
# build/ab-base, and built there by its own configure.py. Runs locally and
# in the workflow's pull-request job. Reports go to GATE_OUT (default
# build/ci): result-ab.json, junit-ab.xml, summary-ab.md.
#
#   ci/ab.sh [BASE] [gate ab options...]
#
# BASE defaults to the merge base with origin/main, else HEAD~1. Extra
# arguments go to `gate ab`, e.g. ci/ab.sh origin/main --quick --kernel resize.
# Exits with the gate's status (1: B regressed against A).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root" || exit 2
out=${GATE_OUT:-build/ci}
wt=build/ab-base

if [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; then
	base=$1
	shift
elif git rev-parse --verify -q origin/main >/dev/null; then
	base=$(git merge-base HEAD origin/main) || exit 2
else
	base=HEAD~1
fi
rev=$(git rev-parse --verify -q "$base^{commit}") || {
	echo "ci/ab.sh: '$base' is not a revision of this repository (fetch it, or pass one)" >&2
	exit 2
}

. "$root/ci/deps.sh"
gate_build "$root" || exit 2

# The base's worktree: made once, moved to REV on later runs.
git worktree prune
if [ -d "$wt/.git" ] || [ -f "$wt/.git" ]; then
	git -C "$wt" checkout -q --detach "$rev" || exit 2
else
	rm -rf "$wt"
	git worktree add -q --detach "$wt" "$rev" || exit 2
fi
echo "ci/ab.sh: A = $base ($(git log -1 --format='%h %s' "$rev")), B = this checkout" >&2
if ! (gate_build "$(cd "$wt" && pwd)"); then
	echo "ci/ab.sh: the base revision does not build (log above)" >&2
	exit 2
fi

mkdir -p "$out"
build/gate ab --a-kernel-dir "$wt/build/kernels" --b-kernel-dir build/kernels \
	--a-label base --b-label head --no-color \
	--json "$out/result-ab.json" --junit "$out/junit-ab.xml" \
	--markdown "$out/summary-ab.md" "$@"
status=$?
echo "ci/ab.sh: gate ab exit $status (reports in $out)" >&2
exit $status
