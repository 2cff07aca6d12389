"""Pass 1 collects every declaration into the symbol tables; pass 2 checks each one."""

from __future__ import annotations

import functools
import re
import unicodedata

import attrs

from .. import nodes as n
from ..discover import starts_game
from ..forcing import order_card_faults, order_zone_fault
from ..limits import MAX_COPIES, MAX_PLAYERS, MAX_TRACK_SPACES, number_in_range, player_range
from ..snapshot_names import (
    EXTENSION,
    LEFT_OUT,
    MAX_FILE_BYTES,
    MAX_STEM,
    clashes,
    code_points,
    is_game_read,
    refusals,
    written_apart,
)
from ..source import Span, Suggestion, declared_at, suggest
from ..symbols import (
    BUILTIN_FUNCTIONS,
    HIDDEN,
    SEAT_WORDS,
    KindInfo,
    a_type,
    article,
    compatible,
    elem_type,
    is_family,
    listlike,
    per_keys,
    plural,
    singular_guess,
    type_name,
)
from .base import BASIC_TYPES, Checked, Scope, _agree, _always_ends, _children

# the code of the error for a file checked alone that declares things, but has neither a `game`
# or `extends` line nor a flow: a part of a game (pipeline.analyse says where the games are that
# could include it)
PART_ALONE = "part-alone"

_HOLE = re.compile(r"(\{.*?\})")  # a hole of a quoted text as written in the source (split keeps it)
_WORDY = re.compile(r"\w")  # a letter or digit: a text's literal part that says something of a label
# `test "name":` up to the end of its quoted name
_TEST_NAME = re.compile(r'test[ \t]+("(?:[^"\\\n]|\\.)*")')


def _shown(name: str, width: int = 60) -> str:
    """A test's or a file's name in a message: control characters escaped, a long one shortened."""
    name = "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii") for c in name)
    # both ends: long names that clash often differ only after the cut
    half = (width - 1) // 2
    return name if len(name) <= width else name[:half] + "…" + name[-half:]


def _apart_hint(file: str, other_file: str) -> str:
    """Why two file names that look the same are one file: they write a letter differently."""
    apart = written_apart(file, other_file)
    if apart is None:
        what = "their accented letters"
    else:
        a, b = apart
        what = f"'{unicodedata.normalize('NFC', a)}': as {code_points(a)} in this one, as {code_points(b)} in the other"
    return ("the two file names look the same, and differ only in how Unicode writes " + what
            + "; macOS takes them for one file name")


class DeclarationChecks:
    """Collecting and checking declarations: components, actions, triggers, tests; unused names."""

    # ── pass 1: collect declarations ──

    def collect(self) -> None:
        sym = self.sym
        seen: dict[str, Span] = {}
        sort_of: dict[str, str] = {}  # what each name was declared as: 'a card', 'a stack of board stacks'

        def claim(name: str, span: Span, sort: str, at: Span | None = None) -> bool:
            """Take a name for one declaration. A name declared twice is an error at the second
            (at `at`, else at the name in `span`); where the two are of different sorts (a card
            named as a space is), the error says what the first is, since the reader of the
            second line cannot see that it clashes."""
            if name in seen:
                first = sort_of.get(name, sort)
                at = at or self.at(span, name)
                if first == sort:
                    self.error(f"'{name}' is already declared {declared_at(seen[name], span)}", at)
                else:
                    self.error(f"'{name}' is already declared {declared_at(seen[name], span)}, as {first}",
                               at,
                               "cards, pieces, spaces, kinds and every other declaration share one set of names: "
                               "rename one of the two")
                return False
            seen[name] = span
            sort_of[name] = sort
            return True

        for item in self.items:
            if isinstance(item, n.GameDecl):
                sym.title = item.title
            elif isinstance(item, n.PlayersDecl):
                if item.low < 1 or item.high < item.low:
                    self.error(f"player count {item.low} to {item.high} is not a range of at least one seat", item.span)
                elif item.high > MAX_PLAYERS:
                    self.error(f"a game has at most {MAX_PLAYERS} players, not {item.high:,}", item.span)
                # checked on with a count in bounds: seat names are made per player
                sym.min_players, sym.max_players = min(item.low, MAX_PLAYERS), min(item.high, MAX_PLAYERS)
            elif isinstance(item, n.SidesDecl):
                sym.sides = item.names
                for name in item.names:
                    claim(name, item.span, "a side")
            elif isinstance(item, n.SeatsDecl):
                sym.seat_names = item.names
                for name in item.names:
                    claim(name, item.span, "a seat")
            elif isinstance(item, n.ValueDecl):
                if claim(item.name, item.span, "a value"):
                    sym.values[item.name] = item
            elif isinstance(item, n.VarDecl):
                self.repeated_options(item, item.kind)
                if claim(item.name, item.span, f"a {item.kind}"):
                    sym.vars[item.name] = item
            elif isinstance(item, n.ZoneDecl):
                self.repeated_options(item, "zone")
                if claim(item.name, item.span, "a zone"):
                    sym.zones[item.name] = item
            elif isinstance(item, n.TokenDecl):
                for name in item.names:
                    if claim(name, item.span, "a token"):
                        sym.tokens[name] = item
            elif isinstance(item, n.GroupDecl):
                if claim(item.name, item.span, "a group"):
                    sym.groups[item.name] = item
            elif isinstance(item, n.KindDecl):
                if claim(item.name, item.span, "a kind"):
                    sym.kinds[item.name] = KindInfo(item.name, item.parent, decl=item)
            elif isinstance(item, n.EntityDecl):
                # a card of a run (`card "{n}" for n in 1 to 5`) is pointed at by the run's
                # quoted name, which made it: its own name is written nowhere, and looked for on
                # the line it would be found in the run's numbers (`1` of `1 to 5`)
                at = item.origin[0].run.name.span if item.origin is not None else self.at(item.span, item.name)
                if item.name in sym.entities:
                    self.error(f"{item.word} '{item.name}' is already declared {declared_at(sym.entities[item.name].span, item.span)}",
                               at)
                    continue
                if item.name.isidentifier():
                    claim(item.name, item.span, f"a {item.word}", at)
                sym.entities[item.name] = item
                if item.name.lower() == HIDDEN:
                    # a card so named would read, in a seat's view, as the cards that seat may not
                    # see: `wounds` kept per card could show it and them under one key, one
                    # hiding the other, and a var holding it would seem to hold a hidden card
                    self.error(f"a {item.word} may not be named '{item.name}': a seat's view writes "
                               f"'{HIDDEN}' for the cards and pieces it may not see, so this {item.word} would read as one of them",
                               self.at(item.span, item.name), "give it another name")
            elif isinstance(item, n.BoardDecl):
                sym.boards[item.name] = item
                if item.grid is not None and not self.claim_grid(item, seen):
                    continue
                for sp in item.spaces:
                    if item.grid is not None and sp.name in seen:
                        continue  # reported once, by claim_grid
                    if claim(sp.name, sp.span, f"{article(sp.kind)} of board '{item.name}'"):
                        sym.spaces[sp.name] = sp
                        sym.space_kinds.setdefault(sp.kind, []).append(sp.name)
            elif isinstance(item, n.TrackDecl):
                if claim(item.name, item.span, "a track"):
                    sym.tracks[item.name] = item
            elif isinstance(item, n.DefineDecl):
                if claim(item.name, item.span, "a define"):
                    sym.defines[item.name] = item
            elif isinstance(item, n.RuleDecl):
                if claim(item.name, item.span, "a rule"):
                    sym.rules[item.name] = item
            elif isinstance(item, n.ActionDecl):
                if item.name in sym.actions:
                    self.error(f"action '{item.name}' is already declared {declared_at(sym.actions[item.name].span, item.span)}",
                               self.at(item.span, item.name))
                sym.actions[item.name] = item
            elif isinstance(item, n.SetupDecl):
                sym.setup = item
            elif isinstance(item, n.FlowDecl):
                sym.flow = item
            elif isinstance(item, n.PayoffDecl):
                sym.payoff = item
            elif isinstance(item, n.WhenDecl):
                sym.whens.append(item)
            elif isinstance(item, n.AnytimeDecl):
                sym.anytimes.append(item)
            elif isinstance(item, n.WhenBecomes):
                sym.becomes.append(item)
            elif isinstance(item, n.TestDecl):
                sym.tests.append(item)
        for name in ("box", "removed"):
            if name not in sym.zones:
                sym.zones[name] = n.ZoneDecl(name, None, "public", None, False)
                self.used.add(("zone", name))
        # plural aliases for collections: regions, Characters, ...
        for kind in list(sym.space_kinds) + list(sym.kinds):
            alias = plural(kind)
            if alias not in seen and alias not in sym.plurals:
                sym.plurals[alias] = kind
        for e in sym.entities.values():
            for h in e.handlers:
                sym.handlers.add(h.name)
        if sym.sides and len(sym.sides) != sym.min_players:
            if any(isinstance(i, n.PlayersDecl) for i in self.items):
                if not (sym.min_players == sym.max_players == len(sym.sides)):
                    decl = next(i for i in self.items if isinstance(i, n.PlayersDecl))
                    self.error(f"{len(sym.sides)} sides are declared, so the game has {len(sym.sides)} players", decl.span)
            sym.min_players = sym.max_players = len(sym.sides)
        if sym.seat_names and len(sym.seat_names) < sym.max_players:
            decl = next(i for i in self.items if isinstance(i, n.SeatsDecl))
            self.error(f"{len(sym.seat_names)} seat names for up to {sym.max_players} players", decl.span)

    # ── pass 2: check ──

    def run(self) -> Checked:
        self.collect()
        sym = self.sym
        for info in sym.kinds.values():
            decl = info.decl
            if decl.parent and decl.parent not in sym.kinds:
                self.error(f"unknown kind '{decl.parent}'", self.at(decl.span, decl.parent), suggest(decl.parent, sym.kinds))
            for f in decl.fields:
                t = self.type_ref(f.type)
                info.fields[f.name] = (t, f.default)
                if f.default is not None:
                    self.expr(f.default, Scope())
        self.check_kind_parents()
        self.infer_define_types()
        self.infer_untyped()
        for index, item in enumerate(self.items):
            if not self.replay(index):
                self.check_item(item)
        self.check_value_cycles()
        self.check_snapshot_files()
        if sym.flow is None:
            self.report_no_flow()
        self.report_unused()
        self.report_passes_never_in_an_alternate()
        self.out.define_types, self.out.value_types = dict(self.define_types), dict(self.value_types)
        return self.out

    def check_kind_parents(self) -> None:
        """A kind that `is` another: its chain of parents may not lead back to it, and a
        property it declares again keeps the type its parent gives it. It may add a default
        (`kind Club is Card` with `suit: text = "clubs"`), so that a rule reading `c.suit` of any
        Card reads a text, whichever kind of Card it is."""
        sym = self.sym
        reported: set = set()
        for info in sym.kinds.values():
            decl = info.decl
            if not decl.parent or decl.parent not in sym.kinds:
                continue
            chain, kind = [info.name], decl.parent
            while kind in sym.kinds and kind not in chain:
                chain.append(kind)
                kind = sym.kinds[kind].parent
            if kind == info.name:
                if info.name not in reported:
                    reported.update(chain)
                    self.error(f"kind '{info.name}' is a kind of itself: {' is '.join(chain + [info.name])}",
                               self.at(decl.span, decl.parent))
                continue
            for f in decl.fields:
                inherited = sym.fields_of(decl.parent).get(f.name)
                if inherited is None or inherited[0] == info.fields[f.name][0]:
                    continue
                owner = next(k for k in chain[1:] if f.name in sym.kinds[k].fields)
                self.error(f"'{f.name}' is {a_type(inherited[0])} in kind '{owner}', so kind '{info.name}' "
                           f"cannot make it {a_type(info.fields[f.name][0])}",
                           self.at(f.span, f.name),
                           hint=f"a kind may give its parent's property a default: "
                                f"'{f.name}: {type_name(inherited[0])} = ...'")

    def report_no_flow(self) -> None:
        """A game-wide error has no line of its own: it goes in the file the user checked (the
        first read), at its first declaration, as the user starts reading there; a base or an
        included file may be shared by several games, so it is not blamed. A file with nothing
        in it is said to be empty, as that is the mistake (a wrong path, an unsaved editor)."""
        texts = self.sources.texts if self.sources is not None else {}
        root = next(iter(texts), None)
        if root is None:  # checked without its sources: no file to name
            span = self.items[0].span if self.items else Span("<game>", 1, 1, 1, 1)
        else:
            span = next((i.span for i in self.items if i.span.path == root), Span(root, 1, 1, 1, 1))
        if root is not None and not self.items and not texts[root].strip():
            self.error("the file is empty: a game needs at least a 'flow:' block", span)
        elif root is not None and not starts_game(texts[root]) and any(i.span.path == root for i in self.items):
            # "the game has no flow" read as if the file were a game that lost its flow
            self.error("this file has no `game` or `extends` line and no 'flow:' block: it is a part of a game, "
                       "checked through the game that includes it", span, code=PART_ALONE)
        else:
            self.error("the game has no 'flow:' block, so a match cannot start", span)

    def claim_grid(self, board: n.BoardDecl, seen: dict) -> bool:
        """A grid's cells are named for it (a1, b1, ...), so one mistake would clash on many
        cells: a second grid is one error at it, and its cells are left out (False); names
        declared already that the grid's cells take are one error at the grid, and only the
        cells whose names are free are declared (True)."""
        first = next((b for b in self.sym.boards.values() if b.grid is not None and b is not board), None)
        if first is not None:
            self.error(f"board '{board.name}' is a second grid: a game has one grid board, whose cells are "
                       f"named a1, b1, ... (board '{first.name}' is one, {declared_at(first.span, board.span)})",
                       self.at(board.span, board.name))
            return False
        taken = [sp.name for sp in board.spaces if sp.name in seen]
        if taken:
            where = declared_at(seen[taken[0]], board.span)
            names = ", ".join(f"'{t}'" for t in taken[:3]) + (f" and {len(taken) - 3} more" if len(taken) > 3 else "")
            self.error(f"grid '{board.name}' names its cells a1 to {board.spaces[-1].name}, and {names} "
                       f"{'is' if len(taken) == 1 else 'are'} already declared (the first {where})",
                       self.at(board.span, board.name))
        return True

    def check_value_cycles(self) -> None:
        """A value that names itself, directly, through other values or through defines, has no
        number to be: an error at the value (the first declared, where several are caught in one
        knot), with a shortest way round spelled out. A define calling itself is recursion, which
        its arguments may end, and is no error; a value has no arguments, so once the defines it
        reads lead back to it, nothing can end the reading (at run time it would only recurse
        until the define-recursion limit stopped it, far from here)."""
        sym, res = self.sym, self.out.res
        bodies = {("value", name): decl.value for name, decl in sym.values.items()}
        bodies.update({("define", name): decl.value for name, decl in sym.defines.items()})
        reads = {key: list(dict.fromkeys(r for r in (res.get(id(x)) for x in n.each_node(body))
                                         if r and r[0] in ("value", "define") and r in bodies))
                 for key, body in bodies.items()}
        for knot in knots(reads):
            first = next((("value", name) for name in sym.values if ("value", name) in knot), None)
            if first is None:  # defines calling one another: recursion
                continue
            way = [name for _, name in shortest_way_round(first, reads, knot)]
            if len(way) > 12:  # a long way round, shown by its ends
                way = [*way[:6], f"({len(way) - 11:,} more)", *way[-5:]]
            chain = " -> ".join(way)
            self.error(f"value '{first[1]}' names itself ({chain}): a value is one fixed number or "
                       "thing, so it cannot be worked out from itself", self.at(sym.values[first[1]].span, first[1]))

    def infer_define_types(self) -> None:
        """What each define and value gives, so a seat or a card coming out of a define is
        known to be one. Two quiet passes (a define may use one declared after it); the
        diagnostics come from the ordinary pass that follows. The types the parameters name
        are looked up again there too: type_ref keeps each lookup, and its error with it, so a
        lookup kept from a quiet pass would never report a misspelt type.

        Called again each time infer_untyped finds types, it reads again only what may give
        another type (read_kept); and the second pass is left out when the first changed no
        type, as it would read everything as the first did."""
        saved_diags, saved_used, saved_refs = self.out.diagnostics, set(self.used), dict(self.type_refs)
        try:
            for _ in range(2):
                before = (dict(self.value_types), dict(self.define_types))
                self.out.diagnostics = []
                self.call_types = {}  # worked out from the defines' types of the pass before
                for name, decl in self.sym.values.items():
                    self.value_types[name] = self.read_kept(("value", name), decl)
                for name, decl in self.sym.defines.items():
                    self.define_types[name] = self.read_kept(("define", name), decl)
                if (self.value_types, self.define_types) == before:
                    break
        finally:
            self.out.diagnostics, self.used, self.type_refs = saved_diags, saved_used, saved_refs
            self.call_types = {}

    def read_kept(self, key: tuple, decl) -> str:
        """The type a value or a define (`decl`) gives, for infer_define_types. What it read
        whose type may change (a value, a define, an untyped var: read_type) is kept with the
        type it gave (self.kept_types), and it is read again only when one of those reads
        another type now. One that called a define with the types of its arguments
        (define_at_call) is always read again: those types are worked out afresh each pass.
        Taken as kept, its other traces are laid down again too: the inferred vars it read
        (self.touched) and what its last `expect` wanted (self.wanted)."""
        kept = self.kept_types.get(key)
        if kept is not None and self.still_reads(kept[0]):
            read, found, wanted = kept
            self.touched.update(k for k, t in read if k[0] == "var" and t is not None)
            if wanted is not None:
                self.wanted = wanted
            return found
        outer, wanted_before = self.reading, self.wanted
        self.reading, self.typed_call = set(), False
        try:
            found = self.define_body(decl) if key[0] == "define" else self.expr(decl.value, Scope())
            read = {(k, self.read_type(k)) for k in self.reading}
        finally:
            self.reading = outer
        if self.typed_call:
            self.kept_types.pop(key, None)
        else:
            self.kept_types[key] = (read, found, self.wanted if self.wanted is not wanted_before else None)
        return found

    def infer_untyped(self) -> None:
        """The type of each rule parameter and var that says none, where every value the game
        gives it agrees: a parameter's from every call of its rule, a var's from its start
        value and every `set` (an `increase` gives a number). A value of the game is plain
        data (a card is its number, a seat too), so the type is what shows it to players by
        its name; a parameter given a seat in one call and a number in another stays "any",
        as does one given anything the checker cannot type. The tests' blocks do not count:
        the game shows its values the same way whether its tests are read or not.

        Read quietly, as infer_define_types reads: a pass over the game gives the types, and
        the next pass reads the game with them, which may tell more (a parameter handed on to
        another rule, a var set from a parameter), until a pass finds nothing new. The types
        only ever add checks that would have passed: a name whose type would make the checker
        report an error it did not report before (a seat added to a number) stays "any"."""
        sym = self.sym
        wanted = {("param", r.name, i) for r in sym.rules.values() for i, p in enumerate(r.params) if p.type is None}
        wanted |= {("var", name) for name, d in sym.vars.items() if d.kind == "var" and d.type is None}
        if not wanted:
            return
        # the types named in the game are looked up once and kept (type_ref), their errors
        # with them: those looked up in the quiet passes are looked up again, out loud
        saved_diags, saved_used, saved_refs = self.out.diagnostics, set(self.used), dict(self.type_refs)
        self.quiet_memo = {}  # item's index -> its last quiet Reading (quiet_pass)
        blocked: set = set()
        baseline = None
        found: dict = {}
        try:
            for _ in range(MAX_INFERENCE_PASSES):
                self.given, self.out.diagnostics = {}, []
                errors = self.quiet_pass()
                if baseline is None:
                    baseline = errors
                worse = {i for i, e in errors.items() if not e <= baseline.get(i, set())}
                for i in worse:  # what the item read of the types found: they stay "any"
                    blocked |= self.touched_by.get(i, set()) or wanted
                agreed = {}
                for key, types in self.given.items():
                    if key not in wanted or key in blocked:
                        continue
                    t = functools.reduce(_agree, types)
                    if _named_when_shown(t):
                        agreed[key] = t
                if agreed == found and not worse:
                    break
                found = agreed
                self.use_inferred(found)
                self.infer_define_types()  # a define reading a var of a type found
            else:  # no agreement in as many passes: nothing is inferred
                found = {}
        finally:
            given = self.given or {}
            self.given, self.out.diagnostics, self.used = None, saved_diags, saved_used
            self.type_refs = saved_refs
        self.use_inferred(found)
        self.warn_disagreeing(given, found, blocked)
        if found:
            self.infer_define_types()
        self.touched = set()

    def warn_disagreeing(self, given: dict, found: dict, blocked: set) -> None:
        """A warning at an untyped parameter or var given a seat or a card in one place and a
        value of another known type in another (a seat here, a number there): its value is
        shown as plain data, a seat by its number, and only the designer can say which it is."""
        sym = self.sym
        for key, types in given.items():
            known = sorted({t for t in types if t != "none" and "any" not in t.split(":")})
            if key in found or key in blocked or not any(_named_when_shown(t) for t in known):
                continue
            if functools.reduce(_agree, known) != "any":
                continue
            shown = " and ".join(a_type(t) for t in known[:2]) + (" and more" if len(known) > 2 else "")
            if key[0] == "param":
                rule = sym.rules[key[1]]
                param = rule.params[key[2]]
                self.warn(f"parameter '{param.name}' of rule '{key[1]}' is given {shown} by its calls, so its "
                          "value is shown as plain data (a seat or a card by its number)",
                          self.at(param.span, param.name), f"declare its type: '{param.name}: TYPE'")
            else:
                decl = sym.vars[key[1]]
                self.warn(f"var '{key[1]}' is set to {shown}, so its value is shown as plain data "
                          "(a seat or a card by its number)",
                          self.at(decl.span, key[1]), f"declare its type: 'var {key[1]}: TYPE'")

    def use_inferred(self, found: dict) -> None:
        self.sym.inferred = dict(found)

    def quiet_pass(self) -> dict[int, set]:
        """Every item but the tests read once, its errors kept apart (item's index -> errors)
        with the inferred names it read (self.touched_by). An item read in an earlier pass is
        not read again when nothing it read has changed type since (no untyped var or parameter
        it read was given another type, no define or value it read gives another): what it
        gave and the errors it had are taken as they were. Most of a game reads none of them,
        and the passes would otherwise check the whole game several times over.

        What a reading would leave in the ordinary pass that follows is kept too (Reading), so
        that pass can take it instead of reading the item again (replay)."""
        errors: dict[int, set] = {}
        self.touched_by: dict[int, set] = {}
        memo = self.quiet_memo
        given = self.given
        for index, item in enumerate(self.items):
            if isinstance(item, n.TestDecl):
                continue
            known = memo.get(index)
            if known is not None and self.still_reads(known.read):
                gave, errors[index], self.touched_by[index] = known.gave, known.errors, known.touched
            else:
                start, self.touched = len(self.out.diagnostics), set()
                self.given, self.reading = {}, set()
                self.typed_call = self.read_unknown_type = False
                used, self.used, wanted = self.used, set(), self.wanted
                if isinstance(item, n.RuleDecl):  # its own untyped parameters
                    self.reading.update(("param", item.name, i) for i, p in enumerate(item.params) if p.type is None)
                try:
                    self.check_item(item)
                finally:
                    gave, read, self.given, self.reading = self.given, self.reading, given, None
                    item_used, self.used = self.used, used
                    used |= item_used
                diags = self.out.diagnostics[start:]
                errors[index] = {(d.message, d.span) for d in diags if d.severity == "error"}
                self.touched_by[index] = self.touched
                # one that calls a define for its arguments' types reads call_types, and one
                # that names an unknown type reports it only where it is first looked up: read
                # again; so are the declarations whose reading sets a table (define_types, tracks)
                replayable = not (self.typed_call or self.read_unknown_type
                                  or isinstance(item, (n.DefineDecl, n.ValueDecl, n.TrackDecl)))
                memo[index] = Reading(frozenset((key, self.read_type(key)) for key in read), gave, errors[index],
                                      self.touched, diags if replayable else None, item_used,
                                      self.wanted if self.wanted is not wanted else None)
            for key, types in gave.items():
                given.setdefault(key, []).extend(types)
        return errors

    def still_reads(self, read) -> bool:
        """Whether everything an item read when it was last read (`read`: each key with its
        type then) has the type it had."""
        return all(self.read_type(key) == t for key, t in read)

    def replay(self, index: int) -> bool:
        """In the ordinary pass after infer_untyped: what the item at `index` gave when it was
        last read quietly, taken as it was when nothing it read has changed type since, and when
        that reading left nothing this pass would leave otherwise (see quiet_pass): its
        diagnostics, the names it used, what its last `expect` wanted. The names, types and
        resolutions it gave its nodes are theirs already. False when it must be read again."""
        known = self.quiet_memo.get(index)
        if known is None or known.diagnostics is None or not self.still_reads(known.read):
            return False
        self.out.diagnostics.extend(known.diagnostics)
        self.used |= known.used
        if known.wanted is not None:
            self.wanted = known.wanted
        return True

    def read_type(self, key: tuple):
        """The type an item read under `key` (quiet_pass): an untyped var's or parameter's
        inferred type (None while none is), a define's or a value's."""
        if key[0] == "define":
            return self.define_types.get(key[1])
        if key[0] == "value":
            return self.value_types.get(key[1])
        return self.sym.inferred.get(key)

    def define_at_call(self, decl: n.DefineDecl, arg_types: list[str], general: str) -> str:
        """What a define gives when called with arguments of these types, where its parameters
        say no type: `define lowest(cards) = first(least(c.number for c in cards))` gives a
        Property when called with a zone of properties, so a text shows it by its name and not
        as a number. Read quietly (the body's own diagnostics come from its declaration), once
        per define and argument types; a define that calls itself with the same types, or any
        call that makes the types no more precise, gives the define's general type."""
        bound = [self.type_ref(p.type) if p.type else t for p, t in zip(decl.params, arg_types, strict=True)]
        if all(p.type or t == "any" for p, t in zip(decl.params, bound, strict=True)):
            return general
        self.typed_call = True  # what it gives depends on call_types (see read_kept)
        key = (decl.name, tuple(bound))
        if key in self.call_types:
            return self.call_types[key]
        self.call_types[key] = general  # a call of itself inside, with the same types
        saved = (self.out.diagnostics, set(self.used), self.out.types, self.out.res, self.wanted)
        self.out.diagnostics, self.out.types, self.out.res = [], {}, {}
        try:
            scope = Scope().child()
            for p, t in zip(decl.params, bound, strict=True):
                scope.names[p.name] = t
            found = self.expr(decl.value, scope)
        finally:
            self.out.diagnostics, self.used, self.out.types, self.out.res, self.wanted = saved
        self.call_types[key] = general if found == "any" else found
        return self.call_types[key]

    def define_body(self, decl: n.DefineDecl) -> str:
        scope = Scope().child()
        for p in decl.params or ():
            self.bind(scope, p.name, self.type_ref(p.type) if p.type else "any", p.span)
        return self.expr(decl.value, scope)

    def type_ref(self, ref: n.TypeRef) -> str:
        if id(ref) not in self.type_refs:
            start = len(self.out.diagnostics)
            self.type_refs[id(ref)] = self._type_ref(ref)
            self.out.keep.append(ref)
            if len(self.out.diagnostics) > start:
                self.unknown_types.add(id(ref))
        if id(ref) in self.unknown_types:
            self.read_unknown_type = True
        return self.type_refs[id(ref)]

    def _type_ref(self, ref: n.TypeRef) -> str:
        if ref.name == "list":
            return "list:" + self.type_ref(ref.of)
        if ref.name in BASIC_TYPES:
            return ref.name
        if ref.name in self.sym.kinds:
            return "entity:" + ref.name
        if ref.name in self.sym.space_kinds:
            return "space:" + ref.name
        if ref.name in self.sym.entities:  # `p: Pawn`, a card's or piece's name for its kind
            return "entity:" + self.sym.entities[ref.name].kind
        choices = [*sorted(BASIC_TYPES), *self.sym.kinds, *self.sym.space_kinds]
        self.error(f"unknown type '{ref.name}'", ref.span, suggest(ref.name, choices))
        return "any"

    def repeated_options(self, item, word: str) -> None:
        """An option written twice (`counter x start 1 start 2`, `zone hand owner only hidden`)
        is an error at the second: which one holds is not for the reader to guess."""
        for key, span in item.repeated:
            what = "a visibility" if key == "visibility" else f"'{key}'"
            self.error(f"{word} '{item.name}' is given {what} twice: it takes one", span)

    def check_var_per(self, item: n.VarDecl) -> None:
        """`per` of a counter, flag or var: a seat, a space kind, a kind of card, or a set of
        keys (`per colour`, the texts of `value colours`) alone or after the seat, as a zone
        family takes them (`per seat and colour`)."""
        sym, parts = self.sym, per_keys(item.per)
        for i, part in enumerate(parts):
            if part == "seat" or part in sym.space_kinds or part in sym.kinds:
                continue
            if plural(part) in sym.values:
                self.used.add(("value", plural(part)))
            fault = sym.key_set_fault(part, item.kind, item.name)
            if fault is None and (i == 1 and parts[0] != "seat" or i == 0 and len(parts) == 2):
                self.error(f"a {item.kind} is kept per a set of keys alone or per seat and it "
                           f"('per {part}', 'per seat and {part}'), not 'per {item.per}'", self.at(item.span, part))
            elif fault is not None and (plural(part) in sym.values or part in sym.values):
                self.error(fault[0], self.at(item.span, part), fault[1])
            elif fault is not None:
                keyed = [w for w in map(singular_guess, sym.values) if sym.key_set(w) is not None]
                choices = ["seat", *sym.space_kinds, *sym.kinds, *keyed]
                hint = suggest(part, choices) or (Suggestion(part, ("seat",)) if part in SEAT_WORDS else None)
                self.error(f"'per {part}': no such seat, space kind, kind or set of keys", self.at(item.span, part), hint)

    def token_per(self, item: n.TokenDecl) -> None:
        """`token Told per colour`: a family of tokens, one per key of a set (the texts of `value
        colours`), owned by no one. Any other `per` but the seat is refused."""
        sym, per = self.sym, item.per
        if plural(per) in sym.values:
            self.used.add(("value", plural(per)))
        fault = sym.key_set_fault(per, "token", item.names[0]) if " and " not in per else None
        if " and " in per or per in sym.space_kinds or per in sym.kinds or (
                fault is not None and plural(per) not in sym.values and per not in sym.values):
            self.error(f"tokens are owned 'per seat' or by no one, or kept per a set of keys "
                       f"('per colour', the texts of 'value colours'), not 'per {per}'",
                       self.at(item.span, per_keys(per)[0]))
        elif fault is not None:
            self.error(fault[0], self.at(item.span, per), fault[1])

    def check_seat_start(self, item: n.VarDecl) -> None:
        """A seat var's start written as a number names a seat by its place, from 0: one the game
        never has is an error (it stopped the rules with no clear word when first shown), one
        only larger matches have a warning (the smaller ones stop at it)."""
        start, sign = item.start, 1
        if isinstance(start, n.Neg):
            start, sign = start.operand, -1
        if not isinstance(start, n.Number):
            return
        number, sym = sign * start.value, self.sym
        names = sym.seat_names or ()
        named = f": name it, as 'start {names[0]}'" if names else ""
        where = item.start.span
        if number < 0 or number >= sym.max_players:
            self.error(f"'{item.name}' starts at seat {number}, and this game has no such seat: a seat written as "
                       f"a number counts from 0 (the first seat) to {sym.max_players - 1}", where,
                       f"the first seat is 0{named}")
        elif number >= sym.min_players:
            self.warn(f"'{item.name}' starts at seat {number}, which only a match of {number + 1} players or "
                      f"more has: a match of {sym.min_players} players stops at the first rule that reads it", where,
                      f"a seat written as a number counts from 0 (the first seat){named}")

    def check_item(self, item) -> None:
        sym = self.sym
        top = Scope()
        self.block_names = {}
        if isinstance(item, n.ValueDecl):
            self.expr(item.value, top)
        elif isinstance(item, n.VarDecl):
            self.out.types[id(item)] = self.var_type(item)  # the compiler keeps it, for views to show seats by name
            self.out.keep.append(item)
            self.check_var_per(item)
            scope = top.child()
            if per_keys(item.per)[:1] == ("seat",):
                scope.names["seat"] = "seat"
            if item.type is not None:
                self.type_ref(item.type)
            for e in (item.start, item.low, item.high):
                if e is not None:
                    t = self.expr(e, scope)
                    if e is item.start and item.kind == "var" and item.type is None:
                        self.give(("var", item.name), t)
            if self.out.types[id(item)] == "seat":
                self.check_seat_start(item)
            if item.visibility == "top only":
                self.error(f"'top only' is for zones and boards, whose cards lie in piles; a {item.kind} is "
                           "'public', 'owner only', 'others only', 'count only' or 'hidden'", self.at(item.span, "top"))
            elif item.visibility == "others only" and item.per != "seat":
                self.error(f"'others only' hides a {item.kind} from the seat it belongs to: it needs 'per seat'",
                           self.at(item.span, "others"))
            if item.resets and not self.loop_label_exists(item.resets):
                # a label spelt another way ('Round' for 'phase Rounds:') is named; with none near, how to make one
                hint = suggest(item.resets, sorted(self.loop_labels())) or (
                    f"label the stretch of play it lasts for: 'phase {item.resets}:' around it, or a counted "
                    f"loop 'for {item.resets} in 1 to N:'")
                self.warn(f"'resets each {item.resets}': no loop, turn or phase is labelled '{item.resets}'",
                          self.at(item.span, item.resets), hint)
        elif isinstance(item, n.ZoneDecl):
            family = is_family(item)
            fault = sym.family_fault(item) if family else None
            if fault is not None:
                message, word, hint = fault
                self.error(message, self.at(item.span, word), hint)
            for part in per_keys(item.per) if family else ():  # the value it names is used, faulty or not
                if part != "seat" and plural(part) in sym.values:
                    self.used.add(("value", plural(part)))
            if item.visibility == "others only" and per_keys(item.per)[:1] != ("seat",):
                self.error("'others only' hides a zone from the seat it belongs to: it needs 'per seat'",
                           self.at(item.span, "others"))
            if item.refill and item.refill not in sym.zones:
                # a zone refills from no family (said below): only the zones it may name are suggested
                self.error(f"unknown zone '{item.refill}'", self.at(item.span, item.refill),
                           suggest(item.refill, [z for z, d in sym.zones.items() if not is_family(d)]))
            elif item.refill and is_family(sym.zones[item.refill]):
                self.error(f"'refill from {item.refill}': '{item.refill}' is a family of zones, and a zone "
                           "refills from one zone", self.at(item.span, item.refill))
        elif isinstance(item, n.TokenDecl):
            if item.per and item.per != "seat":
                self.token_per(item)
        elif isinstance(item, n.GroupDecl):
            for m in item.members:
                if m not in sym.tokens and m not in sym.spaces and m not in sym.entities and m not in sym.tracks:
                    near = suggest(m, [*sym.tokens, *sym.spaces, *sym.tracks])
                    what = self.what_name_is(m)
                    if what is None:
                        self.error(f"unknown group member '{m}'", self.at(item.span, m), near)
                    else:  # a name the game has, of a sort no group holds: say so, not "unknown"
                        self.error(f"'{m}' is {what}: a group lists tokens, spaces or tracks",
                                   self.at(item.span, m), near)
                if m in sym.tracks:
                    self.used.add(("track", m))
                if m in sym.tokens and is_family(sym.tokens[m]):
                    self.error(f"'{m}' is a family of tokens, one per {sym.tokens[m].per}: a group lists "
                               "tokens each of which is one", self.at(item.span, m))
        elif isinstance(item, n.EntityDecl):
            self.check_entity(item)
        elif isinstance(item, n.BoardDecl):
            if item.visibility not in ("public", "top only"):
                self.error(f"a board's spaces are 'public' or 'top only' (piles that show their top card), "
                           f"not '{item.visibility}'", self.at(item.span, item.visibility.split()[0]))
            for sp in item.spaces:
                if item.grid is not None:  # made by the grid, its neighbours its own cells
                    for p in sp.props:
                        self.expr(p.value, top)
                    continue
                if sp.parent and sp.parent not in sym.spaces:
                    self.error(f"unknown space '{sp.parent}'", self.at(sp.span, sp.parent), suggest(sp.parent, sym.spaces))
                for adj in sp.adjacent:
                    if adj not in sym.spaces:
                        self.error(f"unknown space '{adj}'", self.at(sp.span, adj), suggest(adj, sym.spaces))
                for p in sp.props:
                    self.expr(p.value, top)
        elif isinstance(item, n.TrackDecl):
            item = self.track_numbers(item)
            if item is None:
                return
            if item.low >= item.high:
                self.error(f"track '{item.name}' runs from {item.low} to {item.high}: its low end must be below its high end", self.at(item.span, "from"))
            elif item.high - item.low + 1 > MAX_TRACK_SPACES:
                self.error(f"track '{item.name}' has {item.high - item.low + 1:,} spaces; a track has at most {MAX_TRACK_SPACES:,}", self.at(item.span, "from"))
            elif not item.low <= item.start <= item.high:
                self.error(f"track '{item.name}' starts at {item.start}, outside {item.low} to {item.high}", self.at(item.span, "start"))
            for z in item.zones:
                if not (item.low <= z.low <= z.high <= item.high):
                    self.error(f"end zone '{z.name}' ({z.low} to {z.high}) is not inside the track ({item.low} to {item.high})", z.span)
        elif isinstance(item, n.DefineDecl):
            self.define_types[item.name] = self.define_body(item)
        elif isinstance(item, n.RuleDecl):
            if not _callable(item.name):
                # `rule lose(s: seat)` is declared, but `lose(Red)` is the `lose` statement,
                # which ends the game: the rule would never run, and nothing would say so
                self.error(f"a rule cannot be named '{item.name}': '{item.name}(...)' reads as the "
                           f"'{item.name}' statement, so no line could call the rule",
                           self.at(item.span, item.name), "give the rule another name")
            scope = top.child(in_rule=True)
            for i, p in enumerate(item.params):
                if p.type:
                    self.bind(scope, p.name, self.type_ref(p.type), p.span)
                else:
                    self.bind(scope, p.name, self.sym.inferred.get(("param", item.name, i), "any"), p.span)
                    if ("param", item.name, i) in self.sym.inferred:
                        self.touched.add(("param", item.name, i))
            self.block(item.body, scope)
        elif isinstance(item, n.ActionDecl):
            self.check_action(item)
        elif isinstance(item, (n.SetupDecl, n.FlowDecl)):
            # no seat has the turn here until a `turn` gives it one (an `offer` says so: statements.py)
            self.block(item.body, top.child(no_turn=True))
            # a game with an `at any time` rule may end there, as Votes for Women's final voting does
            if isinstance(item, n.FlowDecl) and item.body and not (sym.anytimes or sym.becomes) \
                    and not _always_ends(item.body, sym.rules):
                self.warn("the flow can run to its end without a result, and such a match ends with no winner",
                          item.body[-1].span, "end the flow with `win ...`, `lose ...` or `end game` to say what happens")
        elif isinstance(item, n.WhenDecl):
            self.check_when(item)
        elif isinstance(item, n.AnytimeDecl):
            self.block(item.body, top.child(anytime=True))
        elif isinstance(item, n.PayoffDecl):
            scope = top.child()
            scope.names["seat"] = "seat"
            self.expect(item.value, scope, "number")
        elif isinstance(item, n.WhenBecomes):
            scope = Scope(in_trigger=True)
            if item.var is not None:
                t = self.expr(item.source, scope)
                if not listlike(t):
                    self.error(f"'for each ... in' needs a list, not {a_type(t)}", item.source.span)
                scope = scope.child()
                self.bind(scope, item.var, elem_type(t), item.span, "each")
            self.expect(item.cond, scope, "bool")
            self.block(item.body, scope.child())
        elif isinstance(item, n.TestDecl):
            self.check_test(item)

    def loop_label_exists(self, label: str) -> bool:
        return label in self.loop_labels() or label in ("game",)

    def loop_labels(self) -> set[str]:
        """The labels a `resets each` may name: each loop's variable, `turn` where a turn is
        given, and each phase's name."""
        found: set[str] = set()

        def walk(stmts):
            for s in stmts:
                if isinstance(s, (n.For, n.Alternate)):
                    found.add(s.var)
                if isinstance(s, n.Turn):
                    found.add("turn")
                if isinstance(s, n.Phase):
                    found.add(s.name)
                for child in _children(s):
                    walk(child)

        for item in self.items:
            body = getattr(item, "body", None)
            if isinstance(body, tuple):
                walk(body)
            # a card's or piece's effects (`on play:`) hold loops too, and they reset what they label
            for handler in getattr(item, "handlers", ()):
                walk(handler.body)
        return found

    def check_entity(self, item: n.EntityDecl) -> None:
        sym = self.sym
        if item.kind not in sym.kinds:
            self.error(f"unknown kind '{item.kind}'", self.at(item.span, item.kind), suggest(item.kind, sym.kinds))
            return
        if item.origin is not None:  # a card of a run: the values its ends name made it (language/runs.py)
            run = item.origin[0].run
            self.used.update(("value", end.name) for end in (run.low, run.high) if end.__class__ is n.NumberName)
        fields = sym.fields_of(item.kind)
        scope = Scope(this="entity:" + item.kind)
        scope.names["this"] = "entity:" + item.kind
        given = set()
        for p in item.props:
            if p.name == "copies":
                t = self.expr(p.value, scope)
                if not isinstance(p.value, n.Number) or p.value.value < 1:
                    self.error("'copies' takes a whole number of at least 1", p.value.span)
                elif p.value.value > MAX_COPIES:
                    self.error(f"a card has at most {MAX_COPIES:,} copies, not {p.value.value:,}", p.value.span)
                continue
            if p.name not in fields:
                self.error(f"kind '{item.kind}' has no property '{p.name}'", self.at(p.span, p.name), suggest(p.name, fields))
                continue
            given.add(p.name)
            want = fields[p.name][0]
            t = self.track_arg(p.value, scope) if want == "track" else self.expr(p.value, scope)
            if not compatible(t, want):
                self.error(f"'{p.name}' is {a_type(want)}, not {a_type(t)}", p.value.span)
        for fname, (_type, default) in fields.items():
            if default is None and fname not in given and item.origin is not None:
                # said once for the run, not once per card (check() drops the repeats)
                run = item.origin[0]
                self.error(f"the {run.word}s of the run \"{run.name}\" do not set '{fname}', which kind '{item.kind}' "
                           "requires", run.run.name.span)
            elif default is None and fname not in given:
                self.error(f"{item.word} '{item.name}' does not set '{fname}', which kind '{item.kind}' requires", self.at(item.span, item.name))
        for h in item.handlers:
            self.block(h.body, scope.child(in_handler=True))

    def check_action(self, item: n.ActionDecl) -> None:
        scope = Scope(in_action=True)
        for p in item.params:
            t = self.expr(p.source, scope)
            if not listlike(t):
                self.error(f"parameter '{p.name}' must range over a list, not {a_type(t)}", p.source.span)
            scope = scope.child()
            self.bind(scope, p.name, elem_type(t), p.span)
        if item.label:
            self.template(item.label, scope)
        for c in item.costs:
            self.expect(c.amount, scope, "number")
            self.cost_counter(c)
        for r in item.requires:
            self.expect(r, scope, "bool")
        self.block(item.body, scope.child())

    def cost_counter(self, c: n.Cost) -> None:
        """`cost N counter` is paid as `pay` is, from the actor's counter or the game's: a cost
        the engine cannot read for a seat would leave the action never offered, and say nothing."""
        decl = self.sym.vars.get(c.counter)
        at = self.at(c.span, c.counter)
        if decl is None:
            self.error(f"unknown counter '{c.counter}'", at, suggest(c.counter, self.sym.vars))
            return
        self.used.add(("var", c.counter))
        if decl.kind != "counter":
            self.error(f"'{c.counter}' is a {decl.kind}, and a cost is paid from a counter", at)
        elif decl.per not in (None, "seat"):
            amount = str(c.amount.value) if isinstance(c.amount, n.Number) else "N"
            keys = "actor at ..." if decl.per.startswith("seat and ") else "... at ..." if " and " in decl.per else "..."
            self.error(f"'{c.counter}' is kept per {decl.per}, and a cost is paid from a counter kept for the "
                       f"whole game or per seat", at,
                       f"say which one: 'require {c.counter} of {keys} >= {amount}' among the clauses, and "
                       f"'decrease {c.counter} of {keys} by {amount}' in the action")

    def track_numbers(self, item: n.TrackDecl) -> n.TrackDecl | None:
        """The track with the number of each value it names in place of the name (so that a
        variant overriding the value moves the track), its start worked out when not written;
        it replaces the declaration for the compiler. None when a name is no such value."""
        sym = self.sym
        ok = True

        def number(x):
            nonlocal ok
            if x.__class__ is not n.NumberName:
                return x
            decl = sym.values.get(x.name)
            if decl is None:
                self.error(f"'{x.name}' is not a value: a track's ends and start are numbers, or values set to one",
                           x.span, suggest(x.name, sym.values))
                ok = False
                return 0
            self.used.add(("value", x.name))
            got = fixed_number(decl.value, sym.values)
            if got is None:
                self.error(f"value '{x.name}' is not a number written in the rules, so it cannot place track "
                           f"'{item.name}' (a track's ends and start are known before a match starts)", x.span)
                ok = False
                return 0
            if not number_in_range(got):
                self.error(f"value '{x.name}' is {got:,}, beyond the numbers ludus allows", x.span)
                ok = False
                return 0
            return got

        low, high = number(item.low), number(item.high)
        # a track without `start` starts at 0 when it runs through 0, else at its low end
        start = number(item.start) if item.start is not None else (0 if low <= 0 <= high else low)
        zones = tuple(attrs.evolve(z, low=number(z.low), high=number(z.high)) for z in item.zones)
        if not ok:
            return None
        resolved = attrs.evolve(item, low=low, high=high, start=start, zones=zones)
        if sym.tracks.get(item.name) is item:  # not a second track of the same name
            sym.tracks[item.name] = resolved
        return resolved

    def check_when(self, item: n.WhenDecl) -> None:
        sym = self.sym
        scope = Scope(in_trigger=True)
        if item.watched in sym.tracks:
            track = sym.tracks[item.watched]
            self.used.add(("track", item.watched))
            if item.zone is not None and item.zone not in {z.name for z in track.zones}:
                self.error(f"track '{item.watched}' has no end zone '{item.zone}'", self.at(item.span, item.zone),
                           suggest(item.zone, [z.name for z in track.zones]))
            scope.names.update(old="number", new="number")
        elif item.watched in sym.vars:
            if item.zone is not None:
                self.error(f"'enters' needs a track; '{item.watched}' is a {sym.vars[item.watched].kind}", self.at(item.span, item.watched))
            decl = sym.vars[item.watched]
            self.used.add(("var", item.watched))
            t = self.var_type(decl)
            scope.names.update(old=t, new=t)
            if decl.per:
                # `key` is what the var is kept per, typed as `of` takes it: the seat, the space,
                # the card (`{key}` writes its name, `key.cost` reads it), or a key of a set of
                # keys, a text (`per colour`: "red"). A pair's key is a text, as the view writes
                # it (`P2 at South`): the language has no value that holds two things, and a
                # text reads in a log line as the view's row does
                scope.names["key"] = "text" if " and " in decl.per else self._key_type(decl.per)
        else:
            self.unwatchable(item)
            scope.names.update(old="any", new="any", key="any")
        self.block(item.body, scope)

    def what_name_is(self, name: str) -> str | None:
        """What the game declares `name` to be, in words ("a zone", "a counter, flag or var"),
        for an error where a name of another sort was expected; None for a name it lacks."""
        sym = self.sym
        return next((kind for kind, names in (("a value", sym.values), ("a zone", sym.zones),
                                              ("a token", sym.tokens), ("a define", sym.defines),
                                              ("a rule", sym.rules), ("an action", sym.actions),
                                              ("a card", sym.entities), ("a kind", sym.kinds),
                                              ("a space", sym.spaces), ("a track", sym.tracks),
                                              ("a counter, flag or var", sym.vars), ("a group", sym.groups),
                                              ("a board", sym.boards)) if name in names), None)

    def unwatchable(self, item: n.WhenDecl) -> None:
        """A `when NAME changes:` (or `enters`) on a name that is no counter, flag, var or track:
        say what may be watched there, and what the name is if the game has it."""
        sym, name = self.sym, item.watched
        if item.zone is not None:  # `enters` an end zone: only a track has them
            watched, near = "track", suggest(name, sym.tracks)
        else:
            watched, near = "counter, flag, var or track", suggest(name, [*sym.tracks, *sym.vars])
        what = self.what_name_is(name)
        if what == "a value":
            what = "a value, which never changes"
        if what is None:
            self.error(f"unknown {watched} '{name}'", self.at(item.span, name), near)
            return
        verb = "enters" if item.zone is not None else "changes"
        self.error(f"'{name}' is {what}: 'when ... {verb}:' watches a {watched}", self.at(item.span, name), near)

    def check_test(self, item: n.TestDecl) -> None:
        scope = Scope(in_test=True)
        sym = self.sym
        started = False  # a line other than `players` and `seed` came before
        setup: dict[str, n.TestLine] = {}  # the first `players` and `seed` line
        for line in item.lines:
            if line.kind in ("players", "seed"):
                if started:
                    # the match is made once, at the first other line: said now, not when the test runs
                    self.error(f"'{line.kind}' must come before the test's other lines", line.span)
                elif line.kind in setup:
                    self.error(f"a second '{line.kind}' line: a test has one (the first is on line "
                               f"{setup[line.kind].span.line})", line.span)
                setup.setdefault(line.kind, line)
            else:
                started = True
            if line.kind == "given":
                self.block((line.value,), scope)
            elif line.kind == "expect":
                self.expect(line.value, scope, "bool")
            elif line.kind == "resolve":
                # a misspelt card or seat is found now, not when the test runs
                card, seat = line.value
                if card not in sym.entities:
                    self.error(f"unknown card '{card}'", self.at(line.span, f'"{card}"'), suggest(card, sym.entities))
                self.test_seat(line, seat)
            elif line.kind == "force_order":
                self.check_force_order(line)
            elif line.kind == "resolve_rule":
                call, seat = line.value
                self.test_rule_call(call, scope)
                self.test_seat(line, seat)
            elif line.kind in ("do", "until", "answer", "legal", "illegal") and self.hole_in_label(line.value):
                # a hole is filled in the game's texts, not in a test's lines, which are matched as
                # written: `do "take {top(middle)}"` asks for a label that reads "{top(middle)}".
                # Warned of, as a label no move can have is below (the test still runs and fails
                # there with the moves that are legal), and only where it is certain: in a game
                # none of whose texts and names shows a brace, so that no label can hold one.
                self.warn("a test's label is matched as written: its '{...}' is not filled in, and no "
                          "label of this game holds a brace",
                          self.at(line.span, f'"{line.value}"'),
                          "write the label as 'ludus play' shows it (its legal moves, or 'moves'), "
                          "with the hole's value written out")
            elif line.kind in ("do", "until", "answer", "legal", "illegal") and not self.could_be_move(line.value):
                # an `expect not legal` of a label no move can have always passes: warned of as a `do` is
                self.warn(f"no action's label and no decision's option can read '{line.value}'",
                          self.at(line.span, f'"{line.value}"'), suggest(line.value, self.move_examples()))
            elif line.kind == "winner" and line.value is not None:
                named = (line.value,) if isinstance(line.value, str) else line.value
                for seat in named:
                    self.test_seat(line, seat)
                for seat in sorted({s for s in named if named.count(s) > 1}):
                    self.error(f"seat '{seat}' is named twice", self.at(line.span, seat))
            elif line.kind == "players" and not sym.min_players <= line.value <= sym.max_players:
                counts = player_range(sym.min_players, sym.max_players)
                self.error(f"{sym.title or 'this game'} is for {counts} players, not {line.value}", line.span)

    def test_seat(self, line: n.TestLine, seat: str | None) -> None:
        """A seat a test line names (None: none named) is a seat of the game, found now, not
        when the test runs: the nearest seat, or the seats when none is near, as a `force
        order` line's seat is told."""
        seats = self.sym.seat_constants()
        if seat is not None and seat not in seats:
            self.error(f"unknown seat '{seat}'", self.at(line.span, seat),
                       suggest(seat, seats) or f"the seats are {', '.join(seats)}")

    def check_force_order(self, line: n.TestLine) -> None:
        """`force order ZONE [of SEAT] = "Card", ...`: a zone the game has, named with a seat when
        it is kept per seat (and only then), and cards the game has; found now, not when the
        test runs, as a `resolve` line's card is, in the words a replay's line is told them."""
        sym = self.sym
        zone, seat, names = line.value
        families = {name: family for name in sym.zones if (family := sym.zone_family(name)) is not None}
        fault = order_zone_fault(sym.zones, sym.seat_constants(), zone, seat, families=families)
        faults = [] if fault is None else [fault]
        for fault in [*faults, *order_card_faults(sym.entities, names)]:
            # a card is written in quotes: pointed at with them, as a `resolve` line's card is; a
            # zone or seat after the keyword `order`, which a zone may be called too
            if fault.part == "card":
                at = self.at(line.span, f'"{fault.name}"')
            else:
                at = self.sources.locate_after(line.span, "order", fault.name) if self.sources is not None else line.span
            self.error(fault.message, at, fault.hint)

    def test_rule_call(self, call: n.CallStmt, scope: Scope) -> None:
        """A test's `resolve RULE(ARGS)`: checked as the same call in the rules is (an unknown
        rule with the nearest names, the number of arguments, their types), and a name that is
        a define, an action or a built-in function is said to be one, with what a test does
        with it instead. Position.resolve_rule checks the Python API's calls here too."""
        sym = self.sym
        name = call.name
        at = Span(call.span.path, call.span.line, call.span.column, call.span.line, call.span.column + len(name))
        if name not in sym.rules:
            if name in sym.defines:
                self.error(f"'{name}' is a define, not a rule: it works out a value and changes nothing, "
                           "so there is no effect to resolve", at,
                           f"check its value with `expect {name}(...) == ...`")
                return
            if name in sym.actions:
                action = sym.actions[name]
                shown = ("".join(p if isinstance(p, str) else "…" for p in action.label.parts) if action.label is not None
                         else " ".join([name, *["…"] * len(action.params)]))
                self.error(f"'{name}' is an action, not a rule: a test takes an action as a player would, "
                           "when the rules offer it", at, f'take it with `do "{shown}"` (its label)')
                return
            if name in BUILTIN_FUNCTIONS:
                self.error(f"'{name}' is a built-in function, not a rule: it works out a value and changes nothing",
                           at)
                return
            self.error(f"unknown rule '{name}'", at, suggest(name, sym.rules))
            return
        self.block((call,), scope)

    def check_snapshot_files(self) -> None:
        """Two snapshot lines stored in one file would overwrite each other on every update, so
        no update could make both tests pass: an error at the later test's name (or, within one
        test, at the later line). Tests keep their snapshots in a folder named after the file
        that runs them: a game or a variant runs its own (`discover.is_game_text`), and the file
        checked runs those of the parts it includes."""
        texts = self.sources.texts if self.sources is not None else {}
        root = next(iter(texts), None)
        groups: dict[str, list] = {}
        read: dict = {}
        for item in self.items:
            if isinstance(item, n.TestDecl):
                path = item.span.path
                runs_with = path if path not in texts or is_game_read(path, self.sources, read) else root
                groups.setdefault(runs_with, []).append(item)
        hints = {
            "numbered": "a test's second and later snapshots are stored as 'NAME.1.txt', 'NAME.2.txt', "
                        "and `snapshot \"x\"` as 'NAME[x].txt'",
            "left out": f"snapshot file names leave out {' '.join(LEFT_OUT)} and control characters",
            "cut": f"snapshot file names are cut to {MAX_STEM} characters",
            "case": "file names that differ only in case are one file on macOS and Windows",
            "case and normalisation": "file names that differ only in case, and in how their accented letters "
                                      "are written in Unicode, are one file on macOS",
        }
        for tests in groups.values():
            self.check_refused_files(tests)
            for decl, line, file, other, other_line, other_file, why in clashes(tests):
                hint = _apart_hint(file, other_file) if why == "normalisation" else hints.get(why)
                if decl is other:
                    self.error(f"this snapshot would share its file '{_shown(file)}' with the snapshot on line "
                               f"{other_line.span.line} of the same test: "
                               + ("shorten the test's name" if why == "cut" else "name one of them differently"),
                               line.span, hint)
                else:
                    self.error(f"test '{_shown(decl.name)}' would share its snapshot file '{_shown(file)}' with "
                               f"test '{_shown(other.name)}' {declared_at(other.span, decl.span)}: rename one",
                               self.test_name_span(decl), hint)

    def check_refused_files(self, tests: list) -> None:
        """A snapshot file that a file system refuses fails `ludus test --update` on one machine
        (a name too long) or a clone of the game on another (a Windows device name), after the
        test has run or the game has been shared: an error now, at the test's name, or at the
        snapshot line whose own name adds what is too much. An error, not a warning, as with
        names that differ only in case: a game's files must work on every designer's machine,
        and git on Windows refuses to check out a game holding such a file."""
        for decl, line, file, why, by_name in refusals(tests):
            size = len(file.encode("utf-8"))
            if why == "long":
                budget = MAX_FILE_BYTES - len("." + EXTENSION)
                what = f"test '{_shown(decl.name)}' is too long for a file name: its snapshot file" if by_name \
                    else "this snapshot's name makes its file name too long:"
                self.error(f"{what} '{_shown(file)}' would take {size:,} bytes, and file systems take at most {MAX_FILE_BYTES}",
                           self.test_name_span(decl) if by_name else line.span,
                           f"a snapshot file's name, without '.{EXTENSION}', may take {budget} bytes in UTF-8, "
                           "where a letter such as 'é' takes 2 bytes and one such as '漢' 3")
            else:
                device = file.split(".", 1)[0].rstrip(" ")
                self.error(f"test '{_shown(decl.name)}' would have the snapshot file '{_shown(file)}', which Windows "
                           f"refuses ('{_shown(device)}' names a device there): rename the test",
                           self.test_name_span(decl),
                           "Windows keeps CON, PRN, AUX, NUL, COM1 to COM9 and LPT1 to LPT9 for devices, in any case "
                           "and with any extension")

    def test_name_span(self, decl: n.TestDecl) -> Span:
        """The quoted name of a test, as written (escapes and all)."""
        text = self.sources.line(decl.span.path, decl.span.line) if self.sources is not None else None
        m = _TEST_NAME.match(text, decl.span.column - 1) if text is not None else None
        if m is None:
            return decl.span
        return Span(decl.span.path, decl.span.line, m.start(1) + 1, decl.span.line, m.end(1) + 1)

    def move_shapes(self) -> re.Pattern:
        """What a move's label can look like, for `do`, `answer` and `play until` in tests: one
        pattern of every action label (holes match any text) and the words a decision's options
        are made of (cards, seats, spaces, zones, and every quoted text in the files, holes and
        all). The words and the texts without holes are kept for move_examples.

        A text whose words are all in its holes (`"{n}"`, `"{a} {b}"`, `"{a}: {b}"`) says nothing
        of the label on its own: were its holes to match any text, as other texts' holes do, it
        would match every label and the check would never warn. Its holes stand for one of the
        other shapes instead (a card, a number, another text ...), which a bare hole adds nothing
        to."""
        if getattr(self, "_move_shapes", None) is not None:
            return self._move_shapes
        sym = self.sym
        patterns = []
        loose = []  # texts with no word outside their holes, as lists of literal parts and None holes

        def template(parts) -> str:
            return "".join(re.escape(p) if isinstance(p, str) else ".+?" for p in parts)

        def add(parts) -> None:
            if any(isinstance(p, str) and _WORDY.search(p) for p in parts):
                patterns.append(template(parts))
            elif any(isinstance(p, str) and p for p in parts):
                loose.append(parts)

        for name, decl in sym.actions.items():
            if decl.label is not None:
                add(decl.label.parts)
            else:
                patterns.append(re.escape(name) + " .+?" * len(decl.params))
        words = set(sym.entities) | set(sym.seat_constants()) | set(sym.zones) | set(sym.spaces) | {"yes", "no", "done"}
        words |= {sp.label for sp in sym.spaces.values() if getattr(sp, "label", None)}
        # the tests' own lines do not count: a `do` line would read itself
        in_tests = {(t.span.path, line) for t in self.items if isinstance(t, n.TestDecl)
                    for line in range(t.span.line, t.span.end_line + 1)}
        texts = self.sources.texts.items() if self.sources is not None else ()
        texts_read = []
        for path, text in texts:
            for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', text):
                if m.group(1) and (path, text.count("\n", 0, m.start()) + 1) not in in_tests:
                    texts_read.append(m.group(1))
                    add([p if i % 2 == 0 else None for i, p in enumerate(_HOLE.split(m.group(1)))])
        patterns += [re.escape(w) for w in words if w]
        # a zone of a seat; a number (a count, a die's face); a share given out; a die set by hand
        patterns += [r".+? of .+?", r"-?\d+", r"-?\d+ to .+?", r"d\d+ = \d+"]
        shape = "(?:" + "|".join(patterns) + ")"
        patterns += ["".join(re.escape(p) if isinstance(p, str) else shape for p in parts) for parts in loose]
        # a list chosen as one option shows as its elements joined by commas ("7, 9")
        one = "(?:" + "|".join(patterns) + ")"
        pattern = re.compile(one + "(?:, " + one + r")*(?: #\d+)?", re.DOTALL)
        self._move_shapes = pattern
        self._move_words = sorted(w for w in words if w)
        self._move_texts = [t for t in texts_read if "{" not in t]
        # a text shows a brace written `\{` (or `\}`); without sources, a brace is taken to be shown
        self._shows_braces = (self.sources is None or any("\\{" in t or "\\}" in t for t in texts_read)
                              or any("{" in w or "}" in w for w in words if w))
        return self._move_shapes

    def hole_in_label(self, label: str) -> bool:
        """Whether a test's label holds a brace that no label of the game can show: no text of
        the files writes one (`\\{`) and no card, seat, space or zone has one in its name."""
        if "{" not in label and "}" not in label:
            return False
        self.move_shapes()
        return not self._shows_braces

    def could_be_move(self, label: str) -> bool:
        return self.move_shapes().fullmatch(label) is not None

    def move_examples(self) -> list[str]:
        """Labels a move can have, for the hint of a test line that names none: each action's
        label with its holes filled by the game's names (cards, seats, spaces, zones), where
        they are few enough to list, else as it is written ('buy …'); and the quoted texts of
        the files without holes (a `choose` among texts, an `else` option) and the names
        themselves (a `choose` among cards, seats or spaces). Worked out once, when a first line
        needs a hint."""
        if getattr(self, "_move_examples", None) is not None:
            return self._move_examples
        self.move_shapes()
        words, out = self._move_words, []
        for name, decl in self.sym.actions.items():
            parts = decl.label.parts if decl.label is not None else [name, *([" ", None] * len(decl.params))]
            holes = sum(1 for p in parts if not isinstance(p, str))
            if holes and len(words) ** holes <= MOVE_EXAMPLES:
                filled = [""]
                for p in parts:
                    filled = [f + p for f in filled] if isinstance(p, str) else [f + w for f in filled for w in words]
                out += filled
            else:
                out.append("".join(p if isinstance(p, str) else "…" for p in parts))
        self._move_examples = out + self._move_texts + words
        return self._move_examples

    # ── after all items ──

    def report_unused(self) -> None:
        sym = self.sym
        for name, decl in sym.values.items():
            if ("value", name) not in self.used:
                self.warn(f"value '{name}' is never used", self.at(decl.span, name))
        for name, decl in sym.vars.items():
            if ("var", name) not in self.used:
                self.warn(f"{decl.kind} '{name}' is never used", self.at(decl.span, name))
        refilled = {z.refill for z in sym.zones.values()}  # once, not once per zone
        for name, decl in sym.zones.items():
            if ("zone", name) not in self.used and name not in refilled:
                self.warn(f"zone '{name}' is never used", self.at(decl.span, name))
        for name, decl in sym.defines.items():
            if ("define", name) not in self.used and name != "score":  # `score(s)` is read by the bots
                self.warn(f"define '{name}' is never used", self.at(decl.span, name))
        for name, decl in sym.rules.items():
            if name not in self.called_rules:
                self.warn(f"rule '{name}' is never called, so it can never be reached", self.at(decl.span, name))
        if not self.offer_all:
            for name, decl in sym.actions.items():
                if name not in self.offered:
                    self.warn(f"action '{name}' is never offered by any 'offer'", self.at(decl.span, name))


    def report_passes_never_in_an_alternate(self) -> None:
        """A `pass` in an action, rule or card effect that no `alternate` loop can be running
        around: the statement that checks `pass` lets one through there
        when the game has such a loop anywhere, as the block may run inside it; this finds the
        blocks that cannot. Exact in the one direction that matters, that it never reports a
        `pass` that can run inside a loop: what may run inside one is over-counted. It is
        every block an `alternate` loop's body reaches (an action it offers, every action for
        an `offer` of all, a rule it calls, every card's effect of a name it resolves, and on
        from those), and everything reached from the blocks that may run at any moment
        (`when`, `when ... becomes`, `at any time`). Only a block that runs at all is judged
        (an action offered, a rule called, an effect resolved, outside the tests): one that
        never runs has its own warning. A test may call a rule or resolve an effect at a
        position inside a loop, so a rule or effect a test line names is left alone."""
        if not self.game_alternates():
            return  # the statement check said it of every `pass` outside a loop already
        sym = self.sym
        effects: dict[str, list] = {}  # an effect's name -> its bodies, one a card
        for e in sym.entities.values():
            for h in e.handlers:
                effects.setdefault(h.name, []).append((e.name, h))

        def reach(bodies) -> tuple[set, set, set]:
            actions: set[str] = set()
            rules: set[str] = set()
            resolved: set[str] = set()
            stack = list(bodies)
            while stack:
                for x in n.each_node(stack.pop()):
                    if isinstance(x, n.Offer):
                        for a in x.actions or sym.actions:
                            if a in sym.actions and a not in actions:
                                actions.add(a)
                                stack.append(sym.actions[a].body)
                    elif isinstance(x, n.CallStmt) and x.name in sym.rules and x.name not in rules:
                        rules.add(x.name)
                        stack.append(sym.rules[x.name].body)
                    elif isinstance(x, n.Resolve) and x.handler not in resolved:
                        resolved.add(x.handler)
                        stack.extend(h.body for _, h in effects.get(x.handler, ()))
            return actions, rules, resolved

        anytime = [d.body for d in (*sym.whens, *sym.becomes, *sym.anytimes)]
        loops = [x.body for x in n.each_node(self.items) if isinstance(x, n.Alternate)]
        inside = reach([*loops, *anytime])
        runs = reach([*(d.body for d in (sym.setup, sym.flow) if d is not None), *anytime])
        # the names a test line may call or resolve at a position inside a loop
        tested: set[str] = set()
        for test in sym.tests:
            for line in test.lines:
                tested.update(x.name for x in n.each_node(line.value) if isinstance(x, n.CallStmt))
                tested.update(x.handler for x in n.each_node(line.value) if isinstance(x, n.Resolve))
                if line.kind == "resolve":
                    tested.update(effects)  # a card's effect, which one its card says
                if isinstance(line.value, (tuple, list)):
                    tested.update(w for v in line.value if isinstance(v, str) for w in re.findall(r"\w+", v))
        blocks = [("action", name, sym.actions[name].body) for name in sym.actions
                  if name in runs[0] and name not in inside[0]]
        blocks += [("rule", name, sym.rules[name].body) for name in sym.rules
                   if name in runs[1] and name not in inside[1] and name not in tested]
        blocks += [("effect", f"'on {name}' of {card}", h.body) for name, bodies in effects.items()
                   if name in runs[2] and name not in inside[2] and name not in tested for card, h in bodies]
        for what, name, body in blocks:
            for p in _passes_outside_loops(body):
                shown = f"{what} '{name}'" if what != "effect" else name
                where = "offered" if what == "action" else "called" if what == "rule" else "resolved"
                self.error(f"'pass' only means something inside an 'alternate' loop, and {shown} "
                           f"is {where} only outside one", p.span,
                           "to let a seat decline what it is offered, write 'offer A, B else \"pass\"'")


def _passes_outside_loops(body) -> list:
    """The `pass` statements of a block that no `alternate` loop written in the block holds."""
    return [x for x in n.each_node(body, skip=(n.Alternate,)) if isinstance(x, n.Pass)]


def _named_when_shown(t: str) -> bool:
    """Whether a value of type `t` is shown by a name that its plain data is not: a seat, a card
    or piece, or a list of them (a number, a text, a space's or a zone's name show as they are,
    so infer_untyped gives them no type: an untyped name keeps every other type "any", and the
    checks and code that come with a type stay out of rules that never asked for them)."""
    while t.startswith("list:"):
        t = t[5:]
    return t == "seat" or t == "entity" or t.startswith("entity:")


@attrs.define(slots=True)
class Reading:
    """What quiet_pass keeps of an item's last reading: what it read whose type inference may
    change, with their types then; the types it gave untyped names; its errors; the inferred
    names it read; and for the ordinary pass (replay), its diagnostics (None when it must be
    read again), the names it used and what its last `expect` wanted (None if it asked none)."""

    read: frozenset
    gave: dict
    errors: set
    touched: set
    diagnostics: list | None
    used: set
    wanted: tuple | None


MOVE_EXAMPLES = 2000  # an action's labels listed for a test line's hint, its holes filled: at most this many
MAX_INFERENCE_PASSES = 8  # passes of infer_untyped: a rule handing a parameter on takes one more

MAX_VALUE_CHAIN = 100  # values naming values, followed to place a track: a bound on the recursion


def fixed_number(expr, values: dict, seen: frozenset = frozenset()) -> int | None:
    """The number `expr` (a value's expression) always is: a whole number, or +, - and * of
    such numbers and of other values that are; None for anything else (a value that reads the
    state or the number of players, a cycle, a chain of more than MAX_VALUE_CHAIN values)."""
    if len(seen) > MAX_VALUE_CHAIN:
        return None
    if expr.__class__ is n.Number:
        return expr.value
    if expr.__class__ is n.Neg:
        inner = fixed_number(expr.operand, values, seen)
        return None if inner is None else -inner
    if expr.__class__ is n.BinOp and expr.op in ("+", "-", "*"):
        a, b = fixed_number(expr.left, values, seen), fixed_number(expr.right, values, seen)
        if a is None or b is None or abs(a) > 10**18 or abs(b) > 10**18:
            return None
        return a + b if expr.op == "+" else a - b if expr.op == "-" else a * b
    if expr.__class__ is n.Name and expr.name in values and expr.name not in seen:
        return fixed_number(values[expr.name].value, values, seen | {expr.name})
    return None


def knots(graph: dict) -> list[set]:
    """The strongly connected parts of `graph` ({node: [node it leads to]}) that hold a cycle: a
    node on a cycle and every node on a cycle with it (Tarjan's algorithm, without recursion, so
    a long chain of names cannot overflow the stack)."""
    index: dict = {}
    low: dict = {}
    on_stack: set = set()
    stack: list = []
    out = []
    for root in graph:
        if root in index:
            continue
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work = [(root, iter(graph[root]))]
        while work:
            node, edges = work[-1]
            nxt = next(edges, None)
            if nxt is not None:
                if nxt not in index:
                    index[nxt] = low[nxt] = len(index)
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(graph[nxt])))
                elif nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
            if low[node] == index[node]:
                part = set()
                while True:
                    x = stack.pop()
                    on_stack.discard(x)
                    part.add(x)
                    if x == node:
                        break
                if len(part) > 1 or node in graph[node]:
                    out.append(part)
    return out


def shortest_way_round(start, graph: dict, within: set) -> list:
    """The nodes of a shortest cycle from `start` back to it, inside `within` (breadth first),
    `start` at both ends."""
    came_from: dict = {}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt in graph[node]:
                if nxt not in within:
                    continue
                if nxt == start:
                    path = [node]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [start, *reversed(path[:-1]), start] if node != start else [start, start]
                if nxt not in came_from:
                    came_from[nxt] = node
                    following.append(nxt)
        frontier = following
    raise ValueError(f"{start} is on no cycle inside the part given")


@functools.cache
def _callable(name: str) -> bool:
    """Whether `name(...)` on a line of its own is a call of a rule of that name, not a statement
    that starts with the same word (`lose`, `move`, `pass`): asked of the grammar itself, so a
    statement added to it is never missed."""
    from ..parser import parse
    from ..source import LudusError

    try:
        tree = parse(f"{name}(x)\n", start="statements")
    except LudusError:
        return False
    return any(t.data == "call_stmt" for t in tree.iter_subtrees())
