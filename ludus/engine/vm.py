"""The interpreter: runs compiled instructions over a state until a seat must decide or the game ends.

The call stack is plain data in the state (`{"c": code id, "pc": index, "env": {...}}` frames),
so a match paused in the middle of a card effect can be copied, saved and resumed.
"""

from __future__ import annotations

from ..language.limits import MAX_OPTIONS
from ..language.symbols import per_keys
from .ops import (
    ALT_INIT,
    ALT_NEXT,
    ALT_POP,
    CALL,
    DECIDE,
    DRAW,
    END,
    EXEC,
    FUSED,
    ITER,
    JUMP,
    JUMPF,
    LOSE,
    NEXT,
    PASS,
    RESOLVE,
    RET,
    ROLL,
    SCOPE,
    SHUFFLE,
    UNSCOPE,
    WIN,
)
from .runtime import TIX, RuleError, Runtime, check_die, forced_die
from .values import as_int, as_list
from .view import key_order, pair_shown

STEP_BUDGET = 200_000


def start(game, state: dict, log: list, budget: int = STEP_BUDGET) -> None:
    state["stack"] = [{"c": "flow", "pc": 0, "env": {"$cur": 0, "$act": 0}}]
    if game.becomes:
        # each `when ... becomes true` starts from the condition's value before setup
        rt = Runtime(game, state, log)
        env = {"$cur": 0, "$act": 0}
        state["became"] = [_truths(rt, spec, env) for spec in game.becomes]
        rt.changed = set()
    run(game, state, log, budget)


def _truths(rt: Runtime, spec, env: dict):
    """A condition's value now: a bool, or for `for each X in LIST` a table element -> bool."""
    cond, _cid, _deps, span, var, _source = spec
    if var is None:
        return _condition(rt, cond, span, env)
    return {str(x): truth for x, truth in _each_truth(rt, spec, env)}


def _each_truth(rt: Runtime, spec, env: dict) -> list:
    """`when COND becomes true for each X in LIST`: (element, COND for it), in list order."""
    cond, _cid, _deps, span, var, source = spec
    try:
        elements = as_list(rt, source(rt, env))
    except RuleError as exc:
        raise RuleError(f"{exc.message} (in a 'when ... becomes true' list)", exc.span or span) from None
    return [(x, _condition(rt, cond, span, {**env, var: x})) for x in elements]


def _condition(rt: Runtime, cond, span, env: dict) -> bool:
    try:
        return bool(cond(rt, env))
    except RuleError as exc:
        if getattr(exc, "span", None) is None:
            raise RuleError(f"{exc} (in a 'when ... becomes true' condition)", span) from None
        raise


def answer(game, state: dict, log: list, index: int, budget: int = STEP_BUDGET, runtime=Runtime) -> None:
    """Apply option `index` of the pending decision, then run on. `runtime` makes the runtime the
    move runs with: a Runtime, or one that watches the move as it goes (view.Watching, which
    Match.hidden_answer's retrace uses), so that a move played for real pays nothing for it."""
    pending = state["pending"]
    rt = runtime(game, state, log)
    rt.memo = memo_for(game, state)  # the answer's own changes drop what they must
    rt.tix = rt.memo.get(TIX)
    frame = state["stack"][-1]
    code = game.codes[frame["c"]]
    op = code.ops[frame["pc"]]
    try:
        if pending["kind"] == "chance":
            _chance_answer(rt, frame, op, pending, index)
        else:
            result = op[1].answer(rt, frame["env"], pending, index)
            if result is not None and "kind" in result:
                state["pending"] = result
                return
            state["pending"] = None
            frame["pc"] += 1
            if result is not None:
                state["stack"].append(result)
    except _FAILURES as exc:  # a RuleError, or a state damaged in a way the saved-match checks missed
        raise _located(exc, code, frame["pc"]) from None
    # the run goes on with this runtime, counted afresh as a new one would be (an answer only
    # binds names and logs, but the values it read count against no later limit)
    rt.events, rt.changed, rt.work = [], set(), 0
    run(game, state, log, budget, rt)


def run(game, state: dict, log: list, budget: int = STEP_BUDGET, rt: Runtime | None = None) -> None:  # noqa: C901
    if rt is None:
        rt = Runtime(game, state, log)
        # defines keep their values until what they read changes (Runtime.touch), from one run
        # to the next of the same state (an answer's runtime has them already)
        rt.memo = memo_for(game, state)
        rt.tix = rt.memo.get(TIX)  # the token totals, kept as the define values are
    stack = state["stack"]
    codes = game.codes
    steps = 0
    anytime = bool(game.anytime) or bool(game.becomes)
    # the names 'at any time' reads: a change to none of them checks nothing, so the run goes on
    # (they stay in rt.changed, which the next check intersects with each block's reads)
    watch = game.anytime_watch
    while stack and state["result"] is None and state["pending"] is None:
        frame = stack[-1]
        code = codes[frame["c"]]
        ops = code.fast if code.fast is not None else code.ops
        env = frame["env"]
        pc = frame["pc"]
        try:
            # Fast path: instructions that stay in this frame run with the frame held in locals.
            while True:
                op = ops[pc]
                kind = op[0]
                steps += 1
                if steps > budget:
                    raise endless(code, pc, budget)
                if kind == EXEC:
                    frame["pc"] = pc + 1
                    op[1](rt, env)
                    pc += 1
                    if rt.events or (anytime and rt.changed and (watch is None or not watch.isdisjoint(rt.changed))):
                        _after_change(rt, env, frame)
                        break
                elif kind == JUMP:
                    pc = op[1]
                elif kind == JUMPF:
                    pc = pc + 1 if op[1](rt, env) else op[2]
                elif kind == NEXT:
                    it = env[op[1]]
                    if it[1] >= len(it[0]):
                        del env[op[1]]
                        pc = op[3]
                    else:
                        if op[2] is not None:
                            env[op[2]] = it[0][it[1]]
                        it[1] += 1
                        pc += 1
                elif kind == ITER:
                    env[op[1]] = [list(op[2](rt, env)), 0]
                    pc += 1
                elif kind == FUSED:
                    # a run of statements in one call (compiler/regions.py): it counts its own
                    # steps, and leaves the frame where it stopped, as the instructions would
                    frame["pc"] = pc
                    steps = op[1](rt, frame, env, steps - 1, budget)
                    pc = frame["pc"]
                    if rt.events or (anytime and rt.changed and (watch is None or not watch.isdisjoint(rt.changed))):
                        top = stack[-1]
                        _after_change(rt, top["env"], top)
                        kind = EXEC
                        break
                    if stack[-1] is not frame or state["result"] is not None or state["pending"] is not None:
                        kind = EXEC  # another frame, the end, or a decision the region asked
                        break
                elif kind == SCOPE:
                    _scope(rt, env, op)
                    pc += 1
                elif kind == UNSCOPE:
                    pc += 1
                    if _unscope(rt, env):  # a var back to its start is a change
                        frame["pc"] = pc
                        _after_change(rt, env, frame)
                        kind = EXEC
                        break
                elif kind == CALL:  # a rule's frame on top: the loop above takes it up
                    new_env = {"$cur": env.get("$cur"), "$act": env.get("$act")}
                    new_env.update(op[2](rt, env))  # its arguments: a failure is located at the call
                    pc += 1
                    frame["pc"] = pc
                    stack.append({"c": op[1], "pc": 0, "env": new_env})
                    kind = EXEC
                    break
                elif kind == RET:
                    stack.pop()
                    kind = EXEC
                    break
                else:
                    steps -= 1  # counted again below
                    break
            frame["pc"] = pc
            if kind == EXEC:
                continue
        except _FAILURES as exc:
            raise _located(endless_cause(rt, exc), code, pc) from None
        steps += 1
        try:
            if kind == EXEC:
                frame["pc"] = pc + 1
                op[1](rt, env)
                _after_change(rt, env, frame)
            elif kind == JUMP:
                frame["pc"] = op[1]
            elif kind == JUMPF:
                frame["pc"] = pc + 1 if op[1](rt, env) else op[2]
            elif kind == ITER:
                env[op[1]] = [list(op[2](rt, env)), 0]
                frame["pc"] = pc + 1
            elif kind == NEXT:
                it = env[op[1]]
                if it[1] >= len(it[0]):
                    del env[op[1]]
                    frame["pc"] = op[3]
                else:
                    if op[2] is not None:
                        env[op[2]] = it[0][it[1]]
                    it[1] += 1
                    frame["pc"] = pc + 1
            elif kind == DECIDE:
                pending = op[1].start(rt, env)
                if pending is None:
                    frame["pc"] = pc + 1
                else:
                    state["pending"] = pending
            elif kind == ROLL:
                _roll(rt, frame, op)
            elif kind == DRAW:
                _draw(rt, env, op)
                frame["pc"] = pc + 1
                _after_change(rt, env, frame)
            elif kind == SHUFFLE:
                zone = op[1](rt, env)
                if op[2] is not None:
                    into = op[2](rt, env)
                    rt.move_entities(rt.zone_cards(zone), into)
                    zone = into
                rt.shuffle(zone)
                frame["pc"] = pc + 1
                _after_change(rt, env, frame)
            elif kind == RESOLVE:
                frame["pc"] = pc + 1
                eid = op[1](rt, env)
                if eid is not None:
                    d = game.defs[rt.ent(eid)["d"]]
                    cid = d.handlers.get(op[2])
                    if cid is not None:
                        stack.append({"c": cid, "pc": 0, "env": {"this": eid, "$cur": env.get("$cur"), "$act": env.get("$act")}})
            elif kind == WIN or kind == LOSE:
                _finish(rt, op[1](rt, env), kind == WIN, _ended(code, pc, _reason(code, pc)))
            elif kind == END:
                state["result"] = {"winners": [], "losers": list(range(state["nseats"])), **_ended(code, pc, _reason(code, pc))}
            elif kind == ALT_INIT:
                seats = op[1](rt, env)
                seats = [seats] if isinstance(seats, int) else list(seats)
                state["alts"].append({"order": seats, "passed": [], "i": 0, "cur": None})
                rt.touch("$alts")
                frame["pc"] = pc + 1
            elif kind == ALT_NEXT:
                alt = state["alts"][-1]
                order = alt["order"]
                live = [s for s in order if s not in alt["passed"]]
                rt.touch("$alts")
                if op[2] and len(set(live)) <= 1:
                    # `until one left`: the loop ends before anyone is asked once a single seat
                    # has not passed (at once when it starts with one), and its name stays that
                    # seat for what follows. A seat passes only on its own turn, so two seats
                    # left never become none; only a loop over no seats at all leaves no one.
                    if not live:
                        raise RuleError("'alternate ... until one left' has no seat left: "
                                        "it was given no seats to take turns")
                    state["alts"].pop()
                    env[op[1]] = live[0]
                    frame["pc"] = op[3]
                elif not live:
                    state["alts"].pop()
                    frame["pc"] = op[3]
                else:
                    i = alt["i"]
                    while order[i % len(order)] in alt["passed"]:
                        i += 1
                    alt["cur"] = order[i % len(order)]
                    alt["i"] = (i + 1) % len(order)
                    env[op[1]] = alt["cur"]
                    frame["pc"] = pc + 1
            elif kind == ALT_POP:
                state["alts"].pop()
                rt.touch("$alts")
                frame["pc"] = pc + 1
            elif kind == PASS:
                if not state["alts"]:
                    raise RuleError("'pass' outside of an 'alternate' loop")
                alt = state["alts"][-1]
                if alt["cur"] not in alt["passed"]:
                    alt["passed"].append(alt["cur"])
                    rt.touch("$alts")
                frame["pc"] = pc + 1
            else:  # pragma: no cover
                raise RuleError(f"unknown instruction {kind}")
        except _FAILURES as exc:
            raise _located(endless_cause(rt, exc), code, pc) from None
    if not stack and state["result"] is None:
        state["result"] = {"winners": [], "losers": [], "reason": "the flow ended without a winner"}
    if state["result"] is not None and game.payoff is not None and "payoffs" not in state["result"]:
        _payoffs(rt)
    if state["result"] is not None and game.carried[0] is state:
        game.carried = (None, None)  # a finished match asks for no more: let its values go


def _payoffs(rt: Runtime) -> None:
    """`payoff EXPR`, read for every seat the moment the match ends, and kept in the result."""
    state = rt.state
    try:
        state["result"]["payoffs"] = [as_int(rt.game.payoff(rt, {"seat": s, "$act": s, "$cur": s}), "the payoff")
                                      for s in range(state["nseats"])]
    except RuleError as err:
        raise RuleError(f"the payoff could not be read: {err.message}", err.span) from None


def _after_change(rt: Runtime, env: dict, frame: dict) -> None:
    """Fire triggers for what changed, then check the 'at any time' conditions."""
    game, state = rt.game, rt.state
    if rt.events:
        events, rt.events = rt.events, []
        frames = []
        for name, key, old, new in events:
            if key.__class__ is str and "|" in key and name in game.vars and " and " in (game.vars[name].per or ""):
                key = pair_shown(rt, name, key)  # "1|South" is the state's, not the rules'
            for zone, cid in game.triggers.get(name, ()):
                if zone is not None:
                    spec = game.tracks[name]
                    lo, hi = spec.zones[zone]
                    if not (lo <= new <= hi) or (lo <= old <= hi):
                        continue
                frames.append({"c": cid, "pc": 0, "env": {
                    "old": old, "new": new, "key": key, "$cur": env.get("$cur"), "$act": env.get("$act")}})
        state["stack"].extend(reversed(frames))
    if game.becomes and rt.changed and state["result"] is None:
        _conditions(rt, env)
    if game.anytime and rt.changed and state["result"] is None:
        changed, rt.changed = rt.changed, set()
        for cid, deps in game.anytime:
            if deps is not None and not (deps & changed):
                continue
            _run_inline(rt, cid, {"$cur": env.get("$cur"), "$act": env.get("$act")})
            if state["result"] is not None:
                break
        rt.events = []
        rt.changed = set()


def _conditions(rt: Runtime, env: dict) -> None:
    """`when COND becomes true:`: a block for each condition (or element) that turned from
    false to true, in declaration order (and list order)."""
    state, changed = rt.state, rt.changed
    became = state.setdefault("became", [False] * len(rt.game.becomes))
    frames = []
    base = {"$cur": env.get("$cur"), "$act": env.get("$act")}
    for i, spec in enumerate(rt.game.becomes):
        _cond, cid, deps, _span, var, _source = spec
        if deps is not None and not (deps & changed):
            continue
        if var is None:
            now = _truths(rt, spec, base)
            if now and not became[i]:
                frames.append({"c": cid, "pc": 0, "env": dict(base)})
        else:
            pairs = _each_truth(rt, spec, base)
            now = {str(x): truth for x, truth in pairs}
            before = became[i] if isinstance(became[i], dict) else {}
            frames.extend({"c": cid, "pc": 0, "env": {**base, var: x}}
                          for x, truth in pairs if truth and not before.get(str(x)))
        became[i] = now
    state["stack"].extend(reversed(frames))
    if not rt.game.anytime:
        rt.changed = set()


def _run_inline(rt: Runtime, cid: str, env: dict) -> None:
    run_inline(rt, rt.game.codes[cid], env, "'at any time' can only check conditions and end the game")


INLINE_CALLS = 100  # rules called one inside another by a block run inline (a test's `given`)


def run_inline(rt: Runtime, code, env: dict, refusal: str, budget: int = STEP_BUDGET, depth: int = 0) -> None:
    """Run a block that cannot suspend to its end, here and now: 'at any time' checks (the
    checker allows no decision in them) and the statements that set up a test's position,
    with the rules they call (a test's `given give(Red, ...)`), each run inline in turn.
    An instruction that would wait for a decision or a die raises RuleError(refusal); more
    than `budget` turns of its loops (`while true:`) raise the located error `run` gives. The
    turns are counted at the jump back that every loop's turn ends with, so that a block without
    a loop (most 'at any time' checks, run after every change) counts nothing."""
    pc = 0
    turns = 0
    while pc < len(code.ops) and rt.state["result"] is None:
        op = code.ops[pc]
        kind = op[0]
        try:
            if kind == EXEC:
                op[1](rt, env)
                pc += 1
            elif kind == JUMP:
                if op[1] <= pc:
                    turns += 1
                    if turns > budget:
                        raise endless(code, pc, budget)
                pc = op[1]
            elif kind == JUMPF:
                pc = pc + 1 if op[1](rt, env) else op[2]
            elif kind == ITER:
                env[op[1]] = [list(op[2](rt, env)), 0]
                pc += 1
            elif kind == NEXT:
                it = env[op[1]]
                if it[1] >= len(it[0]):
                    pc = op[3]
                else:
                    if op[2] is not None:
                        env[op[2]] = it[0][it[1]]
                    it[1] += 1
                    pc += 1
            elif kind in (SCOPE, UNSCOPE):
                pc += 1
            elif kind == SHUFFLE:
                rt.shuffle(op[1](rt, env))
                pc += 1
            elif kind == DRAW:
                _draw(rt, env, op)
                pc += 1
            elif kind == WIN or kind == LOSE:
                _finish(rt, op[1](rt, env), kind == WIN, _ended(code, pc, _reason(code, pc)))
            elif kind == END:
                rt.state["result"] = {"winners": [], "losers": list(range(rt.state["nseats"])),
                                      **_ended(code, pc, _reason(code, pc))}
            elif kind == RET:
                return
            elif kind == CALL:
                if depth >= INLINE_CALLS:
                    raise RuleError(f"rules called one another more than {INLINE_CALLS} deep")
                new_env = {"$cur": env.get("$cur"), "$act": env.get("$act")}
                new_env.update(op[2](rt, env))
                pc += 1
                # the callee's errors are located in the callee (RuleError with its span)
                run_inline(rt, rt.game.codes[op[1]], new_env, refusal, budget, depth + 1)
            else:
                raise RuleError(refusal)
        except _FAILURES as exc:
            raise _located(exc, code, pc) from None


def memo_for(game, state: dict) -> dict:
    """The remembered define values of this very state object, kept from the last run over it
    (every change since went through Runtime.touch), else a new memo holding only the defines
    that read no state, shared by every match with as many seats. The game keeps one state's
    memo, so a state replaced (undo, a failed apply, clone, a saved match, a test's position)
    is a different object and starts afresh; code that puts a state back in place calls
    `forget`."""
    carried_state, memo = game.carried
    if carried_state is not state:
        if game.define_drops is None:
            game.make_define_tables()
        memo = {}
        if game.define_fixed:
            shared = game.fixed_values.setdefault(state["nseats"], {})
            memo = {name: shared.setdefault(name, {}) for name in game.define_fixed}
        game.carried = (state, memo)
    return memo


def forget(game) -> None:
    """Drop the define values (and the token indexes kept with them) of the last state run: its
    data changed without Runtime."""
    game.carried = (None, None)


_FAILURES = (RuleError, RecursionError, TypeError, KeyError, IndexError, ValueError, AttributeError,
             ZeroDivisionError, MemoryError, OverflowError)


def _located(exc: Exception, code, pc: int) -> RuleError:
    """A failure while running an instruction, as a RuleError at that instruction's place."""
    if isinstance(exc, RuleError) and exc.span is not None:
        return exc
    return failure_at(exc, _span_near(code, pc), f"'{code.label}'")


def failure_at(exc: Exception, span, what: str) -> RuleError:
    """A failure (one of _FAILURES) while working out `what` (`'action Buy'`, `the expression`),
    as a RuleError at `span` (a RuleError keeps its own place when it has one). The VM's
    instructions fail through it, and so does an expression written outside the rules (a test's
    `expect`, the REPL's `eval`), which no instruction runs."""
    if isinstance(exc, RuleError):
        if exc.span is None:
            exc.span = span
        return exc
    if isinstance(exc, RecursionError):
        # Python's stack bounds how deep defines go, a few hundred calls: a recursion that
        # would end, but deeper, meets it as an endless one does. How many calls fit differs
        # with the way the define runs: its generated function takes two of Python's frames a
        # call (about 490 fit), its closures (LUDUS_CLOSURES=1) three a call and one more for
        # each operator between the body's top and the call inside it (about 200 fit for
        # `if x == 0 then 0 else f(x - 1) + 1`); either way the error is this one
        return RuleError("defines called one another too deeply (ludus allows a few hundred calls, one inside "
                         "another): a define that calls itself without end, or a recursion too deep to work out",
                         span)
    if isinstance(exc, (MemoryError, OverflowError)):
        return RuleError(f"{what} built something too large to hold ({type(exc).__name__})", span)
    return RuleError(f"this went wrong while running {what}: {type(exc).__name__}: {exc}", span)


class Endless(RuleError):
    """The step budget ran out: a block that seems to loop forever."""


def endless(code, pc: int, budget: int) -> RuleError:
    """The error of a block that ran `budget` steps without a decision, located at `pc`."""
    return Endless(f"the rules ran {budget} steps without asking for a decision: "
                   f"'{code.label}' seems to loop forever", _span_near(code, pc))


def endless_cause(rt: Runtime, exc: Exception) -> Exception:
    """An endless loop that came back again and again to an `offer` with nothing legal and no
    `else` (which asks nothing, and goes on) is most likely endless because of it: the error
    is located at that offer and says so, rather than at the line of the loop where the budget
    ran out. An offer found empty only once is left out: the loop may be elsewhere."""
    if not isinstance(exc, Endless) or not rt.empty_offers:
        return exc
    spec, times = max(rt.empty_offers.items(), key=lambda item: item[1])
    if times < 2 or spec.span is None:
        return exc
    return Endless(f"{exc.message}: it came to this offer {times:,} times, and each time the offer had nothing "
                   "legal and no 'else', so it asked nothing", spec.span)


def _span_near(code, pc: int):
    """The place of instruction `pc`, or of the nearest instruction before it that has one (a
    loop's jump back has none of its own)."""
    for i in range(pc, -1, -1):
        if code.spans[i] is not None:
            return code.spans[i]
    return next((sp for sp in code.spans if sp is not None), None)


def _reason(code, pc: int) -> str:
    """Why the game ended, for people: the win, lose or end statement as written, and the block
    it is in (`lose seats, at any time`). No line number: a result, and so every snapshot of
    a test that ends the game, stays the same when lines above the statement move. The line is
    kept apart, in the result's "at" (`_ended`), for what shows a person where to look."""
    return f"{code.ends[pc]}, {code.label}" if pc in code.ends else code.label


def _ended(code, pc: int, reason: str) -> dict:
    """A result's reason and where the statement that ended the game is: its block's id and
    instruction, which Match.result turns into the file and line (these, unlike a line number,
    stay the same when lines move)."""
    return {"reason": reason, "at": [code.id, pc]}


def _finish(rt: Runtime, seats, win: bool, ended: dict) -> None:
    n = rt.state["nseats"]
    chosen = [seats] if isinstance(seats, int) and not isinstance(seats, bool) else list(seats or [])
    for s in chosen:
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < n:
            raise RuleError(f"{s!r} is not a seat")
    others = [s for s in range(n) if s not in chosen]
    winners, losers = (chosen, others) if win else (others, chosen)
    rt.state["result"] = {"winners": sorted(winners), "losers": sorted(losers), **ended}
    rt.log.append({"t": "end", "winners": [rt.seat_name(s) for s in sorted(winners)]})


def _scope(rt: Runtime, env: dict, op) -> None:
    _, kind, label, fn = op
    record = {"k": kind, "n": label}
    if kind == "turn":
        seat = fn(rt, env)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rt.state["nseats"]:
            no_seat(seat)
        record.update(v=seat, sc=env.get("$cur"), sa=env.get("$act"))
        env["$cur"] = env["$act"] = seat
    elif fn is not None:
        record["v"] = fn(rt, env)
    rt.state["scopes"].append(record)


def no_seat(value):
    """The error of a turn given something that is not a seat."""
    raise RuleError(f"a turn needs a seat, and {value!r} is not one")


def _unscope(rt: Runtime, env: dict) -> bool:
    """Close the innermost scope, putting back the vars that reset when it ends: whether any
    was set (then it changed, for 'at any time', as a statement's change is). A var whose value
    differed from its start gives its `when NAME changes:` triggers an event per key, in the
    order of the keys, as Runtime.put_var would: the triggers run as the block closes."""
    record = rt.state["scopes"].pop()
    if record["k"] == "turn":
        env["$cur"], env["$act"] = record["sc"], record["sa"]
    label = record["n"]
    game = rt.game
    reset = False
    variables = rt.state["vars"]
    for name in game.resets.get(label, ()):
        prefix = name + "@"
        gone = [k for k in variables if k == name or k.startswith(prefix)]
        if not gone:
            continue
        rt.touch(name)  # back to its start value
        rt.changed.add(name)
        reset = True
        if name not in rt.watched:
            for k in gone:
                del variables[k]
            continue
        spec = game.vars[name]
        # in the order a view lists the keys (spaces as the board declares them, "0|10" after
        # "0|2"): the state's own order is the order they were set in
        order = key_order(game, per_keys(spec.per))
        gone.sort(key=lambda k: order(k[len(prefix):]))
        put_back = []
        for k in gone:
            key = None if k == name else state_key(game, spec, k[len(prefix):])
            old = variables.pop(k)
            put_back.append((key, old))
        for key, old in put_back:
            new = spec.initial(rt, key)  # read once the var is back, as get_var reads it
            if old != new:
                rt.events.append((name, key, old, new))
    return reset


def state_key(game, spec, text: str):
    """The key of a var as rules give it, from its text in a state key ("coins@0"): a seat or a
    card's id for `per seat` and `per KIND` of cards, a space's name for `per KIND` of spaces,
    a key of a set of keys as the list gives it ("red", or 3 for a set of numbers), "0|NY" as
    it is for a var kept per pair (values.pair_key). Runtime.put_var lets no other key be set,
    and a saved match holding one is refused (saved.var_problem)."""
    if spec.per in game.key_sets:  # a text, or a whole number for a set of numbers
        return int(text) if game.key_sets[spec.per].type == "number" else text
    if spec.per == "seat" or (spec.per not in game.space_kinds and " and " not in spec.per):
        return int(text)
    return text


def _roll(rt: Runtime, frame: dict, op) -> None:
    _, sides_fn, many, bind = op
    env = frame["env"]
    dice = sides_fn(rt, env)
    if rt.state["chance"] == "manual":
        _roll_by_hand(rt, frame, op, dice, [])
        return
    values = [rt.roll(s) for s in dice]
    env[bind] = values if many else values[0]
    frame["pc"] += 1


def _roll_by_hand(rt: Runtime, frame: dict, op, dice: list, got: list) -> None:
    """With chance played by hand, the dice from the `got`-th on: a die with a forced outcome
    waiting takes it, and the first one without asks chance (a pending decision). A force of
    another die once made every die of the roll come from the generator, none asked."""
    forced = rt.state["forced"]
    while len(got) < len(dice):
        sides = dice[len(got)]
        check_die(sides)  # as a roll by the generator would: a d0 was asked with no options
        if forced_die(forced, sides) is None:
            if sides > MAX_OPTIONS:
                raise RuleError(f"a d{sides:,} rolled by hand would offer {sides:,} options; a decision offers at "
                                f"most {MAX_OPTIONS:,}")
            rt.state["pending"] = _chance_pending(rt, dice, got)
            return
        got.append(rt.roll(sides))
    rt.state["pending"] = None
    frame["env"][op[3]] = got if op[2] else got[0]
    frame["pc"] += 1


def _chance_pending(rt, dice, got):
    sides = dice[len(got)]
    return {"kind": "chance", "seat": None, "prompt": f"chance: roll d{sides}",
            "options": [f"d{sides} = {v}" for v in range(1, sides + 1)],
            "values": list(range(1, sides + 1)), "dice": dice, "got": got}


def _chance_answer(rt: Runtime, frame: dict, op, pending: dict, index: int) -> None:
    value = pending["values"][index]
    got = pending["got"] + [value]
    rt.log.append({"t": "roll", "die": pending["dice"][len(got) - 1], "value": value})
    _roll_by_hand(rt, frame, op, pending["dice"], got)


def _draw(rt: Runtime, env: dict, op) -> None:
    _, amount_fn, src_fn, dst_fn, game = op

    amount = as_int(amount_fn(rt, env), "number of cards to draw")
    src, dst = src_fn(rt, env), dst_fn(rt, env)
    name, _, seat = src.partition("@")
    spec = game.zones.get(name)
    left = amount
    while left > 0:
        cards = rt.state["places"].get(src)
        if not cards and spec is not None and spec.refill:
            refill = f"{spec.refill}@{seat}" if seat else spec.refill
            rt.move_entities(rt.zone_cards(refill), src)
            if rt.state["places"].get(src):
                rt.shuffle(src)
            cards = rt.state["places"].get(src)
        if not cards:
            break
        # the top cards one after another, each to the top of `dst`, as one move of them all;
        # a zone drawn into itself keeps its top card on top, so it moves one at a time
        taken = cards[:left] if src != dst else cards[:1]
        rt.move_entities(taken, dst)
        left -= len(taken)
