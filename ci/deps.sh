# ci/deps.sh: sourced by ./gate and ci/test.sh. Checks the build's
# dependencies and installs the missing ones with apt-get when running as
# root on Debian/Ubuntu; otherwise prints the exact command and fails.
#
# The user decides (docs/install.md): ALLOCGATE_NO_INSTALL=1 in the
# environment (or `./gate --no-install`, `ci/test.sh --no-install`, which
# set it) turns every apt-get off: what is missing is named, as for a user
# who is not root. A failed install is remembered for the run: the
# packages (or "*" when apt-get update failed: nothing can be installed)
# are added to ALLOCGATE_INSTALL_FAILED, exported, so that neither this
# shell nor the commands it starts (the ./gate runs of the test suite)
# try them again.

# Debian packages: what each is for (`./gate` installs the first group,
# `ci/test.sh` both; a bare Debian, debootstrap --variant=minbase, needs
# them all: ci/bare-debian.sh checks that).
#   gcc, libc6-dev, ninja-build, pkg-config, python3: the build
#     (configure.py + ninja)
#   libjansson-dev: baselines and results are JSON (required)
#   git: the commit a baseline records (git describe of the checkout)
# and for the tests (ci/test.sh):
#   libcriterion-dev: the test suite
#   python3-junitparser: a real JUnit consumer (tests/test_junit_consumers.c)
#   make, cmake, libglib2.0-dev: the example projects, built and gated
#     as a user would (tests/e2e_project.sh: a git repository of their own,
#     their Makefile and CMakeLists.txt, GLib's allocations counted); git
#     also for ci/ab.sh's base revision (tests/test_e2e_ab.c)
# optional, one line each when missing:
#   valgrind: the cost pass on Linux (installed as root; otherwise one line
#     says how, and the gate runs without it: docs/cost.md), with
#     libc6-dbg on Debian (the cost key names glibc's ifunc variants)
#   libbpf-dev, clang, bpftool: BPF counters (configure.py turns them off
#     without them)
#   clang, libclang-rt-dev (libclang-rt-14-dev on bookworm): the fuzz
#     targets, libFuzzer with ASan and UBSan (ci/test.sh's smoke run, ci/fuzz.sh)
#   mingw-w64, wine, wine64, dpkg-dev: the Windows tests under wine
#     (tests/test_windows_*.c, ci/mingw-jansson.sh); skipped without them
#   npm: the workflow lint (ci/lint-workflows.sh fetches
#     @action-validator/cli from the npm registry); skipped without it or
#     without a network, python3-yaml then parsing every file at least
#   meson: the example project's Meson build (tests/e2e_buildsys.sh);
#     skipped without it
#   chromium: the --html report opened in a headless browser
#     (tests/browser_report.sh); skipped without it
#   hyperfine, g++, libbenchmark-dev, libbenchmark-tools, python3-scipy:
#     the peers of ci/peerbench.py (hyperfine; Google Benchmark, its
#     compare.py and the scipy it imports), whose smoke run
#     (tests/test_peerbench.c) is skipped without them
#   ci/test.sh installs both groups as root (gate_tests_optional_ensure)

# gate_has_pc NAME HEADER: 0 when library NAME is installed: pkg-config
# where it exists, else its header (a bare system has no pkg-config yet,
# and the first pass must still name every package).
gate_has_pc() {
	if command -v pkg-config >/dev/null 2>&1; then
		pkg-config --exists "$1"
	else
		[ -f "/usr/include/$2" ]
	fi
}

# gate_deps_missing [tests]: the Debian packages missing, space-separated.
gate_deps_missing() {
	missing=""
	command -v python3 >/dev/null 2>&1 || missing="$missing python3"
	command -v ninja >/dev/null 2>&1 || missing="$missing ninja-build"
	command -v pkg-config >/dev/null 2>&1 || missing="$missing pkg-config"
	{ command -v cc >/dev/null 2>&1 || command -v gcc >/dev/null 2>&1; } || missing="$missing gcc libc6-dev"
	gate_has_pc jansson jansson.h || missing="$missing libjansson-dev"
	# the commit a baseline records (git describe)
	command -v git >/dev/null 2>&1 || missing="$missing git"
	[ "${1:-}" = tests ] || { echo "$missing"; return 0; }
	gate_has_pc criterion criterion/criterion.h || missing="$missing libcriterion-dev"
	# the test tries /usr/bin/python3 first, then the python3 on PATH
	{ /usr/bin/python3 -c 'import junitparser' 2>/dev/null ||
		python3 -c 'import junitparser' 2>/dev/null; } ||
		missing="$missing python3-junitparser"
	gate_has_pc glib-2.0 glib-2.0/glib.h || missing="$missing libglib2.0-dev"
	command -v cmake >/dev/null 2>&1 || missing="$missing cmake"
	command -v make >/dev/null 2>&1 || missing="$missing make"
	echo "$missing"
}

# gate_may_install: 0 when this shell may run apt-get itself: root,
# apt-get present, and installs not turned off (ALLOCGATE_NO_INSTALL).
gate_may_install() {
	case "${ALLOCGATE_NO_INSTALL:-}" in
	"" | 0) ;;
	*) return 1 ;;
	esac
	[ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1
}

# gate_install_failed_before PKGS...: 0 when an install of one of PKGS (or
# apt-get update) failed earlier in this run.
gate_install_failed_before() {
	for pkg in "$@"; do
		case " ${ALLOCGATE_INSTALL_FAILED:-} " in
		*" * "* | *" $pkg "*) return 0 ;;
		esac
	done
	return 1
}

# gate_install_failed WHAT...: remembers WHAT (packages, or "*") for the run.
gate_install_failed() {
	ALLOCGATE_INSTALL_FAILED="${ALLOCGATE_INSTALL_FAILED:-} $*"
	export ALLOCGATE_INSTALL_FAILED
}

# gate_apt_install PKGS...: apt-get install as root (apt-get update once
# per shell); 0 when it worked, 1 with apt's output on stderr. Not tried
# again for a package that failed earlier in the run.
gate_apt_install() {
	if gate_install_failed_before "$@"; then
		echo "gate: not trying apt-get again for$(printf ' %s' "$@"): it failed earlier" \
			"in this run (ALLOCGATE_INSTALL_FAILED)" >&2
		return 1
	fi
	log=$(mktemp)
	if [ -z "${gate_apt_updated:-}" ]; then
		if ! apt-get update -qq >"$log" 2>&1; then
			cat "$log" >&2
			rm -f "$log"
			gate_install_failed "*"
			return 1
		fi
		gate_apt_updated=1
	fi
	if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends \
		"$@" >"$log" 2>&1; then
		cat "$log" >&2
		rm -f "$log"
		gate_install_failed "$@"
		return 1
	fi
	rm -f "$log"
}

# gate_deps_ensure [tests]: 0 when everything is there (installing it if we
# may: as root with apt-get, at most two passes of install and recheck).
gate_deps_ensure() {
	missing=$(gate_deps_missing "${1:-}")
	[ -z "$missing" ] && return 0
	if gate_may_install; then
		for _ in 1 2; do
			echo "gate: installing$missing (apt-get)" >&2
			if ! gate_apt_install $missing; then
				echo "gate: apt-get install$missing failed (output above)" >&2
				return 1
			fi
			missing=$(gate_deps_missing "${1:-}")
			[ -z "$missing" ] && return 0
		done
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
	# libc6-dbg: glibc's symbol names, so that the cost key names the ifunc
	# variants that ran (docs/cost.md, "The cost key"); Debian only
	dbg=""
	[ -f /etc/debian_version ] && ! dpkg -s libc6-dbg >/dev/null 2>&1 && dbg=" libc6-dbg"
	command -v valgrind >/dev/null 2>&1 && [ -f /usr/include/valgrind/callgrind.h ] &&
		[ -z "$dbg" ] && return 0
	if gate_may_install; then
		echo "gate: installing valgrind$dbg for the cost pass (apt-get)" >&2
		gate_apt_install valgrind $dbg 2>/dev/null && return 0
		echo "gate: apt-get install valgrind$dbg failed: the run has no cost pass" >&2
		return 0
	fi
	command -v valgrind >/dev/null 2>&1 ||
		echo "gate: no valgrind: the run has no cost pass (sudo apt-get install valgrind$dbg)" >&2
	return 0
}

# gate_fuzz_works: 0 when clang (FUZZ_CC) links a libFuzzer target with
# ASan and UBSan, as configure.py's probe does.
gate_fuzz_works() {
	fuzz_dir=$(mktemp -d) || return 1
	printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
		'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }' \
		>"$fuzz_dir/t.c"
	"${FUZZ_CC:-clang}" -fsanitize=fuzzer,address,undefined -o "$fuzz_dir/t" "$fuzz_dir/t.c" \
		>/dev/null 2>&1
	fuzz_ok=$?
	rm -rf "$fuzz_dir"
	return $fuzz_ok
}

# gate_fuzz_ensure: installs clang's libFuzzer for the fuzz targets on
# Linux as root; otherwise one line says why there are none. Never fails.
gate_fuzz_ensure() {
	[ "$(uname -s)" = Linux ] || return 0
	gate_fuzz_works && return 0
	if gate_may_install; then
		echo "gate: installing clang libclang-rt-dev for the fuzz targets (apt-get)" >&2
		gate_apt_install clang libclang-rt-dev 2>/dev/null && gate_fuzz_works && return 0
		echo "gate: no fuzz targets: apt-get install clang libclang-rt-dev failed or" \
			"gave no clang that links -fsanitize=fuzzer" >&2
		return 0
	fi
	echo "gate: no fuzz targets: no clang that links -fsanitize=fuzzer" \
		"(sudo apt-get install clang libclang-rt-dev)" >&2
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
	[ -n "$pkgs" ] && gate_may_install || return 0
	echo "gate: installing$pkgs (apt-get)" >&2
	gate_apt_install $pkgs 2>/dev/null || echo "gate: apt-get install$pkgs failed" >&2
	return 0
}

# gate_build ROOT [ninja targets...]: configure if needed and build quietly;
# the compiler's output is shown only when the build fails.
gate_build() {
	root=$1
	shift
	# ninja cannot glob: configure again when a source file was added or
	# removed (a new kernel), keeping the arguments build.ninja was made with.
	sources=$(cd "$root" && ls kernels/*.c perf/*/*.c gates/*/*.c tests/*.c tests/kernels/*.c tests/preload/*.c tests/bench/*.c tests/fuzz/*.c 2>/dev/null)
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

# gate_tests_optional_ensure: as root on Debian/Ubuntu, installs what the
# optional tests need, so that ci/test.sh skips none of them for a missing
# package: libbpf-dev, clang and bpftool for build/gate-bpf and its tests
# (configure.py says "bpf: on"; the package names are those of Debian 12
# and 13), and on x86_64 mingw-w64, wine, wine64 and dpkg-dev for the
# Windows tests under wine (wine64: `wine` alone pulls no loader with
# --no-install-recommends; dpkg-dev: ci/mingw-jansson.sh's apt-get
# source), npm and python3-yaml for the workflow lint (tests/test_workflow.c,
# which fetches @action-validator/cli with npm and parses the files with
# yaml where it cannot), meson for the example
# project's Meson build (tests/e2e_buildsys.sh), Debian's chromium for
# the --html report in a browser (tests/browser_report.sh) and the peers
# of ci/peerbench.py for its smoke run (tests/test_peerbench.c). One apt-get per group; as
# another user one line names the command. Never fails: the tests say what is missing when they skip. (A
# build configured before needs nothing: build.ninja depends on the dpkg
# database and configures again.)
gate_tests_optional_ensure() {
	[ "$(uname -s)" = Linux ] || return 0
	bpf=""
	gate_has_pc libbpf bpf/libbpf.h || bpf="$bpf libbpf-dev"
	command -v clang >/dev/null 2>&1 || bpf="$bpf clang"
	{ command -v bpftool >/dev/null 2>&1 || [ -x /usr/sbin/bpftool ] || [ -x /sbin/bpftool ]; } ||
		bpf="$bpf bpftool"
	win=""
	if [ "$(uname -m)" = x86_64 ]; then
		command -v x86_64-w64-mingw32-gcc >/dev/null 2>&1 || win="$win mingw-w64"
		command -v wine >/dev/null 2>&1 || win="$win wine"
		# Debian's `wine` has a /usr/bin/wine64 script of its own: ask dpkg
		if command -v dpkg >/dev/null 2>&1; then
			dpkg -s wine64 >/dev/null 2>&1 || win="$win wine64"
		fi
		command -v dpkg-source >/dev/null 2>&1 || win="$win dpkg-dev"
	fi
	# the workflow lint fetches @action-validator/cli with npm
	# (ci/lint-workflows.sh): without a network it skips, saying so, and
	# still parses every file with python3's yaml module
	lint=""
	command -v npm >/dev/null 2>&1 || lint=" npm"
	python3 -c 'import yaml' >/dev/null 2>&1 || lint="$lint python3-yaml"
	meson=""
	command -v meson >/dev/null 2>&1 || meson=" meson"
	browser=""
	command -v chromium >/dev/null 2>&1 || browser=" chromium"
	# compare.py imports scipy: Debian's, for /usr/bin/python3
	peers=""
	command -v hyperfine >/dev/null 2>&1 || peers="$peers hyperfine"
	command -v g++ >/dev/null 2>&1 || peers="$peers g++"
	[ -f /usr/include/benchmark/benchmark.h ] || peers="$peers libbenchmark-dev"
	[ -f /usr/share/benchmark/compare.py ] || peers="$peers libbenchmark-tools"
	/usr/bin/python3 -c 'import scipy' >/dev/null 2>&1 || peers="$peers python3-scipy"
	for group in "BPF tests:$bpf" "Windows tests:$win" "workflow lint:$lint" \
		"Meson build tests:$meson" "browser tests of the HTML report:$browser" \
		"peer benchmark's smoke run:$peers"; do
		pkgs=${group#*:}
		[ -n "$pkgs" ] || continue
		if gate_may_install; then
			echo "gate: installing$pkgs for the ${group%%:*} (apt-get)" >&2
			gate_apt_install $pkgs 2>/dev/null ||
				echo "gate: apt-get install$pkgs failed: the ${group%%:*} skip" >&2
		else
			echo "gate: the ${group%%:*} skip without$pkgs (sudo apt-get install$pkgs)" >&2
		fi
	done
	return 0
}
