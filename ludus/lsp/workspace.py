"""What the language server knows, without the protocol: open buffers, the game each file belongs
to, its diagnostics, and the answers to hover, definition, completion and outline.

Places here are 0-based lines and columns, in ludus's terms: lines end at \\n, columns count
characters. Spans are 1-based, as ludus counts them. The protocol layer (server.py) converts
an editor's positions to these (text.py) and these answers to LSP types.
"""

from __future__ import annotations

import logging
import os
import re
import threading
from pathlib import Path

from attrs import define, field

from ..language import nodes as n
from ..language.build import build
from ..language.discover import games_including, is_game_text, near, starts_game
from ..language.files import FileProblem, read_text_file, resolved_path
from ..language.limits import MAX_FILE_BYTES
from ..language.parser import keywords
from ..language.runs import run_end
from ..language.source import LINE_END, Diagnostic, LudusError, Sources, Span
from ..language.symbols import (
    BUILTIN_FUNCTIONS,
    BUILTIN_NAMES,
    ENTITY_ATTRS,
    SPACE_ATTRS,
    per_keys,
    plural,
    singular_guess,
    type_name,
)
from ..pipeline import analyse
from ..rules_text import RulesText
from ..tools.fmt import FormatError, format_text
from .names import EITHER, Index, _holes

log = logging.getLogger("ludus.lsp")

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
# zones the language itself reads by name, where a statement says none
ROLE_ZONES = {"deck": "`draw` takes cards from it", "hand": "`draw` puts cards into it",
              "discard": "`discard` puts cards into it", "box": "every card starts in it",
              "removed": "`exile` puts cards into it"}
ROLE_KINDS = {"Card": "a card declared without `is`", "Piece": "a piece declared without `is`"}
# what comes before the word of a `per` on its line (`zone discards per `, `per seat and `)
PER_WORD = re.compile(r"\bper\s+(?:[A-Za-z_][A-Za-z0-9_]*\s+and\s+)?$")
STRING = re.compile(r'"([^"\\\n]*)"')


def resolved(path: str | Path) -> str:
    """The one spelling of a file's path used as a key: absolute, resolved."""
    try:
        return str(resolved_path(path))
    except (OSError, ValueError):
        return str(path)


def too_big(text: str) -> bool:
    """Over the limit of a file on disk, in UTF-8 bytes (counted only when it may be)."""
    return len(text) * 4 > MAX_FILE_BYTES and len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES


@define
class Analysis:
    """One game analysed: diagnostics by file (resolved path), and what the checker learnt."""

    game: str
    files: list  # resolved paths of every file the game read
    diagnostics: dict  # resolved path -> [Diagnostic]
    checked: object = None  # Checked, or the last one that checked (while a syntax error is typed)
    sources: Sources | None = None
    stale: bool = False  # checked comes from an earlier version of the text
    index: object = None  # names.Index, made by the first question that needs it


class Refused(Exception):
    """A rename that cannot be made, and why, in words for the designer."""


@define
class Symbol:
    """What a name is: for hover (kind, type, text) and definition (span)."""

    name: str
    kind: str
    type: str | None = None
    span: Span | None = None
    detail: str | None = None  # more lines: a card's rules text, a declaration's source
    extra: list = field(factory=list)


class Workspace:
    def __init__(self) -> None:
        self.buffers: dict[str, str] = {}  # resolved path -> the editor's text
        self.last_good: dict[str, Analysis] = {}  # game -> the last analysis with symbols
        self.version = 0  # counts the edits, so an analysis is reused until the next one
        self.changed_at: dict[str, int] = {}  # resolved path -> the edit count at its last change
        self._cache: dict[str, tuple[int, Analysis]] = {}
        # analyses run on worker threads (the server's), each of the text as it was when it
        # started: the tables above keep the newest, whichever finishes last
        self._lock = threading.Lock()
        self._good_at: dict[str, int] = {}  # game -> the edit count its last_good was made at

    # ── buffers ──

    def open(self, path: str, text: str) -> None:
        """A file opened or changed in the editor: its text now stands in for the file on disk."""
        key = resolved(path)
        self.buffers[key] = text
        self._changed([key])

    def close(self, path: str) -> None:
        """A file closed in the editor: the file on disk counts again."""
        key = resolved(path)
        self.buffers.pop(key, None)
        self._changed([key])

    def disk_changed(self, paths: list[str]) -> None:
        """Files changed on disk, not in the editor (another program, a `git checkout`): as
        for an edit, no analysis made before is reused, and one that read them and is still
        running is not published."""
        self._changed([resolved(path) for path in paths])

    def _changed(self, keys: list[str]) -> None:
        """What every change of a file's text does, in the editor or on disk: the edit count
        moves on, once, and each file (a resolved path) is marked changed at it."""
        self.version += 1
        for key in keys:
            self.changed_at[key] = self.version

    def depends_on(self, path: str, changed: str, created: bool) -> bool:
        """Whether the analysis of an open file may change with the file (or folder) `changed`
        on disk: its game read it, or read a file in it; the file is a part (or a game with no
        `game` line), whose game is looked for in its folder and the one above, and `changed`
        is a `.ludus` file there; or `changed` was created and the last analysis had an error
        (an include of a file that was not there). A file never analysed depends on anything."""
        key, target = resolved(path), resolved(changed)
        with self._lock:  # worker threads add to the cache meanwhile
            analyses = [a for _version, a in self._cache.values() if key in a.diagnostics]
        if not analyses:
            return True
        under = target.rstrip("/\\") + os.sep
        if any(f == target or f.startswith(under) for a in analyses for f in {*a.files, *a.diagnostics}):
            return True
        if created and any(d.severity == "error" for a in analyses for ds in a.diagnostics.values() for d in ds):
            return True
        # a file without a header is a part, or a game only while no file near it includes it
        if not target.lower().endswith(".ludus") or starts_game(self.text(key) or ""):
            return False
        try:
            return resolved(Path(target).parent) in {resolved(f) for f in near(Path(key))}
        except (OSError, ValueError):
            return True

    def changed_since(self, analysis: Analysis, version: int) -> bool:
        """Whether a file the analysis read (or gave diagnostics for) changed after the edit
        count `version`: an edit to another game leaves it as good as it was."""
        return any(self.changed_at.get(f, 0) > version for f in {*analysis.files, *analysis.diagnostics})

    def text(self, path: str) -> str | None:
        key = resolved(path)
        if key in self.buffers:
            return self.buffers[key]
        try:  # as the checker reads it: never a device or a FIFO, which could be read for ever
            return read_text_file(key)
        except FileProblem:
            return None

    # ── the game a file belongs to ──

    def game_of(self, path: str) -> str:
        """The file itself when it is a game or a variant, as `ludus check FOLDER` tells one
        (`discover.is_game_text`: a base with a flow and no `game` line is one, and is not
        analysed through a variant that extends it); else the game that includes it (the file
        itself when none does, so its own errors still show)."""
        key = resolved(path)
        text = self.text(key) or ""
        try:
            if is_game_text(text, Path(key)):
                return key
            games = games_including(Path(key))
        except (OSError, ValueError):  # a path the file system refuses (a NUL byte in a URI)
            games = []
        return resolved(games[0]) if games else key

    def analyse(self, path: str) -> Analysis:
        """The game's analysis as the buffers are now (safe to call from several threads). A
        buffer over the limit of a file on disk is not analysed, and not read by a game that
        includes it, which reads the file as saved: a few megabytes take a worker thread for
        tens of seconds, at each pause in typing."""
        version, buffers = self.version, dict(self.buffers)
        key = resolved(path)
        if key in buffers and too_big(buffers[key]):
            size = len(buffers[key].encode("utf-8", "surrogatepass"))
            return Analysis(key, [key], {key: [Diagnostic(
                "error", f"the document is {size:,} bytes; the limit is {MAX_FILE_BYTES:,}, as for a file on disk: "
                "it is not analysed", Span(key, 1, 1, 1, 2))]})
        buffers = {p: text for p, text in buffers.items() if not too_big(text)}
        game = self.game_of(path)
        cached = self._cache.get(game)
        if cached is not None and cached[0] == version and resolved(path) in cached[1].diagnostics:
            return cached[1]
        try:
            diags, checked, sources = analyse(game, overrides=buffers)
        except RecursionError:  # a pathological nesting the parser's limits did not catch
            diags, checked, sources = [Diagnostic("error", "the file is nested too deeply to analyse",
                                                  Span(game, 1, 1, 1, 2))], None, Sources()
        files = [resolved(p) for p in sources.texts] or [game]
        by_file: dict[str, list] = {f: [] for f in files}
        by_file.setdefault(resolved(path), [])
        for d in diags:
            where = resolved(d.span.path) if d.span.line > 0 else game
            # a diagnostic located in no file the game read (none should be) shows on the game file
            by_file.setdefault(where if where in by_file else game, []).append(d)
        result = Analysis(game, files, by_file, checked, sources)
        with self._lock:
            if checked is not None:
                if version >= self._good_at.get(game, -1):
                    self.last_good[game], self._good_at[game] = result, version
            elif game in self.last_good:
                good = self.last_good[game]
                result.checked, result.stale = good.checked, True
                result.sources = sources if sources.texts else good.sources
            if game not in self._cache or self._cache[game][0] <= version:
                self._cache[game] = (version, result)
        return result

    # ── names under the cursor ──

    def word_at(self, path: str, line: int, column: int) -> tuple[str, bool, int, int] | None:
        """The name or quoted name at a position: (text, quoted, start column, end column)."""
        text = self.text(path)
        if text is None:
            return None
        lines = LINE_END.split(text)  # ludus's lines: a form feed does not end one
        if not 0 <= line < len(lines):
            return None
        row = lines[line]
        for m in STRING.finditer(row):
            if m.start() <= column <= m.end():
                # inside a hole of the text (`{coins of s}`), the name there, as code
                for offset, hole in _holes(m.group()):
                    start = m.start() + offset
                    if start <= column <= start + len(hole):
                        word = next((w for w in WORD.finditer(row, start, start + len(hole))
                                     if w.start() <= column <= w.end()), None)
                        return (word.group(), False, word.start(), word.end()) if word else None
                return m.group(1), True, m.start(), m.end()
        for m in WORD.finditer(row):
            if m.start() <= column <= m.end():
                return m.group(0), False, m.start(), m.end()
        return None

    def symbol_at(self, path: str, line: int, column: int) -> Symbol | None:
        found = self.word_at(path, line, column)
        if found is None:
            return None
        word, quoted, start, _end = found
        analysis = self.analyse(path)
        if analysis.checked is None:
            return None
        removed = self._removed(analysis, path, line, column)
        if removed is not None:
            return removed
        if not quoted and PER_WORD.search(LINE_END.split(self.text(path) or "")[line][:start]):
            keys = self._set_of_keys(path, word, line, start)
            if keys is not None:
                return keys
        if quoted:  # the quoted name of a run of cards, or its number in a hole of it
            run = self._run(analysis, word, path, line, column)
            if run is not None:
                return run
        return self.lookup(analysis, word, quoted, path, line + 1, start + 1)

    def _run(self, analysis: Analysis, word: str, path: str, line: int, column: int) -> Symbol | None:
        """On the quoted name of a run of cards (`"C{n}"` of `card "C{n}" for n in 3 to 6`),
        in a game, a variant or a tests file: the run, with the cards it makes, declared there;
        on the number in one of its holes (`n` of `{n}`), that number (_run_number). The name is
        no card's, so named() finds nothing for it."""
        runs: dict[int, tuple] = {}  # the run's declaration -> its cards, by number
        for decl in analysis.checked.symbols.entities.values():
            if decl.origin is not None and decl.origin[0].name == word:
                runs.setdefault(id(decl.origin[0]), (decl.origin[0], {}))[1][decl.origin[1]] = decl.name
        key = resolved(path)
        for decl, cards in runs.values():
            span = decl.run.name.span
            if span.line != line + 1 or not span.column <= column + 1 <= span.end_column or resolved(span.path) != key:
                continue
            row = LINE_END.split(self.text(path) or "")[line]
            hole = next((m for m in WORD.finditer(row, span.column, span.end_column - 2)
                         if m.start() <= column <= m.end()), None)
            number = self._run_number(analysis, hole.group(), key, line + 1, hole.start() + 1) if hole else None
            if number is not None:
                return number
            first, last = cards[min(cards)], cards[max(cards)]
            made = first if first == last else f"{first} to {last}"
            return Symbol(word, f"run of {decl.word}s", f"{decl.kind}, {made}", span, self._source(analysis, decl.span))
        return None

    def _removed(self, analysis: Analysis, path: str, line: int, column: int) -> Symbol | None:
        """On the name of a variant's `remove` line (0-based place): what it took out of the
        base game, declared there, which the game's names no longer hold; on the number in a
        hole of a removed run (`n` of `remove card "{n}"`), that number, as on the run's own line
        (_run_number)."""
        sources, key = analysis.sources, resolved(path)
        if sources is None:
            return None
        for name, (removal, decl) in analysis.checked.removed.items():
            span = removal.span
            if span.line != line + 1 or resolved(span.path) != key:
                continue
            at = sources.locate_after(span, removal.kind, name)  # `remove zone zone`: the name, not the keyword
            if at is span or not at.column <= column + 1 <= at.end_column:
                continue
            run = getattr(decl, "run", None)
            if run is None:
                typ = getattr(decl, "kind", None) if isinstance(decl, n.EntityDecl) else None
                return Symbol(name, f"{removal.kind} removed here", typ, decl.span, self._source(analysis, decl.span))
            faults: list = []  # an end that is no number: the check said so where the run is
            numbers = [run_end(end, decl, analysis.checked.symbols.values, faults) for end in (run.low, run.high)]
            made = "" if faults else f", {numbers[0]} to {numbers[1]}"
            row = LINE_END.split(self.text(path) or "")[line]
            hole = next((m for m in WORD.finditer(row, at.column, at.end_column - 2)
                         if m.start() <= column <= m.end() and m.group() == run.var), None)
            if hole is not None:
                return Symbol(run.var, "local", "number" + made, sources.locate_after(run.span, "for", run.var, code=True),
                              self._source(analysis, decl.span))
            return Symbol(name, f"run of {decl.word}s removed here", decl.kind + made, run.name.span,
                          self._source(analysis, decl.span))
        return None

    def _set_of_keys(self, path: str, word: str, line: int, start: int) -> Symbol | None:
        """The set of keys that `per WORD` names (`per colour`: the value `colours`), as the
        index reads it: what a rename there renames, even where a card has a property `colour`."""
        index = self.index(path)
        key = index.keys_at(path, line + 1, start + 1) if index is not None else None
        if key is None:
            return None
        value = index.analysis.checked.symbols.values[key[1]]
        span = value.span
        if index.analysis.sources is not None:
            span = index.analysis.sources.locate(span, key[1])  # `colours`, where the value is declared
        return Symbol(word, "set of keys", f"the texts of value {key[1]}", span, self._source(index.analysis, value.span))

    def lookup(self, analysis: Analysis, word: str, quoted: bool, path: str, line: int, column: int) -> Symbol | None:
        local = None if quoted else self._local(analysis, word, path, line, column)
        if local is not None:  # a name bound in a block hides a game's name
            return local
        return self.named(analysis, word, quoted)

    def named(self, analysis: Analysis, word: str, quoted: bool, texts: bool = True) -> Symbol | None:
        """What a name of the game is (not one bound in a block); a card's rules text only with
        `texts`."""
        checked = analysis.checked
        sym = checked.symbols
        if word in sym.entities:
            decl = sym.entities[word]
            text = None
            if decl.word == "card" and texts:
                text = RulesText(sym, checked.types, analysis.sources).card(decl).text()
            # a card of a run is declared at the run's quoted name, which makes it
            span = decl.span if decl.origin is None else decl.origin[0].run.name.span
            return Symbol(word, decl.word, decl.kind, span, text)
        if quoted:
            return None
        if word in sym.values:
            d = sym.values[word]
            return Symbol(word, "value", self._type(checked, d.value), d.span, self._source(analysis, d.span))
        if word in sym.vars:
            d = sym.vars[word]
            typ = type_name(self._typeref(d.type)) if d.type is not None else {"counter": "number", "flag": "bool"}.get(d.kind, "any")
            per = f" per {' and '.join(per_keys(d.per))}" if d.per else ""
            return Symbol(word, d.kind, typ + per, d.span, self._source(analysis, d.span))
        tables = [("zone", sym.zones), ("token", sym.tokens), ("group", sym.groups), ("board", sym.boards),
                  ("track", sym.tracks), ("rule", sym.rules), ("action", sym.actions)]
        for kind, table in tables:
            if word in table:
                d = table[word]
                typ = {"track": "number", "zone": "zone", "token": "token"}.get(kind)
                if kind == "zone" and d.per:  # `zone per seat`, and a family's keys: `zone per seat and colour`
                    typ += f" per {' and '.join(per_keys(d.per))}"
                return Symbol(word, kind, typ, d.span, self._source(analysis, d.span))
        if word in sym.defines:
            d = sym.defines[word]
            params = f"({', '.join(p.name for p in d.params)})" if d.params is not None else ""
            return Symbol(word + params, "define", self._type(checked, d.value), d.span, self._source(analysis, d.span))
        if word in sym.kinds:
            info = sym.kinds[word]
            fields = ", ".join(f"{k}: {type_name(v[0])}" for k, v in sym.fields_of(word).items())
            span = info.decl.span if info.decl is not None else None
            return Symbol(word, "kind", None, span, f"fields: {fields}" if fields else "no fields")
        for kind, info in sym.kinds.items():
            if word in info.fields and info.decl is not None:
                field = next((f for f in info.decl.fields if f.name == word), None)
                return Symbol(word, f"property of {kind}", type_name(info.fields[word][0]),
                              field.span if field is not None else info.decl.span,
                              self._source(analysis, field.span) if field is not None else None)
        if word in sym.spaces:
            d = sym.spaces[word]
            label = f' "{d.label}"' if d.label else ""
            return Symbol(word, "space", d.kind, d.span, f"{d.kind} {word}{label}" + (
                f", next to {', '.join(d.adjacent)}" if d.adjacent else ""))
        collection = sym.kind_of_space_collection(word)
        if collection:
            return Symbol(word, "spaces", f"list of {collection}", None,
                          ", ".join(sym.space_kinds[collection]))
        if word in sym.seat_constants():
            return Symbol(word, "seat", "seat")
        if word in BUILTIN_NAMES:
            return Symbol(word, "built-in name", type_name(BUILTIN_NAMES[word]))
        if word in BUILTIN_FUNCTIONS:
            lo, hi, result = BUILTIN_FUNCTIONS[word]
            args = str(lo) if lo == hi else f"{lo} to {hi}"
            return Symbol(word, "built-in function", type_name(result.replace("*", "any")), None,
                          f"takes {args} argument{'s' if hi != 1 else ''}")
        return None

    def _local(self, analysis: Analysis, word: str, path: str, line: int, column: int) -> Symbol | None:
        """A name bound inside a block (`let`, `for each`, a parameter), found by its resolution."""
        checked = analysis.checked
        key = resolved(path)
        for node in checked.keep:
            if isinstance(node, n.Name) and node.name == word and node.span.line == line \
                    and node.span.column <= column < max(node.span.end_column, node.span.column + 1) \
                    and resolved(node.span.path) == key:
                res = checked.res.get(id(node))
                if res and res[0] == "local":
                    return self._bound(analysis, word, checked.types.get(id(node), "any"), checked.bound.get(id(node)))
        for where, typ in checked.binders.items():  # where the text binds it: `for each s`, `let k`, `(s: seat)`
            name, span, _after = where
            if name == word and span.line <= line <= span.end_line and resolved(span.path) == key:
                symbol = self._bound(analysis, word, typ, where)
                at = symbol.span
                if at is not None and at.line == line and at.column <= column < at.end_column:
                    return symbol
        return self._run_number(analysis, word, key, line, column)

    def _bound(self, analysis: Analysis, word: str, typ: str, where: tuple | None) -> Symbol:
        """A name bound in a block, of type `typ`: a local, declared where the text binds it
        (`where`, Checked.binders: None for a name bound unwritten, as `this`), with that line."""
        if where is None or analysis.sources is None:
            return Symbol(word, "local", type_name(typ))
        _name, span, after = where
        # the name is code, never a word of the question or the label before it (`ask P1 "Go as again?" as again`)
        at = analysis.sources.locate_after(span, after, word, code=True) if after else analysis.sources.locate(span, word, code=True)
        if at is span or at.line != at.end_line or at.end_column - at.column != len(word):
            at = span  # not found as a name (never so for a text that checked): the statement's place
        return Symbol(word, "local", type_name(typ), at, self._source(analysis, at))

    def _run_number(self, analysis: Analysis, word: str, key: str, line: int, column: int) -> Symbol | None:
        """The number of a run of cards (`n` of `card "{n}" for n in 3 to 35: number n`), where
        the run binds it (after `for`) or its properties use it: a local, with the numbers it
        takes, declared where the run binds it. The loader put it as a number in each card, so the checker never saw
        it (as names.Index finds its places for a rename)."""
        sym, sources = analysis.checked.symbols, analysis.sources
        runs: dict[int, tuple] = {}  # the run's declaration -> its cards' numbers
        for decl in sym.entities.values():
            if decl.origin is not None and decl.origin[0].run.var == word:
                runs.setdefault(id(decl.origin[0]), (decl.origin[0], []))[1].append(decl.origin[1])
        for decl, numbers in runs.values():
            run = decl.run
            if resolved(decl.span.path) != key:
                continue
            places = [node.span for node in n.each_node((run.name, decl.props))
                      if isinstance(node, n.Name) and node.name == word]
            bound = run.span  # where the run binds it: after its `for`
            if sources is not None:
                bound = sources.locate_after(run.span, "for", word)
                places.append(bound)
            for span in places:
                if span.line == line and span.column <= column < max(span.end_column, span.column + 1):
                    return Symbol(word, "local", f"number, {min(numbers)} to {max(numbers)}", bound,
                                  self._source(analysis, decl.span))
        return None

    @staticmethod
    def _type(checked, node) -> str | None:
        t = checked.types.get(id(node))
        return type_name(t) if t else None

    @staticmethod
    def _typeref(ref) -> str:
        if ref is None:
            return "any"
        return ref.name if ref.of is None else "list:" + Workspace._typeref(ref.of)

    @staticmethod
    def _source(analysis: Analysis, span: Span | None) -> str | None:
        if span is None or analysis.sources is None:
            return None
        first = analysis.sources.line(span.path, span.line)
        return first.strip() if first else None

    # ── the answers ──

    def hover(self, path: str, line: int, column: int) -> str | None:
        """Markdown: what the name is, its type, where it is declared; a card's rules text."""
        s = self.symbol_at(path, line, column)
        if s is None:
            return None
        head = f"**{s.name}**: {s.kind}" + (f" ({s.type})" if s.type else "")
        out = [head]
        if s.span is not None and s.span.line > 0:
            out.append(f"declared at {Path(s.span.path).name}:{s.span.line}")
        if s.detail:
            out.append("```\n" + s.detail + "\n```")
        return "\n\n".join(out)

    def definition(self, path: str, line: int, column: int) -> tuple[str, Span] | None:
        """The file and span of the declaration of the name at a position."""
        found = self.word_at(path, line, column)
        s = self.symbol_at(path, line, column)
        if s is None or s.span is None or s.span.line <= 0:
            return None
        analysis = self.analyse(path)
        span = s.span
        if analysis.sources is not None and found is not None:
            span = analysis.sources.locate(span, found[0])
        return resolved(span.path), span

    def completions(self, path: str, line: int, column: int) -> list[tuple[str, str, str | None]]:
        """(label, kind, detail) for every keyword and every name of the game; a quoted prefix
        completes card and piece names."""
        analysis = self.analyse(path)
        out: list[tuple[str, str, str | None]] = []
        text = self.text(path) or ""
        rows = LINE_END.split(text)
        row = rows[line][:column] if 0 <= line < len(rows) else ""
        in_string = row.count('"') % 2 == 1
        sym = analysis.checked.symbols if analysis.checked is not None else None
        if in_string:
            return [(name, "card", d.kind) for name, d in sym.entities.items()] if sym else []
        out.extend((k, "keyword", None) for k in keywords())
        if sym is not None:
            groups = [("value", sym.values), ("var", sym.vars), ("zone", sym.zones), ("token", sym.tokens),
                      ("group", sym.groups), ("kind", sym.kinds), ("space", sym.spaces), ("track", sym.tracks),
                      ("define", sym.defines), ("rule", sym.rules), ("action", sym.actions),
                      ("spaces", sym.space_kinds), ("spaces", sym.plurals)]
            for kind, table in groups:
                if table is sym.vars:  # a counter, flag or var, by the word that declares it
                    out.extend((name, d.kind, None) for name, d in table.items())
                else:
                    out.extend((name, kind, None) for name in table)
            out.extend((name, "seat", None) for name in sym.seat_constants())
            out.extend((name, sym.entities[name].word, sym.entities[name].kind)
                       for name in sym.entities if name.isidentifier())
        out.extend((name, "built-in name", type_name(t)) for name, t in BUILTIN_NAMES.items())
        out.extend((name, "built-in function", None) for name in BUILTIN_FUNCTIONS)
        seen: set[str] = set()
        unique = []
        for item in out:
            if item[0] not in seen:
                seen.add(item[0])
                unique.append(item)
        return unique

    def formatted(self, text: str, path: str) -> str | None:
        """What `ludus fmt` makes of a text, or None where it makes nothing: a text that does
        not parse, one over the size limit, or one the formatter refuses because its result
        would mean something else (a fault of ludus, said on stderr)."""
        if too_big(text):
            return None
        try:
            return format_text(text, resolved(path))
        except (LudusError, RecursionError):
            return None
        except FormatError as exc:
            log.warning("%s", exc)
            return None
        except Exception as exc:  # a fault of ludus: the buffer is left as it is
            log.error("could not format %s: %s: %s", path, type(exc).__name__, exc)
            return None

    def index(self, path: str):
        """The names of the file's game and where each is used (names.Index), made once per
        analysis; None while the game does not parse or check as it is now (the last good
        analysis's places may no longer be those of the text)."""
        analysis = self.analyse(path)
        if analysis.checked is None or analysis.stale or analysis.sources is None:
            return None
        if analysis.index is None:
            index = Index(self, analysis, resolved)
            with self._lock:
                if analysis.index is None:
                    analysis.index = index
        return analysis.index

    def references(self, path: str, line: int, column: int, declaration: bool) -> list[tuple[str, Span]]:
        """The file and span of every use of the name at a position, in every file of the game;
        its declarations too with `declaration`."""
        index = self.index(path)
        here = index.at(path, line + 1, column + 1) if index is not None else None
        if here is None:
            return []
        try:
            uses = self._uses(index, here.key)[0]
        except Refused:  # another game that reads the declaration does not check: this one's uses
            uses = index.of(here.key)
        return [(o.path, o.span) for o in uses if declaration or not o.declares]

    def _uses(self, index, key: tuple) -> tuple[list, list]:
        """Every occurrence of a name in its own game and in every other game that reads a file
        where it occurs (a part that several games include, a game that a variant or a tests
        file extends), with the occurrences of the name in the rest of that game (where it may
        have a declaration of its own: a value each game sets): one rename must reach them all.
        Refused when one of those games does not check as it is. Also the indexes of those
        games, the name's own first."""
        uses = {(o.path, o.line, o.column): o for o in index.of(key)}
        touched = {o.path for o in uses.values()}
        family, seen = [index], {index.analysis.game}
        readers = sorted(touched)  # files that other games may read, the games found among them
        while readers:
            where = readers.pop(0)
            try:
                games = [resolved(g) for g in games_including(Path(where))]
            except (OSError, ValueError):
                games = []
            for game in games:
                if game in seen:
                    continue
                seen.add(game)
                readers.append(game)  # a variant of it reads it all
                other = self.index(game)
                if other is None:
                    raise Refused(f"{Path(game).name}, which also reads {Path(where).name}, does not check "
                                  "as it is: it could not be renamed there")
                found = other.of(key)
                if not any(o.path in touched for o in found):
                    continue  # another thing of the same name, in files of that game alone
                family.append(other)
                for o in found:
                    uses[o.path, o.line, o.column] = o
                    if o.path not in touched:
                        touched.add(o.path)
                        readers.append(o.path)
        return sorted(uses.values(), key=lambda o: (o.path, o.line, o.column)), family

    def renamable(self, path: str, line: int, column: int):
        """The occurrence of a name the game declares at a position (names.Occurrence), or
        Refused saying why the name there cannot be renamed."""
        index = self.index(path)
        if index is None:
            raise Refused("the game has errors that stop it being read (a syntax error?): "
                          "rename once it checks")
        here = index.at(path, line + 1, column + 1)
        if here is None:
            found = self.word_at(path, line, column)
            if found is None:
                raise Refused("there is no name here to rename")
            word, quoted = found[0], found[1]
            symbol = self.symbol_at(path, line, column)
            if not quoted and (symbol is not None and symbol.kind == "local"
                               or symbol is None and word in index.local_names):
                raise Refused(f"'{word}' is bound in a block (by let, for each, a parameter...): "
                              "only the game's own declared names can be renamed")
            if symbol is not None and symbol.kind.startswith("built-in"):
                raise Refused(f"'{word}' is built in, not declared by the game: it cannot be renamed")
            if not quoted and word in keywords():
                raise Refused(f"'{word}' is a keyword of the language")
            raise Refused(f"'{word}' is not a name the game declares")
        if here.key[0] == EITHER:
            raise Refused(f"'.{here.word}' here may be a card's property or a space's: rename it where "
                          "it is declared")
        made = index.analysis.checked.symbols.entities.get(here.word) if here.key[0] in ("card", "piece") else None
        if made is not None and made.origin is not None:
            run = made.origin[0]
            raise Refused(f"'{here.word}' is one of the {run.word}s the run \"{run.name}\" on line {run.span.line} "
                          f"of {Path(run.span.path).name} makes: change the run's quoted name to rename them all")
        if not index.declared(here.key):
            raise Refused(f"'{here.word}' is built in, not declared by the game: it cannot be renamed")
        return here

    def rename(self, path: str, line: int, column: int, new: str) -> dict[str, list[tuple[Span, str]]]:
        """The edits, by file, that rename the name at a position everywhere the game uses it;
        Refused when the name or the new one will not do."""
        here = self.renamable(path, line, column)
        index = self.index(path)
        kind, old = here.key
        uses, family = self._uses(index, here.key)
        if here.singular:  # `colour` of `per colour`: the new name is the new singular of `colours`
            if not WORD.fullmatch(new):
                raise Refused(f"'{new}' is not a name: a name is letters, digits and '_', "
                              "and does not start with a digit")
            new = plural(new)
        if new == old:
            return {}
        singular = self._singular(uses, old, new)
        if any(not o.quoted for o in uses) or kind != "card" and kind != "piece":
            if not WORD.fullmatch(new):
                raise Refused(f"'{new}' is not a name: a name is letters, digits and '_', "
                              "and does not start with a digit")
        elif not new.strip() or any(c in new for c in '"\\{}\r\n'):
            raise Refused(f"'{new}' cannot be a {kind}'s name: it must not be empty, nor hold a quote, "
                          "a backslash, a brace or a line break")
        if kind == "zone" and (old in ROLE_ZONES or new in ROLE_ZONES):
            role = old if old in ROLE_ZONES else new
            raise Refused(f"a zone named '{role}' is one the language reads by that name ({ROLE_ZONES[role]} "
                          "where no zone is said): the rename would change what the game does")
        if kind == "kind" and (old in ROLE_KINDS or new in ROLE_KINDS):
            role = old if old in ROLE_KINDS else new
            raise Refused(f"the kind '{role}' is the one the language gives {ROLE_KINDS[role]}: "
                          "the rename would change what the game does")
        either = next((o for o in uses if o.key[0] != kind), None)
        if either is not None:
            raise Refused(f"'.{old}' on line {either.line} of {Path(either.path).name} may be a card's property "
                          "or a space's, and the rename would keep only one of them")
        plurals = any(o.plural for o in uses)
        for each in family:  # every game the rename reaches
            clash = self._clash(each, kind, new)
            if not clash and plurals:
                taken = self.named(each.analysis, plural(new), False, texts=False)
                clash = f"'{plural(new)}', the plural of '{new}', names a {taken.kind} already" if taken else None
            if clash:
                break
        if clash:
            raise Refused(f"'{new}' is already {clash}: pick another name" if not clash.startswith("'")
                          else f"{clash}: pick another name")
        if singular is not None:
            for each in family:
                clash = self._clash(each, "value", singular)
                if clash:
                    raise Refused(f"'{singular}', the singular of '{new}' that a 'per' would "
                                  f"name, is already {clash}: pick another name")
        edits: dict[str, list[tuple[Span, str]]] = {}
        for o in uses:
            edits.setdefault(o.path, []).append((o.span, plural(new) if o.plural else singular if o.singular else new))
        for where, spans in edits.items():  # a keyword in a place that wants a name
            text = self.text(where) or ""
            try:
                build(edited(text, spans), where)
            except (LudusError, RecursionError):
                raise Refused(f"'{new}' cannot be a name where '{old}' is used: "
                              f"{Path(where).name} would no longer read") from None
        return edits

    @staticmethod
    def _singular(uses, old: str, new: str) -> str | None:
        """The word the `per` of a zone family or a counter, flag or var is to read when the list
        value `old` that holds its keys is renamed `new` (`per colour` of `colours` becomes `per
        shade` of `shades`), or None when no `per` names it; Refused when `new` is no plural the
        checker reads back to a singular (symbols.key_set_fault: the value a `per WORD` names is
        plural(WORD))."""
        per = next((o for o in uses if o.singular), None)
        if per is None:
            return None
        word = singular_guess(new)
        if plural(word) != new or not WORD.fullmatch(word) or word == "seat" or word in keywords():
            raise Refused(f"'per {per.word}' on line {per.line} of {Path(per.path).name} names a set of keys "
                          f"by the singular of '{old}', and '{new}' has no singular that names it "
                          f"back: pick a plural, as '{old}' is of '{per.word}'")
        return word

    def _clash(self, index, kind: str, new: str) -> str | None:
        """What the game already calls `new`, that a `kind` renamed to it would be confused with."""
        sym = index.analysis.checked.symbols
        if kind == "property":
            if new in ENTITY_ATTRS or new == "copies":
                return "a property every card and piece has"
            owner = next((k for k, info in sym.kinds.items() if new in info.fields), None)
            return f"a property of {owner}" if owner else None
        if kind == "space property":
            if new in SPACE_ATTRS:
                return "a property every space has"
            return "a space property" if any(key == ("space property", new) for key in _keys(index)) else None
        taken = self.named(index.analysis, new, kind in ("card", "piece") and not WORD.fullmatch(new), texts=False)
        if taken is not None:
            return f"a {taken.kind}" if taken.kind.startswith("built-in") else f"the name of a {taken.kind}"
        if new in index.local_names:
            return "a name bound in a block of the game, which would hide it there"
        return None

    def outline(self, path: str) -> list[OutlineItem]:
        """The file's top-level declarations (a board's spaces and a card's effects inside them)."""
        text = self.text(path)
        if text is None or too_big(text):
            return []
        try:
            program = build(text, resolved(path))
        except (LudusError, RecursionError):
            return []
        return [item for item in (outline_item(i) for i in program.items) if item is not None]


def _keys(index) -> set:
    return {o.key for occs in index.by_file.values() for o in occs}


def edited(text: str, spans: list[tuple[Span, str]]) -> str:
    """A file's text with spans of one line each (as names are) replaced."""
    rows = LINE_END.split(text)
    ends = [m.group() for m in LINE_END.finditer(text)] + [""]
    for span, new in sorted(spans, key=lambda e: (e[0].line, e[0].column), reverse=True):
        row = rows[span.line - 1]
        rows[span.line - 1] = row[:span.column - 1] + new + row[span.end_column - 1:]
    return "".join(r + e for r, e in zip(rows, ends, strict=True))


@define
class OutlineItem:
    name: str
    kind: str  # a ludus word: card, rule, action, counter, ...
    span: Span
    children: list = field(factory=list)


def outline_item(item) -> OutlineItem | None:
    name = getattr(item, "name", None)
    span = item.span
    if isinstance(item, n.EntityDecl):
        kids = [OutlineItem(f"on {h.name}", "handler", h.span) for h in item.handlers]
        return OutlineItem(item.name, item.word, span, kids)
    if isinstance(item, n.BoardDecl):
        return OutlineItem(item.name, "board", span, [OutlineItem(s.name, s.kind, s.span) for s in item.spaces])
    if isinstance(item, n.VarDecl):
        return OutlineItem(item.name, item.kind, span)
    if isinstance(item, n.TokenDecl):
        return OutlineItem(", ".join(item.names), "token", span)
    if isinstance(item, n.GameDecl):
        return OutlineItem(item.title, "game", span)
    if isinstance(item, n.TestDecl):
        return OutlineItem(item.name, "test", span)
    if isinstance(item, (n.SetupDecl, n.FlowDecl, n.PayoffDecl, n.PlayersDecl, n.SidesDecl, n.SeatsDecl)):
        word = {n.SetupDecl: "setup", n.FlowDecl: "flow", n.PayoffDecl: "payoff", n.PlayersDecl: "players",
                n.SidesDecl: "sides", n.SeatsDecl: "seats"}[type(item)]
        return OutlineItem(word, word, span)
    if isinstance(item, n.WhenDecl):
        what = f"enters {item.zone}" if item.zone else "changes"
        return OutlineItem(f"when {item.watched} {what}", "when", span)
    if isinstance(item, n.WhenBecomes):
        return OutlineItem("when ... becomes true", "when", span)
    if isinstance(item, n.AnytimeDecl):
        return OutlineItem("at any time", "when", span)
    if isinstance(item, n.IncludeDecl):
        return OutlineItem(("extends " if item.extends else "include ") + item.path, "include", span)
    if isinstance(item, n.RemoveDecl):
        return OutlineItem(f"remove {item.kind} {item.name}", "remove", span)
    word = {n.ValueDecl: "value", n.ZoneDecl: "zone", n.GroupDecl: "group", n.KindDecl: "kind",
            n.TrackDecl: "track", n.DefineDecl: "define", n.RuleDecl: "rule", n.ActionDecl: "action"}.get(type(item))
    if word and name:
        return OutlineItem(name, word, span)
    return None
