"""Runs of numbered cards: `card "{n}" for n in 3 to 35: number n` declares 33 cards at once."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import ludus
from ludus.cli import main
from ludus.pipeline import analyse
from ludus.tools.fmt import format_text
from tests.helpers import EXAMPLES

GAME = """game "Runs"
players 2
value lowest = 3
value highest = 6
value price = 1000

kind Card:
    number: number
    cost: number = 0

card "{n}" for n in lowest to highest: number n
card "Cheque {n * 10}" for n in 1 to 3 is Card:
    copies n
    number n * 10
    cost n * price + sum(n for n in [1, 2])

flow:
    win first(seats)

test "each card of a run has its own number":
    expect card("3").number == 3 and card("6").number == 6
    expect card("Cheque 20").cost == 2003 and size(cards("Cheque 30")) == 3
    expect size(Cards) == 4 + 1 + 2 + 3
"""


def write(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path / next(iter(files))


def card_names(path: Path) -> list[str]:
    return list(ludus.load(path).defs)


def problems(path: Path) -> list[tuple[int, int, str, str | None]]:
    diags, _checked, _sources = analyse(path)
    return [(d.span.line, d.span.column, d.message, d.hint) for d in diags]


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def test_a_run_makes_one_card_per_number_in_ascending_order(tmp_path):
    path = write(tmp_path, {"game.ludus": GAME})
    assert problems(path) == []  # the values its ends name count as used
    assert card_names(path) == ["3", "4", "5", "6", "Cheque 10", "Cheque 20", "Cheque 30"]
    match = ludus.load(path).new_match(2, seed=0)
    box = [e["d"] for e in match.state["ents"] if e is not None]
    assert box == ["3", "4", "5", "6", "Cheque 10", "Cheque 20", "Cheque 20", "Cheque 30", "Cheque 30", "Cheque 30"]
    result = run("test", str(path))  # the properties, read in play
    assert result.exit_code == 0, result.output
    assert "1 passed, 0 failed" in result.output


def test_the_rules_text_lists_each_card_with_its_properties_worked_out(tmp_path):
    path = write(tmp_path, {"game.ludus": GAME})
    result = run("cards", str(path))
    assert result.exit_code == 0, result.output
    headings = [line for line in result.output.splitlines() if line and not line.startswith(" ")]
    assert headings == [
        "3 (Card)",
        "4 (Card)",
        "5 (Card)",
        "6 (Card)",
        "Cheque 10 (Card)",
        "Cheque 20 (Card, 2 copies)",
        "Cheque 30 (Card, 3 copies)",
    ]
    assert "5 (Card)\n  Number: 5.\n" in result.output
    # `n * price` is read in play, and the comprehension's own `n` is its own
    assert (
        "Cheque 20 (Card, 2 copies)\n  Number: 20. Cost: 2 × price + the total of n for every n in 1 and 2.\n"
        in result.output
    )


def test_a_variant_changes_the_run_through_its_values_or_whole(tmp_path):
    write(tmp_path, {"base.ludus": GAME.split("\ntest ")[0]})  # its test names cards a variant removes
    wider = write(tmp_path, {"wider.ludus": 'extends "base.ludus"\noverride value highest = 9\n'})
    assert problems(wider) == []
    assert card_names(wider)[:7] == ["3", "4", "5", "6", "7", "8", "9"]
    other = write(
        tmp_path, {"other.ludus": 'extends "base.ludus"\noverride card "{n}" for n in 1 to 2: number n * 5\n'}
    )
    assert card_names(other)[:2] == ["1", "2"] and "3" not in card_names(other)
    gone = write(tmp_path, {"gone.ludus": 'extends "base.ludus"\nremove card "{n}"\n'})
    assert card_names(gone) == ["Cheque 10", "Cheque 20", "Cheque 30"]


@pytest.mark.parametrize(
    ("variant", "where", "message"),
    [
        ('override card "5": number 50\n', (2, 15), "'override' needs an earlier declaration of '5' to replace"),
        ('remove card "5"\n', (2, 13), "cannot remove card '5': it is not declared"),
    ],
)
def test_one_card_of_a_run_is_not_a_declaration_and_the_error_names_the_run(tmp_path, variant, where, message):
    write(tmp_path, {"base.ludus": GAME})
    path = write(tmp_path, {"variant.ludus": 'extends "base.ludus"\n' + variant})
    [(line, column, said, hint)] = problems(path)
    assert ((line, column), said) == (where, message)
    assert hint == (
        "'5' is one of the cards of the run \"{n}\" in base.ludus on line 11: override or remove "
        "the whole run, by that quoted name, or change the values that end it"
    )


HEAD = 'game "Bad"\nplayers 2\nvalue lowest = 3\nvalue seated = players + 1\nkind Card:\n    number: number\n'
TAIL = "\nflow:\n    win first(seats)\n"


@pytest.mark.parametrize(
    ("run", "expected"),
    [
        (
            'card "Card" for n in 1 to 3: number n',
            (
                7,
                6,
                "this run names two cards 'Card': for n = 1 and for n = 2",
                "put {n} in the quoted name, so that each card of the run has its own",
            ),
        ),
        (
            'card "C{n - n}" for n in 4 to 5: number n',
            (
                7,
                6,
                "this run names two cards 'C0': for n = 4 and for n = 5",
                "put {n} in the quoted name, so that each card of the run has its own",
            ),
        ),
        (
            'card "C{n}" for n in 5 to 1: number n',
            (
                7,
                13,
                "the run goes from 5 to 1: its first number must not be above its last",
                "write the lower number first, as in `for n in 3 to 35`",
            ),
        ),
        (
            'card "C{n}" for n in 1 to 10001: number n',
            (7, 13, "a run makes at most 10,000 cards, and this one would make 10,001 (1 to 10,001)", None),
        ),
        (
            'card "C{n}" for n in lowst to 9: number n',
            (7, 22, "'lowst' is not a value: a run's ends are numbers, or values set to one", "did you mean 'lowest'?"),
        ),
        (
            'card "C{n}" for n in 1 to seated: number n',
            (
                7,
                27,
                "value 'seated' is not a number written in the rules, so it cannot end the run of cards \"C{n}\" "
                "(its cards are made before a match starts)",
                "a run's ends are numbers, or values set to a number written in the rules (+, - and * of numbers and such "
                "values); not the number of players, nor anything of the state",
            ),
        ),
        (
            'card "C{size(seats)}" for n in 1 to 3: number n',
            (
                7,
                9,
                "a hole in the name of a run is worked out before a match starts, and this one cannot be",
                "a hole there holds numbers, the run's own name, values set to a number, and +, - and * of them",
            ),
        ),
        ('card "C{n}" for n in 1 to 3: number m', (7, 37, "unknown name 'm'", None)),
        (
            'card "C{n}" for n in 1 to 3 is Card',
            (7, 6, "the cards of the run \"C{n}\" do not set 'number', which kind 'Card' requires", None),
        ),
        (
            'card "{n}" for n in 1 to 3: number n\ncard "2": number 2',
            (8, 6, "card '2' is already declared on line 7", None),
        ),
        # a card of a run that another card names already: at the run's quoted name, which made
        # it, not at the number `1` of `1 to 3` that the card's name '1' would be found as
        (
            'card "1": number 1\ncard "{n}" for n in 1 to 3: number n',
            (8, 6, "card '1' is already declared on line 7", None),
        ),
        (
            'zone C2\ncard "C{n}" for n in 1 to 3: number n',
            (8, 6, "'C2' is already declared on line 7, as a zone",
             "cards, pieces, spaces, kinds and every other declaration share one set of names: rename one of the two"),
        ),
    ],
)
def test_a_faulty_run_is_one_located_error(tmp_path, run, expected):
    path = write(tmp_path, {"bad.ludus": HEAD + run + "\n" + TAIL})
    errors = [p for p in problems(path) if "never used" not in p[2]]
    assert errors == [expected]


def test_fmt_writes_a_run_as_any_card_and_keeps_its_meaning():
    messy = (
        'game "F"\nplayers 2\nkind Card:\n    number: number\ncard  "{n}"  for n in 1  to 3 :number n*2\n'
        'card "X{n}" for n in 1 to 2 is Card:\n  copies n\n  number -n\nflow:\n    win first(seats)\n'
    )
    neat = format_text(messy)
    assert neat == (
        'game "F"\nplayers 2\n\nkind Card:\n    number: number\n\ncard "{n}" for n in 1 to 3: number n * 2\n'
        '\ncard "X{n}" for n in 1 to 2 is Card:\n    copies n\n    number -n\n\nflow:\n    win first(seats)\n'
    )
    assert format_text(neat) == neat


def test_no_thanks_declares_its_33_cards_in_one_run():
    text = (EXAMPLES / "no-thanks.ludus").read_text(encoding="utf-8")
    assert 'card "{n}" for n in lowest to highest: number n' in text
    assert card_names(EXAMPLES / "no-thanks.ludus") == [str(k) for k in range(3, 36)]
