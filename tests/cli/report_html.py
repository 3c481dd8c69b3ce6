#!/usr/bin/env python3
"""Checks an HTML report written by `dbgauge report` (used by report.sh).

usage: report_html.py REPORT.html CHECK...   where CHECK is one of
  structure            tags balanced (strict-ish html.parser walk), one <html>, no
                       scripts, no external resources, html5lib strict parse when available
  svgs=N               exactly N <svg> charts
  title=TEXT           some chart's <title> is TEXT
  series=CHART:NAME:x1,y1;x2,y2;...
                       chart CHART (data-chart id, or ~TITLE: the chart titled TITLE) has a
                       series NAME whose path maps back through the axis ticks to these
                       points, within one pixel
  bars=CHART:V1;V2;...  bar chart CHART's (an id or ~TITLE) bars, in order, have these values (data-v), and
                       each bar ends where the value axis's ticks put its value
  absent=TEXT          TEXT does not occur in the raw file
  present=TEXT         TEXT occurs in the raw file
  pivot=TABLE:METRIC:DIR
                       the <table id="t-TABLE"> is the pivot of METRIC (tps, p95 or tpmC)
                       of the sweep in DIR, computed here from DIR/experiment.json and the
                       point files: caption, header row (the x parameter, then one column
                       per combination of the other varied parameters, "k=v, k=v", or the
                       metric's name when there is none; with units), one row per value of
                       the x parameter (the first varied one) as row headers, and each cell
                       the median over repeats, equal to it at the decimals shown ("-" for
                       a combination without a run)
Exit 0 when every check passes; prints one line per failure.
"""
import html.parser
import json
import math
import os
import re
import sys

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}


def find_chart(w, chart):
    """The svgs of CHART: its data-chart id, or "~TITLE" for the one titled TITLE."""
    if chart.startswith("~"):
        return [s for s in w.svgs if s["title"] == chart[1:]]
    return [s for s in w.svgs if s["attrs"].get("data-chart") == chart]


class Walker(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.errors = [], []
        self.svgs = []          # dicts: attrs, title, ticks, paths
        self.cur_svg = None
        self.in_title = False
        self.tags = {}
        self.tables = {}        # id -> {"caption", "head": [cells], "body": [[cells]]}
        self.table = None       # the table being read; a cell is {"tag", "attrs", "text", "unit"}
        self.part = self.row = self.cell = None
        self.in_unit = self.in_caption = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags[tag] = self.tags.get(tag, 0) + 1
        if tag == "svg":
            self.cur_svg = {"attrs": a, "title": "", "ticks": [], "paths": [], "bars": []}
            self.svgs.append(self.cur_svg)
        if self.cur_svg is not None:
            self.element(tag, a)
            if tag == "title" and len(self.stack) and self.stack[-1] == "svg":
                self.in_title = True
        self.table_start(tag, a)
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
        if tag == "rect" and cls == "bar":
            self.cur_svg["bars"].append((float(a["data-v"]), float(a["x"]), float(a["width"])))
        if tag == "path" and cls == "series":
            self.cur_svg["paths"].append((a.get("data-series"), a.get("d", "")))

    def table_start(self, tag, a):
        if tag == "table":
            self.table = {"caption": "", "head": [], "body": []}
            self.tables[a.get("id", "")] = self.table
        elif self.table is None:
            return
        elif tag == "caption":
            self.in_caption = True
        elif tag in ("thead", "tbody"):
            self.part = tag
        elif tag == "tr":
            self.row = []
        elif tag in ("th", "td"):
            self.cell = {"tag": tag, "attrs": a, "text": "", "unit": ""}
        elif tag == "span" and self.cell is not None and a.get("class") == "unit":
            self.in_unit = True

    def table_end(self, tag):
        if self.table is None:
            return
        if tag == "table":
            self.table = None
        elif tag == "caption":
            self.in_caption = False
        elif tag == "tr" and self.row is not None:
            if self.part == "thead":
                self.table["head"] = self.row
            else:
                self.table["body"].append(self.row)
            self.row = None
        elif tag in ("th", "td") and self.cell is not None:
            if self.row is not None:
                self.row.append(self.cell)
            self.cell = None
        elif tag == "span":
            self.in_unit = False

    def handle_endtag(self, tag):
        self.table_end(tag)
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
        if self.in_caption:
            self.table["caption"] += data
        elif self.cell is not None:
            self.cell["unit" if self.in_unit else "text"] += data


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


# ---- the pivot of a sweep, computed from its files --------------------------------------

HIST_GROUP_BITS, HIST_SUB_COUNT = 10, 2048  # src/stats/hist.h: 2048 exact values, then
                                            # 1024 buckets per power of two


def hist_percentile(hists, pct):
    """dg_hist_percentile of the merged histograms of a result file, in ms."""
    counts, lo, hi = {}, None, None
    for h in hists:
        for low, n in h["buckets"]:
            counts[low] = counts.get(low, 0) + n
        lo = h["min_ns"] if lo is None else min(lo, h["min_ns"])
        hi = h["max_ns"] if hi is None else max(hi, h["max_ns"])
    total = sum(counts.values())
    if not total:
        return None
    want = pct / 100.0 * total
    rank = min(total, max(1, math.ceil(want - want * 1e-12)))
    seen = 0
    for low in sorted(counts):
        seen += counts[low]
        if seen >= rank:
            width = 1 if low < HIST_SUB_COUNT else 1 << (low.bit_length() - 1 - HIST_GROUP_BITS)
            return min(max(low + (width - 1) // 2, lo), hi) / 1e6
    return hi / 1e6


def run_metric(doc, metric):
    if metric == "tps":
        return doc.get("totals", {}).get("tps")
    if metric == "tpmC":
        return doc.get("workload_metrics", {}).get("tpmC")
    txs = doc.get("transactions", [])
    if txs and all("histogram" in t for t in txs):
        return hist_percentile([t["histogram"] for t in txs], 95)
    if len(txs) == 1:
        return txs[0].get("latency_ms", {}).get("p95")
    return None


def median(v):
    v = sorted(x for x in v if x is not None and math.isfinite(x))
    if not v:
        return None
    k = len(v)
    return v[k // 2] if k % 2 else 0.5 * (v[k // 2 - 1] + v[k // 2])


PIVOT = {"tps": ("Throughput", "throughput", "tx/s"),
         "p95": ("95th percentile latency", "p95 latency", "ms"),
         "tpmC": ("tpmC", "New-Orders per minute", "tpmC")}


def expected_pivot(metric, d):
    """caption, header [(name, unit)], rows [(x value, [median or None])] of a sweep dir."""
    exp = json.load(open(os.path.join(d, "experiment.json")))
    runs = []
    for pt in exp["points"]:
        f = os.path.join(d, pt["file"])
        if os.path.exists(f):
            doc = json.load(open(f))
            runs.append((doc["sweep"]["params"], run_metric(doc, metric)))
    # the varied parameters in the index's order, their values in its order
    params = []
    for p in exp["parameters"]:
        seen = [r[0].get(p["name"]) for r in runs]
        if len(set(seen)) > 1:
            params.append((p["name"], [v for v in p["values"] if v in seen]))
    x, others = params[0], params[1:]
    index = lambda name, vals, r: vals.index(r[0][name])
    combos = sorted({tuple(index(n, vs, r) for n, vs in others) for r in runs})
    what, col, unit = PIVOT[metric]
    names = [", ".join("%s=%s" % (n, vs[c[k]]) for k, (n, vs) in enumerate(others)) or col
             for c in combos]
    rest = [n for n, _ in others]
    caption = "%s by %s (medians over repeats)" % (
        what, x[0] + (", " if len(rest) > 1 else " and " if rest else "")
        + (", ".join(rest[:-1]) + " and " + rest[-1] if len(rest) > 1 else "".join(rest)))
    rows = []
    for xv in x[1]:
        cells = []
        for c in combos:
            vals = [m for p, m in runs if p[x[0]] == xv
                    and tuple(index(n, vs, (p,)) for n, vs in others) == c]
            cells.append(median(vals) if vals else "missing")
        rows.append((xv, cells))
    return caption, [(x[0], "")] + [(n, unit) for n in names], rows


def check_pivot(w, arg):
    tid, metric, d = arg.split(":", 2)
    t = w.tables.get("t-" + tid)
    if t is None:
        return ["no table t-%s (tables: %s)" % (tid, sorted(w.tables))]
    caption, head, rows = expected_pivot(metric, d)
    fails = []
    if t["caption"] != caption:
        fails.append("table %s: caption %r, expected %r" % (tid, t["caption"], caption))
    got_head = [(c["text"], c["unit"]) for c in t["head"]]
    if got_head != head:
        fails.append("table %s: header %s, expected %s" % (tid, got_head, head))
    if len(t["body"]) != len(rows):
        return fails + ["table %s: %d rows, expected %d" % (tid, len(t["body"]), len(rows))]
    for got, (xv, want) in zip(t["body"], rows):
        first = got[0]
        if first["tag"] != "th" or first["attrs"].get("scope") != "row" or first["text"] != xv:
            fails.append("table %s: row starts with <%s> %r, expected a row header %r"
                         % (tid, first["tag"], first["text"], xv))
        if len(got) != 1 + len(want):
            fails.append("table %s row %s: %d cells, expected %d" % (tid, xv, len(got), 1 + len(want)))
            continue
        for name, c, v in zip([h[0] for h in head[1:]], got[1:], want):
            text = c["text"]
            if v == "missing" or v is None:
                ok = text == "-"
            else:
                dec = len(text.partition(".")[2])
                try:
                    ok = abs(float(text) - v) <= 0.5 * 10 ** -dec * (1 + 1e-9) + 1e-12
                except ValueError:
                    ok = False
            if not ok:
                fails.append("table %s, %s=%s, %s: cell %r, expected %s"
                             % (tid, head[0][0], xv, name, text, v))
    return fails


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
            svg = find_chart(w, chart)
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
        elif name == "bars":
            # bars=CHART:V1;V2...: the bar chart's bars, in order, have these values and each
            # ends where the value axis puts its value
            chart, vals = arg.split(":", 1)
            want = [float(v) for v in vals.split(";")]
            svg = find_chart(w, chart)
            if not svg:
                fails.append("no chart %r" % chart)
                continue
            bars = svg[0]["bars"]
            # data-v has ten significant digits: equal within that
            if len(bars) != len(want) or not all(
                    math.isclose(g, v, rel_tol=1e-9, abs_tol=1e-6) for (g, _, _), v in zip(bars, want)):
                fails.append("chart %s: bars %s, expected %s" % (chart, [v for v, _, _ in bars], want))
                continue
            try:
                fx = axis_map(svg[0]["ticks"], "x")
            except ValueError as e:
                fails.append("chart %s: %s" % (chart, e))
                continue
            for v, x, width in bars:
                if abs(fx(v) - (x + width)) > 1:
                    fails.append("chart %s: bar %g ends at %.1f, expected %.1f" % (chart, v, x + width, fx(v)))
        elif name == "absent":
            if arg in raw:
                fails.append("found %r" % arg)
        elif name == "present":
            if arg not in raw:
                fails.append("missing %r" % arg)
        elif name == "pivot":
            fails += check_pivot(w, arg)
        else:
            fails.append("unknown check %r" % check)
    for f in fails:
        print("%s: %s" % (path, f))
    return 1 if fails else 0


sys.exit(main())
