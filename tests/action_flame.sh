#!/bin/sh
# tests/action_flame.sh: ci/action.sh names the flame graphs in the step
# summary (the folder svg/flame/ and the artifact AG_ARTIFACT_NAME) when
# the gate wrote some, the --html page report.html and the --dhat file
# when written, and says nothing of them when it wrote none; each
# run counts its own, not those an earlier run left in AG_OUT. The gate is
# a fake (AG_GATE) that writes FAKE_FLAMES files under its --svg DIR's
# flame/ and exits FAKE_EXIT, the exit status the action must keep (run
# by tests/test_workflow.c). Prints "action_flame: ok" and exits 0, or
# names the first check that failed.
set -u
root=$(pwd)
tmp=$(mktemp -d /tmp/allocgate-action-flame-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "action_flame: $*" >&2
	exit 1
}

cat >"$tmp/gate" <<'GATE'
#!/bin/sh
# a fake gate: FAKE_FLAMES flame graphs under --svg DIR/flame/, the --html
# page when FAKE_FLAMES is not 0, exit FAKE_EXIT
svg= html= dhat=
while [ $# -gt 0 ]; do
	[ "$1" = --svg ] && svg=$2
	[ "$1" = --html ] && html=$2
	[ "$1" = --dhat ] && dhat=$2
	shift
done
[ "$FAKE_FLAMES" -gt 0 ] && [ -n "$html" ] && echo '<!doctype html>' >"$html"
[ "$FAKE_FLAMES" -gt 0 ] && [ -n "$dhat" ] && echo '{}' >"$dhat"
i=0
while [ "$i" -lt "$FAKE_FLAMES" ]; do
	mkdir -p "$svg/flame" && echo '<svg/>' >"$svg/flame/k.v$i.p.calls.svg"
	i=$((i + 1))
done
exit "$FAKE_EXIT"
GATE
chmod +x "$tmp/gate"

# runs the action in $tmp/work with FAKE_FLAMES=$1 and FAKE_EXIT=$2; its
# exit status, the step summary in $tmp/summary.md
action() {
	rm -f "$tmp/summary.md"
	mkdir -p "$tmp/work"
	(cd "$tmp/work" && env -i PATH="$PATH" HOME="$tmp" AG_GATE="$tmp/gate" AG_BUILD=true \
		AG_MODE=baseline AG_OUT=reports AG_ARTIFACT_NAME=flame-reports-linux \
		GITHUB_STEP_SUMMARY="$tmp/summary.md" FAKE_FLAMES="$1" FAKE_EXIT="$2" \
		sh "$root/ci/action.sh" >"$tmp/action.log" 2>&1)
}

action 3 1
code=$?
[ "$code" -eq 1 ] || fail "exit $code, not the gate's 1: $(cat "$tmp/action.log")"
# shellcheck disable=SC2016 # markdown's backquotes
{ grep -q 'Allocation flame graphs.*: 3 SVG files in the folder `svg/flame/`' "$tmp/summary.md" &&
	grep -q 'the artifact `flame-reports-linux`' "$tmp/summary.md"; } 2>/dev/null ||
	fail "the step summary does not name the flame graphs: $(cat "$tmp/summary.md" 2>/dev/null)"
# shellcheck disable=SC2016 # markdown's backquotes
grep -q 'The whole report.*`report.html` in the artifact `flame-reports-linux`' "$tmp/summary.md" ||
	fail "the step summary does not name the HTML report: $(cat "$tmp/summary.md")"
# shellcheck disable=SC2016 # markdown's backquotes
grep -q 'call stacks as `stacks.dhat.json`' "$tmp/summary.md" ||
	fail "the step summary does not name the DHAT file: $(cat "$tmp/summary.md")"

action 0 0
code=$?
[ "$code" -eq 0 ] || fail "exit $code, not the gate's 0: $(cat "$tmp/action.log")"
[ -e "$tmp/work/reports/svg/flame" ] && fail "the earlier run's flame graphs were left in the reports"
[ -e "$tmp/work/reports/report.html" ] && fail "the earlier run's report.html was left in the reports"
[ -e "$tmp/work/reports/stacks.dhat.json" ] && fail "the earlier run's DHAT file was left in the reports"
! grep -q 'flame\|report.html\|dhat' "$tmp/summary.md" 2>/dev/null ||
	fail "a line of a report that was not written: $(cat "$tmp/summary.md")"
echo "action_flame: ok"
