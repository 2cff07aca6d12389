"""The OpenSpiel adapter: OpenSpiel's own API test on every shipped game, and the mapping checked
against the engine (labels, chance, returns, hidden information, bounds)."""

from __future__ import annotations

import random
import sys

import numpy as np
import pytest

from ludus import LudusError, Match
from ludus.adapters import openspiel
from ludus.adapters.profile import AdapterError
from tests.adapters.climb import climb_game
from tests.adapters.shipped import FULL, cases, path

pyspiel = pytest.importorskip("pyspiel")

_loaded: dict = {}


def game(name: str, players: int | None = None, **kw):
    key = (name, players, tuple(sorted(kw.items())))
    if key not in _loaded:
        _loaded[key] = openspiel.load_game(path(name), players, **kw)
    return _loaded[key]


@pytest.mark.parametrize(("name", "players"), cases())
def test_random_sim_test_passes(name, players):
    pyspiel.random_sim_test(game(name, players), num_sims=10 if FULL else 2, serialize=False, verbose=False)


def walk(g, seed: int, check) -> Match:
    """Play `g` with random actions, and beside it a ludus match given the same moves by label;
    `check(state, match)` at every state. Returns the ludus match at the end."""
    rng = random.Random(seed)
    state = g.new_initial_state()
    match = None
    if state.is_chance_node() and g.deals:
        k = rng.randrange(g.deals)
        state.apply_action(k)
        match = Match.new(g.profile.game, g.profile.players, seed=k, chance="manual")
    else:
        match = Match.new(g.profile.game, g.profile.players, seed=0, chance="manual")
    while True:
        check(state, match)
        if state.is_terminal():
            return match
        action = rng.choice(state.legal_actions())
        label = state.action_to_string(state.current_player(), action)
        state.apply_action(action)
        match.apply(label)


@pytest.mark.parametrize("name", ["examples/market-town.ludus", "games/uprising.ludus", "examples/connect-four.ludus"])
def test_actions_are_the_matchs_labels_in_order_and_returns_are_the_result(name):
    g = game(name)

    def check(state, match):
        assert state.is_terminal() == match.is_over
        if state.is_terminal():
            result = match.result
            names = match.seat_names()
            assert state.returns() == [1.0 if n in result["winners"] else -1.0 if result["winners"] else 0.0 for n in names]
            return
        labels = match.legal_actions()
        player = state.current_player()
        if state.is_chance_node():
            assert match.current == "chance"
            assert [a for a, _ in state.chance_outcomes()] == list(range(len(labels)))
        else:
            assert player == match.current
            assert state.legal_actions() == list(range(len(labels)))
        assert [state.action_to_string(player, a) for a in range(len(labels))] == labels
        assert state.returns() == [0.0] * g.num_players()

    for seed in range(3):
        assert walk(g, seed, check).is_over


@pytest.mark.parametrize("name", ["examples/market-town.ludus", "games/uprising.ludus"])
def test_chance_outcomes_are_uniform_and_sum_to_one(name):
    g = game(name)
    nodes = []

    def check(state, match):
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            probs = [p for _, p in outcomes]
            assert sum(probs) == pytest.approx(1.0)
            assert len(set(probs)) == 1
            assert len(outcomes) == len(match.legal_actions())
            nodes.append(len(outcomes))

    for seed in range(8):
        walk(g, seed, check)
    assert nodes, "a game that rolls dice met no chance node"


def test_a_game_that_shuffles_starts_with_the_deal():
    g = game("examples/market-town.ludus", deals=8)
    state = g.new_initial_state()
    assert state.is_chance_node()
    outcomes = state.chance_outcomes()
    assert [a for a, _ in outcomes] == list(range(8))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    # the deal decides the shuffles: the same outcome, the same match; another, another
    texts = []
    for k in (3, 3, 5):
        s = g.new_initial_state()
        s.apply_action(k)
        texts.append(str(s))
    assert texts[0] == texts[1] != texts[2]
    assert g.get_type().chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC


def test_connect_four_is_deterministic_perfect_information():
    g = game("examples/connect-four.ludus")
    t = g.get_type()
    assert t.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert t.information == pyspiel.GameType.Information.PERFECT_INFORMATION
    assert not g.new_initial_state().is_chance_node()
    # no chance node, so no chance outcomes: what OpenSpiel's own deterministic games say
    assert g.max_chance_outcomes() == 0 == pyspiel.load_game("tic_tac_toe").max_chance_outcomes()
    assert game("examples/jaipur.ludus", deals=8).max_chance_outcomes() == 8  # shuffles, rolls no die
    assert game("examples/market-town.ludus").get_type().information == pyspiel.GameType.Information.IMPERFECT_INFORMATION


def _hand_swapped(state, seat: int):
    """A clone of `state` with one card of `seat`'s hand swapped for a different card of the supply
    (which no seat sees into), or None when there is none to swap."""
    other = state.clone()
    match = other._h.match
    places, ents = match.state["places"], match.state["ents"]
    hand, deck = places.get(f"hand@{seat}", []), places.get("supply", [])
    for i, h in enumerate(hand):
        for j, d in enumerate(deck):
            if ents[h]["d"] != ents[d]["d"]:
                hand[i], deck[j] = d, h
                ents[d]["l"], ents[h]["l"] = f"hand@{seat}", "supply"
                return other
    return None


def test_information_state_hides_the_other_seats_hand():
    """Market Town's hands are for their owner only: swapping a card of Basil's hand for one of his
    supply changes nothing Amber's strings show, and changes Basil's."""
    g = game("examples/market-town.ludus")
    rng = random.Random(4)
    state = g.new_initial_state()
    swaps = 0
    while not state.is_terminal():
        if not state.is_chance_node():
            swapped = _hand_swapped(state, 1)
            if swapped is not None:
                swaps += 1
                assert swapped.information_state_string(0) == state.information_state_string(0)
                assert swapped.observation_string(0) == state.observation_string(0)
                assert swapped.information_state_string(1) != state.information_state_string(1)
                assert swapped.observation_string(1) != state.observation_string(1)
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                                      else state.legal_actions()))
    assert swaps > 0


def test_a_tensor_asked_for_is_refused_saying_what_to_read_instead():
    # no tensors: an empty one handed back would read as an observation of nothing
    g = game("examples/market-town.ludus")
    state = g.new_initial_state()
    state.apply_action(state.chance_outcomes()[0][0])
    for ask in (state.observation_tensor, state.information_state_tensor):
        with pytest.raises(NotImplementedError, match=r"no tensors .* observation_string\(seat\)"):
            ask(0)
    assert state.observation_string(0).startswith("{")  # the strings are there


def test_information_state_holds_the_seats_own_moves():
    g = game("examples/connect-four.ludus")
    state = g.new_initial_state()
    first = state.action_to_string(0, 0)
    state.apply_action(0)
    assert f'"moves":["{first}"]' in state.information_state_string(0)
    assert '"moves":[]' in state.information_state_string(1)
    # the observation is the view alone, the same for a seat whatever the order of moves that led to it
    assert '"board":{"a1":{"tokens":{"Red Disc":1}}' in state.observation_string(0)  # the view, with the move made
    assert '"moves"' not in state.observation_string(0)


def test_clones_are_independent():
    g = game("examples/connect-four.ludus")
    state = g.new_initial_state()
    state.apply_action(3)
    clone = state.clone()
    clone.apply_action(2)
    assert str(clone) != str(state)
    assert state.history() == [3]
    assert clone.history() == [3, 2]
    assert clone.information_state_string(0) != state.information_state_string(0)


def test_the_game_is_registered_and_its_string_loads_it_back():
    g = game("examples/market-town.ludus")
    again = pyspiel.load_game(str(g))
    assert str(again) == str(g)
    assert again.num_distinct_actions() == g.num_distinct_actions()
    assert again.num_players() == 2
    assert "python_ludus" in [t.short_name for t in pyspiel.registered_games()]


def test_more_players():
    g = game("examples/market-town.ludus", 3)
    assert g.num_players() == 3
    pyspiel.random_sim_test(g, num_sims=2, serialize=False, verbose=False)


def test_the_action_space_is_a_bound_with_a_margin():
    g = game("games/uprising.ludus")
    assert g.num_distinct_actions() == 2 * g.profile.seen_actions
    assert game("games/uprising.ludus", max_actions=500).num_distinct_actions() == 500


def test_a_decision_past_the_bound_is_a_clear_error():
    import attrs

    g = game("examples/market-town.ludus")
    g.profile = attrs.evolve(g.profile, max_actions=1)
    try:
        state = g.new_initial_state()
        state.apply_action(0)
        while state.is_chance_node() or len(state._h.match.legal_actions()) < 2:
            state.apply_action(0)
        with pytest.raises(AdapterError, match="load the game again with max_actions="):
            state.legal_actions()
    finally:
        _loaded.clear()


def test_bad_input_is_a_clear_error(tmp_path):
    with pytest.raises(AdapterError, match="is for 2 players, not 3"):
        openspiel.load_game(path("examples/connect-four.ludus"), 3)
    with pytest.raises(AdapterError, match="less than the"):
        openspiel.load_game(path("games/uprising.ludus"), max_actions=3)
    with pytest.raises(AdapterError, match="players is a whole number"):
        openspiel.load_game(path("examples/connect-four.ludus"), "two")
    # NumPy's integers are whole numbers too
    assert openspiel.load_game(path("examples/connect-four.ludus"), np.int64(2), deals=np.int32(4)).num_players() == 2
    with pytest.raises(LudusError):
        openspiel.load_game(tmp_path / "missing.ludus")
    bad = tmp_path / "bad.ludus"
    bad.write_text("game \"x\"\nplayers 2\nflow {\n  nonsense here\n}\n", encoding="utf-8")
    with pytest.raises(LudusError):
        openspiel.load_game(bad)


def test_without_openspiel_the_error_names_the_extra(monkeypatch):
    monkeypatch.setattr(openspiel, "_classes", None)
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    with pytest.raises(ImportError, match=r"pip install 'ludus\[openspiel\]'"):
        openspiel.load_game(path("examples/connect-four.ludus"))


CHIPS = """game "Chips"
players 2 to 4
counter chips per seat start 10
payoff chips of seat - 10
flow:
    for each s in seats:
        turn s:
            choose bet from 0 to 5 "How many chips do you pass on?"
            decrease chips by bet
            increase chips of left(s) by bet
    end game
"""


def test_a_game_with_a_payoff_returns_it(tmp_path):
    file = tmp_path / "chips.ludus"
    file.write_text(CHIPS, encoding="utf-8")
    g = openspiel.load_game(file, 3)
    # each seat passes on 0 to 5 chips and gets 0 to 5: returns lie in -5..5, and the estimate,
    # what the scan met widened by its width, covers that
    assert g.min_utility() <= -5 and g.max_utility() >= 5
    pyspiel.random_sim_test(g, num_sims=5, serialize=False, verbose=False)
    state = g.new_initial_state()
    for bet in (5, 0, 2):  # action i is the i-th option: bets 0 to 5 in order
        state.apply_action(bet)
    assert state.is_terminal()
    assert state.returns() == [-5 + 2, 5 - 0, 0 - 2]
    exact = openspiel.load_game(file, 3, utility=(-5, 5))
    assert (exact.min_utility(), exact.max_utility()) == (-5, 5)
    pyspiel.random_sim_test(exact, num_sims=5, serialize=False, verbose=False)
    with pytest.raises(AdapterError, match="must be below"):
        openspiel.load_game(file, 3, utility=(5, -5))


def test_a_state_serialises_and_reads_back():
    g = game("examples/market-town.ludus")
    rng = random.Random(2)
    state = g.new_initial_state()
    for _ in range(12):
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()] if state.is_chance_node()
                                      else state.legal_actions()))
    text = pyspiel.serialize_game_and_state(g, state)
    g2, back = pyspiel.deserialize_game_and_state(text)
    assert str(g2) == str(g)
    assert back.history() == state.history()
    assert str(back) == str(state)
    assert back.information_state_string(0) == state.information_state_string(0)
    assert back.legal_actions() == state.legal_actions()
    # and it plays on as the original does
    a = back.legal_actions()[-1]
    back.apply_action(a)
    state.apply_action(a)
    assert str(back) == str(state)


def test_random_sim_test_with_serialisation():
    pyspiel.random_sim_test(game("examples/market-town.ludus"), num_sims=1, serialize=True, verbose=False)


def test_reading_a_state_back_does_not_scan_the_game_again(monkeypatch):
    from ludus.adapters import profile

    g = game("examples/market-town.ludus")
    state = g.new_initial_state()
    state.apply_action(0)
    scans = []
    real = profile._scan
    monkeypatch.setattr(profile, "_scan", lambda *a: scans.append(a[1:]) or real(*a))
    for _ in range(3):
        _, back = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(g, state))
        assert str(back) == str(state)
    assert scans == []  # scanned once, when the game was first loaded
    wider = openspiel.load_game(path("examples/market-town.ludus"), max_actions=g.num_distinct_actions() + 1)
    assert wider.num_distinct_actions() == g.num_distinct_actions() + 1 and len(scans) == 1  # other arguments: scanned


def test_a_profile_kept_from_an_earlier_scan_holds_the_game_it_is_asked_for():
    import ludus
    from ludus.adapters.profile import scan

    first, again = ludus.load(path("examples/market-town.ludus")), ludus.load(path("examples/market-town.ludus"))
    assert first is not again and first.fingerprint == again.fingerprint
    a, b = scan(first, 2, views=False), scan(again, 2, views=False)
    assert a.game is first and b.game is again
    assert (a.max_actions, a.max_length, a.utility) == (b.max_actions, b.max_length, b.utility)


# from the twelfth step on, each step costs money no seat has (see climb.py)
CLIMB = climb_game()
STOP, CLIMB_ON = 0, 1


def climb(tmp_path, **kw):
    file = tmp_path / "climb.ludus"
    file.write_text(CLIMB, encoding="utf-8")
    return openspiel.load_game(file, **kw)


def strings(state) -> tuple:
    return (str(state), state.history(), state.current_player(), state.legal_actions(),
            [state.information_state_string(p) for p in range(state.num_players())])


def test_a_rule_that_fails_halfway_leaves_the_state_as_it_was(tmp_path):
    from ludus import RuleError

    state = climb(tmp_path).new_initial_state()
    for _ in range(11):
        state.apply_action(CLIMB_ON)
    before = strings(state)
    with pytest.raises(RuleError, match="cannot pay 1 money"):
        state.apply_action(CLIMB_ON)
    assert strings(state) == before
    state.apply_action(STOP)  # and it plays on from there
    assert state.is_terminal()


def test_a_match_past_the_length_bound_is_refused_before_it_moves(tmp_path):
    g = climb(tmp_path, max_length=4)
    state = g.new_initial_state()
    for _ in range(4):
        state.apply_action(CLIMB_ON)
    before = strings(state)
    with pytest.raises(AdapterError, match="load the game again with a larger max_length"):
        state.apply_action(CLIMB_ON)
    assert strings(state) == before
    assert state.move_number() == g.max_game_length() == 4


def test_a_deal_outside_the_deals_is_refused():
    g = game("examples/market-town.ludus", deals=8)
    state = g.new_initial_state()
    with pytest.raises(AdapterError, match="the deal's outcomes are 0 to 7"):
        state.apply_action(8)
    assert state.is_chance_node() and state.history() == [] and str(state) == "before the deal"


def test_chance_outcomes_of_a_seats_decision_is_an_error():
    state = game("examples/connect-four.ludus").new_initial_state()
    with pytest.raises(AdapterError, match=r"not a chance node \(Red is to decide\)"):
        state.chance_outcomes()


@pytest.mark.parametrize("player", [-1, 2, 1.0, None])
def test_a_python_observer_refuses_a_player_that_is_not_a_seat(player):
    """OpenSpiel's Python observers hand the player on unchecked: -1 (chance) read the last
    seat's own moves, 2 failed with an IndexError."""
    from open_spiel.python.observation import make_observation

    g = game("examples/market-town.ludus")
    state = g.new_initial_state()
    state.apply_action(0)
    state.apply_action(0)
    for recall in (False, True):
        observer = make_observation(g, pyspiel.IIGObservationType(perfect_recall=recall))
        assert observer.string_from(state, 1)
        with pytest.raises(AdapterError, match=f"player {player!r} is not a seat: the players are 0 to 1"):
            observer.string_from(state, player)


def test_a_utility_range_that_could_not_load_back_is_refused():
    cf = path("examples/connect-four.ludus")
    with pytest.raises(AdapterError, match="finite numbers"):
        openspiel.load_game(cf, utility=(0, float("inf")))
    with pytest.raises(AdapterError, match="finite numbers"):
        openspiel.load_game(cf, utility=(float("nan"), 1))
    # the same checks hold for the game's parameters given to pyspiel itself
    with pytest.raises(AdapterError, match="must be below"):
        pyspiel.load_game("python_ludus", {"path": cf, "min_utility": 5.0, "max_utility": 1.0})
    with pytest.raises(AdapterError, match="must be below"):
        pyspiel.load_game("python_ludus", {"path": cf, "min_utility": 5.0})


@pytest.mark.parametrize("folder", ["a,b", "a)b", "a(b", "a=b"])
def test_a_path_the_game_string_cannot_hold_is_refused(tmp_path, folder):
    """OpenSpiel splits the game's string at ',' and brackets: the game and its states would load
    back from another path (for 'a)b', the folder 'a'), or not at all."""
    import shutil

    (tmp_path / folder).mkdir()
    file = tmp_path / folder / "cf.ludus"
    shutil.copy(path("examples/connect-four.ludus"), file)
    with pytest.raises(AdapterError, match="OpenSpiel cannot hold the path .* rename or move the file"):
        openspiel.load_game(file)


def test_a_path_with_spaces_and_balanced_brackets_loads_back(tmp_path):
    import shutil

    (tmp_path / "my games (v2)").mkdir()
    file = tmp_path / "my games (v2)" / "cf.ludus"
    shutil.copy(path("examples/connect-four.ludus"), file)
    g = openspiel.load_game(file)
    assert pyspiel.load_game(str(g)).get_parameters()["path"] == str(file)


def test_games_and_states_pickle_as_openspiels_own_python_games_do(tmp_path):
    """Multiprocessing hands games and states to other processes by pickle; the classes were
    local to a function, which pickle cannot name."""
    import pickle
    import subprocess

    from tests.helpers import ROOT

    g = game("examples/market-town.ludus")
    state = g.new_initial_state()
    for action in (3, 0, 1):
        state.apply_action(action)
    g2 = pickle.loads(pickle.dumps(g))
    assert str(g2) == str(g) and g2.num_distinct_actions() == g.num_distinct_actions()
    back = pickle.loads(pickle.dumps(state))
    assert (back.history(), str(back), back.information_state_string(0)) == \
        (state.history(), str(state), state.information_state_string(0))
    saved = tmp_path / "state.pickle"
    saved.write_bytes(pickle.dumps(state))
    code = (f"import pickle\nstate = pickle.loads(open({str(saved)!r}, 'rb').read())\n"
            "print(state.history(), state.legal_actions())")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == f"{state.history()} {state.legal_actions()}"
