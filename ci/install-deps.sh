#!/bin/sh
# ci/install-deps.sh: installs what the build and the tests need on this
# runner's OS, as the GitHub Actions workflow (.github/workflows/gate.yml)
# does; runs locally too. --runtime: only what the gate needs to build and
# run (no Criterion; the composite action, action.yml, uses this).
# --allocators: also jemalloc, mimalloc and tcmalloc (Linux: the Debian
# packages libjemalloc2, libmimalloc2.0, libtcmalloc-minimal4), for
# `gate run --allocator NAME` and `gate matrix`.
#   Linux (Debian/Ubuntu): apt-get, through ci/deps.sh (sudo when not root)
#   macOS: Homebrew
#   Windows: MSYS2 (the workflow's msys2/setup-msys2 step installs the
#     MINGW64 packages; run this from an MSYS2 shell to do it by hand)
# ALLOCGATE_NO_INSTALL=1 (docs/install.md): installs nothing, names what
# is missing.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
what=tests
allocators=0
for arg in "$@"; do
	case "$arg" in
	--runtime) what=runtime ;;
	--allocators) allocators=1 ;;
	*) echo "ci/install-deps.sh: unknown option $arg (--runtime, --allocators)" >&2; exit 2 ;;
	esac
done
case "${ALLOCGATE_NO_INSTALL:-}" in
"" | 0) ;;
*) [ "$(uname -s)" = Linux ] || {
	echo "ci/install-deps.sh: ALLOCGATE_NO_INSTALL is set: not installing" >&2
	exit 0
} ;;
esac
case "$(uname -s)" in
Linux)
	. "$root/ci/deps.sh"
	missing=$(gate_deps_missing "$what")
	# the cost pass (docs/cost.md)
	command -v valgrind >/dev/null 2>&1 && [ -f /usr/include/valgrind/callgrind.h ] ||
		missing="$missing valgrind"
	if [ "$allocators" = 1 ]; then
		for pair in libjemalloc.so.2:libjemalloc2 libmimalloc.so.2:libmimalloc2.0 \
			libtcmalloc_minimal.so.4:libtcmalloc-minimal4; do
			ldconfig -p 2>/dev/null | grep -q "${pair%%:*}" || missing="$missing ${pair#*:}"
		done
	fi
	[ -z "$missing" ] && exit 0
	case "${ALLOCGATE_NO_INSTALL:-}" in
	"" | 0) ;;
	*)
		echo "ci/install-deps.sh: ALLOCGATE_NO_INSTALL is set: not installing$missing" >&2
		exit 0
		;;
	esac
	sudo=""
	[ "$(id -u)" = 0 ] || sudo=sudo
	$sudo apt-get update -qq
	DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $missing
	;;
Darwin)
	if [ "$what" = tests ]; then
		brew install jansson ninja pkg-config criterion
	else
		brew install jansson ninja pkg-config
	fi
	[ "$allocators" = 1 ] && brew install jemalloc mimalloc gperftools
	;;
MINGW* | MSYS* | CYGWIN*)
	pacman -S --needed --noconfirm mingw-w64-x86_64-gcc mingw-w64-x86_64-jansson \
		mingw-w64-x86_64-ninja mingw-w64-x86_64-pkgconf mingw-w64-x86_64-python
	;;
*)
	echo "ci/install-deps.sh: unknown OS $(uname -s): install a C compiler, python3, ninja," \
		"pkg-config and jansson (and Criterion for the tests)" >&2
	exit 2
	;;
esac
