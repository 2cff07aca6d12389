"""Every example in the docs parses; every whole-game example also checks clean."""

from __future__ import annotations

import re

import pytest

import ludus
from ludus.language.parser import parse
from ludus.language.source import render_all
from tests.helpers import ROOT

DOCS = sorted((ROOT / "docs").glob("*.md"))
BLOCK = re.compile(r"^```(ludus(?:-decl|-stmt|-expr)?)\n(.*?)^```", re.S | re.M)
START = {"ludus": "start", "ludus-decl": "start", "ludus-stmt": "statements", "ludus-expr": "expr"}


def blocks():
    for path in DOCS:
        text = path.read_text(encoding="utf-8")
        for m in BLOCK.finditer(text):
            line = text[: m.start()].count("\n") + 1
            yield pytest.param(path, line, m.group(1), m.group(2), id=f"{path.name}:{line}")


@pytest.mark.parametrize(("path", "line", "kind", "code"), list(blocks()))
def test_doc_example_parses(path, line, kind, code):
    parse(code, f"{path.name}:{line}", start=START[kind])


@pytest.mark.parametrize(("path", "line", "kind", "code"), [p for p in blocks() if p.values[2] == "ludus"])
def test_doc_whole_game_checks_clean(path, line, kind, code, tmp_path):
    file = tmp_path / f"example-{line}.ludus"
    file.write_text(code, encoding="utf-8")
    diags, _checked, sources = ludus.analyse(file)
    errors = [d for d in diags if d.severity == "error"]
    assert not errors, f"{path.name}:{line}\n" + render_all(errors, sources)
def test_language_reference_has_every_hard_rule_example():
    text = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = text.split("## The hard rules of the four games", 1)[1]
    games = BLOCK.findall(section)
    assert len([g for g in games if g[0] == "ludus"]) >= 10


@pytest.mark.parametrize(("path", "line", "kind", "code"), [p for p in blocks() if p.values[2] == "ludus"])
def test_doc_whole_game_plays_random_matches_without_errors(path, line, kind, code, tmp_path):
    from ludus.simulation import simulate

    file = tmp_path / f"example-{line}.ludus"
    file.write_text(code, encoding="utf-8")
    game = ludus.load(file)
    report = simulate(game, 25, seed=line)
    assert not report.errors, report.errors[:3]
    assert report.unfinished == 0
    assert len(report.lengths) == 25


def test_the_testing_guides_card_snapshot_example_runs_from_any_folder(tmp_path):
    """docs/testing.md's Python example, saved beside a copy of the game, run from elsewhere."""
    import shutil
    import subprocess
    import sys

    text = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    code = next(m.group(1) for m in re.finditer(r"^```python\n(.*?)^```", text, re.S | re.M) if "test_every_card" in m.group(1))
    where = tmp_path / "mygame"
    where.mkdir()
    shutil.copy(ROOT / "examples" / "market-town.ludus", where / "market-town.ludus")
    (where / "test_cards.py").write_text(code, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "mygame/test_cards.py",
                          "--snapshot-update"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert re.search(r"\d+ snapshots? generated", run.stdout)


@pytest.mark.parametrize(("path", "line", "kind", "code"),
                         [p for p in blocks() if p.values[2] == "ludus" and re.search(r'^test "', p.values[3], re.M)])
def test_doc_examples_test_blocks_pass(path, line, kind, code, tmp_path):
    """A whole-game example that carries `test` blocks shows behaviour: each block must pass."""
    from ludus.testing.blocks import own_tests, run_test_decl

    file = tmp_path / f"example-{line}.ludus"
    file.write_text(code, encoding="utf-8")
    game = ludus.load(file)
    decls = own_tests(game, file)
    assert decls

    def no_snapshots(effect, name, span):
        pytest.fail(f"{path.name}:{line}: a doc example takes no snapshots")

    for decl in decls:
        run_test_decl(game, decl, no_snapshots)


@pytest.mark.parametrize(("path", "line", "kind", "code"),
                         [p for p in blocks() if p.values[3].startswith('extends "../games/')])
def test_doc_variant_examples_check_clean(path, line, kind, code, tmp_path):
    """A variant in the docs extends a shipped game: it must check clean against it, not only parse."""
    file = tmp_path / f"variant-{line}.ludus"
    file.write_text(code.replace('extends "../games/', f'extends "{(ROOT / "games").as_posix()}/'), encoding="utf-8")
    diags, _checked, sources = ludus.analyse(file)
    errors = [d for d in diags if d.severity == "error"]
    assert not errors, f"{path.name}:{line}\n" + render_all(errors, sources)


def test_removing_something_the_base_uses_is_reported_at_the_remove_line(tmp_path):
    file = tmp_path / "variant.ludus"
    file.write_text(f'extends "{(ROOT / "games" / "uprising.ludus").as_posix()}"\nremove action Slay\n', encoding="utf-8")
    diags, _checked, _sources = ludus.analyse(file)
    [d] = [d for d in diags if d.severity == "error"]
    assert d.span.path == str(file) and d.span.line == 2
    assert d.message.startswith("'remove action Slay' leaves it used in the base game, at ") and "uprising.ludus:" in d.message


def test_the_repl_guide_names_every_alias_in_its_command_table():
    # `q` and `h` were taken by the REPL and in no line of docs/repl.md
    from ludus.repl.session import ALIASES

    text = (ROOT / "docs" / "repl.md").read_text(encoding="utf-8")
    rows = {line.split(" | ")[0]: line for line in text.splitlines() if line.startswith("| `")}
    for alias, command in ALIASES.items():
        row = next(line for head, line in rows.items() if head.startswith(f"| `{command}"))
        assert re.search(rf"`{re.escape(alias)}[` ]", row), (alias, row)  # `h`, not the `h` of `help`
