# ci/worktree.sh: sourced by ci/action.sh. Where a pull request's base
# revision is checked out to be built.
#
# A build that compiles with absolute paths (CMake) writes its source root
# into the executables (__FILE__, RUNPATH). gate ab masks each side's root
# when it asks whether a kernel is the same code on both sides, which works
# when both roots have the same length (gates/core/digest_elf.h). So the
# base's worktree is placed at a path of exactly the checkout's length.

# worktree_dir TOP: makes a new empty directory whose physical path has as
# many bytes as TOP's (RUNNER_TEMP, TMPDIR, /tmp or TOP's parent, the first
# where one fits) and prints it; where none fits, a directory under the
# temporary directory of any length, and returns 1.
worktree_dir() {
	wt_top=$1
	wt_n=${#wt_top}
	for wt_base in "${RUNNER_TEMP:-}" "${TMPDIR:-}" /tmp "$(dirname "$wt_top")"; do
		[ -n "$wt_base" ] && [ -d "$wt_base" ] && [ -w "$wt_base" ] || continue
		wt_base=$(cd "$wt_base" && pwd -P) || continue
		wt_room=$((wt_n - ${#wt_base} - 1))   # the name's length after the '/'
		[ "$wt_room" -ge 3 ] || continue      # mktemp takes 3 X at the least
		wt_x=XXXXXX
		[ "$wt_room" -ge 6 ] || wt_x=$(printf '%.*s' "$wt_room" XXXXXX)
		wt_name=$(printf 'allocgate-base-%*s' "$wt_room" '' | tr ' ' - |
			cut -c1-$((wt_room - ${#wt_x})))$wt_x
		wt_dir=$(mktemp -d "$wt_base/$wt_name" 2>/dev/null) || continue
		[ ${#wt_dir} -eq "$wt_n" ] && { echo "$wt_dir"; return 0; }
		rmdir "$wt_dir"
	done
	mktemp -d "${RUNNER_TEMP:-${TMPDIR:-/tmp}}/allocgate-base-XXXXXX"
	return 1
}
