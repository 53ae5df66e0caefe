#!/bin/sh
# ci/action.sh: what the composite action (action.yml) runs, for any
# repository and any build command; runs locally too. Installs allocgate
# (from this checkout, into AG_PREFIX) unless AG_GATE names a gate already
# installed, builds the project's kernels with AG_BUILD, and gates them:
#   AG_MODE=baseline  gate run against the project's baselines
#   AG_MODE=ab        gate ab: the kernels of AG_BASE (default: the pull
#                     request's base branch, else HEAD~1), built by the same
#                     command in a git worktree, against this checkout's
# Reports (result.json, junit.xml, summary.md, svg/) go to AG_OUT; the
# markdown is appended to GITHUB_STEP_SUMMARY and annotations printed when
# GITHUB_ACTIONS=true (the gate does both). Exits with the gate's status.
#
# Environment (the action's inputs): AG_BUILD (required), AG_KERNEL_DIR
# (build/kernels; the counted twins in AG_KERNEL_DIR-counted), AG_BASELINE_DIR
# (baselines), AG_TIER (quick|default|full; default), AG_MODE (baseline),
# AG_BASE, AG_ALLOCATOR, AG_ARGS (more gate arguments, split on spaces),
# AG_OUT (allocgate-reports), AG_PREFIX (RUNNER_TEMP/allocgate), AG_GATE.
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

say "building the kernels: $AG_BUILD"
sh -c "$AG_BUILD" || { say "the build command failed: $AG_BUILD"; exit 2; }

mkdir -p "$out"
set -- --no-color
case "${AG_TIER:-default}" in
quick) set -- "$@" --quick ;;
full) set -- "$@" --full ;;
default) ;;
*) say "tier '${AG_TIER}': expected quick, default or full"; exit 2 ;;
esac
[ -n "${AG_ALLOCATOR:-}" ] && set -- "$@" --allocator "$AG_ALLOCATOR"
set -- "$@" --json "$out/result.json" --junit "$out/junit.xml" --markdown "$out/summary.md" \
	--svg "$out/svg"
# shellcheck disable=SC2086
[ -n "${AG_ARGS:-}" ] && set -- "$@" $AG_ARGS

case "$mode" in
baseline)
	say "$gate run --kernel-dir $kdir --baseline-dir ${AG_BASELINE_DIR:-baselines} $*"
	"$gate" run --kernel-dir "$kdir" --baseline-dir "${AG_BASELINE_DIR:-baselines}" "$@"
	exit $?
	;;
ab) ;;
*) say "mode '$mode': expected baseline or ab"; exit 2 ;;
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
wt=$(mktemp -d "${RUNNER_TEMP:-/tmp}/allocgate-base-XXXXXX")
trap 'git -C "$top" worktree remove --force "$wt" >/dev/null 2>&1; rm -rf "$wt"' EXIT
git -C "$top" worktree add -q --detach "$wt" "$rev" || { say "cannot check out $base"; exit 2; }
say "A = $base ($(git log -1 --format='%h %s' "$rev")), B = this checkout"
(cd "$wt/$sub" && sh -c "$AG_BUILD") >"$out/base-build.log" 2>&1 ||
	{ cat "$out/base-build.log" >&2; say "the base revision does not build"; exit 2; }
"$gate" ab --a-kernel-dir "$wt/$sub$kdir" --b-kernel-dir "$kdir" "$@"
