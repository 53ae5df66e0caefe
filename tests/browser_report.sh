#!/bin/sh
# tests/browser_report.sh BUILD_DIR OUT_DIR: the --html report as a person
# sees it, in headless Chromium (Debian's package; ALLOCGATE_CHROMIUM names
# another), called by tests/test_browser_report.c, which wrote
# OUT_DIR/fixture.html first (a failing group, a hostile name, flame
# graphs of call stacks that changed).
#
# It makes a second page with the gate itself: `gate merge` of
# tests/golden/perturbed.json (a run with regressions) with one variant
# renamed to a name that ends the page's script and starts its own. For
# each page, after the page's script ran (--dump-dom): <body> has
# data-ready (the script set up sorting to its end), the verdict is the
# page's <h1> in the terminal's words, the failing group is named in the
# changes, the kernel's name is text and never markup (one <script>, no
# attribute of its), a click on a column's title sorts the series (by
# number and by text, tried by a script added to a copy of the page),
# the flame graphs' frames are drawn (fixture.html), and Chromium logged
# no console message (an error, an uncaught exception, a load the policy
# refused). A screenshot of each page is kept: OUT_DIR/merge.png and
# OUT_DIR/fixture.png (1280x2400).
#
# Then it proves it can fail: the same checks on a copy with a syntax
# error in the script, and on a copy without the verdict, must fail, each
# for its reason.
#
# Prints "browser_report: ok" and exits 0; exits 77 with one line when
# there is no Chromium (ci/test.sh installs it as root: ci/deps.sh); else
# names the first check that failed and exits 1.
set -u
build=$1
out=$(cd "$2" && pwd) || exit 1
root=$(pwd)
fail() {
	echo "browser_report: $*" >&2
	exit 1
}

browser=${ALLOCGATE_CHROMIUM:-}
[ -n "$browser" ] || browser=$(command -v chromium 2>/dev/null)
if [ -z "$browser" ]; then
	echo "browser_report: no chromium: the HTML report is not tried in a browser" \
		"(apt-get install chromium; ci/test.sh installs it as root)"
	exit 77
fi
[ -f "$out/fixture.html" ] || fail "no $out/fixture.html (tests/test_browser_report.c writes it)"
tmp=$(mktemp -d /tmp/allocgate-browser-XXXXXX)
trap 'rm -rf "$tmp"' EXIT

# chrome ARGS...: headless Chromium with a profile of its own, at most 90 s
chrome() {
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-extensions --user-data-dir="$tmp/profile" "$@"
}

# The page of a run with regressions, written by `gate merge`, one variant
# renamed to the hostile name (its series and sites alike).
hostile="copy_grow</script><script>document.body.setAttribute('data-pwned','')</script>&\"'"
HOSTILE=$hostile python3 - "$root/tests/golden/perturbed.json" "$tmp/hostile.json" <<'EOF' ||
import json, os, sys
r = json.load(open(sys.argv[1]))
for key in ("series", "sites", "site_changes"):
    for x in r.get(key) or []:
        if x.get("variant") == "copy_grow":
            x["variant"] = os.environ["HOSTILE"]
json.dump(r, open(sys.argv[2], "w"))
EOF
	fail "cannot write the hostile result"
"$build/gate" merge "$tmp/hostile.json" --no-color --html "$out/merge.html" >"$tmp/merge.out" 2>&1
code=$?
[ "$code" = 1 ] || { cat "$tmp/merge.out" >&2; fail "gate merge --html exited $code, not 1"; }
grep -q '^FAIL' "$tmp/merge.out" || fail "gate merge printed no FAIL verdict"

# with_sort_probe PAGE COPY: PAGE with a script after its own that clicks
# the series table's titles (change twice: descending; variant once) and
# files the first row's values on <body>
with_sort_probe() {
	sed 's|</body>|<script>\
var t = document.querySelector("table.series"), h = t.tHead.rows[0].cells;\
h[6].click(); h[6].click();\
var b = document.body, first = function (k) { return t.tBodies[0].rows[0].cells[k]; };\
b.setAttribute("data-first-change", first(6).getAttribute("data-v"));\
h[1].click();\
b.setAttribute("data-first-variant", first(1).textContent);\
</script></body>|' "$1" >"$2"
}

# check PAGE GROUP FLAMES: the checks above on PAGE (FLAMES: 1 when its
# flame graphs must be drawn); prints what failed and returns 1, or 0
check() {
	page=$1
	name=$(basename "$page" .html)
	with_sort_probe "$page" "$tmp/$name.probe.html"
	chrome --enable-logging=stderr --v=0 --dump-dom "file://$tmp/$name.probe.html" \
		>"$tmp/$name.dom" 2>"$tmp/$name.log" || { echo "$name: chromium failed"; return 1; }
	if grep -q ':CONSOLE' "$tmp/$name.log"; then
		echo "$name: a console message: $(grep -m1 ':CONSOLE' "$tmp/$name.log")"
		return 1
	fi
	python3 "$root/tests/browser_dom.py" "$tmp/$name.dom" "$2" "$3" "$hostile"
}

check "$out/merge.html" "resize/copy_shrink/256KB_1KB" 0 >"$tmp/check.out" 2>&1 ||
	{ cat "$tmp/check.out" >&2; fail "merge.html"; }
check "$out/fixture.html" "toy/single/small" 1 >"$tmp/check.out" 2>&1 ||
	{ cat "$tmp/check.out" >&2; fail "fixture.html"; }
echo "browser_report: merge.html and fixture.html read as they should"

for name in merge fixture; do
	rm -f "$out/$name.png"
	chrome --screenshot="$out/$name.png" --window-size=1280,2400 "file://$out/$name.html" \
		>/dev/null 2>&1
	[ -s "$out/$name.png" ] && [ "$(head -c 4 "$out/$name.png" | tail -c 3)" = PNG ] ||
		fail "no screenshot $out/$name.png"
done
echo "browser_report: screenshots in $out/merge.png and $out/fixture.png"

# The checks fail on a broken page, each for its reason.
sed 's|"use strict";|"use strict"; (|' "$out/fixture.html" >"$tmp/broken-script.html"
cmp -s "$out/fixture.html" "$tmp/broken-script.html" && fail "the script could not be broken"
if check "$tmp/broken-script.html" "toy/single/small" 1 >"$tmp/check.out" 2>&1; then
	fail "a page whose script does not parse passed the checks"
fi
grep -q "console message" "$tmp/check.out" ||
	{ cat "$tmp/check.out" >&2; fail "the broken script was not caught by its console error"; }
# a script that stops before its end, the console not read: the DOM
# alone says so (data-ready is missing)
sed 's|document.body.setAttribute("data-ready", "");|throw 0;|' "$out/fixture.html" \
	>"$tmp/broken-ready.html"
python3 "$root/tests/browser_dom.py" /dev/null x 0 x >/dev/null 2>&1 &&
	fail "browser_dom.py passed an empty DOM"
chrome --dump-dom "file://$tmp/broken-ready.html" >"$tmp/broken-ready.dom" 2>/dev/null
if python3 "$root/tests/browser_dom.py" "$tmp/broken-ready.dom" "toy/single/small" 1 \
	"$hostile" >"$tmp/check.out" 2>&1; then
	fail "a page whose script stopped before data-ready passed the checks"
fi
grep -q "data-ready" "$tmp/check.out" ||
	{ cat "$tmp/check.out" >&2; fail "the stopped script was not caught by data-ready"; }
sed 's|<h1 id="verdict"[^<]*</h1>||' "$out/fixture.html" >"$tmp/broken-markup.html"
cmp -s "$out/fixture.html" "$tmp/broken-markup.html" && fail "the verdict could not be removed"
if check "$tmp/broken-markup.html" "toy/single/small" 1 >"$tmp/check.out" 2>&1; then
	fail "a page without its verdict passed the checks"
fi
grep -q "verdict" "$tmp/check.out" ||
	{ cat "$tmp/check.out" >&2; fail "the missing verdict was not caught"; }
echo "browser_report: a broken script and a missing verdict fail the checks"
echo "browser_report: ok"
