"""Reading a saved match back: every part of the state is checked before a Match is made of it.

A saved match is a file a person may have edited, truncated or damaged; whatever it holds, reading
it ends in a Match that plays on correctly or in a MatchError that says what is wrong. The checks
are of shape and reference (each card's definition exists, each place is one of the game and
holds the cards that say they are there, tokens lie where tokens can, forced outcomes are ones a
`force` line could queue), of each counter, flag and var against its declaration (a name the game
declares, a key its `per` gives, a value of its kind and type: see `_of_type`), and of where play
stands against the game's code: each VM frame is a block started by the frame under it from where
that one stands (`_pushes`), the turns, phases and loops open and the `alternate` loops running
are exactly those the frames stand in, with the seats they put in turn (`_scopes`), and each
frame keeps its place in the loops it is in (`_loops`). Then Match.from_json asks the decision
waited for again of a copy of the state, which must give the one saved (match.py `_asked_again`:
it runs the rules), and exercises the match once (legal actions, each seat's view), so that
nothing damaged is found later, in the middle of play. A move is answered before it is checked
against the state (match.py `_log_answer`, vm.py `answer`), so a decision is checked whole.

What is not checked: the values the rules keep for their own names in a frame (a local, a
parameter, the element a loop stands at, the list it goes through) and on a card (`set c.field`),
against their types. Nothing keeps those to their types as the rules run (a rule parameter
without a type hands on any value, and `set x to who` puts it in a local typed otherwise), so
such a check could refuse a match ludus saved itself. Nor is it checked which card is where or
whose, or how many tokens lie where, beyond the shape above: any of those is a position the
rules can be asked to go on from; so is none in a var of any type, which the rules can put there
(see `var_problem`). Damage there is found when the rules read it, as a RuleError at the line
that read it.
"""

from __future__ import annotations

import json

from ..language.limits import MAX_DIE_SIDES, MAX_NESTING, MAX_NUMBER, MAX_TEXT
from ..language.symbols import a_type, per_keys
from .ops import ALT_INIT, ALT_POP, CALL, DECIDE, DRAW, END, EXEC, ITER, LOSE, RESOLVE, ROLL, SHUFFLE, UNSCOPE, WIN

FRAME_KEYS = {"c", "pc", "env"}
SCOPE_KEYS = {"turn": {"k", "n", "v", "sc", "sa"}, "phase": {"k", "n"}, "loop": {"k", "n", "v"}, "each": {"k", "n", "v"}}
ENTITY_KEYS = {"d", "o", "l", "f", "rev", "see"}
ALT_KEYS = {"order", "passed", "i", "cur"}
STATE_KEYS = {"nseats", "vars", "tokens", "places", "ents", "stack", "pending", "scopes", "alts", "result",
              "forced", "chance", "rng", "tracks"}
RNG_LIMIT = 1 << 64
# The kinds of decision a seat is asked for, and the class of the compiled spec (compiler/decisions.py)
# that asks each: a decision is answered by the spec at its frame's instruction, so the two must agree.
# By name, as the engine knows nothing of how a game was compiled.
SPECS = {"offer": "OfferSpec", "choose": "ChooseSpec", "number": "RangeSpec", "ask": "AskSpec",
         "distribute": "DistributeSpec"}


class Damaged(ValueError):
    """What is wrong with a saved state, in a few words."""


def validate_state(game, state) -> None:
    """Raise Damaged unless `state` is a whole, consistent state of `game`."""
    _need(isinstance(state, dict), "the state is not a table")
    missing = STATE_KEYS - set(state)
    _need(not missing, f"the state lacks {', '.join(sorted(missing))}")
    _plain(state, "the state")
    n = state["nseats"]
    _need(_is_int(n) and game.min_players <= n <= game.max_players, f"'nseats' is not a player count of {game.title}")
    _need(_is_int(state["rng"]) and 0 <= state["rng"] < RNG_LIMIT, "the random generator's state is out of range")
    _need(state["chance"] in ("auto", "manual"), "'chance' is neither auto nor manual")
    _entities(game, state, n)
    _variables(game, state, n)
    _tokens(game, state, n)
    _tracks(game, state)
    became = state.get("became")
    if became is not None or game.becomes:
        _need(isinstance(became, list) and len(became) == len(game.becomes)
              and all(isinstance(b, bool) or (isinstance(b, dict) and all(isinstance(v, bool) for v in b.values()))
                      for b in became), "the 'when ... becomes true' conditions are damaged")
    blocks = _blocks(game)
    opened = _frames(game, state, n, blocks)
    _decision(game, state, n)
    result = state["result"]
    if result is not None:
        _need(isinstance(result, dict) and isinstance(result.get("reason"), str), "the result is damaged")
        for side in ("winners", "losers"):
            seats = result.get(side)
            _need(isinstance(seats, list) and all(_is_int(s) and 0 <= s < n for s in seats), f"the result's {side} are damaged")
        if "at" in result:  # a match saved before results said where they ended has no "at"
            _need(_ending(game, result["at"]), "the result's place is damaged")
        if "payoffs" in result:
            payoffs = result["payoffs"]
            _need(isinstance(payoffs, list) and len(payoffs) == n and all(_is_int(p) for p in payoffs),
                  "the result's payoffs are damaged")
    _scopes(game, state, n, blocks, opened)
    _forced(game, state, n)


def _ending(game, at) -> bool:
    """Whether a result's "at" is a win, lose or end game instruction of the game's code."""
    if not (isinstance(at, list) and len(at) == 2 and isinstance(at[0], str) and at[0] in game.codes and _is_int(at[1])):
        return False
    ops = game.codes[at[0]].ops
    return 0 <= at[1] < len(ops) and ops[at[1]][0] in (WIN, LOSE, END)


def _frames(game, state, n: int, blocks: dict) -> list:
    """The VM's frames: each a block of the game at one of its instructions, the bottom one the
    flow and every other one pushed by the frame under it from where that one stands (a rule
    its CALL names, an effect of the kind its RESOLVE runs, an action its offer offers, a
    trigger fired by what the frame under it has just done); in each, the loops it stands in.
    Returns, for each frame, what its position has open (see `_opened`)."""
    stack = _list(state["stack"], "stack")
    for i, frame in enumerate(stack):
        _need(isinstance(frame, dict) and set(frame) == FRAME_KEYS and isinstance(frame["c"], str)
              and frame["c"] in game.codes and isinstance(frame["env"], dict), f"VM frame {i} is damaged")
        pc = frame["pc"]
        _need(_is_int(pc) and 0 <= pc < len(game.codes[frame["c"]].ops), f"unknown position {_short(frame['c'])}:{_short(pc)}")
        env = frame["env"]
        _need("$cur" in env and "$act" in env, "a VM frame does not say whose turn it is")
        for key in ("$cur", "$act"):
            _need(_seat(env[key], n), f"a VM frame's {key[1:]!r} seat is no seat")
    if stack:
        _need(stack[0]["c"] == "flow", f"the bottom VM frame runs {_short(stack[0]['c'])}, not the flow")
    for i in range(1, len(stack)):
        _need(_pushes(game, blocks, stack[i - 1], stack[i]),
              f"VM frame {i} runs {_short(stack[i]['c'])}, which frame {i - 1} does not start where it stands")
    opened = []
    for frame in stack:
        code = game.codes[frame["c"]]
        names = blocks.get(frame["c"], ("", None, ()))[2]
        _need(all(name in frame["env"] for name in names),
              f"a VM frame of {_short(frame['c'])} lacks a value it was started with "
              f"({', '.join(name for name in names if name not in frame['env'])})")
        here = _opened(code, frame["pc"])
        _loops(code, frame, here[2])
        opened.append(here)
    return opened


# What each block of a game is, by its code id: the flow, a rule, an action (its name), a card's
# effect (the handler's name), a trigger ("when NAME changes", "when ... becomes true"), or a check
# run in place ('at any time', never a frame of its own); and the names its frame is started with.
def _blocks(game) -> dict:
    kinds = {f"rule {name}": ("rule", name, tuple(params)) for name, params in game.rule_params.items()}
    kinds["flow"] = ("flow", None, ())
    for name, action in game.actions.items():
        kinds[action.code] = ("action", name, tuple(p for p, _, _ in action.params))
    for d in game.defs.values():
        for handler, cid in d.handlers.items():
            kinds[cid] = ("effect", handler, ("this",))
    for fired in game.triggers.values():
        for _zone, cid in fired:
            kinds[cid] = ("trigger", None, ("old", "new", "key"))
    for spec in game.becomes:
        kinds[spec[1]] = ("trigger", None, () if spec[4] is None else (spec[4],))
    for cid, _deps in game.anytime:
        kinds[cid] = ("check", None, ())
    return kinds


# The instructions after which a frame may have a trigger's frame above it: the change that fired
# it, or a call of a rule or an effect the generated code ran in place (compiler/regions.py) that
# changed what a trigger watches.
_FIRED_AFTER = frozenset((EXEC, DRAW, SHUFFLE, UNSCOPE, CALL, RESOLVE))


def _pushes(game, blocks: dict, below: dict, frame: dict) -> bool:
    """Whether `below`, where it stands, starts the block `frame` runs."""
    kind, name, _names = blocks.get(frame["c"], (None, None, ()))
    ops = game.codes[below["c"]].ops
    pc = below["pc"]
    op = ops[pc - 1] if pc > 0 else None
    if kind == "trigger":
        # triggers fired together wait in a row, not yet started; a rule run in place that fired
        # one stays on the stack at its end (regions.py `_rg_enter`)
        return ((pc == 0 and blocks.get(below["c"], ("",))[0] == "trigger")
                or (op is not None and op[0] in _FIRED_AFTER) or pc == len(ops) - 1)
    if op is None:
        return False
    if kind == "rule":
        return op[0] == CALL and op[1] == frame["c"]
    if kind == "effect":
        return op[0] == RESOLVE and op[2] == name
    if kind == "action":
        spec = op[1] if op[0] == DECIDE else None
        return type(spec).__name__ == SPECS["offer"] and (spec.names is None or name in spec.names)
    return False


def _opened(code, pc: int) -> tuple[list, list, list]:
    """What a frame of `code` standing at `pc` has open, outermost first, from the shape of each
    compound statement (compiler/statements.py `Code.shapes`): the instructions that opened its
    scopes (turns, phases, labelled loops), those of its `alternate` loops, and its loops over a
    list, each as (its start, its head). A `break` closes the scopes in its loop one instruction
    at a time, and a var put back as one closes may fire a trigger in between."""
    scopes, alts, loops = [], [], []
    breaking = None
    for start, shape in code.shapes.items():
        kind = shape[0]
        if kind == "scope":
            if start < pc < shape[1]:
                scopes.append(start)
        elif kind == "loop":
            end, top, scope_at, _body_at, body_end = shape[1:6]
            if not start < pc < end:
                continue
            first = code.ops[start][0]
            if first == ITER:
                loops.append((start, top))
            elif first == ALT_INIT:
                alts.append((start, top))
            if scope_at is not None and scope_at < pc <= body_end:
                scopes.append(scope_at)
        elif kind == "break" and start < pc < shape[1]:
            breaking = start
    scopes.sort()
    alts.sort()
    if breaking is not None:
        done = code.ops[breaking:pc]
        del scopes[len(scopes) - sum(op[0] == UNSCOPE for op in done):]
        if any(op[0] == ALT_POP for op in done):
            alts.pop()
    return scopes, alts, loops


def _loops(code, frame: dict, loops: list) -> None:
    """A frame's place in each loop over a list: only the loops of its block (a `break` leaves
    it behind, to be started afresh), one for each loop it stands in, past the first element
    once inside the body. The numbers of a counted loop or a `repeat` are numbers."""
    env = frame["env"]
    own = {op[1]: i for i, op in enumerate(code.ops) if op[0] == ITER}
    for key, value in env.items():
        if not key.startswith("$") or key in ("$cur", "$act"):
            continue
        _need(key in own, f"a VM frame keeps a loop {_short(key)} that its block does not have")
        _need(isinstance(value, list) and len(value) == 2 and isinstance(value[0], list) and _is_int(value[1])
              and 0 <= value[1] <= len(value[0]), f"a VM frame's loop {key!r} is damaged")
        shape = code.shapes[own[key]]
        counted = code.ops[shape[2]][2] is None or code.ops[shape[3]][1] == "loop"  # `repeat`, `for r in 1 to N`
        _need(not counted or all(_is_int(x) and -MAX_NUMBER <= x <= MAX_NUMBER for x in value[0]),
              f"a VM frame's loop {key!r} counts with something that is not a number")
    for start, top in loops:
        slot = code.ops[start][1]
        _need(slot in env, f"a VM frame stands in a loop and has lost its place in it ({slot!r})")
        var = code.ops[top][2]
        _need(frame["pc"] <= top or (env[slot][1] >= 1 and (var is None or var in env)),
              f"a VM frame stands in the body of loop {slot!r} before its first turn")


def _decision(game, state, n) -> None:
    """The decision waited for: its options and the values they stand for, the progress of a
    decision in several parts, and the instruction that asked it, which answers it."""
    pending = state["pending"]
    if pending is None:
        _need(state["result"] is not None, "the match neither waits for a decision nor has ended")
        return
    _need(state["result"] is None, "the match has ended and still waits for a decision")
    _need(isinstance(pending, dict), "the pending decision is damaged")
    kind = pending.get("kind")
    _need(isinstance(kind, str) and (kind == "chance" or kind in SPECS),
          f"the pending decision is of no known kind ({_short(kind)})")
    _need("seat" in pending, "the pending decision belongs to no seat")
    seat = pending["seat"]
    if kind == "chance":
        _need(seat is None, "the pending roll belongs to a seat; chance makes it")
    else:
        _need(_seat(seat, n), "the pending decision belongs to no seat")
    options = pending.get("options")
    _need(isinstance(options, list) and options and all(isinstance(o, str) for o in options),
          "the pending decision has no options")
    values = pending.get("values")
    _need(isinstance(values, list) and len(values) == len(options),
          "the pending decision's values do not match its options, one for each")
    _need(isinstance(pending.get("prompt"), str), "the pending decision has no prompt")
    _need(isinstance(pending.get("question", ""), str), "the pending decision's question is not text")
    stack = state["stack"]
    _need(bool(stack), "a decision is pending, and no VM frame waits for it")
    top = stack[-1]
    op = game.codes[top["c"]].ops[top["pc"]]
    if kind == "chance":
        _need(op[0] == ROLL, f"the pending roll waits at an instruction that rolls no die ({top['c']!r}:{top['pc']})")
        _roll(pending, values, op[2])
        return
    _need(op[0] == DECIDE and type(op[1]).__name__ == SPECS[kind],
          f"the pending {kind} waits at an instruction that asks for no decision of that kind ({top['c']!r}:{top['pc']})")
    spec = op[1]
    if kind == "offer":
        _offer(game, spec, values)
    elif kind == "choose":
        _choose(state, spec, pending, values, n)
    elif kind == "number":
        _need(all(_is_int(v) and -MAX_NUMBER <= v <= MAX_NUMBER for v in values), "the pending number's values are not numbers")
    elif kind == "ask":
        _need(all(isinstance(v, bool) for v in values), "the pending question's values are not yes and no")
    else:
        _distribute(state, spec, pending, values, n)


def _roll(pending: dict, values: list, many: bool) -> None:
    """A roll asked of chance by hand: the dice, the faces rolled so far, the faces of the next die."""
    dice, got = pending.get("dice"), pending.get("got")
    _need(isinstance(dice, list) and dice and all(_is_int(d) and 1 <= d <= MAX_DIE_SIDES for d in dice)
          and (many or len(dice) == 1), "the pending roll's dice are damaged")
    _need(isinstance(got, list) and len(got) < len(dice)
          and all(_is_int(v) and 1 <= v <= d for v, d in zip(got, dice, strict=False)),
          "the faces the pending roll has so far are damaged")
    sides = dice[len(got)]
    _need(values == list(range(1, sides + 1)), f"the pending roll's values are not the faces of a d{sides}")


def _offer(game, spec, values: list) -> None:
    """Each option of an offer: one of the actions offered, with a value for each parameter (or the `else`)."""
    offered = game.actions if spec.names is None else spec.names
    for value in values:
        if value is None:
            _need(spec.stop_label is not None, "the pending offer has an 'else' option it does not offer")
            continue
        _need(isinstance(value, list) and len(value) == 2 and isinstance(value[0], str) and isinstance(value[1], list),
              "an option of the pending offer is damaged")
        name, args = value
        _need(name in offered and name in game.actions, f"the pending offer offers an action the game lacks there ({name[:40]!r})")
        _need(len(args) == len(game.actions[name].params), f"an option of the pending offer gives {name!r} "
              f"{len(args)} values for its {len(game.actions[name].params)} parameters")


def _choose(state, spec, pending: dict, values: list, n: int) -> None:
    """A choice of one, or of several one at a time (`up to N`, `exactly N`): what was picked,
    how many must and may be, what is left to pick from."""
    several = "picked" in pending
    _need(several == (spec.count_kind is not None), "the pending choice is not of as many as the game asks for")
    _need(pending.get("blind", False) is spec.blind,
          "the pending choice is not blind as the game's is, or blind where the game's is not")
    if spec.blind:
        _blind(state, spec, pending, values, n, several)
        return
    if several:
        picked, pool, need, limit = (pending.get(k) for k in ("picked", "pool", "need", "limit"))
        _need(isinstance(picked, list) and isinstance(pool, list) and _is_int(need) and _is_int(limit)
              and 0 <= need <= limit and len(picked) < limit, "the progress of the pending choice is damaged")
        _items(state, spec.elem_type, picked + pool, n, "the pending choice")
        # once enough are picked, the last option is `done` (an option of the list may be none too)
        _need(len(picked) < need or values[-1] is None, "the pending choice has lost its 'done' option")
    _items(state, spec.elem_type, values, n, "the pending choice")


def _blind(state, spec, pending: dict, values: list, n: int, several: bool) -> None:
    """A `blind` choice: the list it picks from (`pool`, whole), and places in it, from 1:
    those offered (the values) and, of a choice of several, those picked so far."""
    pool = pending.get("pool")
    _need(isinstance(pool, list) and pool, "the list of the pending blind choice is damaged")
    _items(state, spec.elem_type, pool, n, "the pending choice")

    def places(xs) -> bool:
        return all(_is_int(x) and 1 <= x <= len(pool) for x in xs)

    offered = values[:-1] if several and values[-1] is None else values
    _need(places(offered) and len(set(offered)) == len(offered),
          "the pending blind choice offers what is not a place in its list")
    if several:
        picked, need, limit = (pending.get(k) for k in ("picked", "need", "limit"))
        _need(isinstance(picked, list) and places(picked) and len(set(picked)) == len(picked)
              and not set(picked) & set(offered)
              and _is_int(need) and _is_int(limit) and 0 <= need <= limit and len(picked) < limit,
              "the progress of the pending choice is damaged")
        _need(len(picked) < need or values[-1] is None, "the pending choice has lost its 'done' option")


def _distribute(state, spec, pending: dict, values: list, n: int) -> None:
    """Points given one target at a time: the targets, the shares given so far, what is left."""
    targets, shares, remaining = pending.get("targets"), pending.get("shares"), pending.get("remaining")
    _need(isinstance(targets, list) and isinstance(shares, list) and len(shares) <= len(targets) - 2
          and _is_int(remaining) and 0 < remaining <= MAX_NUMBER, "the progress of the pending distribution is damaged")
    _need(all(isinstance(s, list) and len(s) == 2 and s[0] == t and _is_int(s[1]) and s[1] >= 0
              for s, t in zip(shares, targets, strict=False)), "the shares of the pending distribution are damaged")
    _items(state, spec.elem_type, targets, n, "the pending distribution")
    _need(all(_is_int(v) and 0 <= v <= remaining for v in values),
          "the pending distribution's values are not amounts it has left to give")


def _items(state, typ: str, items: list, n: int, what: str) -> None:
    """Cards are numbers of cards there are, seats numbers of seats there are."""
    if typ.startswith("entity"):
        count = len(state["ents"])
        _need(all(not _is_int(x) or 0 <= x < count for x in items), f"{what} names a card that does not exist")
    elif typ == "seat":
        _need(all(not _is_int(x) or 0 <= x < n for x in items), f"{what} names a seat that does not exist")


def _scopes(game, state, n: int, blocks: dict, opened: list) -> None:
    """Where play is (turns, phases, labelled loops) and the `alternate` loops running: exactly
    those the frames stand in, bottom frame first, each as its instruction opened it. A turn
    makes its seat the one whose turn it is and who acts, and puts back the two before it as it
    ends; a frame starts with its caller's, but for an action, which the seat it was offered
    to takes."""
    records = _list(state["scopes"], "scopes")
    for rec in records:
        _need(isinstance(rec, dict) and isinstance(rec.get("k"), str) and rec["k"] in SCOPE_KEYS
              and isinstance(rec.get("n"), str), "a scope (a turn, a phase, a loop) is damaged")
        if rec["k"] == "turn":
            _need(all(_seat(rec.get(k), n) for k in ("v", "sc", "sa")), "a turn's scope names no seat")
        _need(set(rec) == SCOPE_KEYS[rec["k"]] and (rec["k"] in ("turn", "phase") or isinstance(rec["v"], str)),
              "a scope (a turn, a phase, a loop) is damaged")
    stack = state["stack"]
    expected = [game.codes[frame["c"]].ops[at] for frame, here in zip(stack, opened, strict=True) for at in here[0]]
    _need(len(records) == len(expected), f"{len(records)} turns, phases and loops are open, and the VM frames "
          f"stand in {len(expected)}")
    for rec, op in zip(records, expected, strict=True):
        _need(rec["k"] == op[1] and rec["n"] == op[2], f"the scope {rec['k']} {_short(rec['n'])} is not the "
              f"{op[1]} {op[2]!r} its VM frame stands in")
    at, cur, act = 0, 0, 0
    for i, (frame, here) in enumerate(zip(stack, opened, strict=True)):
        if i and blocks.get(frame["c"], ("",))[0] == "action":
            # the seat it was offered to: the seat whose turn it is, unless the offer names one
            below = stack[i - 1]
            offer = game.codes[below["c"]].ops[below["pc"] - 1][1]
            act = below["env"]["$cur"] if offer.seat_fn is None else None
        for _ in here[0]:
            rec = records[at]
            at += 1
            if rec["k"] == "turn":
                _need(rec["sc"] == cur and act in (None, rec["sa"]), "a turn's scope does not put back the seats before it")
                cur = act = rec["v"]
        env = frame["env"]
        _need(env["$cur"] == cur and act in (None, env["$act"]),
              f"VM frame {i} is not at the turn of the seat its turns and its caller give")
        cur, act = env["$cur"], env["$act"]
    alts = _list(state["alts"], "alts")
    running = [(frame, loop) for frame, here in zip(stack, opened, strict=True) for loop in here[1]]
    _need(len(alts) == len(running), f"{len(alts)} 'alternate' loops are running, and the VM frames stand in {len(running)}")
    for alt, (frame, (_start, top)) in zip(alts, running, strict=True):
        _need(isinstance(alt, dict) and set(alt) == ALT_KEYS and isinstance(alt["order"], list) and isinstance(alt["passed"], list)
              and _is_int(alt["i"]) and 0 <= alt["i"] < max(1, len(alt["order"])), "an 'alternate' loop is damaged")
        order = alt["order"]
        _need(all(_seat(s, n) for s in order), "an 'alternate' loop takes turns among things that are not seats")
        _need(all(_seat(s, n) and s in order for s in alt["passed"]) and len(set(alt["passed"])) == len(alt["passed"]),
              "an 'alternate' loop has seats passed that do not take turns in it")
        # `until one left` ends before a turn once one seat has not passed, and a seat passes
        # only on its own turn: a loop still running has a seat left (vm.py ALT_NEXT)
        _need(not game.codes[frame["c"]].ops[top][2] or any(s not in alt["passed"] for s in order),
              "an 'alternate ... until one left' loop has no seat left")
        # each turn of it goes to the seat after the last one's (ALT_NEXT), the first to the first
        cur = alt["cur"]
        _need(alt["i"] == 0 and frame["pc"] <= top if cur is None
              else _seat(cur, n) and bool(order) and cur == order[alt["i"] - 1],
              "an 'alternate' loop is not at the turn of the seat it would give one next")


def _forced(game, state, n: int) -> None:
    """Outcomes forced ahead (Match.force, force_order, a replay's or the REPL's `force`), each
    one `forced_problem` takes."""
    for entry in _list(state["forced"], "forced"):
        problem = forced_problem(game, entry, n)
        _need(problem is None, problem or "")


def forced_problem(game, entry, n: int) -> str | None:
    """Why an outcome forced ahead is not one a match of `n` seats can keep, or None: a roll is
    ["die", sides, value], a face of the die or of any die (the limits a `force` line has,
    force_problem); an order is ["order", zone, names], a zone of the game ("deck@0" for a seat's)
    and cards of the game for the order of its next shuffle. What a saved match is checked
    against, and what Match.new and Match.force_order take."""
    if not (isinstance(entry, list) and len(entry) == 3 and entry[0] in ("die", "order")):
        return f"a forced outcome is damaged ({_short(entry)})"
    if entry[0] == "die":
        _, sides, value = entry
        if not (_is_int(sides) and _is_int(value)):
            return f"a forced outcome is damaged ({_short(entry)})"
        problem = force_problem(sides, value)
        return None if problem is None else f"a forced outcome cannot be used: {problem}"
    _, zone, names = entry
    if not (isinstance(zone, str) and isinstance(names, list) and all(isinstance(x, str) for x in names)):
        return f"a forced outcome is damaged ({_short(entry)})"
    name, at, owner = zone.partition("@")
    spec = game.zones.get(name)
    if not (spec is not None and (spec.per == "seat") == bool(at)
            and (not at or (owner.isascii() and owner.isdigit() and int(owner) < n and str(int(owner)) == owner))):
        return f"a forced order is for no zone {zone[:40]!r} of the game"
    for card in names:
        if card not in game.defs:
            return f"a forced order names no card {card[:40]!r} of the game"
    return None


def force_problem(sides: int, value: int) -> str | None:
    """Why a forced roll of `value` on a d`sides` (0: on whatever die rolls next) can never be
    used, or None. Such a force would stay queued, and the first roll to take it fail, so every
    move that rolls would be refused until it is taken back."""
    if not 0 <= sides <= MAX_DIE_SIDES:
        return f"a die has 1 to {MAX_DIE_SIDES:,} faces, not {sides:,}"
    if sides and not 1 <= value <= sides:
        return f"{value} is not a face of a d{sides}"
    if not 1 <= value <= MAX_DIE_SIDES:
        return f"{value} is not a face of any die" + (f": a die has at most {MAX_DIE_SIDES:,} faces" if value > 0 else "")
    return None


def _short(value, most: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= most else text[:most - 3] + "..."


def _as_saved(value) -> str:
    """A value as the saved file writes it (JSON: `"lots"`, `true`), cut short."""
    text = json.dumps(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _seat(value, n: int) -> bool:
    return _is_int(value) and 0 <= value < n


def _entities(game, state, n) -> None:
    """Each card and piece: a definition of the game, a seat or none for its owner, and its place,
    which holds it (and no other place does); what it keeps of its own (`set c.field`) under
    names of fields its kind or definition has; revealed to all, or shown to some seats."""
    ents = _list(state["ents"], "ents")
    places = state["places"]
    _need(isinstance(places, dict), "'places' is not a table")
    where: dict[int, str] = {}
    for place, ids in places.items():
        _need(_place(game, place, n), f"there is no place {_short(place)} in the game")
        _need(isinstance(ids, list), f"place {place!r} is not a list of cards")
        for eid in ids:
            _need(_is_int(eid) and 0 <= eid < len(ents), f"place {place!r} holds an unknown card {eid!r}")
            _need(eid not in where, f"card {eid} is in two places")
            where[eid] = place
    for eid, e in enumerate(ents):
        _need(isinstance(e, dict) and isinstance(e.get("d"), str) and e["d"] in game.defs,
              f"card {eid} has no definition in the game")
        _need("o" in e and "l" in e, f"card {eid} lacks its owner or its place")
        _need(set(e) <= ENTITY_KEYS, f"card {eid} has parts no card has ({', '.join(sorted(map(_short, set(e) - ENTITY_KEYS)))})")
        owner = e.get("o")
        _need(owner is None or (_is_int(owner) and 0 <= owner < n), f"card {eid} belongs to no seat")
        loc = e.get("l")
        _need(isinstance(loc, str), f"card {eid} is nowhere")  # a card made is put somewhere at once
        if loc.startswith("#"):
            _need(loc[1:].isascii() and loc[1:].isdigit() and int(loc[1:]) < len(ents), f"card {eid} sits on an unknown card")
        else:
            _need(where.get(eid) == loc, f"card {eid} says it is in {_short(loc)}, and {_short(where.get(eid))} holds it"
                  if eid in where else f"card {eid} says it is in {loc!r}, and that place does not hold it")
        if "see" in e:
            _need(isinstance(e["see"], list) and all(_is_int(s) and 0 <= s < n for s in e["see"])
                  and e["see"] == sorted(set(e["see"])), f"card {eid}'s list of seats that saw it is damaged")
        _need(e.get("rev", True) is True, f"card {eid} is damaged: it is revealed or not")
        if "f" in e:
            d = game.defs[e["d"]]
            fields = e["f"]
            _need(isinstance(fields, dict), f"card {eid}'s own values are damaged")
            for name in fields:
                _need(name in d.props or name in game.kind_fields.get(d.kind, ()),
                      f"card {eid} ({d.name}) keeps a value for {_short(name)}, which it has no field for")


def _place(game, key: str, n: int) -> bool:
    """Whether `key` names a place cards can be: a space, or a zone (one of each seat's, `hand@0`)."""
    if key in game.spaces:
        return True
    name, at, owner = key.partition("@")
    spec = game.zones.get(name)
    return spec is not None and (spec.per == "seat") == bool(at) and (not at or (_canonical_int(owner) and int(owner) < n))


def _variables(game, state, n: int) -> None:
    """Each var a name the game declares, under a key its `per` gives (a seat there is, a space
    of its kind, a card or piece of its kind), holding a value of its kind and declared type."""
    variables = state["vars"]
    _need(isinstance(variables, dict), "'vars' is not a table")
    for key, value in variables.items():
        name = key.partition("@")[0]
        _need(name in game.vars, f"unknown variable {_short(name, 80)}")
        problem = var_problem(game, state, key, value, "holds")
        _need(problem is None, problem or "")


def var_problem(game, state, key: str, value, verb: str) -> str | None:
    """What is wrong with var `key` ("coins@0") holding `value`, or None: a key its `per` does
    not give, or a value not of its kind and type. A saved match is refused for it; a rule that
    would set it is stopped (Runtime.put_var), so that every state the rules reach can be saved
    and loaded again. `verb` is "holds" or "would hold"."""
    n = state["nseats"]
    name, at, key_text = key.partition("@")
    shown = _short(key, 80)
    spec = game.vars[name]
    parts = per_keys(spec.per)
    if not parts:
        if at:
            return f"variable {shown} has a key, and {name!r} is one for the whole game"
    else:
        texts = key_text.split("|", 1) if len(parts) == 2 else [key_text]  # a pair: values.pair_key
        if not (at and len(texts) == len(parts)
                and all(_key_part(game, state, part, t, n) for part, t in zip(parts, texts, strict=True))):
            named = f"variable {shown}" if verb == "holds" else f"{spec.kind} {name!r}"  # a save shows its keys
            return f"{named} is kept per {spec.per}, and {_short(key_text)} names no such thing"
    if spec.kind == "counter":
        if not (_is_int(value) and -MAX_NUMBER <= value <= MAX_NUMBER):
            return f"counter {shown} does not hold a number in range"
        # a counter is kept within a min and max written as numbers whenever it is set
        if _is_int(spec.fixed_low) and value < spec.fixed_low:
            return f"counter {shown} is below its min {spec.fixed_low}"
        if _is_int(spec.fixed_high) and value > spec.fixed_high:
            return f"counter {shown} is above its max {spec.fixed_high}"
        return None
    # `none` is a value of every type, and loads in any var: the rules put it there (`set leader
    # to none`, a define's `else none`; the checker lets a rule set any var to it), and a var with
    # no start holds it until set. So a var typed seat or number may hold it in a running game.
    typ = "bool" if spec.kind == "flag" else spec.type
    if not _of_type(game, state, typ, value, n):
        return f"{spec.kind} {shown} {verb} {_as_saved(value)}, which is not {a_type(typ)}"
    return None


def _key_part(game, state, part: str, text: str, n: int) -> bool:
    """Whether `text` names a thing a var kept `per part` has a value for, as the rules write it."""
    if part == "seat":
        return _canonical_int(text) and int(text) < n
    if part in game.key_sets:  # `per colour`: a text of the list that names the keys
        return text in game.key_sets[part].texts
    if part in game.space_kinds:
        return _space(game, text, part)
    return _canonical_int(text) and _of_type(game, state, "entity:" + part, int(text), n)


def _of_type(game, state, typ: str, value, n: int) -> bool:
    """Whether `value` is of the declared type `typ` (checker types: "number", "list:seat",
    "entity:Card", ...), or none. What rules build is checked as they build it (numbers in
    range, texts not too long), so a value outside that is no value of its type either."""
    if value is None or typ == "any":
        return True
    if typ.startswith("list:"):
        return isinstance(value, list) and all(_of_type(game, state, typ[5:], x, n) for x in value)
    base, _, sub = typ.partition(":")
    if base == "number":
        return _is_int(value) and -MAX_NUMBER <= value <= MAX_NUMBER
    if base == "bool":
        return isinstance(value, bool)
    if base == "text":
        return isinstance(value, str) and len(value) <= MAX_TEXT
    if base == "seat":
        return _seat(value, n)
    if base == "entity":
        ents = state["ents"]
        return (_is_int(value) and 0 <= value < len(ents)
                and (not sub or game.defs[ents[value]["d"]].kind in game.kind_tree.get(sub, ())))
    if base == "space":
        return isinstance(value, str) and _space(game, value, sub)
    if base == "zone":
        return isinstance(value, str) and value.partition("@")[0] in game.zones
    if base == "track":
        return isinstance(value, str) and value in game.tracks
    if base == "token":
        return isinstance(value, str) and value in game.tokens
    return True  # a type this list does not know: nothing to hold against it


def _space(game, name: str, kind: str) -> bool:
    """Whether `name` is a space of the game, of board kind `kind` (any kind when empty)."""
    space = game.spaces.get(name)
    return space is not None and (not kind or space.kind == kind)


def _canonical_int(text: str) -> bool:
    """A whole number 0 or more, written as the state writes one ("7", not "07" or "+7"), and
    short enough to read (Python refuses to read thousands of digits)."""
    return len(text) <= 20 and text.isascii() and text.isdigit() and str(int(text)) == text


def _tokens(game, state, n) -> None:
    """Each count of a token: of a token the game declares, a seat's or no one's, at a space, on
    a card there is, or on a space of a track (`space(track, 3)`), more than none."""
    tokens = state["tokens"]
    _need(isinstance(tokens, dict), "'tokens' is not a table")
    for key, count in tokens.items():
        parts = key.split("|", 2)
        _need(len(parts) == 3 and parts[0] in game.tokens, f"unknown token entry {_short(key)}")
        owner, place = parts[1], parts[2]
        _need(owner == "" or (_canonical_int(owner) and int(owner) < n), f"token entry {_short(key)} belongs to no seat")
        _need(_token_place(game, state, place), f"token entry {_short(key)} is at no place tokens can be")
        _need(_is_int(count) and 0 < count <= MAX_NUMBER, f"token entry {_short(key)} has a count out of range")


def _token_place(game, state, place: str) -> bool:
    if place in game.spaces:
        return True
    if place.startswith("#"):
        return _canonical_int(place[1:]) and int(place[1:]) < len(state["ents"])
    track, colon, number = place.partition(":")
    digits = number[1:] if number.startswith("-") else number
    return bool(colon) and track in game.tracks and _canonical_int(digits) and int(digits) <= MAX_NUMBER and number != "-0"


def _tracks(game, state) -> None:
    tracks = state["tracks"]
    _need(isinstance(tracks, dict) and set(tracks) == set(game.tracks), "the tracks do not match the game's")
    for name, t in tracks.items():
        spec = game.tracks[name]
        _need(isinstance(t, dict) and set(t) == {"pos", "start"}, f"track {name!r} is damaged")
        _need(_is_int(t["pos"]) and spec.low <= t["pos"] <= spec.high, f"track {name!r} has its marker off the track")
        _need(_is_int(t["start"]) and spec.low <= t["start"] <= spec.high, f"track {name!r} starts off the track")


def _plain(value, what: str) -> None:
    """Only JSON's plain data, numbers in a sane range, nested no deeper than the language allows."""
    stack = [(value, 0)]
    while stack:
        v, depth = stack.pop()
        _need(depth <= MAX_NESTING * 2, f"{what} is nested too deeply")
        if isinstance(v, dict):
            _need(all(isinstance(k, str) for k in v), f"{what} has a key that is not text")
            stack.extend((x, depth + 1) for x in v.values())
        elif isinstance(v, list):
            stack.extend((x, depth + 1) for x in v)
        elif isinstance(v, bool) or v is None or isinstance(v, str):
            continue
        elif isinstance(v, int):
            _need(-RNG_LIMIT < v < RNG_LIMIT, f"{what} holds a number out of range")
        else:
            raise Damaged(f"{what} holds a {type(v).__name__}, which no state has")


def _list(v, what: str) -> list:
    _need(isinstance(v, list), f"'{what}' is not a list")
    return v


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _need(ok: bool, message: str) -> None:
    if not ok:
        raise Damaged(message)
