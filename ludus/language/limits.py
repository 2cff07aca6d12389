"""The language's limits, in one place. Every one gives a located error, never a crash or a hang.

A game that meets one of these is almost certainly a typo or a runaway rule; the numbers are far
above what any published game needs. docs/language.md lists them for designers.
"""

from __future__ import annotations

# Numbers are whole numbers between -MAX_NUMBER and MAX_NUMBER: a literal has at most 15 digits,
# and a rule that computes or stores a number outside the range stops with an error.
MAX_NUMBER = 10**15 - 1
MAX_DIGITS = 15

# How deeply expressions and blocks may nest. A chain `a and b and c` counts one level per
# operator, since it nests like parentheses once built.
MAX_NESTING = 100

MAX_PLAYERS = 64  # seats in a match


def player_range(low: int, high: int) -> str:
    """The player counts a game allows, as its messages say them: "2 to 4", or "2"."""
    return f"{low}" + (f" to {high}" if high != low else "")


MAX_COPIES = 10_000  # copies of one card
MAX_RUN = 10_000  # cards of one run (`card "{n}" for n in 1 to N`), each with its copies
MAX_TRACK_SPACES = 100_000  # spaces on one track
MAX_DIE_SIDES = 1_000_000  # faces of one die
MAX_GRID_COLUMNS = 26  # columns of a grid board, lettered a to z
MAX_GRID_ROWS = 99  # rows of a grid board
MAX_LIST = 1_000_000  # elements in one list built at run time (`1 to N`, `repeat N times`, ...)
MAX_TEXT = 100_000  # characters in one text built at run time (holes, `+`)
MAX_OPTIONS = 10_000  # options of one decision (`choose n from 1 to N`, `distribute N among ...`)
# values built (list elements, loop turns) by the rules between two decisions
MAX_WORK = 5_000_000

MAX_FILE_BYTES = 4 * 1024 * 1024  # a game file, an included file, a replay, a saved match
MAX_PATH = 4096  # characters in a file path


def number_in_range(value: int) -> bool:
    return -MAX_NUMBER <= value <= MAX_NUMBER


def whole_number(text: str, signed: bool = False) -> int | None:
    """A number typed by a person (a move number, a count, a seed), or None when it is not one.

    Only ASCII digits count: `str.isdigit` also accepts '²' and other digits that `int` refuses,
    and a number longer than MAX_DIGITS is not a number of the language.
    """
    body = text[1:] if signed and text.startswith("-") else text
    if not body or len(body) > MAX_DIGITS or not body.isascii() or not body.isdigit():
        return None
    return int(text)
