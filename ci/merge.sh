#!/bin/sh
# ci/merge.sh DIR: joins every result-*.json under DIR (the matrix's
# shards and platforms) into one result with `gate merge`: DIR/merged.json,
# merged.xml (JUnit), merged.md (also appended to $GITHUB_STEP_SUMMARY by
# the gate) and merged-svg/. Exits with the merged verdict's status.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:?usage: ci/merge.sh DIR}
cd "$root"
. "$root/ci/deps.sh"
gate_build "$root" || exit 2
files=$(find "$dir" -name 'result-*.json' | sort)
if [ -z "$files" ]; then
	echo "ci/merge.sh: no result-*.json under $dir" >&2
	exit 2
fi
# shellcheck disable=SC2086 # file names are ours: no spaces
build/gate merge $files --no-color --json "$dir/merged.json" --junit "$dir/merged.xml" \
	--markdown "$dir/merged.md" --svg "$dir/merged-svg"
