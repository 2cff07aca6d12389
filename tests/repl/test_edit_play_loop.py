"""The edit-play loop (issue 17, item 6): saves across edits that change no rule, `load x.replay`
stopping at a failing line, `restart`, `--watch`, and quitting never losing unsaved moves."""

from __future__ import annotations

import json
import os
import shutil

import pytest
from click.testing import CliRunner

from ludus.cli import main
from ludus.pipeline import fingerprint
from tests.helpers import EXAMPLES, repl_of

MOVES = ["buy Tax Collector", "build nothing"]


@pytest.fixture
def game_file(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    monkeypatch.setenv("LUDUS_SESSIONS", str(tmp_path / "sessions"))
    path = tmp_path / "market-town.ludus"
    shutil.copy(EXAMPLES / "market-town.ludus", path)
    return path


def new_repl(path, **options):
    return repl_of(path, 2, 3, 160, **options)


def feed(repl, *lines):
    it = iter(lines)

    def read(_prompt):
        try:
            return next(it)
        except StopIteration:
            raise EOFError from None
    repl.run(read)


# ── the fingerprint: what the files say, not how they are laid out ──

BASE = 'game "T"\nseats A, B\naction Go:\n    gain 1 n  # pays\n    if a+1 > 2:\n        x\n'


@pytest.mark.parametrize("edited", [
    '# a header comment\n' + BASE,
    BASE.replace("    ", "  ").replace("  gain", "  gain   "),
    BASE.replace("a+1 > 2", "a + 1>2") + "\n\n# the end\n",
])
def test_layout_and_comments_keep_the_fingerprint(edited):
    assert fingerprint({"t.ludus": edited}) == fingerprint({"t.ludus": BASE})


@pytest.mark.parametrize("edited", [
    BASE.replace("gain 1", "gain 2"),
    BASE.replace('"T"', '"T # not a comment"'),
    BASE.replace("        x", "    x"),  # out of the `if`: a different rule
    BASE.replace("a+1", "not a"),
])
def test_a_change_of_meaning_changes_the_fingerprint(edited):
    assert fingerprint({"t.ludus": edited}) != fingerprint({"t.ludus": BASE})


def test_a_save_loads_after_an_edit_of_comments_and_layout(game_file, tmp_path):
    repl, out = new_repl(game_file)
    for move in MOVES:
        repl.handle(move)
    repl.handle(f"save {tmp_path / 'm.json'}")
    text = game_file.read_text(encoding="utf-8")
    game_file.write_text("# my notes on this game\n" + text.replace("    copies 4", "    copies   4   # four of them"),
                         encoding="utf-8")
    again, out2 = new_repl(game_file)
    again.handle(f"load {tmp_path / 'm.json'}")
    assert "loaded" in out2.getvalue(), out2.getvalue()
    assert again.match.moves == MOVES
    # a change of rule is still a different game
    game_file.write_text(text.replace("    copies 4", "    copies 5"), encoding="utf-8")
    third, out3 = new_repl(game_file)
    third.handle(f"load {tmp_path / 'm.json'}")
    assert "different version of the game files" in out3.getvalue()
    assert third.match.moves == []


# ── load x.replay plays up to the failing line ──

def test_loading_a_replay_stops_at_its_first_failing_line(game_file, tmp_path):
    repl, out = new_repl(game_file)
    for move in MOVES:
        repl.handle(move)
    repl.handle(f"export {tmp_path / 's.replay'}")
    replay = (tmp_path / "s.replay").read_text(encoding="utf-8")
    broken = replay.replace("build nothing", "build a castle") + "buy Nothing\n"
    (tmp_path / "s.replay").write_text(broken, encoding="utf-8")
    bad_line = broken.splitlines().index("build a castle") + 1
    fresh, out2 = new_repl(game_file)
    fresh.handle(f"load {tmp_path / 's.replay'}")
    said = out2.getvalue()
    assert f"played {tmp_path / 's.replay'}: 1 move; stopped at line {bad_line}" in said, said
    assert "'build a castle' is not a legal move" in said
    assert fresh.match.moves == MOVES[:1]


def test_a_replay_of_another_game_is_refused_whole(game_file, tmp_path):
    (tmp_path / "o.replay").write_text(f"game {EXAMPLES / 'connect-four.ludus'}\nmove drop in column 1\n", encoding="utf-8")
    repl, out = new_repl(game_file)
    repl.handle(f"load {tmp_path / 'o.replay'}")
    assert "error:" in out.getvalue() and repl.match.moves == []


# ── restart ──

def test_restart_starts_again_from_setup_with_the_same_or_a_new_seed(game_file):
    repl, out = new_repl(game_file)
    first_hand = repl.match.view(0)["zones"]
    repl.handle(MOVES[0])
    repl.handle("restart")
    assert repl.match.moves == [] and repl.match.seed == 3
    assert repl.match.view(0)["zones"] == first_hand
    repl.handle("restart 11")
    assert repl.match.seed == 11 and "restarted with seed 11" in out.getvalue()
    repl.handle("restart eleven")
    assert "`restart` takes a seed, a whole number of at most 15 digits, not 'eleven'" in out.getvalue()
    assert repl.match.seed == 11
    repl.handle("restart 1234567890123456")  # a whole number, too long for a replay's seed line
    assert out.getvalue().rstrip().endswith("a whole number of at most 15 digits, not '1234567890123456'")
    assert repl.match.seed == 11


def test_restart_keeps_the_unsaved_match_of_a_keyboard_session(game_file, tmp_path):
    repl, out = new_repl(game_file, keep_unsaved=True)
    repl.handle(MOVES[0])
    repl.handle("restart")
    kept = list((tmp_path / "sessions").glob("*.replay"))
    assert len(kept) == 1 and f"the old match is in {kept[0]}" in out.getvalue()
    assert "\nbuy Tax Collector\n" in kept[0].read_text(encoding="utf-8")


# ── quitting keeps unsaved moves ──

def test_quitting_with_unsaved_moves_keeps_them_in_a_replay(game_file, tmp_path):
    repl, out = new_repl(game_file, keep_unsaved=True)
    feed(repl, *MOVES, "quit")
    kept = list((tmp_path / "sessions").glob("market-town-*.replay"))
    assert len(kept) == 1
    assert f"`load {kept[0]}` continues it" in out.getvalue()
    again, _ = new_repl(game_file)
    again.handle(f"load {kept[0]}")
    assert again.match.moves == MOVES


def test_quitting_after_a_save_or_with_no_moves_writes_nothing(game_file, tmp_path):
    repl, out = new_repl(game_file, keep_unsaved=True)
    feed(repl, *MOVES, f"save {tmp_path / 'm.json'}", "quit")
    repl2, _ = new_repl(game_file, keep_unsaved=True)
    feed(repl2, "quit")
    assert not (tmp_path / "sessions").exists()


def test_a_scripted_session_keeps_nothing(game_file, tmp_path):
    script = tmp_path / "in.txt"
    script.write_text("\n".join(MOVES) + "\nquit\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["play", str(game_file), "--seed", "3", "--script", str(script)])
    assert result.exit_code == 0, result.output
    assert not (tmp_path / "sessions").exists()


# ── --watch ──

def test_watch_reloads_when_a_game_file_changes(game_file):
    repl, out = new_repl(game_file, watch=True)
    text = game_file.read_text(encoding="utf-8")

    def edit_then(line):
        def step():
            game_file.write_text(text.replace("    cost 3", "    cost 9", 1), encoding="utf-8")
            st = game_file.stat()
            os.utime(game_file, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
            return line
        return step

    lines = iter([lambda: MOVES[0], lambda: MOVES[1], edit_then("moves"), lambda: "moves"])

    def read(_prompt):
        try:
            return next(lines)()
        except StopIteration:
            raise EOFError from None
    repl.run(read)
    said = out.getvalue()
    assert said.count("the game files changed: reloading") == 1
    assert "stopped at move 1" in said
    assert repl.match.moves == []


def test_without_watch_an_edit_is_not_read(game_file):
    repl, out = new_repl(game_file)
    watched, seen = new_repl(game_file, watch=True)  # the same steps, watched: the edit is read
    feed(repl, MOVES[0])
    feed(watched, MOVES[0])
    game_file.write_text(game_file.read_text(encoding="utf-8").replace("    cost 3", "    cost 9", 1), encoding="utf-8")
    st = game_file.stat()  # dated a second on, as an edit seen by --watch above
    os.utime(game_file, ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))
    start = len(out.getvalue())
    feed(repl, MOVES[1])
    feed(watched, MOVES[1])
    assert "the game files changed: reloading" in seen.getvalue()
    after = out.getvalue()[start:]
    assert "changed: coins of Basil: 0 → 3" in after and "Basil: take an action" in after  # the move was made
    assert "reloading" not in after and repl.match.moves == MOVES


# ── save and export never destroy a game file or another file ──


def test_save_and_export_never_write_over_a_file_of_the_game(tmp_path, monkeypatch):
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    games = tmp_path / "games"
    shutil.copytree(EXAMPLES.parent / "games", games, ignore=shutil.ignore_patterns("__snapshots__"))
    variant = tmp_path / "examples" / "variant.ludus"
    variant.parent.mkdir()
    shutil.copy(EXAMPLES / "uprising-great-country.ludus", variant)
    other = tmp_path / "examples" / "other.ludus"
    shutil.copy(EXAMPLES / "connect-four.ludus", other)
    files = [variant, games / "uprising.ludus", other]
    before = [p.read_bytes() for p in files]
    repl, out = new_repl(variant)
    repl.handle(repl.match.legal_actions()[0])
    targets = [str(variant), str(games / "uprising.ludus"), f"{games}/../games/uprising.ludus", str(other),
               str(tmp_path / "new.ludus")]
    for target in targets:
        repl.handle(f"save {target}")
        repl.handle(f"export {target}")
    said = [line for line in out.getvalue().splitlines() if line.startswith(("error", "saved", "exported"))]
    assert len(said) == 2 * len(targets) and all(line.startswith("error: not written: ") for line in said), said
    assert said[0] == f"error: not written: '{variant}' is a file of the game being played; give another name"
    assert said[2].endswith("uprising.ludus' is a file of the game being played; give another name")  # its base
    assert said[6] == f"error: not written: '{other}' is named as a game file (.ludus); give another name, like other.json"
    assert [p.read_bytes() for p in files] == before and not (tmp_path / "new.ludus").exists()
    assert repl.rejected == 2 * len(targets) and repl.saved_moves == []


def test_save_and_export_know_a_game_file_by_its_other_names(tmp_path, monkeypatch):
    """A hard link or a symlink to the game played or to its base is that file: writing there
    would replace it. A small game file even reads as a replay (`game "Base"` is a replay's
    header line too), so only knowing the file itself keeps `export` off it."""
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))
    base = tmp_path / "base.ludus"
    base.write_text('game "Base"\nplayers 2\ncounter coins per seat\nflow:\n    gain 1 coins\n    win P1\n',
                    encoding="utf-8")
    variant = tmp_path / "variant.ludus"
    variant.write_text('extends "base.ludus"\nvalue bonus = 2\n', encoding="utf-8")
    os.link(base, tmp_path / "base.replay")
    os.link(base, tmp_path / "base.json")
    os.link(variant, tmp_path / "variant.replay")
    (tmp_path / "via-symlink.replay").symlink_to(base)
    before = {p: p.read_bytes() for p in (base, variant)}
    repl, out = new_repl(variant)
    targets = ["base.replay", "base.json", "variant.replay", "via-symlink.replay"]
    for target in targets:
        repl.handle(f"save {tmp_path / target}")
        repl.handle(f"export {tmp_path / target}")
    assert {p: p.read_bytes() for p in (base, variant)} == before
    said = [line for line in out.getvalue().splitlines() if line.startswith(("error", "saved", "exported"))]
    assert said == [f"error: not written: '{tmp_path / target}' is a file of the game being played; give another name"
                    for target in targets for _ in ("save", "export")]
    assert repl.rejected == 2 * len(targets)


def test_save_and_export_replace_only_a_save_or_a_replay(game_file, tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n", encoding="utf-8")
    saved, replay = tmp_path / "m.json", tmp_path / "m.replay"
    repl, out = new_repl(game_file)
    repl.handle(MOVES[0])
    for line in (f"save {notes}", f"export {notes}", f"save {saved}", f"export {replay}", f"save {replay}",
                 f"export {saved}"):
        repl.handle(line)
    said = [line for line in out.getvalue().splitlines() if line.startswith(("error", "saved", "exported"))]
    assert said[0] == f"error: not written: '{notes}' exists and does not hold a saved match; give another name, or remove it first"
    assert said[1] == f"error: not written: '{notes}' exists and does not read as a replay; give another name, or remove it first"
    assert said[2].startswith("saved to") and said[3].startswith("exported")
    assert "does not hold a saved match" in said[4] and "does not read as a replay" in said[5]
    assert notes.read_text(encoding="utf-8") == "my notes\n"
    # saving or exporting again replaces the save or the replay, as it always did
    repl.handle(MOVES[1])
    repl.handle(f"save {saved}")
    repl.handle(f"export {replay}")
    assert out.getvalue().count("error:") == 4
    again, _ = new_repl(game_file)
    again.handle(f"load {saved}")
    assert again.match.moves == MOVES
    again.handle(f"load {replay}")
    assert again.match.moves == MOVES and again.rejected == 0


def test_a_loaded_match_whose_seed_no_replay_holds_is_kept_as_a_save(game_file, tmp_path):
    repl, _ = new_repl(game_file)
    repl.handle(f"save {tmp_path / 'm.json'}")
    data = json.loads((tmp_path / "m.json").read_text(encoding="utf-8"))
    data["seed"] = 10**16  # from a ludus that let `play --seed` take any number
    (tmp_path / "m.json").write_text(json.dumps(data), encoding="utf-8")
    old, out = new_repl(game_file, keep_unsaved=True)
    feed(old, f"load {tmp_path / 'm.json'}", MOVES[0], f"export {tmp_path / 'm.replay'}", "quit")
    assert (f"error: this match's seed, {10**16}, has more than the 15 digits a replay holds; "
            "`save FILE` keeps it as a saved match") in out.getvalue()
    assert not (tmp_path / "m.replay").exists()
    kept = list((tmp_path / "sessions").iterdir())
    assert [p.suffix for p in kept] == [".json"] and f"`load {kept[0]}` continues it" in out.getvalue()
    again, _ = new_repl(game_file)
    again.handle(f"load {kept[0]}")
    assert again.match.moves == MOVES[:1] and again.match.seed == 10**16 and again.rejected == 0
