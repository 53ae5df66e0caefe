#!/bin/sh
# tests/e2e_project.sh NINJA_FILE BUILDDIR [CFLAGS]: examples/strbuf gated
# the way a user of an installed allocgate would (tests/test_e2e_project.c):
# `ninja install` into a DESTDIR, the project copied outside the checkout
# into a git repository of its own, built with its own Makefile through
# pkg-config, its baseline written into its own baselines/ with its own
# commit, an unchanged rerun passing, a stray allocation in its library
# failing at its kernel's line, a file that is not a kernel skipped with a
# note, a missing counted twin named with how to build it, and
# ci/action.sh (the composite action) failing the committed stray
# allocation against its parent with an annotation at the kernel; then
# pull requests of its CMake build (tests/e2e_buildsys.sh builds it each
# way). Prints "e2e_project: ok" and exits 0, or names the first check
# that failed.
set -u
root=$(pwd)
ninja_file=$1
bd=$2
cflags=${3:--O2 -g}
interposer=${4:-interposer}   # no-interposer: a sanitizer build
tmp=$(mktemp -d /tmp/allocgate-project-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "e2e_project: $*" >&2
	exit 1
}
unset ALLOCGATE_COMMIT GITHUB_SHA

. "$root/tests/e2e_install.sh"
e2e_install "$ninja_file" "$tmp"
prefix=${inst#"$tmp/dest"}
for f in bin/gate include/allocgate/probe.h include/allocgate/alloc_count.h \
	lib/liballocgate.a lib/pkgconfig/allocgate.pc lib/pkgconfig/allocgate-counted.pc; do
	[ -f "$inst/$f" ] || fail "not installed: $prefix/$f"
done

cp -R "$root/examples/strbuf" "$tmp/strbuf" && cd "$tmp/strbuf" || fail "cannot copy the example"
rm -rf build baselines
git init -q . && git add -A &&
	git -c user.name=example -c user.email=example@example.org commit -qm "strbuf" ||
	fail "git init of the project failed"
commit=$(git describe --always --dirty)
# the installed .pc files are relocatable (prefix=${pcfiledir}/../..):
# the DESTDIR tree serves as the prefix
export PKG_CONFIG_PATH="$inst/lib/pkgconfig"
make CFLAGS="$cflags" >make.log 2>&1 || { cat make.log >&2; fail "make failed"; }
gate="$inst/bin/gate"
run() { # log, gate run arguments...: the exit status of the run
	log=$1
	shift
	"$gate" run --quick --kernel-dir build/kernels --no-cost --no-color "$@" >"$log" 2>&1
	echo $?
}

code=$(run update.log --update-baseline)
[ "$code" = 0 ] || { cat update.log >&2; fail "--update-baseline exited $code"; }
set -- baselines/*.json
[ -f "$1" ] || fail "no baseline in the project's baselines/ ($(ls))"
grep -q "\"commit\": \"$commit\"" "$1" || fail "the baseline does not record the project's commit $commit"
[ -z "$(git -C "$root" status --porcelain baselines)" ] ||
	fail "the gate's own baselines/ changed"

printf '#!/bin/sh\necho "a helper, not a kernel"\n' >build/kernels/helper.sh
chmod +x build/kernels/helper.sh
code=$(run same.log --min-effect 1000)
[ "$code" = 0 ] || { cat same.log >&2; fail "an unchanged rerun exited $code"; }
grep -q "helper.sh: not a kernel" same.log || { cat same.log >&2; fail "no note for helper.sh"; }

sed 's|^\tsb->data\[sb->len\] = .\\0.;$|&\n\tfree(malloc(24));|' src/strbuf.c >src/strbuf.c.new &&
	mv src/strbuf.c.new src/strbuf.c
grep -q 'free(malloc(24))' src/strbuf.c || fail "could not add the stray allocation"
make CFLAGS="$cflags" >make2.log 2>&1 || { cat make2.log >&2; fail "make of the change failed"; }
code=$(run stray.log --min-effect 1000)
[ "$code" = 1 ] || { cat stray.log >&2; fail "the stray allocation exited $code, not 1"; }
grep -q "kernels/strbuf_append.c:[0-9]*: regression strbuf_append/geometric/1k: .*heap_malloc_calls.* 0 -> 1000 (from 0)" stray.log ||
	{ cat stray.log >&2; fail "the stray allocation is not named at the kernel's line"; }

# the composite action's script (action.yml), as a pull request's job runs
# it: the stray allocation committed, its parent as A, in the same rounds
git -c user.name=example -c user.email=example@example.org commit -qam "stray allocation" ||
	fail "cannot commit the stray allocation"
summary=$tmp/step-summary.md
: >"$summary"
code=$(AG_GATE="$gate" AG_BUILD="make CFLAGS='$cflags'" AG_MODE=ab AG_BASE=HEAD~1 AG_TIER=quick \
	AG_SAMPLING=duet AG_ARGS="--no-cost --min-effect 1000" GITHUB_ACTIONS=true \
	GITHUB_STEP_SUMMARY="$summary" sh "$root/ci/action.sh" >action.log 2>&1; echo $?)
[ "$code" = 1 ] || { cat action.log >&2; fail "the action's A/B run exited $code, not 1"; }
# the annotation stands at the library's line that now allocates, not at
# the kernel's
grep -q "::error file=src/strbuf.c,line=[0-9]*,.*new malloc 1,000 + free 1,000" action.log ||
	{ cat action.log >&2; fail "no ::error annotation at the changed line"; }
grep -q "heap_malloc_calls" "$summary" || fail "the step summary does not show the regression"
[ -f allocgate-reports/result.json ] && [ -f allocgate-reports/junit.xml ] ||
	fail "the action's reports are missing ($(ls allocgate-reports 2>&1))"
[ -z "$(git worktree list | sed 1d)" ] || fail "the base's worktree was left behind"
# the sampling input reached gate ab: duet, or interleaved saying why not
grep -q '"duet_asked": true' allocgate-reports/result.json ||
	fail "the action's sampling: duet did not reach gate ab"
code=$(AG_GATE="$gate" AG_BUILD=true AG_MODE=ab AG_SAMPLING=sideways sh "$root/ci/action.sh" \
	>sampling.log 2>&1; echo $?)
[ "$code" = 2 ] && grep -q "sampling 'sideways': expected duet, interleaved or empty" sampling.log ||
	{ cat sampling.log >&2; fail "a bad sampling input exited $code"; }
echo "e2e_project: action A/B exit 1 with an annotation at the changed line"

# a pull request of a CMake project built out of tree by allocgate's CMake
# package, through the action's ab mode with the cost pass on, its base
# built in a worktree (another absolute path): a pull request that changes
# no kernel is the same code on both sides, passing without measuring;
# measured all the same, it reads as a short page with no site and no
# annotation; a realloc turned into malloc + copy + free is said at the
# caller's line
if [ "$interposer" = no-interposer ]; then
	echo "e2e_project: a sanitizer build: no cost pass, the CMake pull request not tested"
elif ! command -v cmake >/dev/null 2>&1 || ! command -v valgrind >/dev/null 2>&1; then
	echo "e2e_project: cmake or valgrind not installed: the CMake pull request not tested"
else
	cp -R "$root/examples/strbuf" "$tmp/strbuf-pr" && cd "$tmp/strbuf-pr" ||
		fail "cannot copy the example for the pull request"
	rm -rf build baselines
	printf 'build/\nallocgate-reports/\n' >.gitignore
	g() { git -c user.name=example -c user.email=example@example.org "$@"; }
	g init -q . && g add -A && g commit -qm base && g commit -q --allow-empty -m head ||
		fail "git init of the pull request's project failed"
	pr() { # log summary base [gate args]: the action's ab mode, its exit status
		: >"$2"
		AG_GATE="$gate" AG_MODE=ab AG_BASE=$3 AG_TIER=quick AG_ARGS="--min-effect 1000 ${4:-}" \
			AG_BUILD="cmake -S . -B build -DCMAKE_PREFIX_PATH='$inst' -DCMAKE_C_FLAGS='$cflags' >/dev/null && cmake --build build >/dev/null" \
			GITHUB_ACTIONS=true GITHUB_STEP_SUMMARY="$2" sh "$root/ci/action.sh" >"$1" 2>&1
		echo $?
	}
	# the empty commit: its kernels are the same code as its base's, built
	# at another path (the package's prefix map), so nothing is measured
	code=$(pr same-code.log same-code.md HEAD~1)
	[ "$code" = 0 ] || { cat same-code.log >&2; fail "the pull request of an empty commit exited $code"; }
	grep -q "1 kernel is the same code on both sides" same-code.md ||
		{ cat same-code.md same-code.log >&2; fail "the empty commit's kernels are not the same code"; }
	# measured all the same (a variable nothing reads), so that its sites are
	# compared
	code=$(pr same-pr.log same-pr.md HEAD~1 "--b-env ALLOCGATE_AA=1")
	[ "$code" = 0 ] || { cat same-pr.log >&2; fail "the unchanged pull request exited $code"; }
	! grep -q '^::' same-pr.log || { cat same-pr.log >&2; fail "the unchanged pull request has annotations"; }
	! grep -qi -e 'allocation site' -e 'allocation calls' same-pr.md ||
		{ cat same-pr.md >&2; fail "the unchanged pull request names sites"; }
	size=$(wc -c <same-pr.md)
	[ "$size" -le 1536 ] || { cat same-pr.md >&2; fail "the unchanged pull request's summary is $size bytes"; }
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert any(s["metric"] == "cost_instructions" for s in d["series"]), "no cost pass"
files = {s["file"] for s in d["sites"]}
assert "src/strbuf.c" in files, files
' allocgate-reports/result.json || fail "the pull request's sites or cost pass are missing"
	sed 's|^\tchar \*p = realloc(sb->data, cap);$|\tchar *p = malloc(cap);\n\tif (p \&\& sb->data)\n\t\tmemcpy(p, sb->data, sb->len);\n\tif (p)\n\t\tfree(sb->data);|' \
		src/strbuf.c >src/strbuf.c.new && mv src/strbuf.c.new src/strbuf.c
	grep -q 'memcpy(p, sb->data' src/strbuf.c || fail "could not turn the realloc into malloc + free"
	g commit -qam "grow by malloc, copy and free" || fail "cannot commit the change"
	code=$(pr change-pr.log change-pr.md HEAD~1)
	[ "$code" = 1 ] || { cat change-pr.log >&2; fail "the realloc turned into malloc + free exited $code"; }
	grep -q 'src/strbuf.c:[0-9]*` [a-z_]*: \*\*realloc [0-9,]* → malloc [0-9,]* + free [0-9,]*\*\*' change-pr.md ||
		{ cat change-pr.md >&2; fail "the change of kind is not said at the caller's line"; }
	grep -q '^::error file=src/strbuf.c,line=[0-9]*,' change-pr.log ||
		{ cat change-pr.log >&2; fail "no annotation at the changed line"; }
	! grep '^::' change-pr.log | grep -q 'file=/' ||
		{ cat change-pr.log >&2; fail "an annotation names a path outside the repository"; }
	size=$(wc -c <change-pr.md)
	[ "$size" -le 6144 ] || { cat change-pr.md >&2; fail "the change's summary is $size bytes"; }
	echo "e2e_project: CMake pull request: unchanged $(wc -c <same-pr.md) bytes, the change said at its line"
	# a CMakeLists.txt of the user's own, without the package: pkg-config,
	# absolute paths and no prefix map (the source root is in __FILE__ and
	# in the debug information); the base's worktree at a path of the
	# checkout's length (ci/worktree.sh), each side's root masked: an empty
	# commit is the same code still
	cat >CMakeLists.txt <<'CMAKE'
cmake_minimum_required(VERSION 3.16)
project(strbuf C)
find_package(PkgConfig REQUIRED)
pkg_check_modules(ALLOCGATE REQUIRED IMPORTED_TARGET allocgate)
pkg_check_modules(ALLOCGATE_COUNTED REQUIRED allocgate-counted)
set(sources kernels/strbuf_append.c src/strbuf.c)
add_executable(strbuf_append ${sources})
target_include_directories(strbuf_append PRIVATE src)
target_link_libraries(strbuf_append PRIVATE PkgConfig::ALLOCGATE)
set_target_properties(strbuf_append PROPERTIES RUNTIME_OUTPUT_DIRECTORY kernels)
add_executable(strbuf_append_counted ${sources})
target_include_directories(strbuf_append_counted PRIVATE src)
target_compile_options(strbuf_append_counted PRIVATE ${ALLOCGATE_COUNTED_CFLAGS})
target_link_libraries(strbuf_append_counted PRIVATE PkgConfig::ALLOCGATE)
set_target_properties(strbuf_append_counted PROPERTIES
	RUNTIME_OUTPUT_DIRECTORY kernels-counted OUTPUT_NAME strbuf_append)
CMAKE
	rm -rf build
	g commit -qam "a CMakeLists.txt of its own" && g commit -q --allow-empty -m head2 ||
		fail "cannot commit the plain CMakeLists.txt"
	code=$(PKG_CONFIG_PATH="$inst/lib/pkgconfig" pr plain.log plain.md HEAD~1)
	[ "$code" = 0 ] || { cat plain.log >&2; fail "the plain CMake empty commit exited $code"; }
	grep -q "$(pwd)/src/strbuf.c" build/kernels-counted/strbuf_append ||
		fail "the plain CMake build has no absolute path in its executable (nothing to mask)"
	grep -q "1 kernel is the same code on both sides" plain.md ||
		{ cat plain.md plain.log >&2; fail "the plain CMake build's empty commit is not the same code"; }
	echo "e2e_project: a CMakeLists.txt without the package: the empty commit is the same code"
	cd "$tmp/strbuf" || fail "cannot return to the project"
fi

rm build/kernels-counted/strbuf_append
code=$(run twin.log)
grep -q "no counted build of strbuf_append at build/kernels-counted/strbuf_append" twin.log ||
	{ cat twin.log >&2; fail "a missing counted twin is not named"; }
grep -q "allocgate-counted" twin.log || fail "the missing twin's line does not say how to build it"
# a kernel over a library nobody here wrote (GLib, as Debian packages it):
# its allocations inside libglib counted exactly by the interposer
if [ "$interposer" = no-interposer ]; then
	echo "e2e_project: a sanitizer build: no interposer, glib_strings not tested"
elif ! pkg-config --exists glib-2.0; then
	echo "e2e_project: glib-2.0 not installed (libglib2.0-dev): glib_strings not tested"
else
	cp -R "$root/examples/glib_strings" "$tmp/glib_strings" && cd "$tmp/glib_strings" ||
		fail "cannot copy glib_strings"
	rm -rf build baselines
	make CFLAGS="$cflags" >make.log 2>&1 || { cat make.log >&2; fail "glib_strings: make failed"; }
	code=$(run glib.log --update-baseline)
	[ "$code" = 0 ] || { cat glib.log >&2; fail "glib_strings exited $code"; }
	grep -q "PASS *kernels/strings.c:[0-9]*  strdup_free.proc_malloc_calls == 100000" glib.log ||
		{ cat glib.log >&2; fail "glib's allocations are not counted exactly"; }
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = {(s["variant"], s["metric"]): s["median"] for s in d["series"]}
assert m[("strdup_free", "proc_malloc_calls")] == 100000, m
assert m[("strdup_free", "heap_malloc_calls")] == 0, m
' baselines/*.json || fail "glib_strings: the baseline does not hold the exact counts"
	echo "e2e_project: glib_strings: 100000 mallocs inside libglib counted exactly"
fi
echo "e2e_project: ok"
