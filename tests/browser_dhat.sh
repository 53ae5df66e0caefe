#!/bin/sh
# tests/browser_dhat.sh OUT_DIR: the --dhat file in DHAT's own viewer
# (valgrind's dh_view.js, from the valgrind package) in headless Chromium,
# called by tests/test_browser_report.c, which wrote OUT_DIR/fixture.dhat.json
# first (flame_fixture.h's stacks and a frame named to end a script).
#
# The viewer reads a file through a file dialog, which a headless browser
# cannot click; so a page of its own loads dh_view.js and dh_view.css as
# dh_view.html does, then hands the file's contents to the viewer's own
# steps after its onLoad: gData, buildTree() (which checks the fields the
# viewer needs and throws on a missing one) and displayTree(), inside its
# tryFunc, which writes an exception into the page. In the DOM Chromium
# dumps after that: no error, the invocation's command line, the total of
# every call ("N instructions in M calls"), the allocation points and
# their callers as the viewer's tree, the hostile frame as text. A
# screenshot is kept: OUT_DIR/dhat.png.
#
# Then it proves it can fail: a file without its frame table must fail
# for the viewer's own error.
#
# Prints "browser_dhat: ok" and exits 0; exits 77 with one line when there
# is no Chromium or no dh_view.js; else names the first check that failed
# and exits 1.
set -u
out=$(cd "$1" && pwd) || exit 1
fail() {
	echo "browser_dhat: $*" >&2
	exit 1
}

browser=${ALLOCGATE_CHROMIUM:-}
[ -n "$browser" ] || browser=$(command -v chromium 2>/dev/null)
if [ -z "$browser" ]; then
	echo "browser_dhat: no chromium: the DHAT file is not tried in DHAT's viewer" \
		"(apt-get install chromium; ci/test.sh installs it as root)"
	exit 77
fi
viewer=""
for d in /usr/libexec/valgrind /usr/lib/valgrind /usr/local/libexec/valgrind; do
	[ -f "$d/dh_view.js" ] && viewer=$d && break
done
if [ -z "$viewer" ]; then
	echo "browser_dhat: no dh_view.js (valgrind's DHAT viewer): the DHAT file is not tried" \
		"in it (apt-get install valgrind)"
	exit 77
fi
[ -f "$out/fixture.dhat.json" ] ||
	fail "no $out/fixture.dhat.json (tests/test_browser_report.c writes it)"
tmp=$(mktemp -d /tmp/allocgate-dhat-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
cp "$viewer/dh_view.js" "$viewer/dh_view.css" "$tmp/" || fail "cannot copy the viewer"

chrome() {
	timeout 90 "$browser" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-extensions --user-data-dir="$tmp/profile" "$@"
}

# page FILE PAGE: the viewer's page with FILE's contents loaded, as PAGE
# (in the viewer's directory); the contents are a script's JSON, "</"
# written "<\/" so that no name in them ends the script
page() {
	python3 - "$1" "$2" <<'EOF' || fail "cannot write the viewer's page"
import json, sys
data = json.dumps(json.load(open(sys.argv[1], encoding="utf-8"))).replace("</", "<\\/")
open(sys.argv[2], "w", encoding="utf-8").write(
    '<!DOCTYPE html>\n<html><head><meta charset="UTF-8">\n'
    '<link rel="stylesheet" href="dh_view.css"><script src="dh_view.js"></script>\n'
    '<script>var allocgateFile = ' + data + ';\n'
    'function allocgateLoad() {\n'
    '  onLoad();\n'
    '  gFilename = "fixture.dhat.json";\n'
    '  tryFunc(() => { gData = allocgateFile; buildTree(); displayTree(); });\n'
    '  document.body.setAttribute("data-ready", "");\n'
    '}\n</script></head>\n<body onload="allocgateLoad()"></body></html>\n')
EOF
}

# check DOM: what a person sees of the viewer's page; prints what failed
check() {
	python3 - "$1" <<'EOF'
import html, re, sys
dom = open(sys.argv[1], encoding="utf-8").read()
body = dom.split("<body", 1)[-1]
text = html.unescape(re.sub(r"<[^>]*>", "", "<" + body))
checks = [
    ("data-ready", "data-ready" in body.split(">", 1)[0]),
    ("no error", 'class="error"' not in body),
    ("the command line", "allocator calls by call stack" in text),
    ("the total", re.search(r"Total:\s+[\d,.]+ instructions \([^)]*\) in [\d,.]+ calls", text)),
    ("an allocation point", "malloc at tests/kernels/toy.c:10" in text),
    ("its caller", "new_node" in text and "toy/single/small" in text),
    ("the hostile frame as text", "copy_grow</script><script>" in text and
     "data-pwned" not in body.split(">", 1)[0]),
]
bad = [name for name, ok in checks if not ok]
if bad:
    print("not seen: " + ", ".join(bad))
    print(text[:3000])
    sys.exit(1)
EOF
}

page "$out/fixture.dhat.json" "$tmp/viewer.html"
chrome --dump-dom "file://$tmp/viewer.html" >"$tmp/viewer.dom" 2>/dev/null ||
	fail "chromium failed on the viewer's page"
check "$tmp/viewer.dom" >"$tmp/check.out" 2>&1 || { cat "$tmp/check.out" >&2; fail "the fixture"; }
echo "browser_dhat: DHAT's viewer shows the fixture's stacks"

rm -f "$out/dhat.png"
chrome --screenshot="$out/dhat.png" --window-size=1280,1600 "file://$tmp/viewer.html" \
	>/dev/null 2>&1
[ -s "$out/dhat.png" ] && [ "$(head -c 4 "$out/dhat.png" | tail -c 3)" = PNG ] ||
	fail "no screenshot $out/dhat.png"
echo "browser_dhat: screenshot in $out/dhat.png"

# a file the viewer refuses fails the checks, by the viewer's own error
python3 -c '
import json, sys
d = json.load(open(sys.argv[1])); del d["ftbl"]; json.dump(d, open(sys.argv[2], "w"))
' "$out/fixture.dhat.json" "$tmp/broken.json" || fail "cannot write the broken file"
page "$tmp/broken.json" "$tmp/broken.html"
chrome --dump-dom "file://$tmp/broken.html" >"$tmp/broken.dom" 2>/dev/null
check "$tmp/broken.dom" >"$tmp/check.out" 2>&1 && fail "a file without ftbl passed the checks"
grep -q "no error" "$tmp/check.out" && grep -q "missing a field: ftbl" "$tmp/check.out" ||
	{ cat "$tmp/check.out" >&2; fail "the broken file was not caught by the viewer's error"; }
echo "browser_dhat: a file without its frame table fails the checks"
echo "browser_dhat: ok"
