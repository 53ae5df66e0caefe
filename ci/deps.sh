# ci/deps.sh: sourced by ./gate and ci/test.sh. Checks the build's
# dependencies and installs the missing ones with apt-get when running as
# root on Debian/Ubuntu; otherwise prints the exact command and fails.

# Debian packages: what each is for.
#   gcc, ninja-build, pkg-config, python3: the build (configure.py + ninja)
#   libjansson-dev: baselines and results are JSON (required)
#   libcriterion-dev: the test suite (only for ci/test.sh)
#   libbpf-dev: optional BPF counters (not required)
#   valgrind: the cost pass on Linux (installed as root; otherwise one line
#     says how, and the gate runs without it: docs/counters.md)
#   mingw-w64, wine, dpkg-dev: optional, the Windows tests under wine
#     (tests/test_windows_*.c, ci/mingw-jansson.sh); skipped without them
gate_deps_missing() {
	missing=""
	command -v python3 >/dev/null 2>&1 || missing="$missing python3"
	command -v ninja >/dev/null 2>&1 || missing="$missing ninja-build"
	command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
	{ command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1; } || missing="$missing gcc libc6-dev"
	if command -v pkg-config >/dev/null 2>&1; then
		pkg-config --exists jansson || missing="$missing libjansson-dev"
		if [ "${1:-}" = tests ]; then
			pkg-config --exists criterion || missing="$missing libcriterion-dev"
			# a real JUnit consumer for tests/test_junit_consumers.c
			/usr/bin/python3 -c 'import junitparser' 2>/dev/null ||
				missing="$missing python3-junitparser"
			# the example projects' builds (tests/test_e2e_project.c):
			# glib_strings links GLib, strbuf also builds with CMake
			pkg-config --exists glib-2.0 || missing="$missing libglib2.0-dev"
			command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
		fi
	else
		missing="$missing libjansson-dev"
		[ "${1:-}" = tests ] && missing="$missing libcriterion-dev"
	fi
	echo "$missing"
}

# gate_deps_ensure [tests]: 0 when everything is there (installing it if we may).
gate_deps_ensure() {
	missing=$(gate_deps_missing "${1:-}")
	[ -z "$missing" ] && return 0
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "gate: installing$missing (apt-get)" >&2
		log=$(mktemp)
		if ! { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends $missing; } >"$log" 2>&1; then
			cat "$log" >&2
			rm -f "$log"
			echo "gate: apt-get install$missing failed (output above)" >&2
			return 1
		fi
		rm -f "$log"
		missing=$(gate_deps_missing "${1:-}")
		[ -z "$missing" ] && return 0
	fi
	echo "gate: missing build dependencies. Install them with:" >&2
	echo "  sudo apt-get install$missing" >&2
	echo "(macOS: brew install jansson ninja pkg-config criterion)" >&2
	return 1
}

# gate_optional_ensure: installs valgrind for the cost pass on Linux as
# root; as another user one line names the command. Never fails.
gate_optional_ensure() {
	[ "$(uname -s)" = Linux ] || return 0
	command -v valgrind >/dev/null 2>&1 && [ -f /usr/include/valgrind/callgrind.h ] && return 0
	if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
		echo "gate: installing valgrind for the cost pass (apt-get)" >&2
		if { apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -qq --no-install-recommends valgrind; } >/dev/null 2>&1; then
			return 0
		fi
		echo "gate: apt-get install valgrind failed: the run has no cost pass" >&2
		return 0
	fi
	echo "gate: no valgrind: the run has no cost pass (sudo apt-get install valgrind)" >&2
	return 0
}

# gate_allocator_ensure ARGS...: for each --allocator, --a-allocator or
# --b-allocator NAME among ARGS, and for `matrix` each of --allocators (or
# all three), (jemalloc, mimalloc, tcmalloc) whose Debian
# library is missing, installs it as root like the other dependencies; as
# another user the gate itself names the package. Never fails.
gate_allocator_ensure() {
	[ "$(uname -s)" = Linux ] || return 0
	want=""
	# `gate matrix` measures every allocator: all three unless --allocators says
	[ "${1:-}" = matrix ] && want="jemalloc mimalloc tcmalloc"
	while [ $# -gt 0 ]; do
		case "$1" in
		--allocator | --a-allocator | --b-allocator) [ $# -gt 1 ] && want="$want $2" ;;
		--allocator=* | --a-allocator=* | --b-allocator=*) want="$want ${1#*=}" ;;
		--allocators) [ $# -gt 1 ] && want=$(echo "$2" | tr ',' ' ') ;;
		esac
		shift
	done
	pkgs=""
	for name in $want; do
		case "$name" in
		jemalloc) lib=libjemalloc.so.2 pkg=libjemalloc2 ;;
		mimalloc) lib=libmimalloc.so.2 pkg=libmimalloc2.0 ;;
		tcmalloc) lib=libtcmalloc_minimal.so.4 pkg=libtcmalloc-minimal4 ;;
		*) continue ;;
		esac
		ldconfig -p 2>/dev/null | grep -q "$lib" || pkgs="$pkgs $pkg"
	done
	[ -n "$pkgs" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 || return 0
	echo "gate: installing$pkgs (apt-get)" >&2
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends $pkgs; } >/dev/null 2>&1 ||
		echo "gate: apt-get install$pkgs failed" >&2
	return 0
}

# gate_build ROOT [ninja targets...]: configure if needed and build quietly;
# the compiler's output is shown only when the build fails.
gate_build() {
	root=$1
	shift
	# ninja cannot glob: configure again when a source file was added or
	# removed (a new kernel), keeping the arguments build.ninja was made with.
	sources=$(cd "$root" && ls kernels/*.c perf/*.c gates/*/*.c tests/*.c tests/kernels/*.c tests/preload/*.c tests/bench/*.c 2>/dev/null)
	if [ ! -f "$root/build.ninja" ] ||
		[ "$sources" != "$(cat "$root/build/sources.list" 2>/dev/null)" ]; then
		args=$(sed -n 's/^configure_args = //p' "$root/build.ninja" 2>/dev/null)
		(cd "$root" && eval "python3 configure.py $args" >/dev/null) || return 1
		mkdir -p "$root/build"
		echo "$sources" >"$root/build/sources.list"
	fi
	log="$root/build/build.log"
	mkdir -p "$root/build"
	if ! ninja -C "$root" "$@" >"$log" 2>&1; then
		cat "$log" >&2
		echo "gate: build failed (full log: $log)" >&2
		return 1
	fi
	if ! grep -q "no work to do" "$log"; then
		echo "gate: built ($(grep -c '^\[' "$log") steps; log: build/build.log)" >&2
	fi
}
