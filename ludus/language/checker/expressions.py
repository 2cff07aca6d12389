"""Checking expressions: names, operators, attributes, calls; each gets a type."""

from __future__ import annotations

import bisect

from .. import nodes as n
from ..source import Span, Suggestion, suggest
from ..symbols import (
    AGGREGATES,
    BUILTIN_FUNCTIONS,
    BUILTIN_NAMES,
    ENTITY_ATTRS,
    SPACE_ATTRS,
    TRACK_ATTRS,
    a_type,
    compatible,
    elem_type,
    is_family,
    key_text,
    listlike,
    per_keys,
    plural,
    singular_guess,
)
from .base import TRACK_FUNCTIONS, Scope, _merge


class ExpressionChecks:
    """Typing expressions and resolving every name in them once."""

    # ── expressions ──

    def expect(self, node, scope: Scope, want: str, hint=None) -> str:
        """The type of `node`, with an error where it is not `want`; `hint(found)`, when
        given, may say what to write instead for the type found (or None)."""
        self.wanted = (id(node), want)
        t = self.expr(node, scope)
        if not compatible(t, want):
            if want == "list:seat" and t == "seat":
                return t
            self.error(f"expected {a_type(want)} here, found {a_type(t)}", node.span, hint(t) if hint else None)
        return t

    def var_type(self, decl: n.VarDecl) -> str:
        if decl.type is not None:
            return self.type_ref(decl.type)
        if self.reading is not None and decl.kind == "var":
            self.reading.add(("var", decl.name))
        inferred = self.sym.inferred.get(("var", decl.name)) if decl.kind == "var" else None
        if inferred is not None:
            self.touched.add(("var", decl.name))
            return inferred
        return {"counter": "number", "flag": "bool"}.get(decl.kind, "any")

    def expr(self, node, scope: Scope) -> str:
        t = self._expr(node, scope)
        self.out.types[id(node)] = t
        self.out.keep.append(node)
        return t

    def _expr(self, node, scope: Scope) -> str:
        sym = self.sym
        if isinstance(node, n.Number):
            return "number"
        if isinstance(node, n.String):
            if node.value in sym.entities:
                return self.resolve(node, ("defname", node.value), "text")
            return "text"
        if isinstance(node, n.Bool):
            return "bool"
        if isinstance(node, n.NoneLit):
            return "none"
        if isinstance(node, n.Template):
            self.template(node, scope)
            return "text"
        if isinstance(node, n.Name):
            return self.name(node, scope)
        if isinstance(node, n.ListLit):
            types = [self.expr(i, scope) for i in node.items]
            return "list:" + (types[0] if types and all(t == types[0] for t in types) else "any")
        if isinstance(node, n.Comprehension):
            src = self.expr(node.source, scope)
            if not listlike(src):
                self.error(f"'for ... in' needs a list, not {a_type(src)}", node.source.span)
            inner = scope.child()
            self.bind(inner, node.var, elem_type(src), node.span, "for")
            if node.cond is not None:
                self.expect(node.cond, inner, "bool")
            return "list:" + self.expr(node.elem, inner)
        if isinstance(node, n.BinOp):
            return self.binop(node, scope)
        if isinstance(node, n.Not):
            self.expect(node.operand, scope, "bool")
            return "bool"
        if isinstance(node, n.Neg):
            self.expect(node.operand, scope, "number")
            return "number"
        if isinstance(node, n.CondExpr):
            self.expect(node.cond, scope, "bool")
            return _merge(self.expr(node.then, scope), self.expr(node.other, scope))
        if isinstance(node, n.Attr):
            return self.attr(node, scope)
        if isinstance(node, n.Access):
            return self.access(node, scope)
        if isinstance(node, n.Call):
            return self.call(node, scope)
        self.error(f"unsupported expression {type(node).__name__}", node.span)
        return "any"

    def name(self, node: n.Name, scope: Scope) -> str:
        sym, name = self.sym, node.name
        local = scope.lookup(name)
        if local is not None:
            self.note_binder(node, scope)
            return self.resolve(node, ("local", name), local)
        if name in sym.values:
            self.used.add(("value", name))
            if self.reading is not None:
                self.reading.add(("value", name))
            return self.resolve(node, ("value", name), self.value_types.get(name, "any"))
        if name in sym.vars:
            decl = sym.vars[name]
            self.used.add(("var", name))
            if decl.per not in (None, "seat"):
                self.error(f"'{name}' is kept per {decl.per}: say which, as '{name} of ...'", node.span)
            return self.resolve(node, ("var", name), self.var_type(decl))
        if name in sym.zones:
            self.used.add(("zone", name))
            if is_family(sym.zones[name]):
                self.error(f"zone '{name}' is a family of zones, one per {sym.zones[name].per}: "
                           f"name one, as {self.member_example(name)}", node.span)
            return self.resolve(node, ("zone", name), "zone")
        if name in sym.tracks:
            self.used.add(("track", name))
            return self.resolve(node, ("track", name), "number")
        if name in sym.tokens:
            self.used.add(("token", name))
            if is_family(sym.tokens[name]):
                self.error(f"token '{name}' is a family of tokens, one per {sym.tokens[name].per}: "
                           f"name one where it is counted, added or removed, as '{name} of ... at ...'", node.span)
            return self.resolve(node, ("token", name), "token")
        if name in sym.groups:
            self.used.add(("group", name))
            members = sym.groups[name].members
            et = "token" if members and members[0] in sym.tokens else (
                "space:" + sym.spaces[members[0]].kind if members and members[0] in sym.spaces else (
                    "track" if members and members[0] in sym.tracks else "any"))
            return self.resolve(node, ("group", name), "list:" + et)
        kind = sym.kind_of_space_collection(name)
        if kind:
            return self.resolve(node, ("space_kind", kind), "list:space:" + kind)
        if name in sym.spaces:
            return self.resolve(node, ("space", name), "space:" + sym.spaces[name].kind)
        ekind = sym.entity_kind_collection(name)
        if ekind:
            return self.resolve(node, ("entity_kind", ekind), "list:entity:" + ekind)
        if name in sym.entities:
            return self.resolve(node, ("defname", name), "text")
        consts = sym.seat_constants()
        if name in consts:
            return self.resolve(node, ("seat", consts.index(name)), "seat")
        if name in sym.defines:
            d = sym.defines[name]
            self.used.add(("define", name))
            if d.params:
                self.error(f"'{name}' takes {len(d.params)} argument(s): write {name}(...)", node.span)
            if self.reading is not None:
                self.reading.add(("define", name))
            return self.resolve(node, ("define", name), self.define_types.get(name, "any"))
        if name in BUILTIN_NAMES:
            if name == "opponent" and sym.max_players > 2:
                self.error("'opponent' only names a seat in a two-player game", node.span,
                           "use other(...) or name the seat")
            return self.resolve(node, ("builtin", name), BUILTIN_NAMES[name])
        if name in ("this",):
            self.error("'this' is only known inside a card's or piece's effect", node.span)
            return "any"
        self.unknown(node, name, [*sym.all_names(), *scope.all()])
        return "any"

    def unknown(self, node, name: str, candidates: list[str]) -> None:
        """An unknown name, called what it should have been where that is known (a zone, a seat)."""
        span = Span(node.span.path, node.span.line, node.span.column, node.span.line, node.span.column + len(name))
        wanted_id, want = self.wanted
        if wanted_id == id(node) and want in ("zone", "seat", "zone or space"):
            pool = {"zone": [*self.sym.zones], "seat": [*self.sym.seat_constants()],
                    "zone or space": [*self.sym.zones, *self.sym.spaces]}[want]
            self.error(f"unknown {want} '{name}'", span, self.zone_hint(node, suggest(name, pool)))
            return
        # of several blocks that named it (two loops over `s`, one after the other), the nearest
        # before the use is the one most likely meant
        lines = self.block_names.get(name, {}).get(node.span.path, [])
        nearest = bisect.bisect_left(lines, node.span.line)
        if nearest:
            self.error(f"'{name}' is named inside the block that starts on line {lines[nearest - 1]}, "
                       "and is known only inside it", span,
                       f"to use it after the block, give it a value before the block: let {name} = ...")
            return
        if name in ("True", "False", "None", "TRUE", "FALSE", "NONE", "Null", "null", "nil"):
            word = {"true": "true", "false": "false"}.get(name.lower(), "none")
            self.error(f"unknown name '{name}'", span, f"the word is '{word}', in lower case")
            return
        misplural = self.misplural(name)
        if misplural is not None:
            self.error(f"unknown name '{name}'", span, Suggestion(name, (misplural,)))
            return
        self.error(f"unknown name '{name}'", span, self.zone_hint(node, suggest(name, candidates)))

    def misplural(self, name: str) -> str | None:
        """The plural the language forms (`plural`) of a kind or space kind that `name` is a
        wrong plural of, or None: `Propertys`, `Citys`, `Boxs`, `Propertyes`, written for
        `Properties`, `Cities`, `Boxes`. The nearest name by spelling would be the kind itself
        (`Property`), which names the kind, not the list of its cards the designer wanted."""
        stems = {name[:-1], name[:-2], singular_guess(name)} if name.endswith("s") else set()
        for stem in sorted(stems):
            alias = plural(stem)
            if alias != name and self.sym.plurals.get(alias) == stem:
                return alias
        return None

    def zone_hint(self, node, near):
        """The hint for an unknown name whose nearest known name is `near` (a Suggestion or None).
        Where that is a zone family, its name alone is no zone: written as the unknown name was
        (bare, or with a seat but no key), it would be an error in turn. So the hint shows how a
        member is named (`did you mean 'discards of COLOUR'?`) and carries no name for a tool to
        put in its place; a family named with its keys (`discard of c.colour`) keeps the plain
        suggestion, which the editor's quick fix applies."""
        meant = near.meant[0] if near is not None else None
        decl = self.sym.zones.get(meant) if meant is not None else None
        if decl is None or not is_family(decl):
            return near
        of, at = getattr(node, "of", None), getattr(node, "at", None)
        keyed = (of is not None and at is not None) if per_keys(decl.per)[0] == "seat" else (of is not None and at is None)
        if keyed:
            return near
        return (f"did you mean {self.member_example(meant)}? '{meant}' is a family of zones, "
                f"one per {decl.per}")

    def binop(self, node: n.BinOp, scope: Scope) -> str:
        op = node.op
        if op in ("and", "or"):
            self.expect(node.left, scope, "bool")
            self.expect(node.right, scope, "bool")
            return "bool"
        if op in ("==", "!=") and self._track_name(node.left, scope) != self._track_name(node.right, scope):
            # `t == public` with t a track value: the name means the track, not its marker's position
            named, other = (node.left, node.right) if self._track_name(node.left, scope) else (node.right, node.left)
            if self.expr(other, scope) == "track":
                self.track_arg(named, scope)
                return "bool"
        a = self.expr(node.left, scope)
        b = self.expr(node.right, scope)
        if op in ("+", "-", "*", "/", "%"):
            if op == "+" and (a.startswith("list:") or b.startswith("list:")):
                for t, side in ((a, node.left), (b, node.right)):
                    if not (t.startswith("list:") or t == "any"):
                        self.error(f"'+' joins two lists, and this is {a_type(t)}", side.span)
                return _merge(a, b)
            if op == "+" and (a == "text" or b == "text"):
                if a in ("text", "any") and b in ("text", "any"):
                    return "text"
                self.error(f"'+' adds two numbers or joins two texts, not {a_type(a)} and {a_type(b)}", node.span,
                           'to put a value in a text, use a hole: "coins: {coins of s}"')
                return "any"
            for t, side in ((a, node.left), (b, node.right)):
                if not compatible(t, "number"):
                    self.error(f"'{op}' needs numbers, and this is {a_type(t)}", side.span)
            return "number"
        if op in ("<", "<=", ">", ">="):
            for t, side in ((a, node.left), (b, node.right)):
                if not compatible(t, "number"):
                    self.error(f"'{op}' compares numbers, and this is {a_type(t)}", side.span)
            return "bool"
        if op in ("in", "not in"):
            if not listlike(b):
                self.error(f"'{op}' needs a list on its right, not {a_type(b)}", node.right.span)
            return "bool"
        return "bool"

    def _key_type(self, per: str) -> str:
        sym = self.sym
        return "seat" if per == "seat" else (
            "space:" + per if per in sym.space_kinds else "entity:" + per if per in sym.kinds
            else sym.key_set(per).type if sym.key_set(per) is not None else "any")

    def key_literal(self, keys, key):
        """The key written out (`"red"`, `3`) when `key` is one of the type of the set `keys`, and
        the set lacks it: the message's name for it and a hint; else None."""
        if not isinstance(key, (n.String, n.Number)) or type(key.value) is not type(keys.keys[0]) or key.value in keys.keys:
            return None
        hint = suggest(key.value, keys.texts) if isinstance(key.value, str) else None
        return key_text(key.value), hint

    def token_key(self, name: str, key, span, scope: Scope) -> None:
        """The key a member of the token family `name` is named by (`Told of c.colour`): a text,
        one of the family's when written as a text; a family named without it is an error."""
        family = self.sym.token_family(name)
        if key is None:
            if family is not None:
                self.error(f"token '{name}' is a family of tokens, one per {family.word}: name one, as "
                           f"'{name} of {family.word.upper()}'", span)
            return
        self.expect(key, scope, family.type if family is not None else "any")
        missing = self.key_literal(family, key) if family is not None else None
        if missing is not None:
            self.error(f"token '{name}' has no member {missing[0]}: its keys are the {family.value}, "
                       f"{', '.join(family.texts)}", key.span, missing[1])

    def var_key(self, name: str, part: str, key, scope: Scope) -> None:
        """A key of var `name` kept `per part`: of the part's type, and for a set of keys
        (`per colour`), a key written as a text must be one of the set's, as a zone family's."""
        self.expect(key, scope, self._key_type(part))
        keys = self.sym.key_set(part)
        missing = self.key_literal(keys, key) if keys is not None else None
        if missing is not None:
            self.error(f"'{name}' has no key {missing[0]}: its keys are the {keys.value}, "
                       f"{', '.join(keys.texts)}", key.span, missing[1])

    def _track_name(self, node, scope: Scope) -> bool:
        return isinstance(node, n.Name) and node.name in self.sym.tracks and scope.lookup(node.name) is None

    def attr(self, node: n.Attr, scope: Scope) -> str:
        sym = self.sym
        if isinstance(node.obj, n.Name) and node.obj.name in sym.tracks and scope.lookup(node.obj.name) is None:
            self.used.add(("track", node.obj.name))
            if node.name not in TRACK_ATTRS:
                self.error(f"a track has no '{node.name}'", node.span, suggest(node.name, TRACK_ATTRS))
                return "any"
            return self.resolve(node, ("track_attr", node.obj.name, node.name), TRACK_ATTRS[node.name])
        t = self.expr(node.obj, scope)
        if t.startswith("entity") or t == "any":
            kind = t.partition(":")[2]
            if node.name in ENTITY_ATTRS:
                return self.resolve(node, ("entity_attr", node.name), ENTITY_ATTRS[node.name])
            if kind:
                fields = sym.fields_of(kind)
                if node.name in fields:
                    return self.resolve(node, ("field", node.name), fields[node.name][0])
                self.error(f"kind '{kind}' has no property '{node.name}'", node.span,
                           suggest(node.name, [*fields, *ENTITY_ATTRS]))
                return "any"
            # a card of unknown kind (from a zone, say): the property's type is what every
            # kind that declares it agrees on
            declared = {sym.fields_of(k)[node.name][0] for k in sym.kinds if node.name in sym.fields_of(k)}
            agreed = declared.pop() if len(declared) == 1 else "any"
            if t == "any":
                # dicts, not sets: in the order declared, for the "did you mean" among them
                space_props = dict.fromkeys(p.name for sp in sym.spaces.values() for p in sp.props)
                known = dict.fromkeys([*(f for k in sym.kinds for f in sym.fields_of(k)), *space_props, *SPACE_ATTRS])
                if node.name not in known:
                    self.error(f"nothing has a property '{node.name}'", node.span, suggest(node.name, known))
                is_space_prop = node.name in space_props or node.name in SPACE_ATTRS
                return self.resolve(node, ("dynamic_attr", node.name), "any" if is_space_prop else agreed)
            if not declared and agreed == "any" and not any(node.name in sym.fields_of(k) for k in sym.kinds):
                self.error(f"no kind of card or piece has a property '{node.name}'", node.span,
                           suggest(node.name, [*(f for k in sym.kinds for f in sym.fields_of(k)), *ENTITY_ATTRS]))
            return self.resolve(node, ("field", node.name), agreed)
        if t.startswith("space"):
            if node.name in SPACE_ATTRS:
                return self.resolve(node, ("space_attr", node.name), SPACE_ATTRS[node.name])
            kind = t.partition(":")[2]
            props = dict.fromkeys(p.name for sp in sym.spaces.values() if not kind or sp.kind == kind for p in sp.props)
            if node.name not in props:
                self.error(f"no {kind or 'space'} has a property '{node.name}'", node.span,
                           suggest(node.name, [*props, *SPACE_ATTRS]))
            return self.resolve(node, ("space_prop", node.name), "any")
        if t == "track":
            # a track held in a value: its start, low and high, as for a track named
            if node.name not in TRACK_ATTRS:
                self.error(f"a track has no '{node.name}'", node.span, suggest(node.name, TRACK_ATTRS))
                return "any"
            return self.resolve(node, ("value_track_attr", node.name), TRACK_ATTRS[node.name])
        if t == "seat" and node.name == "name":
            return self.resolve(node, ("seat_name",), "text")
        self.error(f"{a_type(t)} has no property '{node.name}'", node.span)
        return "any"

    def access(self, node: n.Access, scope: Scope) -> str:
        sym, name = self.sym, node.name
        if name in sym.tokens or (scope.lookup(name) is not None and compatible(scope.lookup(name), "token")):
            if name in sym.tokens:
                self.used.add(("token", name))
                res = ("tokens", name, False)
            else:
                res = ("tokens", name, True)
            if name in sym.tokens and is_family(sym.tokens[name]):
                self.token_key(name, node.of, node.span, scope)  # `Told of c.colour at c`: `of` is its key
            elif node.of is not None:
                self.expect(node.of, scope, "seat")
            if node.at is not None:
                self.place(node.at, scope)
            return self.resolve(node, res, "number")
        if name in sym.zones and is_family(sym.zones[name]):
            return self.family_member(node, scope)
        if name in sym.vars and len(per_keys(sym.vars[name].per)) == 2:
            # `cubes of Red at NY`: a var kept for each pair of a seat (or space...) and a space
            decl = sym.vars[name]
            self.used.add(("var", name))
            first_kind, second_kind = per_keys(decl.per)
            if node.at is None:
                self.error(f"'{name}' is kept per {first_kind} and {second_kind}: write {name} of ... at ...", node.span)
            else:
                self.var_key(name, second_kind, node.at, scope)
            self.var_key(name, first_kind, node.of, scope)
            return self.resolve(node, ("var_of2", name), self.var_type(decl))
        if node.at is not None and node.of is not None and name in sym.vars and sym.vars[name].per is not None:
            # `played of P1 at "red"` for a counter kept per one thing: one key too many
            decl = sym.vars[name]
            self.used.add(("var", name))
            self.error(f"'{name}' is a {decl.kind} kept per {decl.per}, one key: read it as "
                       f"'{name} of {decl.per.upper()}', without 'at'", node.span)
            self.expr(node.at, scope)
            self.var_key(name, decl.per, node.of, scope)
            return self.resolve(node, ("var_of", name), self.var_type(decl))
        if node.at is not None and node.of is None and name in sym.vars and sym.vars[name].per is not None:
            # `climber at c` for a counter kept per column: read with `of`, as `unstable of North`
            decl = sym.vars[name]
            self.used.add(("var", name))
            self.error(f"'{name}' is a {decl.kind} kept per {decl.per}: read it as '{name} of ...', "
                       f"not '{name} at ...' (which counts tokens)", node.span)
            self.expr(node.at, scope)  # its names are checked; its type waits for the `of` (one error here)
            return self.resolve(node, ("var_of", name), self.var_type(decl))
        if node.at is not None and name not in sym.kinds and name not in sym.entities and sym.entity_kind_collection(name) is None:
            near = suggest(name, [*sym.tokens, *sym.zones])
            if (near is not None and near.meant[0] in sym.zones and is_family(sym.zones[near.meant[0]])
                    and scope.lookup(name) is None and name not in sym.all_names()):
                # `expeditions of s at c`: a misspelt zone family, named as its members are,
                # is that, not a count of tokens
                self.unknown(node, name, [*sym.tokens, *sym.zones])
                return "any"
            self.error(f"'{name} at ...' counts tokens, and '{name}' is not a token", node.span,
                       suggest(name, sym.tokens))
            return "number"
        if name in sym.vars:
            decl = sym.vars[name]
            self.used.add(("var", name))
            if decl.per is None:
                self.error(f"'{name}' is one value for the whole game, not kept per anything", node.span)
            else:
                self.var_key(name, decl.per, node.of, scope)
            return self.resolve(node, ("var_of", name), self.var_type(decl))
        if name in sym.zones:
            self.used.add(("zone", name))
            if sym.zones[name].per is None:
                self.error(f"zone '{name}' is shared, not kept per seat", node.span)
            self.expect(node.of, scope, "seat")
            return self.resolve(node, ("zone_of", name), "zone")
        ekind = sym.entity_kind_collection(name)
        if ekind or name in sym.entities:
            if node.of is not None:
                self.expect(node.of, scope, "seat")
            if node.at is not None:
                self.expr(node.at, scope)
            if ekind:
                return self.resolve(node, ("pieces", ekind, "kind"), "list:entity:" + ekind)
            return self.resolve(node, ("pieces", name, "def"), "list:entity:" + sym.entities[name].kind)
        if name in sym.tracks and node.of is not None:
            self.error(f"'{name}' is a track; its marker is just '{name}'", node.span)
            return "number"
        self.unknown(node, name, set(sym.vars) | set(sym.zones) | set(sym.tokens) | set(sym.kinds))
        return "any"

    def sorted_list(self, node: n.Call, scope: Scope) -> str:
        """`sorted(LIST)`: numbers or texts ordered by themselves. Cards, seats, spaces have no
        order of their own to sort by: the aggregate form says what to order them by."""
        lt = self.expr(node.args[0], scope)
        et = "entity" if lt == "zone" else elem_type(lt)
        if not listlike(lt):
            self.error(f"'sorted' needs a list, not {a_type(lt)}", node.args[0].span)
            return "any"
        if et not in ("number", "text", "any", "none"):
            self.error(f"'sorted' orders a list of numbers or of texts by their own values, not {a_type(lt)}: "
                       "order other things by a number or a text worked out for each, as in "
                       "'sorted(c.rank for c in hand)'", node.span)
            return "list:" + et
        return self.resolve(node, ("builtin_fn", "sorted"), "list:" + et)

    def member_example(self, name: str) -> str:
        """How a member of the zone family `name` is named: 'expedition of SEAT at COLOUR'."""
        parts = per_keys(self.sym.zones[name].per)
        if parts[0] == "seat":
            return f"'{name} of SEAT at {parts[-1].upper()}'"
        return f"'{name} of {parts[-1].upper()}'"

    def family_member(self, node: n.Access, scope: Scope) -> str:
        """`discards of c.colour`, `expedition of s at "yellow"`: one zone of a family, named by
        its keys as a counter kept per one thing or per a pair is (the seat with `of`, the other
        key with `at`). A key written as a text must be one of the family's."""
        sym, name = self.sym, node.name
        decl = sym.zones[name]
        self.used.add(("zone", name))
        seat = per_keys(decl.per)[0] == "seat"
        key = node.at if seat else node.of
        family = sym.zone_family(name)
        if family is None:  # its declaration is refused (said there): its keys are not known
            for part in (node.of, node.at):
                if part is not None:
                    self.expr(part, scope)
            return self.resolve(node, ("zone_member", name), "zone")
        if (node.at is None) if seat else (node.at is not None or node.of is None):
            alone = "" if seat else " alone"
            self.error(f"zone '{name}' is kept per {decl.per}{alone}: name one as {self.member_example(name)}",
                       node.span)
            for part in (node.of, node.at):  # their names are checked; their types wait for a right count
                if part is not None:
                    self.expr(part, scope)
            return self.resolve(node, ("zone_member", name), "zone")
        if seat:
            self.expect(node.of, scope, "seat")
        if key is not None:
            self.expect(key, scope, family.type)
            missing = self.key_literal(family, key)
            if missing is not None:
                self.error(f"zone '{name}' has no member {missing[0]}: its keys are the {family.value}, "
                           f"{', '.join(family.texts)}", key.span, missing[1])
        return self.resolve(node, ("zone_member", name), "zone")

    def call(self, node: n.Call, scope: Scope) -> str:
        sym, name = self.sym, node.func
        if node.comp is not None:
            if name not in AGGREGATES and name != "list":
                self.error(f"'{name}(... for ...)' is not an aggregate; use one of {', '.join(sorted(AGGREGATES))}", node.span)
                return "any"
            lt = self.expr(node.comp, scope)
            et = elem_type(lt)
            src = elem_type(self.out.types.get(id(node.comp.source), "any"))
            self.resolve(node, ("aggregate", name), "any")
            if name in ("sum", "count"):
                return "number"
            if name in ("any", "all"):
                return "bool"
            if name in ("max", "min"):
                return et
            if name in ("most", "least"):
                return "list:" + src
            if name == "sorted":
                if et not in ("number", "text", "any", "none"):
                    self.error(f"'sorted' orders by a number or a text, not by {a_type(et)}", node.comp.elem.span)
                return "list:" + src
            if name == "first":
                return et
            return lt
        if name in sym.defines:
            d = sym.defines[name]
            self.used.add(("define", name))
            want = len(d.params or ())
            if len(node.args) != want:
                self.error(f"'{name}' takes {want} argument(s), not {len(node.args)}", node.span)
            types = [self.expr(a, scope) for a in node.args]
            if self.reading is not None:
                self.reading.add(("define", name))
            result = self.define_types.get(name, "any")
            if d.params and "any" in result and len(types) == want:
                result = self.define_at_call(d, types, result)
            return self.resolve(node, ("define", name), result)
        if name == "sorted" and len(node.args) == 1:
            return self.sorted_list(node, scope)
        if name in BUILTIN_FUNCTIONS:
            lo, hi, result = BUILTIN_FUNCTIONS[name]
            if not lo <= len(node.args) <= hi:
                want = str(lo) if lo == hi else f"{lo} to {hi}"
                self.error(f"'{name}' takes {want} argument(s), not {len(node.args)}", node.span)
            if name in TRACK_FUNCTIONS and node.args:
                types = [self.track_arg(node.args[0], scope)] + [self.expr(a, scope) for a in node.args[1:]]
            else:
                types = [self.expr(a, scope) for a in node.args]
            if name in ("card", "cards") and node.args:
                arg = node.args[0]
                if isinstance(arg, n.String) and arg.value not in sym.entities:
                    self.error(f"no card or piece is named \"{arg.value}\"", arg.span, suggest(arg.value, sym.entities))
                elif name == "card" and isinstance(arg, n.String):
                    result = "entity:" + sym.entities[arg.value].kind
            if name == "top" and len(node.args) == 2:
                result = "list:entity"
            if name in ("left", "right", "other", "seats_from", "seat_number") and types:
                if not compatible(types[0], "seat"):
                    self.error(f"'{name}' needs a seat, not {a_type(types[0])}", node.args[0].span)
            if name == "adjacent" and types and not (types[0].startswith("space") or types[0] == "any"):
                self.error(f"'adjacent' needs a space, not {a_type(types[0])}", node.args[0].span)
            if name == "adjacent" and types and types[0].startswith("space:"):
                result = "list:" + types[0]
            if result == "*list" and types:
                result = types[0] if types[0].startswith("list:") else "list:any"
            if "*" in result and types:
                et = elem_type(types[0]) if types[0] != "zone" else "entity"
                result = result.replace("*", et)
            if name in ("sum", "count", "any", "all", "most", "least", "first", "last") and types:
                if not listlike(types[0]):
                    self.error(f"'{name}' needs a list, not {a_type(types[0])}", node.args[0].span)
            if name in ("max", "min") and len(types) == 1 and types[0].startswith("list:"):
                result = elem_type(types[0])
            return self.resolve(node, ("builtin_fn", name), result)
        if name in sym.rules:
            self.error(f"'{name}' is a rule: call it as a statement on its own line", node.span)
            return "any"
        self.error(f"unknown function '{name}'", node.span,
                   suggest(name, [*sym.defines, *BUILTIN_FUNCTIONS]))
        return "any"

