"""Scripted replays: a line-based text file in, a checked match and a transcript out (and back).

A replay names a game, its players and seed, then lists moves by their exact labels, chance
outcomes to force, and `expect` lines that assert on the state. `parse` reads the text (no game
needed), `Replay.run` plays it, and `export` writes a session back as a replay. Every problem is a
`ReplayError` located at `path:line:column`. The format is described in docs/replays.md.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable
from pathlib import Path

from attrs import define, field

from ..engine.dice import die_problem, order_zone_problem
from ..engine.display import describe_entry
from ..engine.effect import place_text, result_text
from ..engine.match import IllegalAction, Match, closest, order_problem, order_zone_fault, seat_named, zone_key
from ..engine.runtime import RuleError
from ..engine.saved import force_problem
from ..language.files import FileProblem, checked_path, read_text_file
from ..language.forcing import order_card_faults
from ..language.limits import MAX_DIE_SIDES, whole_number
from ..language.source import LudusError, split_lines

HEADER = ("game", "players", "seats", "seed", "chance", "setup")
BODY = ("force", "expect", "move")
KEYWORDS = HEADER + BODY


class ReplayError(Exception):
    """A replay that cannot run or whose checks failed, at `path:line:column`."""

    def __init__(self, path: str, line: int, message: str, column: int = 1) -> None:
        self.path, self.line, self.column, self.message = path, line, column, visible(message)
        self.where = f"{path}:{line}:{column}" if line else path  # line 0: the file as a whole
        super().__init__(f"{self.where}: error: {self.message}")


_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def visible(text: str) -> str:
    """The text with its control characters written as escapes (`\\x1b`): a message quotes lines
    of a file or of input, and a control character in them printed as it is could move the
    cursor, clear the screen or hide the rest of the message."""
    return _CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


# ───────────────────────── lines ─────────────────────────


@define
class Force:
    """A chance outcome to queue: `("die", sides, values)` or `("order", zone text, names)`."""

    kind: str
    target: object  # sides (int) for dice, the zone as written for orders
    values: list

    def text(self) -> str:
        if self.kind == "die":
            return f"force d{self.target} = {', '.join(map(str, self.values))}" if self.target else \
                f"force die = {', '.join(map(str, self.values))}"
        return f"force order {self.target} = {', '.join(_quote_name(n) for n in self.values)}"


@define
class Step:
    line: int
    kind: str  # "move" | "force" | "expect"
    text: str  # the label, the expression, or the force as written
    column: int = 1
    force: Force | None = None


@define
class Replay:
    path: str
    game: str | None = None
    game_line: int = 1
    players: int | None = None
    seats: list[str] | None = None
    seats_line: int = 1
    seed: int = 0
    chance: str = "auto"
    setup: list[Step] = field(factory=list)
    steps: list[Step] = field(factory=list)

    @property
    def game_path(self) -> Path:
        base = Path(self.path).parent
        return base / self.game if self.game is not None else base

    def load_game(self):
        """The game the replay names, loaded; a missing or broken game file is a ReplayError."""
        from ..pipeline import load

        if self.game is None:
            raise ReplayError(self.path, 1, "the replay names no game; start it with a line like `game ../market-town.ludus`")
        try:
            path = checked_path(self.game_path)
        except FileProblem as exc:
            raise ReplayError(self.path, self.game_line, str(exc), 6) from None
        try:
            found = path.is_file()
        except OSError as exc:  # a name the file system cannot hold (too long, say)
            raise ReplayError(self.path, self.game_line, f"cannot read the game file '{self.game}': "
                              f"{exc.strerror or exc}", 6) from None
        if not found:
            raise ReplayError(self.path, self.game_line, f"no game file '{self.game}' (looked for {path})", 6)
        try:
            return load(path)
        except LudusError as err:
            n = len(err.diagnostics)
            first = err.diagnostics[0] if err.diagnostics else "?"
            raise ReplayError(self.path, self.game_line,
                              f"the game file has {n} error{'s' if n != 1 else ''}, the first: {first.span}: {first.message}"
                              f" (run `ludus check {path}`)", 6) from None
        except (OSError, ValueError) as exc:
            raise ReplayError(self.path, self.game_line, f"cannot read the game file: {exc}", 6) from None

    def start(self, game) -> Match:
        """A new match as the header asks, with the setup's forced outcomes queued."""
        n = self.players
        if self.seats is not None:
            n = len(self.seats)
            if game.players_problem(n) is not None:
                raise ReplayError(self.path, self.seats_line, game.players_problem(n))
            expected = list(game.seat_names(n))
            if self.seats != expected:
                raise ReplayError(self.path, self.seats_line,
                                  f"with {n} players the seats are {', '.join(expected)}, in that order")
        elif n is not None and game.players_problem(n) is not None:
            raise ReplayError(self.path, self.seats_line, game.players_problem(n))
        forced = []
        for step in self.setup:
            forced.extend(forced_entries(game, n or game.min_players, step, self.path))
        try:
            return Match.new(game, n, seed=self.seed, chance=self.chance, forced=forced)
        except RuleError as err:
            line = self.setup[0].line if self.setup else self.game_line
            raise ReplayError(self.path, line, f"the setup failed: {err}") from None

    def run(self, echo: Callable[[str], None] | None = None, game=None) -> Match:
        """Play the whole replay, checking every expectation; echo a transcript line by line."""

        game = game or self.load_game()
        say = echo or (lambda _text: None)
        checks = [(step, compile_expect(game, self.path, step)) for step in self.steps if step.kind == "expect"]
        compiled = {id(step): fn for step, fn in checks}
        match = self.start(game)
        names = match.seat_names()
        # every force line is checked against the game before the first move, as expectations are
        queued = {id(step): forced_entries(game, len(names), step, self.path) for step in self.steps if step.kind == "force"}
        say(f"# {game.title}: {len(names)} players ({', '.join(names)}), seed {self.seed}")
        for entry in match.log:
            shown = describe_entry(match, entry)
            if shown:
                say(f"      {shown}")
        for step in self.steps:
            if step.kind == "force":
                if match.is_over:  # as a move after the end is refused: nothing rolls or shuffles now
                    left = "roll" if step.force.kind == "die" else "shuffle"
                    raise ReplayError(self.path, step.line, f"{over_text(match)}, so '{step.force.text()}' "
                                      f"has no {left} left to force", step.column)
                for entry in queued[id(step)]:
                    problem = order_problem(match, entry)
                    if problem is not None:
                        raise ReplayError(self.path, step.line, f"cannot force this order: {problem}", step.column)
                    match.state["forced"].append(entry)
                say(f"{step.line:>4}  {step.force.text()}")
            elif step.kind == "expect":
                say(f"{step.line:>4}  expect {step.text}: " + check_expectation(match, step, compiled[id(step)], self.path))
            else:
                who = match.seat_name(match.current) if match.current != "terminal" else None
                log_len = len(match.log)
                apply_move(match, step.text, self.path, step.line, step.column)
                say(f"{step.line:>4}  {who}: {step.text}")
                for entry in match.log[log_len:]:
                    shown = describe_entry(match, entry)
                    if shown:
                        say(f"      {shown}")
        if match.is_over:
            say(result_line(match))
        else:
            where = ", ".join(match.scopes())
            say(f"# stopped with {match.seat_name(match.current)} to move" + (f" ({where})" if where else ""))
        return match


def result_line(match: Match) -> str:
    result = match.result or {"winners": [], "reason": ""}
    winners = ", ".join(result["winners"]) or "no one"
    reason = f" ({result['reason']}{place_text(result, match.game.path)})" if result.get("reason") else ""
    return f"game over: {winners} won{reason}"


# ───────────────────────── running one line ─────────────────────────


def broke_rule(label: str, exc: RuleError) -> str:
    """A move's rule error in one line: where in the game files, then what (the caller says
    'error:' once, before it)."""
    where = f" at {exc.span}" if exc.span is not None else ""
    return f"'{label}' broke a rule{where}: {exc.message}"


def apply_move(match: Match, label: str, path: str, line: int, column: int = 1) -> None:
    """Apply a move by label, turning a rejection into a one-line ReplayError."""
    if match.is_over:
        raise ReplayError(path, line, f"{over_text(match)}, so '{label}' cannot be played", column)
    try:
        match.apply(label)
    except IllegalAction as exc:
        raise ReplayError(path, line, illegal_message(match, exc), column) from None
    except RuleError as exc:
        raise ReplayError(path, line, broke_rule(label, exc), column) from None


def over_text(match: Match) -> str:
    """The start of the error of a line after the end: the match is over, and how it ended."""
    return f"the match is already over ({result_text(match.result, match.game.path)})"


def illegal_message(match: Match, exc: IllegalAction) -> str:
    who = match.seat_name(match.current)
    why = match.why_not(exc.action, detail=True)  # a replay is the designer's: it reads the whole match
    if why is not None:
        return f"'{exc.action}' is not a legal move for {who} now: {why}"
    options = exc.near or exc.legal[:5]
    more = "" if exc.near or len(exc.legal) <= 5 else f", ... ({len(exc.legal)} in all)"
    kind = "closest legal moves" if exc.near else "legal moves"
    return f"'{exc.action}' is not a legal move for {who} now; {kind}: " + "; ".join(options) + more


def compile_expect(game, path: str, step: Step):
    from ..compiler.probe import compile_expression

    winner = _winner_check(game, step.text)
    if winner is not None:
        return winner
    try:
        fn = compile_expression(game, step.text, path, step.line, step.column)
    except LudusError as err:
        span = err.diagnostics[0].span
        raise ReplayError(path, span.line, _one_line(err), span.column) from None
    left = _left_side(step.text)
    left_fn = None
    if left is not None:
        try:
            left_fn = compile_expression(game, left, path, step.line, step.column)
        except LudusError:
            left_fn = None
    return (fn, left, left_fn)


def check_expectation(match: Match, step: Step, compiled, path: str) -> str:
    """'ok', or a ReplayError that shows the actual value."""
    if callable(compiled):
        return compiled(match, step, path)
    fn, left, left_fn = compiled
    try:
        value, typ = fn(match)
    except RuleError as exc:
        raise ReplayError(path, step.line, f"the expectation cannot be computed: {exc.message}", step.column) from None
    if typ != "bool" and not isinstance(value, bool):
        raise ReplayError(path, step.line, f"expect needs a yes/no expression; '{step.text}' is {match.show(value, typ)}"
                          f" (write it as a comparison, like `{step.text} == {match.show(value, typ)}`)", step.column)
    if value:
        return "ok"
    actual = ""
    if left_fn is not None:
        try:
            lv, lt = left_fn(match)
            actual = f": {left} is {match.show(lv, lt)}"
        except RuleError:
            actual = ""
    raise ReplayError(path, step.line, f"expectation failed: {step.text}{actual}", step.column)


def _winner_check(game, text: str):
    """`expect winner A`, `expect winner A, B` (exactly these seats won, in any order), `expect
    winner nobody` or `expect no winner`, as a test block's `expect winner` reads them."""
    m = re.fullmatch(r"winners?\s+(.+)|no\s+winners?", text.strip())
    if not m:
        return None
    wanted = [] if m.group(1) is None else _split_names(m.group(1))
    if wanted in (["nobody"], ["no one"]):
        wanted = []

    def check(match: Match, step: Step, path: str) -> str:
        names = list(match.seat_names())
        seats: list[str] = []  # as the match spells them
        for name in wanted:
            index = seat_named(name, names)  # in any case, as the REPL's `view amber` takes it
            if index is None:
                near = closest(name, names)
                hint = f"; did you mean '{near[0]}'?" if near else ""
                raise ReplayError(path, step.line, f"{text}: '{name}' is not a seat of this match "
                                  f"({', '.join(names)}){hint}", step.column)
            if names[index] in seats:
                raise ReplayError(path, step.line, f"{text}: seat '{names[index]}' is named twice", step.column)
            seats.append(names[index])
        if not match.is_over:
            raise ReplayError(path, step.line, f"expectation failed: {text}: the match is not over", step.column)
        got = match.result["winners"]
        wanted_set = set(seats)
        if set(got) != wanted_set:
            raise ReplayError(path, step.line, f"expectation failed: {text}: the winners are {', '.join(got) or 'nobody'}",
                              step.column)
        return "ok"
    return check


_COMPARISON = re.compile(r"\s(==|!=|<=|>=|<|>)\s")


def _left_side(text: str) -> str | None:
    """The text before the first comparison outside brackets and quotes, to show its value."""
    depth, quoted = 0, False
    for i, ch in enumerate(text):
        if ch == '"':
            quoted = not quoted
        elif not quoted and ch in "([":
            depth += 1
        elif not quoted and ch in ")]":
            depth -= 1
        elif not quoted and depth == 0 and ch == " ":
            m = _COMPARISON.match(text, i)
            if m:
                return text[:i].strip() or None
    return None


def _one_line(err: LudusError) -> str:
    d = err.diagnostics[0]
    hint = f" ({d.hint})" if d.hint else ""
    return f"{d.message}{hint}"


def forced_entries(game, nseats: int, step: Step, path: str) -> list:
    """The `forced` queue entries of a force line, checked against the game."""
    f = step.force
    if f.kind == "die":  # its faces were checked as the line was read (parse_force: force_problem)
        problem = die_problem(game, f.target, f.values)
        if problem is not None:
            raise ReplayError(path, step.line, problem, step.column)
        return [["die", f.target, v] for v in f.values]
    key = zone_key(game, nseats, f.target)
    if key is None:
        message, offset = zone_problem(game, nseats, f.target)
        at = step.text.find(f.target, len("order"))
        raise ReplayError(path, step.line, message, step.column + max(at, 0) + offset)
    faults = order_card_faults(game.defs, f.values)
    if faults:
        # pointed at the card's name after the `=` (at its first place in the list), else at the line
        eq = step.text.find("=")
        at = next((eq + 1 + offset for name, offset in _names_at(step.text[eq + 1:]) if name == faults[0].name),
                  None) if eq >= 0 else None
        raise ReplayError(path, step.line, faults[0].text(), step.column + (at or 0))
    # a zone the game never shuffles: after the names, as `ludus check` tells a line one thing
    name = f.target.partition(" of ")[0].strip()
    problem = order_zone_problem(game, name, quote="`")
    if problem is not None:
        at = step.text.find(name, len("order"))
        raise ReplayError(path, step.line, problem, step.column + max(at, 0))
    return [["order", key, list(f.values)]]


def zone_problem(game, nseats: int, text: str) -> tuple[str, int]:
    """Why `text` (`deck of Amber`, `supply`) names no zone of a match of `nseats` seats, in the
    words the checker says it of a test's `force order` line (match.order_zone_fault: the
    nearest zone or seat, a seat missing or one too many), and where in `text` the fault starts."""
    name_part, sep, seat_part = text.partition(" of ")
    fault = order_zone_fault(game, nseats, name_part.strip(), seat_part.strip() if sep else None, quote="`")
    if fault is None:  # pragma: no cover - zone_key found no zone: there is a fault
        return f"no zone '{text}'", 0
    if fault.part == "zone":
        # at the zone, or at the key of a member the family lacks (`discards dark-bleu`), as the checker points
        return fault.text(), max(name_part.find(fault.name), 0)
    return fault.text(), len(name_part) + len(sep) + len(seat_part) - len(seat_part.lstrip())


# ───────────────────────── parsing ─────────────────────────


def load_replay(path: str | Path) -> Replay:
    try:
        text = read_text_file(path)
    except FileProblem as exc:
        raise ReplayError(_printable(str(path)), 0, "no such replay file" if exc.missing else str(exc)) from None
    game_line = _game_file_line(text)
    if game_line is not None:
        raise ReplayError(str(path), game_line, "this is a game file, not a replay: play it with "
                          f"`ludus play {_printable(str(path))}`; a replay names its game on a line like "
                          "`game ../market-town.ludus`")
    return parse(text, str(path))


# Lines a game file has and a replay never does: read as a replay, a game file failed at its
# `players 2 to 4`, or ran and failed at its `game "Market Town"`, taken for a file's name.
_GAME_FILE_LINE = re.compile(r'(?:flow|setup)\s*:|(?:extends|include)\s+"')


def _game_file_line(text: str) -> int | None:
    """Where `text` shows itself a game file: its `game "Title"` line, or else the first line
    that only a game file has; None for a replay."""
    lines = split_lines(text)
    found = next((number for number, raw in enumerate(lines, 1) if _GAME_FILE_LINE.match(raw)), None)
    if found is None:
        return None
    return next((number for number, raw in enumerate(lines, 1) if raw.startswith('game "')), found)


def _printable(text: str) -> str:
    return text.encode("unicode_escape").decode("ascii")[:300]


def parse(text: str, path: str = "<replay>") -> Replay:
    """The replay's header and steps; a malformed line raises ReplayError at its place."""
    replay = Replay(path)
    seen: dict[str, int] = {}
    for number, raw in enumerate(split_lines(text), 1):  # numbered as editors number them
        line = raw.rstrip()
        stripped = line.lstrip()
        if not stripped or stripped.startswith("#"):
            continue
        indent = len(line) - len(stripped)
        word, _, rest = stripped.partition(" ")
        rest_col = indent + len(word) + 2 + (len(rest) - len(rest.lstrip()))
        rest = rest.strip()
        if word not in KEYWORDS:
            replay.steps.append(Step(number, "move", stripped, indent + 1))
            continue
        if word in HEADER:
            if replay.steps:
                raise ReplayError(path, number, f"'{word}' belongs to the header, before the first move", indent + 1)
            if word in seen and word != "setup":
                raise ReplayError(path, number, f"a second '{word}' line (the first is line {seen[word]})", indent + 1)
            seen[word] = number
        if not rest:
            raise ReplayError(path, number, f"'{word}' needs a value: {_USAGE[word]}", indent + 1)
        if word == "game":
            replay.game, replay.game_line = _unquote(rest), number
        elif word in ("players", "seats"):
            if "players" in seen and "seats" in seen:
                raise ReplayError(path, number, "give either 'players' or 'seats', not both", indent + 1)
            replay.seats_line = number
            if word == "players":
                if whole_number(rest) is None:
                    raise ReplayError(path, number, f"'players' needs a number, not '{rest}'", rest_col)
                replay.players = int(rest)
            else:
                replay.seats = _split_names(rest)
        elif word == "seed":
            if whole_number(rest, signed=True) is None:
                raise ReplayError(path, number, f"'seed' needs a whole number of at most 15 digits, not '{rest}'", rest_col)
            replay.seed = int(rest)
        elif word == "chance":
            if rest not in ("auto", "manual"):
                raise ReplayError(path, number, f"'chance' is 'auto' or 'manual', not '{rest}'", rest_col)
            replay.chance = rest
        elif word == "setup":
            sub, _, more = rest.partition(" ")
            if sub != "force":
                raise ReplayError(path, number, f"'setup' is followed by a force line: {_USAGE['setup']}", rest_col)
            col = rest_col + len(sub) + 1 + (len(more) - len(more.lstrip()))
            replay.setup.append(Step(number, "force", more.strip(), col, parse_force(more.strip(), path, number, col)))
        elif word == "force":
            replay.steps.append(Step(number, "force", rest, rest_col, parse_force(rest, path, number, rest_col)))
        elif word == "expect":
            replay.steps.append(Step(number, "expect", rest, rest_col))
        else:  # move: the rest is a label, even one that starts with a keyword
            replay.steps.append(Step(number, "move", rest, rest_col))
    return replay


_USAGE = {
    "game": "`game ../market-town.ludus` (a path relative to the replay)",
    "players": "`players 2`",
    "seats": "`seats Amber, Basil`",
    "seed": "`seed 7`",
    "chance": "`chance auto` or `chance manual`",
    "setup": "`setup force order supply = Guild Charter, Town Crier`",
    "force": "`force d6 = 5` or `force order deck of Amber = Town Crier, Copper Coin`",
    "expect": "`expect coins of Amber == 3`",
    "move": "`move <label>`, for a label that starts with a reserved word",
}

_DIE = re.compile(r"(?:d([0-9]{1,15})|die)\s*=\s*(.+)")


def parse_force(text: str, path: str, line: int, column: int) -> Force:
    """`d6 = 5`, `d6 = 5, 2`, `die = 3` (any die), `order deck of Amber = A, B` (top first)."""
    m = _DIE.fullmatch(text)
    if m:
        sides = int(m.group(1)) if m.group(1) else 0
        if m.group(1) and sides < 1:
            raise ReplayError(path, line, "a die has at least one side", column)
        # a force that no die can take would stay queued and make every roll after it fail
        problem = force_problem(sides, 1)
        if problem is not None:
            raise ReplayError(path, line, problem, column)
        values = []
        for part in m.group(2).split(","):
            part = part.strip()
            digits = part.removeprefix("-")
            if not (digits.isascii() and digits.isdigit()):
                raise ReplayError(path, line, f"a forced roll is a number, not '{part}'", column)
            if whole_number(part, signed=True) is None:  # more digits than any die has faces
                shown = part if len(part) <= 20 else f"{part[:20]}..."
                most = "" if part.startswith("-") else f": a die has at most {MAX_DIE_SIDES:,} faces"
                raise ReplayError(path, line, f"{shown} is not a face of a d{sides}" if sides else
                                  f"{shown} is not a face of any die{most}", column)
            problem = force_problem(sides, int(part))
            if problem is not None:
                raise ReplayError(path, line, problem, column)
            values.append(int(part))
        return Force("die", sides, values)
    if text.startswith("order "):
        zone, eq, names = text[6:].partition("=")
        # `= , ,` names no card: it forced an empty order, which the REPL said as "forced"
        if not eq or not zone.strip() or not _split_names(names):
            raise ReplayError(path, line, f"write a forced order as {_USAGE['force'].split(' or ')[1]}", column)
        return Force("order", zone.strip(), _split_names(names))
    raise ReplayError(path, line, f"cannot read the forced outcome '{text}'; write {_USAGE['force']}", column)


def _split_names(text: str) -> list[str]:
    """Comma-separated names; a name with a comma in it is written in double quotes."""
    return [name for name, _ in _names_at(text)]


def _names_at(text: str) -> list[tuple[str, int]]:
    """The names of `_split_names`, each with where it starts in `text` (a quoted one: after its
    quote). Blanks before a name are skipped first, so a quoted name after `, ` is read whole."""
    out = []
    for m in re.finditer(r'\s*("[^"]*"|[^,]+)', text):
        raw = m.group(1).strip()
        if raw:
            name = _unquote(raw)
            out.append((name, m.start(1) + m.group(1).index(raw) + (raw != name)))
    return out


def _unquote(text: str) -> str:
    return text[1:-1] if len(text) >= 2 and text[0] == text[-1] == '"' else text


def _quote_name(name: str) -> str:
    return f'"{name}"' if "," in name else name


# ───────────────────────── export ─────────────────────────


@define
class Note:
    """A line that a session added between moves: a forced outcome or an expectation."""

    position: int  # how many moves had been made when it was added
    kind: str  # "force" | "expect"
    text: str
    force: list | None = None  # the `forced` entries it queued


def move_line(label: str) -> str:
    """A label as a replay line: prefixed with `move` when it starts with a reserved word."""
    first = label.split(" ", 1)[0]
    if first in KEYWORDS or label.lstrip().startswith("#") or label != label.strip():
        return f"move {label}"
    return label


def export(match: Match, game_path: str | Path, to: str | Path, notes: list[Note] = (),
           setup: list[str] = (), chance: str | None = None, comments: bool = True) -> str:
    """A replay text that reproduces `match`: header, then every move with the notes before it."""

    rel = os.path.relpath(Path(game_path).resolve(), Path(to).resolve().parent)
    names = match.seat_names()
    out = [f"# {match.game.title}, exported from a ludus session", f"game {Path(rel).as_posix()}",
           f"players {len(names)}", f"# seats: {', '.join(names)}", f"seed {match.seed}"]
    mode = chance or match._state.get("chance", "auto")
    if mode != "auto":
        out.append(f"chance {mode}")
    out.extend(f"setup {s}" for s in setup)
    out.append("")
    by_position: dict[int, list[Note]] = {}
    for note in notes:
        by_position.setdefault(note.position, []).append(note)
    for i, label in enumerate(match.moves):
        for note in by_position.get(i, []):
            out.append(note.text)
        out.append(move_line(label))
        if comments:
            out.extend(f"#   {line}" for line in _chance_of_move(match, i, describe_entry))
    for note in by_position.get(len(match.moves), []):
        out.append(note.text)
    return "\n".join(out) + "\n"


def _chance_of_move(match: Match, index: int, describe) -> list[str]:
    """Rolls made by move `index`, recorded as comments so a reader sees what the dice said."""
    if index >= len(match.history):
        return []
    start = match.history[index][1]
    end = match.history[index + 1][1] if index + 1 < len(match.history) else len(match.log)
    return [describe(match, e) for e in match.log[start:end] if e["t"] == "roll"]
