"""The HTML report of `ludus simulate --report DIR`: DIR/index.html, its PNG plots beside it, and
DIR/results.json with the numbers. matplotlib draws the plots (the `report` extra)."""

from __future__ import annotations

import html
import json
from pathlib import Path

from ..language.files import FileProblem, read_text_file, replace_bytes, same_file, write_text_file


class ReportError(Exception):
    """The report cannot be written: matplotlib is missing, or DIR is not a folder we can write."""


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise ReportError("--report draws its plots with matplotlib: pip install 'ludus[report]'") from None
    matplotlib.use("Agg")  # files only, never a window
    import matplotlib.pyplot as plt

    return plt


def holds_results(path: Path) -> bool:
    """Whether the file holds the JSON `ludus simulate --json` writes (and `--report` keeps as
    results.json): the one kind of file a run's output may replace."""
    try:
        data = json.loads(read_text_file(path))
    except (FileProblem, ValueError):
        return False
    return isinstance(data, dict) and isinstance(data.get("runs"), list) and "run" in data


def prepare(folder: str | Path, game_files=()) -> Path:
    """The report folder, made if missing; an error if it is a file or cannot be made, or if it
    holds files the report would replace that are not an earlier report's (an earlier report is
    replaced whole, as running again is meant to)."""
    out = Path(folder)
    if out.exists() and not out.is_dir():
        raise ReportError(f"{folder} is a file, not a folder")
    if out.is_dir():
        ours = ["results.json", "index.html"] + [p.name for p in out.glob("run*.png")] + [p.name for p in out.glob("compare-*.png")]
        taken = [name for name in ours if (out / name).exists()]
        clash = [name for name in taken if same_file(out / name, game_files)]
        if clash:
            raise ReportError(f"{folder} holds {clash[0]}, a file of the game being simulated; give another folder")
        if taken and not holds_results(out / "results.json"):
            raise ReportError(f"{folder} holds {', '.join(taken[:3])}{' ...' if len(taken) > 3 else ''}, which the "
                              "report would replace, and no earlier report; give a new or empty folder")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(f"cannot make the folder {folder}: {exc.strerror or exc}") from None
    return out


def write_report(folder: str | Path, results: dict) -> Path:
    """Write results.json, the plots and index.html; returns the path of index.html.
    `results` is {"runs": [report data, ...], "comparison": ... or None, "run": {...}}."""
    out = prepare(folder)
    plt = _pyplot()
    runs = results["runs"]
    comparison = results.get("comparison")
    write_text_file(out / "results.json", json.dumps(results, indent=1, ensure_ascii=False) + "\n")
    images = []
    for i, data in enumerate(runs):
        tag = f"run{i + 1}" if len(runs) > 1 else "run"
        images.append({
            "wins": _plot_wins(plt, data, out / f"{tag}-wins.png"),
            "length": _plot_lengths(plt, [data], out / f"{tag}-length.png"),
            "actions": _plot_uses(plt, data["actions"], "action", out / f"{tag}-actions.png"),
            "cards": _plot_uses(plt, data["cards"], "card or piece", out / f"{tag}-cards.png"),
        })
    compare_images = {}
    if comparison is not None:
        compare_images = {"wins": _plot_differences(plt, comparison, out / "compare-wins.png"),
                          "length": _plot_lengths(plt, runs, out / "compare-length.png")}
    page = _page(results, images, compare_images)
    index = out / "index.html"
    write_text_file(index, page)
    return index


# -- plots ---------------------------------------------------------------------------------------

def _errorbars(items: list[dict]):
    rates = [x["rate"] for x in items]
    low = [r - x["ci95"][0] for r, x in zip(rates, items, strict=True)]
    high = [x["ci95"][1] - r for r, x in zip(rates, items, strict=True)]
    return rates, [low, high]


def _save(plt, fig, path: Path) -> str:
    """The plot written as a PNG file whole or not at all, as the report's other files are."""
    import io

    fig.tight_layout()
    image = io.BytesIO()
    fig.savefig(image, format="png", dpi=80)
    plt.close(fig)
    replace_bytes(path, image.getvalue())
    return path.name


def _plot_wins(plt, data: dict, path: Path) -> str:
    seats = data["per_seat"]
    labels = [s["seat"] for s in seats] + ["shared", "no winner"]
    items = [s["wins"] for s in seats] + [data["outcomes"]["shared"], data["outcomes"]["no_winner"]]
    rates, err = _errorbars(items)
    fig, ax = plt.subplots(figsize=(6, 3.2))
    colours = ["tab:blue"] * len(seats) + ["tab:purple", "tab:gray"]
    ax.bar(labels, rates, yerr=err, capsize=4, color=colours)
    if seats:
        ax.axhline(1 / len(seats), color="black", linewidth=0.8, linestyle="--", label="1 / players")
        ax.legend(loc="upper right", fontsize="small")
    ax.set_ylabel("share of matches")
    ax.set_ylim(0, 1)
    ax.set_title("Wins per seat, with 95% intervals")
    return _save(plt, fig, path)


def _plot_lengths(plt, runs: list[dict], path: Path) -> str:
    fig, ax = plt.subplots(figsize=(6, 3.2))
    for data in runs:
        hist = data["length"]["histogram"]
        if not hist:
            continue
        values = [v for v, _ in hist]
        weights = [c for _, c in hist]
        ax.hist(values, bins=min(40, max(5, len(values))), weights=weights, alpha=0.6,
                label=Path(data["file"]).name or data["game"])
    ax.set_xlabel("decisions per match")
    ax.set_ylabel("matches")
    ax.set_title("Match length")
    if len(runs) > 1:
        ax.legend(fontsize="small")
    return _save(plt, fig, path)


def _plot_uses(plt, uses: list[dict], what: str, path: Path, top: int = 20) -> str | None:
    if not uses:
        return None
    shown = uses[:top][::-1]
    rates, err = _errorbars([u["win_rate_of_player"] for u in shown])
    fig, ax = plt.subplots(figsize=(6, 0.8 + 0.28 * len(shown)))
    ax.barh([u["name"] for u in shown], rates, xerr=err, capsize=3, color="tab:green")
    ax.set_xlim(0, 1)
    ax.set_xlabel(f"win rate of the seat that played the {what}")
    ax.set_title(f"Each {what} (the {min(top, len(uses))} played most)")
    ax.tick_params(axis="y", labelsize="small")
    return _save(plt, fig, path)


def _plot_differences(plt, comparison: dict, path: Path) -> str:
    rows = [(s["seat"], s["wins"]) for s in comparison["per_seat"]]
    rows += [("shared", comparison["shared"]), ("no winner", comparison["no_winner"]),
             ("first player", comparison["first_player"])]
    labels = [r[0] for r in rows][::-1]
    diffs = [r[1]["difference"] for r in rows][::-1]
    low = [r[1]["difference"] - r[1]["ci95"][0] for r in rows][::-1]
    high = [r[1]["ci95"][1] - r[1]["difference"] for r in rows][::-1]
    fig, ax = plt.subplots(figsize=(6, 0.9 + 0.4 * len(rows)))
    colours = ["tab:red" if r[1]["significant"] else "tab:gray" for r in rows][::-1]
    ax.barh(labels, diffs, xerr=[low, high], capsize=4, color=colours)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_xlabel("variant minus base (share of matches)")
    ax.set_title("What the variant changes, with 95% intervals")
    return _save(plt, fig, path)


# -- the page ------------------------------------------------------------------------------------

CSS = """body{font-family:system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#222}
table{border-collapse:collapse;margin:0.5rem 0 1rem}td,th{border:1px solid #ccc;padding:0.2rem 0.5rem;text-align:right}
th{background:#f3f3f3}td:first-child,th:first-child{text-align:left}img{max-width:100%;display:block;margin:0.5rem 0}
.note{color:#555;font-size:0.9rem}.sig{font-weight:bold;color:#a00}"""


def _e(x) -> str:
    return html.escape(str(x))


def _pct(x: dict) -> str:
    return f"{100 * x['rate']:.1f}% ({100 * x['ci95'][0]:.1f}–{100 * x['ci95'][1]:.1f})"


def _table(head: list[str], rows: list[list]) -> str:
    out = ["<table><tr>" + "".join(f"<th>{_e(h)}</th>" for h in head) + "</tr>"]
    for row in rows:
        out.append("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in row) + "</tr>")
    out.append("</table>")
    return "\n".join(out)


def _img(name: str | None, alt: str) -> str:
    return f'<img src="{_e(name)}" alt="{_e(alt)}">' if name else ""


def _run_section(data: dict, images: dict) -> str:
    o = data["outcomes"]
    parts = [f"<h2>{_e(data['game'])} <span class=note>({_e(data['file'])})</span></h2>"]
    if data["matches"] < data["requested"]:
        parts.append(f"<p class=sig>Stopped after {data['matches']} of {data['requested']} matches.</p>")
    parts.append(f"<p>{data['matches']} matches, {data['players']} players, match seeds {_e(data['match_seeds'])}. "
                 "Rates are shares of all matches played, with 95% Wilson intervals.</p>")
    parts.append("<h3>Who played which seat</h3>")
    parts.append(_table(["seat", "played by"], [[s["seat"], s["bot"]] for s in data["per_seat"]]))
    parts.append("<h3>Wins per seat</h3>")
    parts.append(_table(["seat", "wins alone", "shared wins", "alone or shared"],
                        [[s["seat"], _pct(s["wins"]), _pct(s["shared_wins"]), _pct(s["wins_alone_or_shared"])]
                         for s in data["per_seat"]]))
    parts.append(_table(["outcome", "matches", "share (95% interval)"],
                        [[label, o[key]["count"], _pct(o[key])] for key, label in (
                            ("won_by_one", "won by one seat"), ("shared", "shared win"), ("no_winner", "no winner"),
                            ("unfinished", f"unfinished (over {data['length']['limit']} decisions)"),
                            ("errors", "stopped on a rule error"))]))
    parts.append(_img(images["wins"], "wins per seat"))
    fp = data["first_player"]
    parts.append("<h3>First-player advantage</h3>")
    who = ", ".join(f"{k} in {v}" for k, v in fp["by_seat"].items()) or "no one"
    parts.append(f"<p>The first player is the seat that took the match's first action ({_e(who)}). "
                 f"It won (alone or shared) {_pct(fp['wins'])} of {fp['wins']['of']} finished matches; "
                 f"a fair game would give it {100 * fp['fair']:.1f}%.</p>")
    ln = data["length"]
    parts.append("<h3>Match length</h3>")
    parts.append(f"<p>In decisions (every move of every seat): mean {ln['mean']:.1f} "
                 f"({ln['ci95'][0]:.1f}–{ln['ci95'][1]:.1f}), median {ln['median']}, min {ln['min']}, max {ln['max']}.</p>")
    parts.append(_img(images["length"], "match length histogram"))
    for key, what in (("actions", "action"), ("cards", "card or piece")):
        uses = data[key]
        parts.append(f"<h3>Each {what}</h3>")
        if not uses:
            parts.append(f"<p class=note>No action named a {what}.</p>" if key == "cards" else "<p class=note>No actions.</p>")
            continue
        parts.append(f"<p class=note>How often each {what} was played, by which seat, and the win rate (alone or "
                     f"shared) of a seat in the matches where it played it.</p>")
        parts.append(_img(images[key], f"win rate per {what}"))
        parts.append(_table([what, "plays", "per match", "by seat", "win rate of its player"],
                            [[u["name"], u["plays"], f"{u['per_match']:.2f}",
                              ", ".join(f"{k} {v}" for k, v in u["by_seat"].items()), _pct(u["win_rate_of_player"])]
                             for u in uses]))
    if data["payoffs"]:
        parts.append("<h3>Payoffs</h3>")
        parts.append(_table(["seat", "mean", "min", "max"],
                            [[k, f"{v['mean']:.2f}", v["min"], v["max"]] for k, v in data["payoffs"].items()]))
    if data["first_errors"]:
        parts.append("<h3>Rule errors</h3>")
        parts.append(_table(["match seed", "error"], data["first_errors"]))
    return "\n".join(parts)


def _diff_text(d: dict) -> str:
    text = f"{100 * d['difference']:+.1f} points ({100 * d['ci95'][0]:+.1f} to {100 * d['ci95'][1]:+.1f})"
    return text


def _comparison_section(c: dict, images: dict) -> str:
    parts = ["<h2>Variant against base</h2>",
             f"<p>Base {_e(c['base'])}, variant {_e(c['variant'])}: the same match seeds and bots for both. Each "
             "difference is variant minus base with its 95% interval (Newcombe's, from the two Wilson intervals); "
             "<span class=sig>bold red</span> when the interval leaves out zero.</p>"]

    def row(label, d, fmt=lambda x: f"{100 * x:.1f}%"):
        cls = " class=sig" if d["significant"] else ""
        return (f"<tr><td>{_e(label)}</td><td>{fmt(d['base'])}</td><td>{fmt(d['variant'])}</td>"
                f"<td{cls}>{_e(_diff_text(d) if fmt is not None else '')}</td></tr>")

    rows = [row(f"wins alone: {s['seat']}", s["wins"]) for s in c["per_seat"]]
    rows += [row(f"wins alone or shared: {s['seat']}", s["wins_alone_or_shared"]) for s in c["per_seat"]]
    rows += [row("shared wins", c["shared"]), row("no winner", c["no_winner"]),
             row("first player wins", c["first_player"])]
    ln = c["length"]
    cls = " class=sig" if ln["significant"] else ""
    rows.append(f"<tr><td>mean length (decisions)</td><td>{ln['base']:.1f}</td><td>{ln['variant']:.1f}</td>"
                f"<td{cls}>{ln['difference']:+.1f} ({ln['ci95'][0]:+.1f} to {ln['ci95'][1]:+.1f})</td></tr>")
    parts.append("<table><tr><th></th><th>base</th><th>variant</th><th>difference</th></tr>" + "".join(rows) + "</table>")
    parts.append(_img(images["wins"], "differences in win rates"))
    parts.append(_img(images["length"], "match length, base and variant"))
    for key, what in (("actions", "action"), ("cards", "card or piece")):
        if not c[key]:
            continue
        parts.append(f"<h3>Each {what}, base and variant</h3>")
        parts.append(_table([what, "per match (base)", "per match (variant)", "win rate of its player: difference"],
                            [[u["name"], f"{u['per_match'][0]:.2f}", f"{u['per_match'][1]:.2f}",
                              _diff_text(u["win_rate_of_player"])] for u in c[key]]))
    return "\n".join(parts)


def _page(results: dict, images: list[dict], compare_images: dict) -> str:
    runs = results["runs"]
    if len(runs) == 2:
        same = runs[0]["game"] == runs[1]["game"]  # a variant often keeps its base's title
        a, b = ((Path(d["file"]).name for d in runs) if same else (d["game"] for d in runs))
        title = f"{b} against its base {a} — simulation report"
    else:
        title = f"{runs[0]['game']} — simulation report"
    body = []
    stopped = results.get("run", {}).get("stopped")
    if stopped:
        body.append(f"<p class=sig>The run stopped before its end: {_e(stopped)}.</p>")
    if results.get("comparison") is not None:
        body.append(_comparison_section(results["comparison"], compare_images))
    for data, imgs in zip(runs, images, strict=True):
        body.append(_run_section(data, imgs))
    run = results.get("run", {})
    body.append(f"<p class=note>Made by ludus simulate: {_e(run.get('backend', ''))} backend, "
                f"{_e(run.get('workers', ''))} workers, {run.get('seconds', 0):.1f}s. The numbers are in results.json.</p>")
    return (f"<!doctype html>\n<html lang=en><head><meta charset=utf-8><title>{_e(title)}</title>"
            f"<style>{CSS}</style></head><body>\n<h1>{_e(title)}</h1>\n" + "\n".join(body) + "\n</body></html>\n")
