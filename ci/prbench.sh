#!/bin/sh
# ci/prbench.sh JANSSON_SOURCE [--tier quick|default] [--build BUILD]
#
# The benchmark of what a pull request reads (docs/measurements.md, "A pull
# request of a real library"): jansson, a JSON library that allocates only
# through its own hooks (memory.c's function pointers), as a user's project
# would hold it, in a git repository of its own, built
#   make:  its src/ by a plain Makefile with relative paths and no prefix
#          map (ci/prbench/Makefile.jansson);
#   make-fragment: its src/ by a Makefile of allocgate's Make fragment
#          (ci/prbench/Makefile.fragment.jansson);
#   cmake: the whole source tree by jansson's own CMakeLists.txt, out of
#          tree (cmake -S . -B build, RelWithDebInfo), absolute paths, the
#          kernel's two builds appended as a user writes them with
#          pkg-config (ci/prbench/jansson-kernels.cmake);
#   cmake-function: the same with allocgate's CMake package and its
#          allocgate_add_kernel (ci/prbench/jansson-function.cmake);
#   meson: its src/ by Meson, dependency('allocgate') (ci/prbench/meson/);
# a kernel of four variants at two sizes (ci/prbench/json_build.c), and
# allocgate installed from this checkout into a temporary prefix. It runs the
# composite action's script (ci/action.sh) in ab mode twice, as a pull
# request's job would, its base built in a git worktree:
#   1. an unchanged pull request (an empty commit on top of the base): as
#      the action runs it (the same code on both sides is not measured),
#      and measured all the same (--b-env of a variable nothing reads);
#   2. json_array_grow's realloc growth turned into malloc + copy + free
#      (jansson's own history, reversed).
# For each it prints the exit status, the annotations, the step summary's
# size and its lines that name a place whose allocation calls changed, the
# HTML report's size and its differential flame graphs, and keeps the
# summaries and the reports (NAME.reports/: report.html, svg/flame/) in
# the directory it names. JANSSON_SOURCE: a jansson
# checkout (its src/).
set -u
tier=quick
build=make
src=${1:-}
[ $# -ge 1 ] && shift
while [ $# -gt 0 ]; do
	case $1 in
	--tier) tier=$2; shift 2 ;;
	--build) build=$2; shift 2 ;;
	*) echo "usage: ci/prbench.sh JANSSON_SOURCE [--tier quick|default]" \
		"[--build make|make-fragment|cmake|cmake-function|meson]" >&2; exit 2 ;;
	esac
done
[ -f "$src/src/value.c" ] && [ -f "$src/src/memory.c" ] ||
	{ echo "usage: ci/prbench.sh JANSSON_SOURCE (a jansson checkout: src/value.c)" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$src" && pwd)
tmp=$(mktemp -d /tmp/allocgate-prbench-XXXXXX)
fail() {
	echo "prbench: $*" >&2
	exit 1
}

# allocgate into a prefix, as the action installs it
(cd "$root" && python3 configure.py --prefix "$tmp/prefix" --builddir build-prbench \
	--ninja-file build-prbench.ninja >/dev/null &&
	ninja -f build-prbench.ninja install >"$tmp/install.log" 2>&1) ||
	{ cat "$tmp/install.log" >&2; fail "installing allocgate failed"; }
rm -f "$root/build-prbench.ninja"

proj=$tmp/jansson
copy_src() { # jansson's src/ alone
	mkdir -p "$proj/kernels" && cp -R "$src/src" "$proj/src" && cp "$src/LICENSE" "$proj/" 2>/dev/null
}
copy_tree() { # the whole tree, its CMakeLists.txt with the lines of FILE appended
	[ -f "$src/CMakeLists.txt" ] || fail "no CMakeLists.txt in $src"
	mkdir -p "$proj" && (cd "$src" && tar -cf - --exclude=.git .) | (cd "$proj" && tar -xf -) ||
		fail "cannot copy $src"
	mkdir -p "$proj/kernels" && cat "$root/ci/prbench/$1" >>"$proj/CMakeLists.txt"
}
case $build in
make)
	copy_src
	cp "$root/ci/prbench/Makefile.jansson" "$proj/Makefile"
	command=make
	;;
make-fragment)
	copy_src
	cp "$root/ci/prbench/Makefile.fragment.jansson" "$proj/Makefile"
	command=make
	;;
cmake)
	copy_tree jansson-kernels.cmake
	command="cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo && cmake --build build"
	;;
cmake-function)
	copy_tree jansson-function.cmake
	command="cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_PREFIX_PATH=$tmp/prefix && cmake --build build"
	;;
meson)
	copy_src
	cp -R "$root/ci/prbench/meson/." "$proj/"
	command="meson setup build >/dev/null && meson compile -C build"
	;;
*) fail "--build $build: expected make, make-fragment, cmake, cmake-function or meson" ;;
esac
cp "$root/ci/prbench/json_build.c" "$proj/kernels/"
printf 'build/\nsrc/jansson_config.h\nallocgate-reports/\n' >"$proj/.gitignore"
cd "$proj" || fail "no project"
g() { git -c user.name=prbench -c user.email=prbench@example.org "$@"; }
g init -q . && g add -A && g commit -qm base && g commit -q --allow-empty -m unchanged ||
	fail "git init failed"

pr() { # name [gate args]: the action's ab mode against HEAD~1; prints its figures
	: >"$tmp/$1.md"
	start=$(date +%s)
	PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" PATH="$tmp/prefix/bin:$PATH" GITHUB_ACTIONS=true \
		GITHUB_STEP_SUMMARY="$tmp/$1.md" AG_MODE=ab AG_BASE=HEAD~1 AG_BUILD="$command" \
		AG_GATE="$tmp/prefix/bin/gate" AG_TIER=$tier AG_ARGS="${2:-}" sh "$root/ci/action.sh" \
		>"$tmp/$1.log" 2>&1
	code=$?
	cp "$tmp/$1.md" "$tmp/$1.summary.md"
	rm -rf "$tmp/$1.reports" && cp -R allocgate-reports "$tmp/$1.reports" 2>/dev/null
	echo "prbench: $1: exit $code, $(grep -cE '^::(notice|warning|error)' "$tmp/$1.log") annotations," \
		"summary $(wc -c <"$tmp/$1.md") bytes, $(grep -cE '^- .*`[^`]*:[0-9]+`' "$tmp/$1.md") lines naming a place," \
		"$(($(date +%s) - start)) s"
	grep -E '^::(notice|warning|error)' "$tmp/$1.log" | cut -c1-300 | sed 's/^/  /'
	grep -oE '(A/B: .* against [^;]*|[0-9]+ kernels? (is|are) the same code[^:]*)' "$tmp/$1.md" |
		sed 's/^/  /'
	grep -E '^- `[^`]*` .*\*\*' "$tmp/$1.md" | sed 's/^/  /'
	[ -f "$tmp/$1.reports/report.html" ] &&
		echo "  report.html $(wc -c <"$tmp/$1.reports/report.html") bytes," \
			"$(find "$tmp/$1.reports/svg/flame" -name '*.diff.svg' 2>/dev/null | wc -l) differential flame graphs"
}

echo "prbench: jansson $(git -C "$src" describe --always 2>/dev/null), built by $build, $tier tier, $(date -u '+%Y-%m-%d %H:%M UTC'), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //') family $(grep -m1 'cpu family' /proc/cpuinfo | cut -d: -f2 | tr -d ' ') model $(grep -m1 '^model' /proc/cpuinfo | cut -d: -f2 | tr -d ' ')"
pr unchanged
# measured all the same (a variable nothing reads): its sites compared
pr unchanged_measured "--b-env ALLOCGATE_AA=1"
python3 - src/value.c <<'PY' || fail "json_array_grow is not as expected"
import sys
p = sys.argv[1]
s = open(p).read()
old = """    new_table = jsonp_realloc(old_table, array->size * sizeof(json_t *),
                              new_size * sizeof(json_t *));
    if (!new_table)
        return NULL;

    array->size = new_size;
    array->table = new_table;
"""
new = """    new_table = jsonp_malloc(new_size * sizeof(json_t *));
    if (!new_table)
        return NULL;

    array->size = new_size;
    array->table = new_table;
    array_copy(array->table, 0, old_table, 0, array->entries);
    jsonp_free(old_table);
"""
assert old in s
open(p, "w").write(s.replace(old, new))
PY
g commit -qam "json_array_grow: malloc + copy + free" || fail "cannot commit the change"
pr realloc_to_malloc_free
echo "prbench: summaries and logs in $tmp"
