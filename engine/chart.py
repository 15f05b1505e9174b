"""Line charts of a game's accounts round by round (issue 13.5): SVG written directly, PNG
drawn by matplotlib.  Game-agnostic: a kind's audit result gives the chart's spec
(``result.chart()``), this module draws any spec.

A spec is a JSON-able map::

    {"title": str, "x_label": str, "y_label": str,
     "x": [label, ...],                         # one per point (e.g. 0 = the start, 1 = round 1)
     "series": [{"name": str, "values": [int | None, ...], "dashed": bool}, ...],
     "marks": [{"x": index into x, "label": str, "series": [names marked at that point]}]}

``values`` line up with ``x`` (None: no point).  A mark shades its point's column and rings
the named series' points there (e.g. the rounds a player held the devil's pact).
"""

from __future__ import annotations

from html import escape

#: colours of the series in order (the dashed series are drawn in black)
PALETTE = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b",
           "#e377c2", "#7f7f7f", "#bcbd22"]
MARK_FILL = "#f4e1c1"
WIDTH, HEIGHT = 860, 440
LEFT, RIGHT, TOP, BOTTOM = 70, 150, 50, 60


def colours(spec: dict) -> list[str]:
    """The colour of each series of ``spec`` (dashed series black, the others by PALETTE)."""
    out, index = [], 0
    for series in spec["series"]:
        if series.get("dashed"):
            out.append("#000000")
        else:
            out.append(PALETTE[index % len(PALETTE)])
            index += 1
    return out


def _bounds(spec: dict) -> tuple[int, int]:
    values = [v for s in spec["series"] for v in s["values"] if v is not None]
    low, high = min(values + [0]), max(values + [0])
    if low == high:
        high = low + 10
    step = _tick_step(high - low)
    return (low // step) * step, -(-high // step) * step


def _tick_step(span: int) -> int:
    for step in (10, 20, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000):
        if span / step <= 8:
            return step
    return 10 ** len(str(span))


def svg(spec: dict, columns: bool = False) -> str:
    """The chart as a standalone SVG document (text; every name escaped).  ``columns``: also a
    transparent ``<rect class="column" data-x="I">`` over each point's column, which a page
    lights up to show one point (the audit page: the round a ledger row belongs to)."""
    xs = spec["x"]
    n = len(xs)
    low, high = _bounds(spec)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def px(i: int) -> float:
        return LEFT + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def py(v: float) -> float:
        return TOP + plot_h * (high - v) / (high - low)

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
           f'viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12" '
           f'role="img" aria-label="{escape(spec.get("title", "chart"))}">',
           f'<rect width="{WIDTH}" height="{HEIGHT}" fill="#ffffff"/>',
           f'<text x="{WIDTH / 2}" y="24" text-anchor="middle" font-size="15" '
           f'font-weight="bold">{escape(spec.get("title", ""))}</text>']
    band = plot_w / (n - 1) if n > 1 else plot_w
    for mark in spec.get("marks", []):
        x = px(mark["x"])
        out.append(f'<rect class="mark" x="{x - band / 2:.1f}" y="{TOP}" width="{band:.1f}" '
                   f'height="{plot_h}" fill="{MARK_FILL}" opacity="0.7">'
                   f'<title>{escape(mark["label"])}</title></rect>')
    if columns:
        for i in range(n):
            out.append(f'<rect class="column" data-x="{i}" x="{px(i) - band / 2:.1f}" y="{TOP}" '
                       f'width="{band:.1f}" height="{plot_h}" fill="#ffd54f" opacity="0" '
                       'pointer-events="none"/>')
    step = _tick_step(high - low)
    for v in range(low, high + 1, step):
        y = py(v)
        out.append(f'<line x1="{LEFT}" x2="{LEFT + plot_w}" y1="{y:.1f}" y2="{y:.1f}" '
                   f'stroke="{"#888" if v == 0 else "#ddd"}" stroke-width="1"/>')
        out.append(f'<text x="{LEFT - 6}" y="{y + 4:.1f}" text-anchor="end">{v}</text>')
    every = max(1, -(-n // 20))
    for i, label in enumerate(xs):
        if i % every == 0 or i == n - 1:
            out.append(f'<text x="{px(i):.1f}" y="{TOP + plot_h + 18}" '
                       f'text-anchor="middle">{escape(str(label))}</text>')
    out.append(f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 14}" text-anchor="middle">'
               f'{escape(spec.get("x_label", ""))}</text>')
    out.append(f'<text x="16" y="{TOP + plot_h / 2}" text-anchor="middle" '
               f'transform="rotate(-90 16 {TOP + plot_h / 2})">'
               f'{escape(spec.get("y_label", ""))}</text>')
    marked: dict[str, list[int]] = {}
    for mark in spec.get("marks", []):
        for name in mark.get("series", []):
            marked.setdefault(name, []).append(mark["x"])
    for colour, series in zip(colours(spec), spec["series"]):
        points = [(px(i), py(v)) for i, v in enumerate(series["values"]) if v is not None]
        dash = ' stroke-dasharray="6 4"' if series.get("dashed") else ""
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
        out.append(f'<polyline class="series" data-name="{escape(series["name"])}" '
                   f'points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>')
        for i in marked.get(series["name"], []):
            value = series["values"][i] if i < len(series["values"]) else None
            if value is not None:
                out.append(f'<circle cx="{px(i):.1f}" cy="{py(value):.1f}" r="5" fill="none" '
                           f'stroke="{colour}" stroke-width="2"/>')
    y = TOP + 6
    for colour, series in zip(colours(spec), spec["series"]):
        dash = ' stroke-dasharray="6 4"' if series.get("dashed") else ""
        x = LEFT + plot_w + 16
        out.append(f'<line x1="{x}" x2="{x + 24}" y1="{y}" y2="{y}" stroke="{colour}" '
                   f'stroke-width="2"{dash}/>')
        out.append(f'<text x="{x + 30}" y="{y + 4}">{escape(series["name"])}</text>')
        y += 20
    if spec.get("marks"):
        x = LEFT + plot_w + 16
        out.append(f'<rect x="{x}" y="{y - 7}" width="24" height="14" fill="{MARK_FILL}"/>')
        out.append(f'<text x="{x + 30}" y="{y + 4}">{escape(spec.get("marks_label", "marked"))}'
                   '</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def png(spec: dict) -> bytes:
    """The chart as PNG bytes, drawn by matplotlib (its Agg backend: no display needed) with
    the same colours, dashes and marks as :func:`svg`."""
    import io

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    figure = Figure(figsize=(WIDTH / 100, HEIGHT / 100), dpi=100)
    axes = figure.subplots()
    n = len(spec["x"])
    for mark in spec.get("marks", []):
        axes.axvspan(mark["x"] - 0.5, mark["x"] + 0.5, color=MARK_FILL, alpha=0.7, lw=0)
    marked: dict[str, list[int]] = {}
    for mark in spec.get("marks", []):
        for name in mark.get("series", []):
            marked.setdefault(name, []).append(mark["x"])
    for colour, series in zip(colours(spec), spec["series"]):
        points = [(i, v) for i, v in enumerate(series["values"]) if v is not None]
        axes.plot([p[0] for p in points], [p[1] for p in points], color=colour, lw=2,
                  ls="--" if series.get("dashed") else "-", label=series["name"])
        rings = [(i, series["values"][i]) for i in marked.get(series["name"], [])
                 if series["values"][i] is not None]
        if rings:
            axes.plot([r[0] for r in rings], [r[1] for r in rings], ls="none", marker="o",
                      mfc="none", mec=colour, ms=8, mew=2)
    axes.axhline(0, color="#888", lw=1)
    every = max(1, -(-n // 20))
    ticks = [i for i in range(n) if i % every == 0 or i == n - 1]
    axes.set_xticks(ticks, [str(spec["x"][i]) for i in ticks])
    axes.set_xlim(-0.5, n - 0.5)
    axes.set_title(spec.get("title", ""))
    axes.set_xlabel(spec.get("x_label", ""))
    axes.set_ylabel(spec.get("y_label", ""))
    axes.grid(axis="y", color="#ddd")
    if spec.get("marks"):
        from matplotlib.patches import Patch

        handles, labels = axes.get_legend_handles_labels()
        handles.append(Patch(color=MARK_FILL, label=spec.get("marks_label", "marked")))
        axes.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1))
    else:
        axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1))
    figure.tight_layout()
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    return buffer.getvalue()
