#!/bin/sh
# tests/e2e_bisect.sh BUILDDIR [interposer|no-interposer [CFLAGS]]: gate bisect on a
# toy history (tests/test_e2e_bisect.c): examples/strbuf in a git
# repository of its own, 16 commits after the good one: the 8th does not
# build (the 9th fixes it) and the 11th turns grow_to's realloc into
# malloc + copy + free. Over all 16 the search probes the unbuildable
# commit first, skips it (saying why), and still names the 11th, with the
# counts that changed there and, where valgrind is, its line in
# src/strbuf.c, in at most ceil(log2(16)) + 2 measured revisions and the
# skipped one; over the 7 commits after the fix, in at most
# ceil(log2(7)) + 2; a second search over the same range builds nothing; a
# good revision that is no ancestor of the bad one is bad input (exit 2); a
# range whose ends measure alike has no first bad commit (exit 1). Prints
# "e2e_bisect: ok" and exits 0, or names the first check that failed.
set -u
root=$(pwd)
bd=$(cd "$1" && pwd)
cost=--no-cost
[ "${2:-interposer}" = interposer ] && command -v valgrind >/dev/null 2>&1 && cost=
# a sanitizer build's probe needs its sanitizers at the project's link
cflags=${3:--O2 -g}
tmp=$(mktemp -d /tmp/allocgate-bisect-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "e2e_bisect: $*" >&2
	exit 1
}
unset ALLOCGATE_COMMIT GITHUB_SHA
export PKG_CONFIG_PATH="$bd/pkgconfig"
gate=$bd/gate

cp -R "$root/examples/strbuf" "$tmp/strbuf" && cd "$tmp/strbuf" || fail "cannot copy the example"
rm -rf build baselines
printf 'build/\n' >.gitignore
g() { git -c user.name=example -c user.email=example@example.org "$@"; }
g init -q . && g add -A && g commit -qm "strbuf" || fail "git init failed"
good=$(git rev-parse HEAD)
for i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16; do
	echo "note $i" >>NOTES
	case $i in
	8)	# a commit that does not build, fixed by the next
		echo 'syntax error' >>src/strbuf.c ;;
	9)	sed -i '$d' src/strbuf.c ;;
	11)	# grow_to: realloc turned into malloc + copy + free
		sed 's|^\tchar \*p = realloc(sb->data, cap);$|\tchar *p = malloc(cap);\n\tif (p \&\& sb->data)\n\t\tmemcpy(p, sb->data, sb->len);\n\tif (p)\n\t\tfree(sb->data);|' \
			src/strbuf.c >src/strbuf.c.new && mv src/strbuf.c.new src/strbuf.c
		grep -q 'memcpy(p, sb->data' src/strbuf.c || fail "could not change grow_to" ;;
	esac
	msg="note $i"
	[ "$i" = 8 ] && msg="a commit that does not build"
	[ "$i" = 11 ] && msg="grow by malloc, copy and free"
	g add -A && g commit -qm "$msg" || fail "commit $i failed"
done
culprit=$(git rev-parse --short=7 HEAD~5)
broken=$(git rev-parse --short=7 HEAD~8)

search() { # log [more gate bisect arguments]: its exit status
	log=$1
	shift
	"$gate" bisect --quick $cost --build "make CFLAGS='$cflags'" --json "$log.json" "$@" \
		>"$log" 2>&1
	echo $?
}
code=$(search first.log --good "$good" --bad HEAD)
[ "$code" = 0 ] || { cat first.log >&2; fail "the search exited $code"; }
grep -q "^first bad commit: $culprit grow by malloc, copy and free$" first.log ||
	{ cat first.log >&2; fail "the first bad commit is not $culprit"; }
grep -q "strbuf_append/exact/1k:.*heap_free_calls 0 -> [1-9]" first.log ||
	{ cat first.log >&2; fail "the counts that changed are not named with both values"; }
if [ -z "$cost" ]; then
	grep -q "^  at src/strbuf.c:[0-9]* grow_to: realloc [0-9,]* -> malloc [0-9,]* + free [0-9,]*" first.log ||
		{ cat first.log >&2; fail "the culprit's line in src/strbuf.c is not named"; }
fi
measured() { sed -n 's/^\([0-9]*\) revisions measured (.*/\1/p' "$1"; }
n=$(measured first.log)
[ -n "$n" ] && [ "$n" -le 7 ] ||
	{ cat first.log >&2; fail "measured ${n:-?} revisions, more than ceil(log2(16)) + 2 and the skipped one"; }
grep -q "^  skipped $broken a commit that does not build: the build failed: exit" first.log ||
	{ cat first.log >&2; fail "the unbuildable commit was not skipped with why"; }
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["allocgate_bisect"] == 1 and d["outcome"] == "found", d
assert d["first"].startswith(sys.argv[2]), d["first"]
assert any(s["metric"] == "heap_free_calls" and s["before"] == 0 for s in d["series"]), d["series"]
' first.log.json "$culprit" || fail "the JSON outcome is not the culprit"

code=$(search cached.log --good "$good" --bad HEAD)
grep -q "(0 built now," cached.log || { cat cached.log >&2; fail "a second search built again"; }
code=$(search after.log --good HEAD~7 --bad HEAD)
[ "$code" = 0 ] && grep -q "^first bad commit: $culprit " after.log ||
	{ cat after.log >&2; fail "the search after the fix exited $code"; }
n=$(measured after.log)
[ -n "$n" ] && [ "$n" -le 5 ] ||
	{ cat after.log >&2; fail "measured ${n:-?} revisions of 7 commits, more than ceil(log2(7)) + 2"; }
code=$(search reversed.log --good HEAD --bad "$good")
[ "$code" = 2 ] && grep -q "is not an ancestor" reversed.log ||
	{ cat reversed.log >&2; fail "a reversed range exited $code"; }
code=$(search same.log --good HEAD~4 --bad HEAD)
[ "$code" = 1 ] && grep -q "no first bad commit" same.log ||
	{ cat same.log >&2; fail "a range whose ends measure alike exited $code"; }

# --timing: 4 commits after the good one, the 3rd slowing strbuf_append
# down several times without an allocation more; each probe timed against
# the good revision by gate ab
cp -R "$root/examples/strbuf" "$tmp/slow" && cd "$tmp/slow" || fail "cannot copy the example again"
rm -rf build baselines
printf 'build/\n' >.gitignore
g init -q . && g add -A && g commit -qm "strbuf" || fail "git init failed"
slow_good=$(git rev-parse HEAD)
for i in 1 2 3 4; do
	echo "note $i" >>NOTES
	msg="note $i"
	if [ "$i" = 3 ]; then
		sed 's|^\tmemcpy(sb->data + sb->len, s, n);$|\tfor (volatile unsigned spin = 0; spin < 4000; spin++)\n\t\t;\n\tmemcpy(sb->data + sb->len, s, n);|' \
			src/strbuf.c >src/strbuf.c.new && mv src/strbuf.c.new src/strbuf.c
		grep -q 'spin < 4000' src/strbuf.c || fail "could not slow strbuf_append down"
		msg="spin in strbuf_append"
	fi
	g add -A && g commit -qm "$msg" || fail "commit $i failed"
done
slow=$(git rev-parse --short=7 HEAD~1)
code=$(search timing.log --good "$slow_good" --bad HEAD --timing --no-cost)
[ "$code" = 0 ] && grep -q "^first bad commit: $slow spin in strbuf_append$" timing.log ||
	{ cat timing.log >&2; fail "--timing exited $code without naming $slow"; }
grep -q "wall_ns .* -> .* (+[0-9.]*%)" timing.log ||
	{ cat timing.log >&2; fail "--timing does not name the slower series with both values"; }
echo "e2e_bisect: ok ($(cd "$tmp/strbuf" && measured first.log) revisions measured for 16 commits; --timing named $slow)"
