#!/bin/sh
# ci/mingw-jansson.sh BUILD_DIR: jansson for the mingw-w64 cross build of
# the gate (Debian ships no mingw build of it), into BUILD_DIR/prefix:
# lib/libjansson.a, include/jansson*.h and lib/pkgconfig/jansson.pc, which
# `configure.py --host x86_64-w64-mingw32 --builddir BUILD_DIR` finds.
#
# The source is Debian's own source package, fetched by `apt-get source`
# with a private apt configuration under BUILD_DIR/apt (nothing under
# /etc/apt or /var/lib/apt is touched): its deb-src entries are the `deb`
# entries this machine already has, so the archive, suites, components and
# signing keys are the machine's own, and apt checks every file's hash
# against the signed Sources index. Fast and offline once done: the library
# is rebuilt only when missing. Exits non-zero with one line saying why
# when apt cannot fetch (offline) or a tool is missing.
#
# Built by compiling jansson's src/*.c directly with a generated
# jansson_config.h rather than through its CMake or autotools build: ten
# files need no toolchain file or configure run against a cross compiler,
# and the few facts those builds probe are fixed for mingw-w64 (below).
set -u
me=ci/mingw-jansson.sh
[ $# -eq 1 ] || { echo "usage: $me BUILD_DIR" >&2; exit 2; }
host=${GATE_CROSS_HOST:-x86_64-w64-mingw32}
mkdir -p "$1" || exit 2
bd=$(cd "$1" && pwd) || exit 2
prefix=$bd/prefix
if [ -f "$prefix/lib/libjansson.a" ] && [ -f "$prefix/lib/pkgconfig/jansson.pc" ]; then
	exit 0
fi
die() { echo "$me: $*" >&2; exit 1; }
command -v "$host-gcc" >/dev/null || die "no $host-gcc (apt-get install mingw-w64)"
command -v "$host-ar" >/dev/null || die "no $host-ar (apt-get install mingw-w64)"
command -v apt-get >/dev/null || die "no apt-get: this script fetches Debian's jansson source package"
command -v dpkg-source >/dev/null || die "no dpkg-source to unpack the source package (apt-get install dpkg-dev)"

apt=$bd/apt
src=$apt/src
log=$apt/log
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$src" || exit 1

# deb-src twins of every enabled `deb` entry: one-line sources.list files
# ("deb [options] URI suite components") and deb822 .sources stanzas
# (Types/URIs/Suites/Components/Signed-By).
sources_list=$apt/sources.list
parts=$apt/sources.list.d
sources_deb822=$parts/derived.sources
mkdir -p "$parts" || exit 1
: >"$sources_list"
: >"$sources_deb822"
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
	[ -f "$f" ] && sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$f" >>"$sources_list"
done
for f in /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] || continue
	awk '
	function flush() {
		if (deb && on && text != "") printf "%s\n", text
		text = ""; deb = 0; on = 1
	}
	BEGIN { on = 1 }
	/^[[:space:]]*$/ { flush(); next }
	/^#/ { next }
	tolower($1) == "types:" {
		for (i = 2; i <= NF; i++) if ($i == "deb") deb = 1
		text = text "Types: deb-src\n"; next
	}
	tolower($1) == "enabled:" && tolower($2) == "no" { on = 0 }
	{ text = text $0 "\n" }
	END { flush() }' "$f" >>"$sources_deb822"
done
[ -s "$sources_list" ] || [ -s "$sources_deb822" ] ||
	die "no deb entries in /etc/apt/sources.list(.d) to derive a deb-src entry from"

set -- -o "Dir::Etc::sourcelist=$sources_list" -o "Dir::Etc::sourceparts=$parts" \
	-o "Dir::State::Lists=$apt/lists" -o "Dir::Cache=$apt/cache" \
	-o "Dir::Cache::pkgcache=" -o "Dir::Cache::srcpkgcache=" \
	-o "APT::Sandbox::User=$(id -un)"
if ! ls "$src"/jansson_*.dsc >/dev/null 2>&1; then
	# apt-get update exits non-zero when any one index fails (a third-party
	# repository without sources); apt-get source below is the real test.
	apt-get "$@" -q update >"$log" 2>&1
	if ! (cd "$src" && apt-get "$@" -q source jansson) >>"$log" 2>&1; then
		# the first failure with apt's reason on the line after it
		why=$(awk '/^(Err|E|W):/ { line = $0; if (getline more > 0) line = line " " more
			gsub(/[[:space:]]+/, " ", line); print line; exit }' "$log" | cut -c1-240)
		die "apt-get source jansson failed (offline?): ${why:-see $log}"
	fi
fi
dir=$(find "$src" -maxdepth 1 -type d -name 'jansson-*' | sort | tail -n 1)
if [ -z "$dir" ] || [ ! -f "$dir/src/jansson_config.h.in" ]; then
	die "no unpacked jansson source under $src (see $log)"
fi
version=$(sed -n 's/^#define JANSSON_VERSION[[:space:]]*"\(.*\)"/\1/p' "$dir/src/jansson.h")

# What jansson's configure would find for mingw-w64: `inline` and long long
# exist, localeconv too, GCC's __atomic builtins are there.
obj=$apt/obj
mkdir -p "$obj" "$prefix/lib/pkgconfig" "$prefix/include" || exit 1
sed -e 's/@json_inline@/inline/' -e 's/@json_have_long_long@/1/' \
	-e 's/@json_have_localeconv@/1/' -e 's/@json_have_atomic_builtins@/1/' \
	-e 's/@json_have_sync_builtins@/1/' \
	"$dir/src/jansson_config.h.in" >"$obj/jansson_config.h" || exit 1
# jansson_private_config.h: the header checks of its configure. The hash
# seed comes from CryptGenRandom on _WIN32 (hashtable_seed.c).
cat >"$obj/jansson_private_config.h" <<'CONFIG'
#define HAVE_STDINT_H 1
#define HAVE_INTTYPES_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_LOCALE_H 1
#define HAVE_SETLOCALE 1
#define HAVE_ATOMIC_BUILTINS 1
#define HAVE_SYNC_BUILTINS 1
#define INITIAL_HASHTABLE_ORDER 3
#define USE_WINDOWS_CRYPTOAPI 1
CONFIG
objs=
for c in "$dir"/src/*.c; do
	o=$obj/$(basename "$c" .c).o
	"$host-gcc" -std=c99 -O2 -g -DHAVE_CONFIG_H -I"$obj" -I"$dir/src" -c "$c" -o "$o" \
		>>"$log" 2>&1 || die "$host-gcc failed on $c (see $log)"
	objs="$objs $o"
done
rm -f "$prefix/lib/libjansson.a"
# shellcheck disable=SC2086
"$host-ar" crs "$prefix/lib/libjansson.a" $objs || die "$host-ar failed"
cp "$dir/src/jansson.h" "$obj/jansson_config.h" "$prefix/include/" || exit 1
cat >"$prefix/lib/pkgconfig/jansson.pc" <<PC
prefix=$prefix
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: Jansson
Description: Library for encoding, decoding and manipulating JSON data ($host, static, from Debian's source package)
Version: $version
Libs: -L\${libdir} -ljansson
Cflags: -I\${includedir}
PC
echo "$me: jansson $version for $host in $prefix"
