#!/bin/sh
# ci/bare-debian.sh [--keep] [--logs DIR] SUITE [SUITE...]: the README's two
# commands on a bare Debian, before a release. For each SUITE (bookworm,
# trixie): debootstrap --variant=minbase into a new directory under
# /var/tmp, /proc, /sys and /dev mounted in, a fresh clone of this
# checkout's HEAD copied in (with its .git: the gate records the commit),
# then `./gate` and `ci/test.sh` in order, as root, in a clean environment.
# Prints each command's exit status, duration and last lines, and one
# summary line per suite. Everything mounted is unmounted (recursively: the
# gate mounts tracefs under sys/) and checked gone before the directory is
# deleted; --keep keeps the directory (unmounted) for inspection; --logs DIR
# keeps each command's full output as DIR/SUITE-gate.log, DIR/SUITE-test.log.
# Runs as root. Exit status: 0 both commands exited 0 in every suite, 1
# otherwise, 2 usage or setup error (debootstrap, mount, clone).
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
keep=0
logs=""
suites=""
min_free_kib=$((4 * 1024 * 1024))   # the root, the packages and the build: about 2 GiB
clean_env="env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root TERM=dumb"

usage() {
	echo "usage: ci/bare-debian.sh [--keep] [--logs DIR] SUITE [SUITE...] (bookworm, trixie)" >&2
	exit 2
}

# fd 3: this script's stdout, also from a trap that runs while a command's
# output is redirected into its log (run_in)
exec 3>&1
say() {
	echo "bare-debian: $*" >&3
}

while [ $# -gt 0 ]; do
	case "$1" in
	--keep) keep=1 ;;
	--logs) [ $# -gt 1 ] || usage; logs=$2; shift ;;
	bookworm | trixie) suites="$suites $1" ;;
	-h | --help) usage ;;
	*) echo "ci/bare-debian.sh: unknown suite or option '$1'" >&2; usage ;;
	esac
	shift
done
[ -n "$suites" ] || usage
[ "$(id -u)" = 0 ] || { say "needs root (debootstrap, chroot, mount)"; exit 2; }
command -v git >/dev/null 2>&1 || { say "needs git to clone this checkout"; exit 2; }
rev=$(git -C "$here" rev-parse HEAD) || { say "$here is not a git checkout"; exit 2; }
[ -z "$(git -C "$here" status --porcelain --untracked-files=no)" ] ||
	say "note: uncommitted changes are not tested (a clone of HEAD $rev)"
if [ -n "$logs" ]; then
	mkdir -p "$logs" || { say "cannot create $logs"; exit 2; }
	logs=$(cd "$logs" && pwd)
fi
if ! command -v debootstrap >/dev/null 2>&1; then
	say "installing debootstrap (apt-get)"
	{ apt-get update -qq && DEBIAN_FRONTEND=noninteractive \
		apt-get install -y -qq --no-install-recommends debootstrap; } >/dev/null 2>&1 ||
		{ say "apt-get install debootstrap failed"; exit 2; }
fi
# /var/tmp, not /tmp: /tmp is often a small tmpfs
free_kib=$(df -Pk /var/tmp | awk 'NR == 2 { print $4 }')
[ "${free_kib:-0}" -ge "$min_free_kib" ] ||
	{ say "/var/tmp has $((${free_kib:-0} / 1024)) MiB free, needs 4096"; exit 2; }

dir=""          # the suite's directory; its root is $dir/root

# mounts_under DIR: the mount points at or under DIR (/proc/mounts).
mounts_under() {
	awk -v d="$1" '$2 == d || index($2, d "/") == 1 { print $2 }' /proc/mounts
}

# cleanup: stops what still runs in the root, unmounts, checks nothing is
# left mounted, then deletes the directory (not with --keep, not while
# anything is still mounted). 0, or 1 when something stayed mounted.
cleanup() {
	[ -n "$dir" ] || return 0
	r=$dir/root
	# processes left in the root (started by the commands above) hold mounts
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/root" 2>/dev/null)" = "$r" ] || continue
		say "stopping pid ${p#/proc/} left in the root ($(cat "$p/comm" 2>/dev/null))"
		kill -KILL "${p#/proc/}" 2>/dev/null
	done
	for m in dev sys proc; do
		mountpoint -q "$r/$m" 2>/dev/null || continue
		umount -R "$r/$m" 2>/dev/null || {
			say "umount -R $r/$m failed; unmounting lazily"
			umount -R -l "$r/$m"
		}
	done
	left=$(mounts_under "$dir")
	if [ -n "$left" ]; then
		say "still mounted, $dir NOT deleted:"
		echo "$left" | sed 's/^/  /' >&3
		dir=""
		return 1
	fi
	if [ "$keep" = 1 ]; then
		say "kept $r (nothing mounted; chroot $r /bin/bash)"
	else
		rm -rf "$dir"
	fi
	dir=""
	return 0
}
trap 'cleanup' EXIT
trap 'cleanup; exit 2' INT TERM HUP

# setup SUITE: debootstrap, mounts, the clone. 0, or 1 after a message.
setup() {
	dir=$(mktemp -d "/var/tmp/allocgate-bare-$1-XXXXXX") || return 1
	r=$dir/root
	t0=$(date +%s)
	if ! debootstrap --variant=minbase "$1" "$r" "$mirror" >"$dir/debootstrap.log" 2>&1; then
		tail -n 20 "$dir/debootstrap.log"
		say "$1: debootstrap failed (log above)"
		return 1
	fi
	say "$1: debootstrap --variant=minbase: $(($(date +%s) - t0)) s"
	mount -t proc proc "$r/proc" || return 1
	for m in sys dev; do
		# rslave: unmounting here never propagates back to the host's /sys, /dev
		mount --rbind "/$m" "$r/$m" && mount --make-rslave "$r/$m" || return 1
	done
	cp /etc/resolv.conf "$r/etc/resolv.conf" 2>/dev/null
	# a real clone, .git included: the gate records the commit (git describe)
	git clone -q "$here" "$r/root/allocgate" &&
		git -C "$r/root/allocgate" checkout -q --detach "$rev" || return 1
	return 0
}

# in_root COMMAND: runs the shell COMMAND in the root's checkout, as root,
# in a clean environment.
in_root() {
	# shellcheck disable=SC2086 # clean_env is the env command and its words
	chroot "$dir/root" $clean_env /bin/sh -c "cd /root/allocgate && $1" 3>&-
}

# run_in SUITE COMMAND LOG: in_root COMMAND, its output into $dir/LOG;
# prints its exit status (also left in $status), duration ($secs) and last lines.
run_in() {
	t0=$(date +%s)
	in_root "$2" >"$dir/$3" 2>&1
	status=$?
	secs=$(($(date +%s) - t0))
	say "$1: $2: exit $status, $secs s; its last lines:"
	tail -n 25 "$dir/$3" | sed 's/^/  | /'
	[ -z "$logs" ] || cp "$dir/$3" "$logs/$1-$3"
}

summary=""
worst=0
for suite in $suites; do
	if ! setup "$suite"; then
		say "$suite: setup failed"
		summary="$summary
bare-debian: $suite: setup failed"
		worst=2
		cleanup || worst=2
		continue
	fi
	run_in "$suite" ./gate gate.log
	gate_status=$status gate_secs=$secs
	run_in "$suite" ci/test.sh test.log
	test_status=$status test_secs=$secs
	# shellcheck disable=SC2016 # expanded in the root
	versions=$(in_root 'echo "gcc $(gcc -dumpfullversion), glibc $(ldd --version | sed -n "1s/.* //p")"' 2>/dev/null)
	synthesis=$(grep -o 'Tested: .*' "$dir/test.log" | tail -n 1)
	summary="$summary
bare-debian: $suite ($versions; $(echo "$rev" | cut -c1-12)): ./gate exit $gate_status ($gate_secs s), ci/test.sh exit $test_status ($test_secs s)${synthesis:+; $synthesis}"
	if [ "$worst" = 0 ] && { [ "$gate_status" != 0 ] || [ "$test_status" != 0 ]; }; then
		worst=1
	fi
	cleanup || worst=2
done
echo "$summary" | sed 1d
exit $worst
