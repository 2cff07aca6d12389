"""Uprising (games/uprising.ludus): every action, each skirmish sub-rule, income, both end
conditions, scoring and the tie-break, each from a described position.

Every test starts the same way unless it says otherwise: seed 6 gives Red the 1st Player
Marker; Red places its Warlord and Lieutenant in Northwest, Blue in Southeast (and Green, at
three players, in Southwest); then Red is asked for its first action of round 1. A test then
sets the position it needs with `given` lines and plays moves by their labels.
"""

from __future__ import annotations

import pytest

import ludus
from ludus.compiler.probe import evaluate
from ludus.simulation import simulate
from ludus.testing import Position
from tests.helpers import GAMES, ROOT

GAME = ludus.load(GAMES / "uprising.ludus")
SEED = 6  # Red holds the 1st Player Marker at 2 and 3 players
HOMES = ("Northwest", "Southeast", "Southwest")


def start(players: int = 2) -> Position:
    pos = Position(GAME, players, SEED)
    for home in HOMES[:players]:
        pos.do(home)
    return pos


def value(pos: Position, text: str):
    return pos.value(text)[0]


def offered(pos: Position) -> list[str]:
    """The options of the next decision, once the rules have gone on to it."""
    pos._resume()
    return pos.match.legal_actions()


def set_resources(pos: Position, region: str, grain: int, timber: int, stone: int) -> None:
    pos.given("\n".join(
        f"remove all {res} from {region}\nadd {n} {res} to {region}"
        for res, n in (("Grain", grain), ("Timber", timber), ("Stone", stone))
    ))


# ── setup ──


def test_setup_gives_3_dollars_places_characters_apart_and_rolls_resources():
    # the marker die (a d2) picks Blue; then the 27 resource dice come out 1, 2, ..., 6, 1, ...
    faces = [(i % 6) + 1 for i in range(27)]
    match = GAME.new_match(2, seed=0, forced=[["die", 2, 2]] + [["die", 6, f] for f in faces])
    assert match.pending["seat"] == 1  # Blue places first
    assert match.legal_actions() == ["Northwest", "North", "Northeast", "West", "Heartland", "East",
                                     "Southwest", "South", "Southeast"]
    match.apply("North")
    # Red may not take North nor a region next to it
    assert match.legal_actions() == ["West", "East", "Southwest", "South", "Southeast"]
    match.apply("South")
    ev = lambda text: evaluate(match, text)[0]  # noqa: E731
    assert ev("money of Red") == 3 and ev("money of Blue") == 3
    assert ev("first_player") == 1
    assert ev("size(Warlord of Blue at North)") == 1 and ev("size(Lieutenant of Blue at North)") == 1
    assert ev("size(Warlord of Red at South)") == 1 and ev("size(Lieutenant of Red at South)") == 1
    # N + d6 of each resource, N = 1, in board order then Grain, Timber, Stone
    assert [ev(f"{res} at Northwest") for res in ("Grain", "Timber", "Stone")] == [2, 3, 4]
    assert [ev(f"{res} at North") for res in ("Grain", "Timber", "Stone")] == [5, 6, 7]
    assert [ev(f"{res} at Southeast") for res in ("Grain", "Timber", "Stone")] == [2, 3, 4]
    assert ev("sum(Unstable at r for r in regions)") == 0


def test_with_no_region_far_from_the_others_any_unoccupied_region_is_allowed():
    match = GAME.new_match(4, seed=0, forced=[["die", 4, 1]])
    for home in ("North", "West", "Southeast"):
        match.apply(home)
    # every free region touches North, West or Southeast: Yellow may take any free one
    assert match.legal_actions() == ["Northwest", "Northeast", "Heartland", "East", "Southwest", "South"]


# ── the seven actions ──


def test_move_pays_1_dollar_and_moves_to_an_adjacent_region():
    pos = start()
    assert "Warlord in Northwest: Move to Heartland" not in pos.match.legal_actions()  # not adjacent
    pos.given("set money of Red to 1")
    pos.do("Warlord in Northwest: Move to North")
    assert value(pos, "money of Red") == 0
    assert value(pos, "size(Warlord of Red at North)") == 1
    assert value(pos, "size(Warlord of Red at Northwest)") == 0
    assert not [o for o in offered(pos) if "Move" in o]  # no money, no move


def test_intimidate_takes_a_resource_places_a_follower_and_the_last_one_unsettles():
    pos = start()
    set_resources(pos, "Northwest", 1, 3, 2)
    pos.do("Warlord in Northwest: Intimidate the Populace, taking Timber")
    assert value(pos, "Timber at Northwest") == 2
    assert value(pos, "Follower of Red at Northwest") == 1
    assert value(pos, "money of Red") == 2
    assert value(pos, "Unstable at Northwest") == 0
    pos.do("Warlord in Northwest: Intimidate the Populace, taking Grain")
    assert value(pos, "Grain at Northwest") == 0
    assert value(pos, "Follower of Red at Northwest") == 2
    assert value(pos, "money of Red") == 1
    assert value(pos, "Unstable at Northwest") == 1
    # an Unstable region cannot be intimidated any more
    options = offered(pos)
    assert not [o for o in options if "Intimidate" in o]
    assert "Lieutenant in Northwest: Campaign" in options


def test_slay_removes_another_players_follower_in_its_region():
    pos = start()
    assert not [o for o in pos.match.legal_actions() if "Slay" in o]
    pos.given("add 2 Follower of Blue to Northwest\nadd 1 Follower of Blue to North\nadd 1 Follower of Red to Northwest")
    assert [o for o in pos.match.legal_actions() if "Slay" in o] == [
        "Warlord in Northwest: Slay a Follower of Blue", "Lieutenant in Northwest: Slay a Follower of Blue"]
    pos.do("Lieutenant in Northwest: Slay a Follower of Blue")
    assert value(pos, "Follower of Blue at Northwest") == 1
    assert value(pos, "Follower of Blue at North") == 1
    assert value(pos, "Follower of Red at Northwest") == 1
    assert value(pos, "money of Red") == 2


def test_campaign_gains_1_dollar_and_a_warlord_acts_twice_a_lieutenant_once():
    pos = start()
    pos.given("set money of Red to 0")
    pos.do("Warlord in Northwest: Campaign")
    pos.do("Warlord in Northwest: Campaign")
    assert value(pos, "money of Red") == 2
    options = offered(pos)
    assert not [o for o in options if o.startswith("Warlord")]
    assert "Lieutenant in Northwest: Campaign" in options
    pos.do("Lieutenant in Northwest: Campaign")
    assert value(pos, "money of Red") == 3
    offered(pos)
    assert pos.match.pending["seat"] == 1  # all actions spent: Blue's turn


def test_decree_takes_2_resources_and_places_followers_here_and_next_door():
    pos = start()
    pos.given("set money of Red to 7")
    set_resources(pos, "Northwest", 1, 2, 4)
    pos.do("Warlord in Northwest: Make a decree")
    assert pos.match.legal_actions() == ["Grain", "Timber", "Stone"]
    pos.do("Grain")
    assert pos.match.legal_actions() == ["Timber", "Stone"]  # no Grain left to take
    pos.do("Stone")
    assert value(pos, "money of Red") == 1
    assert [value(pos, f"{r} at Northwest") for r in ("Grain", "Timber", "Stone")] == [0, 2, 3]
    assert value(pos, "Unstable at Northwest") == 1
    assert [value(pos, f"Follower of Red at {r}") for r in ("Northwest", "North", "West", "Heartland")] == [1, 1, 1, 0]


def test_decree_works_in_an_unstable_region_but_needs_2_resources():
    pos = start()
    pos.given("set money of Red to 12\nadd 1 Unstable to Northwest")
    set_resources(pos, "Northwest", 0, 2, 0)
    pos.do("Warlord in Northwest: Make a decree")
    pos.do("Timber")
    pos.do("Timber")
    assert value(pos, "Timber at Northwest") == 0
    assert value(pos, "Unstable at Northwest") == 1  # one Unstable token, not two
    assert not [o for o in offered(pos) if "Make a decree" in o]  # nothing left to take


def test_promote_lieutenant_pays_10_takes_2_followers_and_places_a_lieutenant():
    pos = start()
    pos.given("set money of Red to 10\nadd 3 Follower of Red to North\nadd 1 Follower of Red to West")
    promotions = [o for o in pos.match.legal_actions() if "Promote" in o]
    # Warlord only, in its region or an adjacent one with at least 2 of its Followers
    assert promotions == ["Warlord in Northwest: Promote Lieutenant in North"]
    pos.do("Warlord in Northwest: Promote Lieutenant in North")
    assert value(pos, "money of Red") == 0
    assert value(pos, "Follower of Red at North") == 1
    assert value(pos, "size(Lieutenant of Red at North)") == 1
    assert value(pos, "size(Lieutenant of Red)") == 2
    # the new Lieutenant acts from Red's next turn
    assert not [o for o in offered(pos) if o.startswith("Lieutenant in North:")]
    pos.do("end turn")
    while offered(pos) and pos.match.pending["seat"] != 0:
        pos.do("end turn")
    assert pos.match.scopes() == ["round 2", "turn of Red"]
    assert "Lieutenant in North: Campaign" in offered(pos)


# ── skirmishes ──


def test_skirmish_a_warlord_without_an_enemy_warlord_removes_2_followers():
    pos = start()
    pos.given("move first(Warlord of Red) to North\nadd 3 Follower of Blue to North")
    # launched by the Lieutenant into an adjacent region, where only the Warlord stands
    pos.do("Lieutenant in Northwest: Skirmish in North")
    assert value(pos, "money of Red") == 0
    assert value(pos, "Follower of Blue at North") == 1


def test_skirmish_a_can_remove_a_lieutenant_instead():
    pos = start()
    pos.given("move first(Warlord of Red) to North\nmove first(Lieutenant of Blue) to North\n"
              "add 2 Follower of Blue to North")
    pos.do("Warlord in North: Skirmish in North")
    pos.do("yes")  # a Lieutenant instead of 2 Followers
    assert value(pos, "size(Lieutenant of Blue at North)") == 0
    assert value(pos, "size(characters(Blue))") == 1
    assert value(pos, "Follower of Blue at North") == 2


def test_skirmish_a_does_nothing_against_an_enemy_warlord():
    pos = start()
    pos.given("move first(Warlord of Red) to North\nmove first(Warlord of Blue) to North\n"
              "add 2 Follower of Blue to North")
    pos.do("Warlord in North: Skirmish in North")
    assert value(pos, "Follower of Blue at North") == 2
    assert value(pos, "money of Red") == 0


def test_skirmish_a_lets_the_skirmisher_choose_whose_followers_go():
    pos = start(3)
    pos.given("move first(Warlord of Red) to North\nadd 1 Follower of Blue to North\n"
              "add 2 Follower of Green to North")
    pos.do("Warlord in North: Skirmish in North")
    assert pos.match.legal_actions() == ["Blue", "Green"]
    pos.do("Green")
    pos.do("Blue")
    assert value(pos, "Follower of Blue at North") == 0
    assert value(pos, "Follower of Green at North") == 1


def test_skirmish_b_a_lieutenant_without_an_enemy_lieutenant_removes_1_follower():
    pos = start()
    pos.given("move first(Lieutenant of Red) to North\nmove first(Warlord of Blue) to North\n"
              "add 2 Follower of Blue to North")
    pos.do("Lieutenant in North: Skirmish in North")
    assert value(pos, "Follower of Blue at North") == 1
    assert value(pos, "size(Warlord of Blue at North)") == 1


def test_skirmish_b_does_nothing_against_an_enemy_lieutenant():
    pos = start()
    pos.given("move first(Lieutenant of Red) to North\nmove first(Lieutenant of Blue) to North\n"
              "add 2 Follower of Blue to North")
    pos.do("Lieutenant in North: Skirmish in North")
    assert value(pos, "Follower of Blue at North") == 2


def test_skirmish_c_trades_followers_one_for_one_while_the_skirmisher_wishes():
    pos = start(3)
    # both enemy Warlords stand in North, so (a) cannot apply; Red's Lieutenant is away, so (b) neither
    pos.given("move first(Warlord of Red) to North\nmove first(Warlord of Blue) to North\n"
              "add 3 Follower of Red to North\nadd 3 Follower of Blue to North\nadd 1 Follower of Green to North")
    pos.do("Warlord in North: Skirmish in North")
    pos.do("yes")
    assert [value(pos, f"Follower of {s} at North") for s in ("Red", "Blue", "Green")] == [2, 2, 0]
    pos.do("yes")
    assert [value(pos, f"Follower of {s} at North") for s in ("Red", "Blue", "Green")] == [1, 1, 0]
    pos.do("no")
    assert [value(pos, f"Follower of {s} at North") for s in ("Red", "Blue", "Green")] == [1, 1, 0]


def test_skirmish_c_stops_when_the_skirmisher_has_no_follower_left():
    pos = start()
    pos.given("move first(Warlord of Red) to North\nmove first(Warlord of Blue) to North\n"
              "add 1 Follower of Red to North\nadd 3 Follower of Blue to North")
    pos.do("Warlord in North: Skirmish in North")
    pos.do("yes")
    assert value(pos, "Follower of Red at North") == 0
    assert value(pos, "Follower of Blue at North") == 2
    offered(pos)
    assert pos.match.pending["kind"] == "offer"  # not asked again: Red's next action


def test_skirmish_b_reads_the_region_as_a_left_it():
    """Decision 8: the sub-rules go in order. Red's Warlord takes Blue's only Lieutenant in
    (a); then no enemy Lieutenant stands there, so Red's Lieutenant removes a Follower in (b)."""
    pos = start()
    pos.given("move first(Lieutenant of Blue) to Northwest\nadd 3 Follower of Blue to Northwest")
    pos.do("Warlord in Northwest: Skirmish in Northwest")
    pos.do("yes")  # the Lieutenant rather than 2 Followers
    assert value(pos, "size(Lieutenant of Blue at Northwest)") == 0
    assert value(pos, "Follower of Blue at Northwest") == 2


def test_skirmish_c_stops_when_no_opponent_has_a_follower_left():
    """Decision 8: a trade needs an opponent's Follower there; Red keeps its last two."""
    pos = start()
    pos.given("move first(Warlord of Red) to North\nmove first(Warlord of Blue) to North\n"
              "add 3 Follower of Red to North\nadd 1 Follower of Blue to North")
    pos.do("Warlord in North: Skirmish in North")
    pos.do("yes")
    assert value(pos, "Follower of Red at North") == 2 and value(pos, "Follower of Blue at North") == 0
    offered(pos)
    assert pos.match.pending["kind"] == "offer"  # not asked again: Red's next action


def test_skirmish_is_only_offered_where_an_enemy_can_be_hurt():
    pos = start()
    pos.given("add 1 Follower of Blue to Heartland")
    assert not [o for o in pos.match.legal_actions() if "Skirmish" in o]  # Heartland is two away
    pos.given("add 1 Follower of Blue to West")
    assert [o for o in pos.match.legal_actions() if "Skirmish" in o] == [
        "Warlord in Northwest: Skirmish in West", "Lieutenant in Northwest: Skirmish in West"]


# ── end of round ──


def test_end_of_round_pays_2_per_follower_and_2_per_region_led_then_passes_the_marker():
    pos = start()
    pos.given("set money of Red to 0\nset money of Blue to 0\n"
              "add 2 Follower of Red to Northwest\nadd 1 Follower of Red to North\n"
              "add 1 Follower of Blue to North\nadd 3 Follower of Blue to Southeast")
    pos.do("end turn")
    pos.do("end turn")
    offered(pos)
    # Red: 3 Followers (6$), leads Northwest and ties North (2$ + 2$)
    assert value(pos, "money of Red") == 10
    # Blue: 4 Followers (8$), ties North and leads Southeast (2$ + 2$)
    assert value(pos, "money of Blue") == 12
    assert value(pos, "first_player") == 1
    assert pos.match.scopes()[0] == "round 2"
    assert pos.match.pending["seat"] == 1  # Blue now goes first


# ── end conditions, scoring, tie-break ──


def test_the_game_ends_after_12_rounds():
    pos = start()
    pos.given("set money of Red to 5")
    for _ in range(23):
        pos.do("end turn")
    offered(pos)
    assert pos.match.scopes()[0] == "round 12" and not pos.match.is_over
    pos.do("end turn")
    offered(pos)
    assert pos.match.is_over
    assert value(pos, "victory_points of Red") == 1  # 5$
    assert pos.match.result["winners"] == ["Red"]


def test_the_game_ends_at_the_end_of_a_round_when_every_region_is_unstable():
    pos = start()
    pos.given("set money of Blue to 10\nfor each r in regions:\n    add 1 Unstable to r")
    pos.do("end turn")
    offered(pos)
    assert not pos.match.is_over and pos.match.pending["seat"] == 1  # Blue still has its turn
    pos.do("end turn")
    offered(pos)
    assert pos.match.is_over
    assert pos.match.result["winners"] == ["Blue"]  # 10$ is 2 VP, Red's 3$ none


def test_scoring_goes_to_war_resets_and_consolidates_power():
    pos = start()
    pos.given("set money of Red to 0\nset money of Blue to 0\nset victory_points of Red to 50\n"
              "for each r in regions:\n    add 1 Unstable to r\n"
              "move first(Warlord of Blue) to North\n"
              "add 2 Follower of Red to North\nadd 1 Follower of Red to West\n"
              "add 1 Follower of Blue to North\nadd 2 Follower of Blue to East\nadd 1 Follower of Blue to South")
    pos.do("end turn")
    pos.do("end turn")
    offered(pos)
    assert pos.match.is_over
    # income: Red 3 Followers + North and West led = 10$; Blue 4 Followers + East and South = 12$
    assert value(pos, "money of Red") == 10 and value(pos, "money of Blue") == 12
    # Go to War: Blue (first player now) has its Warlord in North and Red none: 2 Red Followers go
    assert value(pos, "Follower of Red at North") == 0 and value(pos, "Follower of Blue at North") == 1
    # Red: West 3 + 10$ 2 = 5 (the 50 was reset); Blue: North, East, South 9 + the most Followers 2 + 12$ 2
    assert value(pos, "victory_points of Red") == 5
    assert value(pos, "victory_points of Blue") == 13
    assert pos.match.result["winners"] == ["Blue"]


def test_a_tie_lets_each_player_move_then_goes_to_war_again():
    pos = start()
    pos.given("set money of Red to 0\nset money of Blue to 0\n"
              "for each r in regions:\n    add 1 Unstable to r\n"
              "move first(Warlord of Red) to Heartland\n"
              "add 1 Follower of Red to North\nadd 1 Follower of Blue to South")
    pos.do("end turn")
    pos.do("end turn")
    options = offered(pos)
    # each has 4$, one region and a share of the most Followers: 5 VP each, a tie
    assert value(pos, "victory_points of Red") == 5 and value(pos, "victory_points of Blue") == 5
    assert pos.match.pending["seat"] == 1 and "stop moving" in options  # Blue moves first
    # moving is all a player may do
    assert options == ["Warlord in Southeast: Move to East", "Warlord in Southeast: Move to South",
                       "Lieutenant in Southeast: Move to East", "Lieutenant in Southeast: Move to South", "stop moving"]
    pos.do("stop moving")
    pos.do("Warlord in Heartland: Move to South")
    pos.do("stop moving")
    offered(pos)
    assert pos.match.is_over
    # the second war: Red's Warlord in South removes Blue's Follower there
    assert value(pos, "Follower of Blue at South") == 0
    assert value(pos, "money of Red") == 3
    assert value(pos, "victory_points of Red") == 5 and value(pos, "victory_points of Blue") == 0
    assert pos.match.result["winners"] == ["Red"]


def test_players_still_tied_after_the_tie_break_share_the_win():
    pos = start()
    pos.given("set money of Red to 0\nset money of Blue to 0\nfor each r in regions:\n    add 1 Unstable to r")
    pos.do("end turn")
    pos.do("end turn")
    pos.do("stop moving")
    pos.do("stop moving")
    offered(pos)
    assert pos.match.result["winners"] == ["Blue", "Red"] or pos.match.result["winners"] == ["Red", "Blue"]


# ── the scoring rules alone: each resolved by itself from a written position ──


def test_consolidate_power_pays_every_tied_leader_and_rounds_money_down():
    """Rulebook, Scoring (Consolidate Power): 3 VP to the leader of each region, 2 VP to the
    leader on the whole board, 1 VP per full 5$. Decision 6: a tie pays every tied player."""
    pos = start()
    pos.given("set money of Red to 9\nset money of Blue to 4\n"
              "add 2 Follower of Red to North\nadd 2 Follower of Blue to North\n"
              "add 1 Follower of Red to West\nadd 1 Follower of Blue to South")
    pos.resolve_rule("consolidate_power()")
    # Red: North (tied) 3 + West 3 + the board (3 each, tied) 2 + 9$ 1
    assert value(pos, "victory_points of Red") == 9
    # Blue: North (tied) 3 + South 3 + the board 2 + 4$ nothing
    assert value(pos, "victory_points of Blue") == 8


def test_consolidate_power_the_board_leader_alone_gets_the_2():
    pos = start()
    pos.given("set money of Red to 0\nset money of Blue to 0\n"
              "add 1 Follower of Red to North\nadd 2 Follower of Blue to South")
    pos.resolve_rule("consolidate_power()")
    assert value(pos, "victory_points of Red") == 3
    assert value(pos, "victory_points of Blue") == 5


@pytest.mark.parametrize(("money", "points"), [(0, 0), (4, 0), (5, 1), (9, 1), (10, 2), (14, 2)])
def test_consolidate_power_gives_1_vp_per_full_5_dollars_and_nothing_for_empty_regions(money, points):
    """With no Follower anywhere no region and not the board pays anyone: money alone counts."""
    pos = start()
    pos.given(f"set money of Red to {money}\nset money of Blue to 0")
    pos.resolve_rule("consolidate_power()")
    assert value(pos, "victory_points of Red") == points
    assert value(pos, "victory_points of Blue") == 0


def test_go_to_war_skirmishes_in_every_region_for_free_in_turn_order():
    """Rulebook, Scoring (Go to War): a mandatory Skirmish in each region. Decision 11: in
    board order, each player in turn order from the first player, at no cost."""
    pos = start()
    pos.given("add 3 Follower of Blue to Northwest\n"
              "add 2 Follower of Red to Heartland\nadd 1 Follower of Blue to Heartland\n"
              "add 1 Follower of Red to Southeast")
    pos.resolve_rule("go_to_war()")
    # Northwest: Red's Warlord takes 2 (a), its Lieutenant 1 more (b); nothing left to trade.
    # Heartland: no character; Red (first) may trade one for one (c)
    assert pos.match.pending["prompt"] == ("Red: Skirmish in Heartland: remove one of your Followers "
                                           "and one Follower of each opponent?")
    pos.answer("yes")
    assert value(pos, "Follower of Blue at Northwest") == 0
    assert value(pos, "Follower of Red at Heartland") == 1 and value(pos, "Follower of Blue at Heartland") == 0
    # Southeast: Blue's Warlord and Lieutenant remove Red's Follower
    assert value(pos, "Follower of Red at Southeast") == 0
    assert value(pos, "money of Red") == 3 and value(pos, "money of Blue") == 3  # no skirmish was paid for


def test_go_to_war_questions_name_the_region():
    """Go to War asks one player after another in every region: each question says where."""
    pos = start()
    pos.given("move first(Lieutenant of Blue) to West\nmove first(Warlord of Red) to West\n"
              "add 1 Follower of Blue to West\nadd 1 Follower of Red to West")
    pos.resolve_rule("go_to_war()")
    assert pos.match.pending["prompt"] == ("Red: Skirmish in West: remove an enemy Lieutenant "
                                           "instead of 2 enemy Followers?")


def test_end_of_round_pays_nobody_for_a_region_without_followers():
    """Rulebook, End of Round: 2$ per Follower and 2$ to the most Followers in each region;
    decision 6: the most needs at least one Follower, so empty regions pay nobody."""
    pos = start()
    pos.given("set money of Red to 0\nset money of Blue to 0\nadd 1 Follower of Blue to South")
    pos.resolve_rule("end_of_round()")
    assert value(pos, "money of Red") == 0
    assert value(pos, "money of Blue") == 4
    assert value(pos, "first_player") == 1  # the marker passes to the left


# ── the variant ──

VARIANT = ludus.load(ROOT / "examples" / "uprising-great-country.ludus")


def test_the_great_country_variant_changes_the_map_and_the_player_count_rules():
    match = VARIANT.new_match(6, seed=0)
    assert evaluate(match, "size(regions)")[0] == 12
    assert evaluate(match, "rounds")[0] == 10 and evaluate(match, "resource_base")[0] == 2
    assert len(match.legal_actions()) == 12  # the first player may place anywhere
    small = VARIANT.new_match(2, seed=0)
    assert evaluate(small, "rounds")[0] == 12 and evaluate(small, "resource_base")[0] == 1
    # everything else is Uprising's own
    assert set(VARIANT.actions) == set(GAME.actions)


@pytest.mark.parametrize("players", [5, 6])
def test_the_variants_random_matches_end(players):
    report = simulate(VARIANT, 5, seed=players, players=players)
    assert report.errors == [] and report.unfinished == 0


@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_matches_end(players):
    report = simulate(GAME, 20, seed=players, players=players)
    assert report.errors == [] and report.unfinished == 0


# ── effect snapshots: what each action changes, from a written position ──

NORTHWEST_RESOURCES = ("remove all Grain from Northwest\nadd 1 Grain to Northwest\n"
                       "remove all Timber from Northwest\nadd 2 Timber to Northwest\n"
                       "remove all Stone from Northwest\nadd 3 Stone to Northwest")

ACTIONS = {
    "Move": ("set money of Red to 1", ["Warlord in Northwest: Move to North"]),
    "Intimidate the Populace": (NORTHWEST_RESOURCES, ["Lieutenant in Northwest: Intimidate the Populace, taking Grain"]),
    "Slay": ("add 2 Follower of Blue to Northwest", ["Lieutenant in Northwest: Slay a Follower of Blue"]),
    "Campaign": ("set money of Red to 0", ["Warlord in Northwest: Campaign"]),
    "Make a decree": ("set money of Red to 6\n" + NORTHWEST_RESOURCES,
                      ["Warlord in Northwest: Make a decree", "Grain", "Stone"]),
    # (a) takes 2 Followers, (b) one more, then (c) one trade is accepted and the next declined
    "Skirmish": ("move first(Warlord of Red) to North\nmove first(Lieutenant of Red) to North\n"
                 "add 2 Follower of Red to North\nadd 5 Follower of Blue to North",
                 ["Warlord in North: Skirmish in North", "yes", "no"]),
    "Promote Lieutenant": ("set money of Red to 11\nadd 2 Follower of Red to West",
                           ["Warlord in Northwest: Promote Lieutenant in West"]),
}


@pytest.mark.parametrize("action", list(ACTIONS))
def test_action_effect(action, effect_snapshot):
    position, moves = ACTIONS[action]
    pos = start()
    pos.given(position)
    pos.effect()  # the report starts from the written position
    for move in moves:
        pos.do(move)
    assert pos.effect(action) == effect_snapshot
