"""Text in, nodes out: nodes built from text equal nodes built by hand (spans are not compared)."""

from __future__ import annotations

import pytest

from ludus.language import nodes as n
from ludus.language.build import build
from ludus.language.source import LudusError


def items(text: str) -> tuple:
    return build(text, "t.ludus").items


def stmts(body: str) -> tuple:
    [flow] = items("flow:\n" + "".join("    " + line + "\n" for line in body.splitlines()))
    return flow.body


def test_declarations():
    assert items('game "Uprising"\nplayers 2 to 4\nseats Red, Blue\n') == (
        n.GameDecl("Uprising"), n.PlayersDecl(2, 4), n.SeatsDecl(("Red", "Blue")))
    assert items("players 3\n") == (n.PlayersDecl(3, 3),)
    assert items("counter money per seat start 3 min 0\n") == (
        n.VarDecl("counter", "money", "seat", None, n.Number(3), n.Number(0), None, None, "public", False),)
    assert items("zone hand per seat owner only\n") == (n.ZoneDecl("hand", "seat", "owner only", None, False),)
    assert items("zone deck per seat count only refill from discard\n") == (
        n.ZoneDecl("deck", "seat", "count only", "discard", False),)
    assert items("token Wood, Ore\n") == (n.TokenDecl(("Wood", "Ore"), None, False),)
    assert items("override value rounds = 8\n") == (n.ValueDecl("rounds", n.Number(8), True),)
    assert items("remove action Slay\n") == (n.RemoveDecl("action", "Slay"),)
    assert items('include "cards.ludus"\nextends "base.ludus"\n') == (
        n.IncludeDecl("cards.ludus", False), n.IncludeDecl("base.ludus", True))


def test_kind_and_card():
    [kind, card] = items('kind Good:\n    cost: number\n    tags: list of text = []\n'
                         'card "Fortune Teller" is Good:\n    cost 3\n    on play:\n        draw 1\n')
    assert kind == n.KindDecl("Good", None, (
        n.FieldDecl("cost", n.TypeRef("number"), None),
        n.FieldDecl("tags", n.TypeRef("list", n.TypeRef("text")), n.ListLit(())),
    ), False)
    assert card == n.EntityDecl("card", "Fortune Teller", "Good", (n.Prop("cost", n.Number(3)),),
                                (n.Handler("play", (n.Draw(n.Number(1), None, None),)),), False)


def test_board_and_track():
    [board, track] = items("board town:\n    quarter Docks adjacent to Square, Hill with fame 2\n"
                           "    state CA \"California\" in West\n"
                           "track mood from -4 to 4 start 1:\n    end Festival from 3 to 4\n")
    assert board.spaces == (
        n.SpaceDecl("quarter", "Docks", None, None, ("Square", "Hill"), (n.Prop("fame", n.Number(2)),)),
        n.SpaceDecl("state", "CA", "California", "West", (), ()),
    )
    assert track == n.TrackDecl("mood", -4, 4, 1, (n.EndZone("Festival", 3, 4),), False)


def test_a_track_without_start_leaves_it_to_the_checker():
    # its ends may name values, whose numbers the checker knows (tests/language/test_checker.py)
    assert items("track t from 3 to 9\n")[0].start is None
    assert items("track t from low to 9 start opening\n")[0].start == n.NumberName("opening")


def test_statements():
    assert stmts("gain 2 money for Red\npay 1 coins") == (
        n.Change("gain", "money", n.Number(2), n.Name("Red")), n.Change("pay", "coins", n.Number(1), None))
    assert stmts("remove all Unstable from North") == (n.RemoveTokens(None, "Unstable", None, n.Name("North")),)
    assert stmts("move c to the bottom of deck") == (n.MoveStmt(n.Name("c"), n.Name("deck"), True),)
    assert stmts("choose cs from hand, up to 2") == (n.Choose("cs", n.Name("hand"), None, "up_to", n.Number(2)),)
    assert stmts('offer Buy, Build to current else "stop" as picked') == (
        n.Offer(("Buy", "Build"), n.Name("current"), "stop", "picked"),)
    assert stmts("roll 2 d6 as xs") == (n.Roll("many", n.Number(2), 6, "xs"),)
    assert stmts("score(North)") == (n.CallStmt("score", (n.Name("North"),)),)


def test_if_elif_else():
    [stmt] = stmts("if a:\n    pass\nelif b:\n    break\nelse:\n    end game")
    assert stmt == n.If(((n.Name("a"), (n.Pass(),)), (n.Name("b"), (n.Break(),))), (n.EndGame(),))


def test_expressions_keep_precedence():
    [let] = stmts("let x = 1 + 2 * 3 > 6 and not done")
    assert let.value == n.BinOp(
        "and", n.BinOp(">", n.BinOp("+", n.Number(1), n.BinOp("*", n.Number(2), n.Number(3))), n.Number(6)),
        n.Not(n.Name("done")))
    [let] = stmts("let y = Follower of s at r")
    assert let.value == n.Access("Follower", n.Name("s"), n.Name("r"))
    [let] = stmts("let z = sum(c.cost for c in hand where c.cost > 1)")
    assert let.value == n.Call("sum", (), comp=n.Comprehension(
        n.Attr(n.Name("c"), "cost"), "c", n.Name("hand"), n.BinOp(">", n.Attr(n.Name("c"), "cost"), n.Number(1))))
    [let] = stmts("let w = -3")
    assert let.value == n.Number(-3)


def test_templates_split_into_text_and_expressions():
    [log] = stmts('log "{actor} buys {c.name}!"')
    assert log.text.parts == (n.Name("actor"), " buys ", n.Attr(n.Name("c"), "name"), "!")


def test_spans_are_excluded_from_equality_but_present():
    a = items("value x = 1\n")[0]
    b = items("\n\nvalue x = 1\n")[0]
    assert a == b
    assert (a.span.line, b.span.line) == (1, 3)
    assert (b.value.span.line, b.value.span.column) == (3, 11)


def test_template_hole_positions_are_in_the_file():
    [log] = stmts('log "x {money}"')
    hole = log.text.parts[1]
    assert (hole.span.line, hole.span.column) == (2, 13)


def test_bad_template_hole_is_located():
    with pytest.raises(LudusError) as err:
        build('flow:\n    log "a {1 +} b"\n', "t.ludus")
    [d] = err.value.diagnostics
    assert d.message == "unexpected '}'; expected an expression"
    assert (d.span.line, d.span.column) == (2, 16)  # the closing brace
