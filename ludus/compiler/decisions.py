"""Decisions a seat is asked for: what the options are, and what an answer does.

A spec is compiled once; the decision in progress is plain data in `state["pending"]`:
`{"kind", "seat", "prompt", "options": [label, ...], "values": [...], ...progress}`.
Multi-part decisions (choose up to N, distribute N points) ask one part at a time, so the
number of options stays small and every part is one logged, replayable move.
"""

from __future__ import annotations

from ..engine.display import display, display_all, distribute_prompt, loose, merge_options, unique_labels
from ..engine.runtime import RuleError
from ..engine.values import as_int, as_list, magnitude
from ..language import nodes as n
from ..language.limits import MAX_OPTIONS
from ..language.symbols import how_many

DONE = "done"


def _seat_of(rt, env, fn):
    seat = fn(rt, env) if fn is not None else env.get("$cur")
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < rt.state["nseats"]:
        raise RuleError(f"a decision needs a seat to make it, and {seat!r} is not one")
    return seat


class OfferSpec:
    """`offer A, B to seat else "stop" as picked`: the seat picks one legal action instance."""

    def __init__(self, names, seat_fn, stop_label, bind, question_fn=None, span=None) -> None:
        self.names, self.seat_fn, self.stop_label, self.bind = names, seat_fn, stop_label, bind
        self.question_fn = question_fn
        self.span = span  # where the offer is written: an endless loop around it is located here
        # (name, action) for each action offered, looked up at the first offer, when the game
        # (which made this spec, and no other game uses) is compiled; the prompt of each seat,
        # by the number of seats (which names the seats)
        self.listed = None
        self.prompts: dict = {}

    def start(self, rt, env):
        seat = _seat_of(rt, env, self.seat_fn)
        labels, values = [], []
        listed = self.listed
        if listed is None:
            actions = rt.game.actions
            listed = self.listed = [(name, actions[name]) for name in self.offered(rt)]
        saved = rt.memo
        if saved is None:
            rt.memo = {}  # nothing changes while the options are listed
        try:
            for name, action in listed:
                if action.enumerate is not None:
                    action.enumerate(rt, {"$cur": env.get("$cur"), "$act": seat}, seat, labels, values)
                    continue
                for local in self.instances(rt, env, action, seat):
                    labels.append(action.label(rt, local))
                    values.append([name, [local[p] for p, _, _ in action.params]])
        finally:
            rt.memo = saved
        # merge_options hands back labels that are all different, in lists of their own
        labels, values = merge_options(rt, labels, values, True)
        if self.stop_label is not None:
            repeated = self.stop_label in labels
            labels.append(self.stop_label)
            values.append(None)
            if repeated:
                labels = unique_labels(labels)
        if not labels:
            if self.bind:
                env[self.bind] = "none"
            # counted for vm.endless_cause: a loop that comes back to an offer with nothing to
            # offer asks nothing, and the budget's error would name some other line of it
            empty = rt.empty_offers
            if empty is None:
                empty = rt.empty_offers = {}
            empty[self] = empty.get(self, 0) + 1
            return None
        if self.question_fn is not None:  # read when asked: it may show the state
            prompt = f"{rt.seat_name(seat)}: {self.question_fn(rt, env)}"
        else:
            prompt = self.prompts.get((rt.state["nseats"], seat))
            if prompt is None:
                prompt = self.prompts[(rt.state["nseats"], seat)] = f"{rt.seat_name(seat)}: take an action"
        return {"kind": "offer", "seat": seat, "prompt": prompt, "options": labels, "values": values}

    def explain(self, rt, env, seat, text: str | None, detail: bool = True, action_name: str | None = None) -> str | None:
        """Why the move labelled `text` is not offered: the first `require` that fails (with
        `detail`, the part of it that is false: `_requirement_refusal`) or the cost that cannot
        be paid; None when no binding of an offered action has that label. With `action_name`,
        only that action's bindings are looked at, and with `text` None every one of them: why
        none of its moves is offered (the REPL's `show ACTION`)."""
        wanted = None if text is None else loose(text)
        names = self.offered(rt)
        if action_name is not None:
            names = [name for name in names if name == action_name]
        rt.memo = {}
        try:
            for name in names:
                action = rt.game.actions[name]
                for local in _bindings(rt, env, action, seat):
                    if wanted is not None and loose(str(action.label(rt, local))) != wanted:
                        continue
                    why = _refusal(rt, action, local, seat)
                    if why is None:
                        continue
                    if why[0] == "require":
                        return _requirement_refusal(rt, action, why[1], local, detail)
                    _, need, have, counter = why
                    return f"it needs {how_many(need, counter)}, and {rt.seat_name(seat)} has {have}"
            return None
        finally:
            rt.memo = None

    def offered(self, rt) -> list[str]:
        """The names of the actions this offer offers, in its order."""
        return list(self.names) if self.names is not None else list(rt.game.actions)

    def instances(self, rt, env, action, seat) -> list[dict]:
        """Every binding of the action's parameters that passes its requirements and costs, in
        the order `_bindings` lists them. Each requirement is tested as soon as the parameters it
        reads are bound (after the ones written before it), so a prefix that fails is dropped
        before its later parameters are listed."""
        out = []
        params, stages, costs = action.params, action.stages, action.bound_costs
        last = len(params)
        for need, counter in action.fixed_costs:
            per = rt.game.vars[counter].per
            if as_int(need, "cost") > rt.get_var(counter, seat if per == "seat" else None):
                return out

        def passes(i, local):
            for req in stages[i]:
                if not req(rt, local):
                    return False
            return True

        def whole(local):
            if not costs or _cost_refusal(rt, costs, local, seat) is None:
                out.append(local)

        base = {"$cur": env.get("$cur"), "$act": seat}
        if not passes(0, base):
            return out
        if last == 0:
            whole(base)
            return out
        # the first parameter in a loop here; the ones after it (rarely more than one) in walk
        name, source, _t = params[0]
        tests = stages[1]
        for value in as_list(rt, source(rt, base)):
            local = {**base, name: value}
            for req in tests:
                if not req(rt, local):
                    break
            else:
                if last == 1:
                    if not costs or _cost_refusal(rt, costs, local, seat) is None:
                        out.append(local)
                else:
                    _walk(rt, params, stages, 1, last, local, whole)
        return out

    def answer(self, rt, env, pending, index):
        value = pending["values"][index]
        if value is None:
            if self.bind:
                env[self.bind] = self.stop_label
            return None
        name, args = value
        action = rt.game.actions[name]
        if self.bind:
            env[self.bind] = name
        frame_env = {"$cur": env.get("$cur"), "$act": pending["seat"]}
        frame_env.update({p: a for (p, _, _), a in zip(action.params, args, strict=True)})
        rt.log.append({"t": "action", "seat": pending["seat"], "action": name, "label": pending["options"][index]})
        return {"c": action.code, "pc": 0, "env": frame_env}


def _walk(rt, params, stages, i, last, local, whole) -> None:
    """Bind parameter `i` onwards of a binding whose first `i` passed their requirements."""
    name, source, _t = params[i]
    tests = stages[i + 1]
    for value in as_list(rt, source(rt, local)):
        deeper = {**local, name: value}
        for req in tests:
            if not req(rt, deeper):
                break
        else:
            if i + 1 == last:
                whole(deeper)
            else:
                _walk(rt, params, stages, i + 1, last, deeper, whole)


def _question(rt, env, question_fn) -> str | None:
    return None if question_fn is None else question_fn(rt, env)


def _bindings(rt, env, action, seat) -> list[dict]:
    """Every binding of an action's parameters, whatever its requirements say, each as the
    environment its requirements, costs and label are read in: `$cur`, `$act` and the parameters."""
    out = []

    def walk(i, local):
        if i == len(action.params):
            out.append(local)
            return
        name, source, _t = action.params[i]
        for value in as_list(rt, source(rt, local)):
            walk(i + 1, {**local, name: value})
    walk(0, {"$cur": env.get("$cur"), "$act": seat})
    walk = None  # noqa: F841 - break the self-reference, as in OfferSpec.instances
    return out


def _refusal(rt, action, local, seat):
    """Why one binding of an action cannot be taken now: None when it can, ("require", index of the
    first requirement that fails) or ("cost", need, have, counter) for a cost it cannot pay."""
    for i, req in enumerate(action.requires):
        if not req(rt, local):
            return ("require", i)
    return _cost_refusal(rt, action.costs, local, seat)


_COMPARISONS = frozenset(("==", "!=", "<", "<=", ">", ">="))
_LITERALS = (n.Number, n.String, n.Bool, n.NoneLit)
_LONGEST_SHOWN = 40  # a side's value longer than this (a list, say) is left out


def _requirement_refusal(rt, action, index, local, detail: bool = True) -> str:
    """Why requirement `index` of an action fails for one binding, in its own words: the whole
    condition as written; for a condition whose top level is `and`, the first of its operands that
    is false (an `and` in parentheses among them counts as more operands); for a comparison, the
    value of each side that is not written as a value. The parts are read with the binding's own
    parameters, in the order the condition reads them, so a part after the failing one is never
    read; a part that breaks a rule, or parts that do not agree with the whole, leave the whole."""
    sources = rt.game.sources
    # quoted with the brackets it is written in, `(a and b)`: the condition's node is inside them
    whole = sources.text_at(sources.bracketed(action.require_spans[index])) if sources is not None else None
    said = f"its requirement '{whole or 'require'}' does not hold"
    if whole is None or not detail:
        return said
    try:
        parts = _parts(rt.game, action, index)
        if parts is None:
            return said
        for text, fn, sides in parts:
            if fn(rt, dict(local)):
                continue
            values = _sides_shown(rt, sides, local)
            if len(parts) == 1:
                return said + values
            return f"{said}: '{text}' is false{values}"
    except RuleError:
        return said
    return said  # every part holds now, yet the whole did not: say what is sure


def _parts(game, action, index):
    """The parts of requirement `index` (see `_requirement_refusal`), compiled when first asked
    for and kept: [(text, fn, sides)], sides [(text, fn, type)] of a comparison; None when they
    cannot be quoted (no source, or no nodes)."""
    parts = action.require_parts.get(index, False)
    if parts is not False:
        return parts
    parts = None
    nodes = action.require_nodes
    if game.checked is not None and game.sources is not None and index < len(nodes):
        comp = game.closures()
        parts = []
        for node in _operands(nodes[index]):
            text = game.sources.text_at(node.span)
            if text is None:
                parts = None
                break
            sides = []
            if type(node) is n.BinOp and node.op in _COMPARISONS:
                for side in (node.left, node.right):
                    shown = None if isinstance(side, _LITERALS) else game.sources.text_at(side.span)
                    if shown is not None:
                        sides.append((shown, comp.closure(side), game.checked.types.get(id(side), "any")))
            parts.append((text, comp.closure(node), sides))
    action.require_parts[index] = parts
    return parts


def _operands(node) -> list:
    """The operands of a condition's top-level `and`, in the order it reads them (those of an
    `and` among them too); the condition alone when its top level is not `and`."""
    if type(node) is n.BinOp and node.op == "and":
        return _operands(node.left) + _operands(node.right)
    return [node]


def _sides_shown(rt, sides, local) -> str:
    """` (coins is 2)`: the value of each side of a comparison not written as a value, short
    enough to read in one line and not the same as its text (a seat's name, a space's); ""
    when there is none."""
    shown = []
    for text, fn, typ in sides:
        value = display(rt, fn(rt, dict(local)), typ)
        if len(value) <= _LONGEST_SHOWN and value != text:
            shown.append(f"{text} is {value}")
    return f" ({', '.join(shown)})" if shown else ""


def _cost_refusal(rt, costs, local, seat):
    """("cost", need, have, counter) for the first of `costs` this binding cannot pay; None if none."""
    for amount, counter in costs:
        per = rt.game.vars[counter].per
        have = rt.get_var(counter, seat if per == "seat" else None)
        need = as_int(amount(rt, local), "cost")
        if need > have:
            return ("cost", need, have, counter)
    return None


class ChooseSpec:
    """`choose x from list [by seat] [blind] [, up to N | , exactly N] ["question"]`.

    `blind` asks for places in the list instead of its cards: the options are `1` to `n` in
    the list's order, each place one option (two copies of a card are two places, where a
    choice that names the cards makes them one option), so that neither the labels nor their
    number tell anything of the cards. The values are the places too, and the list itself is
    kept in the decision (`pool`, whole, in order, with `picked` the places taken so far), so
    what the decision holds names no card by what it is, only by its id, which a bot's sample
    (determinize) keeps in its place while it deals the cards' identities anew."""

    def __init__(self, bind, source_fn, by_fn, count_kind, count_fn, elem_type, question_fn=None,
                 blind: bool = False) -> None:
        self.bind, self.source_fn, self.by_fn = bind, source_fn, by_fn
        self.count_kind, self.count_fn, self.elem_type = count_kind, count_fn, elem_type
        self.question_fn = question_fn
        self.blind = blind

    def start(self, rt, env):
        items = list(as_list(rt, self.source_fn(rt, env)))
        seat = _seat_of(rt, env, self.by_fn)
        if self.count_kind is None:
            if not items:
                env[self.bind] = None
                return None
            question = _question(rt, env, self.question_fn)
            if self.blind:
                return self.blind_pending(rt, seat, items, None, None, question)
            return self.pending(rt, seat, items, None, None, question)
        limit = as_int(self.count_fn(rt, env), "number to choose")
        need = min(limit, len(items)) if self.count_kind == "exactly" else 0
        if limit <= 0 or not items:
            env[self.bind] = []
            return None
        if self.blind:
            return self.blind_pending(rt, seat, items, [], (need, limit), _question(rt, env, self.question_fn))
        return self.pending(rt, seat, items, [], (need, limit), _question(rt, env, self.question_fn))

    def pending(self, rt, seat, items, picked, counts, question):
        # a value listed twice is one option, as copies of a card in one place are: the seat
        # could not tell the two apart (Can't Stop's pairings of the dice that climb alike)
        labels, values = merge_options(rt, display_all(rt, items, self.elem_type), list(items), True)
        return self._decision(rt, seat, labels, values, picked, counts, question, items, False)

    def blind_pending(self, rt, seat, pool, picked, counts, question):
        """A `blind` choice: the places of `pool` not yet `picked` (None: a choice of one), as
        numbers from 1, with `done` once enough are picked."""
        taken = set(picked or ())
        values: list = [place for place in range(1, len(pool) + 1) if place not in taken]
        _within_options(len(values), f"choose {self.bind} from a list of {magnitude(len(pool))}")
        return self._decision(rt, seat, [str(place) for place in values], values, picked, counts, question, pool, True)

    def _decision(self, rt, seat, labels, values, picked, counts, question, pool, blind: bool) -> dict:
        """The decision of a choice, by names or by places (`blind`): its options, with `done`
        once enough are picked of several (`counts`: how many are needed and allowed), what is
        picked, and the list chosen from (`pool`: kept by a choice of several, and a blind one)."""
        if counts is not None and len(picked) >= counts[0]:
            labels.append(DONE)
            values.append(None)
        verb = question or f"choose {self.bind}"
        if counts is not None:
            verb += f" ({len(picked)} chosen)"
        p = {"kind": "choose", "seat": seat, "prompt": f"{rt.seat_name(seat)}: {verb}",
             "options": labels if blind else unique_labels(labels), "values": values}
        if blind:
            p["blind"], p["pool"] = True, list(pool)
        if counts is not None:
            p["picked"], p["need"], p["limit"] = picked, counts[0], counts[1]
            if not blind:
                p["pool"] = list(pool)
            if question is not None:
                p["question"] = question
        return p

    def answer(self, rt, env, pending, index):
        value = pending["values"][index]
        if pending.get("blind"):
            return self.blind_answer(rt, env, pending, value)
        if "picked" not in pending:
            env[self.bind] = value
            return None
        picked = pending["picked"]
        if value is None:
            env[self.bind] = picked
            return None
        picked = [*picked, value]  # a new list: the decision answered stays as it was asked
        remaining = [v for v in pending["pool"] if v != value]
        if len(picked) >= pending["limit"] or not remaining:
            env[self.bind] = picked
            return None
        return self.pending(rt, pending["seat"], remaining, picked, (pending["need"], pending["limit"]),
                            pending.get("question"))

    def blind_answer(self, rt, env, pending, place):
        """The card at the place answered (its list, for a choice of several: the cards at the
        places picked, in the order they were picked)."""
        pool = pending["pool"]
        if "picked" not in pending:
            env[self.bind] = pool[place - 1]
            return None
        picked = pending["picked"]
        if place is not None:
            picked = [*picked, place]  # a new list: the decision answered stays as it was asked
        if place is None or len(picked) >= pending["limit"] or len(picked) >= len(pool):
            env[self.bind] = [pool[p - 1] for p in picked]
            return None
        return self.blind_pending(rt, pending["seat"], pool, picked, (pending["need"], pending["limit"]),
                                  pending.get("question"))


class RangeSpec:
    """`choose n from low to high [by seat] ["question"]`: the options are the numbers themselves."""

    def __init__(self, bind, low_fn, high_fn, by_fn, question_fn=None) -> None:
        self.bind, self.low_fn, self.high_fn, self.by_fn = bind, low_fn, high_fn, by_fn
        self.question_fn = question_fn

    def start(self, rt, env):
        low, high = as_int(self.low_fn(rt, env), "lowest choice"), as_int(self.high_fn(rt, env), "highest choice")
        if high < low:
            raise RuleError(f"there is nothing to choose between {low} and {high}")
        seat = _seat_of(rt, env, self.by_fn)
        _within_options(high - low + 1, f"choose {self.bind} from {magnitude(low)} to {magnitude(high)}")
        values = list(range(low, high + 1))
        question = _question(rt, env, self.question_fn) or f"choose {self.bind}"
        return {"kind": "number", "seat": seat, "prompt": f"{rt.seat_name(seat)}: {question}",
                "options": [str(v) for v in values], "values": values}

    def answer(self, rt, env, pending, index):
        env[self.bind] = pending["values"][index]
        return None


class AskSpec:
    """`ask seat "question {with holes}" as answer`: yes or no."""

    def __init__(self, bind, seat_fn, question) -> None:
        self.bind, self.seat_fn, self.question = bind, seat_fn, question

    def start(self, rt, env):
        seat = _seat_of(rt, env, self.seat_fn)
        return {"kind": "ask", "seat": seat, "prompt": f"{rt.seat_name(seat)}: {self.question(rt, env)}",
                "options": ["yes", "no"], "values": [True, False]}

    def answer(self, rt, env, pending, index):
        env[self.bind] = pending["values"][index]
        return None


class DistributeSpec:
    """`distribute N among targets [by seat] as shares`: one target at a time; the last takes the rest."""

    def __init__(self, bind, amount_fn, targets_fn, by_fn, elem_type, question_fn=None) -> None:
        self.bind, self.amount_fn, self.targets_fn = bind, amount_fn, targets_fn
        self.by_fn, self.elem_type, self.question_fn = by_fn, elem_type, question_fn

    def start(self, rt, env):
        amount = as_int(self.amount_fn(rt, env), "amount to distribute")
        targets = list(as_list(rt, self.targets_fn(rt, env)))
        seat = _seat_of(rt, env, self.by_fn)
        if not targets or amount <= 0:
            env[self.bind] = [[t, 0] for t in targets]
            return None
        _within_options(amount + 1, f"distribute {magnitude(amount)}")
        return self.step(rt, env, seat, targets, [], amount, _question(rt, env, self.question_fn))

    def step(self, rt, env, seat, targets, shares, remaining, question):
        i = len(shares)
        if i == len(targets) - 1 or remaining == 0:
            shares = shares + [[targets[i], remaining]] + [[t, 0] for t in targets[i + 1:]]
            env[self.bind] = shares
            return None
        target = targets[i]
        name = display(rt, target, self.elem_type)
        values = list(range(remaining, -1, -1))
        p = {"kind": "distribute", "seat": seat,
             "prompt": distribute_prompt(rt.seat_name(seat), question, remaining, name),
             "options": [f"{v} to {name}" for v in values], "values": values,
             "targets": targets, "shares": shares, "remaining": remaining}
        if question:
            p["question"] = question
        return p

    def answer(self, rt, env, pending, index):
        given = pending["values"][index]
        shares = pending["shares"] + [[pending["targets"][len(pending["shares"])], given]]
        return self.step(rt, env, pending["seat"], pending["targets"], shares, pending["remaining"] - given,
                         pending.get("question"))


def _within_options(count: int, what: str) -> None:
    if count > MAX_OPTIONS:
        raise RuleError(f"'{what}' would offer {magnitude(count)} options; a decision offers at most {MAX_OPTIONS:,}")
