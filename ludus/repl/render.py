"""A seat's view (from `match.view`) drawn for people with rich: counters, tracks, zones, board,
the decision; and log entries as one-line sentences. Nothing here reads the state directly, so
what a seat may not see never reaches the screen."""

from __future__ import annotations

from rich.cells import cell_len
from rich.console import Group
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ..engine.display import came_and_gone
from ..engine.effect import place_text
from ..engine.view import HIDDEN


class Items:
    """Names joined by commas, wrapped between two names and never inside one: a hand of
    "Ace of Diamonds, 10 of Clubs, ..." breaks after a comma, so no card's name is split over two
    lines (a single name wider than the screen still wraps, as any text does)."""

    def __init__(self, text: str, items: list[str], style: str = "") -> None:
        self.text = text  # the items joined by ", "
        self.items = items
        self.style = style

    def __rich_measure__(self, console, options) -> Measurement:
        widest = max((cell_len(item) + 1 for item in self.items), default=0)
        return Measurement(min(widest, options.max_width), min(cell_len(self.text), options.max_width))

    def __rich_console__(self, console, options):
        width = options.max_width
        lines, line = [], ""
        for i, item in enumerate(self.items):
            piece = item + ("," if i < len(self.items) - 1 else "")
            if line and cell_len(line) + 1 + cell_len(piece) > width:
                lines.append(line)
                line = piece
            else:
                line = f"{line} {piece}" if line else piece
        lines.append(line)
        yield Text("\n".join(lines), style=self.style)


class Header:
    """The screen's first line: the game, where the flow is, and whose view it is. When it does
    not fit, `· as Suffragist sees it` goes to a line of its own rather than being broken
    anywhere (`... · as Suffragist sees` / `it`)."""

    def __init__(self, where: Text, who: Text) -> None:
        self.where, self.who = where, who

    def __rich_console__(self, console, options):
        whole = Text.assemble(self.where, "  · ", self.who)
        if cell_len(whole.plain) <= options.max_width:
            yield whole
        else:
            yield self.where
            yield Text.assemble("  · ", self.who)


def items_renderable(text: str, style: str = ""):
    """`text`, a list written with `, ` between its items, as a renderable that wraps between
    items (see Items); text with no list in it stays plain text."""
    items = text.split(", ")
    if len(items) > 1:
        return Items(text, items, style)
    return Text(text, style=style) if style else text


def cards_text(cards) -> str:
    """A zone's contents as its seat may see them: names grouped with counts, or a count."""
    if cards == HIDDEN:
        return "hidden"
    if isinstance(cards, dict):
        count = cards.get("count")
        text = "hidden" if count == HIDDEN else f"{count} card{'s' if count != 1 else ''}"
        if cards.get("top") is not None:
            text += f", {cards['top']} on top"
        if cards.get("revealed"):
            text += "; revealed: " + grouped(cards["revealed"])
        if cards.get("marks"):  # a hand the seat sees the backs of: what lies on each card's back
            text += "; " + "; ".join(f"card {i}: {tokens_text(on)}" for i, on in enumerate(cards["marks"], 1) if on)
        return text
    return grouped(cards) if cards else "empty"


def pieces_text(entry: dict, group: bool = False) -> list[str]:
    """What lies on a space as the seat sees it: each piece or card shown (with `group`, copies
    side by side counted, as a zone's are: a stack of `Leather 1 ×5`), then how many more lie
    face down under the top of a pile (a `top only` board)."""
    pieces = list(entry.get("pieces", []))
    shown = _runs_text(pieces) if group else pieces
    if entry.get("face_down"):
        shown.append(f"{entry['face_down']} face down")
    return shown


def grouped(names: list[str]) -> str:
    """Cards in their zone's order (top first), copies side by side counted: `Farm ×2, Mill`. Only
    copies next to each other: [Farm, Mill, Farm] is `Farm, Mill, Farm`, as counting them all
    at the first would put Mill second where it is not, and a game's positions (a market row
    priced by slot, `top`, `choose` of a position) would read wrong."""
    return ", ".join(_runs_text(names))


def _runs_text(names: list[str]) -> list[str]:
    """Each run of copies side by side as one item, `Farm ×2` (see grouped)."""
    runs: list[list] = []
    for name in names:
        if runs and runs[-1][0] == name:
            runs[-1][1] += 1
        else:
            runs.append([name, 1])
    return [f"{name} ×{count}" if count > 1 else name for name, count in runs]


TRACK_WIDTH = 41  # positions drawn of a longer track


def track_text(name: str, track: dict) -> Text:
    """`mood  Riot[-4 -3] -2 -1 (0) 1 2 [3 4]Festival`: every position, the marker in brackets."""
    return Text(f"{name}  ") + track_body(track)


def track_body(track: dict) -> Text:
    """A track's positions, the marker in brackets, and the tokens on it, without its name."""
    out = Text()
    zones = sorted(track["zones"].items(), key=lambda z: z[1][0])
    starts = {lo: (z, hi) for z, (lo, hi) in zones}
    ends = {hi: z for z, (lo, hi) in zones}
    low, high = track["low"], track["high"]
    shown = range(low, high + 1)
    if high - low + 1 > TRACK_WIDTH:  # a long track: the stretch around the marker, and its ends
        first = max(low, min(track["pos"] - TRACK_WIDTH // 2, high - TRACK_WIDTH + 1))
        shown = range(first, first + TRACK_WIDTH)
        if first > low:
            out.append(f"{low} … ")
    for pos in shown:
        if pos in starts:
            zname, _hi = starts[pos]
            out.append(f"{zname}[", style="bold" if _in_zone(track, zname) else "dim")
        if pos == track["pos"]:
            out.append(f"({pos})", style="bold reverse")
        else:
            out.append(str(pos))
        if pos in ends:
            out.append("]", style="bold" if _in_zone(track, ends[pos]) else "dim")
        if pos != shown[-1]:
            out.append(" ")
    if shown[-1] < high:
        out.append(f" … {high}")
    inside = [z for z in track["zones"] if _in_zone(track, z)]
    if len(shown) < high - low + 1 and inside:
        out.append(f"   (in {', '.join(inside)})")
    for where, tokens in sorted(track["tokens"].items()):
        out.append(f"   at {where}: " + tokens_text(tokens))
    return out


def _in_zone(track: dict, zone: str) -> bool:
    lo, hi = track["zones"][zone]
    return lo <= track["pos"] <= hi


def value_text(value) -> str:
    if value == HIDDEN:
        return "hidden"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if value is None:
        return "none"
    if value == "":
        return '""'  # an empty text, which would otherwise show as nothing at all
    if isinstance(value, list):
        return ", ".join(map(value_text, value)) or "nothing"
    return str(value)


def row_text(row: dict) -> str:
    """A counter, flag or var kept per space, card or pair, on one line: `Rope: 1, Lamp: 2,
    hidden: (0, 3)`. Each key is followed by a colon, as `show` writes a name and its value:
    a key and its value joined by a space alone read wrong where the key ends in a number
    (`Lamp 2 1`, a card named "Lamp 2"). A list is put in brackets, so that its items do not
    read as keys: the values of the cards the seat may not see are such a list, under one
    `hidden` key."""
    return ", ".join(f"{k}: ({value_text(v)})" if isinstance(v, list) else f"{k}: {value_text(v)}"
                     for k, v in row.items())


def counters_table(view: dict, seats: list[str]):
    """The game's counters, flags and vars: one table of those kept per seat, with a column a
    seat, and one of the rest (the game's own values, and those kept per space or per pair),
    so a game-wide value is never drawn in the first seat's column."""
    counters = view["counters"]
    if not counters:
        return None

    def per_seat(value) -> bool:
        return isinstance(value, dict) and bool(value) and set(value) <= set(seats)

    tables = []
    seat_rows = [(name, value) for name, value in counters.items() if per_seat(value)]
    if seat_rows:
        table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
        table.add_column("per seat")
        for s in seats:
            table.add_column(s, justify="right")
        for name, value in seat_rows:
            table.add_row(name, *[value_text(value.get(s, "")) for s in seats])
        tables.append(table)
    other_rows = [(name, value) for name, value in counters.items() if not per_seat(value)]
    if other_rows:
        table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
        table.add_column("game")
        table.add_column("value")
        for name, value in other_rows:
            if isinstance(value, dict):
                table.add_row(name, row_text(value))
            else:
                table.add_row(name, value_text(value))
        tables.append(table)
    return Group(*tables)


def unlisted_left_out(view: dict, unlisted) -> tuple[dict, list[str]]:
    """`view` without the counters, flags and vars declared `unlisted` (bookkeeping a game keeps
    off the screen), and their names, in the view's order."""
    counters = view.get("counters", {})
    names = [name for name in counters if name in unlisted]
    if not names:
        return view, []
    return {**view, "counters": {k: v for k, v in counters.items() if k not in unlisted}}, names


def view_renderable(view: dict, seats: list[str], compact: bool = False, left_out: list[str] = ()):
    """The whole state as `view` shows it, ready for `console.print`. Compact (the screen after
    each move): empty zones folded into one line, and only the spaces with something on them.
    `left_out` names the counters, flags and vars the view was drawn without (unlisted_left_out),
    on one line."""
    parts: list = []
    who = "designer view: every seat's hidden information" if view["seat"] is None else f"as {view['seat']} sees it"
    where = ", ".join(view["where"])
    parts.append(Header(Text.assemble((view["game"], "bold"), f"  ({where})" if where else ""), Text(who, style="italic")))
    table = counters_table(view, seats)
    if table is not None:
        parts.append(table)
    if left_out:
        parts.append(items_renderable(f"not listed: {', '.join(left_out)} (`show NAME` reads one)", style="dim"))
    if view["tracks"]:
        # in a table, as the zones are: the names lined up, and a long track (Stonewall's
        # overton, 41 positions and its tokens) wrapped under its own positions, not under its name
        tracks = Table(box=None, pad_edge=False, show_header=False)
        tracks.add_column()
        tracks.add_column()
        for name, track in view["tracks"].items():
            tracks.add_row(name, track_body(track))
        parts.append(tracks)
    zones = Table(box=None, pad_edge=False, show_header=False)
    zones.add_column(style="bold")
    zones.add_column()
    empty = []
    for name, cards in view["zones"].items():
        if compact and (cards == [] or (isinstance(cards, dict) and cards.get("count") == 0 and not cards.get("revealed"))):
            empty.append(name)
            continue
        zones.add_row(name, items_renderable(cards_text(cards)))
    if zones.row_count:
        parts.append(zones)
    if empty:
        parts.append(items_renderable(f"empty: {', '.join(empty)}", style="dim"))
    board = [(space, entry) for space, entry in view["board"].items()]
    if compact:
        bare = sum(1 for _, entry in board if not entry.get("tokens") and not entry.get("pieces"))
        board = [(space, entry) for space, entry in board if entry.get("tokens") or entry.get("pieces")]
    if board:
        table = Table(box=None, pad_edge=False, show_header=False)
        table.add_column(style="bold")
        table.add_column()
        for space, entry in board:
            bits = [tokens_text(entry["tokens"])] if entry.get("tokens") else []
            bits += pieces_text(entry, group=True)
            table.add_row(space, items_renderable(", ".join(bits) or "·"))
        parts.append(table)
    if compact and bare:
        parts.append(Text(f"{bare} empty space{'s' if bare != 1 else ''} not drawn (`show` draws the whole state)", style="dim"))
    for where, tokens in view["elsewhere"].items():
        parts.append(Text(f"{where}: " + tokens_text(tokens)))
    return Group(*parts)


def decision_renderable(view: dict, shown: list[str] | None = None, game_path: str | None = None):
    """The pending decision with numbered options (or who is deciding, when it is hidden);
    `shown`, when given, is how each option is written on screen (with spaces' full names).
    With the game's path, the game-over line says on which line the game ended."""
    if view.get("result") is not None:
        r = view["result"]
        scores = ", ".join(f"{name} {value}" for name, value in r.get("payoffs", {}).items())
        place = place_text(r, game_path) if game_path is not None else ""
        return Text(f"game over: {', '.join(r['winners']) or 'no one'} won ({r['reason']}{place})"
                    + (f"; payoffs: {scores}" if scores else ""), style="bold")
    decision = view.get("decision")
    if decision is None:
        return Text("no decision is pending")
    lines = [Text(decision["prompt"], style="bold")]
    if decision.get("picked"):  # a choice of several, one at a time: what this decision has taken
        lines.append(Text(f"  picked so far: {', '.join(decision['picked'])}"))
    if decision.get("shares"):  # a `distribute`, one target at a time: what the earlier ones were given
        lines.append(Text(f"  given so far: {', '.join(decision['shares'])}"))
    options = decision.get("options")
    if options is None:
        lines.append(Text(f"  ({decision['seat']} is deciding)"))
    elif decision.get("kind") == "number":
        # the options are numbers: typed as themselves, never confused with positions in a list
        lines.append(Text(f"  type a number: {number_span(options)}"))
    elif decision.get("blind"):
        # `choose ... blind`: places in a list, typed as themselves (`3`, even once 2 is picked)
        places = [o for o in options if o != "done"]
        done = ", or done" if len(places) < len(options) else ""
        lines.append(Text(f"  type a place in the list: {number_span(places)}{done}"))
    else:
        for i, label in enumerate(shown or options, 1):
            lines.append(Text(f"  {i:>2}. {label}"))
    return Group(*lines)


def number_span(options: list[str]) -> str:
    """`0 to 3`, or the numbers one by one when they do not run without a gap."""
    try:
        values = [int(o) for o in options]
    except ValueError:
        return ", ".join(options)
    if len(values) > 2 and values == list(range(values[0], values[0] + len(values))):
        return f"{values[0]} to {values[-1]}"
    return ", ".join(options)


def zone_detail(name: str, cards) -> str:
    """One zone for `show`: every card in order (top first) when the seat may see them."""
    if isinstance(cards, list):
        if not cards:
            return f"{name}: empty"
        return f"{name} ({len(cards)}, top first): " + ", ".join(cards)
    return f"{name}: {cards_text(cards)}"


def view_changes(before: dict, after: dict, starts: dict | None = None) -> list[str]:
    """What a move changed, as the viewing seat sees it (both views come from `match.view`, so
    nothing hidden shows): counters, tracks, zones and the board, one line each. `starts`
    (view.counter_starts) gives what a key of a per-space or per-card counter read before its
    first change: the view leaves such a key out until it is set."""
    lines: list[str] = []
    starts = starts or {}
    old_c, new_c = before.get("counters", {}), after.get("counters", {})
    for name in new_c:
        a, b = old_c.get(name), new_c[name]
        if isinstance(b, dict) or isinstance(a, dict):
            a, b = a if isinstance(a, dict) else {}, b if isinstance(b, dict) else {}
            for key in dict.fromkeys(list(a) + list(b)):
                old = a[key] if key in a else starts.get((name, key))
                if old != b.get(key):
                    lines.append(f"{name} of {key}: {value_text(old)} → {value_text(b.get(key))}")
        elif a != b:
            lines.append(f"{name}: {value_text(a)} → {value_text(b)}")
    for name, track in after.get("tracks", {}).items():
        old = before.get("tracks", {}).get(name, {})
        if old.get("pos") != track["pos"]:
            lines.append(f"{name}: {old.get('pos')} → {track['pos']}")
        if old.get("start") != track["start"]:
            lines.append(f"{name}'s start: {old.get('start')} → {track['start']}")
    for zone, cards in after.get("zones", {}).items():
        old = before.get("zones", {}).get(zone, [])
        if old != cards:
            lines.append(f"{zone}: {zone_change_text(old, cards)}")
    for space, things in after.get("board", {}).items():
        old = before.get("board", {}).get(space, {})
        if old != things:
            lines.append(f"{space}: {_things(old)} → {_things(things)}")
    # tokens on cards and pieces (a card in a hand the seat sees the backs of has them on the
    # zone's line above, by place, as `marks`)
    old_e, new_e = before.get("elsewhere", {}), after.get("elsewhere", {})
    for where in dict.fromkeys([*old_e, *new_e]):
        old, new = old_e.get(where, {}), new_e.get(where, {})
        if old != new:
            # a card the seat no longer reads tokens on may have lost them, or gone where the
            # seat may not see it: a view cannot tell the two apart, so it says only what it sees
            gone = "none" if after.get("seat") is None else "none seen"
            lines.append(f"tokens on {where}: {tokens_text(old) or 'none'} → {tokens_text(new) or gone}")
    return lines


def tokens_text(tokens: dict) -> str:
    """`Wound ×2, P1 Shield`: tokens with how many of each, a count of one left unsaid (none:
    empty text). The one wording of tokens wherever the REPL writes them: on a space, a track,
    a card, the back of a card in a hand, and in the `changed:` lines."""
    return ", ".join(f"{t} ×{n}" if n != 1 else t for t, n in tokens.items())


BIG_ZONE = 10  # a zone longer than this is said by the cards that came and went, as snapshots say it
# nor is a zone whose cards, written twice over, would take more than this many characters:
# a hand of seven long names (Votes for Women) made a line of 300 that hid the one card played
LONG_CHANGE = 100


def zone_change_text(old, new) -> str:
    """`hand of Basil: empty → Copper Coin ×3`; for a big zone (a pile of tricks taken) or one
    whose names are long, its sizes and the cards that came and went, `20 cards → 24 cards; +
    2 of Hearts, ...`, rather than every card twice over."""
    whole = f"{cards_text(old)} → {cards_text(new)}"
    if not (isinstance(old, list) and isinstance(new, list)) or \
            (max(len(old), len(new)) <= BIG_ZONE and len(whole) <= LONG_CHANGE):
        return whole
    came, gone = came_and_gone(old, new)
    parts = [f"{cards_text({'count': len(old)})} → {cards_text({'count': len(new)})}"]
    if came:
        parts.append("+ " + grouped(came))
    if gone:
        parts.append("- " + grouped(gone))
    if not came and not gone:
        parts.append("same cards, new order")
    return "; ".join(parts)


def _things(things) -> str:
    if not things:
        return "nothing"
    if isinstance(things, dict):
        return ", ".join(f"{v} face down" if k == "face_down" else f"tokens {tokens_text(v)}" if k == "tokens" else
                         f"pieces {grouped(v)}" if k == "pieces" and isinstance(v, list) and v else
                         f"{k} {value_text(v) if not isinstance(v, (list, dict)) else value_text(list(v))}" for k, v in things.items())
    return value_text(things)
