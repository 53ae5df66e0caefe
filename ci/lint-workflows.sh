#!/bin/sh
# ci/lint-workflows.sh: validates .github/workflows/*.yml, the composite
# action, action.yml, the example projects' workflows and the two workflows
# of docs/install.md (between its allocgate-workflow-begin/-end and
# allocgate-comment-workflow-begin/-end markers, written to
# build/docs-workflow/) with action-validator (npm @action-validator/cli,
# installed into build/npm on first use; ACTION_VALIDATOR names another),
# and checks that the comment workflow of the page and of examples/strbuf
# are the same file. Exits 0 when valid, 1 when not, 77 (skipped) with one
# line when neither a validator nor npm is available: then, where python3
# has its yaml module, every file must still parse as YAML (1 when not).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
status=0
# the docs' workflows, as files of a repository's .github/workflows/
docs=build/docs-workflow/.github/workflows
mkdir -p "$docs"
for pair in workflow:install.yml comment-workflow:allocgate-comment.yml; do
	marker=allocgate-${pair%%:*}
	sed -n "/<!-- $marker-begin -->/,/<!-- $marker-end -->/p" docs/install.md |
		sed -e '/^<!--/d' -e '/^```/d' >"$docs/${pair#*:}"
	if [ ! -s "$docs/${pair#*:}" ]; then
		echo "ci/lint-workflows.sh: docs/install.md has no workflow between its $marker markers"
		status=1
	fi
done
example=examples/strbuf/.github/workflows/allocgate-comment.yml
cmp -s "$docs/allocgate-comment.yml" "$example" || {
	echo "ci/lint-workflows.sh: $example differs from the comment workflow of docs/install.md"
	status=1
}
files=".github/workflows/*.yml action.yml examples/*/.github/workflows/*.yml $docs/*.yml"

# skip NOTE: without a validator, the files at least parse as YAML
skip() {
	if python3 -c 'import yaml' 2>/dev/null; then
		# shellcheck disable=SC2086
		python3 -c '
import sys, yaml
for f in sys.argv[1:]:
    try:
        yaml.safe_load(open(f))
    except yaml.YAMLError as e:
        print("ci/lint-workflows.sh: %s: not YAML: %s" % (f, e))
        sys.exit(1)' $files || exit 1
		parsed="; every file parses as YAML"
	else
		parsed="; not even parsed (no python3 yaml module)"
	fi
	[ $status = 0 ] || exit 1
	echo "ci/lint-workflows.sh: skipped: $1$parsed"
	exit 77
}

bin=${ACTION_VALIDATOR:-build/npm/node_modules/.bin/action-validator}
if [ ! -x "$bin" ]; then
	bin=build/npm/node_modules/.bin/action-validator
fi
if [ ! -x "$bin" ]; then
	command -v npm >/dev/null 2>&1 || skip "npm is not installed (needed for @action-validator/cli)"
	npm install --loglevel=error --prefix build/npm @action-validator/cli \
		>build/npm-install.log 2>&1 || {
		# npm's reason: ENOTFOUND (no network), SELF_SIGNED_CERT_IN_CHAIN
		# (a proxy whose certificate the system does not trust), ...
		code=$(sed -n -e 's/^npm ERR! code \([A-Za-z0-9_]*\).*/\1/p' \
			-e 's/^npm error code \([A-Za-z0-9_]*\).*/\1/p' build/npm-install.log | head -n 1)
		skip "npm install @action-validator/cli failed (${code:-no network?}), see build/npm-install.log"
	}
fi
for f in $files; do
	"$bin" "$f" || status=1
done
[ $status = 0 ] && echo "ci/lint-workflows.sh: workflows and action.yml valid"
exit $status
