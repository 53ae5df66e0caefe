#!/bin/sh
# ci/gate.sh: one CI gate run, as .github/workflows/gate.yml runs it on each
# runner; runs locally too. Builds, runs the gate against this platform's
# baseline (baselines/<platform>.json) and writes every report into
# GATE_OUT (default build/ci): result-LABEL.json, junit-LABEL.xml,
# summary-LABEL.md, svg-LABEL/. Exits with the gate's status (1: a
# regression or a violated expectation), so the job fails on a regression.
#
# Environment:
#   GATE_SHARD=I/N          run only share I of N (gate run --shard)
#   GATE_TIER=quick|full    tier (default: the default tier)
#   GATE_UPDATE_BASELINE=1  store this run as the platform's baseline
#                           instead of gating (the workflow uploads baselines/)
#   GATE_REQUIRE_BASELINE=1 exit 2 when this platform has no baseline
#   GATE_ALLOCATOR=NAME     run under allocator NAME (gate run --allocator:
#                           jemalloc, mimalloc, tcmalloc; its own baseline
#                           baselines/<platform>-NAME.json)
#   GATE_LABEL              file name label (default: OS name, shard)
# Extra arguments go to `gate run`.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
out=${GATE_OUT:-build/ci}
shard=${GATE_SHARD:-}
label=${GATE_LABEL:-$(uname -s | tr 'A-Z' 'a-z' | cut -d_ -f1)${shard:+-$(echo "$shard" | sed 's|/|of|')}}
mkdir -p "$out"

. "$root/ci/deps.sh"
gate_build "$root" || exit 2

set -- --no-color "$@"
[ -n "$shard" ] && set -- "$@" --shard "$shard"
case "${GATE_TIER:-}" in quick) set -- "$@" --quick ;; full) set -- "$@" --full ;; esac
[ "${GATE_REQUIRE_BASELINE:-0}" = 1 ] && set -- "$@" --require-baseline
[ -n "${GATE_ALLOCATOR:-}" ] && set -- "$@" --allocator "$GATE_ALLOCATOR"
if [ "${GATE_UPDATE_BASELINE:-0}" = 1 ]; then
	set -- "$@" --update-baseline
else
	set -- "$@" --junit "$out/junit-$label.xml" --markdown "$out/summary-$label.md" \
		--svg "$out/svg-$label"
fi
echo "ci/gate.sh: build/gate run $* --json $out/result-$label.json" >&2
build/gate run "$@" --json "$out/result-$label.json"
status=$?
echo "ci/gate.sh: gate exit $status (reports in $out)" >&2
exit $status
