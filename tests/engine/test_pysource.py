"""Expressions compiled to Python source (ludus/compiler/pysource.py): the same behaviour as
the closures they replace, located errors, and the on-disk cache of compiled modules."""

from __future__ import annotations

import pytest

import ludus
from ludus.compiler import pysource
from ludus.engine.runtime import RuleError
from ludus.language import cache
from tests.engine.playouts import ROOT, key, play
from tests.engine.test_playouts import REFERENCE
from tests.helpers import game_from_text, work_charges

GENERATED = "<ludus generated expressions>"

SOURCE = '''game "Generated"
players 2
counter coins per seat start 3
token Stone
board land:
    region A adjacent to B
    region B adjacent to A
define stones(r) = Stone at r
define rich = [s for s in seats where coins of s >= 3]
action Take(r in [A, B]):
    label "take from {r} ({stones(r)} there)"
    require stones(r) > 0 and size(rich) > 0
    remove 1 Stone from r
    increase coins by 1
action Split(r in [A, B]):
    require coins / (stones(r) - stones(r)) > 0
flow:
    add 2 Stone to A
    add 1 Stone to B
    repeat 3 times:
        turn P1:
            offer Take
    win P1
'''


@pytest.fixture(autouse=True)
def generated(monkeypatch):
    """Generation on, as by default, even when the suite runs with LUDUS_CLOSURES=1."""
    monkeypatch.setattr(pysource, "ENABLED", True)


def test_the_closures_play_exactly_as_recorded_too(monkeypatch):
    """The closures stay the reference: with generation off, the digests are the same."""
    monkeypatch.setattr(pysource, "ENABLED", False)
    for path, players in [("examples/connect-four.ludus", 2), ("games/uprising.ludus", 2),
                          ("games/votes-for-women/votes-for-women.ludus", 2)]:
        game = ludus.load(ROOT / path)
        requires = [f for a in game.actions.values() for f in a.requires]
        assert requires and all(f.__code__.co_filename != GENERATED for f in requires)
        expected = REFERENCE[key(path, players)]
        assert [play(game, players, seed) for seed in range(6)] == expected[:6]


def test_requirements_and_labels_run_generated_code(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    game = ludus.load(path)
    assert game.actions["Take"].requires[0].__code__.co_filename == GENERATED
    m = game.new_match(2)
    assert m.legal_actions() == ["take from A (2 there)", "take from B (1 there)"]
    m.apply("take from B (1 there)")
    assert m.legal_actions() == ["take from A (2 there)"]


def test_an_error_in_generated_code_is_located_at_its_rule(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(SOURCE.replace("offer Take", "offer Split"), encoding="utf-8")
    with pytest.raises(RuleError, match="division by zero") as err:
        ludus.load(path).new_match(2)
    assert str(err.value).startswith(f"{path}:")


def _cached(tmp_path, monkeypatch):
    """The game of SOURCE loaded once with a cache of its own under `tmp_path`, and its first
    options; nothing remembered in this process before."""
    monkeypatch.setenv("LUDUS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(pysource, "_LOADED", {})
    path = tmp_path / "g.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    return path, ludus.load(path).new_match(2).legal_actions()


def test_a_warm_load_reads_the_cache_and_a_damaged_cache_is_compiled_again(tmp_path, monkeypatch):
    path, first = _cached(tmp_path, monkeypatch)
    files = list((tmp_path / "cache" / "pysource").iterdir())
    assert len(files) == 1
    stamp = files[0].stat().st_mtime_ns
    pysource._LOADED.clear()  # as a new process would
    assert ludus.load(path).new_match(2).legal_actions() == first
    assert files[0].stat().st_mtime_ns == stamp  # read, not written again
    files[0].write_bytes(b"not a code object")
    assert ludus.load(path).new_match(2).legal_actions() == first  # this process remembers it
    pysource._LOADED.clear()
    assert ludus.load(path).new_match(2).legal_actions() == first
    assert files[0].read_bytes() != b"not a code object"
    files[0].write_bytes(b"N")  # good marshal data, but None, not a code object
    pysource._LOADED.clear()
    assert ludus.load(path).new_match(2).legal_actions() == first


def test_a_torn_or_foreign_cache_file_is_never_run_but_compiled_again(tmp_path, monkeypatch):
    # the cache is written without an fsync (it is made again when lost), so after a crash its
    # file may hold part of the bytes, or bytes that are not the ones written for its name: read
    # as valid, a module of other code would run as the game's
    import marshal

    path, first = _cached(tmp_path, monkeypatch)
    [cached] = list((tmp_path / "cache" / "pysource").iterdir())
    whole = cached.read_bytes()
    foreign = marshal.dumps(compile("raise SystemExit('not this game')", "<elsewhere>", "exec"))
    for damaged in [whole[:n] for n in (0, 1, 10, len(whole) // 2, len(whole) - 1)] + [
            foreign, whole[:40] + foreign, whole[:-1] + bytes([whole[-1] ^ 1])]:
        cached.write_bytes(damaged)
        pysource._LOADED.clear()  # as a new process would
        assert ludus.load(path).new_match(2).legal_actions() == first
        assert cached.read_bytes() == whole  # written again, whole
    # a write that fails (here a folder where the file goes) leaves no file of its own behind
    cached.unlink()
    cached.mkdir()
    pysource._LOADED.clear()
    assert ludus.load(path).new_match(2).legal_actions() == first
    assert list((tmp_path / "cache" / "pysource").iterdir()) == [cached]


def test_the_cache_keeps_only_the_newest_files(tmp_path, monkeypatch):
    import os

    monkeypatch.setenv("LUDUS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setattr(pysource, "_LOADED", {})
    monkeypatch.setattr(cache, "FILES_KEPT", 3)
    path = tmp_path / "g.ludus"
    for i in range(5):  # five versions of a game being edited
        path.write_text(SOURCE.replace("start 3", f"start {i + 3}"), encoding="utf-8")
        ludus.load(path)
        for f in (tmp_path / "cache" / "pysource").iterdir():  # older files look older
            os.utime(f, (f.stat().st_mtime - 10, f.stat().st_mtime - 10))
    assert len(list((tmp_path / "cache" / "pysource").iterdir())) == 3


def test_without_a_home_folder_the_game_loads_and_nothing_is_cached(tmp_path, monkeypatch):
    from pathlib import Path

    def no_home():
        raise RuntimeError("Could not determine home directory")

    monkeypatch.delenv("LUDUS_CACHE_DIR", raising=False)
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setattr(Path, "home", staticmethod(no_home))
    monkeypatch.setattr(pysource, "_LOADED", {})
    path = tmp_path / "g.ludus"
    path.write_text(SOURCE, encoding="utf-8")
    assert ludus.load(path).new_match(2).legal_actions() == ["take from A (2 there)", "take from B (1 there)"]


# ── fast paths: each gives what the closure gives, value and error alike ──

LOCALS = '''game "Locals"
players 2
counter coins per seat start 3
token Stone
board land:
    region A adjacent to B
    region B adjacent to A, C
    region C adjacent to B
group places = A, B, C
piece Pawn
define near(r) = [a for a in adjacent(r)]
action Look(r in places, k in [1, 2]):
    label "{r}/{k}: {[a for a in adjacent(r) where Stone at a + k > 1]} | {count(x for x in places where abs(Stone at x - k) > 0)} | {sum(Stone at x + 1 for x in places)} | {[[y for y in near(x) where y != r] for x in places where x != r]} | {[r for r in places where r != A]} | {r.parent} {r.label} {r.kind} | {Pawn at r} | {[p.loc for p in Pawn at r]} {[p.owner for p in Pawn at r]} {[p.name for p in Pawn at r]} | {[A] + near(r)} {size(near(r) + [B])} {B in (if k > 1 then near(r) else [C])}"
    require r in [A, B, C] and size([x for x in places]) == 3
action Pay(k in [1, 2, 3, 4]):
    cost k coins
action Plain(r in places, k in [1, 2]):
    require Stone at r - k >= 0 and Stone at r + k < 4
action Give(s in seats, p in Pawn at A):
    require true
flow:
    add 2 Stone to A
    add 1 Stone to C
    create Pawn at A for P1
    turn P1:
        offer Look, Pay, Plain, Give
    win P1
'''


def _both(tmp_path, monkeypatch, source):
    """legal_actions() of a new match (or its error), generated and with the closures."""
    path = tmp_path / "g.ludus"
    path.write_text(source, encoding="utf-8")
    out = []
    for enabled in (True, False):
        monkeypatch.setattr(pysource, "ENABLED", enabled)
        game = ludus.load(path)
        listing = [a.enumerate for a in game.actions.values() if a.enumerate is not None]
        assert bool(listing) == enabled
        assert all(f.__code__.co_filename == GENERATED for f in listing)
        try:
            out.append(game.new_match(2).legal_actions())
        except RuleError as err:
            out.append(str(err))
    assert out[0] == out[1]
    return out[0]


def _both_after_a_move(tmp_path, monkeypatch, source):
    """The options of a new match and after its first one is taken, generated and with the
    closures (they must be the same)."""
    path = tmp_path / "g.ludus"
    path.write_text(source, encoding="utf-8")
    seen = []
    for enabled in (True, False):
        monkeypatch.setattr(pysource, "ENABLED", enabled)
        m = ludus.load(path).new_match(2)
        first = m.legal_actions()
        m.apply(0)
        seen.append((first, m.legal_actions()))
    assert seen[0] == seen[1]
    return seen[0]


def test_locals_in_listings_and_comprehensions_read_as_the_closures_do(tmp_path, monkeypatch):
    # nested comprehensions, a closure (abs) reading a comprehension's variable and an action's
    # parameter, a variable that shadows a parameter, a define, a cost read in env, labels
    # written out and the default label of an action (seats and pieces displayed)
    shown = _both(tmp_path, monkeypatch, LOCALS)
    assert shown[:2] == [
        "A/1: nothing | 2 | 6 | C, B | B, C | none A region | P1 Pawn in A | A P1 Pawn | A, B 2 no",
        "A/2: B | 2 | 6 | C, B | B, C | none A region | P1 Pawn in A | A P1 Pawn | A, B 2 yes"]
    assert shown[2] == ("B/1: A, C | 2 | 6 | nothing, nothing | B, C | none B region | nothing | nothing nothing nothing"
                        " | A, A, C 3 no")
    assert shown[6:] == ["Pay 1", "Pay 2", "Pay 3", "Plain A 1", "Plain C 1",
                         "Give P1 P1 Pawn in A", "Give P2 P1 Pawn in A"]


def test_a_listing_sets_env_only_for_code_that_reads_it(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(LOCALS, encoding="utf-8")
    game = ludus.load(path)
    m = game.new_match(2)
    from ludus.engine.runtime import Runtime

    rt = Runtime(game, m.state, [])
    for name, left in [("Plain", {}), ("Pay", {"k": 4})]:  # Pay's cost is read in env
        env = {"$cur": 0, "$act": 0}
        game.actions[name].enumerate(rt, env, 0, [], [])
        assert env == {"$cur": 0, "$act": 0, **left}


NONE = "which is none here (a var not set yet, or the top or first of an empty zone or list, is none)"


@pytest.mark.parametrize(("hole", "message"), [
    # a property of none is located at its read, in the label: line 13, after `label "{`
    ("{first(Pawn at B).loc}", f"13:13: error: cannot read 'loc' of 'first(Pawn at B)', {NONE}"),
    ("{first(Pawn at B).owner}", f"13:13: error: cannot read 'owner' of 'first(Pawn at B)', {NONE}"),
    ("{first([r for r in places where Stone at r > 5]).parent}", "none is not a space"),
    ("{first([r for r in places where Stone at r > 5]).label}", "none is not a space"),
    ("{size(line(r, east, 2))}", "'A' is not a cell of a grid board"),
    ("{step(r, north)}", "'A' is not a cell of a grid board"),
])
def test_a_fast_path_fails_with_the_closures_error(tmp_path, monkeypatch, hole, message):
    shown = _both(tmp_path, monkeypatch, LOCALS.replace('label "{r}/{k}: ', f'label "{hole} '))
    offer = LOCALS.splitlines().index("        offer Look, Pay, Plain, Give") + 1
    if not message[0].isdigit():  # located at the statement that lists the moves
        message = f"{offer}:9: error: {message}"
    assert shown == f"{tmp_path / 'g.ludus'}:{message}"


def test_lines_and_steps_on_a_grid_as_the_closures_give_them(tmp_path, monkeypatch):
    source = '''game "Grid"
players 2
board field grid 3 by 2
action Look(c in cells, d in [east, north, northeast]):
    label "{c} {d}: {line(c, d, 3)} / {step(c, d)} / {size(line(c, d, 2))} / {line(c, d, 3)}"
flow:
    turn P1:
        offer Look
    win P1
'''
    shown = _both(tmp_path, monkeypatch, source)
    assert len(shown) == 18
    assert shown[0] == "a1 east: a1, b1, c1 / b1 / 2 / a1, b1, c1"  # the same line twice
    assert "a1 northeast: a1, b2 / b2 / 2 / a1, b2" in shown


COUNTS = '''game "Counts"
players 2
token Stone
token Coin per seat
board land:
    region A adjacent to B
    region B adjacent to A
kind Char:
    power: number
    luck: number = 2
    rank: number = 1 + 2
piece Hero is Char:
    power 3
piece Ghost is Char:
    power 1 + 1
action Look(r in [A, B], s in seats):
    label "{r} {s}: {Stone at r} {Coin at r} {Coin of s at r} {Coin of s at first(Hero at A)} {Coin at first(Hero at A)} {Stone at first(Hero at A)} | {[c.power for c in Chars]} {[c.luck for c in Chars]} {[c.rank for c in Chars]}"
flow:
    add 2 Stone to A
    add 2 Coin of P2 to A
    add 1 Coin of P1 to A
    add 4 Coin of P2 to B
    create Hero at A for P1
    create Hero at B for P2
    create Ghost at B for P2
    add 5 Coin of P2 to first(Hero at A)
    add 7 Stone to first(Hero at A)
    increase first(Hero at B).power by 4
    increase first(Hero at B).luck by 1
    turn P1:
        offer Look
    remove 2 Coin from A
    turn P1:
        offer Look
    win P1
'''


def test_token_counts_and_properties_read_as_the_closures_do(tmp_path, monkeypatch):
    # token counts at a space (owned or not, with or without an owner) and at a piece; a
    # property written as a literal, one computed, one set in the state, a kind's default
    first, then = _both_after_a_move(tmp_path, monkeypatch, COUNTS)
    assert first == ["A P1: 2 3 1 0 5 7 | 3, 7, 2 2, 3, 2 3, 3, 3", "A P2: 2 3 2 5 5 7 | 3, 7, 2 2, 3, 2 3, 3, 3",
                     "B P1: 0 4 0 0 5 7 | 3, 7, 2 2, 3, 2 3, 3, 3", "B P2: 0 4 4 5 5 7 | 3, 7, 2 2, 3, 2 3, 3, 3"]
    # removing without an owner takes from the owners in the order of their keys: P1 first
    assert then[:2] == ["A P1: 2 1 0 0 5 7 | 3, 7, 2 2, 3, 2 3, 3, 3", "A P2: 2 1 1 5 5 7 | 3, 7, 2 2, 3, 2 3, 3, 3"]


def test_a_property_of_none_fails_as_the_closure_does(tmp_path, monkeypatch):
    source = COUNTS.replace("{[c.power for c in Chars]}", "{first(Hero at B).power} {first(Ghost at A).power}")
    shown = _both(tmp_path, monkeypatch, source)
    assert shown.endswith(f"error: cannot read 'power' of 'first(Ghost at A)', {NONE}")


@pytest.mark.parametrize(("hole", "message"), [
    ('{line(c, "up", 2)}', "'up' is not a direction (north, south, east, west, northeast, northwest, southeast, southwest)"),
    ("{line(c, d, -1)} {line(c, d, true)}", "the length of the line should be a number, and it is True"),
])
def test_a_line_that_cannot_be_drawn_fails_as_the_closure_does(tmp_path, monkeypatch, hole, message):
    source = f'''game "Grid"
players 2
board field grid 3 by 2
action Look(c in cells, d in [east, north]):
    label "{hole}"
flow:
    turn P1:
        offer Look
    win P1
'''
    assert _both(tmp_path, monkeypatch, source).endswith(f"error: {message}")


def test_vars_never_set_read_their_start_as_the_closures_do(tmp_path, monkeypatch):
    source = '''game "Vars"
players 2
counter coins per seat
counter gems per seat start 2
flag ruined per region
flag over
var leader: seat
board land:
    region A adjacent to B
    region B adjacent to A
kind Char:
    power: number
piece Hero is Char:
    power 3
action Look(r in [A, B]):
    label "{r}: {coins} {coins of P2} {gems} {ruined of r} {over} {leader} | {[h.kind for h in Hero at r]} {[h.power for h in Hero at r]}"
flow:
    create Hero at A for P1
    turn P1:
        offer Look
    increase coins of P2 by 4
    set ruined of B to true
    set over to true
    set leader to P2
    turn P1:
        offer Look
    win P1
'''
    assert _both_after_a_move(tmp_path, monkeypatch, source) == (["A: 0 0 2 no no none | Char 3", "B: 0 0 2 no no none | nothing nothing"],
                       ["A: 0 4 2 no yes P2 | Char 3", "B: 0 4 2 yes yes P2 | nothing nothing"])


DYNAMIC = '''game "Dynamic"
players 2 to 3
seats Red, Blue, Green
board land:
    region A adjacent to B
    region B adjacent to A
    space C in A
kind Char:
    power: number
piece Hero is Char:
    power 3
define prop(x, f) = if f == 1 then x.power else x.parent
action Look(r in [A, B, C]):
    label "{r}: {prop(top(Hero at A), 1)} {prop(r, 2)} {top(Hero at r)} {top([])} {Red} {Blue} {[s for s in seats where s != Blue]}"
flow:
    create Hero at A for Red
    turn Red:
        offer Look
    win Red
'''


@pytest.mark.parametrize(("hole", "message"), [
    ("", None),
    ('{prop("z", 2)}', "'z' has no property 'parent'"),
    ("{prop(7, 1)}", "no card or piece #7"),
    ("{Green}", "seat 'Green' is not in a 2-player match"),
])
def test_properties_of_anything_tops_and_seats_as_the_closures_give_them(tmp_path, monkeypatch, hole, message):
    shown = _both(tmp_path, monkeypatch, DYNAMIC.replace('label "{r}: ', f'label "{hole}{{r}}: '))
    if message is None:
        assert shown == ["A: 3 none Red Hero in A none Red Blue Red", "B: 3 none none none Red Blue Red",
                         "C: 3 A none none Red Blue Red"]
    else:
        assert shown.endswith(f"error: {message}")


def test_conditions_values_and_seats_as_the_closures_read_them(tmp_path, monkeypatch):
    # and/or/not in requirements, `where` and any/all; values written as literals; seats
    # listed for a loop
    source = '''game "Truth"
players 2
token Stone
value limit = 2
value word = "w"
value many = limit + 1
board land:
    region A adjacent to B
    region B adjacent to A
action Look(r in [A, B], k in [0, 1, 2, 3]):
    label "{r} {k} {word}: {any(Stone at x > k for x in [A, B])} {all(Stone at x >= k or x == B for x in [A, B])} {[x for x in [A, B] where not (Stone at x > 0 and k < 2)]} {count(s for s in seats where s != P1 or k > 1)} {many}"
    require (Stone at r > 0 or k > 0) and not (k > limit and r == B)
flow:
    add 2 Stone to A
    turn P1:
        offer Look
    win P1
'''
    shown = _both(tmp_path, monkeypatch, source)
    assert shown == ["A 0 w: yes yes B 1 3", "A 1 w: yes yes B 1 3", "A 2 w: no yes A, B 2 3",
                     "A 3 w: no no A, B 2 3", "B 1 w: yes yes B 1 3", "B 2 w: no yes A, B 2 3"]


def test_membership_in_a_group_or_a_board_kind_reads_it_as_a_constant(tmp_path, monkeypatch):
    # `r in places` and `r not in lands` test the fixed list itself, never a copy of it; the
    # options are the closures' all the same (a seat, a number and a text are in no such list)
    source = '''game "Members"
players 2
board land:
    region A adjacent to B
    region B adjacent to A
    sea S adjacent to A
group places = A, S
action Pick(r in [A, B, S], k in [1, 2]):
    require (r in places and r not in region) or (k > 1 and P1 not in places and "A" in region)
flow:
    turn P1:
        offer Pick
    win P1
'''
    compiled = []
    real = pysource._cached_compile
    monkeypatch.setattr(pysource, "_cached_compile", lambda text: compiled.append(text) or real(text))
    assert _both(tmp_path, monkeypatch, source) == ["Pick A 2", "Pick B 2", "Pick S 1", "Pick S 2"]
    assert len(compiled) == 1 and " in k" in compiled[0] and " in list(" not in compiled[0]


def test_a_closure_among_a_listings_parameters_keeps_the_ones_bound_before_it(tmp_path, monkeypatch):
    # seats_from() is a closure whose argument is generated on its own while the listing is
    # being generated; `k`, bound before it, is read after it
    source = '''game "Nested"
players 2
action Pick(k in [1, 2], s in seats_from(P2), t in [k, k + 1]):
    require abs(k - 3) > 0 and t > k
flow:
    turn P1:
        offer Pick
    win P1
'''
    assert _both(tmp_path, monkeypatch, source) == ["Pick 1 P2 2", "Pick 1 P1 2", "Pick 2 P2 3", "Pick 2 P1 3"]


HOISTED = '''game "Hoisted"
players 2
token Coin per seat
board land:
    region A adjacent to B
    region B adjacent to A
group places = A, B
piece Pawn
define coins_of(s) = sum(Coin of s at r for r in places)
define mine = [r for r in places where Coin of actor at r > 0]
action Move(p in Pawn of actor, r in places):
    label "{p.loc} to {r} ({coins_of(p.owner)} {coins_of(none)} {mine} {[x for x in places where Coin of p.owner at x > 1]})"
    require p.loc != r and p.owner == actor
action Ghost(p in [first(Pawn of P2)]):
    label "{p.loc} {p.loc}"
action Nobody(p in Pawn at B):
    require p.loc != B
    label "{p.loc}"
flow:
    add 1 Coin of P1 to A
    add 2 Coin of P1 to B
    add 4 Coin of P2 to B
    create Pawn at A for P1
    create Pawn at B for P1
    turn P1:
        offer OFFER
    win P1
'''


def test_reads_made_once_a_loop_give_what_the_closures_give(tmp_path, monkeypatch):
    # a piece's place read twice in one listing (read once where its loop sets it), an
    # empty loop that reads nothing, a token count whose owner is the loop's constant (none or a
    # seat), and who acts, kept in a local
    shown = _both(tmp_path, monkeypatch, HOISTED.replace("OFFER", "Move, Nobody"))
    assert shown == ["A to B (3 7 A, B B)", "B to A (3 7 A, B B)"]


def test_a_read_made_once_a_loop_fails_where_it_failed(tmp_path, monkeypatch):
    shown = _both(tmp_path, monkeypatch, HOISTED.replace("OFFER", "Move, Ghost"))
    label = HOISTED.splitlines().index('    label "{p.loc} {p.loc}"') + 1  # Ghost's, its `p` none: the first read
    assert shown == f"{tmp_path / 'g.ludus'}:{label}:13: error: cannot read 'loc' of 'p', {NONE}"


CONSTANTS = '''game "Constants"
players 2
token Stone per seat
board land:
    region A adjacent to B
    region B adjacent to A, C
    region C adjacent to B
value nums = [1, 2, 3]
value rows = [[A, B], [B, C], [C]]
define full(s) = any(all(Stone of s at r > 0 for r in row) for row in rows)
define sizes = [size(row) for row in rows]
define copied = [row for row in rows where size(row) > 1]
action Pick(k in nums):
    label "{k}: {full(P1)} {full(P2)} {sizes} {copied} {sum(x for x in nums)}"
flow:
    add 1 Stone of P1 to C
    add 1 Stone of P2 to A
    add 1 Stone of P2 to B
    turn P1:
        offer Pick
    win P1
'''


def test_a_value_written_as_constants_is_read_without_building_it(tmp_path, monkeypatch):
    shown = _both(tmp_path, monkeypatch, CONSTANTS)
    assert shown == [f"{k}: yes yes 2, 2, 1 A, B, B, C 6" for k in (1, 2, 3)]
    monkeypatch.setattr(pysource, "ENABLED", True)
    game = ludus.load(tmp_path / "g.ludus")  # count the calls of each value's function
    calls = {"nums": 0, "rows": 0}
    for name in calls:
        def counted(rt, env, fn=game.values[name], name=name):
            calls[name] += 1
            return fn(rt, env)
        game.values[name] = counted
    assert game.new_match(2).legal_actions() == shown
    # looped over or measured: never built; `copied` hands its rows on, so it builds its own
    assert calls == {"nums": 0, "rows": 1}


QUANTIFIERS = '''game "Quantifiers"
players 2
token Stone per seat
board land:
    region A adjacent to B
    region B adjacent to A, C
    region C adjacent to B
value rows = [[A, B], [B, C], [C]]
define full(s) = any(all(Stone of s at r > 0 for r in row) for row in rows)
define gaps(s) = all(any(Stone of s at r == 0 for r in row where r != C) for row in rows where size(row) > 1)
define ratio(s) = any(all(4 / (Stone of s at r) > 1 for r in row) for row in rows)
action Pick(k in [1, 2]):
    label "{k}: {full(P1)} {full(P2)} {gaps(P1)} {gaps(P2)} RATIO"
flow:
    add 1 Stone of P1 to C
    add 1 Stone of P2 to A
    add 3 Stone of P2 to B
    turn P1:
        offer Pick
    win P1
'''


def test_a_quantifier_in_a_quantifier_is_one_loop_and_gives_what_the_closures_give(tmp_path, monkeypatch):
    written = []
    real = pysource._cached_compile
    monkeypatch.setattr(pysource, "_cached_compile", lambda source: written.append(source) or real(source))
    shown = _both(tmp_path, monkeypatch, QUANTIFIERS.replace(" RATIO", ""))
    assert shown == [f"{k}: yes yes yes no" for k in (1, 2)]
    # the inner any/all of each of the three defines is written into its enclosing loop (its
    # value set in a local `_q<k>` before the loop and where it is decided), not a function
    assert sum(line.strip().startswith("_q") for line in written[0].splitlines()) == 6


def test_a_quantifier_in_a_quantifier_fails_where_the_closures_fail(tmp_path, monkeypatch):
    # P1 has no stone at A: 4 / 0 in the first row, as the closures meet it
    shown = _both(tmp_path, monkeypatch, QUANTIFIERS.replace("RATIO", "{ratio(P1)}"))
    line = QUANTIFIERS.splitlines().index("        offer Pick") + 1
    assert shown == f"{tmp_path / 'g.ludus'}:{line}:9: error: division by zero"


def test_a_label_longer_than_texts_may_be_is_refused_as_the_closures_refuse_it(tmp_path, monkeypatch):
    doubled = "".join(f"define t{i + 1} = t{i} + t{i}\n" for i in range(13))  # 10 * 2**13 characters
    source = f'''game "Long"
players 2
define t0 = "xxxxxxxxxx"
{doubled}action Shout:
    label "{{t13}}{{t13}}"
flow:
    turn P1:
        offer Shout
    win P1
'''
    shown = _both(tmp_path, monkeypatch, source)
    assert shown.endswith("error: the text would be 163,840 characters long, more than ludus allows (100,000)")


def test_a_yes_or_no_property_and_its_kinds_default_read_as_the_closures_read_them(tmp_path, monkeypatch):
    source = '''game "Flags"
players 2
zone pile
kind Plan:
    ready: bool = true
card "Early" is Plan:
    ready false
card "Late" is Plan:
    copies 2
card "Odd" is Plan:
    ready size(pile) > 9
action Play(c in pile):
    label "{c.name} {c.ready}"
    require c.ready or c.name == "Early"
setup:
    move box to pile
flow:
    turn P1:
        offer Play
    win P1
'''
    # the two Lates are one option (copies alike); Odd reads its property from the state: not ready
    assert _both(tmp_path, monkeypatch, source) == ["Late yes", "Early no"]


PREFIXED = '''game "Prefixed"
players 2
board land:
    region A adjacent to B
    region B adjacent to A, C
    region C adjacent to B
    region D
kind Char:
    power: number = 1
piece Scout is Char
piece Ghost is Char
setup:
    create Scout at A for P1
    create Scout at B for P1
    create Ghost at GHOST for P1
action Walk(c in Chars of actor, to in adjacent(c.loc)):
    label "LABEL"
flow:
    turn P1:
        offer Walk
    win P1
'''


def test_a_labels_first_parameter_part_is_made_once_a_turn_of_its_loop(tmp_path, monkeypatch):
    source = PREFIXED.replace("GHOST", "C").replace("LABEL", "{c.name} in {c.loc} ({c.power}): walk to {to}")
    shown = _both(tmp_path, monkeypatch, source)
    assert shown == ["Scout in A (1): walk to B", "Scout in B (1): walk to A", "Scout in B (1): walk to C",
                     "Ghost in C (1): walk to B"]
    monkeypatch.setattr(pysource, "ENABLED", True)
    game = ludus.load(tmp_path / "g.ludus")
    assert "_lab0" in game.actions["Walk"].enumerate.__code__.co_varnames


FAILS_FOR_GHOSTS = "{100 / (c.power - size(Ghost at c.loc))} walk to {to}"


def test_a_labels_first_part_is_not_made_for_a_piece_with_no_option(tmp_path, monkeypatch):
    # the Ghost in D has nowhere to walk: no label of it is made, so its part does not fail
    shown = _both(tmp_path, monkeypatch, PREFIXED.replace("GHOST", "D").replace("LABEL", FAILS_FOR_GHOSTS))
    assert shown == ["100 walk to B", "100 walk to A", "100 walk to C"]


@pytest.mark.parametrize(("ghost", "label"), [
    # the first part fails for the third piece, after two pieces' labels were made
    ("C", FAILS_FOR_GHOSTS),
    # the part after the first parameter's fails for the second piece's second neighbour, where
    # the first part was made for its first neighbour
    ("C", "{c.name}: {100 / (size(Ghost at to) - 1)}"),
])
def test_a_label_part_fails_where_the_closures_fail(tmp_path, monkeypatch, ghost, label):
    shown = _both(tmp_path, monkeypatch, PREFIXED.replace("GHOST", ghost).replace("LABEL", label))
    assert "division by zero" in shown


def test_a_loop_over_a_kind_tested_by_a_written_property_gives_what_the_closures_give(tmp_path, monkeypatch):
    # `c.column == k and ...` loops over the cells of column k only (SourceGen.grouped): with a
    # number, true (which equals 1), a list, a column no cell has, the property on the right,
    # and a property not written as a literal on every space (every space is tested then)
    source = '''game "Columns"
players 2
board field grid 3 by 2
board land:
    region North adjacent to South with ring 1
    region South adjacent to North with ring 0 + 2
token Stone
define in_column(k) = [c for c in cells where c.column == k and Stone at c == 0]
define reversed(k) = [c for c in cells where k == c.row]
define ringed(k) = [r for r in regions where r.ring == k]
action Look(k in [1, 2, 3, 9, true, [1], "1"]):
    label "{k}: {in_column(k)} / {reversed(k)} / {count(c for c in cells where c.column == k)} / {ringed(k)}"
flow:
    add 1 Stone to b1
    turn P1:
        offer Look
    win P1
'''
    assert _both(tmp_path, monkeypatch, source) == [
        "1: a1, a2 / a1, b1, c1 / 2 / North",
        "2: b2 / a2, b2, c2 / 2 / South",  # b1 holds a stone
        "3: c1, c2 / nothing / 2 / nothing",
        "9: nothing / nothing / 0 / nothing",
        "yes: a1, a2 / a1, b1, c1 / 2 / North",  # true equals 1, as in the closures
        "1: nothing / nothing / 0 / nothing",  # a list equals no number
        "1: nothing / nothing / 0 / nothing #2",  # nor does a text
    ]


KEPT = '''game "Kept"
players 2
token Stone
board land:
    region A adjacent to B
    region B adjacent to A
define spread(x) = size([y for y in [1, 2, 3, 4, 5, 6, 7] where x])
define ratio(r) = 10 / (Stone at r)
define stones(r) = Stone at r
action Pick(n in [1, 2, 3]):
    label "pick {n}"
    require stones(B) + n > 2 and spread(n > 0) == 7
flow:
    add 1 Stone to B
    turn P1:
        log "{all(spread(true) == 7 for z in [1, 2, 3])}"
        log "{all(ratio(A) > z for z in [])} {any(z > 5 and ratio(A) > 0 for z in [1, 2])}"
        log "{[stones(r) for r in [A, B]]} / {[sum(spread(z > 1) for r in [A, B]) for z in [1, 2]]}"
        offer Pick
    win P1
'''


def test_a_call_with_the_same_arguments_at_every_turn_of_a_loop_runs_once(tmp_path, monkeypatch):
    charges = work_charges(monkeypatch)
    game = game_from_text(tmp_path, KEPT)
    m = game.new_match(2)
    # spread is never remembered (its argument is a bool), so each run of its body is a charge
    # of 7: once for the loop over three, once for each turn of the outer loop of the third
    # line (not for each turn of the inner one), and once for each option that gets as far
    # (`n > 0` is worked out anew for each n)
    assert charges[7] == 1 + 2 + 2
    assert [e["text"] for e in m.log if e["t"] == "log"][0] == "yes"
    assert m.legal_actions() == ["pick 2", "pick 3"]


def test_a_call_kept_for_a_loop_runs_where_it_did(tmp_path):
    # ratio(A) fails (no stone in A): not in a loop with no turns, nor where no turn reaches it
    m = game_from_text(tmp_path, KEPT).new_match(2)
    logged = [e["text"] for e in m.log if e["t"] == "log"]
    assert logged[1] == "yes no"
    # a call whose arguments change with the loop is made at each turn; one whose arguments
    # are the same in an inner loop's turns is kept for that loop only
    assert logged[2] == "0, 1 / 0, 14"


LABELLED = '''game "Labelled"
players 2
value amounts = [1, 2, 10]
value ways = ["north", "south"]
action Take(n in amounts):
    label "take {n} coins"
action Bid(n in amounts):
    label "bid {n} of {amounts}"
action Go(way in ways):
    log "went {way}"
action Pay(n in [1, 2]):
    label "pay {n} ({n * 2} in all)"
action Hail(s in [P1, P2]):
    label "hail {s}"
flow:
    turn P1:
        offer Take, Bid, Go, Pay, Hail
    win P1
'''


@pytest.mark.parametrize("generated", [True, False])
def test_labels_of_a_constant_list_read_as_the_closures_make_them(tmp_path, monkeypatch, generated):
    # Take and Go show their value only (made once when loaded); Bid shows a list, Pay a sum
    # and Hail a seat, which the listing makes each time
    monkeypatch.setattr(pysource, "ENABLED", generated)
    m = game_from_text(tmp_path, LABELLED).new_match(2)
    assert m.legal_actions() == [
        "take 1 coins", "take 2 coins", "take 10 coins", "bid 1 of 1, 2, 10", "bid 2 of 1, 2, 10",
        "bid 10 of 1, 2, 10", "Go north", "Go south", "pay 1 (2 in all)", "pay 2 (4 in all)", "hail P1",
        "hail P2"]
    if generated:  # the labels made at load are those of Take and Go
        tables = [v for v in m.game.actions["Take"].enumerate.__globals__.values()
                  if isinstance(v, dict) and v in ({1: "take 1 coins", 2: "take 2 coins", 10: "take 10 coins"},
                                                   {"north": "Go north", "south": "Go south"})]
        assert len(tables) == 2


def test_a_label_too_long_is_refused_when_listed_not_when_loaded(tmp_path):
    text = LABELLED.replace('label "take {n} coins"', 'label "' + "x" * 100_000 + ' {n}"')
    game = game_from_text(tmp_path, text)
    with pytest.raises(RuleError, match="more than ludus allows"):
        game.new_match(2)


def _loaded_both_ways(tmp_path, monkeypatch, source):
    """The game of `source` loaded with generated code, then with the closures."""
    path = tmp_path / "g.ludus"
    path.write_text(source, encoding="utf-8")
    for enabled in (True, False):
        monkeypatch.setattr(pysource, "ENABLED", enabled)
        yield ludus.load(path)


def test_gain_and_pay_on_a_counter_with_bounds_change_what_the_closures_change(tmp_path, monkeypatch):
    # a counter written with bounds, gained past its max and paid to its min, gains of 0, a
    # trigger that watches it (with old and new), a define that reads it, and undo
    source = '''game "Counters"
players 2
counter coins per seat min 0 max 7
counter pot start 5 min 2
counter seen
define flush = coins >= 6
when coins changes:
    increase seen by 10 * old + new
action Earn(k in [0, 3, 5]):
    label "earn {k} ({flush})"
    gain k coins
    pay 1 pot
action Spend(k in [1, 2]):
    label "spend {k}"
    require coins >= k
    pay k coins
    gain k pot
flow:
    repeat 6 times:
        for each s in seats:
            turn s:
                offer Earn, Spend
    win P1
'''
    traces = []
    for game in _loaded_both_ways(tmp_path, monkeypatch, source):
        for seed in range(6):
            m = game.new_match(2, seed=seed)
            trace = []
            for turn in range(12):
                options = m.legal_actions()
                m.apply(options[(seed + 5 * turn) % len(options)])
                trace.append((m.legal_actions(), dict(m.state["vars"])))
            while m.moves:
                m.undo()
            traces.append((trace, m.to_json()))
    assert traces[:6] == traces[6:]
    generated = traces[:6]
    # the bounds held and the trigger saw the changes: what the comparison is about happened
    assert any(v.get("coins@0") == 7 for trace, _ in generated for _, v in trace)
    assert any(v.get("pot") == 2 for trace, _ in generated for _, v in trace)
    assert any(v.get("seen", 0) > 0 for trace, _ in generated for _, v in trace)


def test_a_gain_past_the_numbers_ludus_allows_fails_as_the_closures_fail(tmp_path, monkeypatch):
    from ludus.language.limits import MAX_NUMBER
    source = f'''game "Big"
players 2
counter coins per seat
action Earn:
    gain {MAX_NUMBER} coins
flow:
    repeat 3 times:
        turn P1:
            offer Earn
    win P1
'''
    errors = []
    for game in _loaded_both_ways(tmp_path, monkeypatch, source):
        m = game.new_match(2)
        m.apply(0)
        before = m.to_json()
        with pytest.raises(RuleError) as err:
            m.apply(0)
        assert m.to_json() == before  # nothing half-applied
        errors.append(str(err.value))
    assert errors[0] == errors[1] and "would leave the numbers ludus allows" in errors[0]
