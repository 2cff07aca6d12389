"""A compiled game: the rules, fixed once, from which any number of matches are started."""

from __future__ import annotations

from attrs import define, field

from ..engine.runtime import RuleError
from ..language.checker import Checked
from ..language.limits import player_range
from ..language.source import Sources
from .program import Compiler


@define(eq=False)
class Game:
    title: str
    min_players: int
    max_players: int
    sides: tuple
    names: tuple
    path: str = ""
    fingerprint: str = ""
    values: dict = field(factory=dict)
    vars: dict = field(factory=dict)
    zones: dict = field(factory=dict)  # every zone, a family's members each under its own name
    families: dict = field(factory=dict)  # family name -> ZoneFamily (language.symbols)
    # `per WORD` -> KeySet (language.symbols), for each set of keys a counter, flag or var is kept per
    key_sets: dict = field(factory=dict)
    token_families: dict = field(factory=dict)  # family name -> ZoneFamily, of tokens kept per a set of keys
    tokens: dict = field(factory=dict)
    groups: dict = field(factory=dict)
    tracks: dict = field(factory=dict)
    spaces: dict = field(factory=dict)
    space_kinds: dict = field(factory=dict)
    # space name -> its place among the spaces as the boards declare them: the order of the
    # keys of a var kept per space in every view (view.key_order), made once with the spaces
    space_order: dict = field(factory=dict)
    kind_tree: dict = field(factory=dict)
    kind_fields: dict = field(factory=dict)
    defs: dict = field(factory=dict)
    defines: dict = field(factory=dict)
    # remembering define values (Runtime.touch): a changed name -> the defines to forget (those
    # that read it, and those whose reads are unknown); the latter alone for any other name.
    # None until a match first runs (vm.memo_for): a load that plays nothing does not pay for it
    define_drops: dict | None = None
    define_unknown: tuple = ()
    move_drops: dict = field(factory=dict)  # (from, to) -> what a move drops, filled as it goes
    move_marks: dict = field(factory=dict)  # (from, to) -> (names changed, seat of `to` or None)
    define_fixed: frozenset = frozenset()  # defines that read no state: kept for the whole match
    define_token_places: dict = field(factory=dict)  # token -> {define: index of the argument that is its place}
    define_place_args: dict = field(factory=dict)  # define -> indexes of its arguments some token is read at
    # the defines whose generated bodies record every place they read a token at (set when the
    # game is compiled to Python), and those among them indexed by what they read (token_places)
    define_recorded: frozenset = frozenset()
    define_reading: frozenset = frozenset()
    fixed_values: dict = field(factory=dict)  # seat count -> {define: {key: value}} of those
    carried: tuple = (None, None)  # (state, memo): the last match state run, and its defines' values
    # the cards every match starts with, in id order (Match.new makes them from `defs`), and for
    # each (kinds, card name) asked by Runtime.entities_of, the ids among them that match
    box_names: tuple | None = None
    box_index: dict = field(factory=dict)
    box_checked: object = None  # the `ents` list last found to start with those cards
    rule_params: dict = field(factory=dict)
    actions: dict = field(factory=dict)
    codes: dict = field(factory=dict)
    triggers: dict = field(factory=dict)
    watched: set = field(factory=set)
    anytime: list = field(factory=list)
    becomes: list = field(factory=list)  # (condition, code id, names it reads or None, span)
    # every name an 'at any time' block reads; None when any change must check (a block whose
    # reads are unknown, or a 'when ... becomes true')
    anytime_watch: frozenset | None = None
    payoff: object = None  # fn(rt, env) of `payoff EXPR`, with env["seat"] the seat
    grid: dict = field(factory=dict)  # cell name -> (column, row), for a grid board
    grid_at: dict = field(factory=dict)  # (column, row) -> cell name
    resets: dict = field(factory=dict)
    checked: Checked | None = None
    sources: Sources | None = None
    warnings: list = field(factory=list)
    seat_name_lists: dict = field(factory=dict)  # seat count -> seat_names

    def players_problem(self, n) -> str | None:
        """Why a match of this game cannot have `n` seats ("Market Town is for 2 to 4 players,
        not 9"), in the words every way in gives it (Match.new, replays, simulate, the adapters);
        None when it can."""
        if isinstance(n, int) and not isinstance(n, bool) and self.min_players <= n <= self.max_players:
            return None
        from ..engine.match import shown_value

        return f"{self.title} is for {player_range(self.min_players, self.max_players)} players, not {shown_value(n)}"

    def seat_names(self, n: int) -> tuple:
        """The seats' names in a match of `n` seats. A count the game does not allow is a
        ValueError that says which it allows: made up names ("P9") or a cut list (n below 0)
        would pass for an answer."""
        # only a whole number is looked up (NumPy's too, as an int): 2.0 and True hash as 2 and
        # 1, and would be answered from the table as if they were counts; anything else goes to
        # players_problem
        if n.__class__ is not int and not isinstance(n, bool) and hasattr(n, "__index__"):
            n = n.__index__()
        found = self.seat_name_lists.get(n) if n.__class__ is int else None
        if found is None:  # asked at every decision (its prompt): made once for each seat count
            problem = self.players_problem(n)
            if problem is not None:
                raise ValueError(problem)
            if self.sides:
                found = self.sides
            elif len(self.names) >= n:
                found = tuple(self.names[:n])
            else:
                found = tuple(f"P{i + 1}" for i in range(n))
            self.seat_name_lists[n] = found
        return found

    def zone_owner(self, key: str):
        if "@" in key:
            name, _, seat = key.partition("@")
            if name in self.zones:
                return int(seat)
        return None

    def static_field(self, rt, eid: int, defname: str, name: str):
        d = self.defs[defname]
        fn = d.props.get(name)
        env = {"this": eid, "$act": rt.state["ents"][eid]["o"], "$cur": rt.state["ents"][eid]["o"]}
        if fn is not None:
            return fn(rt, env)
        default = self.kind_fields.get(d.kind, {}).get(name, _NO_FIELD)
        if default is _NO_FIELD:
            raise RuleError(f"'{defname}' has no property '{name}'")
        return None if default is None else default(rt, env)

    def make_define_tables(self) -> None:
        """What each define reads, and what each change drops (see Runtime.touch), worked out
        from the checked game when one of its matches first runs (vm.memo_for)."""
        if self.checked is None:  # nothing to work it out from: every change drops every define
            self.define_unknown = tuple(self.defines)
            self.define_drops = {}
            return
        Compiler(self.checked, self).define_memo_tables()

    def closures(self):
        """A compiler of the checked game's expressions into closures (`.closure(node)`), for
        what is compiled after the game, when first asked for: the parts of a requirement a
        refused move names (decisions.py, `_parts`). None when the game keeps no checked program."""
        return None if self.checked is None else Compiler(self.checked, self)

    def new_match(self, players: int | None = None, seed: int = 0, chance: str = "auto", forced: list | None = None):
        from ..engine.match import Match

        return Match.new(self, players, seed, chance, forced)


_NO_FIELD = object()


def compile_game(checked: Checked, path: str = "", fingerprint: str = "", sources: Sources | None = None) -> Game:
    sym = checked.symbols
    # the sources before the code: a result's reason quotes the statement that ended the game
    game = Game(sym.title, sym.min_players, sym.max_players, tuple(sym.sides), tuple(sym.seat_names),
                path=path, fingerprint=fingerprint, checked=checked, sources=sources)
    Compiler(checked, game).compile()
    for name, spec in game.vars.items():
        if spec.resets:
            game.resets.setdefault(spec.resets, []).append(name)
    return game
