#!/bin/sh
# tests/tutorial.sh [TUTORIAL.md]: docs/tutorial.md followed literally, in
# a fresh temporary HOME (tests/test_tutorial.c). The page's code blocks
# run in order, in one shell, each after a marker that readers do not see:
#   <!-- tutorial: file PATH -->    the next block is written to PATH
#   <!-- tutorial: patch -->        the next block is applied (git apply)
#   <!-- tutorial: run -->          the next block runs under set -e
#   <!-- tutorial: run exit=N -->   ... and must exit N; after a patch, its
#                                   output must name the patch's first added
#                                   line as a realloc turned into malloc + free
#   <!-- tutorial: output -->       every line of the next block is a line of
#                                   the last run's output ("text..." a line
#                                   that begins so, "..." any lines)
#   <!-- tutorial: pull-request --> the workflow's pull-request job runs here
#                                   (its action's ci/action.sh, mode ab, on a
#                                   runner's PATH); the next block is matched
#                                   against its step summary as above
#   <!-- tutorial: variant NAME --> a section of another build: a fresh clone
#                                   of the pushed main, without CMakeLists.txt;
#                                   when it ends, its build gated (counts)
#                                   against the committed baseline
# Blocks without a marker do not run. allocgate is this checkout's files
# (committed or not) in ~/src/allocgate, a git repository of its own; the
# tutorial's own command installs it under ~; its remote `git@github.com:
# you/buf.git` is a bare repository here. Prints "tutorial: ok" and exits
# 0, 77 when cmake or valgrind is missing, or names the block that failed.
# TUTORIAL_KEEP=1 keeps the temporary directory (its path printed last).
set -u
root=$(pwd)
doc=${1:-docs/tutorial.md}
case "$doc" in /*) ;; *) doc=$root/$doc ;; esac
for tool in cmake valgrind git python3 ninja; do
	command -v "$tool" >/dev/null 2>&1 ||
		{ echo "tutorial: skipped: $tool not installed (apt-get install $tool)"; exit 77; }
done
tmp=$(mktemp -d /tmp/allocgate-tutorial-XXXXXX)
tut_block='' tut_log=''
tut_exit() {
	tut_code=$?
	if [ -n "$tut_block" ]; then
		echo "tutorial: the block at ${doc#"$root"/}:$tut_block failed (exit $tut_code):" >&2
		tail -n 40 "$tut_log" >&2
		tut_code=1
	fi
	if [ -n "${TUTORIAL_KEEP:-}" ]; then
		echo "tutorial: kept $tmp" >&2
	else
		rm -rf "$tmp"
	fi
	exit $tut_code
}
trap tut_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
fail() {
	echo "tutorial: $*" >&2
	exit 1
}
unset ALLOCGATE_COMMIT PKG_CONFIG_PATH CMAKE_PREFIX_PATH GIT_DIR GIT_WORK_TREE
unset GITHUB_ACTIONS GITHUB_SHA GITHUB_BASE_REF GITHUB_EVENT_NAME GITHUB_STEP_SUMMARY
steps=$tmp/steps
mkdir -p "$steps" "$tmp/home/src/allocgate"

# the page's marked blocks: steps/NNN (the block) and NNN.spec (the
# marker's words, then the page's line)
awk -v dir="$steps" '
function spec(words) { n++; f = sprintf("%s/%03d", dir, n); print words > (f ".spec");
	print NR > (f ".spec"); close(f ".spec"); printf "" > f; close(f) }
/^<!-- tutorial: .* -->$/ && !fence {
	w = $0; sub(/^<!-- tutorial: /, "", w); sub(/ -->$/, "", w)
	if (pending != "") { print "line " NR ": two markers in a row" > "/dev/stderr"; exit 1 }
	if (w ~ /^variant /) spec(w); else pending = w
	next
}
/^```/ {
	if (!fence && pending != "") { spec(pending); pending = ""; capture = 1 }
	else if (fence && capture) { close(f); capture = 0 }
	fence = !fence
	next
}
capture { print > f; next }
pending != "" && !/^$/ { print "line " NR ": a marker not followed by a code block" > "/dev/stderr"; exit 1 }
' "$doc" || fail "cannot read the markers of $doc"
ls "$steps"/*.spec >/dev/null 2>&1 || fail "$doc has no <!-- tutorial: ... --> marker"

# allocgate, as a reader's clone: this checkout's files in a repository
# whose remote is itself (the tutorial adds it as a submodule from there)
(git ls-files -co --exclude-standard | while IFS= read -r f; do [ -e "$f" ] && echo "$f"; done |
	tar -cf - -T - | tar -xf - -C "$tmp/home/src/allocgate") || fail "cannot copy the checkout"
# no git gc in the background, writing into the directory as it is removed
export HOME="$tmp/home" GIT_CONFIG_NOSYSTEM=1
cat >"$HOME/.gitconfig" <<EOF
[user]
	name = tutorial
	email = tutorial@example.org
[init]
	defaultBranch = main
[protocol "file"]
	allow = always
[gc]
	auto = 0
[maintenance]
	auto = false
[url "$tmp/origin.git"]
	insteadOf = git@github.com:you/buf.git
EOF
(cd "$HOME/src/allocgate" && git init -q && git add -A && git commit -q -m allocgate &&
	git remote add origin "$PWD") || fail "cannot make the allocgate repository"
git init -q --bare "$tmp/origin.git" || fail "cannot make the remote"
tut_runner_path=$PATH   # a runner's: without the tutorial's prefix

# match EXPECTED ACTUAL WHAT: every line of EXPECTED is one of ACTUAL
match() {
	while IFS= read -r tut_want; do
		case "$tut_want" in
		'' | ...) continue ;;
		*...) awk -v p="${tut_want%...}" 'index($0, p) == 1 { f = 1 } END { exit !f }' "$2" ;;
		*) grep -Fqx -- "$tut_want" "$2" ;;
		esac || { cat "$2" >&2; fail "$3 has no line '$tut_want' (${doc#"$root"/}:$tut_line)"; }
	done <"$1"
}

# run BLOCK STATUS: the block in this shell (set -e), or in a subshell
# when it must exit STATUS
run() {
	tut_log=$1.log tut_block=$tut_line
	if [ "$2" = 0 ]; then
		set -e
		# shellcheck source=/dev/null
		. "$1" </dev/null >"$tut_log" 2>&1
		set +e
	else
		(
			set -e
			# shellcheck source=/dev/null
			. "$1"
		) </dev/null >"$tut_log" 2>&1
		tut_code=$?
		[ "$tut_code" = "$2" ] || { cat "$tut_log" >&2; tut_block=''; fail "the block at line $tut_line exited $tut_code, not $2"; }
		if [ -n "$tut_changed" ]; then
			grep -q "^ *$tut_changed [a-z_]*: realloc [0-9,]* -> malloc [0-9,]* + free [0-9,]*$" "$tut_log" ||
				{ cat "$tut_log" >&2; tut_block=''; fail "the gate does not name $tut_changed (line $tut_line)"; }
			tut_named=1
		fi
	fi
	tut_block='' tut_last=$tut_log
}

# the first line the patch adds, as FILE:LINE of the patched file
patched() {
	tut_file=$(sed -n 's|^+++ b/||p' "$1" | head -n 1)
	tut_added=$(sed -n '/^+++ /d; s/^+//p' "$1" | head -n 1)
	tut_n=$(grep -nFx -- "$tut_added" "$tut_file" | head -n 1 | cut -d: -f1)
	[ -n "$tut_n" ] || fail "the patch's line '$tut_added' is not in $tut_file"
	tut_changed=$tut_file:$tut_n
}

# the workflow's pull-request job: its action's script with the
# environment GitHub gives it, on a runner's PATH (allocgate installed by
# the action itself); fails at the changed line, with an annotation, and
# leaves the pull request's number for the comment workflow
pull_request() {
	tut_wf=.github/workflows/allocgate.yml
	[ -f "$tut_wf" ] || fail "no $tut_wf before the pull request"
	tut_build=$(sed -n 's/^ *build: //p' "$tut_wf" | sort -u)
	[ -n "$tut_build" ] && [ "$(printf '%s\n' "$tut_build" | wc -l)" = 1 ] ||
		fail "$tut_wf: not one build command: $tut_build"
	grep -q "mode: .*pull_request.*'ab'" "$tut_wf" || fail "$tut_wf: no mode ab on pull requests"
	[ -n "$tut_changed" ] || fail "a pull request before the patch"
	echo '{"pull_request": {"number": 7}}' >"$tmp/event.json"
	: >"$tmp/step-summary.md"
	tut_log=$tmp/pull-request.log
	PATH=$tut_runner_path GITHUB_ACTION_PATH=$PWD/third_party/allocgate AG_BUILD=$tut_build \
		AG_KERNEL_DIR=build/kernels AG_BASELINE_DIR=baselines AG_TIER=default AG_MODE=ab \
		AG_GATE_POLICY=all AG_OUT=allocgate-reports GITHUB_ACTIONS=true \
		GITHUB_EVENT_NAME=pull_request GITHUB_EVENT_PATH=$tmp/event.json GITHUB_BASE_REF=main \
		GITHUB_STEP_SUMMARY=$tmp/step-summary.md GITHUB_OUTPUT=$tmp/output \
		RUNNER_TEMP=$tmp/runner ALLOCGATE_NO_INSTALL=1 \
		third_party/allocgate/ci/action.sh </dev/null >"$tut_log" 2>&1
	tut_code=$?
	[ "$tut_code" = 1 ] || { cat "$tut_log" >&2; fail "the pull request's job exited $tut_code, not 1"; }
	grep -q "^::error file=${tut_changed%:*},line=${tut_changed##*:}," "$tut_log" ||
		{ cat "$tut_log" >&2; fail "no annotation at $tut_changed"; }
	[ "$(cat allocgate-reports/pr-number.txt 2>&1)" = 7 ] ||
		fail "the reports hold no pr-number.txt of 7: $(cat allocgate-reports/pr-number.txt 2>&1)"
	[ -z "$(git worktree list | sed 1d)" ] || fail "the base's worktree was left behind"
	tut_last=$tmp/step-summary.md tut_pr=1
}

# variant NAME: a fresh clone of what was pushed, its CMake build removed
variant() {
	variant_end
	tut_variant=$1 tut_skip=
	if ! command -v "$1" >/dev/null 2>&1; then
		echo "tutorial: $1 not installed (apt-get install $1): its section not run"
		tut_skip=1
		return
	fi
	git clone -q -b main "$tmp/origin.git" "$tmp/$1" && cd "$tmp/$1" && rm CMakeLists.txt ||
		fail "cannot clone the project for the $1 section"
}

# the variant's build gated against the committed baseline: the same
# counts, its sites named as the project's files
variant_end() {
	[ -n "${tut_variant:-}" ] && [ -z "$tut_skip" ] || return 0
	v=$tut_variant
	gate run --kernel-dir build/kernels --gate counts --no-color --json "$tmp/$v.json" \
		>"$tmp/$v-gate.log" 2>&1
	tut_code=$?
	[ "$tut_code" = 0 ] || { cat "$tmp/$v-gate.log" >&2; fail "$v: the gate exited $tut_code"; }
	grep -q "PASS  *kernels/[a-z_]*\.c:[0-9]*  " "$tmp/$v-gate.log" ||
		{ cat "$tmp/$v-gate.log" >&2; fail "$v: no claim passed at its kernel's line"; }
	python3 -c '
import json, os, sys
files = {s["file"] for s in json.load(open(sys.argv[1]))["sites"]}
assert files and all(not f.startswith(("/", ".")) and os.path.isfile(f) for f in files), sorted(files)
' "$tmp/$v.json" || fail "$v: the allocation sites are not named as the project's files"
	echo "tutorial: the $v section built and gated"
}

tut_changed='' tut_named='' tut_pr='' tut_variant='' tut_skip=''
for tut_spec in "$steps"/*.spec; do
	tut_step=${tut_spec%.spec}
	read -r tut_kind tut_arg <"$tut_spec"
	tut_line=$(sed -n 2p "$tut_spec")
	[ -n "$tut_skip" ] && [ "$tut_kind" != variant ] && continue
	case "$tut_kind" in
	file)
		mkdir -p "$(dirname "$tut_arg")" && cp "$tut_step" "$tut_arg" ||
			fail "cannot write $tut_arg (line $tut_line)"
		;;
	patch)
		git apply "$tut_step" || fail "the patch at line $tut_line does not apply"
		patched "$tut_step"
		;;
	run)
		case "$tut_arg" in
		'') run "$tut_step" 0 ;;
		exit=[0-9]*) run "$tut_step" "${tut_arg#exit=}" ;;
		*) fail "line $tut_line: unknown run option '$tut_arg'" ;;
		esac
		;;
	output)
		[ -n "${tut_last:-}" ] || fail "line $tut_line: an output before any run"
		match "$tut_step" "$tut_last" "the output of the block before line $tut_line"
		;;
	pull-request)
		pull_request
		match "$tut_step" "$tut_last" "the pull request's step summary"
		echo "tutorial: the pull request failed at $tut_changed, with its annotation"
		;;
	variant) variant "$tut_arg" ;;
	*) fail "line $tut_line: unknown marker '$tut_kind'" ;;
	esac
done
variant_end
case "${PREFIX:-}" in
"$tmp"/*) [ -x "$PREFIX/bin/gate" ] || fail "no gate installed in $PREFIX" ;;
*) fail "the tutorial installed allocgate outside its HOME: PREFIX=${PREFIX:-}" ;;
esac
[ -n "$tut_named" ] || fail "no block gated the patched library and exited as it said"
[ -n "$tut_pr" ] || fail "the tutorial has no pull-request step"
echo "tutorial: ok"
