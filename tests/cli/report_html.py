#!/usr/bin/env python3
"""Checks an HTML report written by `dbgauge report` (used by report.sh).

usage: report_html.py REPORT.html CHECK...   where CHECK is one of
  structure            tags balanced (strict-ish html.parser walk), one <html>, no
                       scripts, no external resources, html5lib strict parse when available
  svgs=N               exactly N <svg> charts
  title=TEXT           some chart's <title> is TEXT
  series=CHART:NAME:x1,y1;x2,y2;...
                       chart CHART (data-chart id) has a series NAME whose path maps back
                       through the axis ticks to these points, within one pixel
  absent=TEXT          TEXT does not occur in the raw file
  present=TEXT         TEXT occurs in the raw file
Exit 0 when every check passes; prints one line per failure.
"""
import html.parser
import math
import re
import sys

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


class Walker(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors = [], []
        self.svgs = []          # dicts: attrs, title, ticks, paths
        self.cur_svg = None
        self.in_title = False
        self.tags = {}

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "svg":
            self.cur_svg = {"attrs": a, "title": "", "ticks": [], "paths": []}
            self.svgs.append(self.cur_svg)
        if self.cur_svg is not None:
            self.element(tag, a)
            if tag == "title" and len(self.stack) and self.stack[-1] == "svg":
                self.in_title = True
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag, attrs):
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if self.cur_svg is not None:
            self.element(tag, dict(attrs))
        elif tag not in VOID:
            self.errors.append("self-closing <%s/> outside SVG" % tag)

    def element(self, tag, a):
        cls = a.get("class", "")
        if tag == "line" and cls.startswith("tick "):
            axis = cls.split()[1]
            pos = float(a["y1"]) if axis == "y" else float(a["x1"])
            self.cur_svg["ticks"].append((axis, float(a["data-v"]), pos))
        if tag == "path" and cls == "series":
            self.cur_svg["paths"].append((a.get("data-series"), a.get("d", "")))

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1] != tag:
            self.errors.append("unbalanced </%s> (open: %s)" % (tag, "/".join(self.stack[-4:])))
            if tag in self.stack:
                while self.stack and self.stack.pop() != tag:
                    pass
            return
        self.stack.pop()
        if tag == "svg":
            self.cur_svg = None
        if tag == "title":
            self.in_title = False

    def handle_data(self, data):
        if self.in_title and self.cur_svg is not None:
            self.cur_svg["title"] += data


def axis_map(ticks, axis):
    """value -> pixel from the two outermost ticks (linear or log, as the ticks show)."""
    t = sorted((v, p) for a, v, p in ticks if a == axis)
    if len(t) < 2:
        raise ValueError("fewer than 2 %s ticks" % axis)
    (v0, p0), (v1, p1) = t[0], t[-1]
    # log when the ticks are evenly spaced in log, not in value
    mid = t[len(t) // 2]
    lin = p0 + (mid[0] - v0) / (v1 - v0) * (p1 - p0)
    is_log = v0 > 0 and abs(lin - mid[1]) > 1
    if is_log:
        f = lambda v: p0 + (math.log10(v) - math.log10(v0)) / (math.log10(v1) - math.log10(v0)) * (p1 - p0)
    else:
        f = lambda v: p0 + (v - v0) / (v1 - v0) * (p1 - p0)
    # every tick must sit where the mapping puts it
    for v, p in t:
        if abs(f(v) - p) > 0.5:
            raise ValueError("%s tick %g at %g, expected %g" % (axis, v, p, f(v)))
    return f


def path_points(d):
    return [(float(x), float(y)) for x, y in re.findall(r"[ML]\s*([-\d.]+)[ ,]([-\d.]+)", d)]


def main():
    path, checks = sys.argv[1], sys.argv[2:]
    raw = open(path, encoding="utf-8").read()
    w = Walker()
    w.feed(raw)
    w.close()
    fails = []
    for check in checks:
        name, _, arg = check.partition("=")
        if name == "structure":
            fails += w.errors
            if w.stack:
                fails.append("unclosed tags at the end: %s" % "/".join(w.stack))
            if w.tags.get("html") != 1 or w.tags.get("body") != 1:
                fails.append("expected one <html> and one <body>")
            if w.tags.get("script") or w.tags.get("iframe") or w.tags.get("link"):
                fails.append("scripts, frames or links to other resources")
            refs = re.findall(r'(?:src|href)\s*=\s*"([^"]*)"', raw)
            fails += ["external reference %r" % r for r in refs if not r.startswith("#")]
            urls = set(re.findall(r"(?:https?:)?//[\w.-]+", raw)) - {"http://www.w3.org"}
            fails += ["URL in the page: %s" % u for u in sorted(urls)]
            try:
                import html5lib  # noqa: F401  (python3-html5lib, when installed)
            except ImportError:
                html5lib = None
            if html5lib:
                try:
                    html5lib.HTMLParser(strict=True).parse(raw)
                except Exception as e:  # html5lib.html5parser.ParseError
                    fails.append("html5lib strict parse: %s" % e)
        elif name == "svgs":
            if len(w.svgs) != int(arg):
                fails.append("%d <svg> charts, expected %s" % (len(w.svgs), arg))
        elif name == "title":
            titles = [s["title"] for s in w.svgs]
            if arg not in titles:
                fails.append("no chart titled %r (titles: %s)" % (arg, titles))
        elif name == "series":
            chart, sname, pts = arg.split(":", 2)
            want = [tuple(map(float, p.split(","))) for p in pts.split(";")]
            svg = [s for s in w.svgs if s["attrs"].get("data-chart") == chart]
            if not svg:
                fails.append("no chart %r" % chart)
                continue
            try:
                fx, fy = axis_map(svg[0]["ticks"], "x"), axis_map(svg[0]["ticks"], "y")
            except ValueError as e:
                fails.append("chart %s: %s" % (chart, e))
                continue
            paths = [d for n, d in svg[0]["paths"] if n == sname]
            if not paths:
                fails.append("chart %s has no series %r" % (chart, sname))
                continue
            got = path_points(paths[0])
            if len(got) != len(want):
                fails.append("chart %s series %s: %d points, expected %d" % (chart, sname, len(got), len(want)))
                continue
            for (gx, gy), (x, y) in zip(got, want):
                if abs(fx(x) - gx) > 1 or abs(fy(y) - gy) > 1:
                    fails.append("chart %s series %s: (%g, %g) drawn at (%.1f, %.1f), expected (%.1f, %.1f)"
                                 % (chart, sname, x, y, gx, gy, fx(x), fy(y)))
        elif name == "absent":
            if arg in raw:
                fails.append("found %r" % arg)
        elif name == "present":
            if arg not in raw:
                fails.append("missing %r" % arg)
        else:
            fails.append("unknown check %r" % check)
    for f in fails:
        print("%s: %s" % (path, f))
    return 1 if fails else 0


sys.exit(main())
