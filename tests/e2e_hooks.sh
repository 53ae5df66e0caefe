#!/bin/sh
# tests/e2e_hooks.sh NINJA_FILE BUILDDIR [CFLAGS]: examples/hooked_json,
# a library that allocates only through hooks, built as a shared object,
# gated by an installed allocgate run through PATH and through a link
# (tests/test_e2e_hooks.c): `ninja install` into a DESTDIR, the gate found
# on PATH finding its interposer in the prefix's lib/ (proc_* counted and
# compared), nonzero allocation counts for every variant, and the growth
# policy's regression (-DJW_GROWTH_STEP=64: +64 bytes instead of
# doubling) named at the library's own file:line and function by the
# cost pass's allocation sites, in the terminal report, the JSON and the
# ::error annotation, for `gate run` against a baseline of the unchanged
# build and for `gate ab`. Prints "e2e_hooks: ok" and exits 0, prints
# "e2e_hooks: skipped: WHY" and exits 0 where the cost pass cannot run,
# or names the first check that failed.
set -u
root=$(pwd)
ninja_file=$1
bd=$2
cflags=${3:--O2 -g}
tmp=$(mktemp -d /tmp/allocgate-hooks-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "e2e_hooks: $*" >&2
	exit 1
}
unset ALLOCGATE_COMMIT GITHUB_SHA ALLOCGATE_INTERPOSE ALLOCGATE_COST

command -v valgrind >/dev/null 2>&1 || { echo "e2e_hooks: skipped: valgrind not installed"; exit 0; }
. "$root/tests/e2e_install.sh"
e2e_install "$ninja_file" "$tmp"
[ -f "$inst/lib/liballocgate-interpose.so" ] || fail "no lib/liballocgate-interpose.so installed"

cp -R "$root/examples/hooked_json" "$tmp/hooked_json" && cd "$tmp/hooked_json" ||
	fail "cannot copy the example"
rm -rf build build-step baselines
export PKG_CONFIG_PATH="$inst/lib/pkgconfig"
make CFLAGS="$cflags" >make.log 2>&1 || { cat make.log >&2; fail "make failed"; }
make CFLAGS="$cflags" BUILD=build-step JW_CFLAGS=-DJW_GROWTH_STEP=64 >make-step.log 2>&1 ||
	{ cat make-step.log >&2; fail "make of the regression failed"; }
line=$(grep -n 'char \*text = jw_realloc' src/jw.c | cut -d: -f1)
[ -n "$line" ] || fail "no realloc line in src/jw.c"
mkdir -p link
ln -s "$inst/bin/gate" link/gate
# the gate on PATH: nothing next to "gate" in the current directory
export PATH="$tmp/dest-path:$PATH"
mkdir -p "$tmp/dest-path" && ln -s "$inst/bin/gate" "$tmp/dest-path/gate"
command -v gate | grep -q "$tmp/dest-path/gate" || fail "the installed gate is not first on PATH"

# the baseline by full path, on the unchanged build
"$inst/bin/gate" run --quick --kernel-dir build/kernels --no-color --update-baseline \
	>update.log 2>&1 || { cat update.log >&2; fail "--update-baseline exited $?"; }
grep -q "proc_\* (interposer)" update.log && { cat update.log >&2; fail "the full path found no interposer"; }
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = {(s["variant"], s["metric"]): s["median"] for s in d["series"]}
for v in ("ints", "strings"):
    assert m[(v, "heap_realloc_calls")] == 0, ("the counted build sees no hook call", m)
    assert m[(v, "proc_realloc_calls")] > 0, m
    assert m[(v, "cost_realloc_calls")] == m[(v, "proc_realloc_calls")], m
sites = [s for s in d["sites"] if s.get("source") == "cost" and s["file"] == "src/jw.c"]
assert {s["variant"] for s in sites} == {"ints", "strings"}, d["sites"]
' baselines/*.json || fail "the baseline lacks the library's counts or sites"
echo "e2e_hooks: baseline: proc_* and cost_* realloc calls nonzero, sites in src/jw.c"

# an unchanged rerun through PATH: the interposer found, proc_* compared
gate run --quick --kernel-dir build/kernels --no-color --min-effect 1000 \
	--json same.json >same.log 2>&1 || { cat same.log >&2; fail "the rerun through PATH failed"; }
grep -q "liballocgate-interpose.so" same.log && { cat same.log >&2; fail "PATH: no interposer"; }
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
proc = [s for s in d["series"] if s["metric"] == "proc_realloc_calls"]
assert proc and all(s["verdict"] == "pass" for s in proc), proc
assert not d["site_changes"], d["site_changes"]
' same.json || fail "through PATH proc_realloc_calls was not compared, or a site changed"
echo "e2e_hooks: through PATH: interposer found, proc_* compared, no site changed"

# the regression, through a link, against the baseline
code=$(GITHUB_ACTIONS=true link/gate run --quick --kernel-dir build-step/kernels --no-color \
	--json step.json >step.log 2>&1; echo $?)
[ "$code" = 1 ] || { cat step.log >&2; fail "the regression exited $code, not 1"; }
grep -q "liballocgate-interpose.so" step.log && { cat step.log >&2; fail "link: no interposer"; }
grep -q "src/jw.c:$line put: realloc [0-9,]* -> [0-9,]*" step.log ||
	{ cat step.log >&2; fail "gate run: the site is not named at src/jw.c:$line in put"; }
grep -q "^::error file=src/jw.c,line=$line,.*: realloc [0-9,]* -> [0-9,]*" step.log ||
	{ cat step.log >&2; fail "gate run: no ::error annotation at src/jw.c:$line"; }
check_json() { # file: the change at src/jw.c:$line in put, more calls after
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
c = [c for c in d["site_changes"] if c["file"] == "src/jw.c"]
assert c, d["site_changes"]
for x in c:
    assert x["line"] == int(sys.argv[2]) and x["function"] == "put" and x["kind"] == "realloc", x
    assert x["calls_after"] > 10 * x["calls_before"], x
' "$1" "$line"
}
check_json step.json || fail "gate run: the JSON does not name src/jw.c:$line"
echo "e2e_hooks: gate run: src/jw.c:$line in put named (terminal, JSON, annotation)"

code=$(GITHUB_ACTIONS=true gate ab --quick --a-kernel-dir build/kernels \
	--b-kernel-dir build-step/kernels --no-color --json ab.json >ab.log 2>&1; echo $?)
[ "$code" = 1 ] || { cat ab.log >&2; fail "gate ab exited $code, not 1"; }
grep -q "src/jw.c:$line put: realloc [0-9,]* -> [0-9,]*" ab.log ||
	{ cat ab.log >&2; fail "gate ab: the site is not named at src/jw.c:$line in put"; }
grep -q "^::error file=src/jw.c,line=$line,.*: realloc [0-9,]* -> [0-9,]*" ab.log ||
	{ cat ab.log >&2; fail "gate ab: no ::error annotation at src/jw.c:$line"; }
check_json ab.json || fail "gate ab: the JSON does not name src/jw.c:$line"
echo "e2e_hooks: gate ab: src/jw.c:$line in put named (terminal, JSON, annotation)"
echo "e2e_hooks: ok"
