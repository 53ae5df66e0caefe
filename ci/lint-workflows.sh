#!/bin/sh
# ci/lint-workflows.sh: validates .github/workflows/*.yml, the composite
# action, action.yml, the example projects' workflows and the complete
# workflow of docs/install.md (between its allocgate-workflow-begin/-end
# markers, written to build/docs-workflow/) with action-validator (npm
# @action-validator/cli, installed into build/npm on first use;
# ACTION_VALIDATOR names another). Exits 0 when valid, 1 when not, 77
# (skipped) with one line when neither a validator nor npm is available.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bin=${ACTION_VALIDATOR:-build/npm/node_modules/.bin/action-validator}
if [ ! -x "$bin" ]; then
	bin=build/npm/node_modules/.bin/action-validator
fi
if [ ! -x "$bin" ]; then
	if ! command -v npm >/dev/null 2>&1; then
		echo "ci/lint-workflows.sh: skipped: npm is not installed (needed for @action-validator/cli)"
		exit 77
	fi
	npm install --loglevel=error --prefix build/npm @action-validator/cli \
		>build/npm-install.log 2>&1 || {
		# npm's reason: ENOTFOUND (no network), SELF_SIGNED_CERT_IN_CHAIN
		# (a proxy whose certificate the system does not trust), ...
		code=$(sed -n -e 's/^npm ERR! code \([A-Za-z0-9_]*\).*/\1/p' \
			-e 's/^npm error code \([A-Za-z0-9_]*\).*/\1/p' build/npm-install.log | head -n 1)
		echo "ci/lint-workflows.sh: skipped: npm install @action-validator/cli failed" \
			"(${code:-no network?}), see build/npm-install.log"
		exit 77
	}
fi
status=0
# the docs' workflow, as a file of a repository's .github/workflows/
doc=build/docs-workflow/.github/workflows/install.yml
mkdir -p "$(dirname "$doc")"
sed -n '/<!-- allocgate-workflow-begin -->/,/<!-- allocgate-workflow-end -->/p' docs/install.md |
	sed -e '/^<!--/d' -e '/^```/d' >"$doc"
if [ ! -s "$doc" ]; then
	echo "ci/lint-workflows.sh: docs/install.md has no workflow between its markers"
	status=1
fi
for f in .github/workflows/*.yml action.yml examples/*/.github/workflows/*.yml "$doc"; do
	"$bin" "$f" || status=1
done
[ $status = 0 ] && echo "ci/lint-workflows.sh: workflows and action.yml valid"
exit $status
