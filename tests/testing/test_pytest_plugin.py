"""The pytest plugin: fixtures, `test` blocks collected from .ludus files, snapshots written,
compared and failing readably; and `ludus test`, which runs the same blocks without pytest."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from ludus.cli import main
from tests.helpers import EXAMPLES, no_crash


def pytest_in(where: Path, *args: str) -> subprocess.CompletedProcess:
    """pytest in a fresh process, as CI runs it: the plugin comes from the installed entry point."""
    return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "--color=no", *args],
                          cwd=where, capture_output=True, text=True, timeout=120)


def crash_free(report: str) -> bool:
    """Whether no Python exception got into pytest's `report` (its stdout). pytest draws an item's
    exception as the code that raised it with `E   ` lines, without the word Traceback (at its
    default --tb), and an exception in a hook as INTERNALERROR lines; a ludus failure is neither."""
    return re.search(r"^E   |INTERNALERROR|Traceback", report, re.M) is None


def market_town_copy(tmp_path: Path) -> Path:
    for name in ("market-town.ludus", "market-town.tests.ludus"):
        shutil.copy(EXAMPLES / name, tmp_path / name)
    shutil.copytree(EXAMPLES / "__snapshots__" / "market-town.tests", tmp_path / "__snapshots__" / "market-town.tests")
    return tmp_path


def test_a_changed_number_in_a_card_effect_fails_its_snapshot_with_a_readable_diff(tmp_path):
    where = market_town_copy(tmp_path)
    game = where / "market-town.ludus"
    text = game.read_text(encoding="utf-8")
    assert "gain omen - 2 coins" in text
    game.write_text(text.replace("gain omen - 2 coins", "gain omen - 1 coins"), encoding="utf-8")
    run = pytest_in(where, "market-town.tests.ludus")
    assert run.returncode == 1
    out = run.stdout
    assert "FAILED market-town.tests.ludus::Fortune Teller pays on a 5" in out
    assert "market-town.tests.ludus:46:12: error: expected coins of Amber == 3" in out  # its expect line
    assert "    coins of Amber is 4" in out
    assert "1 failed, 10 passed" in out


def stored(where: Path) -> dict[str, str]:
    folder = where / "__snapshots__" / "market-town.tests"
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir())}


def test_deselected_test_blocks_keep_their_snapshots_on_update(tmp_path):
    where = market_town_copy(tmp_path)
    before = stored(where)
    assert len(before) == 10
    run = pytest_in(where, ".", "-k", "Fortune", "--snapshot-update")
    assert run.returncode == 0, run.stdout
    assert "2 passed, 9 deselected" in run.stdout
    assert "deleted" not in run.stdout.lower() and "unused" not in run.stdout
    assert stored(where) == before
    plain = pytest_in(where, ".", "-k", "Fortune")
    assert plain.returncode == 0 and "2 passed, 9 deselected" in plain.stdout, plain.stdout
    assert "unused" not in plain.stdout  # and a plain -k run reports none as unused


def test_a_snapshot_whose_test_block_is_gone_is_reported_unused(tmp_path):
    where = market_town_copy(tmp_path)
    folder = where / "__snapshots__" / "market-town.tests"
    (folder / "A test that was deleted.txt").write_text("old effect\n", encoding="utf-8")
    run = pytest_in(where, ".")
    assert ("unused __snapshots__/market-town.tests/A test that was deleted.txt: no test of market-town.tests.ludus "
            "stores a snapshot there (delete it, or run `pytest --snapshot-update`)\n") in run.stdout, run.stdout
    assert "1 snapshot of test blocks unused." in run.stdout
    assert run.returncode == 1 and "11 passed" in run.stdout  # as syrupy fails a run for an unused snapshot
    assert pytest_in(where, ".", "--snapshot-warn-unused").returncode == 0
    kept = pytest_in(where, ".", "--snapshot-update", "--snapshot-no-cleanup")
    assert kept.returncode == 0 and "1 snapshot of test blocks unused." in kept.stdout, kept.stdout
    update = pytest_in(where, ".", "--snapshot-update")
    assert ("deleted __snapshots__/market-town.tests/A test that was deleted.txt: no test of market-town.tests.ludus "
            "stores a snapshot there\n1 unused snapshot of test blocks deleted.\n") in update.stdout, update.stdout
    assert update.returncode == 0
    assert not (folder / "A test that was deleted.txt").exists() and len(stored(where)) == 10


def test_a_failed_expect_still_shows_the_effect_diff_and_update_never_deletes(tmp_path):
    where = market_town_copy(tmp_path)
    game = where / "market-town.ludus"
    game.write_text(game.read_text(encoding="utf-8").replace("gain omen - 2 coins", "gain omen - 1 coins"), encoding="utf-8")
    out = pytest_in(where, "market-town.tests.ludus").stdout
    assert "error: expected coins of Amber == 3" in out  # the expect that failed first
    assert "    -   counter coins of Amber: 0 -> 3\n    +   counter coins of Amber: 0 -> 4\n" in out  # and the diff
    before = stored(where)
    update = pytest_in(where, ".", "--snapshot-update")
    assert "deleted" not in update.stdout.lower()
    assert stored(where) == before  # the failing test's snapshot is still there, as it was
    assert "1 failed, 10 passed" in update.stdout  # the expect still fails until it is corrected


def failing_and_changed_copy(tmp_path: Path) -> tuple[Path, dict[str, bytes]]:
    """Market Town with a test that fails (its expect is wrong) and whose effect changed, a test
    whose lines fail after its snapshot line, and two passing tests whose snapshots are out of
    date (one edited by hand, one not stored); and the stored snapshots' bytes."""
    where = market_town_copy(tmp_path)
    tests = where / "market-town.tests.ludus"
    text = tests.read_text(encoding="utf-8")
    cheers = ('test "Street Musician cheers the town":\n    resolve "Street Musician" for Amber\n'
              '    expect mood == 1\n')
    riot = "    expect mood == 0\n    snapshot\n\ntest \"Fortune Teller pays on a 5\""
    assert cheers in text and riot in text
    text = text.replace(cheers, 'test "Street Musician cheers the town":\n    given set mood to 1\n'
                                '    resolve "Street Musician" for Amber\n    expect mood == 5\n')
    # a step that cannot run, after the snapshot line: the effect was taken, the test still fails
    text = text.replace(riot, riot.replace("    snapshot\n", '    snapshot\n    do "buy the moon"\n'))
    tests.write_text(text, encoding="utf-8")
    folder = where / "__snapshots__" / "market-town.tests"
    (folder / "Tax Collector starts a riot.txt").write_text("a riot of old\n", encoding="utf-8")
    (folder / "Fortune Teller pays on a 5.txt").write_text("an old effect\n", encoding="utf-8")
    (folder / "Town Crier builds a stall where its player chooses.txt").unlink()
    return where, {p.name: p.read_bytes() for p in folder.iterdir()}


def test_ludus_test_update_never_writes_the_snapshots_of_a_test_that_fails(tmp_path):
    where, before = failing_and_changed_copy(tmp_path)
    folder = where / "__snapshots__" / "market-town.tests"
    (folder / "Street Musician cheers the town.txt").unlink()  # a failing test's new snapshot: not written
    del before["Street Musician cheers the town.txt"]
    run = CliRunner().invoke(main, ["test", str(where / "market-town.tests.ludus"), "--update"])
    assert run.exit_code == 1 and run.output.endswith("9 passed, 2 failed\n"), run.output
    musician, riot, teller, crier = (folder / f"{name}.txt" for name in (
        "Street Musician cheers the town", "Tax Collector starts a riot", "Fortune Teller pays on a 5",
        "Town Crier builds a stall where its player chooses"))
    assert f"market-town.tests.ludus:19:5: not written {musician}: the test failed" in run.output
    assert f"market-town.tests.ludus:41:5: not updated {riot}: the test failed\n" in run.output
    assert "      - a riot of old\n" in run.output  # with the diff that was not accepted
    assert f"     updated {teller}\n" in run.output and f"     wrote {crier}\n" in run.output
    after = {p.name: p.read_bytes() for p in folder.iterdir()}
    assert not musician.exists() and after[riot.name] == before[riot.name]
    # the tests that passed are updated, and only they
    assert {name for name in after if after[name] != before.get(name)} == {teller.name, crier.name}
    assert after[teller.name] == (EXAMPLES / "__snapshots__" / "market-town.tests" / teller.name).read_bytes()
    again = CliRunner().invoke(main, ["test", str(where / "market-town.tests.ludus")])
    assert again.output.endswith("9 passed, 2 failed\n"), again.output


def test_pytest_snapshot_update_never_writes_the_snapshots_of_a_test_that_fails(tmp_path):
    where, before = failing_and_changed_copy(tmp_path)
    folder = where / "__snapshots__" / "market-town.tests"
    update = pytest_in(where, "market-town.tests.ludus", "--snapshot-update")
    assert update.returncode == 1 and "2 failed, 9 passed" in update.stdout, update.stdout
    after = {p.name: p.read_bytes() for p in folder.iterdir()}
    changed = {name for name in after if after[name] != before.get(name)}
    assert changed == {"Fortune Teller pays on a 5.txt", "Town Crier builds a stall where its player chooses.txt"}
    for name in changed:  # as the examples store them: the passing tests' effects now
        assert after[name] == (EXAMPLES / "__snapshots__" / "market-town.tests" / name).read_bytes()
    assert ("market-town.tests.ludus:19:5: the snapshot of “Street Musician cheers the town” changed "
            "(not updated: the test failed)\n") in update.stdout
    assert ("market-town.tests.ludus:41:5: the snapshot of “Tax Collector starts a riot” changed "
            "(not updated: the test failed)\n    (- stored snapshot, + effect now)\n    - a riot of old\n") in update.stdout
    assert "market-town.tests.ludus:42:5: error: 'buy the moon' is not a legal move now" in update.stdout
    # a failing test's snapshot that is not stored yet is not written either, in either mode
    (folder / "Street Musician cheers the town.txt").unlink()
    for flag in ("--snapshot-update", "--snapshot-update-new-only"):
        run = pytest_in(where, "market-town.tests.ludus", flag)
        assert ("market-town.tests.ludus:19:5: the snapshot of “Street Musician cheers the town” is not stored "
                "yet (not written: the test failed)") in run.stdout, run.stdout
        assert not (folder / "Street Musician cheers the town.txt").exists()
        assert "deleted" not in run.stdout.lower()


def test_a_block_that_fails_before_its_snapshot_keeps_it(tmp_path):
    where = market_town_copy(tmp_path)
    tests = where / "market-town.tests.ludus"
    text = tests.read_text(encoding="utf-8")
    broken = text.replace("    force d6 = 5\n", "    force d6 = 5\n    do \"buy the moon\"\n", 1)
    assert broken != text
    tests.write_text(broken, encoding="utf-8")
    before = stored(where)
    update = pytest_in(where, ".", "--snapshot-update")
    assert "1 failed, 10 passed" in update.stdout
    assert stored(where) == before
    # a test file that no longer loads at all keeps every snapshot too
    tests.write_text(text + "\ntest broken\n", encoding="utf-8")
    update = pytest_in(where, ".", "--snapshot-update")
    assert "FAILED market-town.tests.ludus::load" in update.stdout
    assert stored(where) == before


def test_a_snapshot_diff_shows_the_stored_and_the_new_lines(tmp_path):
    where = market_town_copy(tmp_path)
    tests = where / "market-town.tests.ludus"
    # the same change, caught by the snapshot alone (no `expect` line)
    tests.write_text(tests.read_text(encoding="utf-8").replace("    expect coins of Amber == 3\n", ""), encoding="utf-8")
    game = where / "market-town.ludus"
    game.write_text(game.read_text(encoding="utf-8").replace("gain omen - 2 coins", "gain omen - 1 coins"), encoding="utf-8")
    out = pytest_in(where, "market-town.tests.ludus").stdout
    assert "the snapshot of “Fortune Teller pays on a 5” changed (run `pytest --snapshot-update` to accept it)" in out
    assert "    -   counter coins of Amber: 0 -> 3\n    +   counter coins of Amber: 0 -> 4\n" in out
    assert "\x1b[" not in out  # plain text, no colour codes


def test_snapshot_update_writes_new_snapshots_and_then_they_pass(tmp_path):
    shutil.copy(EXAMPLES / "market-town.ludus", tmp_path / "market-town.ludus")
    (tmp_path / "t.ludus").write_text(
        'extends "market-town.ludus"\n\n'
        'test "crier":\n    resolve "Town Crier" for Amber\n    snapshot "asked"\n    answer "Hill"\n    snapshot\n',
        encoding="utf-8")
    first = pytest_in(tmp_path, "t.ludus")
    assert first.returncode == 1 and "is not stored yet (run `pytest --snapshot-update` to write it)" in first.stdout
    assert "has no new line at its end" not in first.stdout  # nothing is stored to have one
    update = pytest_in(tmp_path, "t.ludus", "--snapshot-update")
    assert update.returncode == 0, update.stdout
    stored = sorted(p.name for p in (tmp_path / "__snapshots__" / "t").iterdir())
    assert stored == ["crier.1.txt", "crier[asked].txt"]  # the second snapshot line of the test
    assert (tmp_path / "__snapshots__" / "t" / "crier.1.txt").read_text(encoding="utf-8") == (
        "Town Crier, played by Amber\n"
        "decisions:\n  Amber: Which quarter gets the stall? -> Hill  (options: Docks, Square, Hill)\n"
        "log:\n  Amber praises the Hill\n"
        "changes:\n  token Amber Stall at Hill: 0 -> 1\n")
    again = pytest_in(tmp_path, "t.ludus")
    assert again.returncode == 0 and "2 snapshots passed" in again.stdout
    assert CliRunner().invoke(main, ["test", str(tmp_path / "t.ludus")]).exit_code == 0


def test_fixtures_snapshot_effects_from_python(tmp_path):
    shutil.copy(EXAMPLES / "market-town.ludus", tmp_path / "market-town.ludus")
    (tmp_path / "test_cards.py").write_text(
        "def test_crier(ludus_position, effect_snapshot):\n"
        "    pos = ludus_position('market-town.ludus', players=2)\n"
        "    pos.resolve('Town Crier', 'Basil')\n"
        "    pos.answer('Docks')\n"
        "    pos.expect('Stall of Basil at Docks == 1')\n"
        "    assert pos.effect() == effect_snapshot\n", encoding="utf-8")
    assert pytest_in(tmp_path, "--snapshot-update").returncode == 0
    stored = tmp_path / "__snapshots__" / "test_cards" / "test_crier.txt"
    assert "token Basil Stall at Docks: 0 -> 1" in stored.read_text(encoding="utf-8")
    run = pytest_in(tmp_path)
    assert run.returncode == 0 and "1 snapshot passed" in run.stdout


def test_a_game_that_does_not_load_fails_with_its_diagnostics(tmp_path):
    (tmp_path / "broken.ludus").write_text('game "Broken"\nplayers 2\ncounter coins per seat\n\n'
                                           'test "t":\n    expect coins of P1 == zero\n', encoding="utf-8")
    out = pytest_in(tmp_path).stdout
    assert "broken.ludus:6:" in out and crash_free(out)


def test_ludus_test_runs_the_blocks_against_the_stored_snapshots(tmp_path):
    where = market_town_copy(tmp_path)
    runner = CliRunner()
    ok = runner.invoke(main, ["test", str(where / "market-town.tests.ludus")])
    assert ok.exit_code == 0, ok.output
    assert ok.output.endswith("11 passed, 0 failed\n")
    game = where / "market-town.ludus"
    game.write_text(game.read_text(encoding="utf-8").replace("gain omen - 2 coins", "gain omen - 1 coins"), encoding="utf-8")
    bad = runner.invoke(main, ["test", str(where / "market-town.tests.ludus")])
    assert bad.exit_code == 1
    assert "FAIL " in bad.output and "Fortune Teller pays on a 5" in bad.output
    assert "expected coins of Amber == 3" in bad.output and "1 failed" in bad.output


def test_ludus_test_filters_with_k_and_update_writes_without_deleting(tmp_path):
    where = market_town_copy(tmp_path)
    game = where / "market-town.ludus"
    game.write_text(game.read_text(encoding="utf-8").replace("gain omen - 2 coins", "gain omen - 1 coins"), encoding="utf-8")
    tests = str(where / "market-town.tests.ludus")
    only = CliRunner().invoke(main, ["test", tests, "-k", "FORTUNE"])
    assert only.exit_code == 1 and "1 passed, 1 failed" in only.output  # the two Fortune Teller tests
    # the change was meant: its test says so, and then passes with the new effect
    file = where / "market-town.tests.ludus"
    file.write_text(file.read_text(encoding="utf-8").replace("coins of Amber == 3", "coins of Amber == 4"), encoding="utf-8")
    before = stored(where)
    updated = CliRunner().invoke(main, ["test", tests, "-k", "fortune", "--update"])
    assert "updated" in updated.output
    after = stored(where)
    assert set(after) == set(before)  # nothing deleted, nothing else touched
    assert [name for name in after if after[name] != before[name]] == ["Fortune Teller pays on a 5.txt"]
    assert "0 -> 4" in after["Fortune Teller pays on a 5.txt"]



def test_a_test_named_with_double_colons_reads_the_snapshot_pytest_wrote(tmp_path):
    shutil.copy(EXAMPLES / "market-town.ludus", tmp_path / "market-town.ludus")
    (tmp_path / "t.ludus").write_text('extends "market-town.ludus"\n\ntest "Guild::buy":\n    do "buy nothing"\n'
                                      '    snapshot\n', encoding="utf-8")
    assert pytest_in(tmp_path, "t.ludus", "--snapshot-update").returncode == 0
    assert [p.name for p in (tmp_path / "__snapshots__" / "t").iterdir()] == ["Guild.Guildbuy.txt"]
    run = CliRunner().invoke(main, ["test", str(tmp_path / "t.ludus")])
    assert run.exit_code == 0, run.output


SELECTABLE = ["Guild::buy", "Guild::build", "plain", "Guild", "a::b::c", "odd [x::y]", "deep::odd [1::2]", "a/b c"]


def test_each_node_id_pytest_prints_runs_that_block_again(tmp_path):
    # a block named `Guild::buy` was one item of that name: the node id pytest printed for it,
    # `t.ludus::Guild::buy`, copied back to run it again, was "not found", pytest looking for a
    # node `Guild`
    shutil.copy(EXAMPLES / "market-town.ludus", tmp_path / "market-town.ludus")
    blocks = [f'test "{name}":\n    expect round_number == 1\n' for name in SELECTABLE]
    (tmp_path / "t.ludus").write_text('extends "market-town.ludus"\n\n' + "\n".join(blocks), encoding="utf-8")
    listed = pytest_in(tmp_path, "--collect-only", "t.ludus")
    ids = [line for line in listed.stdout.splitlines() if line.startswith("t.ludus::")]
    assert sorted(ids) == sorted(f"t.ludus::{name}" for name in SELECTABLE), listed.stdout
    for name in SELECTABLE:
        run = pytest_in(tmp_path, f"t.ludus::{name}", "-rA")
        assert run.returncode == 0, run.stdout + run.stderr
        ran = [line[len("PASSED "):] for line in run.stdout.splitlines() if line.startswith("PASSED ")]
        # a name that is a group's too (`Guild`) runs the group, as a class's name would
        expected = [f"t.ludus::{other}" for other in SELECTABLE if other == name or other.startswith(name + "::")]
        assert sorted(ran) == sorted(expected), run.stdout


# names syrupy's reading of a node id does not relate to their files: `::` read as a class's,
# characters a file name leaves out, a name cut to 251 characters
ODD_NAMES = ["Guild::buy", "stall/square", "L" * 300]


def odd_tests(broken: str | None = None) -> str:
    """A test file whose blocks have ODD_NAMES; the block named `broken` fails before its snapshot."""
    blocks = [f'test "{name}":\n    do "buy nothing"\n' + ('    do "buy Guild Charter"\n' if name == broken else "")
              + "    snapshot\n" for name in ODD_NAMES]
    return 'extends "market-town.ludus"\n\n' + "\n".join(blocks)


def test_odd_names_are_related_to_their_snapshots_and_a_failed_block_keeps_its_own(tmp_path):
    shutil.copy(EXAMPLES / "market-town.ludus", tmp_path / "market-town.ludus")
    tests = tmp_path / "t.ludus"
    tests.write_text(odd_tests(), encoding="utf-8")
    write = pytest_in(tmp_path, "t.ludus", "--snapshot-update")
    assert write.returncode == 0, write.stdout
    assert "3 snapshots generated" in write.stdout
    assert "Can not relate" not in write.stdout and "warning" not in write.stdout
    folder = tmp_path / "__snapshots__" / "t"
    files = sorted(p.name for p in folder.iterdir())
    assert files == sorted(["Guild.Guildbuy.txt", "stallsquare.txt", "L" * 251 + ".txt"])
    (folder / "gone.txt").write_text("old effect\n", encoding="utf-8")
    for broken in ODD_NAMES:
        tests.write_text(odd_tests(broken), encoding="utf-8")
        details = pytest_in(tmp_path, "t.ludus", "--snapshot-details")
        assert "1 failed, 2 passed" in details.stdout and "1 snapshot of test blocks unused" in details.stdout
        assert "unused __snapshots__/t/gone.txt: no test of t.ludus stores" in details.stdout, details.stdout
        update = pytest_in(tmp_path, "t.ludus", "--snapshot-update")
        assert "1 unused snapshot of test blocks deleted" in update.stdout, update.stdout
        assert "deleted __snapshots__/t/gone.txt: " in update.stdout, update.stdout
        assert sorted(p.name for p in folder.iterdir()) == files  # the failed block's snapshot is kept
        (folder / "gone.txt").write_text("old effect\n", encoding="utf-8")


CLASHING = ('extends "market-town.ludus"\n\n'
            'test "a/b":\n    do "buy Copper Coin"\n    snapshot\n\n'
            'test "ab":\n    do "buy nothing"\n    snapshot\n')


def test_two_tests_that_would_share_a_snapshot_file_are_an_error_and_nothing_is_written(tmp_path):
    shutil.copy(EXAMPLES / "market-town.ludus", tmp_path / "market-town.ludus")
    (tmp_path / "coll.tests.ludus").write_text(CLASHING, encoding="utf-8")
    error = ("coll.tests.ludus:7:6: error: test 'ab' would share its snapshot file 'ab.txt' "
             "with test 'a/b' on line 3: rename one")
    checked = CliRunner().invoke(main, ["check", str(tmp_path / "coll.tests.ludus")])
    assert checked.exit_code == 1 and error in checked.output
    updated = CliRunner().invoke(main, ["test", str(tmp_path / "coll.tests.ludus"), "--update"])
    assert updated.exit_code == 1 and error in updated.output
    run = pytest_in(tmp_path, "coll.tests.ludus", "--snapshot-update")
    assert run.returncode == 1 and error in run.stdout and "FAILED coll.tests.ludus::load" in run.stdout
    assert not (tmp_path / "__snapshots__").exists()  # one snapshot never replaced the other


def test_a_snapshot_that_cannot_be_written_is_a_located_error_and_the_other_tests_run(tmp_path):
    where = market_town_copy(tmp_path)
    shutil.rmtree(where / "__snapshots__")
    (where / "__snapshots__").write_text("precious\n", encoding="utf-8")
    tests = str(where / "market-town.tests.ludus")
    error = (f"market-town.tests.ludus:18:5: error: cannot write snapshot "
             f"'{where / '__snapshots__' / 'market-town.tests' / 'Street Musician cheers the town.txt'}': "
             f"'{where / '__snapshots__'}' is a file, not a folder")
    run = CliRunner().invoke(main, ["test", tests, "--update"])
    assert run.exit_code == 1 and no_crash(run)
    assert error in run.output
    assert run.output.endswith("1 passed, 10 failed\n")  # every test ran; the one without a snapshot passed
    assert (where / "__snapshots__").read_text(encoding="utf-8") == "precious\n"
    pytest_run = pytest_in(where, "market-town.tests.ludus", "--snapshot-update")
    assert pytest_run.returncode == 1 and crash_free(pytest_run.stdout)
    assert ("market-town.tests.ludus:18:5: error: cannot write snapshot '__snapshots__/market-town.tests/"
            "Street Musician cheers the town.txt': '__snapshots__' is a file, not a folder") in pytest_run.stdout
    assert (where / "__snapshots__").read_text(encoding="utf-8") == "precious\n"


def test_a_snapshot_that_cannot_be_read_is_a_located_error_and_update_leaves_it(tmp_path):
    where = market_town_copy(tmp_path)
    folder = where / "__snapshots__" / "market-town.tests"
    (folder / "Street Musician cheers the town.txt").write_bytes(b"Street Musician\xff\n")
    (folder / "Tax Collector angers the town.txt").unlink()
    (folder / "Tax Collector angers the town.txt").mkdir()
    tests = str(where / "market-town.tests.ludus")
    for update in ([], ["--update"]):
        run = CliRunner().invoke(main, ["test", tests, *update])
        assert run.exit_code == 1 and no_crash(run)
        assert (f"market-town.tests.ludus:18:5: error: cannot read snapshot '{folder / 'Street Musician cheers the town.txt'}': "
                "it is not UTF-8 text (byte 0xff at offset 15)") in run.output
        assert f"market-town.tests.ludus:30:5: error: cannot read snapshot '{folder / 'Tax Collector angers the town.txt'}': it is a folder" in run.output
        assert run.output.endswith("9 passed, 2 failed\n")
    for update in ([], ["--snapshot-update"]):
        run = pytest_in(where, "market-town.tests.ludus", *update)
        assert run.returncode == 1 and crash_free(run.stdout)
        assert ("market-town.tests.ludus:18:5: error: cannot read snapshot '__snapshots__/market-town.tests/"
                "Street Musician cheers the town.txt': it is not UTF-8 text (byte 0xff at offset 15)") in run.stdout
        assert ("market-town.tests.ludus:30:5: error: cannot read snapshot '__snapshots__/market-town.tests/"
                "Tax Collector angers the town.txt': it is a folder") in run.stdout
        assert "2 failed, 9 passed" in run.stdout
    assert (folder / "Street Musician cheers the town.txt").read_bytes() == b"Street Musician\xff\n"
    assert (folder / "Tax Collector angers the town.txt").is_dir()


def test_pytest_runs_the_blocks_of_a_file_with_a_byte_order_mark_or_lone_cr_line_ends(tmp_path):
    # pytest looked for the `extends` line and the blocks in the raw bytes: a byte-order mark
    # before the first line, or lines ended by a lone \r, hid them, and pytest passed with no
    # test run while `ludus test` failed the same file
    shutil.copy(EXAMPLES / "market-town.ludus", tmp_path / "market-town.ludus")
    block = 'extends "market-town.ludus"\n\ntest "wrong":\n    expect round_number == 2\n'
    (tmp_path / "bom.ludus").write_bytes(b"\xef\xbb\xbf" + block.encode())
    (tmp_path / "mac.ludus").write_bytes(block.replace("\n", "\r").encode())
    run = pytest_in(tmp_path)
    assert "FAILED bom.ludus::wrong" in run.stdout and "FAILED mac.ludus::wrong" in run.stdout, run.stdout
    assert "2 failed" in run.stdout
    same = CliRunner().invoke(main, ["test", str(tmp_path)])
    assert same.output.endswith("0 passed, 2 failed\n")


def test_a_python_test_module_with_the_game_files_stem_is_an_error_and_deletes_nothing(tmp_path):
    # syrupy keeps the snapshots of test_market.py in __snapshots__/test_market/, where those of
    # test_market.ludus go too: an update of the Python file deleted the blocks' as unused
    shutil.copy(EXAMPLES / "market-town.ludus", tmp_path / "market-town.ludus")
    (tmp_path / "test_market.ludus").write_text('extends "market-town.ludus"\n\ntest "crier":\n'
                                                '    do "buy nothing"\n    snapshot\n', encoding="utf-8")
    assert CliRunner().invoke(main, ["test", str(tmp_path), "--update"]).exit_code == 0
    kept = tmp_path / "__snapshots__" / "test_market" / "crier.txt"
    before = kept.read_text(encoding="utf-8")
    (tmp_path / "test_market.py").write_text(
        "def test_py(ludus_position, effect_snapshot):\n"
        "    pos = ludus_position('market-town.ludus')\n"
        "    pos.resolve('Street Musician', 'Amber')\n"
        "    assert pos.effect() == effect_snapshot\n", encoding="utf-8")
    error = ("test_market.ludus:3:1: error: the snapshots of these tests would share the folder "
             "'__snapshots__/test_market' with those of test_market.py")
    run = CliRunner().invoke(main, ["test", str(tmp_path), "--update"])
    assert run.exit_code == 1 and error in run.output, run.output
    update = pytest_in(tmp_path, "--snapshot-update")
    assert "FAILED test_market.ludus::crier" in update.stdout and error in update.stdout, update.stdout
    assert "deleted" not in update.stdout.lower() and kept.read_text(encoding="utf-8") == before


def test_an_update_of_one_of_two_files_sharing_a_snapshot_folder_deletes_neither_files_snapshots(tmp_path):
    # only the file named is collected: syrupy took the other's snapshots for its own, unused
    shutil.copy(EXAMPLES / "market-town.ludus", tmp_path / "market-town.ludus")
    (tmp_path / "test_market.ludus").write_text('extends "market-town.ludus"\n\ntest "crier":\n'
                                                '    do "buy nothing"\n    snapshot\n', encoding="utf-8")
    assert CliRunner().invoke(main, ["test", str(tmp_path), "--update"]).exit_code == 0
    (tmp_path / "test_market.py").write_text(
        "def test_py(ludus_position, effect_snapshot):\n"
        "    pos = ludus_position('market-town.ludus')\n"
        "    pos.resolve('Street Musician', 'Amber')\n"
        "    assert pos.effect() == effect_snapshot\n", encoding="utf-8")
    folder = tmp_path / "__snapshots__" / "test_market"
    python = pytest_in(tmp_path, "test_market.py", "--snapshot-update")
    assert python.returncode == 0 and "deleted" not in python.stdout.lower(), python.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["crier.txt", "test_py.txt"]
    stored = {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir()}
    again = pytest_in(tmp_path, "test_market.py")
    assert again.returncode == 0 and "1 snapshot passed" in again.stdout, again.stdout
    assert "unused" not in again.stdout
    game = pytest_in(tmp_path, "test_market.ludus", "--snapshot-update")
    assert "FAILED test_market.ludus::crier" in game.stdout and "deleted" not in game.stdout.lower(), game.stdout
    assert {p.name: p.read_text(encoding="utf-8") for p in folder.iterdir()} == stored


def test_an_update_keeps_the_snapshots_of_a_game_left_out_of_the_run_or_failing_to_load(tmp_path):
    # syrupy's default extension, used by a Python test beside the game, claimed every file in
    # __snapshots__; with the game's blocks not in the run, it deleted their snapshots as unused
    where = market_town_copy(tmp_path)
    before = stored(where)
    (where / "test_cards.py").write_text(
        "def test_crier(ludus_position, effect_snapshot, snapshot):\n"
        "    pos = ludus_position('market-town.ludus', players=2)\n"
        "    pos.resolve('Street Musician', 'Amber')\n"
        "    assert pos.effect() == effect_snapshot\n"
        "    assert 'amber' == snapshot\n", encoding="utf-8")
    for args in ([".", "--ignore=market-town.tests.ludus"], ["--ignore=market-town.tests.ludus"]):
        run = pytest_in(where, *args, "--snapshot-update")
        assert run.returncode == 0 and "deleted" not in run.stdout.lower(), run.stdout
        assert stored(where) == before
    tests = where / "market-town.tests.ludus"
    text = tests.read_text(encoding="utf-8")
    tests.write_text(text + "\nbroken here\n", encoding="utf-8")
    run = pytest_in(where, ".", "--snapshot-update")
    assert "FAILED market-town.tests.ludus::load" in run.stdout and "deleted" not in run.stdout.lower(), run.stdout
    assert stored(where) == before
    tests.write_text(text, encoding="utf-8")  # loading again, the game's blocks clean up after themselves
    (where / "__snapshots__" / "market-town.tests" / "A test that was deleted.txt").write_text("old\n", encoding="utf-8")
    run = pytest_in(where, ".", "--snapshot-update")
    assert "1 unused snapshot of test blocks deleted" in run.stdout and stored(where) == before, run.stdout


def test_a_read_only_snapshot_is_never_replaced(tmp_path):
    # the new snapshot is renamed over the old one, which the folder's permissions allow: only
    # access() guarded the file, and it lets root write anything
    where = market_town_copy(tmp_path)
    game = where / "market-town.ludus"
    game.write_text(game.read_text(encoding="utf-8").replace("gain omen - 2 coins", "gain omen - 1 coins"), encoding="utf-8")
    tests = where / "market-town.tests.ludus"  # a change that is meant: its test passes, its snapshot is out of date
    tests.write_text(tests.read_text(encoding="utf-8").replace("coins of Amber == 3", "coins of Amber == 4"), encoding="utf-8")
    locked = where / "__snapshots__" / "market-town.tests" / "Fortune Teller pays on a 5.txt"
    before = locked.read_text(encoding="utf-8")
    locked.chmod(0o444)
    error = "market-town.tests.ludus:47:5: error: cannot write snapshot '{}': it is read-only"
    run = CliRunner().invoke(main, ["test", str(where / "market-town.tests.ludus"), "--update"])
    assert run.exit_code == 1 and error.format(locked) in run.output, run.output
    assert locked.read_text(encoding="utf-8") == before
    update = pytest_in(where, "market-town.tests.ludus", "--snapshot-update")
    assert update.returncode == 1 and error.format(locked.relative_to(where)) in update.stdout, update.stdout
    assert locked.read_text(encoding="utf-8") == before


def updated_both_ways(where):
    """Change what Market Town's Fortune Teller pays, then update its snapshot: once with
    `ludus test --update`, once with `pytest --snapshot-update`. The test's `expect` of the
    coins is taken out, so that it passes and its snapshot is updated; yields the `N` of
    `gain omen - N coins` for the caller to check the files, then puts the game back."""
    tests = where / "market-town.tests.ludus"
    tests.write_text(tests.read_text(encoding="utf-8").replace("    expect coins of Amber == 3\n", ""), encoding="utf-8")
    game = where / "market-town.ludus"
    for one, update in (("1", ["test", str(where / "market-town.tests.ludus"), "--update"]),
                        ("0", ["market-town.tests.ludus", "--snapshot-update"])):
        game.write_text(game.read_text(encoding="utf-8").replace("gain omen - 2 coins", f"gain omen - {one} coins"),
                        encoding="utf-8")
        if update[0] == "test":
            assert "updated" in CliRunner().invoke(main, update).output
        else:
            assert "1 snapshot updated" in pytest_in(where, *update).stdout
        yield one
        game.write_text(game.read_text(encoding="utf-8").replace(f"gain omen - {one} coins", "gain omen - 2 coins"),
                        encoding="utf-8")


def test_an_update_writes_the_shared_file_a_linked_snapshot_leads_to_and_keeps_the_link(tmp_path):
    where = market_town_copy(tmp_path)
    shared = tmp_path / "shared"
    shared.mkdir()
    name = "Fortune Teller pays on a 5.txt"
    link = where / "__snapshots__" / "market-town.tests" / name
    link.rename(shared / name)
    link.symlink_to(shared / name)
    for one in updated_both_ways(where):
        assert link.is_symlink() and link.resolve() == (shared / name).resolve()
        assert f"counter coins of Amber: 0 -> {5 - int(one)}\n" in (shared / name).read_text(encoding="utf-8")
    assert sorted(p.name for p in shared.iterdir()) == [name]


def test_an_update_writes_a_snapshot_with_two_names_in_place_and_both_names_read_it(tmp_path):
    # a hard link, into a folder of shared snapshots, was split: the update renamed a new file
    # over the snapshot's name, and the other name kept the old report
    where = market_town_copy(tmp_path)
    shared = tmp_path / "shared"
    shared.mkdir()
    name = "Fortune Teller pays on a 5.txt"
    snapshot = where / "__snapshots__" / "market-town.tests" / name
    (shared / name).hardlink_to(snapshot)
    for one in updated_both_ways(where):
        assert snapshot.stat().st_ino == (shared / name).stat().st_ino and snapshot.stat().st_nlink == 2
        assert f"counter coins of Amber: 0 -> {5 - int(one)}\n" in (shared / name).read_text(encoding="utf-8")
    assert sorted(p.name for p in snapshot.parent.iterdir() if p.name.startswith(".")) == []  # no stray file


def test_a_snapshot_edited_by_hand_shows_what_differs_when_it_prints_as_nothing(tmp_path):
    # a space left at a line's end, or the last new line dropped by an editor, failed the test
    # with a diff of two equal lines, or of no changed line at all
    where = market_town_copy(tmp_path)
    folder = where / "__snapshots__" / "market-town.tests"
    spaced = folder / "Street Musician cheers the town.txt"
    spaced.write_text(spaced.read_text(encoding="utf-8").replace("0 -> 1\n", "0 -> 1  \n"), encoding="utf-8")
    cut = folder / "Tax Collector angers the town.txt"
    cut.write_text(cut.read_text(encoding="utf-8").rstrip("\n"), encoding="utf-8")
    shown = ["-   track mood: 0 -> 1··\n", "(the last line of the stored snapshot has no new line at its end)\n"]
    run = CliRunner().invoke(main, ["test", str(where / "market-town.tests.ludus")])
    assert run.output.endswith("9 passed, 2 failed\n")
    assert all(part in run.output for part in shown), run.output
    by_pytest = pytest_in(where, "market-town.tests.ludus")
    assert all(part in by_pytest.stdout for part in shown), by_pytest.stdout


def test_ludus_test_shows_a_failed_expect_before_the_snapshot_diff_as_pytest_does(tmp_path):
    where = market_town_copy(tmp_path)
    game = where / "market-town.ludus"
    game.write_text(game.read_text(encoding="utf-8").replace("gain omen - 2 coins", "gain omen - 1 coins"), encoding="utf-8")
    out = CliRunner().invoke(main, ["test", str(where / "market-town.tests.ludus"), "-k", "on a 5"]).output
    expect, diff = out.index("error: expected coins of Amber == 3"), out.index("the snapshot changed")
    assert expect < diff, out  # the diff, listed first, read as the failure and the expect as an afterthought
    by_pytest = pytest_in(where, "market-town.tests.ludus", "-k", "on and 5").stdout
    assert by_pytest.index("error: expected coins of Amber == 3") < by_pytest.index("changed (run `pytest")


def test_ludus_test_fails_when_k_selects_no_test(tmp_path):
    # as pytest exits 5 when it selects nothing: a misspelt -k in CI passed, having run no test
    where = market_town_copy(tmp_path)
    run = CliRunner().invoke(main, ["test", str(where / "market-town.tests.ludus"), "-k", "Fortune Tellr"])
    assert run.exit_code == 1
    assert run.output == "0 passed, 0 failed\nno test's name contains 'Fortune Tellr'\n"
    assert CliRunner().invoke(main, ["test", str(where / "market-town.tests.ludus"), "-k", "fortune"]).exit_code == 0


def test_a_fixture_that_cannot_load_the_game_says_so_once(tmp_path):
    # pytest.fail was called inside the `except`: the message came twice, joined by "During
    # handling of the above exception, another exception occurred"
    shutil.copy(EXAMPLES / "market-town.ludus", tmp_path / "market-town.ludus")
    (tmp_path / "broken.ludus").write_text('game "Broken"\nplayers 2\nflow:\n    gain 1 monye\n', encoding="utf-8")
    (tmp_path / "test_fixtures.py").write_text(
        "def test_broken(ludus_game):\n    ludus_game('broken.ludus')\n\n"
        "def test_players(ludus_position):\n    ludus_position('market-town.ludus', players=9)\n", encoding="utf-8")
    out = pytest_in(tmp_path).stdout
    assert "2 failed" in out and "During handling" not in out, out
    # the failures' own sections, not the summary's FAILED lines (whole when CI is set, cut otherwise)
    report = "\n".join(line for line in out.splitlines() if not line.startswith("FAILED ")) + "\n"
    assert report.count("broken.ludus:4:12: error: unknown counter 'monye'\n") == 1, out
    assert report.count("error: Market Town is for 2 to 4 players, not 9\n") == 1, out


def test_blocks_run_without_syrupy_and_their_snapshot_lines_say_why_they_fail(tmp_path):
    # with `-p no:syrupy` every block failed on an AttributeError, snapshot lines or not
    shutil.copy(EXAMPLES / "market-town.ludus", tmp_path / "market-town.ludus")
    (tmp_path / "t.ludus").write_text('extends "market-town.ludus"\n\ntest "plain":\n    expect round_number == 1\n\n'
                                      'test "snap":\n    snapshot\n', encoding="utf-8")
    run = pytest_in(tmp_path, "-p", "no:syrupy")
    assert "1 failed, 1 passed" in run.stdout and "Error" not in run.stdout, run.stdout
    assert "t.ludus:7:5: error: cannot compare the snapshot: pytest runs without syrupy (`-p no:syrupy`)" in run.stdout


HEADLESS = ('players 2\ncounter coins per seat\n\naction Take:\n    label "take"\n    gain 1 coins for actor\n\n'
            'flow:\n    while true:\n        for each s in seats:\n            turn s:\n                offer Take\n')


def test_a_game_with_a_flow_and_no_game_line_has_its_blocks_run_by_pytest_as_by_ludus_test(tmp_path):
    # `ludus test FOLDER` runs it as a game, but pytest took it for a part and collected nothing:
    # its blocks never ran in CI, and an update of a Python test beside it deleted its snapshots
    (tmp_path / "g.ludus").write_text(HEADLESS + '\ntest "take":\n    do "take"\n    snapshot\n', encoding="utf-8")
    assert CliRunner().invoke(main, ["test", str(tmp_path), "--update"]).output.endswith("1 passed, 0 failed\n")
    stored = tmp_path / "__snapshots__" / "g" / "take.txt"
    report = stored.read_text(encoding="utf-8")
    run = pytest_in(tmp_path)
    assert run.returncode == 0 and "1 snapshot passed" in run.stdout and "1 passed" in run.stdout, run.stdout
    (tmp_path / "test_other.py").write_text("def test_other(snapshot):\n    assert 'a' == snapshot\n", encoding="utf-8")
    for args in (["test_other.py"], ["."]):
        update = pytest_in(tmp_path, *args, "--snapshot-update")
        assert update.returncode == 0 and "deleted" not in update.stdout.lower(), update.stdout
        assert stored.read_text(encoding="utf-8") == report


def test_the_tests_of_a_base_with_no_game_line_run_with_the_base_not_again_with_each_variant(tmp_path):
    # the base is a game (`ludus check FOLDER` checks it alone): `ludus test` ran its blocks
    # with it and again with the variant, storing each snapshot twice, and pytest ran them only
    # with the variant, taking the base's own snapshots for unused ones and deleting them
    (tmp_path / "base.ludus").write_text(HEADLESS + '\ntest "base take":\n    do "take"\n    snapshot\n',
                                         encoding="utf-8")
    (tmp_path / "variant.ludus").write_text('extends "base.ludus"\n\ntest "variant take":\n    do "take"\n'
                                            '    do "take"\n    snapshot\n', encoding="utf-8")
    run = CliRunner().invoke(main, ["test", str(tmp_path), "--update"])
    assert run.output.endswith("2 passed, 0 failed\n") and run.output.count(": base take\n") == 1, run.output
    snapshots = tmp_path / "__snapshots__"
    written = sorted(str(p.relative_to(snapshots)) for p in snapshots.rglob("*.txt"))
    assert written == ["base/base take.txt", "variant/variant take.txt"]
    update = pytest_in(tmp_path, "--snapshot-update")
    assert "2 snapshots passed" in update.stdout and "2 passed" in update.stdout, update.stdout
    assert "unused" not in update.stdout and "deleted" not in update.stdout.lower(), update.stdout
    assert sorted(str(p.relative_to(snapshots)) for p in snapshots.rglob("*.txt")) == written


def test_ludus_test_names_the_snapshots_no_test_uses_as_pytest_does_and_deletes_none(tmp_path):
    # pytest reported them (and its update deleted them); `ludus test` said nothing of them
    where = market_town_copy(tmp_path)
    folder = where / "__snapshots__" / "market-town.tests"
    for name in ("A test that was deleted.txt", "Fortune Teller pays on a 5.1.txt", ".draft.txt"):
        (folder / name).write_text("old effect\n", encoding="utf-8")
    (folder / "notes").mkdir()
    # the file a test uses, by another name a file system that ignores case gives it
    (folder / "TAX COLLECTOR ANGERS THE TOWN.txt").hardlink_to(folder / "Tax Collector angers the town.txt")
    tests = where / "market-town.tests.ludus"
    text = tests.read_text(encoding="utf-8")
    # a test that fails before its snapshot line still owns its file
    tests.write_text(text.replace("    force d6 = 5\n", "    force d6 = 5\n    do \"buy the moon\"\n", 1), encoding="utf-8")
    unused = [f"     unused {folder / name}: no test of market-town.tests.ludus stores a snapshot there (delete it, "
              "or run `pytest --snapshot-update`)" for name in ("A test that was deleted.txt",
                                                                 "Fortune Teller pays on a 5.1.txt")]
    for update in ([], ["--update"]):
        run = CliRunner().invoke(main, ["test", str(tests), *update])
        assert [line for line in run.output.splitlines() if line.startswith("     unused")] == unused, run.output
        assert run.output.endswith("10 passed, 1 failed\n")
        assert (folder / "A test that was deleted.txt").exists()
    # the run fails for them, as pytest's does, but for an update (which deletes none)
    tests.write_text(text, encoding="utf-8")
    run = CliRunner().invoke(main, ["test", str(tests)])
    assert run.exit_code == 1 and run.output.endswith(
        "2 unused snapshots (named above) fail the run: delete them, or run `pytest --snapshot-update`\n"
        "11 passed, 0 failed\n"), run.output
    assert CliRunner().invoke(main, ["test", str(tests), "--update"]).exit_code == 0
    only = CliRunner().invoke(main, ["test", str(tests), "-k", "fortune"])
    assert only.exit_code == 0 and only.output.endswith("2 passed, 0 failed\n") and "unused" not in only.output
    by_pytest = pytest_in(where, "market-town.tests.ludus", "--snapshot-details")
    # the same files, in the same words
    assert [line for line in by_pytest.stdout.splitlines() if line.startswith("unused")] == [
        line.replace(f"{folder}", "__snapshots__/market-town.tests").strip() for line in unused], by_pytest.stdout
    assert "2 snapshots of test blocks unused" in by_pytest.stdout and by_pytest.returncode == 1, by_pytest.stdout
    update = pytest_in(where, "market-town.tests.ludus", "--snapshot-update")
    assert "2 unused snapshots of test blocks deleted" in update.stdout, update.stdout
    assert not (folder / "A test that was deleted.txt").exists() and (folder / ".draft.txt").exists()


def test_an_update_keeps_a_snapshot_a_test_reads_by_another_name_than_its_own(tmp_path):
    # syrupy compares names: on macOS, where `TAX COLLECTOR ANGERS THE TOWN.txt` is the file that
    # `test "Tax Collector angers the town"` reads, an update deleted it as unused. A second name
    # of the file (a hard link) stands for it here, where names are told apart by case
    where = market_town_copy(tmp_path)
    before = stored(where)
    folder = where / "__snapshots__" / "market-town.tests"
    other = folder / "TAX COLLECTOR ANGERS THE TOWN.txt"
    other.hardlink_to(folder / "Tax Collector angers the town.txt")
    (folder / "Tax Collector angers.txt").write_text("old effect\n", encoding="utf-8")  # no test's
    for args in (["market-town.tests.ludus"], ["."]):
        update = pytest_in(where, *args, "--snapshot-update")
        assert "1 unused snapshot of test blocks deleted" in update.stdout, update.stdout
        assert "TAX COLLECTOR" not in update.stdout and other.exists()
        assert sorted(p.name for p in folder.iterdir()) == sorted([*before, other.name])
        (folder / "Tax Collector angers.txt").write_text("old effect\n", encoding="utf-8")
    run = CliRunner().invoke(main, ["test", str(where / "market-town.tests.ludus")])
    assert [line.split(": ")[0] for line in run.output.splitlines() if line.startswith("     unused")] == [
        f"     unused {folder / 'Tax Collector angers.txt'}"], run.output


def test_ludus_test_of_a_folder_names_the_snapshot_folders_no_game_keeps_and_deletes_none(tmp_path):
    where = market_town_copy(tmp_path)
    snapshots = where / "__snapshots__"
    for name in ("old", "test_helpers", ".drafts", "sub/__snapshots__/gone", "sub/__snapshots__/kept"):
        folder = where / name if name.startswith("sub") else snapshots / name
        folder.mkdir(parents=True)
        if not name.endswith("kept"):  # the folder of sub/kept.ludus, which has no tests
            (folder / "A test.txt").write_text("old effect\n", encoding="utf-8")
    (where / "test_helpers.py").write_text("", encoding="utf-8")  # syrupy keeps its snapshots in test_helpers/
    (where / "sub" / "kept.ludus").write_text('game "Kept"\nplayers 1\nflow:\n    win P1\n', encoding="utf-8")
    (snapshots / "notes.txt").write_text("a file, not a game's folder\n", encoding="utf-8")
    expected = [f"     unused {snapshots / 'old'}{os.sep}: no game file {where / 'old.ludus'} stores snapshots there "
                "(delete it, or run `pytest --snapshot-update`)",
                f"     unused {where / 'sub' / '__snapshots__' / 'gone'}{os.sep}: no game file "
                f"{where / 'sub' / 'gone.ludus'} stores snapshots there (delete it, or run `pytest --snapshot-update`)"]
    for update in ([], ["--update"]):
        run = CliRunner().invoke(main, ["test", str(where), *update])
        assert [line for line in run.output.splitlines() if line.startswith("     unused")] == expected, run.output
        assert run.output.endswith("11 passed, 0 failed\n"), run.output
        assert run.exit_code == (0 if update else 1)  # as pytest's below, but for an update
        assert (snapshots / "old" / "A test.txt").exists()
    # pytest run on the folder reports the files of the folder of a game that is gone too
    by_pytest = pytest_in(where, "--snapshot-details")
    assert "Unused A test (__snapshots__/old/A test.txt)" in by_pytest.stdout, by_pytest.stdout
    assert by_pytest.returncode == 1
    # a run of some of the games, or of some of the tests, is not a run of the whole folder
    for args in ([str(where / "market-town.tests.ludus")], [str(where), "-k", "fortune"]):
        run = CliRunner().invoke(main, ["test", *args])
        assert run.exit_code == 0 and "unused" not in run.output, run.output
    # the game file back in place owns its folder again, and the folder's file is named as unused
    (where / "old.ludus").write_text('game "Old"\nplayers 1\nflow:\n    win P1\n', encoding="utf-8")
    run = CliRunner().invoke(main, ["test", str(where)])
    assert [line for line in run.output.splitlines() if line.startswith("     unused")] == [
        f"     unused {snapshots / 'old' / 'A test.txt'}: no test of old.ludus stores a snapshot there (delete it, "
        "or run `pytest --snapshot-update`)", expected[1]], run.output


RENAMED = ('extends "market-town.ludus"\n\n'
           'test "Buy a card":\n    do "buy Copper Coin"\n{broken}    snapshot\n\n'
           'test "Other":\n    do "buy nothing"\n    snapshot\n')


def test_a_snapshot_left_by_a_test_renamed_to_a_longer_name_is_unused_to_both_commands(tmp_path):
    # syrupy relates a file to a test by the Python name each starts with: `Buy.txt`, left when
    # `test "Buy"` became `test "Buy a card"`, was that test's to it. pytest kept it unreported
    # while the test failed, and a run of that test alone reported it and deleted it on update
    shutil.copy(EXAMPLES / "market-town.ludus", tmp_path / "market-town.ludus")
    tests = tmp_path / "t.ludus"
    tests.write_text(RENAMED.format(broken=""), encoding="utf-8")
    assert pytest_in(tmp_path, "t.ludus", "--snapshot-update").returncode == 0
    folder = tmp_path / "__snapshots__" / "t"
    stale = folder / "Buy.txt"
    stale.write_text("the effect of the old test\n", encoding="utf-8")
    (folder / "Buy a car.txt").write_text("another stale one\n", encoding="utf-8")
    named = [f"unused __snapshots__/t/{name}: no test of t.ludus stores a snapshot there (delete it, or run "
             "`pytest --snapshot-update`)" for name in ("Buy a car.txt", "Buy.txt")]
    # a run of some of the tests names none and deletes none, as `ludus test -k` does
    for args in (["t.ludus::Buy a card"], ["t.ludus", "-k", "Buy"]):
        update = pytest_in(tmp_path, *args, "--snapshot-update")
        assert "unused" not in update.stdout.lower() and "deleted" not in update.stdout.lower(), update.stdout
        assert stale.exists() and (folder / "Buy a car.txt").exists()
    for broken in ("", "    expect round_number == 99\n"):  # passing, then failing before its snapshot
        tests.write_text(RENAMED.format(broken=broken), encoding="utf-8")
        ours = CliRunner().invoke(main, ["test", str(tests)])
        assert [line.strip().replace(f"{folder}", "__snapshots__/t") for line in ours.output.splitlines()
                if line.startswith("     unused")] == named, ours.output
        assert ours.exit_code == 1
        run = pytest_in(tmp_path, "t.ludus")
        assert [line for line in run.stdout.splitlines() if line.startswith("unused")] == named, run.stdout
        assert run.returncode == 1
    # a run of all of them deletes the two, and keeps the failing test's own snapshot
    update = pytest_in(tmp_path, "t.ludus", "--snapshot-update")
    assert "2 unused snapshots of test blocks deleted." in update.stdout and "1 failed, 1 passed" in update.stdout
    assert sorted(p.name for p in folder.iterdir()) == ["Buy a card.txt", "Other.txt"]


def test_an_unused_snapshot_that_cannot_be_deleted_is_said_and_fails_the_update(tmp_path):
    where = market_town_copy(tmp_path)
    locked = where / "__snapshots__" / "market-town.tests" / "Locked.txt"
    locked.write_text("old effect\n", encoding="utf-8")
    (where / "conftest.py").write_text(  # as a file the user may not delete would refuse
        "import errno, pathlib\n\n_unlink = pathlib.Path.unlink\n\n\n"
        "def unlink(self, missing_ok=False):\n"
        "    if self.name == 'Locked.txt':\n"
        "        raise PermissionError(errno.EACCES, 'Permission denied')\n"
        "    return _unlink(self, missing_ok)\n\n\npathlib.Path.unlink = unlink\n", encoding="utf-8")
    update = pytest_in(where, "market-town.tests.ludus", "--snapshot-update")
    assert ("cannot delete unused snapshot __snapshots__/market-town.tests/Locked.txt: permission denied"
            in update.stdout), update.stdout
    assert update.returncode == 1 and "11 passed" in update.stdout and crash_free(update.stdout)
    assert locked.read_text(encoding="utf-8") == "old effect\n"


PYTHON_TESTS = ("def test_crier(ludus_position, effect_snapshot):\n"
                "    pos = ludus_position('market-town.ludus', players=2)\n"
                "    pos.resolve('Town Crier', 'Basil')\n"
                "    pos.answer('{crier}')\n"
                "    assert pos.effect() == effect_snapshot\n"
                "    pos.expect('Stall of Basil at Docks == 1')\n\n\n"
                "def test_other(ludus_position, effect_snapshot):\n"
                "    pos = ludus_position('market-town.ludus', players=2)\n"
                "    pos.resolve('Town Crier', 'Basil')\n"
                "    pos.answer('{other}')\n"
                "    assert pos.effect() == effect_snapshot\n")


def test_a_python_test_that_fails_never_updates_its_effect_snapshots(tmp_path):
    # syrupy wrote each snapshot at its assertion: a line after it that failed left the
    # snapshot holding an effect the test itself said was wrong
    shutil.copy(EXAMPLES / "market-town.ludus", tmp_path / "market-town.ludus")
    module = tmp_path / "test_cards.py"
    module.write_text(PYTHON_TESTS.format(crier="Docks", other="Hill"), encoding="utf-8")
    assert pytest_in(tmp_path, "--snapshot-update").returncode == 0
    folder = tmp_path / "__snapshots__" / "test_cards"
    crier, other = folder / "test_crier.txt", folder / "test_other.txt"
    before = crier.read_bytes()
    module.write_text(PYTHON_TESTS.format(crier="Square", other="Docks"), encoding="utf-8")
    update = pytest_in(tmp_path, "--snapshot-update")
    assert crier.read_bytes() == before  # the failing test's, as it was
    assert b"token Basil Stall at Docks: 0 -> 1" in other.read_bytes()  # the passing test's, updated
    assert "not updated __snapshots__/test_cards/test_crier.txt: the test failed" in update.stdout, update.stdout
    assert "1 snapshot failed. 1 snapshot updated." in update.stdout and "1 failed, 1 passed" in update.stdout
    crier.unlink()  # nor is a failing test's new snapshot written
    update = pytest_in(tmp_path, "--snapshot-update")
    assert "not written __snapshots__/test_cards/test_crier.txt: the test failed" in update.stdout, update.stdout
    assert not crier.exists()
    # a snapshot that cannot be written fails its test, saying why, and stays as it was
    module.write_text(PYTHON_TESTS.format(crier="Docks", other="Square"), encoding="utf-8")
    other.chmod(0o444)
    update = pytest_in(tmp_path, "--snapshot-update")
    assert "cannot write snapshot '__snapshots__/test_cards/test_other.txt': it is read-only\n" in update.stdout
    assert "FAILED test_cards.py::test_other" in update.stdout, update.stdout
    assert b"Stall at Docks" in other.read_bytes() and crier.exists()  # test_crier passed: written
