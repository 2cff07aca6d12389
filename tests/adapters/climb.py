"""A small game the adapters' tests break on purpose: seats climb until one stops, and from a
given step on a step costs money no seat has, so the rules fail halfway through that move (a
RuleError). Random playouts mostly stop long before; a low `pay_from` makes them meet it."""

from __future__ import annotations


def climb_game(pay_from: int = 12, roll: bool = False) -> str:
    """The game's text. With `roll`, each step rolls a d6 first and costs that many coins, so
    the rules fail after the die, with chance already answered; else it costs 1."""
    die = "                roll d6 as cost\n" if roll else ""
    return f"""game "Climb"
players 2
counter height
counter money per seat
flow:
    while height < 100:
        for each s in seats:
            turn s:
                choose step from ["stop", "climb"] "Climb on?"
                if step == "stop":
                    end game
                increase height by 1
{die}                if height >= {pay_from}:
                    pay {"cost" if roll else "1"} money
    end game
"""
