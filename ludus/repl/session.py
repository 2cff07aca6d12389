"""The interactive front end of `ludus play`: lines in (prompt_toolkit, or plain piped text),
moves and commands applied to a Match, and the state drawn through `match.view` (rich).

A rejected input (unknown command, illegal move, bad file) prints one line and changes nothing.
The session remembers the forced outcomes and expectations typed between moves, so `export`
writes a replay that reproduces it exactly.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import threading
from collections.abc import Callable
from pathlib import Path

from prompt_toolkit.completion import Completer, Completion
from rich.console import Console, Group
from rich.table import Table
from rich.text import Text

from ..bots import BOTS as BOT_KINDS
from ..bots import BadBotChoice, BadBotSpec, choice, make_bot, observe, parse_spec, spec_note
from ..engine.dice import game_dice, shuffled_zones
from ..engine.display import describe_entry, hidden_answer, loose, zone_text
from ..engine.effect import result_text
from ..engine.match import CHANCE, TERMINAL, IllegalAction, Match, MatchError, closest, order_note, seat_named
from ..engine.runtime import RuleError, Runtime
from ..engine.view import counter_starts
from ..language.checker.expressions import BUILTIN_NAMES
from ..language.files import FileProblem, checked_path, read_text_file, same_file, write_text_file
from ..language.limits import number_in_range, whole_number
from ..language.source import LudusError, nearest
from ..language.symbols import article
from ..replay.script import (
    _USAGE,
    Note,
    ReplayError,
    broke_rule,
    export,
    forced_entries,
    load_replay,
    order_problem,
    parse_force,
    visible,
)
from ..replay.script import parse as parse_replay
from .render import (
    decision_renderable,
    number_span,
    pieces_text,
    unlisted_left_out,
    view_changes,
    view_renderable,
    zone_detail,
)

HISTORY_ENV = "LUDUS_HISTORY"
SESSIONS_ENV = "LUDUS_SESSIONS"

COMMANDS = {
    "help": ("help [command]", "list the commands, or explain one (also: h)"),
    "moves": ("moves [WORDS]", "the legal moves, numbered; with words, only those that hold them"),
    "show": ("show [zone|track|region|card|seat|counter|flag|var|action|rule|define NAME] | show CARD source",
             "draw the state again, or one part of it; a card's rules text, or its declaration; what an "
             "action (or a move's label), rule or define does, and whether the action is legal now"),
    "log": ("log [N]", "the last N things that happened (default 15), each answer with its question"),
    "undo": ("undo", "take back your last move (and the bots' moves after it); with bots on every seat, one move"),
    "redo": ("redo", "play again what undo took back"),
    "view": ("view SEAT|all|auto", "see the state as one seat, everything (designer), or the acting seat"),
    "force": ("force d6 = 5 | force order ZONE = A, B | force off",
              "fix the next roll of a die, or the order of a zone's next shuffle; off: drop those forced since the last move"),
    "roll": ("roll d6 = 5", "the same as `force d6 = 5`"),
    "expect": ("expect EXPRESSION", "check a yes/no expression now; kept in the exported replay"),
    "eval": ("eval EXPRESSION  (or ? EXPRESSION)", "the value of an expression now"),
    "bot": ("bot SEAT KIND[:BUDGET][:OPTION=N]|off", "let a bot (random, greedy, mcts, or a FILE.py of your own) play a seat, or take it back"),
    "save": ("save FILE", "save the match (JSON) to continue later"),
    "load": ("load FILE", "continue a saved match, or play a .replay file and continue from its end"),
    "export": ("export FILE", "write the session as a replay that reproduces it exactly"),
    "reload": ("reload", "read the game files again and replay this session's moves with the new rules"),
    "restart": ("restart [SEED]", "start the match again from setup (with the same seed, or another)"),
    "quit": ("quit", "leave (also: exit, q, or Ctrl-D)"),
}
# the words `show` takes before a name, saying what kind of thing it names (`show flag ready`)
SHOW_KINDS = ("zone", "track", "region", "card", "seat", "counter", "flag", "var", "action", "rule", "define")
SHOW_TAKES_LISTED = 8  # the names a bare `show action` lists, at most
ALIASES = {"exit": "quit", "?": "eval", "h": "help", "q": "quit"}
# Words a user may reach for that name no command, and the command they most likely mean: not
# commands of their own (a word more to learn, and one a game's move label may be), only the
# hint of an error, `'history' is neither a legal move nor a command; did you mean `log`?`.
# Words that are often moves (check, pass, stop, back, new) are left out: a move not legal now
# is better answered with the closest legal moves.
SYNONYMS = {
    **dict.fromkeys(("history", "past", "events", "journal"), "log"),
    **dict.fromkeys(("options", "actions", "choices", "legal"), "moves"),
    **dict.fromkeys(("board", "state", "status"), "show"),
    **dict.fromkeys(("takeback", "rewind"), "undo"),
    **dict.fromkeys(("leave", "bye"), "quit"),
    **dict.fromkeys(("commands", "usage", "man"), "help"),
    **dict.fromkeys(("seat", "pov"), "view"),
    **dict.fromkeys(("calc", "evaluate", "print"), "eval"),
    **dict.fromkeys(("assert",), "expect"),
    **dict.fromkeys(("ai", "computer", "robot"), "bot"),
    **dict.fromkeys(("resume", "replay"), "load"),
    **dict.fromkeys(("reset",), "restart"),
    **dict.fromkeys(("refresh", "rebuild"), "reload"),
}
# commands that take nothing after them: `reload extra` is refused, not read as `reload`
NO_ARGUMENT = ("undo", "redo", "reload", "quit")
BOTS = tuple(BOT_KINDS)
UNCHANGED = "nothing on the table changed (`show` draws it again)"
# The bots' moves between two lines typed: a match in which every seat left is a bot's and that
# never ends (a game still being written) stops there with an error, not after hours of output.
BOT_MOVES_IN_A_ROW = 100_000
INTERRUPTED = "interrupted (Ctrl-C); each move is taken whole or not at all: `show` draws the match as it is"
INTERRUPTED_WRITE = "interrupted (Ctrl-C) while writing"
# an input longer than this is quoted in an error by its start and end only
ECHO_MOST = 200


class Rejected(Exception):
    """An input the REPL refuses: printed as one line, nothing changed."""


def history_path() -> str | None:
    """Where the prompt history lives: $LUDUS_HISTORY (empty: nowhere), else ~/.ludus_history."""
    env = os.environ.get(HISTORY_ENV)
    if env is not None:
        return env or None
    return str(Path.home() / ".ludus_history")


def sessions_path() -> Path | None:
    """Where unsaved sessions are kept on quitting: $LUDUS_SESSIONS (empty: nowhere), else ~/.ludus/sessions."""
    env = os.environ.get(SESSIONS_ENV)
    if env is not None:
        return Path(env) if env else None
    return Path.home() / ".ludus" / "sessions"



# Erase the terminal's scrollback too (xterm's "erase saved lines", which VTE, iTerm2, kitty,
# Windows Terminal and the Linux console follow): clearing the screen alone leaves the last
# seat's hand a scroll of the mouse wheel away from the next person at the keyboard. A terminal
# that knows no such code ignores it; a pipe or a file gets nothing (rich writes control codes
# only to a terminal), and neither does the old Windows console, which rich drives by its API.
ERASE_SCROLLBACK = "\x1b[3J"


def clear_screen(console: Console) -> None:
    """Clear the screen and, where the terminal keeps one, its scrollback."""
    console.clear()
    if console.is_terminal and not console.legacy_windows:
        console.file.write(ERASE_SCROLLBACK)
        console.file.flush()

class Repl:
    def __init__(self, match: Match, game_path: str | Path, console: Console, *, bots: dict[int, str] | None = None,
                 view: str | int = "auto", bot_seed: int | None = None, keep_unsaved: bool = False,
                 watch: bool = False, handover: bool = False) -> None:
        self.match = match
        self.game = match.game
        self.game_path = Path(game_path)
        self.console = console
        self.bots = dict(bots or {})
        self.view_mode = view  # "auto" | "all" | a seat index
        self.bot_seed = bot_seed
        self.bot_players: dict = {}  # seat -> the bot object playing it (not for plain random)
        self.rng = random.Random(match.seed if bot_seed is None else bot_seed)
        self.notes: list[Note] = []
        self.setup: list[str] = []
        # what `undo` took back: the labels, the notes typed after them, and what each seat may
        # read of each move (move_sight), for `redo` and for its error when it cannot redo
        self.redo_stack: list[tuple[list[str], list[Note], list[tuple[str, dict, dict]]]] = []
        self.rejected = 0
        self.bot_errors = 0  # a bot that stopped with an error: a script that met one exits 1, as for a refused line
        # the column, in the line as typed, where the command's argument starts: an error in an
        # `eval` or `expect` expression is placed where a caret under that line would point
        self.arg_column = 1
        # the moves as last saved, exported or loaded: quitting with others keeps them in a file
        self.saved_moves: list[str] = list(match.moves)
        # why this match's moves, played again from setup, do not lead to its position (a save
        # edited by hand, or written by a program that set the state): export and reload, which
        # play them again, are refused; None when they do
        self.unreplayable: str | None = None
        self.keep_unsaved = keep_unsaved
        self.leave_anyway = False  # set once leaving was refused because the moves could not be kept
        self.watch = watch
        self.watched = self._game_files_stamp() if watch else None
        # the view last drawn, without its decision: a screen that would draw the same is not
        # drawn again (show_state)
        self.drawn: dict | None = None
        # hot seat at the keyboard (hand_over): the screen is handed over, and cleared, before
        # it turns to another person's seat that sees what the last one may not
        self.handover = handover
        self.read: Callable[[str], str] | None = None
        self.screen_seat = None  # the seat whose screen was drawn last with `view auto`
        self.said: list[tuple[str, str | None]] = []  # the lines printed since the last input line
        self.bot_asked: dict[int, dict] = {}  # log index of a bot's answer -> its question (question)

    # ── the loop ──

    def run(self, read: Callable[[str], str]) -> None:
        """Read lines until quit or end of input; `read(prompt)` raises EOFError at the end."""
        self.read = read
        names = ", ".join(self.match.seat_names())
        self.say(f"{self.game.title}: {names}, seed {self.match.seed}. Type a move's number or its label; "
                 "`help` lists the commands, `quit` ends.", style="bold")
        try:
            # what setup did (rolls, shuffles, the game's log lines) before the first screen
            self.print_log(0, self.audience())
            self.play_bots()
            self.show_state()
        except KeyboardInterrupt:  # Ctrl-C while the bots play their first moves
            self.say(f"error: {INTERRUPTED}", style="red")
        try:
            while True:
                try:
                    line = read(self.prompt())
                except EOFError:
                    if self.may_leave():
                        break
                    continue
                except KeyboardInterrupt:
                    continue
                if self.watch:
                    try:
                        self.reload_if_changed()
                    except KeyboardInterrupt:
                        self.say(f"error: {INTERRUPTED}", style="red")
                self.said = []
                if not self.handle(line):
                    break
        finally:  # however the session ends, the moves not saved are kept
            if not self.leave_anyway:
                self.keep_session()

    def may_leave(self) -> bool:
        """Whether `quit` (or the end of input) may end the session: the unsaved moves are kept
        first, and when they cannot be, leaving is refused once, so they can be exported."""
        if self.leave_anyway:
            return True
        try:
            self._keep()
        except Rejected as exc:
            self.leave_anyway = True
            self.say(f"error: {exc}, or `quit` again to leave without them", style="red")
            return False
        return True

    def keep_session(self) -> Path | None:
        """`_keep`, for a session ending anyway: a failure is only said."""
        try:
            return self._keep()
        except Rejected as exc:
            self.say(f"error: {exc}", style="red")
            return None

    def _keep(self) -> Path | None:
        """Moves made since the last save or export go to a replay in the sessions folder, so
        leaving, restarting or loading never loses work. Returns the file written, if any;
        Rejected when they cannot be kept."""
        if not self.keep_unsaved or self.match.moves == self.saved_moves or not self.match.moves:
            return None
        folder = sessions_path()
        if folder is None:
            return None
        import time

        stamp = time.strftime("%Y%m%d-%H%M%S")
        # a match loaded from a save may have a seed no replay holds, or moves that do not lead
        # to its position: it is kept as a save
        suffix = ".replay" if number_in_range(self.match.seed) and self.unreplayable is None else ".json"
        target = folder / f"{self.game_path.stem}-{stamp}{suffix}"
        n = 1
        while target.exists():
            n += 1
            target = folder / f"{self.game_path.stem}-{stamp}-{n}{suffix}"
        try:
            folder.mkdir(parents=True, exist_ok=True)
            text = export(self.match, self.game_path, target, self.notes, self.setup) if suffix == ".replay" \
                else self._saved_text()
            written = write_whole(target, text)
        except (FileProblem, OSError) as exc:
            raise Rejected(f"could not keep the unsaved moves in {folder} ({exc}); `export FILE` keeps them") from None
        except KeyboardInterrupt:  # while the replay is written out: nothing is on disk yet
            written = False
        if not written:
            raise Rejected(f"interrupted (Ctrl-C) before the unsaved moves were kept in {folder}; "
                           "`export FILE` keeps them")
        self.saved_moves = list(self.match.moves)  # kept: not written again on leaving
        self.say(f"the session's unsaved moves are kept in {target}; `load {target}` continues it")
        return target

    def _game_files_stamp(self) -> dict[str, float | None]:
        """Each game file's modification time (None: gone), to notice edits."""
        stamps: dict[str, float | None] = {}
        sources = getattr(self.game, "sources", None)
        for name in sorted(sources.texts) if sources is not None else [str(self.game_path)]:
            try:
                stamps[str(name)] = Path(name).stat().st_mtime_ns
            except OSError:
                stamps[str(name)] = None
        return stamps

    def reload_if_changed(self) -> None:
        """With --watch: before each input line, reload when a game file changed since the last look."""
        now = self._game_files_stamp()
        if now == self.watched:
            return
        self.watched = now
        self.say("the game files changed: reloading")
        try:
            self.cmd_reload("")
        except Rejected as exc:
            self.say(f"error: {exc}", style="red")

    @property
    def examples(self) -> Examples:
        """The examples messages give, in this game's words and of the match as the screen shows it."""
        return Examples(self.match, self.view())

    def prompt(self) -> str:
        cur = self.match.current
        if cur == TERMINAL:
            return "ludus> "
        # a bot's seat waits for a line (after `undo`, or when the bots stopped): say whose it is
        return f"{self.match.seat_name(cur)}{' (bot)' if cur in self.bots else ''}> "

    def handle(self, line: str) -> bool:
        """Run one input line; False when the user quits."""
        text = line.strip()
        if not text or text.startswith("#"):
            return True
        try:
            return self._dispatch(text, len(line) - len(line.lstrip()))
        except Rejected as exc:
            message = str(exc)
        except (IllegalAction, RuleError, MatchError, LudusError, ReplayError, FileProblem) as exc:
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        except (RecursionError, MemoryError, OverflowError) as exc:
            message = f"that was too large or too deep to handle ({type(exc).__name__})"
        except KeyboardInterrupt:
            # Ctrl-C while a bot thinks or a long move runs: a move is taken whole or not at all,
            # and a command changes the session only once it is done, so the session goes on
            message = INTERRUPTED
        except Exception as exc:  # noqa: BLE001 - a line of input never ends the session with a traceback
            message = f"internal error, please report it: {type(exc).__name__}: {exc}"
        self.rejected += 1
        self.say(f"error: {visible(_short_echo(message.removeprefix('error: '), text))}", style="red")
        return True

    def _dispatch(self, text: str, indent: int = 0) -> bool:
        legal = self.match.legal_actions()
        at = _position(text)
        if legal and self.visible_options() is None and (whole_number(text) is not None or at is not None
                                                          or _same_label(text, legal)):
            # the decision belongs to a seat whose options this view hides: no blind moves for it
            who = self.match.seat_name(self.match.current)
            # with `--seat`, the other seats are often meant for bots: say how to hand one over too
            raise Rejected(f"{who} is deciding, and this view hides {who}'s options: `view {who}` to decide for it, "
                           f"or `bot {who} random` to let a bot play it")
        if self._number_decision() and whole_number(text, signed=True) is not None:
            # `choose n from 0 to 3`: the options are numbers, so a typed number is the number itself
            # (and `choose d from pile blind`: a place in the list, `3` even once 2 is picked)
            text = str(int(text))
            if text not in legal:
                if self.view()["decision"].get("blind"):
                    places = [o for o in legal if o != "done"]
                    raise Rejected(f"{text} is not among the places offered: {number_span(places)}")
                raise Rejected(f"{text} is not among the numbers offered: {number_span(legal)}")
            self.move(text)
            return True
        # elsewhere a number is a position in the list, even when some labels are numbers, unless
        # a label carries it (`bid 5` among `bid 4` ... `bid 8`): then it is refused (_number_readings)
        n = whole_number(text)
        if n is None:
            label = _same_label(text, legal)
            shown = self.shown_options() if label is None else None
            if shown:
                # `New York (NY)` as written on screen, or `New York` alone, names the move `NY`
                plain = [re.sub(r" \([^()]*\)", "", x, count=1) for x in shown]
                for names in (shown, plain):
                    found = _same_label(text, names)
                    if found is not None:
                        label = legal[names.index(found)]
                        break
            if label is not None:
                self.move(label)
                return True
        if n is None and at is not None:
            # `5.`, as the list writes it: always the position, never the number a label carries
            # (a label `5.` itself, matched above, comes first)
            if self._number_decision():
                if self.view()["decision"].get("blind"):
                    raise Rejected(f"the options here are places in a list, not a list of their own: "
                                   f"type {at} for place {at}")
                raise Rejected(f"the options here are numbers, not a list: type {at} for the number {at}")
            n = at
        if n is not None:
            if not legal:
                raise Rejected("the match is over; `undo`, `load`, `export` or `quit`")
            if not 1 <= n <= len(legal):
                choose = "the only option is 1" if len(legal) == 1 else f"choose 1 to {len(legal)}"
                raise Rejected(f"there is no option {n}; {choose}")
            readings = _number_readings(n, legal) if at is None else []
            if readings:
                raise Rejected(_ambiguous(n, legal, readings))
            self.move(legal[n - 1])
            return True
        word, _, rest = text.partition(" ")
        if text.startswith("?"):
            word, rest = "?", text[1:]
        name = ALIASES.get(word.lower(), word.lower())
        if name in COMMANDS:
            if name in NO_ARGUMENT and rest.strip():
                raise Rejected(f"`{word}` takes nothing after it, not '{rest.strip()}'")
            if name == "quit":
                return not self.may_leave()
            self.arg_column = indent + len(text) - len(rest.lstrip()) + 1
            getattr(self, f"cmd_{name}")(rest.strip())
            return True
        raise Rejected(self._unknown(text, legal))

    def _number_decision(self) -> bool:
        decision = self.view().get("decision")
        return (decision is not None and (decision.get("kind") == "number" or bool(decision.get("blind")))
                and decision.get("options") is not None)

    def _unknown(self, text: str, legal: list[str]) -> str:
        if not legal:
            word = text.split(" ", 1)[0].lower()
            meant = SYNONYMS.get(word) or next(iter(nearest(word, COMMANDS, 1)), None)
            if meant:
                return f"'{text}' is not a command, and the match is over; did you mean `{meant}`?"
            return f"'{text}' is not a command, and the match is over (type `help` for commands)"
        who = self.match.seat_name(self.match.current)
        options = self.visible_options()
        if options is not None:
            # an action the flow offers, refused by its requirement or cost: say which
            # the part of a requirement that is false, and its values, may tell what the seat
            # playing cannot see: given whole in the designer's view or a game with nothing hidden
            why = self.match.why_not(text, detail=True if self.view_mode == "all" else None)
            if why is not None:
                return f"'{text}' is not a legal move for {who} now: {why}"
        word, _, rest = text.partition(" ")
        in_a_move = any(word.casefold() in option.casefold().split() for option in options or ())
        if word.lower() in SYNONYMS and not in_a_move:  # `history`: the command meant is named, with what followed it
            meant = " ".join([SYNONYMS[word.lower()], *rest.split()])
            return f"'{text}' is neither a legal move nor a command; did you mean `{meant}`?"
        near = closest(text, options or [])
        if near:
            return f"'{text}' is not a legal move for {who} now; closest: " + "; ".join(near)
        near_cmd = nearest(word.lower(), COMMANDS, 1)
        if near_cmd:
            return f"'{text}' is neither a legal move nor a command; did you mean `{near_cmd[0]}`?"
        if options is None:
            return f"'{text}' is neither a command nor a legal move for {who} (type `help` for commands)"
        listed = "; ".join(f"{i}. {o}" for i, o in enumerate(options[:5], 1)) + ("; ..." if len(options) > 5 else "")
        return f"'{text}' is neither a command nor a legal move for {who}; the moves are {listed}"

    def say(self, text: str, style: str | None = None) -> None:
        """One message, never wrapped: an error stays one line however narrow the terminal."""
        self.said.append((text, style))
        self.console.print(Text(text, style=style or ""), soft_wrap=True)

    # ── moves and bots ──

    def move(self, label: str) -> None:
        log_len = len(self.match.log)
        mover = self.viewing()
        # the match before and after this move alone: what it changed is worked out once the
        # bots have played, when the seat whose screen comes next is known (changes_between)
        before = self.match.clone()
        try:
            self.match.apply(label)
        except IllegalAction as exc:  # pragma: no cover - legal labels are checked before
            raise Rejected(str(exc)) from None
        except RuleError as exc:
            raise Rejected(broke_rule(label, exc)) from None
        self.redo_stack.clear()
        moved = len(self.match.log)
        after = self.match.clone()
        errors: list[str] = []
        try:
            errors = self.bots_move()
        finally:  # a Ctrl-C while a bot thinks: the moves made before it are said all the same
            seats = self.audience(mover)
            self.print_log(log_len, seats, end=moved)
            self.print_changes(changes_between(before, after, seats))
            self.print_log(moved, seats, moves=True)
            if len(self.match.moves) > len(after.moves):  # and what the bots' moves changed, after them
                self.print_changes(changes_between(after, self.match, seats))
        self.say_bot_errors(errors)
        self.show_state()

    def audience(self, mover=None) -> list[int] | None:
        """The seats that see what is printed between two screens, none of which may be shown
        what it may not see: the seat viewed, or with `view auto` the seat that was at the
        screen (`mover`) and the one whose screen comes next (they differ in hot seat play).
        None: everything (`view all`, or no seat is watching)."""
        if self.view_mode == "all":
            return None
        if isinstance(self.view_mode, int):
            return [self.view_mode]
        seats = [s for s in dict.fromkeys([mover, self.viewing()]) if s is not None]
        return seats or None

    def describe(self, entry: dict, index: int, seats: list[int] | None, actions: bool = False) -> str | None:
        """A log entry as every seat of `seats` may read it (None: everything): the words of
        the one that may see least, when they read it differently."""
        full = describe_entry(self.match, entry, actions=actions, index=index)
        for seat in seats or ():
            text = describe_entry(self.match, entry, actions=actions, viewer=seat, index=index)
            if text != full:
                return text
        return full

    def told(self, index: int, seats: list[int] | None) -> str | None:
        """What `seats` are told of the answer or action logged at `index` instead of its
        label ("chose a card"), or None when every one of them may see it."""
        entry = self.match.log[index]
        for seat in seats or ():
            text = hidden_answer(self.match, entry, seat, index)
            if text is not None:
                return text
        return None

    def print_changes(self, lines: list[str], limit: int = 8) -> None:
        """What the move changed, as the audience may see it (changes_between): a few lines."""
        for line in lines[:limit]:
            self.say(f"  changed: {line}", style="green")
        if len(lines) > limit:
            self.say(f"  changed: ... and {len(lines) - limit} more (`show` draws the whole state)", style="green")

    def after_move(self) -> None:
        self.play_bots()
        self.show_state()

    def bot_for(self, seat: int):
        """The bot playing `seat` (None for the plain random bot, which draws from the session's
        generator), built once per spec and seeded from the session so a session replays alike."""
        spec = self.bots[seat]
        kind, _ = parse_spec(spec)
        if kind == "random":
            return None
        players = self.bot_players
        bot = players.get(seat)
        if bot is None or bot.spec != spec:
            base = self.match.seed if self.bot_seed is None else self.bot_seed
            bot = players[seat] = make_bot(spec, self.game, seat, base * 31 + seat)
        return bot

    def play_bots(self, mover=None) -> None:
        """Let the bots play until a person decides or the match ends, then print their moves
        and what they logged, as the audience may see them."""
        start, errors = len(self.match.log), []
        try:
            errors = self.bots_move()
        finally:  # a Ctrl-C while a bot thinks: the moves made before it are said all the same
            self.print_log(start, self.audience(mover), moves=True)
        self.say_bot_errors(errors)

    def say_bot_errors(self, errors: list[str]) -> None:
        """Say the errors of bots that stopped (bots_move), and count them: a script that met
        one exits 1, as one with a refused line does."""
        for error in errors:
            self.say(error, style="red")
        self.bot_errors += len(errors)

    def bots_move(self) -> list[str]:
        """Let the bots play until a person decides or the match ends; returns the errors to
        say (a bot that cannot play hands its seat back). What they did is in the log."""
        self.bot_asked = {}
        for _ in range(BOT_MOVES_IN_A_ROW):
            cur = self.match.current
            if cur in (CHANCE, TERMINAL) or cur not in self.bots:
                return []
            legal = self.match.legal_actions()
            try:
                bot = self.bot_for(cur)
                label = self.rng.choice(legal) if bot is None else legal[choice(bot, observe(self.match, cur))]
            except Exception as exc:  # noqa: BLE001 - said as the bot's failure; its seat is handed back
                return [self.bot_failed(cur, exc)]
            try:
                asked, at = self.question(), len(self.match.log)
                self.match.apply(label)  # whole or not at all: a move that fails leaves the match as it was
                if asked:
                    self.bot_asked[at] = asked
            except RuleError as exc:
                return [self.bot_failed(cur, exc, label)]
            except (RecursionError, MemoryError, OverflowError) as exc:
                return [self.bot_failed(cur, exc, label)]
        cur = self.match.current
        if cur in (CHANCE, TERMINAL) or cur not in self.bots:
            return []
        name = self.match.seat_name(cur)
        return [f"error: the bots made {BOT_MOVES_IN_A_ROW:,} moves in a row and the match has not ended (does it "
                f"ever end?); they stop here: make {name}'s move to let them go on, or take a seat back with "
                f"`bot {name} off`"]

    def bot_failed(self, seat: int, exc: BaseException, label: str | None = None) -> str:
        """The error of the bot playing `seat` that failed choosing a move (`label` None) or
        making the move `label`, which bot and why; its seat is handed back to the person, so the
        next line does not fail the same way. A move is taken whole or not at all, so the match is
        as it was before the failing move or choice."""
        spec, name = self.bots.pop(seat), self.match.seat_name(seat)
        if isinstance(exc, RuleError) and label is not None:
            what = f"its move {broke_rule(label, exc)}"
        elif isinstance(exc, RuleError):  # read as it judged a position: its score, a payoff
            where = f" at {exc.span}" if exc.span is not None else ""
            what = f"a rule broke{where} as it chose its move: {exc.message}"
        elif isinstance(exc, (RecursionError, MemoryError, OverflowError)):
            move = "its move" if label is None else f"its move '{label}'"
            what = f"{move} was too large or too deep to work out ({type(exc).__name__})"
        elif isinstance(exc, BadBotChoice):  # a bot file's code failed, or answered no move: it says where
            what = str(exc)
        elif isinstance(exc, ValueError):  # a spec the game cannot take, e.g. a 'define score' of two seats
            what = f"it cannot play: {exc}"
        else:  # a fault of the bot's own code
            what = f"it failed choosing its move, a fault to report: {type(exc).__name__}: {exc}"
        return f"error: the {spec} bot playing {name} stopped: {what}; {name} is yours now"

    QUESTIONS = ("choose", "number", "ask", "distribute")  # an offer's options say what they do

    def question(self) -> dict | None:
        """The question of the decision waiting, when it is one a bot's answer (`IN`, `1`,
        `yes`) does not explain on its own, as each seat reads it ({seat: prompt}, None for the
        designer), a `distribute`'s naming a card a seat may not see as `a card`."""
        pending = self.match.pending
        if pending is None or pending.get("kind") not in self.QUESTIONS:
            return None
        # the seats that may be at the screen: the people's, and the one viewed; a seat left out
        # is told no question (asked_of). Not every seat's view: bots playing every seat would
        # work out views no one reads at each of their moves
        seats = [s for s in range(self.match._state["nseats"]) if s not in self.bots or s == self.view_mode]
        asked = {seat: (self.match.view(seat).get("decision") or {}).get("prompt") for seat in seats}
        asked[None] = pending["prompt"]  # the designer's, as the view without a seat says it
        return asked

    def asked_of(self, index: int, seats: list[int] | None) -> str:
        """` (the question)` a bot's answer at log `index` was given to, as every one of `seats`
        may read it (the words of the one that may see least, as `describe`), or nothing."""
        asked = self.bot_asked.get(index)
        if not asked:
            return ""
        prompt = asked.get(None)
        for seat in seats or ():
            if asked.get(seat) != prompt:  # a seat left out of `asked` too: no question
                prompt = asked.get(seat)
                break
        who = f"{self.match.seat_name(self.match.log[index]['seat'])}: "
        return f" ({prompt.removeprefix(who)})" if prompt else ""  # the seat is named before it

    def print_log(self, start: int, seats: list[int] | None = None, end: int | None = None,
                  moves: bool = False) -> None:
        """The log from `start` (to `end`), as `seats` may see it (None: everything). With
        `moves`, its answers and actions are the bots' moves, and are said (a person's own move
        is not echoed): `Blue (bot): income`, or `Blue (bot) chose a card` when one of `seats`
        may not see what it chose."""
        log = self.match.log
        for index in range(start, len(log) if end is None else end):
            entry = log[index]
            if moves and entry["t"] in ("answer", "action"):
                who = self.match.seat_name(entry["seat"])
                told, asked = self.told(index, seats), self.asked_of(index, seats) if entry["t"] == "answer" else ""
                self.say((f"{who} (bot): {entry['label']}" if told is None else f"{who} (bot) {told}") + asked)
                continue
            shown = self.describe(entry, index, seats)
            if shown:
                self.say(f"  {shown}", style="cyan")

    # ── what the user sees ──

    def viewing(self):
        """The seat whose eyes the state is drawn with (None: everything)."""
        if self.view_mode == "all":
            return None
        if isinstance(self.view_mode, int):
            return self.view_mode
        cur = self.match.current
        if cur == TERMINAL:
            return None
        if cur == CHANCE:
            turns = [s["v"] for s in self.match._state["scopes"] if s["k"] == "turn"]
            return turns[-1] if turns else None
        return cur

    def view(self) -> dict:
        return self.match.view(self.viewing())

    def visible_options(self) -> list[str] | None:
        decision = self.view().get("decision")
        return None if decision is None else decision.get("options")

    def show_state(self, compact: bool = True) -> None:
        """The state as the screen's seat sees it, then the decision. A step that changed
        nothing on the table (a move that only moved the flow on, `buy nothing`; a `view` of
        the seat already viewed) draws only the decision: the same table again would push the
        one above off the screen and be read for news. `show` always draws it."""
        if self.hand_over():
            self.drawn = None  # the screen was cleared: the table is drawn whole
        view = self.view()
        listed, left_out = unlisted_left_out(view, unlisted_names(self.game))
        # a step that changed only what the screen does not list changed nothing drawn
        table = {key: value for key, value in listed.items() if key not in ("decision", "result")}
        if compact and table == self.drawn:
            self.say(UNCHANGED, style="dim")
        elif compact:
            self.console.print(view_renderable(listed, list(self.match.seat_names()), compact=True, left_out=left_out))
        else:
            self.console.print(view_renderable(view, list(self.match.seat_names())))
        self.drawn = table
        self.console.print(decision_renderable(view, self.shown_options(), self.game.path))
        if view.get("result") is not None:
            standings = self.standings()
            if standings is not None:
                self.console.print(standings)

    def standings(self) -> Group | None:
        """At game over, each seat's figure by the game's `define score(s)` (what bots rank seats
        by: higher is better), highest first, as a short table: a game whose fewest points win
        (No Thanks!) gives everyone's standing, not the winner's name alone. None for a game
        without one, or whose `score` does not take one seat. A game's `payoff` is not repeated
        here: the game-over line gives it. The match is over, so the figures are shown in every
        view, as the result is: a game's final scoring is done in the open. A score that breaks
        a rule when read is said to, not shown."""
        from ..bots.evaluate import SCORE

        fn = self.game.defines.get(SCORE)
        checked = self.game.checked
        decl = checked.symbols.defines.get(SCORE) if checked is not None else None
        if fn is None or len(getattr(decl, "params", None) or ()) != 1:
            return None
        rows = []
        for seat, name in enumerate(self.match.seat_names()):
            try:
                value = fn(Runtime(self.game, self.match._state, []), [seat], {"$cur": seat, "$act": seat})
            except RuleError as exc:
                rows.append((name, None, f"cannot be read: {exc}"))
                continue
            rows.append((name, value, self.match.show(value)))
        numbers = [r for r in rows if isinstance(r[1], (int, float)) and not isinstance(r[1], bool)]
        if len(numbers) == len(rows):
            rows.sort(key=lambda r: -r[1])  # sorted is stable: tied seats stay in seat order
        table = Table(box=None, pad_edge=False, show_header=True, header_style="bold")
        table.add_column("seat")
        table.add_column("score", justify="right")
        for name, _value, text in rows:
            table.add_row(name, text)
        return Group(Text("the seats by the game's `define score(s)`, highest first:"), table)

    def hand_over(self) -> bool:
        """Hot seat at the keyboard: when the screen is about to turn from one person's seat to
        another's that shows what the first may not see (a hand), the person who just moved is
        still looking, so the REPL asks for the screen to be passed on and clears it before
        drawing; then it prints again the lines written for both since the last input (what
        happened, what changed). True when it cleared the screen. Not in scripts and pipes,
        nor with `view SEAT` or `view all`, nor when the two seats see the same table."""
        seat = self.viewing() if self.view_mode == "auto" else None
        last, self.screen_seat = self.screen_seat, seat
        if not self.handover or self.read is None or last is None or seat is None or seat == last:
            return False

        def table(view: dict) -> dict:
            return {key: value for key, value in view.items() if key not in ("seat", "decision", "result")}

        if table(self.match.view(seat)) == table(self.match.view(last)):
            return False  # nothing hidden between them (Connect Four): no pause
        said, name = list(self.said), self.match.seat_name(seat)
        try:
            typed = self.read(f"{name} plays next: pass the screen, then press Enter (`view all` skips this) ")
        except (EOFError, KeyboardInterrupt):
            typed = ""
        clear_screen(self.console)
        for text, style in said:  # what both may read, again, for the one now at the screen
            self.console.print(Text(text, style=style or ""), soft_wrap=True)
        if typed.strip():  # a move typed blind is not made: the screen it answers was not drawn
            typed = typed.strip()
            self.say(visible(_short_echo(f"not taken: '{typed}' was typed before {name}'s screen was drawn", typed)),
                     style="red")
        return True

    def shown_options(self) -> list[str] | None:
        """The options as the screen writes them: an option whose value is a space with a full
        name says it, `New York (NY)`; the label itself stays what replays and `do` lines use."""
        options = self.visible_options()
        pending = self.match.pending
        if not options or pending is None or len(pending.get("values") or ()) != len(options):
            return None
        spaces = self.game.spaces
        shown, changed = [], False
        for label, value in zip(options, pending["values"], strict=True):
            space = spaces.get(value) if isinstance(value, str) else None
            if space is not None and space.label and space.label != value and re.search(rf"\b{re.escape(value)}\b", label):
                label = re.sub(rf"\b{re.escape(value)}\b", lambda _m, sp=space: f"{sp.label} ({sp.name})", label, count=1)
                changed = True
            shown.append(label)
        return shown if changed else None

    # ── commands ──

    def cmd_help(self, arg: str) -> None:
        if arg:
            name = ALIASES.get(arg, arg)
            if name not in COMMANDS:
                meant = SYNONYMS.get(arg.lower()) or next(iter(nearest(arg.lower(), COMMANDS, 1)), None)
                raise Rejected(f"no command '{arg}'; did you mean `help {meant}`?" if meant
                               else f"no command '{arg}'; the commands are {', '.join(COMMANDS)}")
            usage, what = COMMANDS[name]
            self.say(f"{usage}: {what}")
            return
        table = Table(box=None, pad_edge=False, show_header=False)
        table.add_column(style="bold")
        table.add_column()
        table.add_row("NUMBER or LABEL", "make a move: its number in the list (`5.` is always the fifth), or its label (Tab completes)")
        for usage, what in COMMANDS.values():
            table.add_row(usage, what)
        self.console.print(table)

    def cmd_moves(self, arg: str) -> None:
        decision = self.view().get("decision")
        if decision is None:
            self.say("no moves: the match is over")
        elif decision.get("options") is None:
            self.say(f"{decision['seat']} is deciding; the options are hidden from this view (`view {decision['seat']}`, "
                     f"or `bot {decision['seat']} random`)")
        elif arg:
            # `moves tax`: only the options whose label holds the words, with their numbers
            wanted = arg.casefold()
            hits = [(i, o) for i, o in enumerate(decision["options"], 1) if wanted in o.casefold()]
            if not hits:
                raise Rejected(f"no move holds '{arg}' ({len(decision['options'])} moves; `moves` lists them all)")
            for i, option in hits:
                self.say(f"  {i:>2}. {option}")
        else:
            self.console.print(decision_renderable(self.view(), game_path=self.game.path))

    def cmd_show(self, arg: str) -> None:
        if not arg:
            self.show_state(compact=False)
            return
        view = self.view()
        # `show flag ready`: a word saying what kind of thing is named may come first. The whole
        # text is tried first, so a card named "Flag Bearer" is still found by its name.
        kind, _, rest = arg.partition(" ")
        if self._show_named(arg, view):
            return
        if kind.lower() in SHOW_KINDS and not rest.strip():
            raise Rejected(self._show_takes(kind.lower(), view))
        if kind.lower() in SHOW_KINDS and rest.strip():
            arg = rest.strip()  # and a name not found is the one said after the kind
            if self._show_named(arg, view):
                return
        cards = [d for d, spec in self.game.defs.items() if spec.word == "card"]
        names = [*view["zones"], *view["tracks"], *view["board"], *cards, *self.match.seat_names(),
                 *view["counters"], *self._declared()]
        near = closest(arg, names)
        raise Rejected(f"nothing called '{arg}' to show" + (f"; closest: {', '.join(near)}" if near else ""))

    def _show_takes(self, kind: str, view: dict) -> str:
        """What `show KIND` said with no name after it is answered with: the name it takes, and
        the names of that kind this game has (the first few)."""
        sym = self.game.checked.symbols if self.game.checked is not None else None
        names = {
            "zone": list(sym.zones) if sym is not None else list(view["zones"]),
            "track": list(view["tracks"]),
            "region": list(view["board"]),
            "card": [d for d, spec in self.game.defs.items() if spec.word == "card"],
            "seat": self.match.seat_names(),
            "action": list(sym.actions) if sym is not None else [],
            "rule": list(sym.rules) if sym is not None else [],
            "define": list(sym.defines) if sym is not None else [],
        }.get(kind)
        if names is None:  # a counter, flag or var
            names = [name for name, decl in (sym.vars.items() if sym is not None else ()) if decl.kind == kind]
        text = f"`show {kind}` takes the name of {article(kind)} after it: show {kind} NAME"
        if not names:
            return text + f" (this game has no {kind})"
        more = f", ... ({len(names)} in all)" if len(names) > SHOW_TAKES_LISTED else ""
        return text + f"; here: {', '.join(names[:SHOW_TAKES_LISTED])}{more}"

    def _show_named(self, arg: str, view: dict) -> bool:
        """Print the part of the state called `arg` (any case), if there is one."""
        from ..language import nodes as n
        from .render import row_text, tokens_text, track_text, value_text

        low = arg.lower()
        zones = {k.lower(): k for k in view["zones"]}
        if low in zones:
            self.say(zone_detail(zones[low], view["zones"][zones[low]]))
            return True
        # a zone's every seat's (`show hand`), a zone family's members (`show discards`: `discards
        # red`, ...), and a family's members of one seat (`show expedition of North`)
        name, _, seat = low.partition(" of ")

        def matches(key: str) -> bool:
            zone, _, owner = key.lower().partition(" of ")
            return (zone == low or zone.split(" ", 1)[0] == low
                    or (seat and zone.split(" ", 1)[0] == name and owner == seat))
        family = [k for k in view["zones"] if matches(k)]
        if family:
            for k in family:
                self.say(zone_detail(k, view["zones"][k]))
            return True
        for name, track in view["tracks"].items():
            if name.lower() == low:
                self.console.print(track_text(name, track))
                return True
        for space, entry in view["board"].items():
            if space.lower() == low:
                bits = ([tokens_text(entry["tokens"])] if entry.get("tokens") else []) + pieces_text(entry)
                spec = self.game.spaces[space]
                near = f"; next to {', '.join(spec.adjacent)}" if spec.adjacent else ""
                self.say(f"{space} ({spec.kind}{near}): {', '.join(bits) or 'nothing here'}")
                return True
        cards = {d.lower(): d for d, spec in self.game.defs.items() if spec.word == "card"}
        if low in cards:
            self.show_card(cards[low])
            return True
        if low.endswith(" source") and low[:-len(" source")].strip() in cards:
            self.show_card_source(cards[low[:-len(" source")].strip()])
            return True
        seats = {s.lower(): i for i, s in enumerate(self.match.seat_names())}
        if low in seats:
            self.show_seat(seats[low], view)
            return True
        for name, value in view["counters"].items():
            if name.lower() == low:
                text = value_text(value) if not isinstance(value, dict) else row_text(value)
                self.say(f"{name}: {text}")
                return True
        # what an action, a rule or a define does: by its name, or an action by the label of a
        # move the screen shows (`show no thanks`). Last, so a zone or a card keeps its name
        declared = self._declared()
        found = next((name for name in declared if name.lower() == low), None)
        if found is None:
            found = self._action_of_move(arg)
        if found is None:  # a label without holes, of a move not offered now (`no thanks` with no chips)
            wanted = loose(arg)
            found = next((name for name, decl in declared.items() if isinstance(getattr(decl, "label", None), n.Template)
                          and all(isinstance(p, str) for p in decl.label.parts)
                          and loose("".join(decl.label.parts)) == wanted), None)
        if found == "":
            self.say(f"'{_same_label(arg, self.visible_options())}': the offer's `else` answer, no action: "
                     "it takes none and ends the offer")
            return True
        if found is not None:
            self.show_declared(found, declared[found])
            return True
        return False

    def _declared(self) -> dict[str, object]:
        """The game's actions, rules and defines by name, as checked (none for a game loaded
        without its check)."""
        checked = self.game.checked
        if checked is None:
            return {}
        sym = checked.symbols
        return {**sym.defines, **sym.rules, **sym.actions}  # an action's name wins: it is the one played

    def _action_of_move(self, text: str) -> str | None:
        """The action behind the move the screen shows with this label (any case and spacing);
        "" for an offer's `else` answer, which is no action."""
        options, pending = self.visible_options(), self.match.pending
        if not options or pending is None or len(pending.get("values") or ()) != len(options):
            return None
        label = _same_label(text, options)
        if label is None:
            return None
        value = pending["values"][options.index(label)]
        if value is None and pending.get("kind") == "offer":
            return ""  # the offer's `else` answer: said so by the caller
        return value[0] if isinstance(value, list) and value and isinstance(value[0], str) else None

    def show_declared(self, name: str, decl) -> None:
        """What an action, rule or define does, in the words `ludus cards` gives a card's effect;
        for an action, whether the screen's seat may play it now, and why not."""
        from ..language import nodes as n
        from ..rules_text import RulesText

        checked = self.game.checked
        words = RulesText(checked.symbols, checked.types, self.game.sources)
        params = getattr(decl, "params", None) or ()
        of = f" ({', '.join(p.name for p in params)})" if params else ""
        if isinstance(decl, n.DefineDecl):
            self.say(f"{name}{of} (define): {words.define(decl)}")
            return
        if isinstance(decl, n.RuleDecl):
            self.say(f"{name}{of} (rule):")
            for line in words.rule(decl):
                self.say(f"  {line}")
            return
        label = f', its move "{"".join(p if isinstance(p, str) else "{" + words.expr(p) + "}" for p in decl.label.parts)}"' \
            if decl.label is not None else ""
        self.say(f"{name} (action{label}):")
        for line in words.action(decl):
            self.say(f"  {line}")
        self.say(f"  {self.action_standing(name)}")

    def action_standing(self, name: str) -> str:
        """Whether the screen's seat may play the action `name` now (Match.action_now): its
        moves, why not, or that the decision waiting does not offer it or is not the seat's."""
        match = self.match
        if match.current == TERMINAL:
            return "now: the match is over"
        pending = match.pending
        decider = None if pending is None else pending.get("seat")
        seat = self.viewing()
        if decider is None:
            return "now: no seat decides (chance is next)"
        if seat is not None and seat != decider:
            # the decision is another seat's, whose options this screen does not show
            return f"now: {match.seat_name(decider)} decides, not {match.seat_name(seat)}"
        who = match.seat_name(decider)
        standing, said = match.action_now(name)
        if standing == "legal":
            moves = "; ".join(said[:5]) + ("; ..." if len(said) > 5 else "")
            return f"legal now for {who}: {moves}"
        if standing == "refused":
            return f"not legal now for {who}: {said}" if said else f"not legal now for {who}: it has no move to make"
        return f"not offered to {who} at this decision"

    def show_card(self, name: str) -> None:
        spec = self.game.defs[name]
        rt = Runtime(self.game, self.match._state, self.match.log)
        eid = next(i for i, e in enumerate(self.match._state["ents"]) if e is not None and e["d"] == name)
        fields = []
        for field_name in self.game.kind_fields.get(spec.kind, {}) | spec.props:
            try:
                value = self.game.static_field(rt, eid, name, field_name)
            except RuleError:
                continue
            fields.append(f"{field_name} {self.match.show(value)}")
        copies = f", {spec.copies} copies" if spec.copies != 1 else ""
        self.say(f"{name} ({spec.kind}{copies}): " + ", ".join(fields))
        # what the card does, in words generated from its effect (`show CARD source` for the text)
        checked = self.game.checked
        decl = checked.symbols.entities.get(name) if checked is not None else None
        if decl is not None and decl.handlers:
            from ..rules_text import RulesText

            for line in RulesText(checked.symbols, checked.types, self.game.sources).card(decl).effect_lines():
                self.say(f"  {line}")

    def show_card_source(self, name: str) -> None:
        """A card's declaration as the game file writes it."""
        spec = self.game.defs[name]
        sources = self.game.sources
        lines = []
        if spec.span is not None and sources is not None:
            lines = [sources.line(spec.span.path, k) for k in range(spec.span.line, spec.span.end_line + 1)]
        lines = [t.rstrip() for t in lines if t is not None and t.strip()]
        if lines:  # the span may run on to the next declaration's first line: stop at its indentation
            depth = len(lines[0]) - len(lines[0].lstrip())
            ends = [i for i, t in enumerate(lines[1:], 1) if len(t) - len(t.lstrip()) <= depth]
            lines = lines[:ends[0]] if ends else lines
        if not lines:
            raise Rejected(f"the declaration of '{name}' is not available")
        self.say(f"{spec.span.path}:{spec.span.line}:")
        for text in lines:
            self.say(f"  {text}")

    def show_seat(self, seat: int, view: dict) -> None:
        from .render import cards_text, value_text

        name = self.match.seat_names()[seat]
        parts = [f"{c} {value_text(v[name])}" for c, v in view["counters"].items() if isinstance(v, dict) and name in v]
        self.say(f"{name}: " + (", ".join(parts) or "no counter, flag or var kept per seat"))
        for zone, cards in view["zones"].items():
            if zone.endswith(f" of {name}"):
                self.say(f"  {zone}: {cards_text(cards)}")

    def cmd_log(self, arg: str) -> None:
        n = whole_number(arg) if arg else 15
        if not n:  # 0 too: the last 0 entries would read as `shown[-0:]`, every one of them
            raise Rejected(f"`log` takes a number of entries, 1 or more, not '{arg}'")
        # as the screen's seat may see it: another seat's face-down pick says only that it chose
        viewer = self.viewing()
        seats = None if viewer is None else [viewer]
        # from the end back: who may see a move, and what it answered, are worked out when asked,
        # by playing moves again, so only for the lines shown
        shown: list[str] = []
        log = self.match.log
        for index in range(len(log) - 1, -1, -1):
            if len(shown) >= n:
                break
            line = self.describe(log[index], index, seats, actions=True)
            if line:
                shown.append(line)
        if not shown:
            self.say("nothing has happened yet")
        for line in reversed(shown):
            self.say(f"  {line}")

    def cmd_undo(self, _arg: str) -> None:
        if not self.match.history:
            raise Rejected("nothing to undo" + (" (a loaded match starts with no history)" if self.match.moves else ""))
        labels: list[str] = []
        sights = []  # what each seat may read of each move taken back
        mover = self.viewing()
        # one decision of a person: the bots' moves after it go too. When bots play every seat
        # (a match watched to its end), no person's decision is there to go back to: one move
        # is taken back, and the bots wait at the seat now deciding (they would only play again)
        nobody = all(seat in self.bots for seat in range(self.match._state["nseats"]))
        while self.match.history:
            sights.insert(0, self.move_sight(self.match, len(self.match.history) - 1))
            labels.insert(0, self.match.undo())
            if nobody or self.match.current not in self.bots:
                break
        kept = len(self.match.moves)
        undone_notes = [n for n in self.notes if n.position > kept]
        self.notes = [n for n in self.notes if n.position <= kept]
        self.redo_stack.append((labels, undone_notes, sights))
        # the seat deciding now may be another than the one who typed `undo` (hot seat): neither
        # is told what the other may not see
        seats = self.audience(mover)
        self.say("undid: " + _moves_said([said_of(sight, seats, asked=True) for sight in sights]))
        self.say_bots_wait()
        self.show_state()

    def say_bots_wait(self) -> None:
        """After `undo` or `redo` leaves a bot's seat to decide (bots play every seat): the bots
        do not play on at once, which would only make the moves again; say how they go on."""
        if self.match.current in self.bots:
            who = self.match.seat_name(self.match.current)
            self.say(f"the bots wait: {who} (a bot) decides next; make its move to let them play on, "
                     f"`undo` again, `redo`, or `bot {who} off` to play it yourself")

    def cmd_redo(self, _arg: str) -> None:
        if not self.redo_stack:
            raise Rejected("nothing to redo")
        labels, notes, sights = self.redo_stack[-1]
        log_len = len(self.match.log)
        base = len(self.match.moves)
        mover = self.viewing()
        # all of it or nothing: moves taken back may no longer be legal (a bot has moved since)
        work = self.match.clone()
        try:
            for i, label in enumerate(labels):
                work.apply(label)
                for note in notes:  # what was forced after this move is forced again
                    if note.position == base + i + 1 and note.force:
                        work.state["forced"].extend(list(f) for f in note.force)
        except (IllegalAction, RuleError) as exc:
            self.redo_stack.clear()
            raise Rejected(self.redo_refused(sights[i], exc, mover)) from None
        self.redo_stack.pop()
        self.match = work
        self.notes.extend(n for n in notes if base < n.position <= base + len(labels))
        seats = self.audience(mover)
        said = [said_of(self.move_sight(work, len(work.history) - len(labels) + i), seats, asked=True)
                for i in range(len(labels))]
        self.say("redid: " + _moves_said(said))
        self.print_log(log_len, seats)
        self.say_bots_wait()
        self.show_state()

    def redo_refused(self, sight: tuple[str, dict, dict], exc: Exception, mover) -> str:
        """Why `redo` cannot play a move again (`sight`: move_sight of it), worded for the seats
        at the screen: a pick one of them may not see is not named ("the move where Red chose
        a card"), nor are the options of a decision the screen does not show."""
        label = sight[0]
        said = said_of(sight, self.audience(mover))
        again = "the match has moved on since it was taken back"
        if said != label:
            why = "it is not a legal move now" if isinstance(exc, IllegalAction) else "the rules refuse it now"
            return f"cannot redo the move where {said}: {why}; {again}"
        if isinstance(exc, IllegalAction) and self.visible_options() is None:
            return f"cannot redo '{label}': it is not a legal move now; {again}"  # no closest options
        return f"cannot redo '{label}': {exc}; {again}"

    @staticmethod
    def move_sight(match: Match, n: int) -> tuple[str, dict, dict]:
        """Move `n` of the match's history: its label; for each seat that may not see what it
        chose, what that seat is told instead ("Blue chose a card"); and the question it
        answered as each seat reads it ({None: the designer's words, seat: its own where they
        differ}; empty for an action or an offer's `else`, see Match.question), so `undid:`
        says `1 (choose n)` as `log` does."""
        _kept, index, label, _option = match.history[n]
        told, asked = {}, {}
        if index < len(match.log) and match.log[index]["t"] in ("answer", "action"):
            who = match.seat_name(match.log[index]["seat"])
            for seat in range(match._state["nseats"]):
                text = match.hidden_answer(index, seat)
                if text is not None:
                    told[seat] = f"{who} {text}"
            if match.question(index) is not None:  # worked out, and kept as each seat reads it
                asked = dict(match.asked[index])
        return label, told, asked

    def cmd_view(self, arg: str) -> None:
        names = list(self.match.seat_names())
        seat = seat_named(arg, names)
        if seat is not None:  # a seat first: one called "All" is that seat
            self.view_mode = seat
        elif arg.lower() in ("", "auto"):
            self.view_mode = "auto"
        elif arg.lower() in ("all", "everything", "designer"):
            self.view_mode = "all"
        else:
            raise Rejected(f"no seat '{arg}'; the seats are {', '.join(names)} (or `view all`, `view auto`)")
        self.show_state()

    def cmd_force(self, arg: str) -> None:
        if arg == "off":
            self.force_off()
            return
        if not arg:
            examples = self.examples
            if examples.die is None and examples.order is None:
                raise Rejected(f"{self.game.title} rolls no dice and shuffles nothing, so there is nothing to force")
            raise Rejected(f"what to force? {examples.force()}")
        try:
            try:
                force = parse_force(arg, "<input>", 1, 1)
            except ReplayError as exc:
                # the replay's own words give Market Town's names as the example: this game's instead
                examples = self.examples
                exc.message = exc.message.replace(_USAGE["force"], examples.force()).replace(
                    _USAGE["force"].split(" or ")[1], examples.order_usage())
                raise
            if self.match.result is not None:
                # nothing rolls or shuffles after the end; kept, the force would end the exported
                # replay with a line that a replay refuses
                left = "roll" if force.kind == "die" else "shuffle"
                raise Rejected(f"the match is over ({result_text(self.match.result, self.game.path)}), so there is no {left} left "
                               "to force; `undo`, `load`, `export` or `quit`")
            entries = forced_entries(self.game, self.match._state["nseats"], _Line(force), "<input>")
        except ReplayError as exc:
            raise Rejected(exc.message) from None
        for entry in entries:
            problem = order_problem(self.match, entry)
            if problem is not None:
                raise Rejected(f"cannot force this order: {problem}")
        waits = [note for note in (order_note(self.match, e) for e in entries) if note]
        self.match.state["forced"].extend(entries)
        self.notes.append(Note(len(self.match.moves), "force", force.text(), entries))
        what = "next rolls" if force.kind == "die" and len(force.values) > 1 else "next roll" if force.kind == "die" \
            else f"next shuffle of {zone_text(self.match, entries[0][1])}"  # `deck of amber` named as the game names it
        self.say(f"forced: the {what} — {force.text()[6:]}")
        for note in waits:  # the cards lie elsewhere now: said, so that a move failing on it later is no surprise
            self.say(f"note: {note} (`force off` drops the order before the next move)")

    def cmd_roll(self, arg: str) -> None:
        self.cmd_force(arg)

    def force_off(self) -> None:
        """`force off`: drop what was forced since the last move. Those outcomes are the last in
        the queue and none is used yet, so the match and the exported replay are as if they were
        never typed. Without it, a force that the next roll cannot take (`force die = 7` before a
        d6) makes every move that rolls fail until the move before it is undone."""
        now = len(self.match.moves)
        dropped = [n for n in self.notes if n.kind == "force" and n.position == now]
        entries = [list(e) for n in dropped for e in n.force or ()]
        forced = self.match._state["forced"]  # looked at here; changed below through `state`
        if not dropped:
            earlier = " (what was forced before it stays; `undo` takes it back with the move)" if forced else ""
            raise Rejected("nothing was forced since the last move" + earlier)
        if forced[len(forced) - len(entries):] != entries:
            raise Rejected("what was forced since the last move is partly used already; `undo` takes it back")
        # through `state`: a change from outside the rules, so the next move keeps a copy for undo
        del self.match.state["forced"][len(forced) - len(entries):]
        self.notes = [n for n in self.notes if not any(n is d for d in dropped)]
        self.say("dropped: " + "; ".join(n.text for n in dropped))

    def _expression(self, arg: str, what: str):
        from ..compiler.probe import compile_expression

        if not arg:
            example = self.examples.check if what == "expect" else self.examples.value
            raise Rejected(f"`{what}` needs an expression, like `{what} {example}`")
        try:
            fn = compile_expression(self.game, arg, "<input>", 1, self.arg_column)
            return fn(self.match)
        except LudusError as err:
            d = err.diagnostics[0]
            hint = d.hint or self._names_hint(d.message)
            raise Rejected(f"column {d.span.column}: {d.message}" + (f" ({hint})" if hint else "")) from None
        except RuleError as err:
            raise Rejected(f"cannot compute it now: {err.message}") from None

    def _names_hint(self, message: str) -> str | None:
        """For an expression's unknown name that is near none the game knows (the checker names
        the nearest when there is one: `did you mean 'affection'?`), the names it might have
        meant: the seats at this table, the zones, or the state's counters, flags and vars with
        the zones and seats, each list cut short when long."""
        found = re.match(r"unknown (name|zone|seat|zone or space) '", message)
        if found is None:
            return None

        def listed(names) -> str:
            names = list(names)
            return ", ".join(names[:8]) + (", ..." if len(names) > 8 else "")
        seats = f"the seats are {listed(self.match.seat_names())}"
        zones = [z for z in self.game.zones if z not in ("box", "removed")]
        kinds = {"seat": [seats], "zone": [f"the zones are {listed(zones)}"] if zones else [],
                 "zone or space": [f"the zones are {listed(zones)}"] if zones else []}
        parts = kinds.get(found.group(1))
        if parts is None:
            state = [f"counters, flags and vars {listed(self.game.vars)}"] if self.game.vars else []
            state += [f"zones {listed(zones)}"] if zones else []
            state += [f"seats {listed(self.match.seat_names())}"]
            # not the compass's words; `opponent` in a game of two only, `spaces` with a board
            builtin = [name for name, typ in BUILTIN_NAMES.items() if typ != "text"
                       and not (name == "opponent" and self.game.max_players > 2)
                       and not (name == "spaces" and not self.game.spaces)]
            parts = [f"this game's names include {'; '.join(state)}; and every game's {', '.join(builtin)}"]
        return "; ".join(parts) or None

    def cmd_eval(self, arg: str) -> None:
        value, typ = self._expression(arg, "eval")
        if typ == "zone":  # a zone's name alone (`hand of Blue`) answered nothing: its cards, as eval reads them all
            name = self.match.show(value, typ)
            cards = self.match.view(None)["zones"].get(name)
            if cards is not None:
                self.say(zone_detail(name, cards))
                return
        self.say('""' if value == "" else self.match.show(value, typ))  # an empty text is not a blank line

    def cmd_expect(self, arg: str) -> None:
        if re.fullmatch(r"winners?\s+.+|no\s+winners?", arg):
            # `expect winner Amber`, `expect winner P1, P2`, `expect no winner`: checked as a replay checks it
            from ..replay.script import Step, check_expectation, compile_expect

            step = Step(1, "expect", arg, self.arg_column)
            try:
                check_expectation(self.match, step, compile_expect(self.game, "<input>", step), "<input>")
            except ReplayError as exc:
                if not exc.message.startswith("expectation failed: "):  # a seat it does not have
                    raise Rejected(f"{exc.message} (not kept for the replay)") from None
                raise Rejected(f"not so: {exc.message.removeprefix('expectation failed: ')} (not kept for the replay)") from None
        else:
            value, typ = self._expression(arg, "expect")
            if typ != "bool" and not isinstance(value, bool):
                raise Rejected(f"expect needs a yes/no expression; this is {self.match.show(value, typ)}")
            if not value:  # phrased as a replay phrases it, with the actual value of the left side
                from ..replay.script import Step, check_expectation, compile_expect

                step = Step(1, "expect", arg, self.arg_column)
                try:
                    check_expectation(self.match, step, compile_expect(self.game, "<input>", step), "<input>")
                except ReplayError as exc:
                    raise Rejected(f"not so: {exc.message.removeprefix('expectation failed: ')} "
                                   "(not kept for the replay)") from None
                raise Rejected(f"not so: {arg} (not kept for the replay)")
        self.notes.append(Note(len(self.match.moves), "expect", f"expect {arg}"))
        self.say("ok: kept for the exported replay")

    def cmd_bot(self, arg: str) -> None:
        seat, _, kind = arg.partition(" ")
        names = list(self.match.seat_names())
        if not seat:
            raise Rejected(f"`bot` needs a seat: {COMMANDS['bot'][0]}; the seats are {', '.join(names)}")
        index = seat_named(seat, names)
        if index is None:
            raise Rejected(f"no seat '{seat}'; the seats are {', '.join(names)}")
        seat = names[index]  # as the game spells it: `bot basil off` says `Basil is yours`
        kind = kind.strip() or "random"
        if kind == "off":
            self.bots.pop(index, None)
            self.say(f"{seat} is yours")
            return
        try:
            parse_spec(kind)
        except BadBotSpec as exc:
            raise Rejected(str(exc)) from None
        self.bots[index] = kind
        self.say(f"{seat} is played by the {kind} bot")
        note = spec_note(self.game, kind, len(self.match.seat_names()))
        if note is not None:
            self.say(f"note: {note}")
        if self.match.current == index:
            self.after_move()

    def _saved_text(self) -> str:
        """The match as `save` writes it: the match's JSON with the session's notes."""
        data = json.loads(self.match.to_json())
        data["session"] = {"notes": [[n.position, n.kind, n.text, n.force] for n in self.notes], "setup": self.setup,
                           "sight": _sight_record(self.match), "asked": _asked_record(self.match)}
        return json.dumps(data, sort_keys=True)

    def _target(self, arg: str, kind: str) -> Path:
        """The file `save` or `export` may write, or Rejected: never a file of the game being
        played, never a .ludus file, and an existing file only when it is already a `kind`
        ("saved match" or "replay"), which is then replaced, as saving again is meant to."""
        try:
            path = checked_path(_home(arg))
            where = path.resolve()
        except (FileProblem, OSError, RuntimeError) as exc:
            raise Rejected(f"cannot write '{arg}': {exc}") from None
        sources = getattr(self.game, "sources", None)
        own = [Path(name) for name in (sources.texts if sources is not None else ())] + [self.game_path]
        if same_file(where, own):
            raise Rejected(f"not written: '{arg}' is a file of the game being played; give another name")
        if path.suffix.lower() == ".ludus":
            raise Rejected(f"not written: '{arg}' is named as a game file (.ludus); give another name, "
                           f"like {path.stem}.{'json' if kind == 'saved match' else 'replay'}")
        try:
            exists = path.is_file()
        except OSError as exc:  # a name the file system cannot hold (too long, say)
            raise Rejected(f"cannot write '{arg}': {exc.strerror or exc}") from None
        if exists and not _holds(path, kind):
            held = "does not hold a saved match" if kind == "saved match" else "does not read as a replay"
            raise Rejected(f"not written: '{arg}' exists and {held}; give another name, or remove it first")
        return path

    def cmd_save(self, arg: str) -> None:
        if not arg:
            raise Rejected("`save` needs a file name")
        self._target(arg, "saved match")
        try:
            written = write_whole(_home(arg), self._saved_text())
        except FileProblem as exc:
            raise Rejected(str(exc)) from None
        if not written:
            raise Rejected(f"{INTERRUPTED_WRITE} '{arg}': the match is not saved, and a file there is as it was")
        self.saved_moves = list(self.match.moves)
        self.say(f"saved to {arg} ({_moves(len(self.match.moves))})")

    def cmd_load(self, arg: str) -> None:
        if not arg:
            raise Rejected("`load` needs a file name")
        # what the file holds says what it is, whatever its name: a save is a JSON object, and
        # a replay (`session.txt`, a save named `.replay`) names its game on a `game` line
        named_replay = arg.lower().endswith(".replay")  # `Session.REPLAY` too, as a file system that ignores case names it
        try:
            text = read_text_file(_home(arg))
        except FileProblem as exc:
            if named_replay:  # a replay's own words: "no such replay file"
                self._load_replay(arg)
                return
            raise Rejected(str(exc)) from None
        if not text.lstrip("\ufeff \t\r\n").startswith("{"):
            if named_replay or re.search(r"^[ \t]*game[ \t]", text, re.MULTILINE):
                self._load_replay(arg)
                return
            raise Rejected(f"cannot load '{arg}': it is neither a saved match (a JSON file that `save` wrote) nor a "
                           f"replay (a replay names its game on a line like `game {self.game_path.name}`)")
        try:
            match = Match.from_json(self.game, text)
            session = json.loads(text).get("session") or {}
            notes = [self._saved_note(match, note) for note in session.get("notes", [])]
            setup = [self._saved_setup(match, line) for line in session.get("setup", [])]
            sight = _saved_sight(match, session.get("sight"))
            asked = _saved_asked(match, session.get("asked"))
        except MatchError as exc:
            raise Rejected(f"cannot load '{arg}': {exc}") from None
        except ReplayError as exc:  # a force line this game refuses (a die it never rolls, say)
            raise Rejected(f"cannot load '{arg}': a forced outcome of the saved session is refused: {exc.message}") from None
        except (TypeError, ValueError, AttributeError):
            raise Rejected(f"cannot load '{arg}': the saved session notes are damaged") from None
        notes, stale = _forces_after_the_end(match, notes)
        unreplayable = self._moves_problem(match, notes, setup)
        message = f"loaded {arg}: {_moves(len(match.moves))}"
        if stale:
            message += (f"; left out {_count(len(stale), 'force line')} typed after the match ended "
                        f"({'; '.join(n.text for n in stale)}): the match is over, so there is no roll or shuffle "
                        "left to force (an older ludus took such lines and saved them)")
        if unreplayable is not None:
            message += (f"; its moves do not lead to the position it holds ({unreplayable}), so `export` and "
                        "`reload` are off for this match")
        if sight is not None:
            # what the moves played again could not say, the file does, as the session showed it
            for index, seen in sight.items():
                match.sight.setdefault(index, seen)
        if asked is not None:
            for index, questions in asked.items():  # as `sight`: the file says what replaying could not
                match.asked.setdefault(index, questions)
        if sight is None and not match.sight:
            unknown = sum(1 for entry in match.log if entry["t"] in ("answer", "action") and entry.get("seat") is not None)
            if unknown:
                message += (f"; the file does not say who may see {unknown} of its moves, so each seat but the one "
                            "that made a move is told only that it was made")
        self._switch(match, notes, setup, message, unreplayable=unreplayable)

    def _moves_problem(self, match: Match, notes: list[Note], setup: list[str]) -> str | None:
        """None when the match's moves, played again from setup with the session's forced
        outcomes, lead to the very state it holds, as `export` and `reload` assume; else what
        goes otherwise. A seed no replay holds cannot be played again: export says so itself."""
        if not number_in_range(match.seed):
            return None
        try:
            script = parse_replay(export(match, self.game_path, self.game_path, notes, setup), "<saved>")
        except ReplayError as exc:
            return exc.message
        try:
            again = script.run(game=self.game)
        except ReplayError as exc:
            moves = {step.line: i for i, step in enumerate(s for s in script.steps if s.kind == "move")}
            return (f"move {moves[exc.line] + 1}: " if exc.line in moves else "") + exc.message
        if json.dumps(again._state, sort_keys=True) != json.dumps(match._state, sort_keys=True):
            return "they lead to another position"
        if again.log == match.log:
            # played again, the moves say who may see each answer, which a saved match does not
            # hold: without it every answer of another seat would be hidden (Match.hidden_answer)
            match.sight = again.sights()
            match.asked = again.questions()  # and the question each answer answered
        return None

    def _saved_note(self, match: Match, note) -> Note:
        """A note of a saved session, read again from its text as a replay's line is, so that
        what it queues on redo and writes into an export is what a `force` or `expect` line
        would: a note that reads otherwise is damage (ValueError, or ReplayError)."""
        position, kind, text, entries = note
        if not (isinstance(position, int) and 0 <= position <= len(match.moves)) or kind not in ("force", "expect") \
                or not isinstance(text, str) or "\n" in text or "\r" in text:
            raise ValueError("a session note is damaged")
        if kind == "expect":
            if not text.startswith("expect ") or entries is not None:
                raise ValueError("a session note is damaged")
            return Note(position, kind, text)
        if not text.startswith("force "):
            raise ValueError("a session note is damaged")
        force = parse_force(text[len("force "):], "<saved>", 1, 1)
        if forced_entries(self.game, match._state["nseats"], _Line(force), "<saved>") != entries:
            raise ValueError("a session note is damaged")
        return Note(position, kind, text, entries)

    def _saved_setup(self, match: Match, line) -> str:
        """A `setup force ...` line of a saved session, checked as a replay's would be: it is
        written into every export, so one that reads otherwise would make the exported replay,
        and `reload`, fail (ValueError, or ReplayError)."""
        if not isinstance(line, str) or not line.startswith("force ") or "\n" in line or "\r" in line:
            raise ValueError("a session setup line is damaged")
        force = parse_force(line[len("force "):], "<saved>", 1, 1)
        forced_entries(self.game, match._state["nseats"], _Line(force), "<saved>")
        return line

    def _load_replay(self, arg: str) -> None:
        try:
            script = load_replay(_home(arg))
            # same_file, not resolve(): a symbolic link loop raises there, and a hard link is the same game
            if script.game is not None and not same_file(script.game_path, [self.game_path]):
                raise Rejected(f"'{arg}' replays {script.game}, not {self.game_path}")
            match, stopped = _run_to_first_refusal(script, self.game)
        except ReplayError as exc:
            raise Rejected(f"{exc.where}: {exc.message}") from None
        notes, moves = [], 0
        for step in script.steps:
            if step.kind == "move":
                moves += 1
            elif step.kind == "force":
                notes.append(Note(moves, "force", step.force.text(),
                                  forced_entries(self.game, match._state["nseats"], step, arg)))
            else:
                notes.append(Note(moves, "expect", f"expect {step.text}"))
        setup = [f"force {s.text}" for s in script.setup]
        message = f"played {arg}: {_moves(len(match.moves))}"
        if stopped:
            message += f"; stopped at line {stopped}, the rest of the file is not played"
        self._switch(match, notes, setup, message)

    def cmd_reload(self, _arg: str) -> None:
        """Read the game again and replay the session on it, up to the first move it refuses."""
        from ..language.source import LudusError
        from ..pipeline import load as load_game

        if self.unreplayable is not None:
            raise Rejected(f"cannot reload: this match's moves do not lead to its position ({self.unreplayable}), "
                           "and reloading plays them again on the new rules")
        try:
            game = load_game(self.game_path)
        except LudusError as exc:
            n = len(exc.diagnostics)
            first = f"{exc.diagnostics[0].span}: {exc.diagnostics[0].message}" if n else str(exc)
            raise Rejected(f"the game does not load now ({n} error{'s' if n != 1 else ''}; nothing changed): {first}") from None
        # the session as a replay, in memory: it is run on the new game, never read from disk
        script = parse_replay(export(self.match, self.game_path, self.game_path, self.notes, self.setup), "<session>")
        lines = {s.line: i for i, s in enumerate(s for s in script.steps if s.kind == "move")}
        try:
            match, stopped = _run_to_first_refusal(script, game)
        except ReplayError as exc:
            raise Rejected(f"cannot replay the session on the new rules: {exc.message}") from None
        self.game = game
        notes = [n for n in self.notes if n.position <= len(match.moves)]
        message = f"reloaded {self.game_path}: {_moves(len(match.moves))} replayed"
        if stopped:
            line = int(stopped.split(":", 1)[0])
            message += f"; stopped at move {lines.get(line, len(match.moves)) + 1}: {stopped.split(': ', 1)[1]}"
        self._switch(match, notes, self.setup, message, loaded=False)

    def cmd_restart(self, arg: str) -> None:
        """A new match of the same game, player count and chance mode: from setup, with no moves."""
        seed = self.match.seed
        if arg:
            seed = whole_number(arg, signed=True)
            if seed is None:  # as --seed and a replay's `seed` line take it
                raise Rejected(f"`restart` takes a seed, a whole number of at most 15 digits, not '{arg}'")
        state = self.match._state
        match = Match.new(self.game, state["nseats"], seed=seed, chance=state.get("chance", "auto"))
        try:
            kept = self._keep()
        except Rejected as exc:
            raise Rejected(f"not restarted: {exc}, then `restart` again") from None
        self.redo_stack.clear()
        self.match, self.notes, self.setup = match, [], []
        self.unreplayable = None
        self.saved_moves = []
        # the bots start again too, as in a new session with this seed: a restart with the same
        # seed and the same moves typed plays the same match, the bots' moves included
        self.rng = random.Random(seed if self.bot_seed is None else self.bot_seed)
        self.bot_players = {}
        self.say(f"restarted with seed {seed}" + (f"; the old match is in {kept}" if kept else ""))
        self.print_log(0, self.audience())
        self.play_bots()
        self.drawn = None  # another match: its table is drawn, whatever the last one showed
        self.show_state()

    def _switch(self, match: Match, notes: list[Note], setup: list[str], message: str, loaded: bool = True,
                unreplayable: str | None = None) -> None:
        if match.moves[:len(self.match.moves)] != self.match.moves:
            # the new match drops moves of this one: keep them first, if they were never saved
            try:
                kept = self._keep()
            except Rejected as exc:
                raise Rejected(f"nothing changed: {exc}, then try again") from None
            if kept is not None:
                message += f"; the session before it is kept in {kept}"
        if loaded:
            self.saved_moves = list(match.moves)
        self.match, self.notes, self.setup = match, notes, setup
        self.unreplayable = unreplayable
        self.redo_stack.clear()
        self.say(message)
        self.play_bots()
        # a match loaded or replayed on reloaded rules is drawn whole, even where it stands as
        # the last screen did: after `reload` the designer looks for the table under the new rules
        self.drawn = None
        self.show_state()

    def cmd_export(self, arg: str) -> None:
        if not arg:
            raise Rejected("`export` needs a file name, like `export session.replay`")
        if not number_in_range(self.match.seed):
            raise Rejected(f"this match's seed, {self.match.seed}, has more than the 15 digits a replay holds; "
                           "`save FILE` keeps it as a saved match")
        if self.unreplayable is not None:
            raise Rejected(f"this match's moves do not lead to its position ({self.unreplayable}): a replay of "
                           "them would not play it again; `save FILE` keeps it as a saved match")
        self._target(arg, "replay")
        try:
            text = export(self.match, self.game_path, checked_path(_home(arg)), self.notes, self.setup)
            written = write_whole(_home(arg), text)
        except FileProblem as exc:
            raise Rejected(str(exc)) from None
        if not written:
            raise Rejected(f"{INTERRUPTED_WRITE} '{arg}': the session is not exported, and a file there is as it was")
        self.saved_moves = list(self.match.moves)
        self.say(f"exported {_moves(len(self.match.moves))} to {arg}; `ludus replay {arg}` plays them again")


@contextlib.contextmanager
def ctrl_c_held():
    """Ctrl-C waits while a file is written, so that a save is either written whole or known not
    to be: a first Ctrl-C meanwhile is taken once the file is written (the command it came
    during is done by then, and the session goes on, or ends, as it would have); a second stops
    the write (a stuck disk), which leaves the file as it was (write_text_file). Only the main
    thread receives signals: elsewhere, and where Ctrl-C is not Python's own, nothing changes."""
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    came: list[int] = []

    def held(signum, _frame) -> None:
        if came:
            raise KeyboardInterrupt
        came.append(signum)

    signal.signal(signal.SIGINT, held)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def write_whole(path: str | Path, text: str) -> bool:
    """Write a file with Ctrl-C held (ctrl_c_held): True once it is written, False when Ctrl-C
    stopped the write, which left the file as it was; FileProblem when it cannot be written."""
    try:
        with ctrl_c_held():
            write_text_file(path, text)
    except KeyboardInterrupt:
        # a Ctrl-C taken just after the file was renamed into place: it is written all the same
        try:
            return read_text_file(path) == text
        except FileProblem:
            return False
    return True


def _run_to_first_refusal(script, game) -> tuple[Match, str | None]:
    """Play a replay; when a line fails, play the lines before it instead. Returns the match and,
    if it stopped, "LINE: what failed". A failure before the first move is raised."""
    try:
        return script.run(game=game), None
    except ReplayError as exc:
        failed = exc
    script.steps = [s for s in script.steps if s.line < failed.line]
    return script.run(game=game), f"{failed.line}: {failed.message}"


def _forces_after_the_end(match: Match, notes: list[Note]) -> tuple[list[Note], list[Note]]:
    """A saved session's notes without the `force` lines typed after its match ended, and those
    lines. The REPL refuses them now, but an older one took them, queued their outcomes in the
    finished match and saved both: kept, they would make its moves seem not to lead to its
    position (a replay refuses a force after the end), and `export` and `reload` would be off.
    Their outcomes, the last in the match's queue, are taken out of it as `force off` would."""
    if match.result is None:
        return notes, []
    end = len(match.moves)
    stale = [n for n in notes if n.kind == "force" and n.position == end]
    if not stale:
        return notes, []
    entries = [list(e) for n in stale for e in n.force or ()]
    forced = match._state["forced"]
    if entries and forced[len(forced) - len(entries):] == entries:
        del forced[len(forced) - len(entries):]
    return [n for n in notes if not any(n is s for s in stale)], stale


def _home(name: str) -> str:
    """A file name as a shell reads it: `~` and `~/...` (and `~user/...`) start at the home
    folder, so `save ~/match.json` writes there, not to a folder named `~` here."""
    return os.path.expanduser(name)


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'s' if n != 1 else ''}"


def _holds(path: Path, kind: str) -> bool:
    """Whether the file at `path` is a saved match (a JSON object with a format and a game
    fingerprint) or a replay (text that reads as one and names its game)."""
    try:
        text = read_text_file(path)
        if kind == "replay":
            return parse_replay(text, str(path)).game is not None
        data = json.loads(text)
    except (FileProblem, ReplayError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and "format" in data and "fingerprint" in data


def _short_echo(message: str, text: str) -> str:
    """The message, with a very long input it quotes (the whole line, or what follows its first
    word or two: a command's argument) cut to its start and end, so the error stays readable."""
    if len(text) <= ECHO_MOST:
        return message
    piece = text
    for _ in range(3):
        if len(piece) > ECHO_MOST and piece in message:
            return message.replace(piece, f"{piece[:60]}...{piece[-20:]} ({len(piece):,} characters)")
        piece = piece.partition(" ")[2].strip()
    return message


# a number standing alone in a label (`bid 5`, `(5)`), not a part of a word (`P2`, `d6`)
NUMBER_IN_LABEL = re.compile(r"\b\d+\b")


def _position(text: str) -> int | None:
    """The position `5.` names, written as the list writes it; None for any other text."""
    return whole_number(text[:-1]) if text.endswith(".") else None


def _number_readings(n: int, legal: list[str]) -> list[str]:
    """The moves other than option `n` that a typed `n` may mean by the number they carry, or
    none when `n` can only be the position.

    A family is two or more labels that are the same once their numbers are taken out (`bid 4`
    ... `bid 8`; `play card 1` ... `play card 5`); a label of a family reads `n` when it is the one
    label of its family that carries `n` in a place where the family's numbers differ. Labels
    without numbers (`pass`) and a label alone of its kind (`take 32` beside `no thanks`) read
    no number, so there a number is the position, as it always was. The option at position `n`
    is left out: when it carries `n` too it is what both readings name."""
    want = str(n)
    families: dict[str, list[tuple[str, list[str]]]] = {}
    for label in legal:
        numbers = [x.lstrip("0") or "0" for x in NUMBER_IN_LABEL.findall(label)]
        if numbers:
            families.setdefault(NUMBER_IN_LABEL.sub("\0", label), []).append((label, numbers))
    readings: list[str] = []
    for members in families.values():
        if len(members) < 2:
            continue
        places = [i for i in range(len(members[0][1])) if len({nums[i] for _, nums in members}) > 1]
        carry = [label for label, nums in members if any(nums[i] == want for i in places)]
        if len(carry) == 1 and carry[0] != legal[n - 1]:
            readings.append(carry[0])
    return readings


def _ambiguous(n: int, legal: list[str], readings: list[str]) -> str:
    """`'5' could be option 5 (bid 8) or bid 5: type 'bid 5', or '5.' for option 5`: each reading,
    and how to type it so that it is the only one."""
    def either(words: list[str]) -> str:
        return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} or {words[-1]}"

    # a label that is itself a number (`choose x from [1, 3, 5]`) is read as a position when
    # typed, so it is offered by its own position
    typed = [f"'{legal.index(r) + 1}.' for {r}" if whole_number(r) is not None else f"'{r}'" for r in readings]
    return f"'{n}' could be {either([f'option {n} ({legal[n - 1]})', *readings])}: type {either(typed)}, or '{n}.' for option {n}"


def _same_label(text: str, legal: list[str]) -> str | None:
    """The legal move `text` names, read without regard to case or runs of spaces; None when it
    names none, or (read that loosely) more than one."""
    if text in legal:
        return text
    wanted = loose(text)
    found = [label for label in legal if loose(label) == wanted]
    return found[0] if len(found) == 1 else None


# `undid:` and `redid:` name up to this many moves; more (a person's move and a long run of
# bots' moves after it) are counted, the first and last named
MOVES_NAMED = 6


def _moves_said(said: list[str]) -> str:
    """The moves `undo` or `redo` took, one line: `play Baron; Blue; play Guard`, or for many,
    `40 moves: play Baron; ...; play Guard`, so the line stays short however many went."""
    if len(said) <= MOVES_NAMED:
        return "; ".join(said)
    return f"{len(said)} moves: {said[0]}; ...; {said[-1]}"


def _moves(n: int) -> str:
    return f"{n} move{'s' if n != 1 else ''}"


def changes_between(before: Match, after: Match, seats: list[int] | None) -> list[str]:
    """What a move changed (`before` and `after` it), as every one of `seats` may see it (None:
    everything; Repl.audience). With two seats (hot seat: the one that moved and the one whose
    screen comes next) each thing is said as the seat that sees less of it sees it: a hand its
    owner sees is counted when the other may only count it, and an `others only` hand (Hanabi)
    is counted for both, since its owner may not see it."""
    sight = None if seats is None else seats[0] if len(seats) == 1 else tuple(seats)
    unlisted = unlisted_names(after.game)
    return view_changes(unlisted_left_out(before.view(sight), unlisted)[0],
                        unlisted_left_out(after.view(sight), unlisted)[0], counter_starts(after, sight))


def unlisted_names(game) -> frozenset[str]:
    """The counters, flags and vars the game declares `unlisted`: bookkeeping the screen and its
    `changed:` lines leave out (`show NAME` reads one; saved matches, views and tests keep them)."""
    return frozenset(name for name, spec in game.vars.items() if spec.unlisted)


def said_of(sight: tuple[str, dict, dict], seats: list[int] | None, asked: bool = False) -> str:
    """A move (Repl.move_sight) as every one of `seats` may read it (None: everything); with
    `asked`, followed by the question it answered as `log` writes it (`1 (choose n)`), in the
    words of the seat of `seats` that may read least of it."""
    label, told, questions = sight
    said = next((told[s] for s in seats or () if s in told), label)
    if not asked or not questions:
        return said
    question = next((questions[s] for s in seats or () if s in questions), questions[None])
    return f"{said} ({question})" if question else said


def _sight_record(match: Match) -> list:
    """Who may see each move of the match, as a saved session keeps it: `[index, null]` (every
    seat) or `[index, seats, told]` (what the others are told) by the move's place in the log,
    for the moves whose sight is known. Played again, the moves say it themselves; the file says
    it for a match whose moves do not lead to its position (or whose seed no replay holds)."""
    match.sights()
    return [[i, None] if seen is None else [i, list(seen[0]), seen[1]]
            for i, seen in sorted(match.sight.items()) if i < len(match.log)]


# the longest question a saved session's record takes: a rules' text with its holes filled in
LONGEST_QUESTION = 2000


def _asked_record(match: Match) -> list:
    """The question each answer of the match answered (Match.question), as a saved session
    keeps it beside `sight`: `[index, text]`, or `[index, text, [[seat, text], ...]]` where some
    seats read it otherwise (a `distribute` asked of a card they may not see). For a match whose
    moves do not replay, the file is all that says it."""
    match.questions()
    out = []
    for i, asked in sorted(match.asked.items()):
        if asked is not None and i < len(match.log):
            others = [[seat, text] for seat, text in asked.items() if seat is not None]
            out.append([i, asked[None], others] if others else [i, asked[None]])
    return out


def _saved_asked(match: Match, record) -> dict | None:
    """The questions of a saved session's answers (see _asked_record), checked against the
    match's log; None when the file has none (saved before sessions kept them). Damage is a
    ValueError."""
    if record is None:
        return None
    n = match._state["nseats"]

    def text_ok(text) -> bool:
        return isinstance(text, str) and 0 < len(text) <= LONGEST_QUESTION and text.isprintable()

    if not isinstance(record, list):
        raise ValueError("the record of the questions answered is damaged")
    out: dict = {}
    for item in record:
        ok = isinstance(item, list) and len(item) in (2, 3) and type(item[0]) is int and 0 <= item[0] < len(match.log) \
            and item[0] not in out and match.log[item[0]].get("t") == "answer" and text_ok(item[1])
        others = item[2] if ok and len(item) == 3 else []
        ok = ok and isinstance(others, list) and all(
            isinstance(o, list) and len(o) == 2 and type(o[0]) is int and 0 <= o[0] < n and text_ok(o[1]) for o in others)
        if not ok or len({o[0] for o in others}) != len(others):
            raise ValueError("the record of the questions answered is damaged")
        out[item[0]] = {None: item[1], **{seat: text for seat, text in others}}
    return out


def _saved_sight(match: Match, record) -> dict | None:
    """The sight of a saved session's moves (see _sight_record), checked against the match's
    log; None when the file has none (saved before sessions kept it). Damage is a ValueError."""
    if record is None:
        return None
    n = match._state["nseats"]
    if not isinstance(record, list):
        raise ValueError("the record of who may see each move is damaged")
    out: dict = {}
    for item in record:
        ok = isinstance(item, list) and len(item) in (2, 3) and type(item[0]) is int and 0 <= item[0] < len(match.log) \
            and item[0] not in out
        entry = match.log[item[0]] if ok else {}
        ok = ok and entry.get("t") in ("answer", "action") and type(entry.get("seat")) is int
        if ok and len(item) == 2:
            ok = item[1] is None
        elif ok:
            seats, told = item[1], item[2]
            ok = isinstance(seats, list) and all(type(x) is int and 0 <= x < n for x in seats) \
                and len(set(seats)) == len(seats) and isinstance(told, str) and 0 < len(told) <= 200 and told.isprintable()
        if not ok:
            raise ValueError("the record of who may see each move is damaged")
        out[item[0]] = None if len(item) == 2 else (tuple(item[1]), item[2])
    return out


class Examples:
    """The examples the REPL's messages give, in the words of the game being played and of the
    match as the screen shows it: its seats, a zone it shuffles and cards for it, its dice, a
    counter and its value (`force order deck = Guard, Priest` and `expect affection of Red ==
    0` in Love Letter), so a message never names Market Town's cards in another game. Only what
    `view` shows is read (cards in a zone the screen's seat sees, a counter's value it sees): an
    error is no way to learn what is in a deck. A part the game lacks reads in capitals (`force
    order ZONE = CARD, CARD`), or is left out where the game has nothing of that kind to force."""

    def __init__(self, match: Match, view: dict) -> None:
        game = match.game
        seats = list(match.seat_names())
        seat = seats[0]
        dice = game_dice(game)
        if dice is None:  # the size of some die is worked out as the game runs
            self.die: str | None = "force die = 1"
        elif dice:
            sides = min(dice)
            self.die = f"force d{sides} = {min(sides, 5)}"
        else:
            self.die = None  # it rolls no dice: a die's example would be refused
        # a zone the rules shuffle: one whose cards the screen shows, two kinds of them, first,
        # as those are cards a force of it takes now; else the first, with the game's first cards
        cards = [d for d, spec in game.defs.items() if spec.word == "card"]
        shown = view.get("zones", {})
        zones = []
        for zone in (z for z in game.zones if z in shuffled_zones(game)):
            names = [f"{zone} of {name}" for name in seats] if game.zones[zone].per == "seat" else [zone]
            for name in names:
                held = shown.get(name)
                held = {c for c in held if isinstance(c, str)} if isinstance(held, list) else set()
                zones.append((name, [c for c in cards if c in held][:2]))
        if zones:
            zone, names = next(((z, n) for z, n in zones if len(n) == 2), (zones[0][0], cards[:2]))
            listed = ", ".join(f'"{c}"' if "," in c else c for c in names) if len(names) == 2 else "CARD, CARD"
            self.order: str | None = f"force order {zone} = {listed}"
        else:
            self.order = None
        # a counter of the game's, or a seat's (one kept per card or space takes more to name)
        counter = next((v for v in game.vars.values()
                        if v.kind == "counter" and v.type == "number" and v.per in (None, "seat")), None)
        # a zone the game declares: `box` and `removed` are every game's
        zone = next((z for z in game.zones if z not in ("box", "removed")), None)
        if counter is not None:
            self.value = f"{counter.name} of {seat}" if counter.per == "seat" else counter.name
            now = view.get("counters", {}).get(counter.name)
            now = now.get(seat) if isinstance(now, dict) else now
            self.check = f"{self.value} == {now if isinstance(now, int) and not isinstance(now, bool) else 3}"
        elif zone is not None:
            held = f"{zone} of {seat}" if game.zones[zone].per == "seat" else zone
            now = shown.get(held)
            now = len(now) if isinstance(now, list) else now.get("count") if isinstance(now, dict) else None
            self.value, self.check = held, f"size({held}) == {now if isinstance(now, int) else 1}"
        else:
            self.value, self.check = "players", f"players == {len(seats)}"

    def force(self) -> str:
        """`force d6 = 5` or `force order ZONE = A, B`, as far as the game rolls and shuffles."""
        found = [f"`{x}`" for x in (self.die, self.order) if x]
        return " or ".join(found) if found else "`force d6 = 5` or `force order ZONE = CARD, CARD`"

    def order_usage(self) -> str:
        return f"`{self.order or 'force order ZONE = CARD, CARD'}`"


class _Line:
    """The little a force needs of a replay step when it comes from the prompt."""

    def __init__(self, force) -> None:
        self.force, self.line, self.column = force, 1, 1
        self.text = force.text().removeprefix("force ")


# ───────────────────────── input ─────────────────────────


class ReplCompleter(Completer):
    """Tab completes the legal moves this view shows, command names, and the names commands take."""

    def __init__(self, repl: Repl) -> None:
        self.repl = repl

    def candidates(self, text: str) -> list[str]:
        word, space, rest = text.partition(" ")
        if space and word in ("show", "view", "bot"):
            view = self.repl.view()
            seats = list(self.repl.match.seat_names())
            if word == "show":
                cards = [d for d, s in self.repl.game.defs.items() if s.word == "card"]
                names = [*view["zones"], *view["tracks"], *view["board"], *cards, *seats, *view["counters"]]
            elif word == "view":
                names = [*seats, "all", "auto"]
            else:
                names = [f"{s} {k}" for s in seats for k in BOTS] + [f"{s} off" for s in seats]
            return [f"{word} {n}" for n in names if n.lower().startswith(rest.lower())]
        options = self.repl.visible_options() or []
        low = text.lower()
        found = [o for o in options if o.lower().startswith(low)]
        found += [c for c in COMMANDS if c.startswith(low) and c not in found]
        return found

    def get_completions(self, document, complete_event):
        text = document.text_before_cursor
        for candidate in self.candidates(text):
            yield Completion(candidate, start_position=-len(text))


def prompt_reader(repl: Repl, input=None, output=None, history: str | None = None):
    """`read(prompt)` from a prompt_toolkit session with completion and a persistent history."""
    from prompt_toolkit import PromptSession
    from prompt_toolkit.history import FileHistory, InMemoryHistory
    from prompt_toolkit.lexers import PygmentsLexer

    from ..tools.lexers import ReplayLexer

    class KeptHistory(FileHistory):
        """The history file, which may stop working once the session runs (its folder removed,
        a full disk): the lines are then kept in memory only. prompt_toolkit would print the
        error's traceback on every line and wait for Enter."""

        def load_history_strings(self):
            try:
                return list(super().load_history_strings())
            except OSError:
                return []

        def store_string(self, string: str) -> None:
            try:
                super().store_string(string)
            except OSError:
                pass

    if history and history != os.devnull:
        problem = _history_problem(history)
        if problem is not None:
            repl.say(f"warning: no prompt history is kept: cannot use '{history}' ({problem}); set "
                     f"{HISTORY_ENV} to another file, or to nothing to keep none", style="yellow")
            history = None
    elif history:
        history = None  # /dev/null: no history, as an empty LUDUS_HISTORY says
    # a line typed here reads like a replay's line: a move's label, `force ...`, `expect ...`
    session = PromptSession(input=input, output=output, completer=ReplCompleter(repl),
                            history=KeptHistory(history) if history else InMemoryHistory(),
                            complete_while_typing=False, lexer=PygmentsLexer(ReplayLexer))
    return session.prompt


def _history_problem(path: str) -> str | None:
    """Why the history file cannot be used, or None. Only a regular file is: a folder fails on
    every line, and a FIFO would block the prompt until something else opened it. It is made
    now if missing, as the first line typed would make it, so a folder that does not exist or a
    file without permission is found at the start."""
    import stat

    try:
        info = os.stat(path)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        return exc.strerror or str(exc)
    if info is not None and not stat.S_ISREG(info.st_mode):
        return "it is a folder" if stat.S_ISDIR(info.st_mode) else "it is not a regular file"
    try:
        with open(path, "ab"):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    return None


def plain_reader(stream, console: Console):
    """`read(prompt)` from plain lines, echoing each after its prompt so the output reads as a transcript.

    The lines are read as bytes when the stream has them: a line that is not UTF-8 text then has
    its bad bytes written as escapes (`\\xff`) and is refused as any unknown line is, where the
    text stream would raise and end the session. A byte-order mark before the first line, which
    some editors write, is not part of it."""
    raw = getattr(stream, "buffer", None)
    first = True

    def read(prompt: str) -> str:
        nonlocal first
        line = stream.readline() if raw is None else raw.readline().decode("utf-8", errors="backslashreplace")
        if not line:
            raise EOFError
        if first:
            line, first = line.removeprefix("\ufeff"), False
        console.print(Text(prompt + line.rstrip("\n")), soft_wrap=True)
        return line
    return read


class TrimmedLines:
    """A text stream that writes each line without the spaces at its end. Tables pad each cell
    to its column's width, and the padding of a line's last cell shows once the output is piped
    or saved to a file. The blanks after the last line break written so far are held back until
    something follows them on the same line."""

    def __init__(self, stream) -> None:
        self.stream = stream
        self.held = ""

    def write(self, text: str) -> int:
        lines = (self.held + text).split("\n")
        last = lines.pop()
        kept = last.rstrip(" \t")
        self.held = last[len(kept):]
        self.stream.write("".join(line.rstrip(" \t") + "\n" for line in lines) + kept)
        return len(text)

    def flush(self) -> None:
        self.stream.flush()

    def __getattr__(self, name: str):  # encoding, isatty, fileno: the stream's own
        return getattr(self.stream, name)
