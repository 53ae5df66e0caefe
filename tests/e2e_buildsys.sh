#!/bin/sh
# tests/e2e_buildsys.sh NINJA_FILE [CFLAGS [interposer|no-interposer]]:
# examples/strbuf built the three ways docs/install.md shows, against a
# DESTDIR install (tests/test_e2e_buildsys.c): its Makefile through the
# installed Make fragment (allocgate.mk, found by pkg-config), its
# CMakeLists.txt through the CMake package (CMAKE_PREFIX_PATH, out of
# tree) and its meson.build through pkg-config (where meson is installed).
# Each build is gated in build/kernels against the baseline the first one
# recorded (counts: what every build of the same code keeps), its counted
# twin counts the library's own reallocations, its allocation sites are
# named as files of the project (src/strbuf.c, by the counted twin and,
# where valgrind is, by the cost pass), and a second build of the project
# at another path is the same code (gate ab measures nothing). Prints "e2e_buildsys: ok" and exits 0, or names the
# first check that failed.
set -u
root=$(pwd)
ninja_file=$1
cflags=${2:--O2 -g}
# a sanitizer build (no-interposer) has no cost pass
cost=--no-cost
interposer=${3:-interposer}
[ "$interposer" = interposer ] && command -v valgrind >/dev/null 2>&1 && cost=
tmp=$(mktemp -d /tmp/allocgate-buildsys-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() {
	echo "e2e_buildsys: $*" >&2
	exit 1
}
unset ALLOCGATE_COMMIT GITHUB_SHA

. "$root/tests/e2e_install.sh"
e2e_install "$ninja_file" "$tmp"
for f in lib/cmake/allocgate/allocgateConfig.cmake lib/cmake/allocgate/allocgateConfigVersion.cmake \
	share/allocgate/allocgate.mk; do
	[ -f "$inst/$f" ] || fail "not installed: $f"
done
export PKG_CONFIG_PATH="$inst/lib/pkgconfig"
mk=$(pkg-config --variable=makefile allocgate)
[ -f "$mk" ] && cmp -s "$mk" "$inst/share/allocgate/allocgate.mk" ||
	fail "pkg-config --variable=makefile allocgate names '$mk', not the installed fragment"
gate="$inst/bin/gate"

# build PROJECT: builds PROJECT's kernels into PROJECT/build with the
# build system of this step ($build, a command run in PROJECT)
build() {
	(cd "$1" && rm -rf build && sh -c "$build") >"$tmp/$name-build.log" 2>&1 ||
		{ cat "$tmp/$name-build.log" >&2; fail "$name: the build failed: $build"; }
	[ -x "$1/build/kernels/strbuf_append" ] && [ -x "$1/build/kernels-counted/strbuf_append" ] ||
		fail "$name: no build/kernels/strbuf_append and build/kernels-counted/strbuf_append"
}

# gated [gate run arguments]: the build of this step against the baseline
# (written by the first step with --update-baseline); its counted twin
# counts the library's reallocations (one per append of `exact`), and the
# kernel's lines and the allocation sites are named relative to the project
gated() {
	# shellcheck disable=SC2086
	code=$(cd "$tmp/strbuf" && "$gate" run --quick --kernel-dir build/kernels $cost \
		--gate counts --no-color --json "$tmp/$name.json" "$@" >"$tmp/$name-run.log" 2>&1
		echo $?)
	[ "$code" = 0 ] || { cat "$tmp/$name-run.log" >&2; fail "$name: the gate exited $code"; }
	python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
m = {(s["variant"], s["params"], s["metric"]): s["median"] for s in d["series"]}
got = m.get(("exact", "1k", "heap_realloc_calls"))
assert got == 1000, "exact/1k heap_realloc_calls %s, not 1000: the library is not counted" % got
files = {s["file"] for s in d["sites"]}
assert files == {"src/strbuf.c"}, "allocation sites in %s, not src/strbuf.c" % sorted(files)
' "$tmp/$name.json" || fail "$name: the counted twin does not count the library, or its sites"
	grep -q "PASS  *kernels/strbuf_append.c:[0-9]*  geometric.heap_realloc_calls" "$tmp/$name-run.log" ||
		{ cat "$tmp/$name-run.log" >&2; fail "$name: the claim is not named at kernels/strbuf_append.c"; }
}

# located: the same project built at another path is the same code. Not
# for CMake's absolute paths in a sanitizer build: GCC's AddressSanitizer
# keeps each module's source path as given (absolute) in its globals'
# metadata, a loaded string that -ffile-prefix-map does not rewrite
located() {
	if [ "$interposer" = no-interposer ] && [ "$name" = cmake ]; then
		echo "e2e_buildsys: cmake: a sanitizer build keeps absolute paths in ASan's metadata: the same-code check at another path is not made"
		return 0
	fi
	mkdir -p "$tmp/elsewhere/$name" && cp -R "$tmp/strbuf" "$tmp/elsewhere/$name/strbuf" ||
		fail "$name: cannot copy the project"
	build "$tmp/elsewhere/$name/strbuf"
	(cd "$tmp/strbuf" && "$gate" ab --quick --no-cost --no-color --a-kernel-dir \
		"$tmp/elsewhere/$name/strbuf/build/kernels" --b-kernel-dir build/kernels) \
		>"$tmp/$name-ab.log" 2>&1
	grep -q "1 kernel is the same code on both sides" "$tmp/$name-ab.log" ||
		{ cat "$tmp/$name-ab.log" >&2; fail "$name: a build at another path is not the same code"; }
}

cp -R "$root/examples/strbuf" "$tmp/strbuf" || fail "cannot copy the example"
rm -rf "$tmp/strbuf/build" "$tmp/strbuf/baselines"

name='make'
build="make CFLAGS='$cflags'"
build "$tmp/strbuf"
gated --update-baseline
[ -f "$(echo "$tmp"/strbuf/baselines/*.json)" ] || fail "make: no baseline written"
gated
located
echo "e2e_buildsys: make (allocgate.mk) gated"

if command -v cmake >/dev/null 2>&1; then
	name=cmake
	build="cmake -S . -B build -DCMAKE_PREFIX_PATH='$inst' -DCMAKE_C_FLAGS='$cflags' &&
		cmake --build build --target allocgate-kernels"
	build "$tmp/strbuf"
	gated
	located
	echo "e2e_buildsys: cmake (find_package, allocgate_add_kernel) gated"
else
	echo "e2e_buildsys: cmake not installed (apt-get install cmake): its build not tested"
fi

if command -v meson >/dev/null 2>&1; then
	name=meson
	build="CFLAGS='$cflags' LDFLAGS='$cflags' meson setup build && meson compile -C build"
	build "$tmp/strbuf"
	gated
	located
	echo "e2e_buildsys: meson (dependency('allocgate')) gated"
else
	echo "e2e_buildsys: meson not installed (apt-get install meson): its build not tested"
fi
echo "e2e_buildsys: ok"
