"""A bot of your own: a Python file defining make_bot(game, seat, seed, budget), named where a
bot kind goes (`--bot Amber=mybot.py`), played by `ludus simulate` on every backend and by
`ludus play`. Its faults are said at its own lines, never as a traceback or a fault of ludus."""

from __future__ import annotations

import json
import sys

import pytest
from click.testing import CliRunner

from ludus.bots import BadBotChoice, BadBotSpec, choice, make_bot, observe, parse_spec
from ludus.cli import main
from ludus.pipeline import load
from tests.helpers import EXAMPLES, no_crash

MARKET = str(EXAMPLES / "market-town.ludus")

BUYER = '''import random


class Buyer:
    def __init__(self, seed, budget):
        self.rng = random.Random(seed)
        self.budget = budget

    def choose(self, obs):
        for i, label in enumerate(obs.legal):
            if label.startswith("buy ") and label != "buy nothing":
                return i
        return self.rng.randrange(len(obs.legal))


def make_bot(game, seat, seed, budget):
    return Buyer(seed, budget)
'''


def bot_file(tmp_path, text, name="Buyer.py"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def simulate(*args):
    return CliRunner().invoke(main, ["simulate", MARKET, "-n", "40", "--seed", "2", *args])


def test_a_bot_file_plays_a_seat_and_gives_the_same_report_on_any_number_of_workers(tmp_path):
    path = bot_file(tmp_path, BUYER)
    one = simulate("-w", "1", "--bot", f"Amber={path}", "--json", "-")
    two = simulate("-w", "2", "--bot", f"Amber={path}", "--json", "-")
    assert one.exit_code == 0 and two.exit_code == 0, one.output + two.output
    runs = json.loads(one.output)["runs"]
    assert runs == json.loads(two.output)["runs"]
    assert runs[0]["per_seat"][0]["bot"] == path
    # it plays as written: Amber buys whatever it can, which random Amber does not
    random_amber = json.loads(simulate("-w", "1", "--json", "-").output)["runs"][0]
    assert runs[0]["per_seat"] != random_amber["per_seat"]


def test_a_bot_file_is_named_as_typed_and_given_its_budget(tmp_path):
    path = bot_file(tmp_path, BUYER)
    assert parse_spec(f"{path}:400") == (path, parse_spec("mcts:400")[1])  # the case of the path is kept
    bot = make_bot(f"{path}:400", load(MARKET), 0, 7)
    assert bot.budget.iterations == 400 and bot.spec == f"{path}:400"


@pytest.mark.parametrize(("text", "expected"), [
    ("def make_bot(game, seat, seed, budget)\n    return 1\n", "{path}:1:39: the bot file does not parse"),
    ("x = 1\n", "{path} defines no make_bot(game, seat, seed, budget)"),
    ("import ludus_no_such_module\n", "{path}:1: ModuleNotFoundError"),
    ("def make_bot(game, seat, seed, budget):\n    return nothing_here\n", "{path}:2: NameError"),
    ("def make_bot(game, seat, seed, budget):\n    return 3\n", "returned 3, which has no choose(obs) method"),
])
def test_a_broken_bot_file_is_refused_before_any_match_at_its_line(tmp_path, text, expected):
    path = bot_file(tmp_path, text)
    result = simulate("--bot", f"Amber={path}")
    assert result.exit_code == 2 and no_crash(result)
    assert expected.format(path=path) in result.output


def test_a_missing_bot_file_is_refused_naming_it(tmp_path):
    result = simulate("--bot", f"Amber={tmp_path / 'nope.py'}")
    assert result.exit_code == 2
    assert f"no bot file '{tmp_path / 'nope.py'}': there is no such file" in result.output


def test_a_bot_file_that_fails_or_answers_no_index_is_said_at_its_line(tmp_path):
    failing = bot_file(tmp_path, "class B:\n    def choose(self, obs):\n        return obs.legall\n\n\n"
                       "def make_bot(game, seat, seed, budget):\n    return B()\n", "failing.py")
    result = simulate("-w", "1", "--bot", f"Amber={failing}")
    assert result.exit_code == 1 and no_crash(result)
    assert f"{failing}:3: AttributeError" in result.output
    assert "look first at" in result.output and "please report it" not in result.output
    game = load(MARKET)
    match = game.new_match(2, seed=1)
    for n, answer in enumerate((99, True, 1.0, None)):  # a file each: a process loads a file once
        wrong = bot_file(tmp_path, f"class B:\n    def choose(self, obs):\n        return {answer!r}\n\n\n"
                         "def make_bot(game, seat, seed, budget):\n    return B()\n", f"wrong{n}.py")
        bot = make_bot(wrong, game, 0, 1)
        with pytest.raises(BadBotChoice, match="which is not an index into obs.legal"):
            choice(bot, observe(match, 0))


def test_an_unknown_kind_names_bot_files_too():
    with pytest.raises(BadBotSpec, match=r"or a Python file of your own \(FILE.py"):
        parse_spec("mctss")


# a bot file given by a relative path is named so in every message, as the user typed it: the
# workers of simulate have it by its absolute path, and a traceback names the file it was loaded
# from, which printed the bad index and the failing line's place as an absolute path
WRONG = "class B:\n    def choose(self, obs):\n        return 99\n\n\ndef make_bot(game, seat, seed, budget):\n    return B()\n"
FAILING = WRONG.replace("return 99", "return obs.legall")
FAILS_TO_MAKE = "def make_bot(game, seat, seed, budget):\n    return nothing_here\n"


@pytest.mark.parametrize(("text", "expected", "code"), [
    (WRONG, ": the bot 'bots/wrong.py' chose 99, which is not an index into obs.legal", 1),
    (FAILING, ": bots/wrong.py:3: AttributeError", 1),
    (FAILS_TO_MAKE, "Invalid value for --bot: bots/wrong.py:2: NameError", 2),
])
def test_a_bot_file_typed_relative_is_named_as_typed_by_simulate(tmp_path, monkeypatch, text, expected, code):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "wrong.py").write_text(text, encoding="utf-8")
    result = simulate("-w", "1", "--bot", "Amber=bots/wrong.py")
    assert result.exit_code == code, result.output
    assert expected in " ".join(result.output.split())
    assert str(tmp_path) not in result.output


def test_a_bot_file_typed_relative_is_named_as_typed_by_the_repl(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "failing.py").write_text(FAILING, encoding="utf-8")
    result = CliRunner().invoke(main, ["play", MARKET, "--bot", "Amber=bots/failing.py"], input="quit\n")
    said = " ".join(result.output.split())
    assert ("error: the bots/failing.py bot playing Amber stopped: bots/failing.py:3: AttributeError: "
            "'Observation' object has no attribute 'legall'") in said
    assert "Amber is yours now" in said and str(tmp_path) not in result.output


# a bot file may import a module of its own (here from its folder); a fault inside that module
# is named as the user would type it too, not by the absolute path Python loaded it from
IMPORTS_HELPER = ("import os\nimport sys\n\nsys.path.insert(0, os.path.dirname(__file__))\n"
                  "import wrong_helper  # noqa: E402\n\n\nclass B:\n    def choose(self, obs):\n"
                  "        return wrong_helper.pick(obs)\n\n\n"
                  "def make_bot(game, seat, seed, budget):\n    return B()\n")
HELPER = "def pick(obs):\n    return obs.legall\n"


def test_a_fault_in_a_module_the_bot_file_imports_is_named_from_the_folder_the_command_runs_in(
        tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bots").mkdir()
    (tmp_path / "bots" / "uses.py").write_text(IMPORTS_HELPER, encoding="utf-8")
    (tmp_path / "bots" / "wrong_helper.py").write_text(HELPER, encoding="utf-8")
    try:
        result = simulate("-w", "1", "--bot", "Amber=bots/uses.py")
    finally:
        sys.modules.pop("wrong_helper", None)
    assert result.exit_code == 1, result.output
    said = " ".join(result.output.split())
    assert "bots/wrong_helper.py:2: AttributeError" in said, said
    assert str(tmp_path) not in result.output
