"""Expressions compiled to Python source: one module per game, compiled once, cached on disk.

The closures of `expressions.py` cost one Python call per node of an expression. Here the common
nodes (numbers, texts, locals, arithmetic and comparisons, `and`/`or`/`not`, token counts, a
card's or a space's attribute, aggregates over a list) are written out as Python source instead,
so `x.owner == s and Follower of s at r > 0` is one function with no call per node. Every other
node keeps its closure, called from the generated source as a constant (`k12(rt, env)`), and
that closure's own sub-expressions are generated again: the two kinds mix freely.

Each generated function does exactly what the closures do, in the same order, with the same
checks and the same error messages (the checks are the same helpers: `as_int`, `as_list`,
`in_range`, ...), except checks that cannot fail (`is_int`, `is_list`: as_int of a count, as_list
of a list written out). The closures stay the reference: `LUDUS_CLOSURES=1` in the environment
turns generation off, and the seeded playout digests (tests/engine/test_playouts.py) hold either
way; tests/engine/test_pysource.py compares each fast path's value and error with the closure's.

A comprehension's variable and an action's parameters are Python locals of the generated
function (`self.locals`). Closures read locals from the env dict, so a local is also set in env
(and a comprehension's saved and restored there, as the closure does) only when code in its
scope hands env on to a closure (`self.env_passed`). A define reads only `$cur` and `$act` from
env, and a space's property no local at all. Each define called from generated code is two
functions: d<k>, the lookup of its remembered value under a key whose layout it knows, and b<k>,
its body with its parameters as Python locals (see `define_functions`). In a listing or an
aggregate, what cannot fail nor change in a loop is read once before it (see `hoist`).

`ExpressionCompiler.expr` hands out a function at once, as before; its body is filled in when the
whole game has been compiled (`finish`), from one module compiled in one go. The compiled module
is kept in the user's disk cache (ludus/language/cache.py), keyed by a hash of its source, so a
warm load does not compile it again.
"""

from __future__ import annotations

import contextlib
import hashlib
import marshal
import os
import re
import sys
import types

from ..engine.display import display, entity_label
from ..engine.runtime import READ, READS, RuleError, index_places, index_reads, seen, seen_all
from ..engine.values import (
    as_int,
    as_list,
    as_order,
    as_size,
    entity_attr,
    in_range,
    none_read,
    ordered,
    pick_extreme,
    set_key,
    space_attr,
    text_in_range,
    token_member,
)
from ..language import cache
from ..language import nodes as n
from ..language.limits import MAX_LIST, MAX_TEXT, MAX_WORK
from ..language.symbols import elem_type, per_keys
from .builtins import DIRECTIONS, adjacent, grid_step, walk_line
from .decisions import _cost_refusal
from .specs import unset_value
from .statements import always_run

ENABLED = os.environ.get("LUDUS_CLOSURES", "") in ("", "0")
CACHE_FORMAT = 2  # 2: each file starts with its key and a digest of its code


def _not_ready(rt, env):  # pragma: no cover - only if an expression runs before the game is compiled
    raise RuntimeError("a generated expression ran before its game finished compiling")


def _nolocal(name):
    raise RuleError(f"'{name}' has no value yet here")


def _add(x, y):
    if isinstance(x, list) and isinstance(y, list):
        return x + y
    if isinstance(x, str) and isinstance(y, str):
        return text_in_range(x + y, "the joined text")
    return in_range(as_int(x, "left of '+'") + as_int(y, "right of '+'"), "the sum")


def _div(x, y, op):
    if y == 0:
        raise RuleError("division by zero")
    return x // y if op == "/" else x % y


def memo_key(values, per_seat: bool, env):
    """A define's key in its table `rt.memo[name]`: its arguments, after who acts and whose turn
    it is when its value depends on them (per_seat); a single argument is its own key. `this`
    is no part of it: the checker refuses `this` in a define. The generated functions of
    `SourceGen.define_header` write the same keys."""
    if per_seat:
        return (env.get("$act"), env.get("$cur"), *values)
    if len(values) == 1:
        return values[0]
    return tuple(values)


def define_value(rt, env, defines, name, values, per_seat):
    """A define's value, remembered in `rt.memo[name]`, as the closures of expressions.py ask
    for it (generated code calls the define's own function, written by SourceGen, which keeps
    the same table under the same keys). Arguments that are a bool or a list are not remembered
    (true is 1 to a dict; a list is no key)."""
    memo = rt.memo
    if memo is None or name in rt.game.define_reading:
        # a define indexed by the places it reads is remembered by its generated function only,
        # which records them (Game.define_reading is empty when the closures run alone)
        return defines[name](rt, values, env)
    for v in values:
        if v.__class__ is bool or v.__class__ is list:
            # and none of the defines it reads remembers anything meanwhile: their generated
            # lookups test only the arguments a call may hand a bool or a list (SourceGen)
            rt.memo = None
            try:
                return defines[name](rt, values, env)
            finally:
                rt.memo = memo
    key = memo_key(values, per_seat, env)
    known = memo.get(name)
    if known is None:
        known = memo[name] = {}
    try:
        found = known.get(key, _MISSING)  # a miss costs no exception
    except TypeError:  # an argument that is no key
        return defines[name](rt, values, env)
    if found is not _MISSING:
        return found
    logged = len(rt.log)
    result = defines[name](rt, values, env)
    if len(rt.log) == logged:
        # nothing changes the state while a define runs, so `known` is still this define's table
        at = rt.game.define_place_args.get(name)
        if at:
            index_places(known, key, values, at)
        known[key] = result
    return result


def _charged(items: str, src: str) -> list[str]:
    """Lines that set `items` to the list `src` and charge its length to the runtime's work:
    rt.charge(len(items)) written out, calling it only to raise the error."""
    return [f"{items} = {src}", f"rt.work += len({items})", "if rt.work > MAX_WORK:", "    rt.charge(0)"]


def _field(rt, eid, fname, where=None):
    """A card's or piece's property; `where` locates the error of reading it of none (none_read)."""
    if eid is None:
        raise none_read(fname, where)
    return rt.field(eid, fname)


def _field_of(rt, eid, fname, table, where=None):
    """_field, with the value a card or piece writes as a literal taken from `table`."""
    try:
        e = rt.state["ents"][eid]
        f = e.get("f")
        d = e["d"]
    except (IndexError, TypeError, KeyError, AttributeError):  # not a card or piece: _field says why
        return _field(rt, eid, fname, where)
    if f is not None and fname in f:
        return f[fname]
    v = table.get(d, _MISSING)
    if v is _MISSING:
        return rt.game.static_field(rt, eid, d, fname)
    return v


# in a label part's source: a parameter after the first, or the env dict (which may hold any)
_LATER_PARAM = re.compile(r"\b_p[1-9][0-9]*\b|\benv\b")

_ENTITY_KEYS = {"owner": "o", "loc": "l", "name": "d"}  # attributes stored as they are read


def _ent_key(rt, eid, key, attr, where=None):
    """entity_attr for an attribute kept in the entity's dict; any failure goes to entity_attr
    for its error."""
    try:
        return rt.state["ents"][eid][key]
    except (IndexError, TypeError, KeyError):
        return entity_attr(rt, eid, attr, where)


def _ent_get(rt, eid, key):
    """What `_ent_key` reads, or _MISSING where it would go to entity_attr (see enumerator)."""
    try:
        return rt.state["ents"][eid][key]
    except (IndexError, TypeError, KeyError):
        return _MISSING


def _ent_kind(rt, eid, kinds, where=None):
    """entity_attr(rt, eid, 'kind'), the kind of each card and piece taken from `kinds`."""
    try:
        return kinds[rt.state["ents"][eid]["d"]]
    except (IndexError, TypeError, KeyError):
        return entity_attr(rt, eid, "kind", where)


def _dyn_attr(rt, v, fname, env, where=None):
    """A property of a card, a piece or a space, whichever `v` is: the closure's `dyn`."""
    if isinstance(v, int) and not isinstance(v, bool):
        return rt.field(v, fname)
    if isinstance(v, str) and v in rt.game.spaces:
        return space_attr(rt, v, fname, env)
    if v is None:  # as a typed property read says it
        raise none_read(fname, where)
    raise RuleError(f"{v!r} has no property '{fname}'")


_NO_TABLE: dict = {}  # never written: what _table gives when there is no table yet


def _table(rt, name: str) -> dict:
    """A define's table of remembered values, read before a loop that calls it (an empty one
    when nothing is remembered: every call then goes through the define's function)."""
    memo = rt.memo
    if memo is None:
        return _NO_TABLE
    return memo.get(name) or _NO_TABLE


def _group(groups: dict, key):
    """The spaces whose property equals `key` (SourceGen.grouped); none for a value no property
    written as a literal can equal (a list)."""
    try:
        return groups.get(key, ())
    except TypeError:
        return ()


def _top(rt, v):
    """top(cards), as the builtin's closure: the first, or none."""
    cards = as_list(rt, v)
    return cards[0] if cards else None


class _Missing:
    pass


_MISSING = _Missing()

HELPERS = {
    "RuleError": RuleError, "MAX_WORK": MAX_WORK, "MAX_TEXT": MAX_TEXT, "as_int": as_int, "as_list": as_list, "as_order": as_order, "entity_attr": entity_attr,
    "in_range": in_range, "space_attr": space_attr, "_nolocal": _nolocal, "_add": _add, "_div": _div,
    "_field": _field, "_field_of": _field_of, "_ent_key": _ent_key, "_ent_get": _ent_get, "_ent_kind": _ent_kind, "_dyn_attr": _dyn_attr, "_top": _top, "_MISSING": _MISSING, "_index_places": index_places, "_index_reads": index_reads, "_seen": seen, "_seen_all": seen_all, "_group": _group, "_table": _table, "_READS": READS, "display": display, "entity_label": entity_label, "text_in_range": text_in_range,
    "adjacent": adjacent, "_cost_refusal": _cost_refusal, "_set_key": set_key, "_token_member": token_member,
}

_NO_LOCALS = types.MappingProxyType({})  # read only: a scope that holds no Python locals

_PLAIN_TYPES = frozenset({"space", "seat", "entity", "zone", "text"})  # see SourceGen.plain_key
_AGGREGATES = ("list", "count", "sum", "any", "all", "first", "max", "min", "most", "least", "sorted")


class SourceGen:
    """Collects the generated functions of one game; `finish` compiles them and fills them in."""

    def __init__(self, comp) -> None:
        self.comp = comp  # the ExpressionCompiler: resolutions, and closures for other nodes
        self.ns: dict = dict(HELPERS)
        self.ns["_defines"] = comp.game.defines
        self.ns["_values"] = comp.game.values
        self.ns["_kind_tree"] = comp.game.kind_tree
        # define name -> [its function's name, its body's, the indexes of arguments some call
        # may hand a bool or a list, whether generated code calls it]: written by `finish`,
        # when every call is known
        self.defines: dict[str, list] = {}
        self.lines: list[str] = []
        self.stubs: list[tuple[str, types.FunctionType]] = []
        self.count = 0
        # rule locals held in Python locals of the function being generated: name -> Python name
        self.locals: dict[str, str] = {}
        # whether the source generated since the flag was last cleared hands `env` on to code
        # that may read any local from it (a closure, a space's property): then the locals it
        # could read must be in env too
        self.env_passed = False
        # while an aggregate's test and element are generated: {source: name} of values that
        # cannot change in its loop and cannot fail, set once before the loop (see `hoist`)
        self.pre: dict[str, str] | None = None
        self.varying: tuple = ()  # the locals that change in the loops of the function being generated
        # while a listing is generated: {(parameter, key): [name, reads, attribute]} of what a
        # parameter's card or piece keeps in its dict, read once a turn of its loop when read twice
        self.ents: dict | None = None
        # while a define's body is generated: its token reads and its calls of defines indexed
        # by place record the places they read (Runtime.reads), and `sub` counts the closures
        # it falls back to (`fallbacks`), whose reads it cannot record (`unrecorded` defines)
        self.recording = False
        self.seen_vars: frozenset = frozenset()  # loop locals whose lists are recorded whole
        self.fallbacks = 0
        self.unrecorded: set = set()
        self.reading: frozenset = frozenset()  # the defines indexed by what they read
        # the define whose body is generated, and {(define, argument index): {(define, parameter
        # index)}}: an argument that is the calling define's own parameter, handed on as it came
        self.current: str | None = None
        self.handed: dict = {}
        self.callers: dict = {}  # define -> the defines whose bodies call it (None: other code)
        # the parameters a recording body reads tokens at: recorded once as it starts
        self.param_reads: set = set()
        # loop locals whose list is a constant of numbers and texts only (plain_key)
        self.plain_vars: set = set()
        # the Python locals of the loop function being generated that its loops do not change:
        # its parameters (see `invariant`)
        self.fixed_locals: frozenset = frozenset()
        self.looping = False  # whether what is being generated runs at each turn of a loop

    def _name(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def read_at(self, node) -> str:
        """The name of the constant that locates a property read's error of none (see
        ExpressionCompiler.read_at)."""
        return self.const(self.comp.read_at(node))

    def const(self, value) -> str:
        name = self._name("k")
        self.ns[name] = value
        return name

    # ── entry ──

    def function(self, node):
        """A function (rt, env) for `node`, filled in by `finish`; None to use the closure. It
        may be asked for while another is being generated (a closure's sub-expressions, see
        `sub`): that one's locals are kept aside meanwhile."""
        saved = self.locals, self.env_passed, self.pre, self.ents, self.recording, self.current
        self.locals, self.env_passed, self.pre, self.ents = _NO_LOCALS, False, None, None
        self.recording, self.current = False, None
        try:
            src = self.gen(node)
        finally:
            self.locals, self.env_passed, self.pre, self.ents, self.recording, self.current = saved
        if src is None:
            return None
        name = self._name("e")
        self.lines.append(f"def {name}(rt, env):\n    return {src}\n")
        stub = types.FunctionType(_not_ready.__code__, self.ns, name)
        self.stubs.append((name, stub))
        return stub

    def enumerator(self, decl, stage_nodes: list, label, fixed: list, bound: list):
        """One function that lists an action's options, as OfferSpec.instances and its labels
        do: the fixed costs first, each requirement at its stage, costs that read parameters on
        each whole binding, then the label and the value of each binding that passes. Each
        parameter is a Python local `_p<i>`; it is also set in the env dict only when code after
        its loop hands env on (a closure, a bound cost, a space's property)."""
        name = self._name("act")
        self.locals = {}
        self.env_passed = False
        self.pre, self.varying = {}, tuple(f"_p{i}" for i in range(len(decl.params)))
        self.fixed_locals = frozenset()
        self.ents = {}
        pieces = []  # (lines at their depth, whether they hand env on)

        def piece(lines):
            pieces.append((lines, self.env_passed))
            self.env_passed = False

        self.looping = False  # its first loop's list and the tests before it run once
        tests = [self.test(r) for r in stage_nodes[0]]
        piece([f"if not {t}:" for t in tests])
        self.plain_vars -= set(self.varying)  # another action's parameters had these names
        sources = []
        for i, p in enumerate(decl.params):
            self.looping = i > 0
            src = self.listed(p.source)
            sources.append(src)
            piece([f"for _p{i} in {src}:"])
            self.locals[p.name] = f"_p{i}"
            if self.plain_list(src):
                self.plain_vars.add(f"_p{i}")
            self.looping = True
            piece([f"if not {self.test(r)}:" for r in stage_nodes[i + 1]])
        tail = []
        if bound:
            tail.append(f"if _cost_refusal(rt, {self.const(bound)}, env, seat) is not None:")
            self.env_passed = True
        label_parts = None
        known_labels = self.fixed_labels(decl, sources)
        if known_labels is not None:
            shown = f"{self.const(known_labels)}[_p0]"
        elif decl.label is not None:
            parts = self.template_parts(decl.label)
            shown = self.text(parts)
            if len(decl.params) > 1:
                label_parts = parts
        else:  # the action's name and its values displayed, as the label closure does
            words = [repr(decl.name)]
            for i, p in enumerate(decl.params):
                typ = elem_type(self.comp.c.types.get(id(p.source), "any"))
                words.append(self.shown(f"_p{i}", typ))
            shown = f"' '.join([{', '.join(words)}])"
        piece(tail)
        self.locals = {}
        pre, self.pre, self.varying, self.looping = self.pre, None, (), False
        ents, self.ents = self.ents, None
        # A parameter's owner, place or name read twice or more is read once a turn of its loop,
        # where the loop sets it, without a failure (_ent_get); each read that finds nothing
        # there fails as _ent_key would, where it did. A placeholder stands for each read until
        # the count is known: "\0name\0" is in no source written by repr.
        marks, reads = {}, {}
        for (obj, fast), (var, count, attr, where) in ents.items():
            if count > 1:
                marks[f"\0{var}\0"] = (f"({var} if {var} is not _MISSING "
                                         f"else entity_attr(rt, {obj}, {attr!r}, {where}))")
                reads.setdefault(obj, []).append(f"{var} = _ent_get(rt, {obj}, {fast!r})")
            else:
                marks[f"\0{var}\0"] = f"_ent_key(rt, {obj}, {fast!r}, {attr!r}, {where})"

        def marked(line):
            if "\0" not in line:
                return line
            return re.sub("\0[^\0]*\0", lambda m: marks[m.group(0)], line)
        shown = marked(shown)
        # The label's leading parts that read no parameter but the first (a card's name and
        # where it is, say) are the same for every binding of the later ones: made at the first
        # label of each turn of the first loop, where the whole label was made, and kept for the
        # rest of that turn. Nothing changes while options are listed, so they read the same.
        prefix = 0
        if label_parts is not None:
            label_parts = [marked(part) for part in label_parts]
            while prefix < len(label_parts) - 1 and not _LATER_PARAM.search(label_parts[prefix]):
                prefix += 1
        if prefix:
            head = ", ".join(label_parts[:prefix])
            shown = self.text(label_parts[prefix:], "_lab0")
        # the last piece that hands env on: parameters bound before it are set in env
        last = max([k for k, (_, passed) in enumerate(pieces) if passed], default=-1)
        out = [f"def {name}(rt, env, seat, labels, values):"]
        ind = "    "
        out.extend(f"{ind}{var} = {value}" for value, var in pre.items())
        for need, counter in fixed:  # as OfferSpec.instances checks them: `need` is a number written in the rules
            have = self.get_var(counter, "seat" if self.comp.sym.vars[counter].per == "seat" else None)
            out.append(f"{ind}if {need!r} > {have}:")
            out.append(f"{ind}    return")
        leave = "return"
        for k, (lines, _) in enumerate(pieces):
            for line in lines:
                out.append(ind + marked(line))
                if line.startswith("for "):
                    ind += "    "
                    leave = "continue"
                    i = (k - 1) // 2
                    if prefix and i == 0:
                        out.append(f"{ind}_lab0 = None")
                    if k < last:
                        out.append(f"{ind}env[{decl.params[i].name!r}] = _p{i}")
                    out.extend(ind + read for read in reads.get(f"_p{i}", ()))
                else:
                    out.append(f"{ind}    {leave}")
        if prefix:
            out.append(f"{ind}if _lab0 is None:")
            out.append(f"{ind}    _lab0 = ''.join([{head}])")
        out.append(f"{ind}labels.append({shown})")
        args = ", ".join(f"_p{i}" for i in range(len(decl.params)))
        out.append(f"{ind}values.append([{decl.name!r}, [{args}]])")
        self.lines.append("\n".join(out) + "\n")
        stub = types.FunctionType(_not_ready.__code__, self.ns, name)
        self.stubs.append((name, stub))
        return stub

    def fixed_labels(self, decl, sources: list) -> dict | None:
        """{value: label} for an action of one parameter whose list is a constant of numbers and
        texts (plain_list) and whose label shows only that parameter and words (`"drop in column
        {col}"`, or the default: its name and the value): the labels, the same in every match,
        made once here as the listing would make them. None for any other action, and when a
        label would be refused (too long), or is not the value as written (a seat, a card, a
        zone, a text with '@', displayed from the state)."""
        if len(decl.params) != 1 or not self.plain_list(sources[0]):
            return None
        param = decl.params[0]
        if decl.label is None:
            parts = [decl.name + " ", ("value", elem_type(self.comp.c.types.get(id(param.source), "any")))]
        else:
            parts = []
            for p in decl.label.parts:
                if isinstance(p, str):
                    parts.append(p)
                elif self.comp.c.res.get(id(p)) == ("local", param.name):
                    parts.append(("value", self.comp.c.types.get(id(p), "any")))
                else:
                    return None
        if any(p[1] == "zone" or p[1] == "seat" or p[1].startswith("entity") for p in parts if p.__class__ is tuple):
            return None
        table = {}
        for v in self.ns[sources[0]]:
            if v.__class__ is str and "@" in v:
                return None
            text = "".join(p if p.__class__ is str else str(v) for p in parts)
            if decl.label is not None and len(text) > MAX_TEXT:
                return None
            table[v] = text
        return table

    def statement(self, lines: list[str]):
        """A function (rt, env) whose body is `lines` (a statement, from pystatements.py),
        filled in by `finish`."""
        name = self._name("s")
        self.lines.append(f"def {name}(rt, env):\n" + "".join(f"    {line}\n" for line in lines))
        stub = types.FunctionType(_not_ready.__code__, self.ns, name)
        self.stubs.append((name, stub))
        return stub

    def finish(self) -> None:
        # a game whose every expression is a constant still has its blocks' regions to compile
        # (`flow:` with only `end game` is one)
        if not self.stubs and not self.lines:
            return
        self.define_functions()
        game = self.comp.game
        self.ns["_rays"] = grid_rays(game.grid, game.grid_at) if game.grid else {}
        source = "".join(self.lines)
        code = _cached_compile(source)
        # The module is not run: its functions' code objects are taken from its constants. The
        # stubs handed out get theirs; the aggregates, called by name, become functions of the
        # namespace. So a load makes no second function object per expression.
        bodies = {c.co_name: c for c in code.co_consts if isinstance(c, types.CodeType)}
        for name, stub in self.stubs:
            stub.__code__ = bodies.pop(name)
        for name, body in bodies.items():
            self.ns[name] = types.FunctionType(body, self.ns, name)
        self.lines, self.stubs = [], []

    # ── defines ──

    def define_info(self, name: str) -> list:
        info = self.defines.get(name)
        if info is None:
            k = self.count = self.count + 1
            info = self.defines[name] = [f"d{k}", f"b{k}", set(), False]
        return info

    def define_body_function(self, name: str):
        """The function b<k>(rt, env, *args) of a define's body (see define_body), filled in by
        `finish`: what the define's wrapper (expressions.define) calls."""
        body = self.define_info(name)[1]
        stub = self.ns.get(body)
        if stub is None:
            stub = self.ns[body] = types.FunctionType(_not_ready.__code__, self.ns, body)
            self.stubs.append((body, stub))
        return stub

    def define_functions(self) -> None:
        """Each define that generated code calls, as two functions: its body, with its
        parameters as Python locals, and the lookup of its remembered value, which knows its
        key's layout. The bodies first: they may call defines not called before."""
        done: set = set()
        while len(done) < len(self.defines):
            for name in [d for d in self.defines if d not in done]:
                done.add(name)
                self.define_body(name)
        # an argument handed on from the calling define's parameter may be a bool or a list when
        # that parameter may be: until nothing more changes
        grown = True
        while grown:
            grown = False
            for (callee, i), sources in self.handed.items():
                unsure = self.defines[callee][2]
                if i not in unsure and any(k in self.defines[caller][2] for caller, k in sources):
                    unsure.add(i)
                    grown = True
        game, comp = self.comp.game, self.comp
        game.define_recorded = frozenset(d for d in self.defines if d not in self.unrecorded)
        # as the match's tables will have them (define_memo_tables)
        self.reading = comp.with_recorded(game.define_recorded, comp.reading_defines)
        for name, info in self.defines.items():
            if info[3]:
                self.define_header(name)

    def define_body(self, name: str) -> None:
        """b<k>(rt, env, *args): what the define's wrapper (expressions.define) computes. The
        env handed in is the caller's, which holds the same `$cur` and `$act`; the wrapper's own
        env (those, `this`, the parameters) is made only when the body reads anything else
        from env or hands it on."""
        body = self.defines[name][1]
        decl = self.comp.sym.defines[name]
        params = [p.name for p in decl.params or ()]
        args = [f"_a{i}" for i in range(len(params))]
        saved = self.locals, self.env_passed, self.pre, self.ents, self.recording, self.current
        self.locals, self.env_passed, self.pre, self.ents = dict(zip(params, args, strict=True)), False, None, None
        self.current = name
        # only a define indexed by what it reads records it: any other reads tokens at its
        # arguments only, which a define reading it records where it calls it
        self.recording, fallbacks = READ in (self.comp.token_places(name) or {}).values(), self.fallbacks
        self.param_reads = set()
        first = len(self.lines)
        try:
            src = self.sub(decl.value)
            passed = self.env_passed
        finally:
            self.locals, self.env_passed, self.pre, self.ents, self.recording, self.current = saved
        if self.fallbacks != fallbacks:
            self.unrecorded.add(name)
        head = f"def {body}(rt, env{''.join(', ' + a for a in args)}):\n"
        if self.param_reads:  # the parameters it reads tokens at, once, whether it reads them or not
            head += ("    if rt.reads is not None:\n"
                     f"        rt.reads.extend(({''.join(f'_a{k}, ' for k in sorted(self.param_reads))}))\n")
            self.param_reads = set()
        # a local read from env (none but the parameters should be) counts as handing env on
        written = "".join([src, *self.lines[first:]])
        if passed or "env[" in written or "_nolocal(" in written:
            own = ", ".join(f"{p!r}: {a}" for p, a in zip(params, args, strict=True))
            head += ("    local = {'$cur': env.get('$cur'), '$act': env.get('$act')}\n"
                     "    if 'this' in env:\n"
                     "        local['this'] = env['this']\n"
                     f"    local.update({{{own}}})\n"
                     "    env = local\n")
        self.lines.append(head + f"    return {src}\n")

    def define_header(self, name: str) -> None:
        """d<k>(rt, env, *args): the define's value, remembered in `rt.memo[name]` under the key
        memo_key makes (the closures' define_value reads and writes the same table), as
        define_value does it, with this define's layout written in: its arity, whether its key
        holds the seats, which arguments may be a bool or a list, and which are indexed by place."""
        fn, body, unsure, _ = self.defines[name]
        decl = self.comp.sym.defines[name]
        args = [f"_a{i}" for i in range(len(decl.params or ()))]
        call = f"{body}(rt, env{''.join(', ' + a for a in args)})"
        skip = "".join(f" or {args[i]}.__class__ is bool or {args[i]}.__class__ is list" for i in sorted(unsure))
        if not self.comp.define_seat_free(name):
            key = f"(env.get('$act'), env.get('$cur'), {''.join(a + ', ' for a in args)})"
        elif len(args) == 1:
            key = args[0]
        else:
            key = f"({''.join(a + ', ' for a in args)})"
        # which arguments name a place is worked out with the tables of Runtime.touch, when a
        # match first runs: looked up on a miss, which runs the body anyway
        store = (f"        at = rt.game.define_place_args.get({name!r})\n"
                 f"        if at:\n"
                 f"            _index_places(known, key, ({''.join(a + ', ' for a in args)}), at)\n")
        hit, miss = "", f"    result = {call}\n"
        if name in self.reading:
            # indexed by the places its value read (index_reads): recorded while the body runs,
            # and handed on to a define indexed so that calls this one, which read them too (to
            # any other caller they are of no use: see remembered_plainly)
            kept = any(c in self.reading for c in self.callers.get(name, ()))
            if kept:
                hit = ("        if rt.reads is not None:\n"
                       "            rt.reads.extend(known[_READS][key])\n")
            miss = ("    outer = rt.reads\n"
                    "    rt.reads = reads = []\n"
                    "    try:\n"
                    f"        result = {call}\n"
                    "    finally:\n"
                    "        rt.reads = outer\n"
                    "    if outer is not None:\n"
                    "        outer.extend(reads)\n")
            store = f"        _index_reads(known, key, reads, {kept})\n"
        self.lines.append(
            f"def {fn}(rt, env{''.join(', ' + a for a in args)}):\n"
            f"    memo = rt.memo\n"
            f"    if memo is None{skip}:\n"
            f"        return {call}\n"
            f"    key = {key}\n"
            f"    known = memo.get({name!r})\n"
            f"    if known is None:\n"
            f"        known = memo[{name!r}] = {{}}\n"
            f"    try:\n"
            f"        found = known.get(key, _MISSING)\n"
            f"    except TypeError:\n"
            f"        return {call}\n"
            f"    if found is not _MISSING:\n"
            f"{hit}"
            f"        return found\n"
            f"    logged = len(rt.log)\n"
            f"{miss}"
            f"    if len(rt.log) == logged:\n"
            f"{store}"
            f"        known[key] = result\n"
            f"    return result\n")

    def grouped(self, comp: n.Comprehension, members: list) -> tuple | None:
        """For a loop over the spaces of a kind whose test starts with a property written on
        each of them as a literal compared to a value the loop does not change (`c.column ==
        col and ...`): ({value: the spaces that have it, in order}, the value's source, the rest
        of the test or None), so that it loops over one group, looked up, instead of testing
        every space. None for any other loop."""
        cond = comp.cond
        first, rest = (cond.left, cond.right) if cond.__class__ is n.BinOp and cond.op == "and" else (cond, None)
        if first.__class__ is not n.BinOp or first.op != "==":
            return None
        res = self.comp.c.res.get
        for attr, other in ((first.left, first.right), (first.right, first.left)):
            r = res(id(attr))
            if (attr.__class__ is not n.Attr or r is None or r[0] not in ("space_attr", "space_prop")
                    or res(id(attr.obj)) != ("local", comp.var)):
                continue
            o = res(id(other))
            if isinstance(other, (n.Number, n.String)):
                key = repr(other.value)
            elif o is not None and o[0] == "local" and o[1] != comp.var and o[1] in self.locals:
                key = self.locals[o[1]]
            else:
                return None
            table = self.fixed_props(r[1])
            values = self.ns[table] if table else {}
            if not all(m in values for m in members):
                return None
            groups: dict = {}
            for m in members:
                groups.setdefault(values[m], []).append(m)
            return groups, key, rest
        return None

    def reads_each(self, comp: n.Comprehension) -> bool:
        """Whether a loop reads a token at each of its elements whatever it finds (`[st for st
        in pool where Check at st + X at st == 0 ...]`): at its name, in what runs at every turn
        of its test, or of its element when it has no test (statements.always_run)."""
        res = self.comp.c.res.get
        for x in always_run(comp.elem if comp.cond is None else comp.cond):
            r = res(id(x))
            if r is None:
                continue
            if r[0] == "tokens" and not r[2]:
                places = [x.at] if x.at is not None else []
            elif r[0] == "define":
                args = getattr(x, "args", ())
                places = [args[i] for i in self.comp.read_args(r[1]) if i < len(args)]
            else:
                continue
            for p in places:
                if p.__class__ is n.Name and res(id(p)) == ("local", comp.var):
                    return True
        return False

    def invariant(self, src: str) -> bool:
        """Whether an argument's source, in the loop function being generated, gives the same
        at every turn of its loops: it names no local but the function's parameters
        (`fixed_locals`) and values set before its loops, and sets none itself."""
        if ":=" in src or "\0" in src or _FSTRING.search(src):
            return False
        for name in _NAME.findall(_TEXT.sub("''", src)):
            if not (name in self.fixed_locals or name in self.pre.values() or name in self.ns
                    or name in _KNOWN_NAMES or _GENERATED.fullmatch(name)):
                return False
        return True

    def maybe_reading(self) -> frozenset:
        """The defines that may be indexed by what they read: those that would be if every body
        recorded (a body that turns out not to record only takes a define out)."""
        found = self.__dict__.get("_maybe_reading")
        if found is None:
            found = self._maybe_reading = self.comp.with_recorded(None, self.comp.reading_defines)
        return found

    def remembered_plainly(self, name: str, args) -> bool:
        """Whether a call's value, once remembered, is found in the define's table under its
        arguments alone: a define that reads no seat, whose arguments are never a bool nor a
        list. One indexed by what it reads hands the places on at a hit only to a body that
        records (where nothing is read from tables directly): any other code that calls it
        (its define is not indexed so, token_places) drops its own values at every change of
        those tokens, so it needs them not."""
        return self.comp.define_seat_free(name) and all(self.plain_key(a) for a in args)

    def seen(self, src: str) -> str:
        """`src`, a place a recording body reads a token at, recorded as it is read (runtime.seen):
        in a loop, with the list of reads fetched once before it (a define called in the loop
        puts back the list it found), and written out."""
        if self.pre is None:
            return f"_seen(rt, {src})"
        reads = self.hoist("rt.reads")
        k = self.count = self.count + 1
        return f"(({reads}.append(_s{k} := {src}) or _s{k}) if {reads} is not None else {src})"

    def unseen(self, place: str) -> bool:
        """Whether a place a recording body reads a token at must be recorded where it is read:
        not the element of a loop whose list is recorded whole, nor a parameter (recorded as
        the body starts)."""
        if place in self.seen_vars:
            return False
        k = self.parameter(place)
        if k is not None:
            self.param_reads.add(k)
            return False
        return True

    def parameter(self, src: str) -> int | None:
        """The index of the parameter of the define being generated that `src` reads as it is
        (`_a1`), else None."""
        if self.current is None or not src.startswith("_a") or not src[2:].isdigit():
            return None
        k = int(src[2:])
        params = self.comp.sym.defines[self.current].params or ()
        return k if k < len(params) and self.locals.get(params[k].name) == src else None

    def plain_key(self, node) -> bool:
        """Whether an argument's value is never a bool nor a list, so a define's lookup need not
        test it: a number or a text written out or computed as one, a space or a seat named, or
        what the checker found to be a space, a seat, a card or piece, a zone or a text (a loop
        over the cells, a seat's name), which is such a value or none; or the local of a loop
        over a constant list of numbers and texts (plain_list)."""
        if self.is_int(node) or isinstance(node, n.String):
            return True
        res = self.comp.c.res.get(id(node))
        if res is not None and res[0] == "space":
            return True
        if res is not None and res[0] == "local" and self.locals.get(res[1]) in self.plain_vars:
            return True
        return self.comp.c.types.get(id(node), "any").partition(":")[0] in _PLAIN_TYPES

    # ── expressions to source ──

    def gen(self, node) -> str | None:  # noqa: C901 - one dispatch over the node kinds
        comp = self.comp
        if isinstance(node, (n.Number, n.String, n.Bool)):
            return repr(node.value)
        if isinstance(node, n.NoneLit):
            return "None"
        if isinstance(node, n.ListLit):
            return "[" + "".join(f"{self.sub(i)}, " for i in node.items) + "]"
        if isinstance(node, n.Not):
            return f"(not {self.sub(node.operand)})"
        if isinstance(node, n.Neg):
            return f"(-as_int({self.sub(node.operand)}, 'operand'))"
        if isinstance(node, n.CondExpr):
            return f"({self.sub(node.then)} if {self.test(node.cond)} else {self.sub(node.other)})"
        if isinstance(node, n.BinOp):
            return self.binop(node)
        if isinstance(node, n.Comprehension):
            return self.aggregate(node, "list")
        if isinstance(node, n.Template):
            return self.template(node)
        res = comp.c.res.get(id(node))
        if res is None:
            return None
        tag = res[0]
        if tag == "local":
            if res[1] in self.locals:
                return self.locals[res[1]]
            name = repr(res[1])
            return f"(env[{name}] if {name} in env else _nolocal({name}))"
        if tag == "tokens" and not res[2] and comp.sym.token_family(res[1]) is not None:
            # `Told of c.colour at c`: a member of a family of tokens, named by its key
            family = self.const(comp.sym.token_family(res[1]))
            place = self.sub(node.at) if node.at is not None else "None"
            if self.recording and node.at is not None and self.unseen(place):
                place = self.seen(place)
            return f"rt.token_count(_token_member({family}, {self.sub(node.of)}), None, {place})"
        if tag == "tokens":
            tok = self.locals.get(res[1], f"env[{res[1]!r}]") if res[2] else repr(res[1])
            owner = self.sub(node.of) if node.of is not None else "None"
            place = self.sub(node.at) if node.at is not None else "None"
            if self.recording and node.at is not None and self.unseen(place):
                place = self.seen(place)
            if res[2] or node.at is None or res[1] not in self.comp.sym.tokens:
                return f"rt.token_count({tok}, {owner}, {place})"
            return self.token_count(res[1], node.of is not None and owner, place)
        if tag == "entity_attr":
            if res[1] == "kind":
                kinds = self.__dict__.get("_kinds")
                if kinds is None:
                    kinds = self._kinds = self.const({name: d.kind for name, d in comp.sym.entities.items()})
                return f"_ent_kind(rt, {self.sub(node.obj)}, {kinds}, {self.read_at(node)})"
            fast = _ENTITY_KEYS.get(res[1])
            if fast is not None:
                obj = self.sub(node.obj)
                if self.ents is not None and obj in self.varying:  # see `enumerator`
                    k = self.count = self.count + 1
                    # the first read's place: any other read of it fails as that one does
                    slot = self.ents.setdefault((obj, fast), [f"_e{k}", 0, res[1], self.read_at(node)])
                    slot[1] += 1
                    return f"\0{slot[0]}\0"
                return f"_ent_key(rt, {obj}, {fast!r}, {res[1]!r}, {self.read_at(node)})"
            return f"entity_attr(rt, {self.sub(node.obj)}, {res[1]!r}, {self.read_at(node)})"
        if tag == "field":
            table = self.literal_fields(res[1])
            if table is not None:
                return f"_field_of(rt, {self.sub(node.obj)}, {res[1]!r}, {table}, {self.read_at(node)})"
            return f"_field(rt, {self.sub(node.obj)}, {res[1]!r}, {self.read_at(node)})"
        if tag in ("space_attr", "space_prop"):
            table = self.fixed_props(res[1])
            if table:
                # a property every space that has it gives as a plain number or text: read it
                # from a table; any other space goes through space_attr as before
                src = (f"({table}[_s] if (_s := {self.sub(node.obj)}).__class__ is str and _s in {table} "
                       f"else space_attr(rt, _s, {res[1]!r}, env))")
            else:
                src = f"space_attr(rt, {self.sub(node.obj)}, {res[1]!r}, env)"
            # a property is checked at the top level: it reads no local of a rule from env
            return src
        if tag == "builtin":
            src = _BUILTIN_NAMES.get(res[1])
            return self.hoist(src) if src in _SEATS_READ else src
        sym = comp.sym
        if tag == "seat" and res[1] < sym.min_players:  # a seat every match has: never refused
            return repr(res[1])
        if tag == "dynamic_attr":  # space_attr's env: a space's property reads no rule's local
            return f"_dyn_attr(rt, {self.sub(node.obj)}, {res[1]!r}, env, {self.read_at(node)})"
        if tag == "builtin_fn" and res[1] == "top" and len(node.args) == 1:
            return f"_top(rt, {self.sub(node.args[0])})"
        if tag == "var":
            if sym.vars[res[1]].per == "seat":
                return self.get_var(res[1], self.hoist("env.get('$act')"))
            return self.get_var(res[1], None)
        if tag == "var_of":
            return self.get_var(res[1], self.var_key(res[1], 0, self.sub(node.of)))
        if tag == "value":
            decl = sym.values[res[1]]
            if type(decl.value) in (n.Number, n.String, n.Bool):
                return repr(decl.value.value)  # a value written as a literal is that literal
            cur, act = self.hoist("env.get('$cur')"), self.hoist("env.get('$act')")
            return f"_values[{res[1]!r}](rt, {{'$cur': {cur}, '$act': {act}}})"
        if tag in ("space", "defname", "token", "trackname"):
            return repr(res[1])
        if tag == "zone":
            decl = sym.zones.get(res[1])
            if decl is not None and decl.per == "seat":
                act = self.hoist("env.get('$act')")
                return f"({res[1] + '@'!r} + format({act}))"
            return repr(res[1])
        if tag == "zone_of":
            return f"({res[1] + '@'!r} + format({self.sub(node.of)}))"
        if tag == "track":
            return f"rt.state['tracks'][{res[1]!r}]['pos']"
        if tag in ("group", "space_kind"):  # a copy: the list is handed out as a value
            return f"list({self.const(self.fixed_names(res))})"
        if tag == "entity_kind":
            return f"rt.entities_of(kinds=_kind_tree[{res[1]!r}])"
        if tag == "pieces":
            name, by = res[1], res[2]
            kinds = f"_kind_tree[{name!r}]" if by == "kind" else "None"
            defname = repr(name) if by == "def" else "None"
            owner = self.sub(node.of) if node.of is not None else "None"
            place = self.sub(node.at) if node.at is not None else "None"
            return f"rt.entities_of({kinds}, {defname}, {owner}, {place})"
        if tag == "builtin_fn" and res[1] in ("size", "count") and len(node.args) == 1:
            return f"len({self.listed(node.args[0])})"
        if tag == "builtin_fn" and res[1] == "adjacent" and len(node.args) in (1, 2):
            if len(node.args) == 2:
                return f"adjacent(rt, {self.sub(node.args[0])}, as_list(rt, {self.sub(node.args[1])}))"
            return f"adjacent(rt, {self.sub(node.args[0])})"
        if tag == "builtin_fn" and res[1] == "step" and len(node.args) == 2:
            return f"grid_step(rt, {self.sub(node.args[0])}, {self.sub(node.args[1])}, 1)"
        if tag == "builtin_fn" and res[1] == "line" and len(node.args) == 3:
            return f"_line(rt, {self.sub(node.args[0])}, {self.sub(node.args[1])}, {self.sub(node.args[2])}, _rays)"
        if (tag == "builtin_fn" and res[1] == "first" and len(node.args) == 1
                and isinstance(node.args[0], n.Comprehension)):
            # first([e for x in L where C]) stops at the first x that passes C, as the list's
            # first element is that x's e; the list is charged in full all the same
            return self.aggregate(node.args[0], "first")
        if tag == "aggregate" and res[1] in _AGGREGATES:
            return self.aggregate(node.comp, res[1])
        if tag == "define":
            args = getattr(node, "args", ())
            info = self.define_info(res[1])
            info[3] = True
            self.callers.setdefault(res[1], set()).add(self.current)
            srcs = [self.sub(a) for a in args]
            for i, a in enumerate(args):
                if self.plain_key(a):
                    continue
                k = self.parameter(srcs[i])
                if k is None:
                    info[2].add(i)
                else:  # plain when every call of the calling define hands it plain (define_functions)
                    self.handed.setdefault((res[1], i), set()).add((self.current, k))
            if self.recording:  # the places a define indexed by an argument reads at are read here
                for i in self.comp.read_args(res[1]):
                    if i < len(srcs) and self.unseen(srcs[i]):
                        srcs[i] = self.seen(srcs[i])
            if (self.pre is not None and args and self.remembered_plainly(res[1], args)
                    and not (self.recording and res[1] in self.maybe_reading())):
                # in a loop: a value remembered already is read from the define's table, looked
                # up once before the loop; anything else goes through its function. A recording
                # body records the places its arguments name itself (above), which is all a
                # define not indexed by what it reads would hand on.
                table = self.hoist(f"_table(rt, {res[1]!r})")
                k = self.count = self.count + 1
                if len(args) == 1:
                    key, call = f"(_k{k} := {srcs[0]})", f"_k{k}"
                else:
                    key = f"(_k{k} := ({''.join(a + ', ' for a in srcs)}))"
                    call = ", ".join(f"_k{k}[{i}]" for i in range(len(srcs)))
                src = f"(_f{k} if (_f{k} := {table}.get({key}, _MISSING)) is not _MISSING else {info[0]}(rt, env, {call}))"
            else:
                src = f"{info[0]}(rt, env{''.join(f', {a}' for a in srcs)})"
            if self.pre is not None and self.looping and all(self.invariant(a) for a in srcs):
                # the same arguments at every turn of the loop: worked out at the first turn that
                # calls it, where it was, and kept for the others (nothing changes while an
                # expression runs, so the value would be the same)
                k = self.count = self.count + 1
                kept = self.pre.setdefault(f"_MISSING  # {src}", f"_h{k}")
                return f"({kept} if {kept} is not _MISSING else ({kept} := {src}))"
            return src
        return None

    def template(self, t: n.Template) -> str:
        """A text with holes: numbers and plain texts joined as they are, the rest displayed
        (the same fast paths as the closure's `render`)."""
        return self.text(self.template_parts(t))

    def template_parts(self, t: n.Template) -> list[str]:
        """The expressions of a template's parts, each a text, in order."""
        parts = []
        for p in t.parts:
            if isinstance(p, str):
                parts.append(repr(p))
                continue
            src = self.sub(p)
            typ = self.comp.c.types.get(id(p), "any")
            parts.append(self.shown("_v", typ, src))
        return parts

    @staticmethod
    def shown(v: str, typ: str, src: str | None = None) -> str:
        """display(rt, v, typ), with plain texts, numbers, seats and cards shown as display shows
        them without a call to it; with `src`, the local `v` is set to it where it is first read
        (the test that runs first), so no tuple is built to set it."""
        first = v if src is None else f"({v} := {src})"
        shown = f"display(rt, {v}, {typ!r})"
        if typ != "zone":
            shown = f"({v} if {v}.__class__ is str and '@' not in {v} else {shown})"
        if typ == "seat":
            shown = f"(rt.seat_name({v}) if {first}.__class__ is int else {shown})"
        elif typ.startswith("entity"):
            shown = f"(entity_label(rt, {v}) if {first}.__class__ is int else {shown})"
        else:
            shown = f"(str({v}) if {first}.__class__ is int else {shown})"
        return shown

    @staticmethod
    def text(parts: list[str], head: str | None = None) -> str:
        """A text joined from `parts` (after `head`, an expression already a text), refused past
        the language's limit as any text a rule builds."""
        joined = f"''.join([{', '.join(parts)}])"
        if head is not None:
            joined = f"{head} + {joined}"
        # text_in_range written out: called only to refuse a text past the limit
        return f"(_t if len(_t := {joined}) <= MAX_TEXT else text_in_range(_t, 'the text'))"

    def fixed_props(self, fname: str) -> str | None:
        """The name of a constant {space: value} for a property written as a literal, or for
        what space_attr reads from the space's declaration; None when there is none."""
        cache = self.__dict__.setdefault("_props", {})
        if fname not in cache and fname in ("name", "label", "kind", "parent"):
            table = {name: getattr(sp, fname) for name, sp in self.comp.sym.spaces.items()}
            if fname == "label":
                table = {name: label or name for name, label in table.items()}
            cache[fname] = self.const(table) if table else None
        if fname not in cache:
            table = {}
            for sp in self.comp.sym.spaces.values():
                for p in sp.props:  # the last one written is the one compiled
                    if p.name == fname and isinstance(p.value, (n.Number, n.String)):
                        table[sp.name] = p.value.value
                    elif p.name == fname:
                        table.pop(sp.name, None)
            cache[fname] = self.const(table) if table else None
        return cache[fname]

    def token_count(self, token: str, owner: str | bool, place: str) -> str:
        """rt.token_count(token, owner, place) for a token named in the rules and a place given,
        its common cases written out: a space's count read from the state, or from the index of
        totals when it is built; anything else (an entity as the place, none) calls it."""
        k = self.count = self.count + 1
        o, p = f"_o{k}", f"_p{k}x"  # names of their own: owner and place may hold token counts too
        if owner or self.comp.sym.tokens[token].per is None:
            tokens = self.hoist("rt.state['tokens']")
        if owner and owner in self.locals.values():  # a local: read as it is, nothing to keep aside
            o = owner
        elif owner and owner in (self.pre or {}).values():  # who acts or whose turn it is, kept in a local
            o = owner
        if o == owner:
            if self.pre is not None and owner not in self.varying:
                # a local of an enclosing scope cannot change in the loop: the key's start is made once
                head = f"{token}|".replace("{", "{{").replace("}", "}}")
                start = self.hoist(f"(f'{head}{{{o}}}|' if {o} is not None else None)")
                return (f"({tokens}.get({start} + {p}, 0) if ({p} := {place}).__class__ is str "
                        f"and {start} is not None else rt.token_count({token!r}, {o}, {p}))")
        call = f"rt.token_count({token!r}, {o if owner else 'None'}, {p})"
        if owner:
            head = f"{token}|".replace("{", "{{").replace("}", "}}")
            both = f"({p} := {place})" if o == owner else f"(({o} := {owner}), ({p} := {place}))[1]"
            return (f"({tokens}.get(f'{head}{{{o}}}|{{{p}}}', 0) "
                    f"if {both}.__class__ is str and {o} is not None else {call})")
        if self.comp.sym.tokens[token].per is None:  # no seat owns it: one count per place
            return (f"({tokens}.get({token + '||'!r} + {p}, 0) "
                    f"if ({p} := {place}).__class__ is str else {call})")
        return (f"(_ix.get(({token!r}, None, {p}), 0) "
                f"if ({p} := {place}).__class__ is str and (_ix := rt.tix) is not None else {call})")

    def var_key(self, name: str, index: int, key: str) -> str:
        """Source of the key `key` gives var `name` as part `index` of its `per`, checked to be
        one of a set of keys (`played of c.colour`) as ExpressionCompiler.key_of checks it."""
        keys = self.comp.sym.key_set(per_keys(self.comp.sym.vars[name].per)[index])
        return key if keys is None else f"_set_key({name!r}, {self.const(keys)}, {key})"

    def get_var(self, name: str, key: str | None) -> str:
        """rt.get_var(name, key); a var declared with no start, or whose start is a constant
        (`start 0`, `start starting_money` with `value starting_money = 3`), is read from the
        state at once, with the value VarSpec.initial gives it when the state has none."""
        decl = self.comp.sym.vars[name]
        unset = unset_value(decl.kind) if decl.start is None else self.constant(decl.start)
        if unset is _MISSING:  # a start that names a value written as a number, a text, yes or no
            res = self.comp.c.res.get(id(decl.start))
            if res is not None and res[0] == "value":
                unset = self.constant(self.comp.sym.values[res[1]].value)
        if unset is _MISSING or unset.__class__ is list:  # a start to work out (VarSpec.initial)
            return f"rt.get_var({name!r}, {key})" if key is not None else f"rt.get_var({name!r})"
        if key is None:
            return f"rt.state['vars'].get({name!r}, {unset!r})"
        k = self.count = self.count + 1
        at = f"{name}@".replace("{", "{{").replace("}", "}}")
        return f"rt.state['vars'].get({name!r} if (_k{k} := {key}) is None else f'{at}{{_k{k}}}', {unset!r})"

    def literal_fields(self, fname: str) -> str | None:
        """The name of a constant {card or piece name: value} of a property the card or piece
        writes as a literal, or its kind gives as a literal default or no default (none), as
        Game.static_field reads them; None when there is none. Read only when the entity has
        not set the property in the state."""
        cache = self.__dict__.setdefault("_fields", {})
        if fname in cache:
            return cache[fname]
        entities = self.__dict__.get("_entity_fields")
        if entities is None:  # each entity's properties (the last one written wins) and its kind's fields
            sym = self.comp.sym
            kinds = {k: sym.fields_of(k) for k in sym.kinds}
            entities = self._entity_fields = [
                (name, {p.name: p.value for p in decl.props}, kinds.get(decl.kind, {}))
                for name, decl in sym.entities.items()]
        table = {}
        literal = (n.Number, n.String, n.Bool)
        for name, written, fields in entities:
            value = written.get(fname)
            if value is not None:
                if isinstance(value, literal):
                    table[name] = value.value
            elif fname in fields:  # static_field reads the kind's default
                default = fields[fname][1]
                if default is None:
                    table[name] = None
                elif isinstance(default, literal):
                    table[name] = default.value
        if fname == "copies":  # never a property read from the entity (see Compiler._compile)
            table = {}
        cache[fname] = self.const(table) if table else None
        return cache[fname]

    def test(self, node) -> str:
        """Source for a condition, read only for its truth: `and`, `or` and `not` as Python's,
        which test each side's truth as bool() does, in the same order, stopping as early."""
        if isinstance(node, n.BinOp) and node.op in ("and", "or"):
            return f"({self.test(node.left)} {node.op} {self.test(node.right)})"
        if isinstance(node, n.Not):
            return f"(not {self.test(node.operand)})"
        return self.sub(node)

    def sub(self, node) -> str:
        """Source for a sub-expression: generated, or a call of its closure."""
        src = self.gen(node)
        if src is not None:
            return src
        self.env_passed = True
        self.fallbacks += 1
        return f"{self.const(self.comp.closure(node))}(rt, env)"

    def binop(self, node) -> str:
        op = node.op
        if op in ("in", "not in"):
            a = self.sub(node.left)
            return f"({a} {op} {self.members(node.right)})"
        a, b = self.sub(node.left), self.sub(node.right)
        if op == "and":
            return f"(bool({a}) and bool({b}))"
        if op == "or":
            return f"(bool({a}) or bool({b}))"
        if op == "+":
            if self.is_int(node.left) and self.is_int(node.right):  # _add's sum of two numbers
                return f"in_range({a} + {b}, 'the sum')"
            if self.is_list(node.left) and self.is_list(node.right):  # _add's two lists joined
                return f"({a} + {b})"
            return f"_add({a}, {b})"
        left, right = repr(f"left of '{op}'"), repr(f"right of '{op}'")

        def num(src, node, what):
            # a value that is a number whatever the state holds needs no check
            return src if self.is_int(node) else f"as_int({src}, {what})"
        x, y = num(a, node.left, left), num(b, node.right, right)
        if op == "-":
            return f"in_range({x} - {y}, 'the difference')"
        if op == "*":
            return f"in_range({x} * {y}, 'the product')"
        if op in ("/", "%"):
            return f"_div({x}, {y}, {op!r})"
        if op in ("==", "!="):
            return f"({a} {op} {b})"
        if op in ("<", "<=", ">", ">="):
            return f"({x} {op} {y})"
        raise AssertionError(op)

    def members(self, node) -> str:
        """Source for the right of `in`: what as_list makes of it. A group or a board kind is
        the same list in every match, so it is read as a constant tuple, which `in` tests as it
        tests the list, without the copy that handing the list out as a value needs."""
        res = self.comp.c.res.get(id(node))
        if res is not None and res[0] in ("group", "space_kind"):
            return self.const(self.fixed_names(res))
        return self.as_listed(self.sub(node), node)

    def fixed_names(self, res) -> tuple:
        """The names a group or a board kind (`res`, its resolution) lists, the same in every match."""
        sym = self.comp.sym
        return tuple(sym.groups[res[1]].members if res[0] == "group" else sym.space_kinds[res[1]])

    def aggregate(self, comp: n.Comprehension, agg: str) -> str:
        """An aggregate as its own generated function: the same loop as the closure's. The
        locals held in Python locals where it is called are handed to it as arguments; its own
        variable is the Python local `x<k>`, and is set in env (saved and restored around the
        loop, as the closure does) only when its test or element hands env on."""
        outer = self.locals
        passed = self.env_passed
        self.env_passed = False
        name = self._name("a")
        xv = f"x{self.count}"
        outer_pre = self.pre, self.varying, self.ents, self.fixed_locals, self.looping
        self.pre, self.varying, self.ents, self.fixed_locals = {}, (xv,), None, frozenset(outer.values())
        res = self.comp.c.res.get(id(comp.source))
        nested = res is not None and res[0] == "value" and agg not in ("most", "least", "sorted") and self.only_looped(comp)
        self.looping = False  # its list is made once a call
        src = self.listed(comp.source, nested)
        self.looping = True
        cond_node, grouped = comp.cond, None
        if res is not None and res[0] == "space_kind" and comp.cond is not None:
            grouped = self.grouped(comp, list(self.comp.sym.space_kinds[res[1]]))
            if grouped is not None:
                cond_node = grouped[2]
        self.locals = {**outer, comp.var: xv}
        if self.plain_list(src):
            self.plain_vars.add(xv)
        inner = self.env_passed
        self.env_passed = False
        # a loop that reads tokens at each of its elements in turn, to its end, records its list
        # once (seen_all) rather than each read
        whole = self.recording and agg not in ("any", "all", "first") and self.reads_each(comp)
        seen_vars = self.seen_vars
        if whole:
            self.seen_vars = seen_vars | {xv}
        try:
            cond = self.test(cond_node) if cond_node is not None else None
            simple = isinstance(comp.elem, n.Name) and comp.elem.name == comp.var
            inline = None
            if agg in ("any", "all"):
                inline = self.quantifier_inline(comp.elem)
                elem = self.test(comp.elem) if inline is None else None
            else:
                elem = xv if agg == "list" and simple else self.sub(comp.elem)
            pre = "".join(f"    {name} = {value}\n" for value, name in self.pre.items())
        finally:
            self.pre, self.varying, self.ents, self.fixed_locals, self.looping = outer_pre
            self.seen_vars = seen_vars
        in_env = self.env_passed
        self.locals = outer
        self.env_passed = passed or inner or in_env
        test = f"if {cond}:" if cond is not None else "if True:"
        summed = elem if self.is_int(comp.elem) else f"as_int({elem}, 'summed value')"
        body = {
            "list": ("out = []", f"out.append({elem})", "return out"),
            "count": ("acc = 0", "acc += 1", "return acc"),
            "sum": ("acc = 0", f"acc += {summed}", "return acc"),
            "any": ("pass", f"if {elem}:\n    return True", "return False"),
            "all": ("pass", f"if not {elem}:\n    return False", "return True"),
            "first": ("pass", f"return {elem}", "return None"),
            "max": ("values = []", f"values.append({elem})", "return _extreme(max, values, 'max')"),
            "min": ("values = []", f"values.append({elem})", "return _extreme(min, values, 'min')"),
            "most": ("pairs = []", f"pairs.append(({xv}, {elem}))", "return _best(pairs, max, 'most')"),
            "least": ("pairs = []", f"pairs.append(({xv}, {elem}))", "return _best(pairs, min, 'least')"),
            "sorted": ("pairs = []", f"pairs.append(({xv}, as_order({elem}, 'sorted value')))", "return _ordered(pairs)"),
        }[agg]
        if agg in ("any", "all") and inline is not None:  # its element a loop written in
            lines, found = inline
            body = ("pass", f"{lines}\nif {'' if agg == 'any' else 'not '}{found}:\n    return {agg == 'any'}", body[2])
        start, step, end = body
        # an expression is one line of source (texts are written with repr), so a newline in
        # `step` is one of the two above, before a line to indent like the first
        params = "".join(f", {v}" for v in outer.values())
        charged = _charged("items", src)
        if grouped is not None:  # charged for the whole list, as the closure's loop is
            charged.append(f"items = _group({self.const(grouped[0])}, {grouped[1]})")
        if whole:
            charged.append("_seen_all(rt, items)")
        head = f"def {name}(rt, env{params}):\n{pre}" + "".join(f"    {line}\n" for line in charged)
        if agg == "count" and cond is None:
            self.lines.append(head + "    return len(items)\n")
        elif not in_env:
            i = " " * 12
            lines = step.replace("\n", "\n" + i)
            self.lines.append(
                head
                + f"    {start}\n"
                f"    for {xv} in items:\n"
                f"        {test}\n"
                f"{i}{lines}\n"
                f"    {end}\n")
        else:
            i = " " * 16
            lines = step.replace("\n", "\n" + i)
            var = repr(comp.var)
            self.lines.append(
                head
                + f"    saved = env.get({var}, _MISSING)\n"
                f"    {start}\n"
                f"    try:\n"
                f"        for {xv} in items:\n"
                f"            env[{var}] = {xv}\n"
                f"            {test}\n"
                f"{i}{lines}\n"
                f"    finally:\n"
                f"        if saved is _MISSING:\n"
                f"            env.pop({var}, None)\n"
                f"        else:\n"
                f"            env[{var}] = saved\n"
                f"    {end}\n")
        return f"{name}(rt, env{params})"

    def quantifier_inline(self, node) -> tuple[str, str] | None:
        """`any(...)` or `all(...)` as the element of an enclosing any or all (Connect Four's
        `any(all(Disc of s at c > 0 for c in l) for l in lines)`): its loop written out in the
        enclosing one's, as (lines, the local holding its value), instead of a function called
        once an element. The same steps in the same order as its function: the list, its
        charge, the loop that stops at the first element that decides. None when it reads env
        (then it is a function, which keeps env as the closure does)."""
        res = self.comp.c.res.get(id(node))
        if res is None or res[0] != "aggregate" or res[1] not in ("any", "all") or self.pre is None:
            return None
        comp, every = node.comp, res[1] == "all"
        passed, saved = self.env_passed, (self.locals, self.varying, self.ents)
        self.env_passed = False
        k = self.count = self.count + 1
        xv, items, found = f"x{k}", f"_items{k}", f"_q{k}"
        self.varying, self.ents = (*self.varying, xv), None
        try:
            src_res = self.comp.c.res.get(id(comp.source))
            nested = src_res is not None and src_res[0] == "value" and self.only_looped(comp)
            src = self.listed(comp.source, nested)
            self.locals = {**self.locals, comp.var: xv}
            if self.plain_list(src):
                self.plain_vars.add(xv)
            cond = self.test(comp.cond) if comp.cond is not None else None
            elem = self.test(comp.elem)
        finally:
            self.locals, self.varying, self.ents = saved
        used_env, self.env_passed = self.env_passed, passed
        if used_env:
            return None
        lines = [*_charged(items, src),
                 f"{found} = {every}",
                 f"for {xv} in {items}:",
                 f"    if {cond}:" if cond is not None else "    if True:",
                 f"        if {'not ' if every else ''}{elem}:",
                 f"            {found} = {not every}",
                 "            break"]
        return "\n".join(lines), found

    def listed(self, node, nested: bool = False) -> str:
        """Source for a list to loop over or measure, never changed nor handed on: as_list of the
        value, as the closures do; a group or the spaces of a kind is read without a copy, and
        so is a value written as a list of constants (`value columns = [1, 2, 3]`), built anew
        by its function each time it is read. A list of such lists only when `nested`: its
        lists are then the loop's elements, which must be looped over or measured too."""
        res = self.comp.c.res.get(id(node))
        if res is not None and res[0] == "value":
            found = self.__dict__.setdefault("_constants", {}).get(res[1])
            if found is None:  # (its name, whether it is a list of lists) or (None, None)
                value = self.constant(self.comp.sym.values[res[1]].value)
                found = (None, None)
                if value.__class__ is list and all(v.__class__ is not list for v in value):
                    found = (self.const(value), False)
                elif value.__class__ is list and all(
                        v.__class__ is list and all(w.__class__ is not list for w in v) for v in value):
                    found = (self.const(value), True)
                self._constants[res[1]] = found
            if found[0] is not None and (nested or not found[1]):
                return found[0]
        if res is not None and res[0] == "group":
            return self.const(list(self.comp.sym.groups[res[1]].members))
        if res is not None and res[0] == "space_kind":
            return self.const(list(self.comp.sym.space_kinds[res[1]]))
        if res is not None and res[0] == "builtin" and res[1] == "seats":
            return "range(rt.state['nseats'])"
        return self.as_listed(self.sub(node), node)

    def constant(self, node):
        """The value of an expression that is the same in every match and can never fail (a
        number, a text, true, false, none, a space's name, a list of these), else _MISSING."""
        if isinstance(node, (n.Number, n.String, n.Bool)):
            return node.value
        if isinstance(node, n.NoneLit):
            return None
        if isinstance(node, n.ListLit):
            items = [self.constant(i) for i in node.items]
            return _MISSING if any(i is _MISSING for i in items) else items
        res = self.comp.c.res.get(id(node))
        if res is not None and res[0] == "space":
            return res[1]
        return _MISSING

    def only_looped(self, comp: n.Comprehension) -> bool:
        """Whether a comprehension's variable is only the list another comprehension loops over,
        or what size() or count() measures: then a list it holds is never handed on."""
        var = comp.var
        allowed: set = set()
        uses: list = []
        for x in n.each_node([comp.cond, comp.elem]):
            if isinstance(x, n.Comprehension):
                allowed.add(id(x.source))
            res = self.comp.c.res.get(id(x))
            if res is not None and res[0] == "builtin_fn" and res[1] in ("size", "count") and len(x.args) == 1:
                allowed.add(id(x.args[0]))
            if isinstance(x, n.Name) and res == ("local", var):
                uses.append(id(x))
        return all(u in allowed for u in uses)

    def plain_list(self, src: str) -> bool:
        """Whether `src`, a list to loop over as `listed` wrote it, is a constant whose elements
        are all numbers (never true or false) or texts: a loop over it holds no bool nor list."""
        value = self.ns.get(src) if src.isidentifier() else None
        return value.__class__ is list and all(v.__class__ is int or v.__class__ is str for v in value)

    def as_listed(self, src: str, node) -> str:
        """as_list(rt, src), with a list handed back as it is without a call."""
        if self.is_list(node):
            return src
        if src.isidentifier():
            return f"({src} if {src}.__class__ is list else as_list(rt, {src}))"
        k = self.count = self.count + 1
        return f"(_l{k} if (_l{k} := {src}).__class__ is list else as_list(rt, _l{k}))"

    def hoist(self, value: str) -> str:
        """The name of a local set to `value` before the loop of the aggregate being generated,
        or `value` itself outside one. Only for a value that cannot fail nor change while the
        loop runs (the state's tables, a text made from a local of an enclosing scope): an empty
        loop may compute it for nothing, and nothing else can tell."""
        if self.pre is None:
            return value
        name = self.pre.get(value)
        if name is None:
            k = self.count = self.count + 1
            name = self.pre[value] = f"_h{k}"
        return name

    def is_list(self, node) -> bool:
        """Whether the generated value of `node` is a list whatever the state holds, so as_list
        would hand it back as it is: a list written out, a comprehension, a list of names."""
        if isinstance(node, (n.ListLit, n.Comprehension)):
            return True
        if isinstance(node, n.BinOp):
            return node.op == "+" and self.is_list(node.left) and self.is_list(node.right)
        if isinstance(node, n.CondExpr):
            return self.is_list(node.then) and self.is_list(node.other)
        res = self.comp.c.res.get(id(node))
        if res is None:
            return False
        if res[0] == "define":  # its value is its body's; a define that reaches itself counts as no list
            seen = self.__dict__.setdefault("_list_defines", {})
            if res[1] not in seen:
                seen[res[1]] = False
                seen[res[1]] = self.is_list(self.comp.sym.defines[res[1]].value)
            return seen[res[1]]
        if res[0] == "builtin":
            return res[1] in ("seats", "spaces")
        if res[0] == "builtin_fn" and res[1] in ("line", "adjacent"):  # as generated above
            return len(node.args) in ((3,) if res[1] == "line" else (1, 2))
        return res[0] in ("group", "space_kind", "entity_kind", "pieces")

    def is_int(self, node) -> bool:
        """Whether the generated value of `node` is a number (an int, never a bool) whatever the
        state holds, so as_int would hand it back as it is."""
        if type(node) is n.Number:
            return type(node.value) is int
        if isinstance(node, n.Neg):
            return True
        if isinstance(node, n.BinOp):
            if node.op == "+":
                return self.is_int(node.left) and self.is_int(node.right)
            return node.op in ("-", "*", "/", "%")
        if isinstance(node, n.CondExpr):
            return self.is_int(node.then) and self.is_int(node.other)
        res = self.comp.c.res.get(id(node))
        if res is None:
            return False
        if res[0] == "tokens":
            return True  # a count kept in the state, or 0
        if res[0] == "value":  # a value written as a number
            v = self.comp.sym.values[res[1]].value
            return type(v) is n.Number and type(v.value) is int
        if res[0] == "builtin":
            return res[1] == "players"
        if res[0] == "builtin_fn":
            return res[1] in ("size", "count") and len(node.args) == 1
        if res[0] == "aggregate":
            return res[1] in ("count", "sum")
        return False


# what SourceGen.invariant reads in an argument's source: its names (not attributes), once its
# texts are blanked; an f-string, whose text may name locals, is never invariant
_NAME = re.compile(r"(?<![\w.'])[A-Za-z_]\w*")
_TEXT = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"")
_FSTRING = re.compile(r"(?<!\w)[fF][rR]?['\"]")
_GENERATED = re.compile(r"[db]\d+")  # a define's lookup and body, generated in the same module
_KNOWN_NAMES = frozenset({"rt", "None", "True", "False", "if", "else", "is", "not", "and", "or", "in",
                          "len", "str", "int", "bool", "list", "format", "isinstance", "max", "min"})

_SEATS_READ = ("env.get('$cur')", "env.get('$act')")  # never changed while a listing or an aggregate runs

_BUILTIN_NAMES = {  # the builtin names of expressions.py's _BUILTIN_NAMES that read the env or state
    "current": "env.get('$cur')",
    "actor": "env.get('$act')",
    "seats": "list(range(rt.state['nseats']))",
    "players": "rt.state['nseats']",
    "spaces": "list(rt.game.spaces)",
    **{d: repr(d) for d in ("north", "south", "east", "west", "northeast", "northwest", "southeast", "southwest")},
}


def _line(rt, start, direction, length, rays):
    """line(start, direction, length) as the builtin's closure computes it: from a cell in a
    direction, the start of `rays` {(cell, direction): the cells from it to the board's edge},
    the game's grid worked out at load; anything else steps as the closure does, to its error."""
    size = length if length.__class__ is int and 0 <= length <= MAX_LIST else as_size(length, "length of the line")
    if start.__class__ is str and direction.__class__ is str:
        ray = rays.get((start, direction))
        if ray is not None:
            return ray[:size]
    return walk_line(rt, start, direction, size)


def grid_rays(grid: dict, grid_at: dict) -> dict:
    """{(cell, direction): [cell, the next, ... the last before the edge]} of a grid board."""
    rays = {}
    for cell, (col, row) in grid.items():
        for d, (dx, dy) in DIRECTIONS.items():
            ray, here, k = [], cell, 0
            while here is not None:
                ray.append(here)
                k += 1
                here = grid_at.get((col + dx * k, row + dy * k))
            rays[(cell, d)] = ray  # never handed out: _line hands out a slice, a new list
    return rays


def _best(pairs, pick, agg):
    """most(...) and least(...): each element whose value is the highest (or lowest) of all."""
    if not pairs:
        return []
    top = pick_extreme(pick, [v for _, v in pairs], agg)
    return [x for x, v in pairs if v == top]


HELPERS.update(_extreme=pick_extreme, _best=_best, _ordered=ordered, _line=_line, grid_step=grid_step)


# ── the cache of compiled modules ──


def _cached_compile(source: str):
    """The module's code object: the cached one when this source was compiled before. The key is
    a hash of the generated source itself and of the Python version, which is all a code object
    depends on: a change in the game files or in ludus that changes the source changes the key."""
    key = hashlib.sha256(f"{CACHE_FORMAT}\0{sys.version}\0{source}".encode()).hexdigest()[:32]
    code = _LOADED.get(key)
    if code is not None:
        return code
    code = _disk_compile(key, source)
    if len(_LOADED) >= 16:  # a REPL that reloads a game as it is edited keeps only the recent ones
        del _LOADED[next(iter(_LOADED))]
    _LOADED[key] = code
    return code


_LOADED: dict = {}  # key -> code object, for games loaded again in the same process


def _disk_compile(key: str, source: str):
    """The module's code object, from the disk cache (ludus/language/cache.py) when a file there
    holds it whole, else compiled and written there for the next process."""
    data = cache.read("pysource", key)
    if data is not None:
        with contextlib.suppress(ValueError, EOFError, TypeError):
            code = marshal.loads(data)
            if isinstance(code, types.CodeType):
                return code
    code = compile(source, "<ludus generated expressions>", "exec")
    cache.write("pysource", key, marshal.dumps(code))
    return code
