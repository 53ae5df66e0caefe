#!/bin/sh
# ci/lint-workflows.sh: validates .github/workflows/*.yml, the composite
# action, action.yml, and the example projects' workflows with
# action-validator (npm @action-validator/cli, installed into build/npm on
# first use). Exits 0 when valid, 1 when not, 77 (skipped) with one line
# when neither an installed validator nor npm is available.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=build/npm/node_modules/.bin/action-validator
if [ ! -x "$bin" ]; then
	if ! command -v npm >/dev/null 2>&1; then
		echo "ci/lint-workflows.sh: skipped: npm is not installed (needed for @action-validator/cli)"
		exit 77
	fi
	npm install --silent --prefix build/npm @action-validator/cli >build/npm-install.log 2>&1 || {
		echo "ci/lint-workflows.sh: skipped: npm install @action-validator/cli failed" \
			"(offline?), see build/npm-install.log"
		exit 77
	}
fi
status=0
for f in .github/workflows/*.yml action.yml examples/*/.github/workflows/*.yml; do
	"$bin" "$f" || status=1
done
[ $status = 0 ] && echo "ci/lint-workflows.sh: workflows and action.yml valid"
exit $status
