"""tests/browser_dom.py DOM GROUP FLAMES HOSTILE: what a person sees of an
--html page, checked in the DOM Chromium dumped after the page's scripts ran
(tests/browser_report.sh). Prints the first check that failed and exits 1,
or exits 0.

GROUP: the failing group the changes must name; FLAMES: 1 when flame
graphs must be drawn; HOSTILE: a name of the kernel's that must be text,
never markup. The sort checks read what the script added to the page's
copy filed on <body> (data-first-change, data-first-variant)."""
import html.parser
import math
import sys

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}


class Node:
    def __init__(self, tag, attrs, parent):
        self.tag, self.attrs, self.parent = tag, dict(attrs), parent
        self.children, self.text = [], []

    def all_text(self):
        return "".join(c if isinstance(c, str) else c.all_text() for c in self.children)

    def walk(self):
        yield self
        for c in self.children:
            if isinstance(c, Node):
                yield from c.walk()


class Tree(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = Node("#root", [], None)
        self.at = self.root

    def handle_starttag(self, tag, attrs):
        node = Node(tag, attrs, self.at)
        self.at.children.append(node)
        if tag not in VOID:
            self.at = node

    def handle_startendtag(self, tag, attrs):
        self.at.children.append(Node(tag, attrs, self.at))

    def handle_endtag(self, tag):
        node = self.at
        while node is not self.root and node.tag != tag:
            node = node.parent
        if node is not self.root:
            self.at = node.parent

    def handle_data(self, data):
        self.at.children.append(data)


def fail(why):
    print(why)
    sys.exit(1)


def number(value):
    return math.nan if value is None else float(value)


def check_sorting(body, table):
    rows = [r for r in table.walk() if r.tag == "tr" and r.parent.tag == "tbody"]
    cells = [[c for c in r.children if isinstance(c, Node) and c.tag == "td"] for r in rows]
    changes = [number(c[6].attrs.get("data-v")) for c in cells if len(c) > 6]
    changes = [v for v in changes if not math.isnan(v)]
    first = body.attrs.get("data-first-change")
    if first is None or not changes:
        fail("the sort probe filed no first change: a click on 'change' did nothing")
    if number(first) != max(changes):
        fail("sorted by change, descending, the first row has %s, not the largest, %s"
             % (first, max(changes)))
    variants = [c[1].all_text() for c in cells if len(c) > 1]
    if body.attrs.get("data-first-variant") != min(variants, key=str.lower):
        fail("sorted by variant, the first row has %r, not %r"
             % (body.attrs.get("data-first-variant"), min(variants, key=str.lower)))


def check_flames(tree):
    graphs = [d for d in tree.walk() if d.tag == "details" and "flame" in
              d.attrs.get("class", "").split()]
    if not graphs:
        fail("no flame graph (details.flame)")
    opened = [d for d in graphs if "open" in d.attrs]
    if not opened:
        fail("no flame graph open: the variant whose calls changed is collapsed")
    svgs = [s for s in opened[0].walk() if s.tag == "svg"]
    rects = [r for s in svgs for r in s.walk() if r.tag == "rect"]
    if len(rects) < 5:
        fail("the open flame graph draws %d rects: its frames are missing" % len(rects))


def main():
    dom, group, flames, hostile = sys.argv[1], sys.argv[2], sys.argv[3] == "1", sys.argv[4]
    tree = Tree()
    tree.feed(open(dom, encoding="utf-8").read())
    body = next((n for n in tree.root.walk() if n.tag == "body"), None)
    if body is None:
        fail("no <body>")
    if "data-ready" not in body.attrs:
        fail("no data-ready on <body>: the page's script did not run to its end")
    if "data-pwned" in body.attrs:
        fail("the kernel's name ran as a script")
    first = next((c for c in body.children if isinstance(c, Node)), None)
    if first is None or first.tag != "h1" or first.attrs.get("id") != "verdict":
        fail("the verdict (<h1 id=verdict>) is not the page's first element")
    if first.all_text() != "allocgate: FAIL":
        fail("the verdict reads %r, not 'allocgate: FAIL'" % first.all_text())
    changes = next((n for n in tree.root.walk() if n.attrs.get("id") == "changes"), None)
    if changes is None or group not in [n.all_text() for n in changes.walk()
                                         if n.tag == "strong"]:
        fail("the failing group %s is not named in the changes" % group)
    if any(hostile in n.attrs for n in tree.root.walk()):
        fail("the kernel's name is an attribute")
    texts = [t for n in tree.root.walk() for t in n.children if isinstance(t, str)]
    if not any(hostile in t for t in texts):
        fail("the kernel's name is not shown as text")
    table = next((n for n in tree.root.walk() if n.tag == "table" and "series" in
                  n.attrs.get("class", "").split()), None)
    if table is None:
        fail("no table of every series")
    check_sorting(body, table)
    if flames:
        check_flames(tree.root)


main()
