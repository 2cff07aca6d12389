"""The `ludus` command: check, play, simulate (and the front ends built on them)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import click

from .engine.runtime import RuleError
from .language.limits import MAX_NUMBER
from .language.source import LudusError, render_all
from .pipeline import analyse, load

MAX_GAMES = 10_000_000  # a run keeps one small record per match in memory
MAX_WORKERS = 512  # processes of one machine; a cluster's workers are its own
# Match i of a simulation has the seed `seed * 1_000_003 + i` (simulation.records.match_seeds):
# with the run's seed within this, every match seed of the longest run is one that replays,
# saved matches and `ludus play --seed` take, so any match of a run can be dealt again.
MAX_RUN_SEED = (MAX_NUMBER - (MAX_GAMES - 1)) // 1_000_003


class Seed(click.ParamType):
    """A seed: a whole number from -limit to limit. A seed out of that range would start a match
    whose save and replay ludus then refuses, so it is refused here, before anything is played."""

    name = "integer"

    def __init__(self, limit: int, why: str) -> None:
        self.limit, self.why = limit, why

    def convert(self, value, param, ctx):
        if isinstance(value, int) and not isinstance(value, bool):
            number = value
        else:
            text = str(value).strip()
            body = text[1:] if text[:1] in "+-" else text
            if not body.isascii() or not body.isdigit():
                self.fail(f"a seed is a whole number, not '{value}'", param, ctx)
            number = int(text) if len(body) <= 30 else None
        if number is None or not -self.limit <= number <= self.limit:
            shown = value if len(str(value)) <= 40 else f"{str(value)[:20]}... ({len(str(value))} characters)"
            self.fail(f"{shown} is out of the range {-self.limit} to {self.limit} ({self.why})", param, ctx)
        return number


MATCH_SEED = Seed(MAX_NUMBER, "a seed has at most 15 digits, so that the match's save and replay load")
RUN_SEED = Seed(MAX_RUN_SEED, "match i has the seed SEED * 1000003 + i, and a match seed has at most 15 digits")


def _load_or_exit(path: str):
    try:
        return load(path)
    except LudusError as err:
        click.echo(render_all(err.diagnostics, err.sources), err=True)
        n = len(err.diagnostics)
        click.echo(f"{n} error{'s' if n != 1 else ''}", err=True)
        sys.exit(1)


INTERRUPTED = "interrupted (Ctrl-C)"


class Ludus(click.Group):
    """The command group. Ctrl-C that a command does not handle itself (most often while the
    game loads, before a run or a session begins) ends it with one line and the exit status
    130, as Ctrl-C does where the commands handle it; click would print "Aborted!" and exit 1."""

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            click.echo(INTERRUPTED, err=True)
            ctx.exit(130)


@click.group(cls=Ludus, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ludus")
def main() -> None:
    """Write tabletop game rules as text, check them, and run them."""


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--quiet", "-q", is_flag=True, help="Print errors only, not warnings.")
@click.option("--format", "output_format", type=click.Choice(["text", "json"]), default="text", show_default=True,
              help="json: one JSON list of every diagnostic on stdout, for editors and other tools.")
def check(files: tuple[str, ...], strict: bool, quiet: bool, output_format: str) -> None:
    """Check game files or folders: every diagnostic, sorted by place; exit 1 on any error.

    A folder checks every game in it; a part of a game (a file that another file includes) is
    checked through the game that includes it."""
    as_json = output_format == "json"
    found: list[dict] = []
    targets = _games_to_check(files, notes_to_stderr=as_json)
    failed = bool(targets.empty)
    for path in targets.games:
        diags, _checked, sources = analyse(path)
        errors = [d for d in diags if d.severity == "error"]
        warnings = [d for d in diags if d.severity == "warning"]
        shown = errors if quiet else diags
        if errors or (strict and warnings):
            failed = True
        if as_json:
            found.extend(_diagnostic_json(d, path) for d in shown)
            continue
        if shown:
            click.echo(render_all(shown, sources))
        summary = f"{path}: {len(errors)} error{'s' if len(errors) != 1 else ''}, {len(warnings)} warning{'s' if len(warnings) != 1 else ''}"
        click.echo(summary, err=bool(errors))
    if as_json:
        import json

        # a part included by two games is checked twice: each of its diagnostics is listed once
        unique = {tuple(sorted((k, str(v)) for k, v in d.items() if k != "game")): d for d in reversed(found)}
        click.echo(json.dumps(list(reversed(unique.values())), indent=2, ensure_ascii=False))
    sys.exit(1 if failed else 0)


def _diagnostic_json(d, game: str) -> dict:
    """One diagnostic for tools: lines and columns 1-based, the end column exclusive, as in the text output;
    `suggestion`, where the hint says "did you mean ...?", the name written and the names meant."""
    span = d.span
    said = d.suggestion
    return {"file": span.path, "line": span.line, "column": span.column, "end_line": span.end_line,
            "end_column": span.end_column, "severity": d.severity, "code": d.code,
            "message": d.message, "hint": d.hint,
            "suggestion": {"name": said.name, "meant": list(said.meant)} if said is not None else None,
            "game": str(game)}


class _Targets:
    """What `ludus check` and `ludus test` work through, from the paths named."""

    def __init__(self) -> None:
        self.games: list[str] = []  # the game files, each once
        self.empty: list[str] = []  # the folders named in which there is no game file


def _games_to_check(files: tuple[str, ...], notes_to_stderr: bool = False) -> _Targets:
    """The game files behind what was named, each once: folders opened, parts led to their game.
    A folder with no game file in it is noted, and fails the command: a mistyped folder (in CI,
    say) passed, having checked nothing."""
    from .language.discover import games_including, is_game, sort_out

    targets = _Targets()
    out: list[str] = []
    for name in files:
        path = Path(name)
        if path.is_dir():
            found = sort_out(path)
            # a file that cannot be read cannot be told a game or a part: it is checked, so its
            # error shows, where a folder of games passed with the file left out unsaid
            listed = sorted([p for p, _text in found.games] + found.unreadable)
            if not listed:
                parts = len(found.parts)
                click.echo(f"{name}: no game files here" + (
                    f", only {parts} part{'s' if parts != 1 else ''} of a game (without a `game` or `extends` "
                    "line), checked through the game that includes them" if parts else ""), err=True)
                targets.empty.append(name)
            out.extend(str(p) for p in listed)
        elif path.is_file() and not is_game(path):
            games = games_including(path)
            if games:
                click.echo(f"{name} is part of {', '.join(str(g) for g in games)}: checking it through its game"
                           + ("s" if len(games) > 1 else ""), err=notes_to_stderr)
                out.extend(str(g) for g in games)
            else:  # checked alone: its error says no game includes it (pipeline._part_alone)
                out.append(name)
        else:
            out.append(name)
    targets.games = list(dict.fromkeys(out))
    return targets


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--card", "card_name", default=None, metavar="NAME", help="Only this card (its name, any case).")
def cards(file: str, card_name: str | None) -> None:
    """Each card's effect written out as plain English, to proof-read against the printed card.

    A part of a game (a card list) is read through the game that includes it, and only its own
    cards are printed. Exit 1 when the game has errors, 2 when no card has the name asked for."""
    from .engine.match import closest
    from .language.discover import games_including, is_game
    from .rules_text import RulesText, cards_of

    path = Path(file)
    game_path, part = path, None
    if path.is_file() and not is_game(path) and (games := games_including(path)):
        game_path, part = games[0], path.resolve()
    diags, checked, sources = analyse(game_path)
    errors = [d for d in diags if d.severity == "error"]
    if errors or checked is None:
        click.echo(render_all(errors, sources), err=True)
        click.echo(f"{len(errors)} error{'s' if len(errors) != 1 else ''}", err=True)
        sys.exit(1)
    found = cards_of(checked.symbols)
    if part is not None:
        found = [d for d in found if Path(d.span.path).resolve() == part]
    writer = RulesText(checked.symbols, checked.types, sources)
    if card_name is not None:
        by_name = {d.name.casefold(): d for d in found}
        decl = by_name.get(card_name.strip().casefold())
        if decl is None:
            near = closest(card_name, [d.name for d in found])
            click.echo(f"{file}: no card is named '{card_name}'"
                       + (f"; closest: {', '.join(near)}" if near else ""), err=True)
            sys.exit(2)
        found = [decl]
    if not found:
        click.echo(f"{file}: no cards")
        return
    click.echo("\n\n".join(writer.card(d).text() for d in found))


@main.command()
def lsp() -> None:
    """Run the language server on stdio, for editors (diagnostics, hover, outline; docs/editors.md)."""
    from .lsp import MissingExtra, serve

    try:
        serve()
    except MissingExtra as exc:
        click.echo(str(exc), err=True)
        sys.exit(1)
    except KeyboardInterrupt:  # while the server starts: 130, and nothing on stderr, as Ctrl-C once it runs
        sys.exit(130)


@main.command("fmt")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--check", "check_only", is_flag=True, help="Change nothing; exit 1 if a file would change.")
@click.option("--diff", "show_diff", is_flag=True, help="Change nothing; print how each file would change.")
def fmt(files: tuple[str, ...], check_only: bool, show_diff: bool) -> None:
    """Rewrite .ludus files in the house style (a folder: every .ludus file under it).

    Keeps every comment and what the file means; a file with a syntax error is left as it is."""
    import difflib

    from .language.discover import ludus_files
    from .language.files import FileProblem, read_only, read_text_file, write_text_file
    from .tools.fmt import FormatError, format_text

    paths: list[Path] = []
    for name in files:
        path = Path(name)
        if path.is_dir():
            found = [p for p in ludus_files(path) if p.is_file()]
            if not found:
                click.echo(f"{name}: no .ludus files here", err=True)
            paths.extend(found)
        else:
            paths.append(path)
    changed = failed = 0
    for path in dict.fromkeys(paths):
        try:
            text = read_text_file(path)
            new = format_text(text, str(path))
        except FileProblem as exc:
            click.echo(f"{path}: {exc}", err=True)
            failed += 1
            continue
        except LudusError as err:
            click.echo(render_all(err.diagnostics, err.sources), err=True)
            # not "syntax error": a parse also stops at an expression nested too deeply
            click.echo(f"{path}: not formatted: it has {len(err.diagnostics)} error"
                       + ("s" if len(err.diagnostics) != 1 else ""), err=True)
            failed += 1
            continue
        except FormatError as exc:
            click.echo(str(exc), err=True)
            failed += 1
            continue
        if new == text:
            continue
        if show_diff:
            click.echo("".join(difflib.unified_diff(text.splitlines(keepends=True), new.splitlines(keepends=True),
                                                    f"{path}", f"{path} (formatted)")), nl=False)
        if check_only:
            click.echo(f"{path}: would be reformatted", err=True)
        elif not show_diff:
            # a file that could not be written is counted as not formatted, not as reformatted
            if read_only(path):
                click.echo(f"cannot write '{path}': it is read-only", err=True)
                failed += 1
                continue
            try:
                write_text_file(path, new)
            except FileProblem as exc:
                click.echo(str(exc), err=True)
                failed += 1
                continue
            click.echo(f"{path}: reformatted")
        changed += 1
    total = len(dict.fromkeys(paths))
    verb = "would be reformatted" if (check_only or show_diff) else "reformatted"
    click.echo(f"{changed} of {total} file{'s' if total != 1 else ''} {verb}"
               + (f", {failed} not formatted" if failed else ""), err=check_only and bool(changed))
    sys.exit(1 if failed or (check_only and changed) else 0)


def _note_bots(game, chosen: dict[int, str], players: int) -> None:
    """A greedy bot in a game without `define score(s)` plays at random but for a win in one
    move, and an mcts bot with a playout depth learns little there: say so (on stderr) when one
    is asked for, rather than leave its play unexplained; and an mcts bot without a playout
    depth in a game whose matches run long is slow."""
    from .bots import spec_note

    for note in dict.fromkeys(spec_note(game, spec, players) for spec in chosen.values()):
        if note is not None:
            click.echo(f"note: {note}", err=True)


def _bot_options(bots: tuple[str, ...], names: list[str]) -> dict[int, str]:
    """`--bot SEAT=KIND[:BUDGET][:OPTION=N]` values -> {seat index: spec}; a bad one is a usage error."""
    from .bots import BadBotSpec, bot_kinds, parse_spec
    from .repl.session import seat_named

    chosen: dict[int, str] = {}
    for value in bots:
        name, eq, spec = value.partition("=")
        seat = seat_named(name, names)  # in any case, as the REPL's `bot amber` takes it
        if seat is None:
            raise click.BadParameter(f"no seat '{name}'; the seats are {', '.join(names)}", param_hint="--bot")
        if eq and not spec.strip():  # `Amber=`: a kind left out (a variable unset?), not a choice of random
            raise click.BadParameter(f"'{value}' names no bot after '=' ('{name}' alone is the random bot); "
                                     f"{bot_kinds()}", param_hint="--bot")
        try:
            parse_spec(spec or "random")
        except BadBotSpec as exc:
            raise click.BadParameter(str(exc), param_hint="--bot") from None
        name = names[seat]
        if seat in chosen:  # which of the two was meant is the user's to say, not the last one's
            raise click.BadParameter(f"the seat '{name}' is given twice ({name}={chosen[seat]} and {value}); "
                                     "give each seat once", param_hint="--bot")
        chosen[seat] = (spec or "random").strip()
    return chosen


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path(dir_okay=False), metavar="FILE [VARIANT]")
@click.option("--games", "-n", default=100, show_default=True, type=click.IntRange(min=1, max=MAX_GAMES),
              help="How many matches.")
@click.option("--seed", type=RUN_SEED, default=0, show_default=True,
              help=f"The run's seed, from {-MAX_RUN_SEED} to {MAX_RUN_SEED}; match i has the seed SEED * 1000003 + i.")
@click.option("--players", "-p", type=int, default=None, help="Player count (default: the fewest the game allows).")
@click.option("--bot", "bots", multiple=True, metavar="SEAT=KIND[:BUDGET][:OPTION=N]",
              help="Let a bot play a seat (repeatable): random, greedy, mcts or a FILE.py of your own, e.g. Red=mcts:400, "
                   "Red=mcts:2s or Red=mcts:400:depth=40; seats not named play at random.")
@click.option("--workers", "-w", type=click.IntRange(min=1, max=MAX_WORKERS), default=None,
              help="Processes to play on (default: this machine's cores; a local Dask cluster's size).")
@click.option("--backend", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="local: a process pool on this machine; dask: a Dask cluster.")
@click.option("--scheduler", metavar="ADDRESS", default=None,
              help="The Dask scheduler to use, e.g. tcp://10.0.0.5:8786 (default: start a local cluster).")
@click.option("--json", "json_path", metavar="FILE", default=None, help="Write the results as JSON to FILE ('-': print them).")
@click.option("--report", "report_dir", metavar="DIR", default=None,
              help="Write an HTML report with plots to DIR/index.html and the numbers to DIR/results.json.")
def simulate(files: tuple[str, ...], games: int, seed: int, players: int | None, bots: tuple[str, ...],
             workers: int | None, backend: str, scheduler: str | None, json_path: str | None,
             report_dir: str | None) -> None:
    """Play many matches between bots (random by default) and report the results.

    Given two files, a base game and its variant, plays both with the same seeds and bots and
    shows what the variant changes, with 95% confidence intervals."""
    from .simulation.cli import run_simulate

    run_simulate(files, games=games, seed=seed, players=players, bots=bots, workers=workers, backend=backend,
                 scheduler=scheduler, json_path=json_path, report_dir=report_dir, load_game=_load_or_exit,
                 bot_options=_bot_options)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seed", type=MATCH_SEED, default=0, show_default=True,
              help="Seed of the match's dice and shuffles: a whole number of at most 15 digits.")
@click.option("--players", "-p", type=int, default=None, help="Player count (default: the fewest the game allows).")
@click.option("--bot", "bots", multiple=True, metavar="SEAT=KIND[:BUDGET][:OPTION=N]",
              help="Let a bot play a seat (repeatable): random, greedy, mcts or a FILE.py of your own, e.g. Red=mcts:400, Red=mcts:2s "
                   "or Red=mcts:400:depth=40.")
@click.option("--all-seats", is_flag=True, help="Designer view: show every seat's hidden information.")
@click.option("--seat", default=None, help="Always show the state as this seat sees it.")
@click.option("--chance", type=click.Choice(["auto", "manual"]), default="auto", show_default=True,
              help="manual: you choose every die roll.")
@click.option("--script", type=click.File("r"), default=None, help="Read the input lines from a file, not the keyboard.")
@click.option("--watch", is_flag=True, help="Reload the game (and replay the session) when its files change.")
def play(file: str, seed: int, players: int | None, bots: tuple[str, ...], all_seats: bool, seat: str | None,
         chance: str, script, watch: bool) -> None:
    """Play a game: moves by number or label, commands (type `help`), from any seat."""
    from rich.console import Console

    from .repl import Repl, TrimmedLines, history_path, plain_reader, prompt_reader
    from .repl.session import seat_named

    game = _load_or_exit(file)
    try:
        match = game.new_match(players, seed=seed, chance=chance)
    except RuleError as exc:
        # setup (or the flow before the first decision) broke a rule: its message is located
        # already ("game.ludus:9:5: error: ..."), and click's "Error: " would say it twice
        text = str(exc)
        click.echo(text if ": error: " in text else f"error: {text}", err=True)
        sys.exit(1)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    names = list(match.seat_names())
    chosen = _bot_options(bots, names)
    _note_bots(game, chosen, len(names))
    view: str | int = "all" if all_seats else "auto"
    if seat is not None:
        index = seat_named(seat, names)  # in any case, as `view amber` takes it
        if index is None:
            raise click.BadParameter(f"no seat '{seat}'; the seats are {', '.join(names)}", param_hint="--seat")
        view = index
    stdin = sys.stdin  # click's test runner swaps these, so tests see the same streams
    interactive = script is None and stdin.isatty()
    out = sys.stdout
    isatty = getattr(out, "isatty", None)
    if not (isatty is not None and isatty()):  # piped or saved: no blanks padding lines' ends
        out = TrimmedLines(out)
    console = Console(file=out, highlight=False, markup=False,
                      **({} if interactive else {"width": 100, "color_system": None, "force_terminal": False}))
    # a session typed at the keyboard keeps its unsaved moves on quitting; a script can be run again
    repl = Repl(match, file, console, bots=chosen, view=view, keep_unsaved=interactive, watch=watch,
                handover=interactive)
    if interactive:
        repl.run(prompt_reader(repl, history=history_path()))
    else:
        repl.run(plain_reader(script or stdin, console))
        if repl.rejected or repl.bot_errors:
            sys.exit(1)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--quiet", "-q", is_flag=True, help="Print only errors and the result, not the transcript.")
def replay(file: str, quiet: bool) -> None:
    """Run a replay script: moves, forced chance and expectations; exit 1 at the first failure."""
    from .replay import ReplayError, load_replay, result_line

    try:
        script = load_replay(file)
        match = script.run(echo=None if quiet else click.echo)
    except ReplayError as err:
        click.echo(str(err), err=True)
        sys.exit(1)
    if quiet:
        click.echo(result_line(match) if match.is_over else f"{file}: ok, {len(match.moves)} move{'' if len(match.moves) == 1 else 's'}")


@main.command("test")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("-k", "keyword", default=None, help="Only the tests whose name contains this text (any case).")
@click.option("--update", is_flag=True,
              help="Write the new and changed snapshots of the tests that pass (never deletes one, and "
                   "does not fail for unused ones).")
def test_files(files: tuple[str, ...], keyword: str | None, update: bool) -> None:
    """Run the `test` blocks of game files or folders; snapshots compare with the stored ones."""
    from .testing.blocks import run_file, unused_snapshot_folders

    passed = failed = 0
    unused: list[Path] = []
    targets = _games_to_check(files)
    for path in targets.games:
        try:
            ok, bad = run_file(path, click.echo, keyword=keyword, update=update, unused=unused)
        except LudusError as err:
            click.echo(render_all(err.diagnostics, err.sources), err=True)
            failed += 1
            continue
        passed, failed = passed + ok, failed + bad
    if keyword is None:  # a folder named runs every game in it: a snapshot folder no game has is named
        folders = dict.fromkeys(name for name in files if Path(name).is_dir())
        for folder in sorted({f for name in folders for f in unused_snapshot_folders(name, targets.games)}):
            game = folder.parent.parent / f"{folder.name}.ludus"
            click.echo(f"     unused {folder}{os.sep}: no game file {game} stores snapshots there "
                       "(delete it, or run `pytest --snapshot-update`)")
            unused.append(folder)
    if unused and not update:
        # as pytest fails for unused snapshots (syrupy), so that CI sees one left by a renamed test
        click.echo(f"{len(unused)} unused snapshot{'' if len(unused) == 1 else 's'} (named above) fail the run: "
                   f"delete {'it' if len(unused) == 1 else 'them'}, or run `pytest --snapshot-update`", err=True)
    click.echo(f"{passed} passed, {failed} failed")
    if keyword is not None and not passed + failed:
        # as pytest's exit code 5: a misspelt -k in CI would otherwise pass, having run nothing
        click.echo(f"no test's name contains '{keyword}'", err=True)
        sys.exit(1)
    sys.exit(1 if failed or targets.empty or (unused and not update) else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
