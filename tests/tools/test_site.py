"""The documentation site: `mkdocs build --strict` passes, every page is in it, code is highlighted
by ludus's lexers, and each game's page is written from that game file's header."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from tests.helpers import ROOT

pytest.importorskip("mkdocs", reason="mkdocs is not installed: pip install -e '.[docs]' (part of dev)")
pytest.importorskip("material", reason="mkdocs-material is not installed: pip install -e '.[docs]' (part of dev)")

DOCS = ROOT / "docs"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    out = tmp_path_factory.mktemp("site")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file",
                           str(ROOT / "mkdocs.yml"), "--site-dir", str(out)],
                          capture_output=True, text=True, cwd=ROOT, env=env, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "WARNING" not in done.stderr, done.stderr
    return out


def hooks():
    sys.path.insert(0, str(DOCS))
    try:
        import hooks as module
    finally:
        sys.path.remove(str(DOCS))
    return module


def test_every_docs_page_is_in_the_nav():
    config = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    listed = set(re.findall(r":\s*([\w-]+\.md)", config))
    assert {p.name for p in DOCS.glob("*.md")} == listed


def test_the_strict_build_writes_every_page(site):
    for page in DOCS.glob("*.md"):
        name = "index.html" if page.stem == "index" else f"{page.stem}/index.html"
        assert (site / name).is_file(), page


def test_ludus_and_replay_code_is_highlighted_by_the_lexers(site):
    language = (site / "language" / "index.html").read_text(encoding="utf-8")
    for fence in ("ludus", "ludus-decl", "ludus-stmt"):
        assert f'class="language-{fence} highlight"' in language
    block = language.split('class="language-ludus-decl highlight"', 1)[1].split("</code>", 1)[0]
    assert re.search(r'<span class="k[a-z]?">(game|players|seats|counter|value)</span>', block), block[:400]
    replays = (site / "replays" / "index.html").read_text(encoding="utf-8")
    block = replays.split('class="language-replay highlight"', 1)[1].split("</code>", 1)[0]
    assert '<span class="k">expect</span>' in block and '<span class="c1">' in block


def test_each_game_has_a_page_from_its_header(site):
    module = hooks()
    games = module.game_files()
    assert {p.stem for p in games} >= {"uprising", "votes-for-women", "stonewall-uprising",
                                       "stonewall-uprising-solo", "gateway-uprising", "market-town", "connect-four"}
    for game in games:
        html = (site / "games" / game.stem / "index.html").read_text(encoding="utf-8")
        first = module.header(game.read_text(encoding="utf-8")).splitlines()[0]
        assert first.split(":")[0].split("(")[0].strip() in html, game
    uprising = (site / "games" / "uprising" / "index.html").read_text(encoding="utf-8")
    # decision 1 of the file's header, as a list item, and the file itself, highlighted
    assert re.search(r"<li>\s*The map is a three-by-three grid of nine regions", uprising)
    assert '<span class="kd">define</span>' in uprising


def test_a_games_page_follows_its_header(tmp_path, monkeypatch):
    """Change a game's header and its page changes: the page is generated, not copied."""
    module = hooks()
    game = tmp_path / "games" / "toy.ludus"
    game.parent.mkdir()
    game.write_text('# Toy: a test game.\n#\n# Decisions:\n# - Ties go to Red.\n\ngame "Toy"\nplayers 2\n'
                    "seats Red, Blue\nflow:\n    win Red\n", encoding="utf-8")
    monkeypatch.setattr(module, "ROOT", tmp_path)
    page = module.page(game)
    assert page.startswith("# Toy\n")
    assert "| players | 2 |" in page and "| seats | Red, Blue |" in page
    assert "Decisions:\n\n- Ties go to Red." in page
    assert "    ```ludus\n    # Toy: a test game." in page
