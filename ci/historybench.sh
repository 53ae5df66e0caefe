#!/bin/sh
# ci/historybench.sh GOOD BAD BUILD HISTORY_DIR [gate run arguments...]
#
# A history of results over a real project's commits, as the action's
# baseline mode on its main branch would keep it, then `gate history` over
# it (docs/measurements.md, "Which commit"). Run in the project's git
# checkout: every commit after GOOD up to BAD along BAD's first parents,
# and GOOD itself, is checked out in a git worktree, built by BUILD (sh -c,
# at the worktree's top), its kernels in build/kernels run once by `gate
# run --json` (two rounds: the counts and the cost pass are exact) with the
# arguments given, and the result kept by `gate history add` in
# HISTORY_DIR. A commit that does not build is left out of the history (a
# gap, as a failed CI run leaves one). Then `gate history --dir
# HISTORY_DIR` prints the change points. GATE names the gate (default: the
# one on PATH).
set -u
[ $# -ge 4 ] || { echo "usage: ci/historybench.sh GOOD BAD BUILD HISTORY_DIR [gate run args...]" >&2; exit 2; }
good=$1 bad=$2 build=$3 dir=$4
shift 4
gate=${GATE:-gate}
top=$(git rev-parse --show-toplevel) || exit 2
mkdir -p "$dir" && dir=$(cd "$dir" && pwd) || exit 2
start=$(date +%s)
n=0 gaps=0
for c in $(git rev-parse "$good") $(git rev-list --first-parent --reverse "$good..$bad"); do
	wt=$(mktemp -d /tmp/allocgate-history-XXXXXX)
	git -C "$top" worktree add -q --detach "$wt" "$c" || exit 2
	if (cd "$wt" && sh -c "$build") >"$dir/.build.log" 2>&1 &&
		ALLOCGATE_COMMIT=$(git rev-parse --short=7 "$c") "$gate" run --kernel-dir "$wt/build/kernels" \
			--baseline-dir "$wt/.no-baseline" --rounds 2 --warmup 0 --no-color \
			--json "$dir/.result.json" "$@" >/dev/null 2>&1; [ -f "$dir/.result.json" ]; then
		"$gate" history add "$dir/.result.json" --dir "$dir" >/dev/null || exit 2
		n=$((n + 1))
	else
		gaps=$((gaps + 1))
		echo "historybench: $(git log -1 --format='%h %s' "$c"): not built or not measured (a gap)"
	fi
	rm -f "$dir/.result.json"
	git -C "$top" worktree remove --force "$wt"
done
echo "historybench: $n results, $gaps gaps, $(($(date +%s) - start)) s"
"$gate" history --dir "$dir"
