"""Loading, checking and compiling stay in step with the size of a game: n declarations cost
about n steps.

The merge of declarations once rebuilt its whole index for each declaration, and every
diagnostic split its file into lines again, so a game of 20,000 counters took a minute to check;
kinds, zones and a space's neighbours were each compared with all the others. These tests count
operations (never time), and hold the merge to the plain definition it replaced.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import attrs
import pytest

import ludus.language.loader as loader_module
from ludus.compiler.program import Compiler
from ludus.language import nodes as n
from ludus.language.checker.declarations import DeclarationChecks
from ludus.language.loader import REMOVE_WORDS, SINGLETONS, Loader, _with_implicit_kinds, decl_keys, load_declarations
from ludus.language.source import Diagnostic, Sources, Span, _find_word, declared_at
from ludus.language.symbols import KindInfo, Symbols
from ludus.pipeline import analyse, load


def count_decl_keys(monkeypatch, path: Path) -> int:
    calls = 0
    real = loader_module.decl_keys

    def counting(item):
        nonlocal calls
        calls += 1
        return real(item)

    monkeypatch.setattr(loader_module, "decl_keys", counting)
    load_declarations(path)
    monkeypatch.setattr(loader_module, "decl_keys", real)
    return calls


def counters_game(tmp_path: Path, count: int) -> Path:
    path = tmp_path / f"counters{count}.ludus"
    path.write_text('game "D"\nplayers 2\n' + "".join(f"counter c{i}\n" for i in range(count))
                    + 'flow:\n    log "x"\n    end game\n', encoding="utf-8")
    return path


def test_declarations_of_one_file_merge_in_linear_steps(tmp_path, monkeypatch):
    small = count_decl_keys(monkeypatch, counters_game(tmp_path, 400))
    large = count_decl_keys(monkeypatch, counters_game(tmp_path, 800))
    assert large <= 2.2 * small, (small, large)


def test_a_variant_overriding_and_removing_merges_in_linear_steps(tmp_path, monkeypatch):
    def variant(count: int) -> Path:
        folder = tmp_path / f"v{count}"
        folder.mkdir()
        (folder / "base.ludus").write_text(
            'game "B"\nplayers 2\n' + "".join(f"value v{i} = {i}\ntoken T{i}, U{i}\n" for i in range(count))
            + "flow:\n    end game\n", encoding="utf-8")
        (folder / "variant.ludus").write_text(
            'extends "base.ludus"\ngame "V"\n'
            + "".join(f"override value v{i} = 0\nremove token U{i}\n" for i in range(count)), encoding="utf-8")
        # the variant, included by a game file, is spliced into it and merged with it
        (folder / "main.ludus").write_text('value w = 1\ninclude "variant.ludus"\n', encoding="utf-8")
        return folder / "main.ludus"

    small = count_decl_keys(monkeypatch, variant(300))
    large = count_decl_keys(monkeypatch, variant(600))
    assert large <= 2.2 * small, (small, large)


def test_many_included_parts_merge_in_linear_steps(tmp_path, monkeypatch):
    def game(count: int) -> Path:
        folder = tmp_path / f"g{count}"
        (folder / "parts").mkdir(parents=True)
        for i in range(count):
            (folder / "parts" / f"p{i}.ludus").write_text(f"value v{i} = {i}\n", encoding="utf-8")
        (folder / "main.ludus").write_text("".join(f'include "parts/p{i}.ludus"\n' for i in range(count)),
                                           encoding="utf-8")
        return folder / "main.ludus"

    small = count_decl_keys(monkeypatch, game(100))
    large = count_decl_keys(monkeypatch, game(200))
    assert large <= 2.2 * small, (small, large)


class CountingText(str):
    """A file's text that counts the characters split into lines."""

    split = 0

    def splitlines(self, *args, **kwargs):
        CountingText.split += len(self)
        return super().splitlines(*args, **kwargs)


def characters_split(monkeypatch, path: Path) -> int:
    real = Sources.add
    monkeypatch.setattr(Sources, "add", lambda self, name, text: real(self, name, CountingText(text)))
    CountingText.split = 0
    diagnostics, _checked, _sources = analyse(path)
    monkeypatch.setattr(Sources, "add", real)
    # one "never used" warning per counter, each shown with its line
    assert sum(d.message.startswith("counter") for d in diagnostics) >= 400
    return CountingText.split


def test_locating_many_diagnostics_splits_the_file_a_bounded_number_of_times(tmp_path, monkeypatch):
    small = characters_split(monkeypatch, counters_game(tmp_path, 400))
    large = characters_split(monkeypatch, counters_game(tmp_path, 800))
    assert large <= 2.2 * small, (small, large)


def test_a_changed_text_is_split_again():
    sources = Sources()
    sources.add("a.ludus", "one\ntwo\n")
    assert sources.line("a.ludus", 2) == "two"
    sources.add("a.ludus", "three\nfour\n")
    assert sources.line("a.ludus", 2) == "four"
    sources.texts["a.ludus"] = "five\nsix\n"
    assert sources.line("a.ludus", 1) == "five"


def test_a_name_is_found_where_the_regular_expression_it_replaced_finds_it():
    """`locate` once compiled a pattern per name; str.find must agree with it, edges included."""
    rng = random.Random(0)
    alphabet = 'ab_"1 .xé\t'
    for _ in range(20000):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
        word = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 3)))
        start = rng.randint(-2, len(text) + 2)
        m = re.compile(r"(?<![A-Za-z0-9_\"])" + re.escape(word) + r"(?![A-Za-z0-9_])").search(text, start)
        assert _find_word(text, word, start) == (m.start() if m else -1), (text, word, start)


def test_locate_points_at_the_name():
    sources = Sources()
    sources.add("a.ludus", 'counter ab, b\nvalue x_b = b2 + "b"\n')
    assert sources.locate(Span("a.ludus", 1, 1, 1, 14), "b") == Span("a.ludus", 1, 13, 1, 14)
    assert sources.locate(Span("a.ludus", 2, 1, 2, 20), "b") == Span("a.ludus", 2, 18, 2, 21)  # quoted first
    assert sources.locate(Span("a.ludus", 1, 1, 2, 20), "x_b") == Span("a.ludus", 2, 7, 2, 10)
    assert sources.locate(Span("a.ludus", 1, 10, 1, 14), "ab") == Span("a.ludus", 1, 10, 1, 14)  # not there


class ReferenceLoader(Loader):
    """The merge written plainly: every file's declarations spliced in place of its include (or
    extends), and the whole list merged at the end, one declaration at a time, with the index
    built again for each."""

    def load(self, path, span=None, stack=(), written=None):
        key = str(path.resolve())
        if key in stack:
            self.diagnostics.append(Diagnostic(
                "error", f"include cycle: '{path.name}' ends up including itself", span or Span(str(path), 1, 1, 1, 1)))
            return []
        program = self.read(path, span, written)
        if program is None:
            return []
        spliced: list = []
        for item in program.items:
            if isinstance(item, n.IncludeDecl):
                spliced += self.load(path.parent / item.path, item.span, stack + (key,), item.path)
            else:
                spliced.append(item)
        if stack:
            return spliced
        merged: list = []
        for item in spliced:
            merged = self.merge(merged, [item], set())
        return merged

    def merge(self, base, new, resolved):
        out = list(base)
        index = {}
        for i, item in enumerate(out):
            for k in decl_keys(item):
                index[k] = i
        for item in new:
            if isinstance(item, n.RemoveDecl):
                k = (REMOVE_WORDS[item.kind], item.name)
                if k not in index or out[index[k]] is None:
                    self.diagnostics.append(Diagnostic(
                        "error", f"cannot remove {item.kind} '{item.name}': it is not declared",
                        self.sources.locate(item.span, item.name)))
                    continue
                self.removed[item.name] = item
                slot = out[index[k]]
                kept = tuple(x for x in slot.names if x != item.name) if isinstance(slot, n.TokenDecl) else ()
                if kept:  # changed since: removing every name of a token removes its declaration
                    out[index[k]] = attrs.evolve(slot, names=kept)
                else:
                    out[index[k]] = None
                del index[k]
                continue
            keys = decl_keys(item)
            override = getattr(item, "override", False)
            existing = [k for k in keys if k in index]
            if override and not existing:
                self.diagnostics.append(Diagnostic(
                    "error", f"'override' needs an earlier declaration of '{keys[0][1] or keys[0][0]}' to replace",
                    self.sources.locate(item.span, keys[0][1]) if keys[0][1] else item.span))
            prev = out[index[existing[0]]] if existing else None
            if existing and not override and prev.span == item.span:
                # changed since: a file spliced in twice is said once, not at each declaration
                twice = self.__dict__.setdefault("spliced_twice", set())
                if item.span.path not in twice:
                    twice.add(item.span.path)
                    self.diagnostics.append(Diagnostic(
                        "error", f"'{Path(item.span.path).name}' is included more than once, so its declarations come twice",
                        Span(item.span.path, item.span.line, item.span.column, item.span.line, item.span.column + 1),
                        hint="each `include` splices the file's lines in again: include it once, from the game "
                             "or from one of the files that share it"))
                continue
            same_file_singleton = prev is not None and type(item) in SINGLETONS and prev.span.path == item.span.path
            if existing and not override and (type(item) not in SINGLETONS or same_file_singleton):
                hint = "write 'override' before the declaration to replace it" if prev.span.path != item.span.path else None
                what = existing[0][1] or existing[0][0]
                self.diagnostics.append(Diagnostic(
                    "error", f"'{what}' is already declared {declared_at(prev.span, item.span)}",
                    self.sources.locate(item.span, what), hint=hint))
                continue
            if existing and override:
                resolved.add(id(item))
            if existing and override and isinstance(item, n.TokenDecl):
                # changed since: an override of some of the tokens of a declaration keeps the others
                home = None
                for slot in dict.fromkeys(index[k] for k in existing):
                    kept = tuple(x for x in out[slot].names if x not in item.names)
                    if kept:
                        out[slot] = attrs.evolve(out[slot], names=kept)
                    elif home is None:
                        home = slot
                    else:
                        out[slot] = None
                if home is None:
                    out.append(item)
                    home = len(out) - 1
                else:
                    out[home] = item
                for k in keys:
                    index[k] = home
            elif existing:
                slot = index[existing[0]]
                out[slot] = item
                for k in keys:
                    index[k] = slot
            else:
                out.append(item)
                for k in keys:
                    index[k] = len(out) - 1
        return [x for x in out if x is not None]


def random_line(rng: random.Random, files: list[str]) -> str:
    name = rng.choice("abc")
    token = rng.choice("ABCD")
    other = rng.choice("ABCD")
    over = rng.choice(["", "", "override "])
    return rng.choice([
        f"{over}value {name} = 1\n",
        f"{over}zone {name}\n",
        f"{over}token {token}\n",
        f"{over}token {token}, {other}\n",
        f"remove token {token}\n",
        f"remove value {name}\n",
        f"remove zone {name}\n",
        'game "G"\n',
        "players 2\n",
        f"{over}flow:\n    end game\n",
        f'include "{rng.choice(files)}"\n',
        f'extends "{rng.choice(files)}"\n',
    ])


@pytest.mark.parametrize("seed", range(120))
def test_the_merge_gives_what_the_plain_definition_gives(tmp_path, seed):
    """Overrides of tokens declared together (`token A, B`), removals, includes and extends of
    files that override and remove, singletons restated: the same declarations, in the same
    order, and the same diagnostics."""
    rng = random.Random(seed)
    files = ["main.ludus", "base.ludus", "part.ludus", "more.ludus"]
    for name in files:
        lines = [random_line(rng, files) for _ in range(rng.randint(0, 14))]
        (tmp_path / name).write_text("".join(lines), encoding="utf-8")
    for kind in (Loader, ReferenceLoader):
        loader = kind()
        items = _with_implicit_kinds(loader.load(tmp_path / "main.ludus"))
        # the order the loader finds problems in is not kept: the pipeline sorts them by place
        found = sorted(loader.diagnostics, key=lambda d: (d.sort_key, d.message))
        if kind is Loader:
            got = (items, found, loader.removed, loader.files)
        else:
            assert got == (items, found, loader.removed, loader.files)


def test_a_part_overriding_one_token_leaves_the_other_declared(tmp_path):
    """After an included file's `override token A`, B is still declared by the including file's
    `token A, B` (random files rarely reach it, so it is pinned here). The duplicate was once
    said to be declared at the override's line, which declares A alone; and the override itself
    was once an error, the part being merged on its own with nothing to override."""
    (tmp_path / "main.ludus").write_text('token A, B\ninclude "part.ludus"\n', encoding="utf-8")
    (tmp_path / "part.ludus").write_text("override token A\ntoken B\n", encoding="utf-8")
    items, loader = load_declarations(tmp_path / "main.ludus")
    assert [(i.names, Path(i.span.path).name) for i in items] == [(("B",), "main.ludus"), (("A",), "part.ludus")]
    assert [(d.message, Path(d.span.path).name, d.span.line) for d in loader.diagnostics] == [
        ("'B' is already declared in main.ludus on line 1", "part.ludus", 2)]


class CountingDict(dict):
    """A table of the symbols that counts its lookups and the entries read through values()."""

    reads = 0

    def get(self, *args):
        CountingDict.reads += 1
        return super().get(*args)

    def values(self):
        for value in super().values():
            CountingDict.reads += 1
            yield value


def game_of(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(f'game "D"\nplayers 2\n{body}flow:\n    log "x"\n    end game\n', encoding="utf-8")
    return path


def reads_while(monkeypatch, owner, method: str, table: str, path: Path) -> int:
    """Load the game at `path`, counting reads of the symbols' `table` during owner.method."""
    real = getattr(owner, method)

    def counted(self, *args, **kwargs):
        setattr(self.sym, table, CountingDict(getattr(self.sym, table)))
        CountingDict.reads = 0
        try:
            return real(self, *args, **kwargs)
        finally:
            reads[0] = CountingDict.reads

    reads = [0]
    monkeypatch.setattr(owner, method, counted)
    load(path)
    monkeypatch.setattr(owner, method, real)
    return reads[0]


def test_the_kinds_of_a_game_are_compiled_in_linear_steps(tmp_path, monkeypatch):
    def kinds(count: int) -> int:
        body = "".join(f"kind K{i}:\n    f: number\n" for i in range(count))
        return reads_while(monkeypatch, Compiler, "_compile", "kinds", game_of(tmp_path, f"k{count}.ludus", body))

    small, large = kinds(150), kinds(300)
    assert large <= 2.2 * small, (small, large)


def test_the_kinds_below_a_kind_are_those_is_subkind_names():
    rng = random.Random(0)
    for _ in range(300):
        names = [f"K{i}" for i in range(rng.randint(1, 8))]
        # parents among the kinds, undeclared ones, none; cycles included
        table = {name: KindInfo(name, rng.choice(names + ["Elsewhere", None, None])) for name in names}
        sym = Symbols(kinds=table)
        assert sym.subkinds() == {a: frozenset(k for k in names if sym.is_subkind(k, a)) for a in names}


def test_unused_zones_are_found_in_linear_steps(tmp_path, monkeypatch):
    def zones(count: int) -> int:
        body = "".join(f"zone z{i}\n" for i in range(count)) + "zone pile refill from z0\n"
        return reads_while(monkeypatch, DeclarationChecks, "report_unused", "zones",
                           game_of(tmp_path, f"z{count}.ludus", body))

    small, large = zones(150), zones(300)
    assert large <= 2.2 * small, (small, large)


class CountingName(str):
    compared = 0

    def __eq__(self, other):
        CountingName.compared += 1
        return str.__eq__(self, other)

    __hash__ = str.__hash__


def test_a_space_with_many_neighbours_is_compiled_in_linear_steps(tmp_path, monkeypatch):
    real = Compiler._compile

    def counted(self):
        for sp in self.sym.spaces.values():
            object.__setattr__(sp, "adjacent", tuple(CountingName(x) for x in sp.adjacent))
        CountingName.compared = 0
        real(self)
        compared.append(CountingName.compared)

    compared: list[int] = []
    monkeypatch.setattr(Compiler, "_compile", counted)
    for count in (150, 300):
        body = ("board b:\n" + "".join(f"    quarter Q{i}\n" for i in range(count))
                + "    quarter Hub adjacent to " + ", ".join(f"Q{i}" for i in range(count)) + "\n")
        game = load(game_of(tmp_path, f"hub{count}.ludus", body))
        assert game.spaces["Hub"].adjacent == [f"Q{i}" for i in range(count)]
        assert game.spaces["Q0"].adjacent == ["Hub"]
    small, large = compared
    assert large <= 2.2 * small + 10, (small, large)
