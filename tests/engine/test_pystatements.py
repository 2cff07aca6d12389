"""Statements compiled to Python source (ludus/compiler/pystatements.py): every generated kind
does what its closure does (the same state, log, triggers and errors at the same place)."""

from __future__ import annotations

import pytest

import ludus
from ludus.compiler import pysource
from ludus.engine import ops as O
from ludus.engine.runtime import RuleError

GENERATED = "<ludus generated expressions>"

SOURCE = '''game "Statements"
players 2
counter coins per seat start 2
counter score
counter heat per seat and region
var note start 0
token Cube
token Flag per seat
zone hand per seat owner only
zone discard per seat
zone pile
track mood from 0 to 5:
    end High from 4 to 5
kind Unit:
    hp: number = 1
piece Scout is Unit
card "Spark"
card "Ember"
board land:
    region A adjacent to B
    region B adjacent to A
when coins changes:
    set note to 10 * old + new
    log "coins of {key} went from {old} to {new}"
when mood enters High:
    increase score by 100
rule reward(who, n):
    gain n coins for who
    add n Flag of who to A
rule push(t: track, n):
    set t to n + 1
    increase t by 1
flow:
    move card("Spark") to hand of P1
    move card("Ember") to pile
    add 4 Cube to A
    create Scout at A for P2 as s
    set s.hp to 3
    turn P1:
        choose r from [A, B] "Where?"
        let k = Cube at r
        set k to k + 1
        increase heat of P1 at r by k
        move 2 Cube from A to B
        remove 1 Cube from r
        decrease s.hp by 1
        increase mood by 2 * k
        reward(P2, k)
        pay 1 coins
        gain 3 coins for P1
        set coins of P2 to coins of P2 + 1
        push(mood, k)
        set score to score + coins of P2
        reveal hand of P1 to P2
        reveal pile
        discard hand of P1
        move s to B
        remove all Flag of P2 from A
        add 1 Flag to B
        move card("Ember") to the bottom of discard of P1
        reveal card("Ember")
        reveal card("Spark") to [P2]
        exile s
        log "{r}: k={k}, hp={s.hp}, mood={mood}"
    end game
'''


def load(tmp_path, text: str, generated: bool, monkeypatch):
    monkeypatch.setattr(pysource, "ENABLED", generated)
    path = tmp_path / "statements.ludus"
    path.write_text(text, encoding="utf-8")
    return ludus.load(path)


def exec_functions(game) -> list:
    """Every statement's function and every rule call's argument function, block by block."""
    out = []
    for code in game.codes.values():
        for op in code.ops:
            if op[0] == O.EXEC:
                out.append(op[1])
            elif op[0] == O.CALL:
                out.append(op[2])
    return out


def test_every_statement_here_runs_generated_code_and_none_with_generation_off(tmp_path, monkeypatch):
    fns = exec_functions(load(tmp_path, SOURCE, True, monkeypatch))
    assert len(fns) > 25
    assert all(f.__code__.co_filename == GENERATED for f in fns)
    fns = exec_functions(load(tmp_path, SOURCE, False, monkeypatch))
    assert not any(f.__code__.co_filename == GENERATED for f in fns)


@pytest.mark.parametrize("choice", ["A", "B"])
def test_generated_statements_leave_the_same_state_log_and_triggers(tmp_path, monkeypatch, choice):
    matches = []
    for generated in (True, False):
        m = load(tmp_path, SOURCE, generated, monkeypatch).new_match(2, seed=3)
        m.apply(choice)
        matches.append(m)
    gen, ref = matches
    assert gen.to_json() == ref.to_json()
    assert gen.log == ref.log
    # what the flow did, read back: so the comparison above is of a match that ran it all
    logs = [e["text"] for e in gen.log if e["t"] == "log"]
    assert f"coins of P2 went from 2 to {7 if choice == 'A' else 3}" in logs
    assert f"coins of P2 went from {7 if choice == 'A' else 3} to {8 if choice == 'A' else 4}" in logs
    assert gen.state["tracks"]["mood"]["pos"] == (5 if choice == "A" else 3)  # push() moved it last
    assert (gen.state["vars"]["score"] >= 100) == (choice == "A")  # mood entered High: its trigger ran
    assert any(e["t"] == "reveal" and e.get("to") == [1] for e in gen.log)


# (a statement in `rule bad(x)`, the argument it is called with, what the error says): the
# argument of a rule has no type, so what the checker would refuse reaches the statement
ERRORS = [
    ("pay x coins", "5", "cannot pay 5 coins: P1 has only 2"),
    ("set score to x", "[1]", "counter 'score' holds whole numbers"),
    ("move card(\"Spark\") to x", "none", "cannot move to 'none'"),
    ("move card(\"Spark\") to x", "first(cards(\"Ember\"))", "not onto a card"),
    ("create Scout at x for P1", "first(cards(\"Ember\"))", "created in a zone or on a space, not on a card"),
    ("set x.hp to 2", "[4]", "cannot set 'hp' of [4]"),
    # none (a `first` of an empty list) is named as the rules write it, not as Python's None
    ("set x.hp to 2", "none", "cannot set 'hp' of none: only cards"),
    ("set score to x.hp", "none", "cannot read 'hp' of 'x', which is none here"),
    ("set note to owner_of(x)", "none", "'owner_of' needs a card or piece, and the value here is none"),
    ("set score to position(x)", "none", "'position' needs a card or piece, and the value here is none"),
    # none to move (`top` of an empty zone) moved nothing and said nothing (values.as_entities)
    ("move x to pile", "none", "cannot move none (top or first of an empty zone or list is none)"),
    ("move x to the bottom of discard of P1", "top(discard of P2)", "cannot move none"),
    ("discard x", "none", "cannot discard none"),
    ("exile x", "first([c for c in pile where c.name == \"Spark\"])", "cannot exile none"),
    ("reveal x", "none", "cannot reveal none"),
    ("reveal x to P2", "none", "cannot reveal none"),
    ("increase coins by x", "true", "amount"),
    ("add x Cube to A", "0 - 2", "cannot add -2 tokens"),
    ("remove 1 Cube from x", "none", "tokens need a place"),
    ("move 1 Cube from A to x", "none", "tokens need a place"),
    ("discard x", "pile", "belongs to no seat"),
    ("reveal pile to x", "[7]", "7"),
    ("increase heat of P1 at x by 1", "[A]", "a list cannot key a counter"),
    ("let z = 3 / (x - x)", "1", "division by zero"),
    ("log \"{x} / {3 / (x - 1)}\"", "1", "division by zero"),
    ("reward(P2, 3 / (x - x))", "1", "division by zero"),
]


@pytest.mark.parametrize(("statement", "argument", "message"), ERRORS)
def test_an_error_is_the_same_and_located_at_its_statement(tmp_path, monkeypatch, statement, argument, message):
    text = SOURCE.replace("    turn P1:\n", f"    move card(\"Ember\") to pile\n    bad({argument})\n    turn P1:\n", 1)
    text = text.replace("flow:\n", f"rule bad(x):\n    {statement}\nflow:\n", 1)
    line = text.splitlines().index(f"    {statement}") + 1
    errors = []
    for generated in (True, False):
        game = load(tmp_path, text, generated, monkeypatch)
        if generated:  # the statement that fails is a generated one
            [op] = [op for op, sp in zip(game.codes["rule bad"].ops, game.codes["rule bad"].spans, strict=True)
                    if sp is not None and sp.line == line]
            fn = op[1] if op[0] == O.EXEC else op[2]
            assert fn.__code__.co_filename == GENERATED
        with pytest.raises(RuleError) as err:
            game.new_match(2, seed=0)
        errors.append(str(err.value))
    assert errors[0] == errors[1]
    assert errors[0].startswith(f"{tmp_path / 'statements.ludus'}:{line}:")
    assert message in errors[0]
