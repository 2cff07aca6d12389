"""Declarations: the game's header, components, cards, boards, tracks, rules, actions, flow, tests."""

from __future__ import annotations

from lark import Token, v_args

from .. import nodes as n
from ..limits import MAX_GRID_COLUMNS, MAX_GRID_ROWS
from ..source import Diagnostic, LudusError
from .base import BuilderBase, _block, _tok, unquote

# the kind of a card or piece declared without `is`; declared for it when the game does not
IMPLICIT_KINDS = {"card": "Card", "piece": "Piece"}


def _options(found: dict, opts) -> tuple:
    """Fill `found` with a declaration's options (key, value, span), in the order written; give
    back those written again after the first (key, span), which the checker refuses: a second
    `start` or a second visibility would otherwise quietly take the first one's place."""
    repeated = []
    seen = set()
    for key, value, span in opts:
        if key in seen:
            repeated.append((key, span))
        seen.add(key)
        found[key] = value
    return tuple(repeated)


class DeclarationBuilder(BuilderBase):
    """One method per declaration rule of the grammar."""

    # ── program and declarations ──

    @v_args(meta=True)
    def start(self, meta, items):
        return n.Program(self.path, _block(items), span=self.span(meta))

    def statements(self, c):
        return _block(c)

    @v_args(meta=True)
    def game_decl(self, meta, c):
        return n.GameDecl(unquote(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def players_decl(self, meta, c):
        low = int(c[0])
        high = int(c[1]) if c[1] is not None else low
        return n.PlayersDecl(low, high, span=self.span(meta))

    @v_args(meta=True)
    def sides_decl(self, meta, c):
        return n.SidesDecl(c[0], span=self.span(meta))

    @v_args(meta=True)
    def seats_decl(self, meta, c):
        return n.SeatsDecl(c[0], span=self.span(meta))

    @v_args(meta=True)
    def include_decl(self, meta, c):
        return n.IncludeDecl(unquote(c[0]), False, span=self.span(meta))

    @v_args(meta=True)
    def extends_decl(self, meta, c):
        return n.IncludeDecl(unquote(c[0]), True, span=self.span(meta))

    @v_args(meta=True)
    def remove_decl(self, meta, c):
        return n.RemoveDecl(str(c[0].children[0]), c[1], span=self.span(meta))

    def name_list(self, c):
        return tuple(str(t) for t in c)

    def override(self, c):
        return True

    def per(self, c):
        # `per seat and state`: a var kept for each pair, written "seat and state"
        return str(c[0]) if c[1] is None else f"{c[0]} and {c[1]}"

    def def_name(self, c):
        tok = c[0]
        return unquote(tok) if tok.type == "STRING" else str(tok)

    @v_args(meta=True)
    def value_decl(self, meta, c):
        return n.ValueDecl(str(c[1]), c[2], bool(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def var_decl(self, meta, c):
        override, word, name, per, type_, *opts = c
        found = {"start": None, "min": None, "max": None, "resets": None, "visibility": "public",
                 "unlisted": False}
        repeated = _options(found, opts)
        return n.VarDecl(
            str(word.children[0]), str(name), per, type_, found["start"], found["min"], found["max"],
            found["resets"], found["visibility"], bool(override), found["unlisted"], repeated,
            span=self.span(meta),
        )

    @v_args(meta=True)
    def opt_start(self, meta, c):
        return ("start", c[0], self.span(meta))

    @v_args(meta=True)
    def opt_min(self, meta, c):
        return ("min", c[0], self.span(meta))

    @v_args(meta=True)
    def opt_max(self, meta, c):
        return ("max", c[0], self.span(meta))

    @v_args(meta=True)
    def opt_resets(self, meta, c):
        return ("resets", str(c[0]), self.span(meta))

    @v_args(meta=True)
    def opt_visibility(self, meta, c):
        return ("visibility", c[0], self.span(meta))

    @v_args(meta=True)
    def opt_unlisted(self, meta, c):
        return ("unlisted", True, self.span(meta))

    @v_args(meta=True)
    def opt_refill(self, meta, c):
        return ("refill", str(c[0]), self.span(meta))

    def visibility(self, c):
        return " ".join(str(t) for t in c)

    @v_args(meta=True)
    def zone_decl(self, meta, c):
        override, name, per, *opts = c
        found = {"visibility": "public", "refill": None}
        repeated = _options(found, opts)
        return n.ZoneDecl(str(name), per, found["visibility"], found["refill"], bool(override), repeated,
                          span=self.span(meta))

    @v_args(meta=True)
    def token_decl(self, meta, c):
        return n.TokenDecl(c[1], c[2], bool(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def group_decl(self, meta, c):
        return n.GroupDecl(str(c[1]), c[2], bool(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def type(self, meta, c):
        if len(c) == 1 and isinstance(c[0], Token):
            return n.TypeRef(str(c[0]), span=self.span(meta))
        return n.TypeRef("list", c[-1], span=self.span(meta))

    @v_args(meta=True)
    def kind_decl(self, meta, c):
        override, name, parent, *fields = c
        return n.KindDecl(str(name), _tok(parent), tuple(fields), bool(override), span=self.span(meta))

    @v_args(meta=True)
    def field_decl(self, meta, c):
        return n.FieldDecl(str(c[0]), c[1], c[2], span=self.span(meta))

    @v_args(meta=True)
    def entity_decl(self, meta, c):
        override, word, name, kind, *items = c
        props = tuple(i for i in items if isinstance(i, n.Prop))
        handlers = tuple(i for i in items if isinstance(i, n.Handler))
        word = str(word.children[0])
        kind = str(kind) if kind is not None else IMPLICIT_KINDS[word]
        return n.EntityDecl(word, name, kind, props, handlers, bool(override), span=self.span(meta))

    @v_args(meta=True)
    def entity_run_decl(self, meta, c):
        """`card "{n}" for n in 3 to 35: number n`: one declaration for a run of numbered cards,
        kept whole here (so that `override` and `remove` in a variant take the run by its quoted
        name, "{n}"); the loader makes its cards once the values its ends name are known."""
        override, word, name, run, kind, *items = c
        word = str(word.children[0])
        var, low, high, run_span = run
        # the quoted name with its holes parsed, as a log line's are: each hole is worked out per card
        template = self.template(name)
        props = tuple(i for i in items if isinstance(i, n.Prop))
        handlers = tuple(i for i in items if isinstance(i, n.Handler))
        kind = str(kind) if kind is not None else IMPLICIT_KINDS[word]
        return n.EntityDecl(word, unquote(name), kind, props, handlers, bool(override), span=self.span(meta),
                            run=n.CardRun(var, low, high, template, span=run_span))

    @v_args(meta=True)
    def entity_run(self, meta, c):
        return (str(c[0]), c[1], c[2], self.span(meta))

    @v_args(meta=True)
    def prop(self, meta, c):
        return n.Prop(str(c[0]), c[1], span=self.span(meta))

    @v_args(meta=True)
    def handler(self, meta, c):
        return n.Handler(str(c[0]), c[1], span=self.span(meta))

    @v_args(meta=True)
    def board_decl(self, meta, c):
        override, name, visibility, *spaces = c
        return n.BoardDecl(str(name), tuple(spaces), bool(override), span=self.span(meta),
                           visibility=visibility or "public")

    @v_args(meta=True)
    def grid_decl(self, meta, c):
        """`board field grid 7 by 6`: cells a1 to g6, column letters left to right, rows from 1 at
        the bottom; each cell has `column` and `row` numbers and its four orthogonal neighbours."""
        override, name, columns, rows, visibility = c
        span = self.span(meta)
        cols, nrows = int(columns), int(rows)
        if not (1 <= cols <= MAX_GRID_COLUMNS and 1 <= nrows <= MAX_GRID_ROWS):
            raise LudusError([Diagnostic("error", f"a grid has 1 to {MAX_GRID_COLUMNS} columns and 1 to {MAX_GRID_ROWS} "
                                                  f"rows, not {cols} by {nrows}", span)])
        letters = "abcdefghijklmnopqrstuvwxyz"

        def cell(col: int, row: int) -> str:
            return f"{letters[col - 1]}{row}"

        spaces = []
        for row in range(1, nrows + 1):
            for col in range(1, cols + 1):
                near = [cell(x, y) for x, y in ((col, row + 1), (col + 1, row), (col, row - 1), (col - 1, row))
                        if 1 <= x <= cols and 1 <= y <= nrows]
                props = (n.Prop("column", n.Number(col, span=span), span=span), n.Prop("row", n.Number(row, span=span), span=span))
                spaces.append(n.SpaceDecl("cell", cell(col, row), None, None, tuple(near), props, span=span))
        return n.BoardDecl(str(name), tuple(spaces), bool(override), span=span, visibility=visibility or "public",
                           grid=(cols, nrows))

    @v_args(meta=True)
    def space_decl(self, meta, c):
        kind, name, label, *rest = c
        props = rest.pop() if rest and (rest[-1] is None or isinstance(rest[-1], list)) else None
        parent, adjacent = None, ()
        for key, value in rest:
            if key == "in":
                parent = value
            else:
                adjacent = adjacent + value
        return n.SpaceDecl(
            str(kind), str(name), unquote(label) if label else None, parent, adjacent,
            tuple(props or ()), span=self.span(meta),
        )

    def space_in(self, c):
        return ("in", str(c[0]))

    def space_adjacent(self, c):
        return ("adjacent", c[0])

    def space_props(self, c):
        return list(c)

    @v_args(meta=True)
    def prop_pair(self, meta, c):
        return n.Prop(str(c[0]), c[1], span=self.span(meta))

    @v_args(meta=True)
    def track_decl(self, meta, c):
        override, name, low, high, start, *zones = c
        # with no `start`, the checker starts it (track_numbers), once a value's number is known
        return n.TrackDecl(str(name), low, high, start, tuple(zones), bool(override), span=self.span(meta))

    @v_args(meta=True)
    def end_zone(self, meta, c):
        return n.EndZone(str(c[0]), c[1], c[2], span=self.span(meta))

    def signed(self, c):
        return int(c[0])

    def negative(self, c):
        return -int(c[0])

    def named_number(self, c):
        return n.NumberName(str(c[0]), span=self.tspan(c[0]))

    @v_args(meta=True)
    def define_decl(self, meta, c):
        return n.DefineDecl(str(c[1]), c[2], c[3], bool(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def rule_decl(self, meta, c):
        return n.RuleDecl(str(c[1]), c[2] or (), c[3], bool(c[0]), span=self.span(meta))

    def params(self, c):
        return tuple(p for p in c if p is not None)

    @v_args(meta=True)
    def param(self, meta, c):
        return n.Param(str(c[0]), c[1], span=self.span(meta))

    @v_args(meta=True)
    def action_decl(self, meta, c):
        override, name, params, *rest = c
        label, costs, requires, body = None, [], [], []
        for item in rest:
            if isinstance(item, tuple) and item and item[0] == "label":
                label = item[1]
            elif isinstance(item, n.Cost):
                costs.append(item)
            elif isinstance(item, tuple) and item and item[0] == "require":
                requires.append(item[1])
            else:
                body.append(item)
        return n.ActionDecl(
            name, params or (), label, tuple(costs), tuple(requires), tuple(body), bool(override),
            span=self.span(meta),
        )

    def action_params(self, c):
        return tuple(c)

    @v_args(meta=True)
    def action_param(self, meta, c):
        return n.ActionParam(str(c[0]), c[1], span=self.span(meta))

    def clause_label(self, c):
        return ("label", self.template(c[0]))

    @v_args(meta=True)
    def clause_cost(self, meta, c):
        return n.Cost(c[0], str(c[1]), span=self.span(meta))

    def clause_require(self, c):
        return ("require", c[0])

    @v_args(meta=True)
    def setup_decl(self, meta, c):
        return n.SetupDecl(c[1], bool(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def payoff_decl(self, meta, c):
        return n.PayoffDecl(c[1], bool(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def flow_decl(self, meta, c):
        return n.FlowDecl(c[1], bool(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def when_changes(self, meta, c):
        return n.WhenDecl(str(c[0]), None, c[1], span=self.span(meta))

    @v_args(meta=True)
    def when_enters(self, meta, c):
        return n.WhenDecl(str(c[0]), str(c[1]), c[2], span=self.span(meta))

    @v_args(meta=True)
    def when_becomes(self, meta, c):
        cond, var, source, body = c
        return n.WhenBecomes(cond, body, str(var) if var is not None else None, source, span=self.span(meta))

    @v_args(meta=True)
    def anytime_decl(self, meta, c):
        return n.AnytimeDecl(c[0], span=self.span(meta))

    @v_args(meta=True)
    def test_decl(self, meta, c):
        return n.TestDecl(unquote(c[0]), tuple(c[1:]), span=self.span(meta))

    @v_args(meta=True)
    def test_players(self, meta, c):
        return n.TestLine("players", int(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def test_seed(self, meta, c):
        return n.TestLine("seed", int(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def test_negative_seed(self, meta, c):
        # `seed -7`: a seed is any whole number, as `--seed`, `restart` and a replay's `seed` take
        return n.TestLine("seed", -int(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def test_given(self, meta, c):
        return n.TestLine("given", c[0], span=self.span(meta))

    @v_args(meta=True)
    def test_force_dice(self, meta, c):
        return n.TestLine("force_die", (int(str(c[0])[1:]), *[int(x) for x in c[1:]]), span=self.span(meta))

    @v_args(meta=True)
    def test_force_die(self, meta, c):
        return n.TestLine("force_die", (int(str(c[0])[1:]), int(c[1])), span=self.span(meta))

    def zone_words(self, c):
        """The zone as written, one space between words: the pieces of a key that stand side by
        side (`dark`, `-`, `blue`) are one word again, `dark-blue`. A key with a sign no key
        holds (`+`) is read as written, and the checker says the family has no such member."""
        out = ""
        for i, piece in enumerate(c):
            joined = i and c[i - 1].end_pos == piece.start_pos
            out += ("" if joined or not i else " ") + str(piece)
        return out

    @v_args(meta=True)
    def test_force_order(self, meta, c):
        zone, seat, *names = c
        value = (zone, str(seat) if seat is not None else None, tuple(unquote(x) for x in names))
        return n.TestLine("force_order", value, span=self.span(meta))

    @v_args(meta=True)
    def test_do(self, meta, c):
        return n.TestLine("do", unquote(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def test_answer(self, meta, c):
        return n.TestLine("answer", unquote(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def test_resolve(self, meta, c):
        return n.TestLine("resolve", (unquote(c[0]), str(c[1]) if c[1] is not None else None), span=self.span(meta))

    @v_args(meta=True)
    def test_resolve_rule(self, meta, c):
        return n.TestLine("resolve_rule", (c[0], str(c[1]) if c[1] is not None else None), span=self.span(meta))

    @v_args(meta=True)
    def test_until(self, meta, c):
        return n.TestLine("until", unquote(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def test_expect(self, meta, c):
        return n.TestLine("expect", c[0], span=self.span(meta))

    @v_args(meta=True)
    def test_expect_winner(self, meta, c):
        # one seat is its name; several (a team, a cooperative game) a tuple of names
        names = tuple(str(t) for t in c)
        return n.TestLine("winner", names[0] if len(names) == 1 else names, span=self.span(meta))

    @v_args(meta=True)
    def test_expect_no_winner(self, meta, c):
        return n.TestLine("winner", None, span=self.span(meta))

    @v_args(meta=True)
    def test_expect_legal(self, meta, c):
        return n.TestLine("legal", unquote(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def test_expect_illegal(self, meta, c):
        return n.TestLine("illegal", unquote(c[0]), span=self.span(meta))

    @v_args(meta=True)
    def test_run_on(self, meta, c):
        return n.TestLine("run_on", None, span=self.span(meta))

    @v_args(meta=True)
    def test_report_from_here(self, meta, c):
        return n.TestLine("report_start", None, span=self.span(meta))

    @v_args(meta=True)
    def test_snapshot(self, meta, c):
        return n.TestLine("snapshot", unquote(c[0]) if c[0] else None, span=self.span(meta))

