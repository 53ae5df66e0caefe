#!/bin/sh
# ci/prbench-cjson.sh CJSON_SOURCE [--tier quick|default]
#
# What a pull request reads on a project built by its own Makefile
# (docs/measurements.md): cJSON (a git clone of its repository), its
# library built by its own Makefile (`make static`), a kernel of two
# variants (ci/prbench/cjson/cjson.c) built beside it by a small Makefile
# of the user's (ci/prbench/cjson/Makefile.kernels), allocgate installed
# from this checkout into a temporary prefix, the composite action's
# script (ci/action.sh) in ab mode against HEAD~1, its base built in a git
# worktree:
#   1. an unchanged pull request (an empty commit);
#   2. ensure()'s print-buffer growth by realloc turned into its other
#      path, malloc + copy + free (the hook-less branch cJSON has).
# Prints for each the exit status, the annotations, the step summary's
# size, how often it says "same code" and lines naming /tmp/.
set -u
tier=quick
src=${1:-}
[ $# -ge 1 ] && shift
while [ $# -gt 0 ]; do
	case $1 in
	--tier) tier=$2; shift 2 ;;
	*) echo "usage: ci/prbench-cjson.sh CJSON_SOURCE [--tier quick|default]" >&2; exit 2 ;;
	esac
done
[ -f "$src/cJSON.c" ] && [ -f "$src/Makefile" ] ||
	{ echo "usage: ci/prbench-cjson.sh CJSON_SOURCE (a cJSON git checkout)" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/allocgate-prbench-cjson-XXXXXX)
fail() {
	echo "prbench-cjson: $*" >&2
	exit 1
}
(cd "$root" && python3 configure.py --prefix "$tmp/prefix" --builddir build-prbench \
	--ninja-file build-prbench.ninja >/dev/null &&
	ninja -f build-prbench.ninja install >"$tmp/install.log" 2>&1) ||
	{ cat "$tmp/install.log" >&2; fail "installing allocgate failed"; }
rm -f "$root/build-prbench.ninja"
git clone -q "$src" "$tmp/cJSON" && cd "$tmp/cJSON" || fail "cannot clone $src"
mkdir -p kernels && cp "$root/ci/prbench/cjson/cjson.c" kernels/ &&
	cp "$root/ci/prbench/cjson/Makefile.kernels" kernels/Makefile || fail "cannot add the kernel"
printf 'build/\n*.o\n*.a\n*.so*\ncJSON_test\nallocgate-reports/\n' >>.gitignore
g() { git -c user.name=prbench -c user.email=prbench@example.org "$@"; }
g add -A && g commit -qm "allocgate kernel" && g commit -q --allow-empty -m unchanged ||
	fail "git commit failed"
echo "prbench-cjson: cJSON $(git -C "$src" describe --always --tags 2>/dev/null), $tier tier, $(date -u '+%Y-%m-%d %H:%M UTC')"
pr() { # name: the action's ab mode against HEAD~1; prints its figures
	: >"$tmp/$1.md"
	PATH="$tmp/prefix/bin:$PATH" PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" GITHUB_ACTIONS=true \
		GITHUB_STEP_SUMMARY="$tmp/$1.md" AG_MODE=ab AG_BASE=HEAD~1 AG_GATE="$tmp/prefix/bin/gate" \
		AG_TIER=$tier AG_OUT="$tmp/out-$1" \
		AG_BUILD="make static CFLAGS='-O2 -g' && make -f kernels/Makefile" \
		sh "$root/ci/action.sh" >"$tmp/$1.log" 2>&1
	echo "prbench-cjson: $1: exit $?, $(grep -cE '^::(notice|warning|error)' "$tmp/$1.log") annotations," \
		"summary $(wc -c <"$tmp/$1.md") bytes, 'same code' $(grep -o 'same code' "$tmp/$1.md" | wc -l)" \
		"times, $(grep -c '/tmp/' "$tmp/$1.md") lines naming /tmp/"
	grep -E '^::(notice|warning|error)' "$tmp/$1.log" | cut -c1-300 | sed 's/^/  /'
	grep -E '^- `[^`]*` .*\*\*' "$tmp/$1.md" | sed 's/^/  /'
}
pr unchanged
python3 - cJSON.c <<'PY' || fail "ensure() is not as expected"
import sys
p = sys.argv[1]
s = open(p).read()
old = "    if (p->hooks.reallocate != NULL)\n    {\n        /* reallocate with realloc if available */"
assert old in s
open(p, "w").write(s.replace(old, "    if (0)\n    {\n        /* reallocate with realloc if available */"))
PY
g commit -qam "ensure: grow the print buffer by malloc, copy and free" || fail "cannot commit the change"
pr change
echo "prbench-cjson: summaries and logs in $tmp"
