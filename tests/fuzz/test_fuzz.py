"""Fuzzers: mutated game files, hostile programs, mutated replays, random REPL sessions and
corrupted saved matches. Whatever goes in, what comes out is a located ludus error or a correct
run: never a Python traceback, a hang or a half-applied move.

A normal test run tries a few dozen seeded cases per fuzzer (Hypothesis, derandomized: the same
cases every run). For a longer search, raise the count:

    LUDUS_FUZZ_EXAMPLES=2000 python -m pytest tests/fuzz -q

A failure prints the smallest input Hypothesis could shrink it to; add it to
tests/reliability/test_bad_input.py as a test of its class once it is fixed.
"""

from __future__ import annotations

import io
import json
import os
import random
import re
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

import ludus
from ludus.engine.match import Match
from ludus.language.files import FileProblem
from ludus.repl import Repl
from ludus.replay import ReplayError, load_replay
from tests.helpers import EXAMPLES, GAMES

EXAMPLES_PER_FUZZER = int(os.environ.get("LUDUS_FUZZ_EXAMPLES", "30"))
FUZZ = settings(max_examples=EXAMPLES_PER_FUZZER, derandomize=True, deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

MARKET = ludus.load(EXAMPLES / "market-town.ludus")
CORPUS = [p for p in sorted([*GAMES.rglob("*.ludus"), *EXAMPLES.rglob("*.ludus")])]
REPLAYS = sorted([*GAMES.rglob("*.replay"), *EXAMPLES.rglob("*.replay")])
LOCATED = (ludus.LudusError, ludus.RuleError)

# pieces of the language and of hostile input, for mutations to splice in
WORDS = ["if", "else", "elif", "for", "in", "to", "repeat", "times", "while", "true", "false", "none", "and", "or",
         "not", "roll", "d6", "d0", "die", "choose", "from", "win", "lose", "end game", "gain", "pay", "move", "draw",
         "(", ")", "[", "]", ":", ",", "=", "==", "+", "*", "-", "/", "%", '"', "{", "}", "#", "\t", "    ", "\n",
         "9" * 40, "²", "\x00", "\ufeff", "include \"/dev/zero\"", "include \"a\x00b\"", "(" * 500, "x and " * 400]


def mutate(text: str, rng: random.Random, rounds: int) -> str:
    lines = text.split("\n")
    for _ in range(rounds):
        kind = rng.randrange(6)
        i = rng.randrange(len(lines)) if lines else 0
        if kind == 0 and lines:
            del lines[i]
        elif kind == 1 and lines:
            lines.insert(i, lines[rng.randrange(len(lines))])
        elif kind == 2 and lines:
            line = lines[i]
            at = rng.randrange(len(line) + 1)
            lines[i] = line[:at] + rng.choice(WORDS) + line[at:]
        elif kind == 3 and lines:
            line = lines[i]
            if line:
                a = rng.randrange(len(line))
                lines[i] = line[:a] + line[a + rng.randrange(1, 8):]
        elif kind == 4 and len(lines) > 1:
            j = rng.randrange(len(lines))
            lines[i], lines[j] = lines[j], lines[i]
        else:
            lines.insert(i, rng.choice(WORDS))
    return "\n".join(lines)


INCLUDE = re.compile(r'^(\s*(?:include|extends)\s+")([^"]+)(")', re.M)
GAME_LINE = re.compile(r"^(game\s+)()(.+?)()$", re.M)


def anchored(source: Path, pattern: re.Pattern) -> str:
    """The file's text with the paths it names made absolute, so a copy elsewhere still finds them."""
    def absolute(m: re.Match) -> str:
        return m.group(1) + str((source.parent / m.group(2 if pattern is INCLUDE else 3)).resolve()) + m.group(
            3 if pattern is INCLUDE else 4)
    return pattern.sub(absolute, source.read_text(encoding="utf-8"))


def play_some(game, seed: int, moves: int = 30) -> None:
    """A few random moves of every player count, checking that apply is atomic."""
    rng = random.Random(seed)
    for players in sorted({game.min_players, game.max_players}):
        match = game.new_match(players, seed=seed)
        for _ in range(moves):
            if match.is_over:
                break
            before = match.to_json()
            try:
                match.apply(rng.choice(match.legal_actions()))
            except ludus.RuleError:
                assert match.to_json() == before, "a move that failed left something behind"
                break


# ── game files ──


@FUZZ
@given(st.sampled_from(CORPUS), st.integers(0, 2**32), st.integers(1, 6))
def test_mutated_game_files_give_diagnostics_or_games_that_run(source, seed, rounds):
    text = mutate(anchored(source, INCLUDE), random.Random(seed), rounds)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / source.name
        path.write_text(text, encoding="utf-8")
        try:
            game = ludus.load(path)
        except ludus.LudusError as err:
            assert err.diagnostics, "a LudusError must carry its diagnostics"
            assert all(d.span.line >= 1 for d in err.diagnostics)
            return
        try:
            play_some(game, seed, moves=10)
        except LOCATED:
            pass


# ── hostile programs ──

NUMBERS = st.one_of(st.integers(-10, 10), st.integers(-(10**16), 10**16), st.sampled_from(["9" * 20, "0", "1"]))


def expressions(depth: int = 0):
    leaf = st.one_of(NUMBERS.map(str), st.sampled_from(["n", "true", "false", "none", "players"]))
    if depth > 3:
        return leaf
    inner = st.deferred(lambda: expressions(depth + 1))
    return st.one_of(
        leaf,
        st.tuples(inner, st.sampled_from(["+", "-", "*", "/", "%", "==", "<", "and", "or"]), inner).map(
            lambda t: f"({t[0]} {t[1]} {t[2]})"),
        st.tuples(inner, inner).map(lambda t: f"count(x for x in range({t[0]}, {t[1]}))"),
        st.integers(1, 3000).map(lambda k: "(" * k + "1" + ")" * k),
        st.integers(1, 3000).map(lambda k: " and ".join(["true"] * k)),
    )


STATEMENTS = st.one_of(
    expressions().map(lambda e: f"set n to {e}"),
    expressions().map(lambda e: f"repeat {e} times:\n        increase n by 1"),
    st.tuples(expressions(), expressions()).map(lambda t: f"for x in {t[0]} to {t[1]}:\n        increase n by 1"),
    expressions().map(lambda e: f"roll die {e} as r"),
    expressions().map(lambda e: f"roll {e} d6 as rs"),
    expressions().map(lambda e: f"choose k from 1 to {e}\n    set n to k"),
    st.just("while true:\n        increase n by 1"),
    expressions().map(lambda e: f"if {e}:\n        win item(seats, 1)"),
)


@FUZZ
@given(st.lists(STATEMENTS, min_size=1, max_size=4), st.sampled_from([1, 2, 64, 65, 10**12]))
def test_hostile_programs_are_refused_or_stopped_with_a_located_error(body, players):
    text = f'game "H"\nplayers {players}\ncounter n\nflow:\n    ' + "\n    ".join(body) + "\n    end game\n"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "h.ludus"
        path.write_text(text, encoding="utf-8")
        try:
            game = ludus.load(path)
        except ludus.LudusError:
            return
        try:
            match = game.new_match(game.min_players)
            for _ in range(20):
                if match.is_over:
                    break
                match.apply(0)
        except ludus.RuleError as err:
            assert err.span is not None, f"rule errors are located: {err}"


# ── replays ──


@FUZZ
@given(st.sampled_from(REPLAYS), st.integers(0, 2**32), st.integers(1, 4))
def test_mutated_replays_run_or_stop_at_a_located_line(source, seed, rounds):
    text = mutate(anchored(source, GAME_LINE), random.Random(seed), rounds)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / source.name
        path.write_text(text, encoding="utf-8")
        try:
            load_replay(path).run()
        except ReplayError as err:
            assert str(err)


# ── REPL sessions ──

REPL_LINES = st.one_of(
    st.integers(-3, 12).map(str),
    st.sampled_from(["²", "1²", "moves", "show", "show hand of Amber", "show nothing", "log", "log 3", "log ²",
                     "undo", "redo", "view Amber", "view all", "view auto", "view Nobody", "bot Bea random",
                     "bot Bea off", "bot Amber random", "force d6 = 5", "force d6 = 9", "force die = ²",
                     "force order deck of Amber = Copper Coin", "force order nowhere = x", "roll d6 = 1",
                     "expect coins of Amber == 3", "expect nonsense", "? coins of Amber", "? " + "(" * 2000,
                     "? " + "9" * 5000, "help", "help force", "buy nothing", "build nothing", "load missing.json",
                     "load /dev/zero", "save a\x00b", "export b\x00.replay", "frobnicate", "#comment", ""]),
    st.text(max_size=30),
)


@FUZZ
@given(st.lists(REPL_LINES, max_size=25), st.integers(0, 50))
def test_random_repl_sessions_answer_every_line(lines, seed):
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, highlight=False, markup=False)
    with tempfile.TemporaryDirectory() as tmp:
        cwd = os.getcwd()
        os.chdir(tmp)  # save and export write here
        try:
            repl = Repl(MARKET.new_match(2, seed=seed), EXAMPLES / "market-town.ludus", console)
            for line in [*lines, "save s.json", "load s.json", "export e.replay"]:
                repl.handle(line)  # must not raise, whatever the line
            # what the REPL holds is still a whole match: it saves and loads back exactly
            assert Match.from_json(MARKET, repl.match.to_json()).to_json() == repl.match.to_json()
        finally:
            os.chdir(cwd)


# ── saved matches ──


def saved_matches() -> list[tuple[object, str]]:
    out = []
    for path, players in [(EXAMPLES / "market-town.ludus", 3), (GAMES / "uprising.ludus", 2),
                          (GAMES / "votes-for-women" / "votes-for-women.ludus", 2)]:
        game = ludus.load(path)
        match = game.new_match(players, seed=5)
        rng = random.Random(5)
        for _ in range(40):
            if match.is_over:
                break
            match.apply(rng.choice(match.legal_actions()))
        out.append((game, match.to_json()))
    return out


SAVED = saved_matches()
JUNK = st.one_of(st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.text(max_size=8), st.just([]),
                 st.just({}), st.just([[[[]]]]), st.floats(allow_nan=True))


def replace_somewhere(data, rng: random.Random, value):
    """Put `value` at a random place in the JSON tree (a dict value or a list element)."""
    node = data
    for _ in range(rng.randrange(1, 8)):
        children = list(node.items()) if isinstance(node, dict) else list(enumerate(node)) if isinstance(node, list) else []
        if not children:
            break
        key, child = rng.choice(children)
        if not isinstance(child, (dict, list)) or rng.random() < 0.3:
            node[key] = value
            return
        node = child
    if isinstance(node, dict) and node:
        node[rng.choice(list(node))] = value


@FUZZ
@given(st.integers(0, len(SAVED) - 1), st.integers(0, 2**32), JUNK, st.integers(0, 3))
def test_corrupted_saved_matches_are_refused_or_play_on(which, seed, junk, byte_flips):
    game, text = SAVED[which]
    rng = random.Random(seed)
    data = json.loads(text)
    replace_somewhere(data, rng, junk)
    damaged = json.dumps(data)
    chars = list(damaged)
    for _ in range(byte_flips):
        chars[rng.randrange(len(chars))] = rng.choice('{}[]",:0123456789aZ\\ ')
    damaged = "".join(chars)
    try:
        match = Match.from_json(game, damaged)
    except ludus.MatchError as err:
        assert str(err)
        return
    try:
        play_some_from(match, rng)
    except ludus.RuleError:
        pass


def play_some_from(match, rng: random.Random) -> None:
    for _ in range(15):
        if match.is_over:
            return
        before = match.to_json()
        clone = match.clone()
        try:
            match.apply(rng.choice(match.legal_actions()))
        except ludus.RuleError:
            assert match.to_json() == before
            raise
        assert clone.to_json() == before, "a clone changed when its original moved"
        match.view(0)


def test_file_problems_are_the_only_errors_of_reading(tmp_path):
    """The fuzzers above rely on the file reader raising only FileProblem; pin that."""
    from ludus.language.files import read_text_file

    for bad in ["", "a\x00b", "x" * 5000, "/dev/zero", str(tmp_path), str(tmp_path / "none")]:
        try:
            read_text_file(bad)
        except FileProblem as exc:
            assert str(exc)
        else:
            raise AssertionError(f"{bad[:20]!r} was read")
