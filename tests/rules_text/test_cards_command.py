"""`ludus cards FILE [--card NAME]`: every card's rules text, or one; clear errors otherwise."""

from __future__ import annotations

from click.testing import CliRunner

from ludus.cli import main
from tests.helpers import EXAMPLES, GAMES, no_crash


def run(*args: str):
    try:  # click before 8.2 mixes stderr into the output unless told not to
        runner = CliRunner(mix_stderr=False)
    except TypeError:
        runner = CliRunner()
    return runner.invoke(main, list(args))


def test_cards_prints_every_card_of_a_game():
    result = run("cards", str(EXAMPLES / "market-town.ludus"))
    assert result.exit_code == 0, result.output
    headings = [ln for ln in result.stdout.splitlines() if ln and not ln.startswith(" ")]
    assert headings == ["Copper Coin (Good, 28 copies)", "Street Musician (Good, 4 copies)",
                        "Tax Collector (Good, 4 copies)", "Fortune Teller (Good, 4 copies)",
                        "Town Crier (Good, 4 copies)", "Guild Charter (Good, 3 copies)"]
    assert "  When played: Decrease the mood track by 1.\n" in result.stdout


def test_one_card_by_name_in_any_case():
    result = run("cards", str(EXAMPLES / "market-town.ludus"), "--card", "town crier")
    assert result.exit_code == 0
    assert result.stdout.startswith("Town Crier (Good, 4 copies)\n  Cost: 4. Coins: 1. Fame: 1.\n")
    headings = [ln for ln in result.stdout.splitlines() if ln and not ln.startswith(" ")]
    assert headings == ["Town Crier (Good, 4 copies)"]  # that card alone
    assert "Fortune Teller" not in result.stdout


def test_an_unknown_card_is_exit_2_with_the_closest_names():
    result = run("cards", str(EXAMPLES / "market-town.ludus"), "--card", "Fortune Tellr")
    assert result.exit_code == 2
    assert "no card is named 'Fortune Tellr'; closest: Fortune Teller" in result.stderr
    assert no_crash(result)


def test_a_card_list_is_read_through_its_game_and_shows_only_its_cards():
    result = run("cards", str(GAMES / "votes-for-women" / "strategy.ludus"))
    assert result.exit_code == 0, result.output
    headings = [ln for ln in result.stdout.splitlines() if ln and not ln.startswith(" ")]
    assert len(headings) == 12 and "Opposition Research (Card)" in headings
    assert "Seneca Falls Convention (Card)" not in headings      # a card of suffragist.ludus


def test_a_game_without_cards_says_so():
    result = run("cards", str(GAMES / "uprising.ludus"))
    assert result.exit_code == 0 and "no cards" in result.stdout


def test_a_broken_game_is_exit_1_with_located_errors(tmp_path):
    path = tmp_path / "broken.ludus"
    path.write_text('game "B"\nplayers 2\nflow:\n    gain 1 monye\n', encoding="utf-8")
    result = run("cards", str(path))
    assert result.exit_code == 1
    assert f"{path}:4:12: error: unknown counter 'monye'" in result.stderr


def test_a_missing_file_is_a_clear_error(tmp_path):
    result = run("cards", str(tmp_path / "nothing.ludus"))
    assert result.exit_code == 1 and "cannot read" in result.stderr and no_crash(result)


def test_a_card_without_an_effect_names_the_actions_that_use_it():
    # Coup's characters do nothing themselves: their powers are actions that claim them by name
    result = run("cards", str(EXAMPLES / "coup.ludus"))
    assert result.exit_code == 0, result.output
    assert "No effect." not in result.stdout
    assert ("Duke (Character, 3 copies)\n  No card effect; named by the actions ForeignAid and Tax.\n"
            in result.stdout)
    assert "Ambassador (Character, 3 copies)\n  No card effect; named by the actions Steal and Exchange.\n" \
        in result.stdout
    assert "Contessa (Character, 3 copies)\n  No card effect; named by the action Assassinate.\n" in result.stdout


def test_a_zone_familys_member_reads_as_the_zone_for_its_key(tmp_path):
    game = tmp_path / "families.ludus"
    game.write_text('game "Families"\nplayers 2\nvalue colours = ["red", "blue"]\n'
                    'zone expedition per seat and colour\nzone discards per colour\n'
                    'kind Card:\n    colour: text\n'
                    'card "Red 1" is Card:\n    colour "red"\n    on play:\n'
                    '        move this to discards of this.colour\n'
                    '        move this to expedition of actor at this.colour\n'
                    '        move this to expedition of opponent at "red"\n'
                    'flow:\n    resolve play of card("Red 1")\n    end game\n', encoding="utf-8")
    result = run("cards", str(game))
    assert result.exit_code == 0, result.output
    assert ("    Move this card to the discards for this card's colour.\n"
            "    Move this card to your expedition for this card's colour.\n"
            '    Move this card to the expedition of your opponent for "red".\n') in result.stdout
