"""Saved matches damaged by hand: `Match.from_json` refuses them with a MatchError that says what
is wrong, or the match it loads plays on, with ludus's own errors at worst.

The fuzzer at the end takes real saves of shipped games, paused at decisions of every kind (an
offer, a choice in a card's effect, a choice of several, a number, a yes or no, points to
distribute, a die asked of chance by hand, forced outcomes queued, a finished match), damages one
field at a time and tries every legal move of what loads.
"""

from __future__ import annotations

import json
import random
import re

import pytest

import ludus
from ludus.engine.match import IllegalAction, Match
from tests.helpers import EXAMPLES, GAMES

MARKET = ludus.load(EXAMPLES / "market-town.ludus")
VOTES = ludus.load(GAMES / "votes-for-women" / "votes-for-women.ludus")
GATEWAY = ludus.load(GAMES / "gateway-uprising" / "gateway-uprising.ludus")
STONEWALL = ludus.load(GAMES / "stonewall-uprising" / "stonewall-uprising.ludus")


def damaged(game, change) -> str:
    """The save of a new match of `game` with `change` made to its state."""
    data = json.loads(game.new_match(2, seed=1).to_json())
    change(data["state"])
    return json.dumps(data)


def refused(game, text: str) -> str:
    with pytest.raises(ludus.MatchError) as err:
        Match.from_json(game, text)
    return str(err.value)


# ── the cases the fuzzing session found ──


def test_a_decision_with_no_frame_waiting_for_it_is_refused():
    def no_stack(state):
        state["stack"] = []
    assert "the saved match is damaged: a decision is pending, and no VM frame waits for it" in refused(
        MARKET, damaged(MARKET, no_stack))


@pytest.mark.parametrize("values", [[], ["x"], None, "missing"])
def test_a_decision_whose_values_do_not_match_its_options_is_refused(values):
    def change(state):
        if values == "missing":
            del state["pending"]["values"]
        elif values == ["x"]:
            state["pending"]["values"] = state["pending"]["values"][:1]
        else:
            state["pending"]["values"] = values
    message = refused(MARKET, damaged(MARKET, change))
    assert message.startswith("the saved match is damaged: ")
    assert "values" in message


@pytest.mark.parametrize("forced, why", [
    ([1, "a", None], "forced outcome"),
    ([["die", 6, 7]], "not a face of a d6"),
    ([["die", -1, 1]], "forced outcome"),
    ([["die", 6, True]], "forced outcome"),
    ([["die", 0, 10**15]], "forced outcome"),
    # the limits a `force` line has: no die shows it, so every roll after it would fail
    ([["die", 0, 2_000_000]], "2000000 is not a face of any die"),
    ([["die", 0, 0]], "0 is not a face of any die"),
    ([["die", 2_000_000, 5]], "a die has 1 to 1,000,000 faces"),
    ([["order", "nowhere", ["Copper Coin"]]], "no zone 'nowhere'"),
    ([["order", "deck@5", ["Copper Coin"]]], "no zone 'deck@5'"),
    ([["order", "market@0", ["Copper Coin"]]], "no zone 'market@0'"),
    ([["order", "market", ["No Such Card"]]], "no card 'No Such Card'"),
    ([["order", "market", "Copper Coin"]], "forced outcome"),
    ([["roll", 6, 1]], "forced outcome"),
])
def test_junk_in_the_forced_outcomes_is_refused(forced, why):
    message = refused(MARKET, damaged(MARKET, lambda state: state.__setitem__("forced", forced)))
    assert message.startswith("the saved match is damaged: ") and why in message


def test_forced_outcomes_as_the_repl_and_replays_queue_them_load_and_are_used():
    match = MARKET.new_match(2, seed=1)
    match.force(6, 5)
    match.force(0, 2)
    match.force_order("deck@1", ["Copper Coin"])
    back = Match.from_json(MARKET, match.to_json())
    assert back.state["forced"] == [["die", 6, 5], ["die", 0, 2], ["order", "deck@1", ["Copper Coin"]]]


def test_a_decision_at_an_instruction_that_asks_nothing_is_refused():
    def moved(state):
        state["stack"][-1]["pc"] += 2  # a statement after the offer, in the same turn and loops
    assert "waits at an instruction that asks for no decision" in refused(MARKET, damaged(MARKET, moved))


def test_an_offer_of_an_action_the_game_lacks_is_refused():
    def change(state):
        state["pending"]["values"] = [["No Such Action", []] if v else v for v in state["pending"]["values"]]
    assert "offers an action the game lacks" in refused(MARKET, damaged(MARKET, change))


def test_a_match_neither_waiting_nor_ended_is_refused():
    assert "neither waits for a decision nor has ended" in refused(
        MARKET, damaged(MARKET, lambda state: state.__setitem__("pending", None)))


# ── what the rest of the state must be for play to go on ──


def first_waiting(game, **where):
    """A save of the first decision of a new match of `game` for which `where` holds (`kind`, `picked`)."""
    return json.loads(position(game, 2, 0, kind(where.get("kind", "offer"), where.get("picked", False))).to_json())


@pytest.mark.parametrize("game, where, change, why", [
    (MARKET, {}, lambda s: s["stack"][0]["env"].pop("$cur"), "a VM frame does not say whose turn it is"),
    (MARKET, {}, lambda s: s["stack"][0]["env"].__setitem__("$act", 2), "a VM frame's 'act' seat is no seat"),
    (MARKET, {}, lambda s: s["stack"][0]["env"].__setitem__("$9", [[1, 2], 3]), "a VM frame's loop '$9' is damaged"),
    (MARKET, {}, lambda s: s["scopes"][-1].pop("sc"), "a turn's scope names no seat"),
    (MARKET, {}, lambda s: s["scopes"][-1].__setitem__("k", "round"), "a scope (a turn, a phase, a loop) is damaged"),
    (MARKET, {}, lambda s: s["vars"].__setitem__("coins@0", -1), "counter 'coins@0' is below its min 0"),
    (MARKET, {}, lambda s: s["ents"][0].pop("o"), "card 0 lacks its owner or its place"),
    (STONEWALL, {}, lambda s: s["alts"][0].__setitem__("i", 2), "an 'alternate' loop is damaged"),
    (GATEWAY, {"kind": "choose", "picked": True}, lambda s: s["pending"].pop("picked"),
     "the pending choice is not of as many as the game asks for"),
])
def test_damage_that_would_surface_as_an_error_in_the_rules_is_refused_on_load(game, where, change, why):
    """Each of these loaded (or was refused with only the name of a Python error), and then a
    move failed with a RuleError blamed on a line of the game file, or play went on with a seat,
    a count or a loop the rules never make."""
    data = first_waiting(game, **where)
    change(data["state"])
    assert f"the saved match is damaged: {why}" in refused(game, json.dumps(data))


# ── the values the rules keep ──

KEPT = """game "Kept"
players 2
board land:
    region North
    region South
    port Harbour
zone hand per seat
kind Good
kind Food is Good
card "Bread" is Food:
    copies 2
card "Gem" is Good:
    copies 1
token Cube
counter coins per seat min 0 max 10
flag calm per region
counter cubes per seat and region
flag marked per Good
var leader: seat
var count: number start 1
var title: text start "x"
var best: Food
var where: region
var spot: space
var deck: zone
var path: list of region start [North]
var which: token
var loose
value colours = ["red", "blue"]
counter played per colour
var best_of per seat and colour
flow:
    for each s in seats:
        turn s:
            choose n from 0 to 2 "coins?"
            gain n coins
            set leader to s
            set best to first(Foods)
            set marked of first(Goods) to true
            set where to North
            set spot to Harbour
            set deck to hand of s
            set which to Cube
            set calm of South to true
            increase cubes of s at North by 1
            increase played of "red" by 1
            set best_of of s at "blue" to "x"
    end game
"""


@pytest.fixture(scope="module")
def kept(tmp_path_factory):
    """The game, and the save of a match of it in which every var has been set."""
    path = tmp_path_factory.mktemp("kept") / "kept.ludus"
    path.write_text(KEPT, encoding="utf-8")
    game = ludus.load(path)
    match = game.new_match(2)
    match.apply("1")
    return game, match.to_json()


def with_var(text: str, key: str, value, drop: str | None = None) -> str:
    data = json.loads(text)
    if drop is not None:
        del data["state"]["vars"][drop]
    data["state"]["vars"][key] = value
    return json.dumps(data)


@pytest.mark.parametrize("key, value, why", [
    ("coins@0", "lots", "counter 'coins@0' does not hold a number in range"),
    ("coins@0", True, "counter 'coins@0' does not hold a number in range"),
    ("coins@0", 11, "counter 'coins@0' is above its max 10"),
    ("calm@South", 3, "flag 'calm@South' holds 3, which is not a bool"),
    ("marked@0", "yes", "flag 'marked@0' holds \"yes\", which is not a bool"),
    ("leader", 2, "var 'leader' holds 2, which is not a seat"),
    ("leader", False, "var 'leader' holds false, which is not a seat"),
    ("count", "1", "var 'count' holds \"1\", which is not a number"),
    ("count", 10**15, "var 'count' holds 1000000000000000, which is not a number"),
    ("title", 3, "var 'title' holds 3, which is not a text"),
    ("best", 2, "var 'best' holds 2, which is not a Food"),  # Gem, a Good and no Food
    ("best", 3, "var 'best' holds 3, which is not a Food"),  # no such card
    ("where", "Harbour", "var 'where' holds \"Harbour\", which is not a region"),
    ("spot", "Nowhere", "var 'spot' holds \"Nowhere\", which is not a space"),
    ("deck", "pile", "var 'deck' holds \"pile\", which is not a zone"),
    ("path", ["North", "Harbour"], "var 'path' holds [\"North\", \"Harbour\"], which is not a list of regions"),
    ("path", "North", "var 'path' holds \"North\", which is not a list of regions"),
    ("which", "Disc", "var 'which' holds \"Disc\", which is not a token"),
    ("nothing", 1, "unknown variable 'nothing'"),
    ("coins@2", 1, "variable 'coins@2' is kept per seat, and '2' names no such thing"),
    ("coins@01", 1, "variable 'coins@01' is kept per seat, and '01' names no such thing"),
    ("coins", 1, "variable 'coins' is kept per seat, and '' names no such thing"),
    ("count@0", 1, "variable 'count@0' has a key, and 'count' is one for the whole game"),
    ("calm@Harbour", True, "variable 'calm@Harbour' is kept per region, and 'Harbour' names no such thing"),
    ("marked@3", True, "variable 'marked@3' is kept per Good, and '3' names no such thing"),
    ("cubes@0|Nowhere", 1, "variable 'cubes@0|Nowhere' is kept per seat and region, and '0|Nowhere' names no such thing"),
    ("cubes@2|North", 1, "variable 'cubes@2|North' is kept per seat and region, and '2|North' names no such thing"),
    ("cubes@0", 1, "variable 'cubes@0' is kept per seat and region, and '0' names no such thing"),
    ("played@purple", 1, "variable 'played@purple' is kept per colour, and 'purple' names no such thing"),
    ("played@Red", 1, "variable 'played@Red' is kept per colour, and 'Red' names no such thing"),
    ("played", 1, "variable 'played' is kept per colour, and '' names no such thing"),
    ("best_of@0|green", 1, "variable 'best_of@0|green' is kept per seat and colour, and '0|green' names no such thing"),
    ("best_of@2|red", 1, "variable 'best_of@2|red' is kept per seat and colour, and '2|red' names no such thing"),
    ("coins@" + "9" * 5000, 1, "variable 'coins@" + "9" * 70 + "... is kept per seat, and '" + "9" * 36 + "... names"),
])
def test_a_var_of_the_wrong_kind_type_or_key_is_refused_naming_it(kept, key, value, why):
    game, text = kept
    assert f"the saved match is damaged: {why}" in refused(game, with_var(text, key, value))


@pytest.mark.parametrize("key, value", [
    ("leader", None),  # none is a value of every type: `set leader to none`
    ("path", [None, "South"]),
    ("best", 1),
    ("marked@2", False),  # Gem: a Good of its own kind
    ("loose", {"any": ["thing"]}),  # no type: anything plain
    ("cubes@1|South", 3),
    ("played@blue", 4),  # a key of `per colour`
    ("best_of@1|red", "y"),
])
def test_a_var_of_its_type_loads(kept, key, value):
    game, text = kept
    match = Match.from_json(game, with_var(text, key, value))
    assert json.loads(match.to_json())["state"]["vars"][key] == value


# ── the fuzzer ──


def position(game, players: int, seed: int, wanted, prefer: str | None = None) -> Match:
    """A match played at random (with `prefer` taken whenever an option names it) up to the first
    decision for which `wanted(match)` holds."""
    match = game.new_match(players, seed=seed, chance="manual")
    rng = random.Random(seed)
    while not wanted(match):
        assert not match.is_over, "the position wanted never came"
        options = match.legal_actions()
        liked = [o for o in options if prefer and prefer in o]
        match.apply(liked[0] if liked else rng.choice(options))
    return match


def kind(name: str, picked: bool = False, block: str = ""):
    def wanted(match):
        pending = match.pending
        return (pending is not None and pending["kind"] == name and ("picked" in pending) == picked
                and match.state["stack"][-1]["c"].startswith(block))
    return wanted


def with_forced(match: Match) -> Match:
    match.force(6, 4, 2)
    match.force(0, 3)
    match.force_order("deck@0", ["Copper Coin", "Copper Coin"])
    return match


def saves() -> list[tuple[object, str]]:
    return [(game, match.to_json()) for game, match in [
        (MARKET, with_forced(position(MARKET, 2, 0, kind("offer")))),
        (MARKET, position(MARKET, 2, 1, kind("chance", block="card"))),
        (MARKET, position(MARKET, 2, 1, kind("choose", block="card"), prefer="Town Crier")),
        (MARKET, position(MARKET, 2, 0, lambda m: m.is_over)),
        (STONEWALL, position(STONEWALL, 2, 0, lambda m: bool(m.state["alts"]))),  # in an `alternate` loop
        (VOTES, position(VOTES, 2, 0, kind("choose", block="card"))),
        (VOTES, position(VOTES, 2, 0, kind("choose", picked=True))),
        (VOTES, position(VOTES, 2, 0, kind("number"))),
        (VOTES, position(VOTES, 2, 0, kind("ask"))),
        (VOTES, position(VOTES, 2, 0, kind("chance"))),
        (GATEWAY, position(GATEWAY, 2, 0, kind("distribute"))),
        (GATEWAY, position(GATEWAY, 2, 0, kind("choose", picked=True))),
    ]]


def fields(state: dict) -> list[tuple]:
    """The paths of the parts of a state worth damaging: every field of the decision, of the
    frames, scopes, alternate loops and forced outcomes, and the state's own keys and a few of
    its entries (a list's first and last element stand for the rest)."""
    out: list[tuple] = []

    def walk(value, path, depth):
        out.append(path)
        if depth == 0:
            return
        if isinstance(value, dict):
            for key in sorted(value):
                walk(value[key], (*path, key), depth - 1)
        elif isinstance(value, list) and value:
            for i in sorted({0, len(value) - 1}):
                walk(value[i], (*path, i), depth - 1)

    for key in sorted(state):
        deep = 4 if key in ("pending", "stack", "scopes", "alts", "forced", "result", "became") else 2
        walk(state[key], (key,), deep)
    return out


def damages(old) -> list:
    """What one field may be turned into: deleted, none, another type, an empty list, a list of
    another length, a number out of range."""
    out = ["delete", None, [], {}, "x", 7, True, -1, 10**9]
    if isinstance(old, list) and old:
        out += [old[:-1], [*old, old[-1]], old[::-1]]
    if isinstance(old, int) and not isinstance(old, bool):
        out += [old + 1, old - 1]
    return out


def corrupt(state: dict, path: tuple, new) -> None:
    parent = state
    for step in path[:-1]:
        parent = parent[step]
    if new == "delete":
        del parent[path[-1]]
    else:
        parent[path[-1]] = new


def get(state: dict, path: tuple):
    for step in path:
        state = state[step]
    return state


def plays_on_or_fails_as_ludus(match: Match) -> None:
    """Every legal move, each on a clone: it is played, or refused with ludus's own located error
    and the clone left as it was."""
    for option in match.legal_actions():
        clone = match.clone()
        before = clone.to_json()
        try:
            clone.apply(option)
        except IllegalAction:
            assert clone.to_json() == before
        except ludus.RuleError as err:
            assert err.span is not None, err
            assert clone.to_json() == before


SAVES = saves()


def test_the_fuzzer_starts_from_saves_that_load_and_play():
    kinds = set()
    for game, text in SAVES:
        match = Match.from_json(game, text)
        plays_on_or_fails_as_ludus(match)
        kinds.add(None if match.is_over else match.pending["kind"])
    assert kinds == {"offer", "choose", "number", "ask", "distribute", "chance", None}


def test_a_save_damaged_in_one_field_is_refused_or_plays_on():
    rng = random.Random(20240611)
    cases = [(i, path, new) for i, (_game, text) in enumerate(SAVES)
             for path in fields(json.loads(text)["state"]) for new in damages(get(json.loads(text)["state"], path))]
    # most of the cases damage what a move reads first (the decision, the frames, what is forced)
    first = [c for c in cases if c[1][0] in ("pending", "stack", "forced", "alts", "result")]
    rest = [c for c in cases if c[1][0] not in ("pending", "stack", "forced", "alts", "result")]
    refusals = 0
    for i, path, new in rng.sample(first, 250) + rng.sample(rest, 150):
        game, text = SAVES[i]
        data = json.loads(text)
        corrupt(data["state"], path, new)
        where = f"save {i}, {'.'.join(map(str, path))} = {new!r}"
        try:
            match = Match.from_json(game, json.dumps(data))
        except ludus.MatchError as err:
            # says what is wrong, not only which Python error a check missed
            assert re.match(r"the saved match is damaged: (?!\w+Error\b|it lacks\b)", str(err)), f"{where}: {err}"
            refusals += 1
            continue
        try:
            plays_on_or_fails_as_ludus(match)
        except Exception as exc:
            raise AssertionError(f"{where}: {type(exc).__name__}: {exc}") from exc
    assert refusals > 200  # most damage is found on loading (the rest loads and plays on)


# what the rules say when a value they read is not of the kind they need (engine/values.py)
WRONG_KIND = re.compile(r"went wrong while running|should be a number|expected a|is not one|is not a space|"
                        r"no card or piece #|cannot key|holds whole numbers|not a cell|cannot read")


def test_a_save_with_a_var_damaged_is_refused_naming_it_or_plays_to_its_end():
    """Every var of every save given each damage, in its value and in its key: refused with a
    message that names the key, or loaded and played at random to its end (or 300 moves) with
    no error that a value of the wrong kind gives (a Python error, a number, seat, list, card
    or space that is none) blamed on the game file. A value of the right type may still lead a
    move to a rule's own error ("cannot pay"); and none, a value of every type (a rule may set
    any var to none), may load and make a rule that does not expect it fail."""
    refusals = loads = 0
    for i, (game, text) in enumerate(SAVES):
        variables = json.loads(text)["state"]["vars"]
        assert variables
        for key in sorted(variables):
            name = key.partition("@")[0]
            renamed = [f"{name}x", f"{key}|0", f"{name}@9", f"{name}@-1", f"{name}@x", name]
            cases = [(key, new) for new in damages(variables[key])] + [(other, "rename") for other in renamed if other != key]
            for where, new in cases:
                data = json.loads(text)
                if new == "rename":
                    data["state"]["vars"][where] = data["state"]["vars"].pop(key)
                else:
                    corrupt(data["state"], ("vars", where), new)
                try:
                    match = Match.from_json(game, json.dumps(data))
                except ludus.MatchError as err:
                    # a value of the right type may still change what the decision waiting offers
                    # (coins that buy more): the decision, asked again, is not the one saved
                    assert "the saved match is damaged: " in str(err) and (
                        repr(where) in str(err) or "is not what the rules ask in this state" in str(err)), f"{where} = {new!r}: {err}"
                    refusals += 1
                    continue
                loads += 1
                rng = random.Random(i)
                for _ in range(300):
                    if match.is_over:
                        break
                    try:
                        match.apply(rng.choice(match.legal_actions()))
                    except ludus.RuleError as err:
                        assert new is None or not WRONG_KIND.search(err.message), f"save {i}, {where} = {new!r}: {err}"
                        break
    assert refusals > 300 and loads > 200


def test_every_save_of_random_playouts_of_every_shipped_game_loads():
    """Every few moves, with chance rolled by the seed and asked by hand (a roll waiting), and
    with the decision waiting asked again as each save loads: what ludus saves, it loads."""
    from tests.engine.playouts import GAMES as PLAYOUTS
    from tests.engine.playouts import ROOT

    for path, players, _seeds in PLAYOUTS:
        game = ludus.load(ROOT / path)
        for seed, chance in ((0, "auto"), (1, "manual")):
            match = game.new_match(players, seed=seed, chance=chance)
            rng = random.Random(seed)
            for k in range(3000):
                if k % 4 == 0 or match.is_over:
                    text = match.to_json()
                    assert Match.from_json(game, text).to_json() == text, f"{path}, seed {seed}, move {k}"
                if match.is_over:
                    break
                match.apply(rng.choice(match.legal_actions()))


# ── what the rules may set is what a save may hold ──

UNTYPED = """game "Untyped"
players 2
var leader: seat
flag ready per seat
counter spent per seat
rule pick(who, what):
    set leader to who
    set ready of who to what
    increase spent of who by 1
flow:
    turn P1:
        choose n from 0 to 2 "pick"
        if n == 0:
            pick(P2, true)
        elif n == 1:
            pick("x", true)
        else:
            pick(P2, 3)
    end game
"""


@pytest.mark.parametrize("answer, line, why", [
    ("1", 7, "var 'leader' would hold \"x\", which is not a seat"),
    ("2", 8, "flag 'ready@1' would hold 3, which is not a bool"),
])
def test_a_rule_that_would_set_what_no_save_may_hold_is_stopped_where_it_sets_it(tmp_path, answer, line, why):
    # a rule parameter without a type hands on any value, past the checker: without this stop
    # the match would go on, and a save of it would be refused on loading
    path = tmp_path / "untyped.ludus"
    path.write_text(UNTYPED, encoding="utf-8")
    match = ludus.load(path).new_match(2)
    before = match.to_json()
    with pytest.raises(ludus.RuleError, match=re.escape(f"untyped.ludus:{line}:5: error: {why}")):
        match.apply(answer)
    assert match.to_json() == before  # nothing half done
    match.apply("0")
    assert Match.from_json(match.game, match.to_json()).to_json() == match.to_json()
