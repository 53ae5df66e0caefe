#!/usr/bin/env python3
"""Checks the links of the project's markdown: python3 ci/check-docs.py [FILE.md ...]

With no argument, README.md and docs/*.md. Each relative link must name a
file inside the repository that exists, and an anchor (`file.md#anchor`,
`#anchor`) must be a heading of that file, by GitHub's rule: the heading's
text lowercased, spaces to '-', every other character but letters, digits,
'-' and '_' removed, a repeated anchor numbered -1, -2, ...
docs/measurements.md is a reference by topic: no heading of it holds a
date. Prints one line per problem; exit 1 when there is one, else 0."""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
DATED = re.compile(r"20[0-9]{2}-[0-9]{2}")


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


def headings(path):
    """[(number, text)] of a file's headings."""
    found = []
    for number, line in prose_lines(path):
        m = HEADING.match(line)
        if m:
            found.append((number, m.group(2)))
    return found


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


def link_problems(path):
    """Lines naming each link of a file that leaves the repository or
    names a file or anchor that is not there."""
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


def dated_headings(path):
    """Lines naming each heading of a file that holds a date."""
    rel = os.path.relpath(path, ROOT)
    return ["%s:%d: a dated heading: %s" % (rel, n, t)
            for n, t in headings(path) if DATED.search(t)]


def main(argv):
    files = [os.path.abspath(a) for a in argv[1:]]
    if not files:
        docs = os.path.join(ROOT, "docs")
        files = [os.path.join(ROOT, "README.md")] + sorted(
            os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
    problems = []
    for path in files:
        problems += link_problems(path)
        if os.path.relpath(path, ROOT) == os.path.join("docs", "measurements.md"):
            problems += dated_headings(path)
    for p in problems:
        print(p)
    print("check-docs: %d files, %d problems" % (len(files), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
