"""The `ludus` command: check, play, simulate (and the front ends built on them)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from .engine.runtime import RuleError
from .language.source import LudusError, render_all
from .pipeline import analyse, load


def _load_or_exit(path: str):
    try:
        return load(path)
    except LudusError as err:
        click.echo(render_all(err.diagnostics, err.sources), err=True)
        n = len(err.diagnostics)
        click.echo(f"{n} error{'s' if n != 1 else ''}", err=True)
        sys.exit(1)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="ludus")
def main() -> None:
    """Write tabletop game rules as text, check them, and run them."""


@main.command()
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("--strict", is_flag=True, help="Treat warnings as errors.")
@click.option("--quiet", "-q", is_flag=True, help="Print errors only, not warnings.")
def check(files: tuple[str, ...], strict: bool, quiet: bool) -> None:
    """Check game files or folders: every diagnostic, sorted by place; exit 1 on any error.

    A folder checks every game in it; a part of a game (a file that another file includes) is
    checked through the game that includes it."""
    failed = False
    for path in _games_to_check(files):
        diags, _checked, sources = analyse(path)
        errors = [d for d in diags if d.severity == "error"]
        warnings = [d for d in diags if d.severity == "warning"]
        shown = errors if quiet else diags
        if shown:
            click.echo(render_all(shown, sources))
        if errors or (strict and warnings):
            failed = True
        summary = f"{path}: {len(errors)} error{'s' if len(errors) != 1 else ''}, {len(warnings)} warning{'s' if len(warnings) != 1 else ''}"
        click.echo(summary, err=bool(errors))
    sys.exit(1 if failed else 0)


def _games_to_check(files: tuple[str, ...]) -> list[str]:
    """The game files behind what was named, each once: folders opened, parts led to their game."""
    from .language.discover import games_in, games_including, is_game

    out: list[str] = []
    for name in files:
        path = Path(name)
        if path.is_dir():
            found = games_in(path)
            if not found:
                click.echo(f"{name}: no game files here", err=True)
            out.extend(str(p) for p in found)
        elif path.is_file() and not is_game(path) and (games := games_including(path)):
            click.echo(f"{name} is part of {', '.join(str(g) for g in games)}: checking it through its game"
                       + ("s" if len(games) > 1 else ""))
            out.extend(str(g) for g in games)
        else:
            out.append(name)
    return list(dict.fromkeys(out))


def _bot_options(bots: tuple[str, ...], names: list[str]) -> dict[int, str]:
    """`--bot SEAT=KIND[:BUDGET]` values -> {seat index: spec}; a bad one is a usage error."""
    from .bots import BadBotSpec, parse_spec

    chosen: dict[int, str] = {}
    for value in bots:
        name, _, spec = value.partition("=")
        if name not in names:
            raise click.BadParameter(f"no seat '{name}'; the seats are {', '.join(names)}", param_hint="--bot")
        try:
            parse_spec(spec or "random")
        except BadBotSpec as exc:
            raise click.BadParameter(str(exc), param_hint="--bot") from None
        chosen[names.index(name)] = (spec or "random").strip()
    return chosen


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--games", "-n", default=100, show_default=True, type=click.IntRange(min=1), help="How many matches.")
@click.option("--seed", default=0, show_default=True, help="Seed of the first match.")
@click.option("--players", "-p", type=int, default=None, help="Player count (default: the fewest the game allows).")
@click.option("--bot", "bots", multiple=True, metavar="SEAT=KIND[:BUDGET]",
              help="Let a bot play a seat (repeatable): random, greedy or mcts, e.g. Red=mcts:400 or "
                   "Red=mcts:2s; seats not named play at random.")
def simulate(file: str, games: int, seed: int, players: int | None, bots: tuple[str, ...]) -> None:
    """Play many matches between bots (random by default) and report the results."""
    from .simulation import simulate as run_sim

    game = _load_or_exit(file)
    try:
        names = list(game.seat_names(players or game.min_players))
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    chosen = _bot_options(bots, names)
    try:
        report = run_sim(game, games, seed, players, bots=chosen)
    except ValueError as exc:
        raise click.UsageError(str(exc)) from None
    click.echo(f"{game.title}: " + report.summary())
    sys.exit(1 if report.errors or report.unfinished else 0)


@main.command()
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("--seed", default=0, show_default=True, help="Seed of the match's dice and shuffles.")
@click.option("--players", "-p", type=int, default=None, help="Player count (default: the fewest the game allows).")
@click.option("--bot", "bots", multiple=True, metavar="SEAT=KIND[:BUDGET]",
              help="Let a bot play a seat (repeatable): random, greedy or mcts, e.g. Red=mcts:400 or Red=mcts:2s.")
@click.option("--all-seats", is_flag=True, help="Designer view: show every seat's hidden information.")
@click.option("--seat", default=None, help="Always show the state as this seat sees it.")
@click.option("--chance", type=click.Choice(["auto", "manual"]), default="auto", show_default=True,
              help="manual: you choose every die roll.")
@click.option("--script", type=click.File("r"), default=None, help="Read the input lines from a file, not the keyboard.")
def play(file: str, seed: int, players: int | None, bots: tuple[str, ...], all_seats: bool, seat: str | None,
         chance: str, script) -> None:
    """Play a game: moves by number or label, commands (type `help`), from any seat."""
    from rich.console import Console

    from .repl import Repl, history_path, plain_reader, prompt_reader

    game = _load_or_exit(file)
    try:
        match = game.new_match(players, seed=seed, chance=chance)
    except (ValueError, RuleError) as exc:
        raise click.ClickException(str(exc)) from None
    names = list(match.seat_names())
    chosen = _bot_options(bots, names)
    view: str | int = "all" if all_seats else "auto"
    if seat is not None:
        if seat not in names:
            raise click.BadParameter(f"no seat '{seat}'; the seats are {', '.join(names)}", param_hint="--seat")
        view = names.index(seat)
    stdin = sys.stdin  # click's test runner swaps these, so tests see the same streams
    interactive = script is None and stdin.isatty()
    out = sys.stdout
    console = Console(file=out, highlight=False, markup=False,
                      **({} if interactive else {"width": 100, "color_system": None, "force_terminal": False}))
    repl = Repl(match, file, console, bots=chosen, view=view)
    if interactive:
        repl.run(prompt_reader(repl, history=history_path()))
    else:
        repl.run(plain_reader(script or stdin, console))
        if repl.rejected:
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
        click.echo(result_line(match) if match.is_over else f"{file}: ok, {len(match.moves)} moves")


@main.command("test")
@click.argument("files", nargs=-1, required=True, type=click.Path())
@click.option("-k", "keyword", default=None, help="Only the tests whose name contains this text (any case).")
@click.option("--update", is_flag=True, help="Write new and changed snapshots (never deletes one).")
def test_files(files: tuple[str, ...], keyword: str | None, update: bool) -> None:
    """Run the `test` blocks of game files or folders; snapshots compare with the stored ones."""
    from .testing.blocks import run_file

    passed = failed = 0
    for path in _games_to_check(files):
        try:
            ok, bad = run_file(path, click.echo, keyword=keyword, update=update)
        except LudusError as err:
            click.echo(render_all(err.diagnostics, err.sources), err=True)
            failed += 1
            continue
        passed, failed = passed + ok, failed + bad
    click.echo(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":  # pragma: no cover
    main()
