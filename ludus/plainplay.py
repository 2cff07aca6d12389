"""A minimal line-by-line play loop: shows the decision, reads a number or a label."""

from __future__ import annotations

from .match import IllegalAction
from .runtime import RuleError


def loop(match, stream, echo) -> None:
    while not match.is_over:
        where = ", ".join(match.scopes())
        pending = match.pending
        echo(f"[{where}] {pending['prompt']}")
        options = match.legal_actions()
        for i, label in enumerate(options, 1):
            echo(f"  {i}. {label}")
        line = stream.readline()
        if not line:
            echo("(end of input)")
            return
        text = line.strip()
        if text in ("quit", "q"):
            return
        if text == "undo":
            try:
                echo(f"undid: {match.undo()}")
            except IndexError:
                echo("nothing to undo")
            continue
        choice = options[int(text) - 1] if text.isdigit() and 1 <= int(text) <= len(options) else text
        try:
            match.apply(choice)
        except IllegalAction as exc:
            echo(str(exc))
        except RuleError as exc:
            echo(f"rule error: {exc}")
    result = match.result
    winners = ", ".join(result["winners"]) or "no one"
    echo(f"game over: {winners} won ({result['reason']})")
