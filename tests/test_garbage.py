"""No input makes ludus raise: garbage and truncated programs give diagnostics, never a traceback."""

from __future__ import annotations

import random

import pytest

import ludus
from ludus.language.source import render
from tests.helpers import EXAMPLES

MARKET = (EXAMPLES / "market-town.ludus").read_text(encoding="utf-8")


def analyse_text(tmp_path, text: str) -> list:
    path = tmp_path / "bad.ludus"
    path.write_text(text, encoding="utf-8", errors="surrogatepass")
    diags, _checked, sources = ludus.analyse(path)
    for d in diags:
        text = render(d, sources)
        assert text.startswith(f"{d.span}: {d.severity}: ") and "Traceback" not in text, text
    return diags


def garbage(seed: int) -> str:
    rng = random.Random(seed)
    raw = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 400)))
    return raw.decode("utf-8", errors="replace")


def ludus_soup(seed: int) -> str:
    """Words, symbols and indentation of the language, shuffled: nearly programs."""
    rng = random.Random(seed)
    words = MARKET.replace("\n", " \n ").split(" ")
    out = []
    for _ in range(rng.randrange(5, 120)):
        out.append(rng.choice(words + ["(", ")", "[", "]", ":", "\n    ", "\n", '"', "{", "}", "'", "\t", "\\"]))
    return " ".join(out)


@pytest.mark.parametrize("seed", range(30))
def test_random_bytes_give_diagnostics(tmp_path, seed):
    diags = analyse_text(tmp_path, garbage(seed))
    assert any(d.severity == "error" for d in diags)


@pytest.mark.parametrize("seed", range(30))
def test_shuffled_words_never_raise(tmp_path, seed):
    analyse_text(tmp_path, ludus_soup(seed))


@pytest.mark.parametrize("cut", range(40))
def test_every_truncation_of_the_example_gives_diagnostics(tmp_path, cut):
    end = len(MARKET) * cut // 40
    diags = analyse_text(tmp_path, MARKET[:end])
    if "\nflow:" not in MARKET[:end]:
        # no flow yet: always reported, never raised
        assert any(d.severity == "error" for d in diags)


def test_invalid_utf8_is_a_diagnostic(tmp_path):
    path = tmp_path / "latin1.ludus"
    path.write_bytes(b'game "Caf\xe9"\n')
    diags, _c, _s = ludus.analyse(path)
    assert [d.severity for d in diags] == ["error"]
    assert diags[0].message.startswith("cannot read")


def test_load_raises_only_ludus_error(tmp_path):
    path = tmp_path / "bad.ludus"
    path.write_text("game \"x\"\nflow:\n    win 3 +\n", encoding="utf-8")
    with pytest.raises(ludus.LudusError) as err:
        ludus.load(path)
    assert "bad.ludus:3" in str(err.value)
