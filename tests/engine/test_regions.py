"""Regions (compiler/regions.py): runs of statements compiled to one function must leave every
state, log and move exactly as the instructions one at a time do. Each test plays the same
seeded matches twice, with regions and with every block's `fast` instructions taken away, and
compares each position's whole saved form."""

from __future__ import annotations

import random

import pytest

import ludus
from ludus.compiler.pysource import ENABLED
from ludus.engine import ops as O
from tests.helpers import game_from_text

# regions are generated code: LUDUS_CLOSURES=1 turns them off with the rest of it
pytestmark = pytest.mark.skipif(not ENABLED, reason="generated code is off (LUDUS_CLOSURES=1)")

HEAD = 'game "R"\nplayers 2 to 3\n'

LOOPS = HEAD + """
counter n
counter m per seat
var last start 0
zone deck
zone hand per seat
card "Pebble":
    copies 6

rule tally(k):
    repeat k times:
        increase n by 1

rule busy:
    for each s in seats:
        turn s:
            for i in 1 to 4:
                if i == 3 and s == P2:
                    break
                elif i == 2:
                    increase m of s by 2
                else:
                    increase m of s by 1
                tally(i)
    let k = 0
    while k < 5:
        set k to k + 1
        if k == 4:
            break
        set last to k
    log "busy: {n} {last}"

rule countdown(k):
    if k > 0:
        increase n by 1
        countdown(k - 1)

setup:
    move box to deck
    shuffle deck

flow:
    for round in 1 to 3:
        busy()
        countdown(2)
        # a loop in the flow's own frame, which then waits: its position is saved with it
        for i in 1 to 2:
            increase n by i
        for each s in seats:
            turn s:
                choose x from [1, 2, 3] "how many?"
                increase m of s by x
                draw 1 from deck into hand of s
    end game
"""

TRIGGERS = HEAD + """
counter n
counter seen
counter fame per seat
track heat from 0 to 5 start 0:
    end Boil from 4 to 5

when n changes:
    increase seen by 10 * old + new

when heat enters Boil:
    choose who from seats "who cools it?"
    increase fame of who by 1
    set heat to 0

ANYTIME

rule heat_up:
    for i in 1 to 3:
        increase n by 1
        increase heat by 1
        increase seen by 1

flow:
    repeat 20 times:
        heat_up()
        choose x from [0, 1] "extra?"
        increase heat by x
    end game
"""
ANYTIME = """at any time:
    for each s in seats:
        if fame of s >= 3:
            win s
"""

EFFECTS = HEAD + """
counter coins per seat
zone deck
zone hand per seat
kind Thing:
    worth: number

card "Coin" is Thing:
    copies 5
    worth 1

card "Bag" is Thing:
    copies 3
    worth 2
    on play:
        for each s in seats:
            gain 1 coins for s

card "Oracle" is Thing:
    copies 2
    worth 0
    on play:
        choose k from [1, 2] "how much?"
        gain k coins

setup:
    move box to deck
    shuffle deck

flow:
    repeat 4 times:
        for each s in seats:
            turn s:
                draw 2 from deck into hand of s
                for each c in hand of s:
                    gain c.worth coins
                    resolve play of c
                move hand of s to deck
                shuffle deck
    win most(coins of s for s in seats)
"""


ENDS = HEAD + """
counter m per seat

rule check:
    for each s in seats:
        if m of s >= 7:
            win s

flow:
    repeat 30 times:
        for each s in seats:
            turn s:
                choose x from [1, 2, 3] "how many?"
                increase m of s by x
        check()
        if m of P1 >= 4 and m of P1 == m of P2:
            log "level at {m of P1}"
            end game
    end game
"""

# decisions and dice in every place a continuation resumes from: the last statement of a scoped
# loop, a branch, an `else`, before a `break`, a rule called directly, an effect, a loop no
# region holds (`alternate`), a die that chance may be asked for
RESUMES = HEAD + """
counter m per seat
counter n
zone deck
zone hand per seat
card "Token":
    copies 4
    on play:
        choose k from [1, 2] "how much?"
        increase n by k

action Poke(k in [1, 2]):
    label "poke {k}"
    increase m by k

rule pick(s):
    choose x from [0, 1, 2] by s "pick"
    if x == 0:
        offer Poke to s else "skip"
    elif x == 1:
        roll d3 as r
        increase m of s by r
    else:
        choose y from [3, 4] by s "which?"
        increase m of s by y

setup:
    move box to deck

flow:
    for round in 1 to 3:
        for each s in seats:
            turn s:
                for i in 1 to 3:
                    pick(s)
                    if m of s > 9 and i == 2:
                        break
                    choose z from [0, 1] "again?"
                draw 1 from deck into hand of s
                for each c in hand of s:
                    resolve play of c
                move hand of s to deck
        let k = 0
        while k < 2:
            set k to k + 1
            roll d2 as extra
            increase n by extra
        alternate s in seats until all pass:
            choose w from [0, 1] "pass?"
            increase n by w
            if w == 1:
                pass
            else:
                increase m of s by 1
    win most(m of s for s in seats)
"""


def _without_regions(game) -> None:
    for code in game.codes.values():
        code.fast = None


def _fused(game) -> set:
    return {cid for cid, code in game.codes.items()
            if code.fast is not None and any(op[0] == O.FUSED for op in code.fast)}


def _trace(game, seed: int, chance: str = "auto") -> list:
    match = game.new_match(2, seed=seed, chance=chance)
    rng = random.Random(seed)
    trace = [match.to_json()]
    while not match.is_over and len(trace) < 500:
        match.apply(rng.choice(match.legal_actions()))
        trace.append(match.to_json())
    return trace


@pytest.mark.parametrize(("text", "expected"), [
    (LOOPS, {"rule busy", "rule tally", "flow"}),
    (TRIGGERS.replace("ANYTIME", ANYTIME), {"rule heat_up", "when n #1"}),
    (TRIGGERS.replace("ANYTIME", ""), {"rule heat_up", "when n #1"}),
    (EFFECTS, {"card Bag: on play", "flow"}),
    (ENDS, {"rule check", "flow"}),
])
def test_regions_play_exactly_as_the_instructions_do(tmp_path, text, expected):
    game = game_from_text(tmp_path, text)
    assert expected <= _fused(game)  # the regions are there, so the comparison tests them
    with_regions = [_trace(game, seed) for seed in range(12)]
    _without_regions(game)
    assert [_trace(game, seed) for seed in range(12)] == with_regions


def _continuations(game) -> dict:
    """code id -> the instructions after a decision, a die, a call or an effect that start a
    region (a continuation, or a region that happens to start there)."""
    out = {}
    for cid, code in game.codes.items():
        fast = code.fast or code.ops
        at = {k + 1 for k, op in enumerate(code.ops[:-1]) if op[0] in (O.DECIDE, O.ROLL, O.CALL, O.RESOLVE)}
        out[cid] = {k for k in at if fast[k][0] == O.FUSED}
    return out


@pytest.mark.parametrize("chance", ["auto", "manual"])
def test_continuations_after_decisions_play_exactly_as_the_instructions_do(tmp_path, chance):
    game = game_from_text(tmp_path, RESUMES)
    found = _continuations(game)
    # the flow resumes in generated code after each decision of the turn's loop, after the
    # effect and after the die of the `while`; the rule, after its choice, its offer and its die
    assert len(found["flow"]) >= 4 and len(found["rule pick"]) >= 3
    # inside `alternate`, which no region holds, the rest of its turn is still one
    alternate = next(k for k, op in enumerate(game.codes["flow"].ops) if op[0] == O.ALT_NEXT)
    assert any(k > alternate for k in found["flow"])
    with_regions = [_trace(game, seed, chance) for seed in range(10)]
    assert any('"kind": "chance"' in position for trace in with_regions for position in trace) == (chance == "manual")
    _without_regions(game)
    assert [_trace(game, seed, chance) for seed in range(10)] == with_regions


def test_a_decision_waits_in_a_region_with_the_frame_at_its_instruction(tmp_path):
    game = game_from_text(tmp_path, RESUMES)
    match = game.new_match(2, seed=3)
    frame = match.state["stack"][-1]
    # the flow ran into `pick` in generated code, which asked its first choice
    assert match.pending["prompt"].endswith("pick") and frame["c"] == "rule pick"
    assert game.codes["rule pick"].ops[frame["pc"]][0] == O.DECIDE
    assert [f["c"] for f in match.state["stack"]] == ["flow", "rule pick"]


def test_a_rule_that_calls_itself_is_not_called_directly(tmp_path):
    game = game_from_text(tmp_path, LOOPS)
    called = {op[1] for code in game.codes.values() for op in code.fast or () if op[0] == O.CALL}
    # busy and tally run inside the flow's regions; countdown keeps its CALL
    assert "rule countdown" in called and "rule busy" not in called


def test_a_trigger_runs_before_the_next_statement_of_a_region(tmp_path):
    game = game_from_text(tmp_path, TRIGGERS.replace("ANYTIME", ""))
    match = game.new_match(2, seed=1)
    # first heat_up: n goes 0->1, 1->2, 2->3; each change adds 10*old+new before the next
    # statement adds its 1
    assert match.state["vars"]["seen"] == (1 + 1) + (12 + 1) + (23 + 1)


@pytest.mark.parametrize("regions", [True, False])
def test_an_error_inside_a_region_is_located_at_its_statement(tmp_path, regions):
    text = HEAD + "counter n\nrule r:\n    for i in 1 to 3:\n        increase n by 1\n        set n to 6 / (2 - i)\nflow:\n    r()\n    end game\n"
    game = game_from_text(tmp_path, text)
    if not regions:
        _without_regions(game)
    with pytest.raises(ludus.RuleError, match="division by zero") as err:
        game.new_match(2)
    assert str(err.value).startswith(f"{tmp_path / 'game.ludus'}:7:")


@pytest.mark.parametrize("regions", [True, False])
def test_an_endless_loop_in_a_region_stops_at_the_step_budget(tmp_path, regions):
    text = HEAD + "counter n\nrule spin:\n    let k = 0\n    while k >= 0:\n        set k to k + 1\nflow:\n    spin()\n    end game\n"
    game = game_from_text(tmp_path, text)
    assert regions is False or "rule spin" in _fused(game)
    if not regions:
        _without_regions(game)
    with pytest.raises(ludus.RuleError, match="'rule spin' seems to loop forever") as err:
        game.new_match(2)
    # a line of the loop: the budget runs out on some instruction of it (regions check it at the
    # jump back, so at the last line of the body)
    assert str(err.value).startswith((f"{tmp_path / 'game.ludus'}:6:", f"{tmp_path / 'game.ludus'}:7:"))


@pytest.mark.parametrize("regions", [True, False])
def test_an_effect_that_resolves_itself_without_end_stops_at_the_step_budget(tmp_path, regions):
    text = HEAD + ('counter n\nzone pile\ncard "Echo":\n    on play:\n        increase n by 1\n'
                   '        resolve play of this\nsetup:\n    move box to pile\nflow:\n'
                   '    resolve play of top(pile)\n    end game\n')
    game = game_from_text(tmp_path, text)
    assert regions is False or "card Echo: on play" in _fused(game)
    if not regions:
        _without_regions(game)
    with pytest.raises(ludus.RuleError, match="seems to loop forever"):
        game.new_match(2)


def test_rules_nested_deeper_than_python_compiles_run_as_without_regions(tmp_path):
    # a chain of 120 `elif`s and 22 loops one in another: no one function can hold either
    # (Python refuses 100 levels of indentation and 20 nested loops); their parts get regions
    branches = "".join(f"    {'if' if i == 0 else 'elif'} k == {i}:\n        increase n by {i}\n"
                       f"        increase n by 1\n" for i in range(120))
    loops = "".join(f"{'    ' * (i + 1)}for i{i} in 1 to 1:\n" for i in range(22)) + "    " * 23 + "increase n by 1\n"
    text = HEAD + f"counter n\nrule chain(k):\n{branches}rule nest:\n{loops}flow:\n    chain(50)\n    nest()\n    win P1\n"
    game = game_from_text(tmp_path, text)
    assert {"rule chain", "rule nest"} <= _fused(game)
    with_regions = _trace(game, 1)
    assert '"n": 52' in with_regions[0]
    _without_regions(game)
    assert _trace(game, 1) == with_regions


def test_continuations_grow_with_the_block_not_with_its_decisions_times_its_length(tmp_path, monkeypatch):
    # each statement is written into one continuation (the one before the next resume point):
    # without that, a flow of N decisions in a row holds about N*N/2 statements of them
    import ludus.compiler.pysource as pysource

    written: list = []
    compile_it = pysource._cached_compile
    monkeypatch.setattr(pysource, "_cached_compile", lambda source: written.append(source) or compile_it(source))

    def regions_size(decisions: int) -> int:
        body = "".join(f"        choose x{i} from [1, 2] \"{i}?\"\n        increase n by x{i}\n"
                       for i in range(decisions))
        folder = tmp_path / str(decisions)
        folder.mkdir()
        game = game_from_text(folder, HEAD + f"counter n\nflow:\n    repeat 2 times:\n{body}    end game\n")
        assert len(_continuations(game)["flow"]) == decisions
        return sum(len(part) for part in written.pop().split("\ndef ") if part.startswith("_rg_r"))

    small, large = regions_size(8), regions_size(32)
    assert large < 6 * small  # linear: about 4 times; one continuation each to the end: about 16


@pytest.mark.parametrize("regions", [True, False])
def test_a_turn_given_no_seat_fails_at_its_line(tmp_path, regions):
    # a region checks a turn's seat where it is written, as vm._scope checks it
    text = HEAD + "var who: seat\ncounter n\nflow:\n    increase n by 1\n    turn who:\n        increase n by 1\n    end game\n"
    game = game_from_text(tmp_path, text)
    if regions:
        assert "flow" in _fused(game)
    else:
        _without_regions(game)
    with pytest.raises(ludus.RuleError, match="a turn needs a seat, and None is not one") as err:
        game.new_match(2)
    assert str(err.value).startswith(f"{tmp_path / 'game.ludus'}:7:")


@pytest.mark.parametrize("flow", ["    end game\n", "    end game  # at once\n    end game\n", "    phase P:\n        end game\n"])
def test_a_game_with_no_expression_at_all_still_gets_its_regions(tmp_path, flow):
    # its generated module holds the regions alone: it must be compiled all the same
    game = game_from_text(tmp_path, 'game "Bare"\nplayers 2\nflow:\n' + flow)
    assert any(op[0] == O.FUSED for code in game.codes.values() for op in (code.fast or ()))
    match = game.new_match(2)
    assert match.is_over and match.result["winners"] == []
