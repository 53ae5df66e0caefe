#!/bin/sh
# ci/action.sh: what the composite action (action.yml) runs, for any
# repository and any build command; runs locally too. Installs allocgate
# (from this checkout, into AG_PREFIX) unless AG_GATE names a gate already
# installed, builds the project's kernels with AG_BUILD, and gates them:
#   AG_MODE=baseline  gate run against the project's baselines; with
#                     AG_HISTORY_DIR, its result (exit 0 or 1) is then kept
#                     there by `gate history add` (docs/install.md, "A
#                     history of the main branch")
#   AG_MODE=record    gate run --update-baseline: records this runner's
#                     baseline into AG_BASELINE_DIR and copies it to
#                     AG_OUT/baselines/ (uploaded with the reports, for review)
#   AG_MODE=ab        gate ab: the kernels of AG_BASE (default: the pull
#                     request's base branch, else HEAD~1), built by the same
#                     command in a git worktree, against this checkout's; a
#                     base without kernels (a first pull request) or one that
#                     does not build: B alone, its own claims gating;
#                     AG_SAMPLING=duet|interleaved (empty: the gate's
#                     default) says how gate ab takes its samples
# Reports (result.json, junit.xml, summary.md, svg/, and svg/flame/ with
# the flame graphs of the allocation call stacks) go to AG_OUT, and
# pr-number.txt (the pull request's number) when GITHUB_EVENT_NAME is
# pull_request or pull_request_target; the markdown is appended to
# GITHUB_STEP_SUMMARY and annotations printed when GITHUB_ACTIONS=true (the
# gate does both); then, when the gate wrote flame graphs, a line of the
# step summary names their folder and the artifact AG_ARTIFACT_NAME that
# uploads them. Exits with the gate's status.
#
# Environment (the action's inputs): AG_BUILD (required), AG_KERNEL_DIR
# (build/kernels; the counted twins in AG_KERNEL_DIR-counted), AG_BASELINE_DIR
# (baselines), AG_TIER (quick|default|full; default), AG_MODE (baseline),
# AG_BASE, AG_SAMPLING (duet|interleaved|empty), AG_ALLOCATOR,
# AG_GATE_POLICY (--gate: counts,cost,timing,
# deterministic or all; empty: the gate's default), AG_HISTORY_DIR (mode
# baseline: the history's directory; empty: none), AG_ARGS (more gate
# arguments, split on spaces),
# AG_OUT (allocgate-reports), AG_ARTIFACT_NAME (the uploaded reports' name,
# allocgate-reports), AG_PREFIX (RUNNER_TEMP/allocgate), AG_GATE.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
say() { echo "allocgate action: $*" >&2; }
[ -n "${AG_BUILD:-}" ] || { say "AG_BUILD (the input 'build') is required"; exit 2; }
kdir=${AG_KERNEL_DIR:-build/kernels}
out=${AG_OUT:-allocgate-reports}
mode=${AG_MODE:-baseline}

gate=${AG_GATE:-}
if [ -z "$gate" ]; then
	prefix=${AG_PREFIX:-${RUNNER_TEMP:-/tmp}/allocgate}
	sh "$here/ci/install-deps.sh" --runtime || { say "installing the dependencies failed"; exit 2; }
	# its own build directory and ninja file: the checkout's build/ is left alone
	(cd "$here" && python3 configure.py --prefix "$prefix" --builddir build-action \
		--ninja-file build-action.ninja >/dev/null &&
		ninja -f build-action.ninja install >build-action.log 2>&1) ||
		{ cat "$here/build-action.log" >&2; say "building allocgate failed"; exit 2; }
	gate=$prefix/bin/gate
	PKG_CONFIG_PATH="$prefix/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
	PATH="$prefix/bin:$PATH"
	export PKG_CONFIG_PATH PATH
	if [ -n "${GITHUB_ENV:-}" ]; then   # later steps of the job find it too
		echo "PKG_CONFIG_PATH=$PKG_CONFIG_PATH" >>"$GITHUB_ENV"
		echo "$prefix/bin" >>"${GITHUB_PATH:-/dev/null}"
	fi
fi

mkdir -p "$out"
# a pull request's number, uploaded with the reports: a workflow_run job
# in the base repository comments with them where this job's token cannot
# (a fork's pull request; docs/install.md, "Comments on pull requests")
case "${GITHUB_EVENT_NAME:-}" in
pull_request | pull_request_target)
	python3 -c '
import json, sys
n = json.load(open(sys.argv[1]))["pull_request"]["number"]
assert type(n) is int and n > 0, n
print(n)' "${GITHUB_EVENT_PATH:-}" >"$out/pr-number.txt" 2>/dev/null || {
		rm -f "$out/pr-number.txt"
		say "no pull request number in GITHUB_EVENT_PATH (${GITHUB_EVENT_PATH:-unset})"
	}
	;;
esac

say "building the kernels: $AG_BUILD"
sh -c "$AG_BUILD" || { say "the build command failed: $AG_BUILD"; exit 2; }

set -- --no-color
case "${AG_TIER:-default}" in
quick) set -- "$@" --quick ;;
full) set -- "$@" --full ;;
default) ;;
*) say "tier '${AG_TIER}': expected quick, default or full"; exit 2 ;;
esac
[ -n "${AG_ALLOCATOR:-}" ] && set -- "$@" --allocator "$AG_ALLOCATOR"
[ -n "${AG_GATE_POLICY:-}" ] && set -- "$@" --gate "$AG_GATE_POLICY"
set -- "$@" --json "$out/result.json" --junit "$out/junit.xml" --markdown "$out/summary.md" \
	--svg "$out/svg" --html "$out/report.html" --dhat "$out/stacks.dhat.json"
# shellcheck disable=SC2086
[ -n "${AG_ARGS:-}" ] && set -- "$@" $AG_ARGS

# The whole report (--html: one page that opens offline, docs/options.md)
# and the flame graphs this run writes (--svg: DIR/flame/, from the cost
# pass's call stacks, docs/sites.md, "Flame graphs"; the same stacks for
# DHAT's viewer, --dhat, where there are flame graphs), named in the step
# summary with the artifact that carries them; a file not written, no
# line. Those of an earlier run in AG_OUT are removed first, so that the
# lines speak of this run's alone.
rm -rf "$out/svg/flame" "$out/report.html" "$out/stacks.dhat.json"
flame_note() {
	[ -n "${GITHUB_STEP_SUMMARY:-}" ] || return 0
	artifact=${AG_ARTIFACT_NAME:-allocgate-reports}
	# shellcheck disable=SC2016 # markdown's backquotes, not a command
	[ -f "$out/report.html" ] &&
		printf '\n**The whole report**: `report.html` in the artifact `%s` (opens offline in a browser).\n' \
			"$artifact" >>"$GITHUB_STEP_SUMMARY"
	n=$(find "$out/svg/flame" -maxdepth 1 -name '*.svg' 2>/dev/null | wc -l | tr -d ' ')
	[ "$n" -gt 0 ] || return 0
	# shellcheck disable=SC2016 # markdown's backquotes, not a command
	{
		printf '\n**Allocation flame graphs**: %s SVG files in the folder `svg/flame/` of\n' "$n"
		printf 'the artifact `%s`: per variant `KERNEL.VARIANT.PARAMS.calls.svg` and\n' "$artifact"
		printf '`.instructions.svg`, `.diff.svg` against the baseline or the base (red\n'
		printf 'where a frame grew, blue where it shrank) and `.changed.svg`, the stacks\n'
		printf 'that changed alone.\n'
		[ -f "$out/stacks.dhat.json" ] &&
			printf '\nThe same call stacks as `stacks.dhat.json`, for DHAT'"'"'s viewer (valgrind'"'"'s `dh_view.html`).\n'
	} >>"$GITHUB_STEP_SUMMARY"
}
trap flame_note EXIT

case "$mode" in
baseline)
	say "$gate run --kernel-dir $kdir --baseline-dir ${AG_BASELINE_DIR:-baselines} $*"
	"$gate" run --kernel-dir "$kdir" --baseline-dir "${AG_BASELINE_DIR:-baselines}" "$@"
	code=$?
	[ -n "${AG_HISTORY_DIR:-}" ] || exit $code
	# a run that measured everything (0 pass, 1 regression) joins the
	# history; a crashed or unmeasured one would read as a change
	if [ $code -gt 1 ]; then
		say "exit $code: the result is not added to the history in $AG_HISTORY_DIR"
		exit $code
	fi
	"$gate" history add "$out/result.json" --dir "$AG_HISTORY_DIR" ||
		{ say "gate history add failed: $AG_HISTORY_DIR is unchanged"; exit 2; }
	exit $code
	;;
record)
	bdir=${AG_BASELINE_DIR:-baselines}
	say "$gate run --update-baseline --kernel-dir $kdir --baseline-dir $bdir $*"
	"$gate" run --update-baseline --kernel-dir "$kdir" --baseline-dir "$bdir" "$@"
	code=$?
	# the recorded file travels with the reports: a person reviews it and
	# commits it (docs/install.md, "The baseline of a hosted runner")
	mkdir -p "$out/baselines" && cp "$bdir"/*.json "$out/baselines/" 2>/dev/null ||
		say "no baseline file in $bdir to upload"
	exit $code
	;;
ab) ;;
*) say "mode '$mode': expected baseline, record or ab"; exit 2 ;;
esac
case "${AG_SAMPLING:-}" in
duet | interleaved) set -- "$@" --sampling "$AG_SAMPLING" ;;
"") ;;
*) say "sampling '$AG_SAMPLING': expected duet, interleaved or empty"; exit 2 ;;
esac

base=${AG_BASE:-}
if [ -z "$base" ] && [ -n "${GITHUB_BASE_REF:-}" ]; then
	git fetch -q --depth=50 origin "$GITHUB_BASE_REF" 2>/dev/null || true
	base=$(git merge-base HEAD "origin/$GITHUB_BASE_REF" 2>/dev/null || echo "origin/$GITHUB_BASE_REF")
fi
base=${base:-HEAD~1}
rev=$(git rev-parse --verify -q "$base^{commit}") ||
	{ say "'$base' is not a revision here (fetch-depth: 0 in actions/checkout?)"; exit 2; }
top=$(git rev-parse --show-toplevel) || exit 2
sub=$(git rev-parse --show-prefix)   # the working directory inside the repository
. "$here/ci/worktree.sh"
# at a path of the checkout's length: a build with absolute paths is then
# the same code on both sides where the source is (ci/worktree.sh)
wt=$(worktree_dir "$(cd "$top" && pwd -P)") ||
	say "no directory of the checkout's length ($top) for the base: a build with absolute paths (CMake) is measured even where the code did not change"
[ -d "$wt" ] || { say "cannot make a directory for the base's worktree"; exit 2; }
trap 'git -C "$top" worktree remove --force "$wt" >/dev/null 2>&1; rm -rf "$wt"; flame_note' EXIT
git -C "$top" worktree add -q --detach "$wt" "$rev" || { say "cannot check out $base"; exit 2; }
say "A = $base ($(git log -1 --format='%h %s' "$rev")), B = this checkout"
adir=$wt/$sub$kdir
if ! (cd "$wt/$sub" && sh -c "$AG_BUILD") >"$out/base-build.log" 2>&1; then
	# a first pull request: the base has no kernels (nor, often, the
	# build's target); gate ab then measures B alone and says so
	say "the base revision does not build (log: $out/base-build.log): B measured alone"
	[ "${GITHUB_ACTIONS:-}" = true ] &&
		echo "::warning title=allocgate: no base to compare::the base revision $base does not build the kernels (first pull request?): B measured alone, its own claims gate; $out/base-build.log says why"
	adir=$wt/$sub.allocgate-no-base-kernels
fi
"$gate" ab --a-kernel-dir "$adir" --b-kernel-dir "$kdir" --a-label base --b-label head "$@"
