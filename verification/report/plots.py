"""Plots of verdicts, chosen by the shape of ``Verdict.details``, never by claim id.

A claim gets a plot by storing one of these shapes anywhere in its details (at the top level
or nested up to three mappings deep; the path names the plot):

*Tail points* -- a mapping ``key -> row`` whose rows hold ``frequency``, ``interval``
(``[low, high]``) and ``printed_bound`` (and optionally ``corrected_bound``), as
:func:`verification.rules.probability_bound` stores in ``details["points"]``: the measured
tail frequency with its Clopper-Pearson interval against the bound, on a log scale.

*Mean points* -- a mapping ``key -> row`` whose rows hold ``mean``, ``interval`` and a reference
``bound`` or ``exact`` (the mean rule's ``details["points"]``, Algorithm 2's per-instance
means): the mean with its interval against the reference (a symmetric-log scale when the values
span signs or many decades).

*Fits* -- a mapping holding a number ``slope`` and an interval under a key starting with
``bootstrap`` or ``ols`` (optionally ``theorem_exponent`` or ``operation_count_slope``), as in
``iln.thm1.regret``'s ``details["rates"]`` and ``iln.thm1.runtime``'s ``exponent_T``: every fit
of a claim in one chart of slopes with their intervals against the reference exponents (an
exponent ``theorem_exponents[axis]`` beside a fit named ``..._<axis>`` counts too).  A fit that
also holds its grid (``sizes`` or ``grid``) and a list of as many positive values (a key
starting with ``mean`` or ``median``) is drawn on log-log axes too: the points, the fitted line
with the band of its interval's slopes, and the reference exponent through the same centre.

*Figures* -- a mapping with ``per_budget`` (``budget -> {"D": [...], method: [...],
method + "_interval": [[low, high], ...]}``) and ``labels`` (``method -> name``), optionally
``loss``, ``interval`` and ``paper_showed`` (what the paper's figure showed): a regenerated
figure of a paper, loss against D per method, one panel per budget.

*Curves* -- a mapping ``method -> {size: {"error": e, "seconds": s}}`` with at least two sizes
per method (``rks.fig1.vs_adaboost``'s ``details["curves"]``): error against time, one line
per method, the time on a log axis, as the papers' speed figures draw it.

Each plot is SVG text made deterministic: ``svg.hashsalt`` is fixed, the date is left out and
text stays text (``svg.fonttype = "none"``), so the same data give byte-identical files.  The
element ids of each SVG are prefixed with the plot's name, so that many SVGs can be inlined in
one HTML page without clashing ids.

Examples
--------
>>> rows = {"a": {"frequency": 0.1, "interval": [0.05, 0.2], "printed_bound": 0.3}}
>>> [p.kind for p in claim_plots("c", {"points": rows})]
['tail']
>>> claim_plots("c", {"note": "nothing to plot"})
[]
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

import matplotlib
from matplotlib.figure import Figure
from matplotlib.ticker import NullFormatter

from verification.report.tables import verdict_details

__all__ = ["Plot", "claim_plots"]

#: fixed salt of the SVG element ids (matplotlib otherwise draws it at random).
SVG_HASHSALT = "iln-verify"
#: how deep in the details the shapes are looked for.
MAX_DEPTH = 3
#: matplotlib's SVG sizes are points, drawn at 4/3 px each: 9 pt is 12 px, 8 pt (the smallest
#: used) is 10.7 px, at or above the 10 px a plot's text needs to be read in a page.
SMALL_PT = 8
_RC = {"svg.hashsalt": SVG_HASHSALT, "svg.fonttype": "none", "font.size": 9,
       "axes.titlesize": 9, "legend.fontsize": SMALL_PT, "xtick.labelsize": SMALL_PT,
       "ytick.labelsize": SMALL_PT, "figure.dpi": 72}
#: the widest figure (inches) that the page shows at full size (72rem of text column).
MAX_WIDTH_IN = 11.5
#: values spanning more than this ratio are drawn on a log axis (two decades, issue #21).
LOG_SPAN = 100.0


@dataclass(frozen=True)
class Plot:
    """A plot: ``name`` is unique within its page and safe in a file name."""

    name: str
    kind: str
    title: str
    caption: str
    svg: str
    paper_showed: str | None = None


def _number(value) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def _interval(value) -> tuple[float, float] | None:
    """A ``[low, high]`` pair; a missing end (stored as null) becomes an infinite one."""
    if not (isinstance(value, list | tuple) and len(value) == 2):
        return None
    if not all(v is None or isinstance(v, int | float) for v in value):
        return None
    low = -math.inf if value[0] is None else float(value[0])
    high = math.inf if value[1] is None else float(value[1])
    return low, high


def _rows(node) -> bool:
    return isinstance(node, Mapping) and bool(node) and all(isinstance(r, Mapping) for r in node.values())


def _is_tail(node) -> bool:
    return _rows(node) and all(_number(r.get("frequency")) and _interval(r.get("interval"))
                               and _number(r.get("printed_bound")) for r in node.values())


def _reference(row: Mapping):
    return row.get("bound") if _number(row.get("bound")) else row.get("exact")


def _is_mean(node) -> bool:
    return _rows(node) and all(_number(r.get("mean")) and _interval(r.get("interval"))
                               and _number(_reference(r)) for r in node.values())


def _fit_interval(node: Mapping) -> tuple[str, tuple[float, float]] | None:
    for key, value in node.items():
        if key.startswith(("bootstrap", "ols")) and _interval(value):
            return key, _interval(value)
    return None


def _is_fit(node) -> bool:
    return isinstance(node, Mapping) and _number(node.get("slope")) and _fit_interval(node) is not None


def _is_figure(node) -> bool:
    if not (isinstance(node, Mapping) and isinstance(node.get("labels"), Mapping)
            and _rows(node.get("per_budget"))):
        return False
    return all(isinstance(p.get("D"), list) for p in node["per_budget"].values())


def _is_curves(node) -> bool:
    return _rows(node) and all(
        _rows(curve) and len(curve) >= 2
        and all(_number(p.get("error")) and _number(p.get("seconds")) and p["seconds"] > 0
                for p in curve.values())
        for curve in node.values())


def _walk(node: Mapping, path: str = "", depth: int = 0) -> Iterator[tuple[str, Mapping]]:
    """Every mapping of the details with its path, parents first, in key order."""
    yield path, node
    if depth >= MAX_DEPTH:
        return
    for key, value in node.items():
        if isinstance(value, Mapping):
            yield from _walk(value, f"{path}.{key}" if path else str(key), depth + 1)


# -- SVG -----------------------------------------------------------------------------------

def _svg(figure: Figure, prefix: str) -> str:
    buffer = io.StringIO()
    with matplotlib.rc_context(_RC):
        figure.savefig(buffer, format="svg", metadata={"Date": None}, bbox_inches="tight")
    text = buffer.getvalue()
    text = text[text.index("<svg"):]
    # Scope the ids: the clip paths of two plots on one page would otherwise share names.
    ids = re.findall(r'\bid="([^"]+)"', text)
    for old in sorted(set(ids), key=len, reverse=True):
        new = f"{prefix}-{old}"
        text = text.replace(f'id="{old}"', f'id="{new}"').replace(f"#{old})", f"#{new})")
        text = text.replace(f'href="#{old}"', f'href="#{new}"')
    return text


def _figure(width: float, height: float) -> Figure:
    # Never wider than the page's column: a wider SVG is scaled down, and its text with it.
    with matplotlib.rc_context(_RC):
        return Figure(figsize=(min(width, MAX_WIDTH_IN), height), layout="constrained")


def _legend(axes, **kwargs) -> None:
    """The legend beside the axes, never over the data."""
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0.0, **kwargs)


def _legend_below(axes) -> None:
    """The legend under the axes (panels side by side leave no room beside them)."""
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), borderaxespad=0.0)


def _value_scale(axes, values) -> str:
    """A log axis when the values span more than two decades (symmetric-log when they change
    sign or include 0), else linear; returns the scale's name for the caption."""
    nonzero = [abs(v) for v in values if _number(v) and v != 0]
    if not nonzero or max(nonzero) / min(nonzero) <= LOG_SPAN:
        return "linear"
    if all(_number(v) and v > 0 for v in values):
        axes.set_yscale("log")
        return "log"
    axes.set_yscale("symlog", linthresh=min(nonzero))
    return "symlog"


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "details"


def _positions(labels: Sequence[str]):
    return list(range(len(labels)))


def _label_axis(axes, labels: Sequence[str]) -> None:
    axes.set_xticks(_positions(labels))
    axes.set_xticklabels(labels, rotation=60, ha="right")
    axes.set_xlim(-0.6, len(labels) - 0.4)


def _points_figure(keys: Sequence[str]):
    """A figure of one point per key, wide enough for the keys' labels: the figure, its axes
    and the points' x positions."""
    figure = _figure(max(8.0, 0.45 * len(keys) + 4.5), 4.8)
    return figure, figure.add_subplot(), _positions(keys)


def _finish_points(axes, keys: Sequence[str], ylabel: str, title: str) -> None:
    """Label the axes of a :func:`_points_figure`: the keys below, the legend beside."""
    axes.set_ylabel(ylabel)
    _label_axis(axes, keys)
    _legend(axes)
    axes.set_title(title)


# -- the shapes ----------------------------------------------------------------------------

def _tail_plot(prefix: str, path: str, rows: Mapping) -> Plot:
    keys = [str(k) for k in rows]
    values = [(r["frequency"], *_interval(r["interval"]), r["printed_bound"], r.get("corrected_bound"))
              for r in rows.values()]
    positive = [v for row in values for v in row if _number(v) and v > 0]
    # A log scale cannot show a zero frequency: it is drawn, hollow, on a floor below the data.
    floor = min(positive) / 10 if positive else 1e-3
    top = max(positive) * 2 if positive else 1.0
    with matplotlib.rc_context(_RC):
        figure, axes, x = _points_figure(keys)
        freq = [max(f, floor) for f, *_ in values]
        low = [max(lo, floor) for _, lo, _, _, _ in values]
        high = [max(min(hi, top), floor) for _, _, hi, _, _ in values]
        axes.vlines(x, low, high, color="#1565c0", linewidth=2, label="interval of the frequency")
        filled = [i for i, (f, *_) in enumerate(values) if f > 0]
        hollow = [i for i, (f, *_) in enumerate(values) if f <= 0]
        axes.plot([x[i] for i in filled], [freq[i] for i in filled], "o", color="#1565c0",
                  label="measured frequency")
        if hollow:
            axes.plot([x[i] for i in hollow], [floor] * len(hollow), "o", mfc="white",
                      color="#1565c0", label="no event (drawn at the floor)")
        axes.plot(x, [max(v[3], floor) for v in values], "_", color="#c62828", markersize=18,
                  markeredgewidth=2, label="printed bound")
        corrected = [(i, v[4]) for i, v in enumerate(values) if _number(v[4])]
        if corrected:
            axes.plot([x[i] for i, _ in corrected], [max(c, floor) for _, c in corrected], "_",
                      color="#ef6c00", markersize=12, markeredgewidth=2, label="corrected bound")
        axes.set_yscale("log")
        axes.set_ylim(floor / 2, top)
        _finish_points(axes, keys, "tail probability", f"{path}: tail frequency against its bound")
    name = f"tail-{_slug(path)}"
    return Plot(name, "tail", f"Tail probability against its bound ({path})",
                "Each point: the frequency of the event over the trials with its exact "
                "(Clopper-Pearson) interval at the claim's level; red: the bound as printed"
                + ("; orange: the corrected bound" if corrected else "") + ". Log scale.",
                _svg(figure, f"{prefix}-{name}"))


def _mean_plot(prefix: str, path: str, rows: Mapping) -> Plot:
    keys = [str(k) for k in rows]
    mean = [float(r["mean"]) for r in rows.values()]
    intervals = [_interval(r["interval"]) for r in rows.values()]
    reference = [float(_reference(r)) for r in rows.values()]
    reference_name = "bound" if all(_number(r.get("bound")) for r in rows.values()) else "exact value"
    finite = [v for v in (*mean, *reference, *(e for i in intervals for e in i)) if math.isfinite(v)]
    low_end = [lo if math.isfinite(lo) else m for (lo, _), m in zip(intervals, mean, strict=True)]
    high_end = [hi if math.isfinite(hi) else m for (_, hi), m in zip(intervals, mean, strict=True)]
    with matplotlib.rc_context(_RC):
        figure, axes, x = _points_figure(keys)
        axes.vlines(x, low_end, high_end, color="#1565c0", linewidth=2, label="interval of the mean")
        axes.plot(x, mean, "o", color="#1565c0", label="mean")
        axes.plot(x, reference, "_", color="#c62828", markersize=18, markeredgewidth=2,
                  label=reference_name)
        scale = _value_scale(axes, finite)
        _finish_points(axes, keys, "mean", f"{path}: mean against its {reference_name}")
    name = f"mean-{_slug(path)}"
    return Plot(name, "mean", f"Mean against its {reference_name} ({path})",
                f"Each point: the mean over the trials with its interval at the claim's level; "
                f"red: the {reference_name}." + {"symlog": " Symmetric-log scale.", "log": " Log scale."}.get(scale, ""),
                _svg(figure, f"{prefix}-{name}"))


def _references(path: str, fit: Mapping, details: Mapping) -> list[tuple[str, float]]:
    out = [(k.replace("_", " "), float(fit[k])) for k in ("theorem_exponent", "operation_count_slope")
           if _number(fit.get(k))]
    axis = path.rsplit("_", 1)[-1] if "_" in path else None
    exponents = details.get("theorem_exponents")
    if axis and isinstance(exponents, Mapping) and _number(exponents.get(axis)):
        out.append(("theorem exponent", float(exponents[axis])))
    return out


def _fit_data(fit: Mapping) -> tuple[list[float], list[float], str] | None:
    sizes = fit.get("sizes", fit.get("grid"))
    if not (isinstance(sizes, list) and len(sizes) >= 2 and all(_number(s) and s > 0 for s in sizes)):
        return None
    for key, value in fit.items():
        if (key.startswith(("mean", "median")) and isinstance(value, list) and len(value) == len(sizes)
                and all(_number(v) and v > 0 for v in value)):
            return [float(s) for s in sizes], [float(v) for v in value], key
    return None


def _fit_plots(prefix: str, fits: list[tuple[str, Mapping]], details: Mapping) -> list[Plot]:
    plots = []
    with matplotlib.rc_context(_RC):
        figure = _figure(6.0, 0.55 * len(fits) + 1.6)
        axes = figure.add_subplot()
        seen_labels = set()
        for row, (path, fit) in enumerate(fits):
            y = len(fits) - 1 - row
            for key, value in fit.items():
                interval = _interval(value)
                if key.startswith(("bootstrap", "ols")) and interval:
                    thick = key.startswith("bootstrap")
                    offset = 0.12 if thick else -0.12
                    label = "bootstrap interval" if thick else "OLS interval"
                    axes.hlines(y + offset, *interval, color="#1565c0" if thick else "#90caf9",
                                linewidth=4 if thick else 2,
                                label=None if label in seen_labels else label)
                    seen_labels.add(label)
            axes.plot([fit["slope"]], [y], "o", color="#0d47a1",
                      label=None if "slope" in seen_labels else "fitted slope")
            seen_labels.add("slope")
            for name, value in _references(path, fit, details):
                axes.plot([value], [y], "|", markersize=16, markeredgewidth=2,
                          color="#c62828" if "theorem" in name else "#ef6c00",
                          label=None if name in seen_labels else name)
                seen_labels.add(name)
        axes.set_yticks(range(len(fits)))
        axes.set_yticklabels([p for p, _ in reversed(fits)])
        axes.set_ylim(-0.6, len(fits) - 0.4)
        axes.set_xlabel("exponent (slope of log quantity on log size)")
        _legend(axes)
        axes.set_title("fitted exponents against the stated ones")
    plots.append(Plot("exponents", "exponents", "Fitted exponents with their intervals",
                      "Each row: a log-log fit's slope with its intervals; red: the exponent the "
                      "paper states, orange: the exponent of the operation count, where given. A "
                      "slope over a finite grid is evidence, not proof.",
                      _svg(figure, f"{prefix}-exponents")))
    with_data = [(p, f, _fit_data(f)) for p, f in fits if _fit_data(f)]
    if not with_data:
        return plots
    with matplotlib.rc_context(_RC):
        figure = _figure(3.2 * len(with_data) + 0.5, 3.2)
        for i, (path, fit, (sizes, values, key)) in enumerate(with_data):
            axes = figure.add_subplot(1, len(with_data), i + 1)
            log_x = [math.log(s) for s in sizes]
            log_y = [math.log(v) for v in values]
            centre_x, centre_y = sum(log_x) / len(log_x), sum(log_y) / len(log_y)
            grid = [min(sizes) * (max(sizes) / min(sizes)) ** (k / 20) for k in range(21)]

            def line(slope, grid=grid, centre_x=centre_x, centre_y=centre_y):
                return [math.exp(centre_y + slope * (math.log(g) - centre_x)) for g in grid]

            _, (low, high) = _fit_interval(fit)
            if math.isfinite(low) and math.isfinite(high):
                lower, upper = line(low), line(high)
                axes.fill_between(grid, [min(a, b) for a, b in zip(lower, upper, strict=True)],
                                  [max(a, b) for a, b in zip(lower, upper, strict=True)],
                                  color="#90caf9", alpha=0.5, label="slopes in the interval")
            axes.plot(sizes, values, "o", color="#0d47a1", label=key.replace("_", " "))
            axes.plot(grid, line(fit["slope"]), "-", color="#1565c0",
                      label=f"fit: slope {fit['slope']:.3g}")
            for name, value in _references(path, fit, details):
                if "theorem" in name:
                    axes.plot(grid, line(value), "--", color="#c62828", label=f"{name} {value:g}")
            axes.set_xscale("log")
            axes.set_yscale("log")
            # The grid's own values as ticks: log axes over less than a decade get no labels.
            axes.set_xticks(sizes, [f"{s:g}" for s in sizes])
            axes.xaxis.set_minor_formatter(NullFormatter())
            axes.set_xlabel(path.split("/")[0].rsplit(".", 1)[-1] if "/" in path else "size")
            axes.set_ylabel(key.replace("_", " "))
            axes.set_title(path)
            _legend_below(axes)
    plots.append(Plot("loglog", "loglog", "Log-log fits with their intervals",
                      "The measured points on log-log axes, the fitted line (its slope is the "
                      "exponent), the band of lines whose slopes lie in its interval, and the "
                      "paper's exponent through the same centre (dashed).",
                      _svg(figure, f"{prefix}-loglog")))
    return plots


def _figure_plot(prefix: str, path: str, node: Mapping) -> Plot:
    budgets = list(node["per_budget"].items())
    labels = node["labels"]
    with matplotlib.rc_context(_RC):
        figure = _figure(3.6 * len(budgets) + 0.6, 3.4)
        for i, (budget, panel) in enumerate(budgets):
            axes = figure.add_subplot(1, len(budgets), i + 1)
            d = panel["D"]
            for method, label in labels.items():
                values = panel.get(method)
                if not (isinstance(values, list) and len(values) == len(d)):
                    continue
                intervals = panel.get(f"{method}_interval") or [None] * len(d)
                low = [v - _interval(iv)[0] if _interval(iv) and math.isfinite(_interval(iv)[0]) else 0.0
                       for v, iv in zip(values, intervals, strict=True)]
                high = [_interval(iv)[1] - v if _interval(iv) and math.isfinite(_interval(iv)[1]) else 0.0
                        for v, iv in zip(values, intervals, strict=True)]
                axes.errorbar(d, values, yerr=[low, high], marker="o", capsize=3, label=str(label))
            axes.set_xlabel("D (input dimension)")
            axes.set_ylabel("loss")
            axes.set_title(f"feature budget {budget}")
            _value_scale(axes, [v for m in labels for v in (panel.get(m) or []) if _number(v)])
        # One legend for all panels (their methods are the same), under them.
        handles, names = axes.get_legend_handles_labels()
        figure.legend(handles, names, loc="outside lower center", ncols=max(1, len(names)))
    name = f"figure-{_slug(path)}"
    loss = node.get("loss", "loss")
    return Plot(name, "figure", f"Regenerated figure ({path})",
                f"{loss}; error bars: {node.get('interval', 'intervals as stored')}.",
                _svg(figure, f"{prefix}-{name}"),
                paper_showed=node.get("paper_showed") if isinstance(node.get("paper_showed"), str) else None)


def _size(key) -> float:
    try:
        return float(key)
    except (TypeError, ValueError):
        return math.inf


def _curves_plot(prefix: str, path: str, node: Mapping) -> Plot:
    with matplotlib.rc_context(_RC):
        figure = _figure(6.5, 3.6)
        axes = figure.add_subplot()
        errors = []
        for method, curve in node.items():
            # In order of size (features, rounds): a curve's times can tie at the small sizes.
            points = sorted(curve.items(), key=lambda item: (_size(item[0]), item[1]["seconds"]))
            seconds = [p["seconds"] for _, p in points]
            error = [p["error"] for _, p in points]
            errors += error
            axes.plot(seconds, error, "o-", label=str(method))
            for (size, _), x, y in zip(points, seconds, error, strict=True):
                axes.annotate(str(size), (x, y), textcoords="offset points", xytext=(3, 4),
                              fontsize=SMALL_PT, color="#555555")
        axes.set_xscale("log")
        _value_scale(axes, errors)
        axes.set_xlabel("train + test time (s, log scale)")
        axes.set_ylabel("test error")
        axes.set_title(f"{path}: error against time")
        _legend(axes)
    name = f"curves-{_slug(path)}"
    return Plot(name, "curves", f"Error against time ({path})",
                "Each line: a method's test error against its training plus test time, one point "
                "per size (the number beside it: features or rounds); time on a log scale.",
                _svg(figure, f"{prefix}-{name}"))


def claim_plots(claim_id: str, details: Mapping) -> list[Plot]:
    """The plots of one verdict's details, by shape (see the module docstring).

    Parameters
    ----------
    claim_id : str
        Prefixes the SVG element ids, so that plots of several claims can share a page.
    details : mapping
        ``Verdict.details`` as stored (JSON-ready).

    Returns
    -------
    list of Plot
        Empty when no shape occurs.

    Raises
    ------
    TypeError
        ``details`` is not a mapping.
    """
    details = verdict_details(details)
    prefix = _slug(claim_id)
    plots, fits = [], []
    for path, node in _walk(details):
        label = path or "details"
        if _is_tail(node):
            plots.append(_tail_plot(prefix, label, node))
        elif _is_mean(node):
            plots.append(_mean_plot(prefix, label, node))
        elif _is_figure(node):
            plots.append(_figure_plot(prefix, label, node))
        elif _is_curves(node):
            plots.append(_curves_plot(prefix, label, node))
        elif _is_fit(node):
            fits.append((label, node))
    if fits:
        plots.extend(_fit_plots(prefix, fits, details))
    return plots
