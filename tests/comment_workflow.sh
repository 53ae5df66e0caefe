#!/bin/sh
# tests/comment_workflow.sh: the script of the comment workflow of
# docs/install.md ("Comments on pull requests", its step's `run: |`), run
# with a fake `gh` that answers from the environment and records its
# calls (tests/test_workflow.c): a new comment is posted, an existing one
# updated, a pull request number that is not digits refused before any
# call and never run, a pull request pushed again since the run left
# alone, and COMMENT_ONLY_ON_CHANGE posting nothing new when nothing
# changed while still updating. Prints "comment_workflow: ok" and exits 0,
# or names the first check that failed.
set -u
root=$(pwd)
tmp=$(mktemp -d /tmp/allocgate-comment-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "comment_workflow: $*" >&2
	exit 1
}

# the step's script: the lines under `run: |`, less their indentation
sed -n '/<!-- allocgate-comment-workflow-begin -->/,/<!-- allocgate-comment-workflow-end -->/p' \
	docs/install.md | awk '
	/^ *run: \|$/ { indent = index($0, "run:") + 1; on = 1; next }
	on && /^```/ { exit }
	on && $0 != "" && substr($0, 1, indent) != sprintf("%" indent "s", "") { exit }
	on { print substr($0, indent + 1) }' >"$tmp/comment.sh"
grep -q 'gh api' "$tmp/comment.sh" || fail "no script under run: | in the comment workflow of docs/install.md"

mkdir -p "$tmp/bin"
cat >"$tmp/bin/gh" <<'EOF'
#!/bin/sh
# a fake gh: records each call; answers the pull request's head and the
# existing comment's id from FAKE_HEAD and FAKE_ID; keeps the posted body
echo "$*" >>"$GH_CALLS"
case "$*" in
*/pulls/*) echo "$FAKE_HEAD" ;;
*--paginate*) [ -n "$FAKE_ID" ] && echo "$FAKE_ID" ;;
*--method*) cp comment.md "$GH_BODY" ;;
esac
exit 0
EOF
chmod +x "$tmp/bin/gh"

# case NAME PR-NUMBER SUMMARY-FIRST-LINE EXISTING-ID ONLY-ON-CHANGE HEAD:
# runs the script in a fresh directory; its status in $code, log in $log
case_() {
	dir=$tmp/$1
	mkdir -p "$dir/allocgate-reports"
	[ "$2" = none ] || printf '%s\n' "$2" >"$dir/allocgate-reports/pr-number.txt"
	printf '%s\n\nthe rest of the report\n' "$3" >"$dir/allocgate-reports/summary.md"
	: >"$dir/calls"
	rm -f "$dir/body"
	log=$dir/log
	(cd "$dir" && PATH="$tmp/bin:$PATH" GH_CALLS="$dir/calls" GH_BODY="$dir/body" \
		FAKE_HEAD=$6 FAKE_ID=$4 COMMENT_ONLY_ON_CHANGE=$5 GH_TOKEN=t REPO=o/r HEAD_SHA=abc \
		sh -e "$tmp/comment.sh") >"$log" 2>&1
	code=$?
}
calls() { cat "$tmp/$1/calls"; }
fail_case() { cat "$log" "$tmp/$1/calls" >&2; fail "$1: $2"; }

case_ new 12 '## allocgate: ❌ FAIL' '' false abc
[ $code = 0 ] && calls new | grep -q '^api --method POST repos/o/r/issues/12/comments -F body=@comment.md$' ||
	fail_case new "no comment posted"
[ "$(head -n 1 "$tmp/new/body")" = '<!-- allocgate -->' ] && grep -q 'the rest of the report' "$tmp/new/body" ||
	fail_case new "the body is not the marker and the summary"

case_ update 12 '## allocgate: ✅ PASS' 99 false abc
[ $code = 0 ] && calls update | grep -q '^api --method PATCH repos/o/r/issues/comments/99 ' &&
	! calls update | grep -q POST || fail_case update "the existing comment is not updated"

# shellcheck disable=SC2016 # the $(...) is the hostile content, never expanded
for bad in '12; touch pwned' '$(touch pwned)' '-1' ''; do
	case_ hostile "$bad" '## allocgate: ❌ FAIL' '' false abc
	[ $code != 0 ] && [ ! -s "$tmp/hostile/calls" ] && [ ! -e "$tmp/hostile/pwned" ] ||
		fail_case hostile "pr-number.txt '$bad' was not refused before any call"
	grep -q '::error::' "$log" || fail_case hostile "no error for pr-number.txt '$bad'"
done
case_ missing none '## allocgate: ❌ FAIL' '' false abc
[ $code != 0 ] && [ ! -s "$tmp/missing/calls" ] || fail_case missing "a missing pr-number.txt is not refused"

case_ moved 12 '## allocgate: ❌ FAIL' '' false def
[ $code = 0 ] && ! calls moved | grep -q -e POST -e PATCH ||
	fail_case moved "a pull request pushed again since the run was commented"

case_ quiet 12 '## allocgate: ✅ PASS: nothing changed' '' true abc
[ $code = 0 ] && ! calls quiet | grep -q -e POST -e PATCH ||
	fail_case quiet "only-on-change posted a comment for nothing changed"
case_ quiet-update 12 '## allocgate: ✅ PASS: nothing changed' 99 true abc
[ $code = 0 ] && calls quiet-update | grep -q '^api --method PATCH repos/o/r/issues/comments/99 ' ||
	fail_case quiet-update "only-on-change did not update the existing comment"
case_ loud 12 '## allocgate: ❌ FAIL' '' true abc
[ $code = 0 ] && calls loud | grep -q '^api --method POST ' ||
	fail_case loud "only-on-change posted nothing for a change"
case_ always 12 '## allocgate: ✅ PASS: nothing changed' '' false abc
[ $code = 0 ] && calls always | grep -q '^api --method POST ' ||
	fail_case always "nothing changed was not posted without only-on-change"
cd "$root" || exit 1
echo "comment_workflow: ok"
