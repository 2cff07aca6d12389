"""A card's checked declaration rendered as plain English, one method per node kind.

The text is generated from the effect itself, so a designer can proof-read a card against its
printed text: `gain 2 coins` reads "Gain 2 coins.", `if omen >= 4: ...` reads "If omen is at
least 4, ...". Names read as the game shows them: a space's label, a seat's name, a counter's
name with its underscores as spaces. A construct this module has no words for is shown as its
source and counted in `RulesText.fallbacks`; the tests keep that count at zero on every shipped
game.
"""

from __future__ import annotations

import attrs
from attrs import define, field

from ..language import nodes as n
from ..language.source import Sources
from ..language.symbols import BUILTIN_FUNCTIONS, Symbols, article, how_many, is_family, per_keys, plural

BUILTIN_NAME_TEXT = {
    "actor": "you",
    "current": "the current seat",
    "opponent": "your opponent",
    "seats": "the seats",
    "players": "the number of players",
    "spaces": "every space",
    "this": "this card",  # the card whose effect runs
}

COMPARISONS = {
    "==": "is", "!=": "is not", "<": "is less than", "<=": "is at most", ">": "is more than",
    ">=": "is at least", "in": "is in", "not in": "is not in", "and": "and", "or": "or",
}
ARITHMETIC = {"+": "+", "-": "-", "*": "×", "/": "÷", "%": "mod"}

# A define named by a phrase that opens with one of these (`in_round`, `next_to_you`) qualifies a
# noun, as in "the seats in round": read alone ("choose from in round") it is no English.
PREPOSITIONS = frozenset({
    "in", "on", "at", "of", "from", "for", "with", "without", "within", "under", "over", "near", "by", "to",
    "into", "onto", "inside", "outside", "beside", "behind", "among", "between", "after", "before", "above",
    "below", "next", "out", "off", "around", "across", "along", "beyond", "past", "through", "toward", "towards",
})
# the noun a value of a checked type is (see symbols.py): "the seats in round"
TYPE_NOUNS = {"seat": "seat", "space": "space", "number": "number", "zone": "zone", "text": "text"}

HANDLER_HEADINGS = {"play": "When played", "event": "Event", "resolve": "When resolved", "reveal": "When revealed"}


def human(name: str) -> str:
    """A declared name as a person reads it: `action_points` -> 'action points'."""
    return name.replace("_", " ")


KEEP = "\x01"  # starts a sentence that opens with a name the game chose, which keeps its case


def cap(line: str) -> str:
    """A finished sentence at the start of a line: capitalised, unless it opens with a name."""
    if line.startswith(" "):
        return line
    if line.startswith(KEEP):
        return line[1:]
    return line[:1].upper() + line[1:]


def inline(line: str) -> str:
    """A sentence that goes on after a comma ("If ..., gain 2 coins."): never capitalised."""
    return line[1:] if line.startswith(KEEP) else line


def join_words(items: list[str], last: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {last} " + items[-1]


@define
class CardText:
    """One card's rules text: its heading facts, its properties and its effects, as lines."""

    name: str
    kind: str
    copies: int
    props: list = field(factory=list)  # "Cost: 3."
    effects: list = field(factory=list)  # (heading, [lines])
    named_by: list = field(factory=list)  # "the actions Steal and Exchange": what names a card without effects

    def heading(self) -> str:
        copies = f", {self.copies} copies" if self.copies != 1 else ""
        return f"{self.name} ({self.kind}{copies})"

    def body_lines(self) -> list[str]:
        out = [" ".join(self.props)] if self.props else []
        out.extend(self.effect_lines())
        if out:
            return out
        # a card whose powers are the actions that claim it (Coup's characters): "No effect" alone
        # would say it does nothing
        if self.named_by:
            return [f"No card effect; named by {join_words(self.named_by)}."]
        return ["No effect."]

    def effect_lines(self) -> list[str]:
        """What the card does, by effect: a short one on the line of its heading."""
        out = []
        for heading, lines in self.effects:
            one_line = all(not ln.startswith(" ") for ln in lines) and sum(len(ln) for ln in lines) <= 90
            if one_line:
                out.append(f"{heading}: " + " ".join(lines))
            else:
                out.append(f"{heading}:")
                out.extend("  " + ln for ln in lines)
        return out

    def text(self, indent: str = "  ") -> str:
        return "\n".join([self.heading()] + [indent + ln for ln in self.body_lines()])


def cards_of(symbols: Symbols) -> list:
    """The cards a game declares (not its pieces), in the order the files declare them."""
    return [d for d in symbols.entities.values() if d.word == "card"]


def card_text(decl: n.EntityDecl, symbols: Symbols, types: dict | None = None,
              sources: Sources | None = None) -> CardText:
    return RulesText(symbols, types, sources).card(decl)


class RulesText:
    """Renders declarations of one game; `fallbacks` lists the source snippets it had to show."""

    def __init__(self, symbols: Symbols, types: dict | None = None, sources: Sources | None = None) -> None:
        self.sym = symbols
        self.types = types or {}
        self.sources = sources
        self.fallbacks: list[str] = []

    # ───────────── cards ─────────────

    def card(self, decl: n.EntityDecl) -> CardText:
        copies = 1
        props = []
        for prop in decl.props:
            if prop.name == "copies" and isinstance(prop.value, n.Number):
                copies = prop.value.value
                continue
            props.append(self.prop(prop))
        effects = [(self.handler_heading(h.name), self.block(h.body)) for h in decl.handlers]
        named_by = [] if props or effects else self.named_by(decl.name)
        return CardText(decl.name, decl.kind, copies, props, effects, named_by)

    def named_by(self, name: str) -> list[str]:
        """The actions, rules and defines whose code names the card `name`, by its name in quotes
        (`claim(actor, "Duke")`) or bare: "the actions ForeignAid and Tax". Words in a label or a
        log line do not count."""
        out = []
        for what, decls in (("action", self.sym.actions), ("rule", self.sym.rules), ("define", self.sym.defines)):
            found = [decl_name for decl_name, decl in decls.items() if _names(decl, name)]
            if found:
                out.append(f"the {what if len(found) == 1 else plural(what)} {join_words(found)}")
        return out

    # ───────────── actions, rules and defines ─────────────

    def action(self, decl: n.ActionDecl) -> list[str]:
        """What an action does, as lines: what its parameters range over, what it requires and
        costs (the move is not offered unless they hold), then its effect. Its label and log line
        are words a seat reads, not rules, and are left to the caller."""
        out = [f"{KEEP}{p.name} is one of {self.kept(p.source, p.name)}." for p in decl.params]
        out += [f"only if {self.expr(r)}." for r in decl.requires]
        out += [f"costs {self.amount(c.amount, human(c.counter), counted=True)}." for c in decl.costs]
        out += self.raw_block(decl.body)
        return [cap(ln) for ln in out] or ["No effect."]

    def rule(self, decl: n.RuleDecl) -> list[str]:
        """What a rule does when called, as lines."""
        return self.block(decl.body) or ["No effect."]

    def define(self, decl: n.DefineDecl) -> str:
        """A define's value in words: `points (s)` is `the sum of ...`."""
        return self.expr(decl.value)

    def prop(self, prop: n.Prop) -> str:
        label = human(prop.name)
        label = label[:1].upper() + label[1:]
        if isinstance(prop.value, n.Bool):
            return f"{label}: {'yes' if prop.value.value else 'no'}."
        return f"{label}: {self.expr(prop.value)}."

    @staticmethod
    def handler_heading(name: str) -> str:
        return HANDLER_HEADINGS.get(name, f"On {human(name)}")

    # ───────────── statements ─────────────

    def block(self, body: tuple) -> list[str]:
        return [cap(ln) for ln in self.raw_block(body)]

    def stmt(self, s) -> list[str]:
        method = getattr(self, "s_" + type(s).__name__, None)
        if method is None:
            return [self.fallback(s) + "."]
        out = method(s)
        return [out] if isinstance(out, str) else out

    def nested(self, head: str, body: tuple) -> list[str]:
        """`head` followed by a block: on one line when the block is one plain sentence."""
        raw = self.raw_block(body)
        if len(raw) == 1:
            return [f"{head}, {inline(raw[0])}"]
        return [f"{head}:"] + ["  " + cap(ln) for ln in raw]

    def raw_block(self, body: tuple) -> list[str]:
        lines: list[str] = []
        for s in body:
            lines.extend(self.stmt(s))
        return lines

    def s_Let(self, s: n.Let) -> str:
        return f"let {s.name} be {self.expr(s.value)}."

    def s_SetStmt(self, s: n.SetStmt) -> str:
        target = self.e_Access(s.target, as_value=True) if isinstance(s.target, n.Access) else self.expr(s.target)
        return f"set {target} to {self.expr(s.value)}."

    def s_Change(self, s: n.Change) -> str:
        if s.op in ("increase", "decrease"):
            return f"{s.op} {self.expr(s.target)} by {self.expr(s.amount)}."
        counter = s.target.name if isinstance(s.target, n.Name) else str(s.target)
        what = self.amount(s.amount, human(counter), counted=True)
        seat = self.seat_subject(s.seat)
        if seat is None:
            return f"{s.op} {what}."
        return f"{KEEP}{seat} {s.op}s {what}."

    def s_AddTokens(self, s: n.AddTokens) -> str:
        return f"add {self.tokens(s.amount, s.token, s.owner)} to {self.expr(s.place)}."

    def s_RemoveTokens(self, s: n.RemoveTokens) -> str:
        if s.amount is None:
            what = f"every {s.token}" + (f" of {self.expr(s.owner)}" if s.owner is not None else "")
        else:
            what = self.tokens(s.amount, s.token, s.owner)
        return f"remove {what} from {self.expr(s.place)}."

    def s_MoveTokens(self, s: n.MoveTokens) -> str:
        return f"move {self.tokens(s.amount, s.token, s.owner)} from {self.expr(s.source)} to {self.expr(s.dest)}."

    def s_MoveStmt(self, s: n.MoveStmt) -> str:
        bottom = "the bottom of " if s.bottom else ""
        return f"move {self.expr(s.what)} to {bottom}{self.expr(s.dest)}."

    def s_Draw(self, s: n.Draw) -> str:
        out = f"draw {self.amount(s.amount, 'cards', counted=True)}"
        if s.source is not None:
            out += f" from {self.expr(s.source)}"
        if s.dest is not None:
            out += f" into {self.expr(s.dest)}"
        return out + "."

    def s_Shuffle(self, s: n.Shuffle) -> str:
        into = f" into {self.expr(s.into)}" if s.into is not None else ""
        return f"shuffle {self.expr(s.zone)}{into}."

    def s_ZoneOp(self, s: n.ZoneOp) -> str:
        to = f" to {self.expr(s.to)}" if s.to is not None else ""
        return f"{s.op} {self.expr(s.what)}{to}."

    def s_Create(self, s: n.Create) -> str:
        out = f"create {article(s.definition)} at {self.expr(s.place)}"
        if s.owner is not None:
            out += f" for {self.expr(s.owner)}"
        if s.bind:
            out += f", called {s.bind}"
        return out + "."

    def s_Roll(self, s: n.Roll) -> str:
        if s.kind == "one":
            dice = f"a d{s.sides}"
        elif s.kind == "many":
            dice = f"{self.expr(s.count)} d{s.sides}"
        elif s.kind == "sized":
            dice = f"a die with {self.expr(s.sides)} sides"
        else:
            dice = f"the dice {self.expr(s.sides)}"
        return f"roll {dice} as {s.bind}."

    def s_Choose(self, s: n.Choose) -> str:
        # `choose o from [s for s in seats where s != actor]`: "choose o from the seats where o is not you"
        source = self.kept(s.source, s.bind)
        if s.count_kind == "up_to":
            out = f"choose up to {self.expr(s.count)} from {source} as {s.bind}"
        elif s.count_kind == "exactly":
            out = f"choose exactly {self.expr(s.count)} from {source} as {s.bind}"
        else:
            out = f"choose {s.bind} from {source}"
        if s.blind:
            # `choose d from lots by s blind`: the seat picks places, never seeing the cards
            out += ", blind (by their places)" if s.count_kind else ", blind (by its place)"
        if s.by is not None:
            out += f", chosen by {self.expr(s.by)}"
        if s.question is not None:
            out += f" ({self.template(s.question)})"
        return out + "."

    def s_ChooseRange(self, s: n.ChooseRange) -> str:
        out = f"choose a number {s.bind} from {self.expr(s.low)} to {self.expr(s.high)}"
        if s.by is not None:
            out += f", chosen by {self.expr(s.by)}"
        if s.question is not None:
            out += f" ({self.template(s.question)})"
        return out + "."

    def s_Ask(self, s: n.Ask) -> str:
        return f"ask {self.expr(s.seat)} {self.template(s.question)}, the answer being {s.bind}."

    def s_Distribute(self, s: n.Distribute) -> str:
        out = f"distribute {self.expr(s.amount)} among {self.expr(s.targets)}"
        if s.by is not None:
            out += f", chosen by {self.expr(s.by)}"
        out += f", as {s.bind}"
        if s.question is not None:
            out += f" ({self.template(s.question)})"
        return out + "."

    def s_Offer(self, s: n.Offer) -> str:
        who = "you" if s.seat is None else self.expr(s.seat)
        acts = join_words([human(a) for a in s.actions], "or") if s.actions else "any action"
        out = f"{KEEP}{who} may {acts}"
        if s.stop_label:
            out += f' or "{s.stop_label}"'
        if s.bind:
            out += f", the choice being {s.bind}"
        if s.question is not None:
            out += f" ({self.template(s.question)})"
        return out + "."

    def s_Pass(self, s: n.Pass) -> str:
        return "pass."

    def s_Break(self, s: n.Break) -> str:
        return "stop repeating."

    def s_Win(self, s: n.Win) -> str:
        return self.outcome(s.seats, "win")

    def s_Lose(self, s: n.Lose) -> str:
        return self.outcome(s.seats, "lose")

    def s_EndGame(self, s: n.EndGame) -> str:
        return "end the game with no winner."

    def s_Log(self, s: n.Log) -> str:
        return f"announce {self.template(s.text)}."

    def s_Resolve(self, s: n.Resolve) -> str:
        return f"resolve the {human(s.handler)} effect of {self.expr(s.card)}."

    def s_CallStmt(self, s: n.CallStmt) -> str:
        return self.call_words(s.name, s.args) + "."

    def s_If(self, s: n.If) -> list[str]:
        out: list[str] = []
        for i, (cond, body) in enumerate(s.branches):
            head = ("if " if i == 0 else "otherwise, if ") + self.expr(cond)
            out.extend(self.nested(head, body))
        if s.otherwise:
            raw = self.raw_block(s.otherwise)
            if len(raw) == 1:
                out.append(f"otherwise, {inline(raw[0])}")
            else:
                out.extend(["otherwise:"] + ["  " + cap(ln) for ln in raw])
        return out

    def s_For(self, s: n.For) -> list[str]:
        if s.end is not None:
            head = f"for each {s.var} from {self.expr(s.source)} to {self.expr(s.end)}"
        else:
            # `for each s in seats where ...` (or the same written as a list): "for each s in the
            # seats where ...", not "for each s in every s in the seats where ..."
            head = f"for each {s.var} in {self.kept(s.source, s.var)}"
        return self.nested(head, s.body)

    def kept(self, src, name: str) -> str:
        """A list that a statement binds `name` to each element of (`choose`, `for each`): a list
        of the elements of another that pass a test reads as that list "where" the test holds,
        said of `name`; any other list as itself."""
        if isinstance(src, n.Comprehension) and isinstance(src.elem, n.Name) and src.elem.name == src.var:
            cond = _rename(src.cond, src.var, name) if src.cond is not None else None
            return self.expr(src.source) + (f" where {self.expr(cond)}" if cond is not None else "")
        return self.expr(src)

    def s_Repeat(self, s: n.Repeat) -> list[str]:
        times = "once" if isinstance(s.count, n.Number) and s.count.value == 1 else f"{self.expr(s.count)} times"
        return self.nested(f"repeat {times}", s.body)

    def s_While(self, s: n.While) -> list[str]:
        return self.nested(f"while {self.expr(s.cond)}", s.body)

    def s_Alternate(self, s: n.Alternate) -> list[str]:
        if s.one_left:
            # the name stays the seat left afterwards: the text says so, for the lines that read it
            return self.nested(f"take turns, each {s.var} in {self.expr(s.seats)} in order, until all but one pass "
                               f"({s.var} is then the one left)", s.body)
        return self.nested(f"take turns, each {s.var} in {self.expr(s.seats)} in order, until all pass", s.body)

    def s_Turn(self, s: n.Turn) -> list[str]:
        return self.nested(f"in the turn of {self.expr(s.seat)}", s.body)

    def s_Phase(self, s: n.Phase) -> list[str]:
        return self.nested(f'in the phase "{s.name}"', s.body)

    # helpers of statements

    def amount(self, node, unit: str, counted: bool) -> str:
        """`2 coins`, `1 coin`: a number of something named in the plural."""
        if isinstance(node, n.Number):
            return how_many(node.value, unit)
        return f"{self.expr(node)} {unit}"

    def tokens(self, amount, token: str, owner) -> str:
        if isinstance(amount, n.Number):
            what = f"{amount.value} {token if amount.value == 1 else plural(token)}"
        else:
            what = f"{self.expr(amount)} {plural(token)}"
        if owner is not None:
            what += f" of {self.expr(owner)}"
        return what

    def seat_subject(self, seat) -> str | None:
        """Who a statement is about when not you: None for you (the card's player)."""
        if seat is None or (isinstance(seat, n.Name) and seat.name == "actor"):
            return None
        return self.expr(seat)

    def outcome(self, seats, verb: str) -> str:
        who = self.expr(seats)
        if who == "you":
            return f"you {verb} the game."
        if self.types.get(id(seats)) == "seat" or (isinstance(seats, n.Name) and seats.name in self.sym.seat_constants()):
            return f"{KEEP}{who} {verb}s the game."
        return f"the game is {'won' if verb == 'win' else 'lost'} by {who}."

    def call_words(self, name: str, args: tuple) -> str:
        """A call of a rule or a define: its name as words, its arguments after it."""
        if not args:
            return human(name)
        shown = []
        for a in args:
            text = self.expr(a)
            if isinstance(a, n.ListLit):
                text = "[" + ", ".join(self.expr(i) for i in a.items) + "]"
            shown.append(text)
        return f"{human(name)} ({', '.join(shown)})"

    def template(self, t: n.Template) -> str:
        parts = []
        for p in t.parts:
            parts.append(p if isinstance(p, str) else "{" + self.expr(p) + "}")
        return '"' + "".join(parts) + '"'

    def fallback(self, node) -> str:
        """A construct without words: its source, counted so the tests can keep this at zero."""
        snippet = self.sources.text_at(node.span) if self.sources is not None else None
        snippet = snippet or type(node).__name__
        self.fallbacks.append(snippet)
        return snippet

    # ───────────── expressions ─────────────

    def expr(self, e) -> str:
        method = getattr(self, "e_" + type(e).__name__, None)
        if method is None:
            return self.fallback(e)
        return method(e)

    def sub(self, e, within: str | None = None, left: bool = False) -> str:
        """An operand: inside an operation (`within`), in parentheses only where English needs
        them to keep the order (`(a + 1) ÷ 2`, but `a + b + c` and `x is 2 and y is 3`); as an
        argument (no `within`), any operation of its own goes in parentheses."""
        text = self.expr(e)
        if within is None:
            return f"({text})" if isinstance(e, (n.BinOp, n.CondExpr)) else text
        if isinstance(e, n.Call) and e.comp is not None and e.comp.cond is not None:
            return f"({text})"  # "(the total of ... where ...) + 1": the where ends before the sum
        inner = _precedence(e)
        outer = _PRECEDENCE.get(within, 7)
        if inner < outer or (inner == outer and not left and inner >= 4):
            return f"({text})"
        return text

    def e_Number(self, e: n.Number) -> str:
        return str(e.value)

    def e_String(self, e: n.String) -> str:
        return f'"{e.value}"'

    def e_Bool(self, e: n.Bool) -> str:
        return "true" if e.value else "false"

    def e_NoneLit(self, e: n.NoneLit) -> str:
        return "nothing"

    def e_Name(self, e: n.Name) -> str:
        sym, name = self.sym, e.name
        if name in BUILTIN_NAME_TEXT:
            return BUILTIN_NAME_TEXT[name]
        if name in sym.spaces:
            return sym.spaces[name].label or name
        if name in sym.vars:
            decl = sym.vars[name]
            return f"your {human(name)}" if per_keys(decl.per) == ("seat",) else human(name)
        if name in sym.zones:
            return f"your {human(name)}" if sym.zones[name].per == "seat" else f"the {human(name)}"
        if name in sym.tracks:
            return f"the {human(name)} track"
        if self.after_noun(e):
            return f"{self.noun_of(e)} {human(name)}"
        return human(name)

    def after_noun(self, e) -> bool:
        """A define without arguments named by a phrase that opens with a preposition, and whose
        value is no yes/no (`in_effect` is a condition as it stands): it reads after a noun."""
        return (isinstance(e, n.Name) and e.name in self.sym.defines and self.types.get(id(e)) != "bool"
                and human(e.name).split(" ", 1)[0].lower() in PREPOSITIONS)

    def noun_of(self, e) -> str:
        """What a value is, by its checked type: "the seats", "the space"; "those" and "the one"
        when the type names no noun a reader knows (a card or a piece: an entity)."""
        t = self.types.get(id(e)) or ""
        many = t.startswith("list:")
        noun = TYPE_NOUNS.get((t[5:] if many else t).split(":", 1)[0])
        if noun is None:
            return "those" if many else "the one"
        return f"the {plural(noun) if many else noun}"

    def e_ListLit(self, e: n.ListLit) -> str:
        if not e.items:
            return "nothing"
        return join_words([self.expr(i) for i in e.items])

    def e_Comprehension(self, e: n.Comprehension) -> str:
        return self.comprehension(e)

    def comprehension(self, c: n.Comprehension, every: str = "every") -> str:
        where = f" where {self.expr(c.cond)}" if c.cond is not None else ""
        source = self.expr(c.source)
        if isinstance(c.elem, n.Name) and c.elem.name == c.var:
            return f"{every} {c.var} in {source}{where}"
        return f"{self.expr(c.elem)} for {every} {c.var} in {source}{where}"

    def e_Call(self, e: n.Call) -> str:
        if e.comp is not None:
            return self.aggregate(e.func, e.comp)
        if e.func in self.sym.defines:
            return self.call_words(e.func, e.args)
        if e.func in BUILTIN_FUNCTIONS:
            return self.builtin(e.func, e.args)
        return self.fallback(e)

    def aggregate(self, func: str, c: n.Comprehension) -> str:
        source = self.expr(c.source)
        where = f" where {self.expr(c.cond)}" if c.cond is not None else ""
        elem = self.expr(c.elem)
        plain = isinstance(c.elem, n.Name) and c.elem.name == c.var
        if func == "count":
            return f"the number of {c.var} in {source}{where}" if plain else \
                f"the number of {c.var} in {source} where {elem}" + (f" and {self.expr(c.cond)}" if c.cond else "")
        if func == "sum":
            return f"the total of {elem} for every {c.var} in {source}{where}"
        if func in ("max", "min"):
            return f"the {'highest' if func == 'max' else 'lowest'} {elem} for any {c.var} in {source}{where}"
        if func == "any":
            return f"{elem} for some {c.var} in {source}{where}"
        if func == "all":
            return f"{elem} for every {c.var} in {source}{where}"
        if func in ("most", "least"):
            return f"each {c.var} in {source}{where} with {self.most(func, c)}"
        if func == "sorted":
            return f"each {c.var} in {source}{where} in order of {elem} (lowest first)"
        if func == "first":
            return f"the first {c.var} in {source}{where}" if plain else \
                f"the first {elem} for {c.var} in {source}{where}"
        # list(...)
        return self.comprehension(c)

    def builtin(self, func: str, args: tuple) -> str:
        a = [self.sub(x) for x in args]
        one = a[0] if a else ""
        phrases = {
            "size": lambda: (f"the number of cards in {one}" if args and self.types.get(id(args[0])) == "zone"
                             else f"the size of {one}"),
            "left": lambda: f"the seat left of {one}",
            "right": lambda: f"the seat right of {one}",
            "other": lambda: f"the seat other than {one}",
            "seats_from": lambda: f"the seats in turn from {one}",
            "top": lambda: self.top(a, args),
            "first": lambda: self.end_of("first", args, one),
            "last": lambda: self.end_of("last", args, one),
            "abs": lambda: f"the absolute value of {one}",
            "min": lambda: f"the lower of {join_words(a)}" if len(a) > 1 else f"the lowest of {one}",
            "max": lambda: f"the higher of {join_words(a)}" if len(a) > 1 else f"the highest of {one}",
            "sum": lambda: f"the total of {one}",
            "count": lambda: f"the number of {one}",
            "any": lambda: f"any of {one}",
            "all": lambda: f"all of {one}",
            "most": lambda: f"whoever has the most of {one}",
            "least": lambda: f"whoever has the least of {one}",
            "sorted": lambda: f"{one} in order (lowest first)",
            "adjacent": lambda: f"the spaces next to {one}" + (f" ({a[1]})" if len(a) > 1 else ""),
            "share": lambda: f"the share of {a[0]} for {a[1]}",
            "space": lambda: f"space {a[1]} of {a[0]}",
            "zone_of": lambda: f"the zone {one} is in" if len(a) == 1 else f"the zone of {a[1]} on {a[0]}",
            "marker": lambda: f"the marker of {one}",
            "depth": lambda: f"how deep {one} is in its end zone",
            "owner_of": lambda: f"the owner of {one}",
            "range": lambda: f"the numbers from {a[0]} to {a[1]}",
            "seat_named": lambda: f"the seat named {one}",
            "seat_number": lambda: f"the seat number of {one}",
            "passed": lambda: f"{one} has passed",
            "without": lambda: f"{a[0]} without {a[1]}",
            "card": lambda: f"the card {one}",
            "cards": lambda: f"the cards {one}",
            "position": lambda: f"the position of {one}",
            "item": lambda: f"item {a[1]} of {a[0]}",
            "step": lambda: f"the space {a[1]} of {a[0]}",
            "line": lambda: f"the line of {a[2]} spaces {a[1]} from {a[0]}",
            "forward": lambda: f"forward for {one}",
        }
        make = phrases.get(func)
        return make() if make else f"the {human(func)} of {join_words(a)}"

    def most(self, func: str, c: n.Comprehension) -> str:
        """What `most(...)` ranks by: "the highest worth" (`c.worth for c in ...`), "the most coins"
        (`coins of s for s in seats`), "the highest total of ..." (not "the most c's worth" or
        "the most the total of ...")."""
        highest = "highest" if func == "most" else "lowest"
        elem = c.elem
        if isinstance(elem, n.Attr) and isinstance(elem.obj, n.Name) and elem.obj.name == c.var:
            return f"the {highest} {human(elem.name)}"
        if isinstance(elem, n.Access) and isinstance(elem.of, n.Name) and elem.of.name == c.var and elem.at is None \
                and self.flag_of(elem) is None:
            return f"the {func} {human(elem.name)}"
        text = self.expr(elem)
        if text.startswith("the "):
            return f"the {highest} {text[len('the '):]}"
        return f"the {func} {text}"

    def end_of(self, which: str, args: tuple, one: str) -> str:
        """`first(most(... for t in tracks))` is "the first t in tracks with the highest ...", not
        "the first of each t in tracks ..."."""
        arg = args[0] if args else None
        if isinstance(arg, n.Call) and arg.comp is not None and arg.func in ("most", "least") and one.startswith("each "):
            return f"the {which} {one[len('each '):]}"
        return f"the {which} of {one}"

    def top(self, a: list, args: tuple) -> str:
        if len(a) == 1:
            return f"the top card of {a[0]}"
        if isinstance(args[1], (n.Number, n.Name)):
            return f"the top {a[1]} cards of {a[0]}"
        return f"the top cards of {a[0]} (as many as {self.expr(args[1])})"

    def e_Attr(self, e: n.Attr) -> str:
        """A name's property is its possessive ("c's name"); anything longer takes "of" ("the
        name of held (target)"), as a possessive after a call or a phrase ("held (target)'s
        name") is no English."""
        field = human(e.name)
        if isinstance(e.obj, n.Name) and not self.after_noun(e.obj):
            obj = self.expr(e.obj)
            return f"{obj}'{'' if obj.endswith('s') else 's'} {field}"
        return f"the {field} of {self.sub(e.obj)}"

    def e_Access(self, e: n.Access, as_value: bool = False) -> str:
        sym = self.sym
        flag = self.flag_of(e)
        if flag is not None and not as_value:  # `ruined of d`: "d is ruined" ("ruined of d" is no English)
            return f"{flag[0]} {flag[1]} {human(e.name)}"
        yours = isinstance(e.of, n.Name) and e.of.name == "actor"  # `coins of actor`: "your coins"
        of = f" of {self.expr(e.of)}" if e.of is not None and not yours else ""
        at = f" at {self.expr(e.at)}" if e.at is not None else ""
        mine = "your " if yours else ""
        if e.name in sym.tokens:
            return f"the number of {mine}{plural(e.name)}{of}{at}"
        if sym.entity_kind_collection(e.name) or e.name in sym.entities:
            return f"{'your' if yours else 'the'} {e.name} pieces{of}{at}"
        if e.name in sym.zones and is_family(sym.zones[e.name]):
            # a zone of a family: `expedition of s at c.colour` is "s's expedition for c's colour"
            if per_keys(sym.zones[e.name].per)[0] == "seat":
                key = f" for {self.expr(e.at)}" if e.at is not None else ""
                return f"{mine or 'the '}{human(e.name)}{of}{key}"
            key = f" for {self.expr(e.of)}" if e.of is not None else ""
            return f"the {human(e.name)}{key}"
        return f"{mine}{human(e.name)}{of}{at}"

    def e_BinOp(self, e: n.BinOp) -> str:
        left, right = self.sub(e.left, e.op, left=True), self.sub(e.right, e.op)
        if e.op in ("and", "or"):
            return f"{left} {e.op} {right}"
        if e.op in COMPARISONS:
            verb = COMPARISONS[e.op]
            if (left == "you" or _your_plural(left)) and verb.startswith("is"):
                verb = "are" + verb[2:]
            return f"{left} {verb} {right}"
        return f"{left} {ARITHMETIC.get(e.op, e.op)} {right}"

    def flag_of(self, e) -> tuple[str, str] | None:
        """(whose, verb) of a flag read of someone or something (`protected of s`), which reads as
        what it says of them: ("s", "is"), ("you", "are"); None for anything else."""
        if not isinstance(e, n.Access) or e.of is None or e.at is not None:
            return None
        decl = self.sym.vars.get(e.name)
        if decl is None or decl.kind != "flag":
            return None
        who = self.expr(e.of)
        return who, "are" if who == "you" else "is"

    def e_Not(self, e: n.Not) -> str:
        flag = self.flag_of(e.operand)
        if flag is not None:  # `not protected of s`: "s is not protected"
            return f"{flag[0]} {flag[1]} not {human(e.operand.name)}"
        return f"not {self.sub(e.operand, 'not')}"

    def e_Neg(self, e: n.Neg) -> str:
        return f"-{self.sub(e.operand, 'neg')}"

    def e_CondExpr(self, e: n.CondExpr) -> str:
        return f"{self.sub(e.then, 'if')} if {self.expr(e.cond)}, otherwise {self.sub(e.other, 'if')}"

    def e_Template(self, e: n.Template) -> str:
        return self.template(e)


_PRECEDENCE = {"if": 1, "or": 2, "and": 3, "not": 4, "+": 6, "-": 6, "*": 7, "/": 7, "%": 7, "neg": 8}


def _precedence(e) -> int:
    """How tightly an expression binds, as the grammar reads it: a conditional loosest, then
    or, and, not, comparisons, sums, products, a minus sign; anything else is atomic."""
    if isinstance(e, n.CondExpr):
        return 0
    if isinstance(e, n.BinOp):
        return _PRECEDENCE.get(e.op, 5)  # the comparisons: 5
    if isinstance(e, n.Not):
        return 4
    if isinstance(e, n.Neg):
        return 8
    return 9


def _your_plural(text: str) -> bool:
    """'your buttons', 'your coins': a plural of yours, which takes 'are'."""
    return text.startswith("your ") and " " not in text[5:] and text.endswith("s") and not text.endswith("ss")


def _rename(node, old: str, new: str):
    """A copy of an expression with the name `old` read as `new` (not inside a comprehension that
    binds `old` again)."""
    if isinstance(node, n.Name):
        return attrs.evolve(node, name=new) if node.name == old else node
    if isinstance(node, tuple):
        return tuple(_rename(x, old, new) for x in node)
    if isinstance(node, n.Comprehension) and node.var == old:
        return attrs.evolve(node, source=_rename(node.source, old, new))
    if attrs.has(type(node)):
        changes = {a.name: _rename(getattr(node, a.name), old, new) for a in attrs.fields(type(node))
                   if a.name != "span" and (isinstance(getattr(node, a.name), tuple) or attrs.has(type(getattr(node, a.name))))}
        return attrs.evolve(node, **changes) if changes else node
    return node


def _names(node, name: str) -> bool:
    """Whether a declaration's code holds `name` as a text (`"Duke"`) or a bare name (`Duke`)."""
    if isinstance(node, n.String):
        return node.value == name
    if isinstance(node, n.Name):
        return node.name == name
    if isinstance(node, (tuple, list)):
        return any(_names(item, name) for item in node)
    if attrs.has(type(node)):
        return any(_names(getattr(node, f.name), name) for f in attrs.fields(type(node)) if f.name != "span")
    return False
