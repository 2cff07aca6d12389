"""Every use of every name of a game, for references and rename.

Each file the game read is parsed once per analysis (the index is kept with the analysis, so
the requests that follow reuse it), and each name in its syntax tree (a NAME token, a quoted
name, a name inside a text's `{hole}`) is told apart by what the checker made of it:

- a name bound in a block (`let`, `for each`, a parameter) is none of the game's names: the
  checker resolved it as one, or the token binds it;
- a property is told by its place (`cost: number` in a kind, `cost 3` in a card, `c.cost`),
  and after a '.' by what the checker resolved it to (a card's property, a space's, or a
  built-in attribute such as `.name`);
- any other name is what hover says it is (Workspace.named): a counter, a card, a rule...

A name is keyed by what it is and its spelling, `("counter", "coins")`; two names with one key
are the same thing. A name that the game itself declares has at least one occurrence that
`declares` it (the NAME of `counter coins`, of `seats Amber, Basil`, of `cost: number`).
"""

from __future__ import annotations

from attrs import define
from lark import Token, Tree

from ..language import nodes as n
from ..language.parser import parse
from ..language.source import LudusError, Span
from ..language.symbols import plural

# rules whose own NAME binds a name in a block: never one of the game's names
BINDERS = {"let_stmt", "create_stmt", "roll_stmt", "choose_stmt", "choose_range_stmt", "ask_stmt",
           "distribute_stmt", "offer_stmt", "for_stmt", "for_where_stmt", "alternate_stmt", "comp_args",
           "list_comp", "when_becomes", "param", "action_param", "entity_run"}
# rules whose NAME is a card's handler (`on play:`, `resolve play of c`): not looked up
HANDLERS = {"handler", "resolve_stmt"}
# rule -> which of its NAMEs (counting NAMEs only) it declares
DECLARES = {"value_decl": 0, "var_decl": 0, "zone_decl": 0, "group_decl": 0, "kind_decl": 0, "field_decl": 0,
            "board_decl": 0, "grid_decl": 0, "track_decl": 0, "end_zone": 0, "define_decl": 0, "rule_decl": 0,
            "space_decl": 1, "prop_pair": 0}
SPACE_KIND_DECLARED = ("space_decl", 0)  # `quarter Docks ...` declares the kind of space `quarter`
LISTS_DECLARED = {"token_decl", "seats_decl", "sides_decl"}  # every name of their name_list
NAMED_DECLS = {"entity_decl", "action_decl"}  # their def_name
# quoted texts that are no card's name even when they spell one
NOT_NAMES = {"test_decl", "game_decl", "include_decl", "extends_decl", "log_stmt"}
# what a property after '.' is, by the checker's resolution
ATTR_KEYS = {"field": "property", "space_prop": "space property"}
# a property after '.' on something of no known type, that both a kind and a space declare
EITHER = "property or space property"
TYPES = {"kind", "spaces"}  # what a name in a type (`: region`, `list of Card`) may be
NOT_RENAMED = {"local", "built-in name", "built-in function"}
PER_DECLS = {"zone_decl", "var_decl", "token_decl"}  # what a `per` keeps: its word may name a set of keys


@define
class Occurrence:
    path: str  # resolved
    line: int  # 1-based, as spans
    column: int  # of the name itself (inside the quotes of a quoted one)
    end_column: int
    word: str
    quoted: bool
    key: tuple | None  # (what it is, its name); None: none of the game's names
    declares: bool = False
    plural: bool = False  # the plural alias of a kind (`Properties`, `regions`): key holds the singular
    # the singular of a list value that names the keys of a zone family, counter or token (`per colour`):
    # key holds the value, and a rename writes the singular of its new name here
    singular: bool = False

    @property
    def span(self) -> Span:
        return Span(self.path, self.line, self.column, self.line, self.end_column)

    def covers(self, line: int, column: int) -> bool:
        """Whether a place (1-based) is on the name, its quotes, or just after it."""
        edge = 1 if self.quoted else 0
        return line == self.line and self.column - edge <= column <= self.end_column + edge


def _tokens(tree: Tree):
    """(token, its rule, the rule above, how many NAMEs of its rule come before it)."""
    stack: list[tuple[Tree, str | None]] = [(tree, None)]
    while stack:
        node, above = stack.pop()
        names = 0
        for child in node.children:
            if isinstance(child, Tree):
                stack.append((child, node.data))
            elif isinstance(child, Token) and child.type in ("NAME", "STRING"):
                yield child, node.data, above, names
                names += child.type == "NAME"


def _holes(raw: str):
    """(offset in the string token, text) of each `{hole}` of a quoted text, as the builder
    splits them (build/base.py, template)."""
    pos = 1
    while pos < len(raw) - 1:
        ch = raw[pos]
        if ch == "\\":
            pos += 2
            continue
        if ch == "{":
            end = raw.find("}", pos)
            if end < 0:
                return
            yield pos + 1, raw[pos + 1:end]
            pos = end + 1
            continue
        pos += 1


class Index:
    """The occurrences of the names of one analysed game."""

    def __init__(self, workspace, analysis, resolve) -> None:
        """`workspace` answers what a name is (Workspace.named); `resolve` spells a path as the
        workspace's keys do."""
        self.workspace, self.analysis, self.resolve = workspace, analysis, resolve
        self._paths: dict[str, str] = {}
        checked = analysis.checked
        self.locals: set[tuple[str, int, int]] = set()
        self.local_names: set[str] = set()
        self.attrs: dict[tuple[str, int, int], str] = {}
        for node in checked.keep:
            res = checked.res.get(id(node))
            if not res:
                continue
            where = self._resolved(node.span.path)
            if isinstance(node, n.Name) and res[0] == "local":
                self.locals.add((where, node.span.line, node.span.column))
                self.local_names.add(node.name)
            elif isinstance(node, n.Attr):
                self.attrs[(where, node.span.end_line, node.span.end_column)] = res[0]
        # the number of a run of cards (`n` of `card "{n}" for n in 3 to 35: number n`), in its
        # name's holes and its properties: the loader put it as a number, so the checker never saw it
        for decl in {id(e.origin[0]): e.origin[0] for e in checked.symbols.entities.values() if e.origin}.values():
            run, where = decl.run, self._resolved(decl.span.path)
            for node in n.each_node((run.name, decl.props)):
                if isinstance(node, n.Name) and node.name == run.var:
                    self.locals.add((where, node.span.line, node.span.column))
                    self.local_names.add(node.name)
        self._named: dict[tuple[str, bool], tuple | None] = {}
        self.by_file: dict[str, list[Occurrence]] = {}
        for path, text in analysis.sources.texts.items():
            self.by_file[self._resolved(path)] = self._file(self._resolved(path), text)

    def key_of(self, word: str, quoted: bool) -> tuple[tuple | None, bool]:
        """The key of a name of the game (not one bound in a block), as hover tells it, and
        whether the word is the plural alias of the kind the key names."""
        if (word, quoted) not in self._named:
            sym = self.analysis.checked.symbols
            symbol = self.workspace.named(self.analysis, word, quoted, texts=False)
            key, plural = None, False
            if symbol is not None and symbol.kind == "spaces":
                singular = sym.kind_of_space_collection(word)
                key, plural = ("spaces", singular), singular != word
            elif symbol is not None and symbol.kind not in NOT_RENAMED:
                kind = "property" if symbol.kind.startswith("property of") else symbol.kind
                key = (kind, word)
            elif symbol is None and not quoted and sym.plurals.get(word) in sym.kinds:
                key, plural = ("kind", sym.plurals[word]), True
            self._named[word, quoted] = (key, plural)
        return self._named[word, quoted]

    def _names_keys(self, word: str) -> bool:
        """Whether `per WORD` is meant as a set of keys: not a seat, a board kind or a kind of
        card or piece (symbols.key_set)."""
        sym = self.analysis.checked.symbols
        return word != "seat" and word not in sym.space_kinds and word not in sym.kinds

    def keys_at(self, path: str, line: int, column: int) -> tuple | None:
        """The key of the list value a `per WORD` at a place (1-based) names, or None when no
        such word is there."""
        here = self.at(path, line, column)
        return here.key if here is not None and here.singular else None

    def _family_value(self, word: str) -> tuple | None:
        """The key of the list value a zone's `per WORD` names by its singular (symbols.family_fault),
        or None."""
        name = plural(word)
        key, _ = self.key_of(name, False) if word != "seat" else (None, False)
        return key if key is not None and key[0] == "value" else None

    def _attr_key(self, res: str, word: str) -> tuple | None:
        if res in ATTR_KEYS:
            return (ATTR_KEYS[res], word)
        if res != "dynamic_attr":
            return None  # a built-in: `.name`, `.owner`, a track's `.start`
        sym = self.analysis.checked.symbols
        of_kind = any(word in sym.fields_of(k) for k in sym.kinds)
        of_space = any(p.name == word for sp in sym.spaces.values() for p in sp.props)
        if of_kind and of_space:
            return (EITHER, word)
        return ("space property", word) if of_space else ("property", word)

    def _file(self, path: str, text: str) -> list[Occurrence]:
        try:
            tree = parse(text, path)
        except (LudusError, RecursionError):
            return []
        out: list[Occurrence] = []
        self._scan(tree, path, 0, 0, out)
        return sorted(out, key=lambda o: (o.line, o.column))

    def _scan(self, tree: Tree, path: str, dline: int, dcol: int, out: list) -> None:
        for tok, rule, above, index in _tokens(tree):
            line, column = tok.line + dline, tok.column + dcol
            if tok.type == "STRING":
                raw = str(tok)
                for offset, hole in _holes(raw):
                    try:
                        sub = parse(hole, path, start="expr")
                    except (LudusError, RecursionError):
                        continue
                    self._scan(sub, path, line - 1, column + offset - 1, out)
                word = raw[1:-1]
                if rule in NOT_NAMES or not word or any(c in word for c in '\\{}"'):
                    continue
                key, _ = self.key_of(word, True)
                if key is not None:
                    declares = rule == "def_name" and above in NAMED_DECLS
                    out.append(Occurrence(path, line, column + 1, column + 1 + len(word), word, True, key, declares))
                continue
            word = str(tok)
            if rule in BINDERS or rule in HANDLERS or (path, line, column) in self.locals:
                continue
            plural = False
            if rule in ("field_decl", "prop") and index == 0:
                key = ("property", word)
            elif rule == "prop_pair" and index == 0:
                key = ("space property", word)
            elif rule == "attr":
                key = self._attr_key(self.attrs.get((path, tok.end_line + dline, tok.end_column + dcol), "field"), word)
            elif rule == "per" and above in PER_DECLS and self._names_keys(word):
                # `per colour` names the set of keys `colours` even where a card has a property
                # `colour`: the word in a `per` is a seat, a kind, or a set of keys, never a property
                value = self._family_value(word)
                if value is not None:  # the family's keys: the list value of that plural
                    out.append(Occurrence(path, line, column, column + len(word), word, False, value,
                                          singular=True))
                continue
            else:
                key, plural = self.key_of(word, False)
                if rule == "type" and key is not None and key[0] not in TYPES:
                    key = None  # `number: number`: the property, then the type
            if key is None:
                continue
            declares = (DECLARES.get(rule) == index or (rule, index) == SPACE_KIND_DECLARED
                        or (rule == "name_list" and above in LISTS_DECLARED)
                        or (rule == "def_name" and above in NAMED_DECLS))
            out.append(Occurrence(path, line, column, column + len(word), word, False, key, declares and not plural,
                                  plural))

    def _resolved(self, path: str) -> str:
        if path not in self._paths:
            self._paths[path] = self.resolve(path)
        return self._paths[path]

    # ── questions ──

    def at(self, path: str, line: int, column: int) -> Occurrence | None:
        """The occurrence at a place (1-based) of a file, if a name of the game is there."""
        for o in self.by_file.get(self.resolve(path), ()):
            if o.covers(line, column):
                return o
        return None

    def of(self, key: tuple) -> list[Occurrence]:
        """The occurrences of a name; a card's property and a space's take in the uses that
        may be either."""
        keys = {key, (EITHER, key[1])} if key[0] in ("property", "space property") else {key}
        return [o for occs in self.by_file.values() for o in occs if o.key in keys]

    def declared(self, key: tuple) -> bool:
        return any(o.declares for o in self.of(key))
