#!/usr/bin/env python3
"""Counts how much of a documentation page is a record of runs rather than
rules: python3 ci/docs-shares.py [FILE.md ...] (default: README.md, docs/*.md).

A page is cut into blocks: paragraphs and list items separated by blank
lines, each table, each fenced code block. A block is *narrative* when it
carries a date (2026-12-05, "2026-12"), a UTC time (13:47 UTC), a VM, a
commit hash (7 to 40 hex digits with a digit and a letter, the run of hex
digits "0123456789abcdef" aside) or a benchmark
command (ci/*bench*, ci/prbench*). The *strict* share counts the lines of
those blocks; the *wide* share adds the tables and code blocks that follow
a narrative block (what it measured). Prints, per file, its lines and both
shares; the last line the totals."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MARKS = [
    re.compile(r"\b20[0-9]{2}-[01][0-9]\b"),                # a date
    re.compile(r"\b[0-2]?[0-9]:[0-5][0-9](-[0-2]?[0-9]:[0-5][0-9])? UTC\b"),
    re.compile(r"\bVMs?\b"),
    re.compile(r"(?<![\w/.-])(?!0123456789abcdef)(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w/-])"),
    re.compile(r"ci/[a-z]*bench[a-z.-]*|ci/prbench"),
]


def blocks(path):
    """[(kind, lines)] of a markdown file: kind 'code', 'table' or 'prose'."""
    out, cur, kind, fenced = [], [], None, False
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()

    def flush():
        nonlocal cur, kind
        if cur:
            out.append((kind, cur))
        cur, kind = [], None

    for line in lines:
        if fenced:
            cur.append(line)
            if line.lstrip().startswith("```"):
                fenced = False
                flush()
            continue
        if line.lstrip().startswith("```"):
            flush()
            kind, cur, fenced = "code", [line], True
            continue
        if not line.strip():
            flush()
            out.append(("blank", [line]))
            continue
        k = "table" if line.lstrip().startswith("|") else "prose"
        starts_item = re.match(r"\s*([-*]|[0-9]+\.)\s", line) or line.startswith("#")
        if kind is not None and (k != kind or (k == "prose" and starts_item)):
            flush()
        kind = k
        cur.append(line)
    flush()
    return out


def narrative(text):
    return any(m.search(text) for m in MARKS)


def shares(path):
    """(lines, strict narrative lines, wide narrative lines) of a file."""
    total = strict = wide = 0
    carry = False                  # the last non-blank block was narrative
    for kind, lines in blocks(path):
        total += len(lines)
        if kind == "blank":
            continue
        n = len(lines)
        if narrative("\n".join(lines)):
            strict += n
            wide += n
            carry = True
        elif carry and kind in ("table", "code"):
            wide += n
        else:
            carry = False
    return total, strict, wide


def main(argv):
    files = argv[1:]
    if any(f.startswith("-") for f in files):
        print(__doc__.strip(), file=sys.stderr if files != ["--help"] else sys.stdout)
        return 0 if files == ["--help"] else 2
    missing = [f for f in files if not os.path.isfile(f)]
    if missing:
        print("docs-shares: %s: no such file" % missing[0], file=sys.stderr)
        return 2
    if not files:
        docs = os.path.join(ROOT, "docs")
        files = [os.path.join(ROOT, "README.md")] + sorted(
            os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    t_all = s_all = w_all = 0
    print("%-28s %6s %8s %8s" % ("file", "lines", "strict", "wide"))
    for path in files:
        t, s, w = shares(path)
        t_all, s_all, w_all = t_all + t, s_all + s, w_all + w
        shown = os.path.relpath(path, ROOT) if os.path.abspath(path).startswith(ROOT + os.sep) else path
        print("%-28s %6d %7.0f%% %7.0f%%" % (shown, t,
                                             100.0 * s / max(t, 1), 100.0 * w / max(t, 1)))
    print("%-28s %6d %7.0f%% %7.0f%%" % ("total", t_all, 100.0 * s_all / max(t_all, 1),
                                         100.0 * w_all / max(t_all, 1)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
