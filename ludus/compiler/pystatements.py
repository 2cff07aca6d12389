"""Statements that cannot wait, compiled to Python source beside the expressions of pysource.py.

A plain statement (`change`, `let`, `set`, `add`, `remove`, `move`, `log`, ...) is one EXEC
instruction whose function was a closure calling one closure per part: the setter, the value,
the place. Here the common ones are written out as one generated function each, with their
expressions inlined through `SourceGen.sub`, in the same module and cache as the expressions.
Each does what its closure in statements.py does, in the same order (so the same events, the
same charges and the same first error), with the same checks and messages; the VM locates their
errors by the instruction as before. Any other statement, or a form not written here, keeps its
closure; so does everything when `LUDUS_CLOSURES=1` turns generation off.

The locals of a generated statement start with `st_`, a prefix no generated expression uses.
"""

from __future__ import annotations

from ..engine.runtime import NOT_FIXED
from ..engine.values import as_entities, as_seat, as_track, pair_key, token_member
from ..language import nodes as n

HELPERS = {"as_entities": as_entities, "as_seat": as_seat, "as_track": as_track, "pair_key": pair_key,
           "_token_member": token_member}


class StatementSource:
    """Generated functions for one game's statements; `gen` is its SourceGen."""

    def __init__(self, comp, gen) -> None:
        self.comp = comp
        self.gen = gen
        gen.ns.update(HELPERS)

    def function(self, s):
        """The generated function (rt, env) of an EXEC statement, or None to keep its closure."""
        meth = getattr(self, "g_" + type(s).__name__, None)
        lines = meth(s) if meth is not None else None
        return None if lines is None else self.gen.statement(lines)

    def bind(self, params: list, args: tuple):
        """A rule call's arguments as one generated function returning their dict."""
        if len(params) != len(args):
            return None
        items = ", ".join(f"{p!r}: {self.sub(a)}" for p, a in zip(params, args, strict=True))
        return self.gen.statement([f"return {{{items}}}"])

    def sub(self, node) -> str:
        return self.gen.sub(node)

    def amount(self, node) -> str:
        # a number written in the rules needs no check
        return repr(node.value) if type(node) is n.Number else f"as_int({self.sub(node)}, 'amount')"

    # ── statements ──

    def g_Let(self, s: n.Let):
        return [f"env[{s.name!r}] = {self.sub(s.value)}"]

    def g_SetStmt(self, s: n.SetStmt):
        # the value first, then the target's own parts, as setter(rt, env, value(rt, env))
        assign = self.assign(s.target, "st_v")
        return None if assign is None else [f"st_v = {self.sub(s.value)}", *assign]

    def g_Change(self, s: n.Change):
        amount = self.amount(s.amount)
        if s.op in ("increase", "decrease"):
            if id(s.target) in self.comp.c.track_targets:
                getter = f"rt.state['tracks'][as_track(rt, {self.sub(s.target)})]['pos']"
            else:
                getter = self.sub(s.target)
            assign = self.assign(s.target, "st_v")
            if assign is None:
                return None
            sign = 1 if s.op == "increase" else -1
            return [f"st_v = ({getter}) + {sign} * {amount}", *assign]
        name = s.target
        if self.comp.sym.vars[name].per == "seat":
            key = self.sub(s.seat) if s.seat is not None else "env.get('$act')"
        else:
            key = "None"
        lines = [f"st_key = {key}", f"st_have = {self.gen.get_var(name, 'st_key')}", f"st_value = {amount}"]
        if s.op == "pay":
            lines += ["if st_value > st_have:",
                      "    st_who = f'{rt.seat_name(st_key)} has' if st_key is not None else 'there is'",
                      f"    raise RuleError(f'cannot pay {{st_value}} {name}: {{st_who}} only {{st_have}}')"]
        new = "st_have - st_value" if s.op == "pay" else "st_have + st_value"
        spec = self.comp.game.vars.get(name)
        if spec is None or spec.kind != "counter" or NOT_FIXED in (spec.fixed_low, spec.fixed_high):
            return [*lines, f"rt.set_var({name!r}, st_key, {new})"]
        # Runtime.set_var with what is known here written out: a counter, bounds written as
        # numbers, the value before (st_have) read already; an amount is a whole number
        lines.append(f"st_new = {new}")
        if spec.fixed_low is not None:
            lines += [f"if st_new < {spec.fixed_low!r}:", f"    st_new = {spec.fixed_low!r}"]
        if spec.fixed_high is not None:
            lines += [f"if st_new > {spec.fixed_high!r}:", f"    st_new = {spec.fixed_high!r}"]
        return [*lines, "if st_new != st_have:", f"    rt.put_counter({name!r}, st_key, st_have, st_new)"]

    def token(self, s) -> str:
        """The token statement `s` names (StatementCompiler.token_fn): a member of a family of
        tokens by its key, which `of` gives (`add 1 Told of c.colour to c`)."""
        family = self.comp.sym.token_family(s.token)
        if family is not None:
            return f"_token_member({self.gen.const(family)}, {self.sub(s.owner)})"
        return repr(s.token) if s.token in self.comp.sym.tokens else f"env[{s.token!r}]"

    def owner(self, s) -> str:
        """The owner `of` names, or None: a family's member is no one's, its `of` is its key."""
        if s.owner is None or self.comp.sym.token_family(s.token) is not None:
            return "None"
        return self.sub(s.owner)

    def g_AddTokens(self, s: n.AddTokens):
        if s.owner is not None:
            owner = self.owner(s)
        else:
            per = self.comp.sym.tokens[s.token].per if s.token in self.comp.sym.tokens else None
            owner = "env.get('$act')" if per == "seat" else "None"
        return [f"rt.add_tokens({self.token(s)}, {owner}, {self.sub(s.place)}, "
                f"{self.amount(s.amount)})"]

    def g_RemoveTokens(self, s: n.RemoveTokens):
        owner = self.owner(s)
        amount = "None" if s.amount is None else self.amount(s.amount)
        return [f"rt.remove_tokens({self.token(s)}, {owner}, {self.sub(s.place)}, {amount})"]

    def g_MoveTokens(self, s: n.MoveTokens):
        owner = self.owner(s)
        return [f"st_tok = {self.token(s)}",
                f"st_own = {owner}",
                f"st_want = {self.amount(s.amount)}",
                f"st_source = {self.sub(s.source)}",
                "st_moved = 0",
                "for st_o in [st_own] if st_own is not None else rt._owners_at(st_tok, rt.place_key(st_source)):",
                "    st_got = rt.remove_tokens(st_tok, st_o, st_source, st_want - st_moved)",
                f"    rt.add_tokens(st_tok, st_o, {self.sub(s.dest)}, st_got)",  # the destination read each time, as before
                "    st_moved += st_got",
                "    if st_moved >= st_want:",
                "        break"]

    def g_MoveStmt(self, s: n.MoveStmt):
        return [f"st_target = {self.sub(s.dest)}",
                "if isinstance(st_target, int) and not isinstance(st_target, bool):",
                "    raise RuleError('cards and pieces move to a zone or a space, not onto a card')",
                "if st_target is None:",
                "    raise RuleError(\"cannot move to 'none'\")",
                f"rt.move_entities(as_entities(rt, {self.sub(s.what)}, 'move'), st_target, {s.bottom!r})"]

    def g_Create(self, s: n.Create):
        owner = self.sub(s.owner) if s.owner is not None else "env.get('$act')"
        lines = [f"st_where = {self.sub(s.place)}",
                 "if isinstance(st_where, int) and not isinstance(st_where, bool):",
                 "    raise RuleError('a card or piece is created in a zone or on a space, not on a card')",
                 f"st_eid = rt.create_entity({s.definition!r}, {owner}, st_where)"]
        if s.bind:
            lines.append(f"env[{s.bind!r}] = st_eid")
        return lines

    def g_ZoneOp(self, s: n.ZoneOp):
        lines = []
        if s.to is not None:
            lines += [f"st_chosen = {self.sub(s.to)}",
                      "st_seats = sorted({as_seat(rt, x, 'reveal ... to') for x in "
                      "(st_chosen if isinstance(st_chosen, list) else [st_chosen])})"]
        lines.append(f"for st_eid in as_entities(rt, {self.sub(s.what)}, {s.op!r}):")
        if s.op == "discard":
            lines += ["    st_owner = rt.ent(st_eid)['o']",
                      "    if st_owner is None:",
                      "        raise RuleError(f\"'{rt.ent(st_eid)['d']}' belongs to no seat, so it has no discard pile\")",
                      "    rt.move_entity(st_eid, f'discard@{st_owner}')"]
        elif s.op == "exile":
            lines.append("    rt.move_entity(st_eid, 'removed')")
        elif s.to is None:
            lines += ["    st_e = rt.ent(st_eid)",
                      "    st_e['rev'] = True",
                      "    rt.log.append({'t': 'reveal', 'card': st_e['d']})"]
        else:
            # shown to these seats only, until it moves; the log tells the others no more
            lines += ["    st_e = rt.ent(st_eid)",
                      "    st_e['see'] = sorted(set(st_e.get('see', [])) | set(st_seats))",
                      "    rt.log.append({'t': 'reveal', 'card': st_e['d'], 'to': st_seats})"]
        return lines

    def g_Log(self, s: n.Log):
        return [f"rt.log.append({{'t': 'log', 'text': {self.gen.template(s.text)}}})"]

    # ── assignable targets ──

    def assign(self, node, v: str):
        """Lines that store `v` in a target, as StatementCompiler.setter does; None to keep it."""
        comp = self.comp
        if id(node) in comp.c.track_targets:
            return [f"rt.set_track(as_track(rt, {self.sub(node)}), as_int({v}, 'track position'))"]
        res = comp.c.res.get(id(node))
        tag = res[0] if res is not None else None
        if tag == "local":
            return [f"env[{res[1]!r}] = {v}"]
        if tag == "var":
            key = "env.get('$act')" if comp.sym.vars[res[1]].per == "seat" else "None"
            return [f"rt.set_var({res[1]!r}, {key}, {v})"]
        if tag == "var_of":
            return [f"rt.set_var({res[1]!r}, {self.gen.var_key(res[1], 0, self.sub(node.of))}, {v})"]
        if tag == "var_of2":
            of, at = self.gen.var_key(res[1], 0, self.sub(node.of)), self.gen.var_key(res[1], 1, self.sub(node.at))
            return [f"rt.set_var({res[1]!r}, pair_key(rt, {of}, {at}), {v})"]
        if tag == "track":
            return [f"rt.set_track({res[1]!r}, as_int({v}, 'track position'))"]
        if tag in ("field", "dynamic_attr"):
            fname = node.name
            message = f"cannot set '{fname}' of {{st_what}}: only cards and pieces have properties to set"
            return [f"st_eid = {self.sub(node.obj)}",
                    "if not isinstance(st_eid, int) or isinstance(st_eid, bool):",
                    "    st_what = 'none' if st_eid is None else repr(st_eid)",
                    f"    raise RuleError(f{message!r})",
                    f"rt.set_field(st_eid, {fname!r}, {v})"]
        return None  # a track's start, or anything else: the closure
