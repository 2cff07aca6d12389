"""Expressions and statements written outside a game file (replay `expect` lines, test `given`
lines, the REPL), checked against a game's symbols and run against a live match."""

from __future__ import annotations

import attrs
from lark.exceptions import VisitError

from ..engine.runtime import Runtime, copy_state
from ..engine.vm import _FAILURES, failure_at, run_inline
from ..language.build import Builder, shift_spans
from ..language.checker import Checker, Scope
from ..language.parser import parse
from ..language.source import LudusError, Span
from .program import Compiler


def _checked(game, path, line, column, text, start):
    def moved(err: LudusError) -> LudusError:
        # the hint and the rest go with the message: a slip's hint (`1 to 3` in an expression)
        # is what tells a REPL or test line what to write instead
        return LudusError([attrs.evolve(d, span=Span(path, line + d.span.line - 1, column + d.span.column - 1,
                                                     line + d.span.line - 1, column + d.span.column))
                           for d in err.diagnostics])

    try:
        tree = parse(text, path, start=start)
    except LudusError as err:
        raise moved(err) from None
    try:
        built = Builder(path).transform(tree)
    except VisitError as exc:
        # a text's holes are parsed as it is built: `"{"` (a hole never closed) or `"{}"` fails
        # there, inside lark, which wraps the error; it is the line's error all the same
        if isinstance(exc.orig_exc, LudusError):
            raise moved(exc.orig_exc) from None
        raise
    node = shift_spans(built, line - 1, column - 1)
    checker = Checker([], game.checked.symbols)
    # the types the game's check found for its defines and values: a fresh checker has none,
    # and would read a define without parameters as `any` (its cards shown as numbers)
    checker.define_types = dict(game.checked.define_types)
    checker.value_types = dict(game.checked.value_types)
    return node, checker


def compile_expression(game, text: str, path: str = "<expect>", line: int = 1, column: int = 1):
    """A closure `fn(match) -> (value, type)`; bad text raises LudusError located at path:line."""
    node, checker = _checked(game, path, line, column, text, "expr")
    scope = Scope(in_test=True)
    typ = checker.expr(node, scope)
    errors = [d for d in checker.out.diagnostics if d.severity == "error"]
    if errors:
        raise LudusError(errors)
    fn = Compiler(checker.out, game).expr(node)

    def evaluate(match):
        rt = Runtime(game, match._state, list(match.log))
        try:
            return fn(rt, _env(match)), typ
        except _FAILURES as exc:
            # no instruction runs the expression, so the VM does not locate its failure: a
            # define recursing too deeply was a RecursionError's traceback out of `ludus test`
            raise failure_at(exc, node.span, "the expression") from None
    return evaluate


def compile_statements(game, text: str, path: str = "<given>", line: int = 1, column: int = 1):
    """A closure `fn(match)` that runs statements which need no decision (set, move, add, ...)."""
    nodes, checker = _checked(game, path, line, column, text, "statements")
    checker.block(nodes, Scope(in_test=True))
    errors = [d for d in checker.out.diagnostics if d.severity == "error"]
    if errors:
        raise LudusError(errors)
    comp = Compiler(checker.out, game)
    code = comp.block_code(f"given {path}:{line}", "given", nodes)
    del game.codes[code.id]

    def run(match):
        work = copy_state(match.state)
        rt = Runtime(game, work, match.log)
        run_inline(rt, code, _env(match),
                   "a position can only be set up with statements that need no decision or dice")
        match.state = work
    return run


def compile_rule_call(game, text: str, path: str = "<resolve>", line: int = 1, column: int = 1):
    """A test's call of a rule (`score_quarters()`, `deal(Amber, 3)`), checked as a test line's:
    `(rule code id, bind, code)`, where `bind(rt, env)` works out the arguments as the rule's
    parameters and `code` is the call's own code (its one instruction, located at the call, is
    where a failure of the arguments is). Anything but one call of a rule raises LudusError
    located at path:line."""
    from ..language import nodes as n
    from ..language.source import Diagnostic

    nodes, checker = _checked(game, path, line, column, text, "statements")
    if len(nodes) != 1 or not isinstance(nodes[0], n.CallStmt):
        first = nodes[0].span if nodes else Span(path, line, column, line, column)
        raise LudusError([Diagnostic("error", "'resolve' takes one call of a rule, as the rules write it: "
                                              "score_quarters(), deal(Amber, 3)", first)])
    checker.test_rule_call(nodes[0], Scope(in_test=True))
    errors = [d for d in checker.out.diagnostics if d.severity == "error"]
    if errors:
        raise LudusError(errors)
    code = Compiler(checker.out, game).block_code(f"resolve {path}:{line}", "resolve", nodes)
    del game.codes[code.id]
    _call, rule, bind = code.ops[0]  # the one instruction before RET: CALL of the rule's code
    return rule, bind, code


def _env(match) -> dict:
    seat = match._state["pending"]["seat"] if match._state["pending"] else None
    scopes = [s for s in match._state["scopes"] if s["k"] == "turn"]
    current = scopes[-1]["v"] if scopes else (seat if seat is not None else 0)
    return {"$cur": current, "$act": seat if seat is not None else current}


def evaluate(match, text: str):
    """The value of an expression now, and its type."""
    return compile_expression(match.game, text)(match)
