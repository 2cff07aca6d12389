"""Loading stays in step with the size of a game: a file of n declarations costs about n steps.

The merge of declarations once rebuilt its whole index for each declaration, and every
diagnostic split its file into lines again, so a game of 20,000 counters took a minute to check.
These tests count operations (never time), and hold the merge to the plain definition it replaced.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

from ludus.language.source import Sources, Span, _find_word
from ludus.pipeline import analyse


def counters_game(tmp_path: Path, count: int) -> Path:
    path = tmp_path / f"counters{count}.ludus"
    path.write_text('game "D"\nplayers 2\n' + "".join(f"counter c{i}\n" for i in range(count))
                    + 'flow:\n    log "x"\n    end game\n', encoding="utf-8")
    return path


class CountingText(str):
    """A file's text that counts the characters split into lines."""

    split = 0

    def splitlines(self, *args, **kwargs):
        CountingText.split += len(self)
        return super().splitlines(*args, **kwargs)


def characters_split(monkeypatch, path: Path) -> int:
    real = Sources.add
    monkeypatch.setattr(Sources, "add", lambda self, name, text: real(self, name, CountingText(text)))
    CountingText.split = 0
    diagnostics, _checked, _sources = analyse(path)
    monkeypatch.setattr(Sources, "add", real)
    # one "never used" warning per counter, each shown with its line
    assert sum(d.message.startswith("counter") for d in diagnostics) >= 400
    return CountingText.split


def test_locating_many_diagnostics_splits_the_file_a_bounded_number_of_times(tmp_path, monkeypatch):
    small = characters_split(monkeypatch, counters_game(tmp_path, 400))
    large = characters_split(monkeypatch, counters_game(tmp_path, 800))
    assert large <= 2.2 * small, (small, large)


def test_a_changed_text_is_split_again():
    sources = Sources()
    sources.add("a.ludus", "one\ntwo\n")
    assert sources.line("a.ludus", 2) == "two"
    sources.add("a.ludus", "three\nfour\n")
    assert sources.line("a.ludus", 2) == "four"
    sources.texts["a.ludus"] = "five\nsix\n"
    assert sources.line("a.ludus", 1) == "five"


def test_a_name_is_found_where_the_regular_expression_it_replaced_finds_it():
    """`locate` once compiled a pattern per name; str.find must agree with it, edges included."""
    rng = random.Random(0)
    alphabet = 'ab_"1 .xé\t'
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3)))
        start = rng.randint(-2, len(text) + 2)
        m = re.compile(r"(?<![A-Za-z0-9_\"])" + re.escape(word) + r"(?![A-Za-z0-9_])").search(text, start)
        assert _find_word(text, word, start) == (m.start() if m else -1), (text, word, start)


def test_locate_points_at_the_name():
    sources = Sources()
    sources.add("a.ludus", 'counter ab, b\nvalue x_b = b2 + "b"\n')
    assert sources.locate(Span("a.ludus", 1, 1, 1, 14), "b") == Span("a.ludus", 1, 13, 1, 14)
    assert sources.locate(Span("a.ludus", 2, 1, 2, 20), "b") == Span("a.ludus", 2, 18, 2, 21)  # quoted first
    assert sources.locate(Span("a.ludus", 1, 1, 2, 20), "x_b") == Span("a.ludus", 2, 7, 2, 10)
    assert sources.locate(Span("a.ludus", 1, 10, 1, 14), "ab") == Span("a.ludus", 1, 10, 1, 14)  # not there
