#!/usr/bin/env python3
"""Checks the project's references to its documentation, and what its
code comments say: python3 ci/check-docs.py [FILE ...]

With no argument it checks README.md and docs/*.md (links, below) and
every text file git tracks (plain-text references, below), but not the
files of tests/data/check-docs/, which break the rules on purpose, nor
this script and tests/test_docs.c, which quote them; with
FILE arguments, only those files. One line per problem, FILE:LINE first;
exit 1 when there is one, else 0.

- Links of a markdown file: each relative link must name a file inside the
  repository that exists, and an anchor (`file.md#anchor`, `#anchor`) must
  be a heading of that file, by GitHub's rule: the heading's text
  lowercased, spaces to '-', every other character but letters, digits,
  '-' and '_' removed, a repeated anchor numbered -1, -2, ...
- Plain-text references, in any text file: a page named with a heading in
  quotes, `kernels.md, "Conditions"`, `docs/noise.md "Drift history"`,
  `README "Exit status"`, `[counters.md](counters.md), "The cost key"` or
  `(page.md, "Heading")` (a comment's line breaks and `*` allowed between
  them; `and "Other heading"` after it is checked too), and a bare
  `page.md#anchor` outside a markdown link. The page is looked for beside
  the file, then in docs/, then at the top; the quoted text must be a
  heading of it, or the start of one up to a word's end ("Interference"
  names "Interference: disturbed timing samples"), backticks, emphasis and
  case aside.
- docs/measurements.md is the evidence by topic: no heading of it holds a
  date.
- Comments of gates/ and perf/ say what the code does and why, never what
  a run measured: none names a VM, a UTC time or a date (an ISO timestamp
  of a format's example, 2026-12-07T01-02-03Z, aside); the figures belong
  in docs/measurements.md.
- A percentage stated as a constant's value must be the constant's: in a
  comment or a page, `2% (POLICY_MIN_EFFECT_AB)`, `50% (`NAME`)`; in the
  comment right above a line that uses a constant, `N%: ...` at its start
  and `N% is the smallest/default/...`. The constants are the fractional
  `#define`s of gates/ and perf/.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join("tests", "data", "check-docs")
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
DATED = re.compile(r"20[0-9]{2}-[0-9]{2}")
TEXT_EXT = (".md", ".c", ".h", ".py", ".sh", ".yml", ".yaml", ".txt", ".in",
            ".cmake", ".mk", ".build", ".json")
TEXT_NAMES = ("Makefile", "CMakeLists.txt", "meson.build", "gate")

# A page named with a quoted heading. Between the name (or its markdown
# link) and the quote: a comma, blanks, and a comment's line break.
GAP = r"(?:,|[ \t]|\n[ \t]*(?:\*|#|//)?)+"
QUOTED = r'"(?P<head>[A-Za-z0-9`-][^"{}();|$\\=<>\[\]]{0,118}?)"'
PAGE = r"(?P<page>\bREADME(?:\.md)?|[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md)"
TEXT_REF = re.compile(PAGE + r"(?:\]\([^)\s]*\))?" + GAP + QUOTED)
MORE_REF = re.compile(r"(?:" + GAP + r"and" + GAP + r"|" + GAP + r")" + QUOTED)
ANCHOR_REF = re.compile(r"(?<![\w(/.-])(?P<page>[A-Za-z0-9_./-]*[A-Za-z0-9_-]\.md)#(?P<anchor>[A-Za-z0-9_-]+)")
MD_LINK = re.compile(r"\[[^\]]*\]\([^)]*\)")


def prose_lines(path):
    """(number, line) of a markdown file outside its fenced code blocks."""
    fenced = False
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if line.lstrip().startswith("```"):
                fenced = not fenced
                continue
            if not fenced:
                yield number, line.rstrip("\n")


def anchor_of(text):
    """GitHub's anchor for a heading's text."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)   # a link: its text
    text = text.lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def headings(path, cache={}):
    """[(number, text)] of a file's headings."""
    if path not in cache:
        found = []
        for number, line in prose_lines(path):
            m = HEADING.match(line)
            if m:
                found.append((number, m.group(2)))
        cache[path] = found
    return cache[path]


def anchors(path, cache={}):
    """The set of anchors a file's headings give."""
    if path not in cache:
        seen, names = {}, set()
        for _, text in headings(path):
            a = anchor_of(text)
            n = seen.get(a, 0)
            seen[a] = n + 1
            names.add(a if n == 0 else "%s-%d" % (a, n))
        cache[path] = names
    return cache[path]


def plain(text):
    """A heading or a quoted name as a reader compares them: no markdown
    (links, backticks, emphasis), one space, lower case."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    text = re.sub(r"[`*_]", "", text)
    text = re.sub(r"\s*(?:\n\s*(?:\*|#|//)?)\s*", " ", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def names_heading(path, quoted):
    """Whether QUOTED names a heading of PATH: the heading itself, or its
    start up to a word's end."""
    q = plain(quoted)
    for _, text in headings(path):
        h = plain(text)
        if h == q or (h.startswith(q) and not h[len(q)].isalnum()):
            return True
    return False


def find_page(name, where):
    """The file a reference from the file WHERE means by NAME, or None."""
    if name in ("README", "README.md"):
        candidates = [os.path.join(os.path.dirname(where), "README.md"),
                      os.path.join(ROOT, "README.md")]
    elif "/" in name:
        candidates = [os.path.join(os.path.dirname(where), name), os.path.join(ROOT, name)]
    else:
        candidates = [os.path.join(os.path.dirname(where), name),
                      os.path.join(ROOT, "docs", name), os.path.join(ROOT, name)]
    for c in candidates:
        c = os.path.normpath(c)
        if os.path.isfile(c) and os.path.commonpath([ROOT, c]) == ROOT:
            return c
    return None


def link_problems(path):
    """Lines naming each link of a markdown file that leaves the repository
    or names a file or anchor that is not there."""
    problems = []
    rel = os.path.relpath(path, ROOT)
    for number, line in prose_lines(path):
        for target in LINK.findall(line):
            if re.match(r"^[a-z]+:", target):          # http:, https:, mailto:
                continue
            file_part, _, anchor = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            where = "%s:%d: %s" % (rel, number, target)
            if os.path.commonpath([ROOT, dest]) != ROOT:
                problems.append("%s: leaves the repository" % where)
            elif not os.path.exists(dest):
                problems.append("%s: no such file" % where)
            elif anchor and dest.endswith(".md") and anchor not in anchors(dest):
                problems.append("%s: no heading with that anchor" % where)
    return problems


def text_ref_problems(path):
    """Lines naming each plain-text reference of a file to a page and a
    heading, or a page and an anchor, that is not there."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (UnicodeDecodeError, OSError):
        return []
    rel = os.path.relpath(path, ROOT)
    problems = []

    def line_of(offset):
        return text.count("\n", 0, offset) + 1

    def check(page_name, quoted, offset):
        page = find_page(page_name, path)
        where = "%s:%d" % (rel, line_of(offset))
        shown = re.sub(r"\s+", " ", plain(quoted) if "\n" in quoted else quoted)
        if page is None:
            problems.append('%s: %s, "%s": no such page' % (where, page_name, shown))
        elif not page.endswith(".md"):
            return
        elif not names_heading(page, quoted):
            problems.append('%s: %s, "%s": no such heading in %s'
                            % (where, page_name, shown, os.path.relpath(page, ROOT)))

    for m in TEXT_REF.finditer(text):
        check(m.group("page"), m.group("head"), m.start("head"))
        end = m.end()
        while True:
            more = MORE_REF.match(text, end)
            if not more or not re.match(r'^[A-Z`]', more.group("head")):
                break
            check(m.group("page"), more.group("head"), more.start("head"))
            end = more.end()
    # page.md#anchor outside a markdown link (a markdown file's links are
    # checked as links)
    scrubbed = MD_LINK.sub(lambda m: " " * len(m.group(0)), text) if path.endswith(".md") else text
    for m in ANCHOR_REF.finditer(scrubbed):
        page = find_page(m.group("page"), path)
        where = "%s:%d" % (rel, line_of(m.start()))
        if page is None:
            problems.append("%s: %s#%s: no such page" % (where, m.group("page"), m.group("anchor")))
        elif m.group("anchor") not in anchors(page):
            problems.append("%s: %s#%s: no heading with that anchor in %s"
                            % (where, m.group("page"), m.group("anchor"), os.path.relpath(page, ROOT)))
    return problems


def dated_headings(path):
    """Lines naming each heading of a file that holds a date."""
    rel = os.path.relpath(path, ROOT)
    return ["%s:%d: a dated heading: %s" % (rel, n, t)
            for n, t in headings(path) if DATED.search(t)]


C_TOKEN = re.compile(r"/\*.*?\*/|//[^\n]*|\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'", re.S)
RUN_FIGURE = [
    (re.compile(r"\bVMs?\b"), "names a VM"),
    (re.compile(r"\b[0-2]?[0-9]:[0-5][0-9](?:-[0-2]?[0-9]:[0-5][0-9])? UTC\b"), "names a UTC time"),
    (re.compile(r"\b20[0-9]{2}-[01][0-9]-[0-3][0-9](?!T)\b"), "names a date"),
]
DEFINE = re.compile(r"^\s*#\s*define\s+([A-Z][A-Z0-9_]+)\s+\(?(0?\.[0-9]+|1\.0+)\)?\s*(?:/[*/].*)?$", re.M)
PERCENT = r"(?<![\w.])[+-]?([0-9]+(?:\.[0-9]+)?)%"


def c_comments(text):
    """(offset, comment) of each comment of C source TEXT."""
    for m in C_TOKEN.finditer(text):
        if m.group(0).startswith(("/*", "//")):
            yield m.start(), m.group(0)


def constants(files):
    """{NAME: value} of the fractional #defines of FILES."""
    found = {}
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            for m in DEFINE.finditer(f.read()):
                found[m.group(1)] = float(m.group(2))
    return found


def same_percent(shown, value):
    return abs(float(shown) - 100.0 * value) < 1e-6


def percent_problems(rel, text, offset_line, consts, near_pattern):
    """Each `N% (... NAME)` of TEXT whose N is not NAME's value."""
    problems = []
    for m in near_pattern.finditer(text):
        name = m.group("name")
        if name in consts and not same_percent(m.group(1), consts[name]):
            problems.append("%s:%d: %s%% stated for %s, which is %g (%g%%)"
                            % (rel, offset_line(m.start()), m.group(1), name,
                               consts[name], 100.0 * consts[name]))
    return problems


def comment_problems(files, consts):
    """Comments of FILES (C sources) that narrate a run, or state a
    percentage another than the constant's."""
    near = re.compile(PERCENT + r"[^().;\n]{0,24}\((?:[^()]*[ ,(`])?`?(?P<name>[A-Z][A-Z0-9_]+)`?\)")
    value_first = re.compile(r"^/[*/]\s*" + PERCENT + r":")
    value_is = re.compile(PERCENT + r" is the (?:smallest|largest|default|minimum|maximum|floor)")
    problems = []
    for path in files:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        rel = os.path.relpath(path, ROOT)

        def line_of(offset):
            return text.count("\n", 0, offset) + 1

        for start, comment in c_comments(text):
            for pattern, what in RUN_FIGURE:
                m = pattern.search(comment)
                if m:
                    problems.append("%s:%d: a comment %s (%s): a run's figures belong in "
                                    "docs/measurements.md" % (rel, line_of(start + m.start()), what, m.group(0)))
            problems += percent_problems(rel, comment, lambda o: line_of(start + o), consts, near)
            # the comment right above a line that uses a constant states its value
            after = text[start + len(comment):]
            nxt = re.match(r"[ \t]*\n([^\n]*)", after) if comment.startswith("/*") else re.match(r"\n([^\n]*)", after)
            if not nxt:
                continue
            used = [n for n in re.findall(r"\b[A-Z][A-Z0-9_]+\b", nxt.group(1)) if n in consts]
            if not used:
                continue
            for m in list(value_first.finditer(comment)) + list(value_is.finditer(comment)):
                if not any(same_percent(m.group(1), consts[n]) for n in used):
                    problems.append("%s:%d: the comment says %s%%, the line below uses %s"
                                    % (rel, line_of(start + m.start()), m.group(1),
                                       ", ".join("%s = %g" % (n, consts[n]) for n in used)))
    return problems


def tracked_files():
    """The repository's text files, as git lists them (else a walk)."""
    try:
        out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode("utf-8", "replace")
        names = [n for n in out.split("\0") if n]
    except (OSError, subprocess.CalledProcessError):
        names = []
        for top, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if not d.startswith(".") and d != "build"]
            names += [os.path.relpath(os.path.join(top, f), ROOT) for f in files]
    return [os.path.join(ROOT, n) for n in sorted(names)
            if (n.endswith(TEXT_EXT) or os.path.basename(n) in TEXT_NAMES)
            and not n.startswith(FIXTURES + os.sep)
            and n not in (os.path.join("ci", "check-docs.py"),   # their examples
                          os.path.join("tests", "test_docs.c"))
            and os.path.isfile(os.path.join(ROOT, n))]


def main(argv):
    given = [os.path.abspath(a) for a in argv[1:]]
    if given:
        markdown = [f for f in given if f.endswith(".md")]
        texts = given
        sources = [f for f in given if f.endswith((".c", ".h"))]
    else:
        docs = os.path.join(ROOT, "docs")
        markdown = [os.path.join(ROOT, "README.md")] + sorted(
            os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
        texts = tracked_files()
        sources = [f for f in texts if f.endswith((".c", ".h"))
                   and os.path.relpath(f, ROOT).split(os.sep)[0] in ("gates", "perf")]
    code = [os.path.join(top, f) for d in ("gates", "perf")
            for top, _, files in os.walk(os.path.join(ROOT, d)) for f in files if f.endswith((".c", ".h"))]
    consts = constants(code)
    problems = []
    for path in markdown:
        problems += link_problems(path)
        if os.path.relpath(path, ROOT) == os.path.join("docs", "measurements.md"):
            problems += dated_headings(path)
    for path in texts:
        problems += text_ref_problems(path)
    problems += comment_problems(sources, consts)
    near_md = re.compile(PERCENT + r"[^().;\n]{0,24}\((?:[^()]*[ ,(`])?`(?P<name>[A-Z][A-Z0-9_]+)`\)")
    for path in markdown:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        problems += percent_problems(os.path.relpath(path, ROOT), text,
                                     lambda o, t=text: t.count("\n", 0, o) + 1, consts, near_md)
    for p in problems:
        print(p)
    print("check-docs: %d markdown files, %d text files, %d sources; %d problems"
          % (len(markdown), len(texts), len(sources), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
