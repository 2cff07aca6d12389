"""What `ludus simulate` does between reading its flags and exiting: check every flag before the
first match, run (with a progress bar on a terminal), then print, write JSON and the report.

Bad flags are click usage errors (exit 2, no traceback); a game file with errors exits 1 as
`ludus check` does; Ctrl-C prints the report so far and exits 130; a Dask cluster that can play
no more (no worker left) prints and writes the report so far too, and exits 1."""

from __future__ import annotations

import contextlib
import json
import secrets
import sys
from pathlib import Path

import click

from ..bots import absolute_spec, is_bot_file, make_bot, spec_note
from ..language.files import FileProblem, checked_path, link_target, same_file, write_text_file
from .analysis import compare_data, report_data
from .parallel import BackendError, GameUnavailable, Job, MatchFailed, RunResult, ctrl_c_guard, default_workers, run
from .playout import SimReport, fold
from .records import check_players
from .report import holds_results


def run_simulate(files: tuple[str, ...], *, games: int, seed: int, players: int | None, bots: tuple[str, ...],
                 workers: int | None, backend: str, scheduler: str | None, json_path: str | None,
                 report_dir: str | None, load_game, bot_options) -> None:
    if len(files) > 2:
        raise click.UsageError(f"give one game file, or two (a base and its variant), not {len(files)}")
    if scheduler is not None and backend != "dask":
        raise click.BadParameter("a scheduler is for --backend dask", param_hint="--scheduler")
    loaded = [load_game(f) for f in files]
    count = players if players is not None else loaded[0].min_players  # 0 is refused below, not the default
    seat_lists = []
    for game in loaded:
        try:
            check_players(game, count)
            seat_lists.append(list(game.seat_names(count)))
        except ValueError as exc:
            raise click.UsageError(str(exc)) from None
    names = seat_lists[0]
    if len(files) == 2 and seat_lists[1] != names:
        raise click.UsageError(f"a variant is compared with its base seat by seat, but {files[0]} has the seats "
                               f"{', '.join(names)} and {files[1]} has {', '.join(seat_lists[1])}")
    chosen = bot_options(bots, names)
    for game in loaded:
        for seat, spec in chosen.items():
            try:
                # a bot the game cannot have (a `define score` that takes no seat, say) is the
                # user's to fix: say so now, not as a fault in every worker
                make_bot(spec, game, seat, seed)
            except ValueError as exc:
                raise click.BadParameter(str(exc), param_hint="--bot") from None
    for note in dict.fromkeys(spec_note(game, spec, count) for game in loaded for spec in chosen.values()):
        if note is not None:
            click.echo(f"note: {note}", err=True)
    _check_outputs(json_path, report_dir, _game_files(files, loaded))
    workers = workers or default_workers()
    # a cluster's workers have other folders: the game and any bot file go by absolute paths
    absolute = {seat: absolute_spec(spec) for seat, spec in chosen.items()}
    jobs = [Job(str(Path(f).resolve()), count, absolute) for f in files]
    # Ctrl-C: the first press stops the run, a later one its workers at once, and the report so
    # far is printed and written however often it is pressed (see parallel._CtrlC)
    with ctrl_c_guard():
        try:
            result = _run_with_progress(jobs, games, seed, workers, backend, scheduler,
                                        preload={job.path: game for job, game in zip(jobs, loaded, strict=True)})
        except MatchFailed as exc:
            bot_files = sorted({spec.partition(":")[0] for spec in chosen.values() if is_bot_file(spec.partition(":")[0])})
            message = str(exc)
            # the workers had each bot file by its absolute path: said here as the user typed it
            for seat in sorted(chosen, key=lambda s: -len(absolute[s])):
                typed, full = chosen[seat].strip().partition(":")[0].strip(), absolute[seat].partition(":")[0]
                if typed != full:
                    message = message.replace(full, typed)
            if bot_files:  # a fault of the user's own code is theirs to fix, not ludus's to be told of
                click.echo(f"error: {message}\n(this is a fault of a bot or of ludus, not of the game: look first at "
                           f"{' and '.join(bot_files)}, which `ludus play FILE --seed SEED --bot ...` can step through)",
                           err=True)
            else:
                click.echo(f"error: {message}\n(this is a fault of ludus or of a bot, not of the game: "
                           "please report it with the command and this seed)", err=True)
            sys.exit(1)
        except GameUnavailable as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(1)

        reports = []
        for records in result.records:
            report = fold(records, len(records), count, names, chosen)
            report.seconds = result.seconds / len(jobs)
            report.cpu_seconds = result.cpu_seconds / len(jobs)
            reports.append(report)
        results = _results(files, loaded, result, names, chosen, seed, games, workers, backend)

        to_stdout = json_path == "-"
        if not to_stdout:
            _print_summary(files, loaded, reports, results, result)
        if json_path is not None:
            text = json.dumps(results, indent=1, ensure_ascii=False)
            if to_stdout:
                click.echo(text)
            else:
                try:
                    write_text_file(json_path, text + "\n")
                except FileProblem as exc:
                    raise click.ClickException(str(exc)) from None
        if report_dir is not None:
            from .report import ReportError, write_report

            try:
                index = write_report(report_dir, results)
            except ReportError as exc:
                raise click.UsageError(str(exc)) from None
            except FileProblem as exc:
                raise click.ClickException(f"cannot write the report in {report_dir}: {exc}") from None
            except OSError as exc:
                raise click.ClickException(f"cannot write the report in {report_dir}: {exc.strerror or exc}") from None
            click.echo(f"report: {index}", err=to_stdout)
        if result.interrupted:
            sys.exit(130)
        if result.stopped:
            click.echo(f"error: {result.stopped}", err=True)  # last, where it is seen
            sys.exit(1)
        sys.exit(1 if any(r.errors or r.unfinished for r in reports) else 0)


def _game_files(files, loaded) -> list[str]:
    """Every file the simulated games are read from: the ones named, their includes and bases."""
    out = list(files)
    for game in loaded:
        sources = getattr(game, "sources", None)
        out.extend(sources.texts if sources is not None else ())
    return out


def _check_outputs(json_path: str | None, report_dir: str | None, game_files: list[str]) -> None:
    """Refuse an output that cannot be written, or that would replace what is not an earlier
    run's output (a game file above all), before playing a single match."""
    if json_path is not None and json_path != "-":
        try:
            target = checked_path(json_path)
        except FileProblem as exc:
            raise click.BadParameter(str(exc), param_hint="--json") from None
        if target.is_dir():
            raise click.BadParameter(f"{json_path} is a folder; give a file name", param_hint="--json")
        if not target.parent.is_dir():
            raise click.BadParameter(f"there is no folder {target.parent}", param_hint="--json")
        if same_file(target, game_files):
            raise click.BadParameter(f"{json_path} is a file of the game being simulated; give another name",
                                     param_hint="--json")
        if target.suffix.lower() == ".ludus":
            raise click.BadParameter(f"{json_path} is named as a game file (.ludus); give another name, "
                                     f"like {target.stem}.json", param_hint="--json")
        if target.exists() and not holds_results(target):
            raise click.BadParameter(f"{json_path} exists and does not hold the results of a `ludus simulate` run; "
                                     "give another name, or remove it first", param_hint="--json")
        try:
            folder = link_target(target).parent  # written through a link
        except OSError as exc:  # a link that leads round in a loop, or into no folder
            raise click.BadParameter(f"cannot write {json_path}: {exc.strerror}", param_hint="--json") from None
        why = _cannot_write_in(folder)
        if why is not None:
            raise click.BadParameter(f"cannot write {json_path}: {why}", param_hint="--json")
    if report_dir is not None:
        from .report import ReportError, _pyplot, prepare

        try:
            folder = prepare(report_dir, game_files)
            _pyplot()
        except ReportError as exc:
            raise click.BadParameter(str(exc), param_hint="--report") from None
        why = _cannot_write_in(folder)
        if why is not None:
            raise click.BadParameter(f"cannot write the report in {report_dir}: {why}", param_hint="--report")


def _cannot_write_in(folder: Path) -> str | None:
    """Why no file can be made in the folder, or None. Tried with a file made and removed at once:
    permissions do not tell (root, read-only mounts, /proc), and a folder the results cannot go
    to must be found before the run, not after hours of it."""
    probe = folder / f".ludus-simulate.{secrets.token_hex(6)}.tmp"
    try:
        with open(probe, "x", encoding="utf-8"):
            pass
    except OSError as exc:
        return exc.strerror or str(exc)
    with contextlib.suppress(OSError):
        probe.unlink()
    return None


def _terminal():
    """Standard error when it is a terminal: the progress bar is drawn there, and only there."""
    return sys.stderr if sys.stderr.isatty() else None


def _run_with_progress(jobs, games, seed, workers, backend, scheduler, preload) -> RunResult:
    def note(text: str) -> None:
        click.echo(text, err=True)

    terminal = _terminal()
    if terminal is None:
        try:
            return run(jobs, games, seed, workers, backend, scheduler, note=note, preload=preload)
        except BackendError as exc:
            raise click.UsageError(str(exc)) from None
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

    progress = Progress(TextColumn("simulating"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
                        console=Console(file=terminal), transient=True)
    task = progress.add_task("matches", total=games)

    def advance(n: int) -> None:
        # the bar (and rich's refresh thread) starts with the first matches back, after the pool
        # has forked its workers: forking a process that runs threads is asking for a deadlock
        if not progress.live.is_started:
            progress.start()
        progress.advance(task, n)

    try:
        return run(jobs, games, seed, workers, backend, scheduler, note=note, preload=preload, progress=advance)
    except BackendError as exc:
        raise click.UsageError(str(exc)) from None
    finally:
        if progress.live.is_started:
            progress.stop()


def _results(files, loaded, result: RunResult, names, chosen, seed, games, workers, backend) -> dict:
    runs = [report_data(records, names, chosen, title=game.title, path=path, seed=seed, requested=games)
            for path, game, records in zip(files, loaded, result.records, strict=True)]
    comparison = None
    if len(runs) == 2:
        lengths = [[r.length for r in records if r.outcome != "error"] for records in result.records]
        comparison = compare_data(runs[0], runs[1], lengths[0], lengths[1])
    return {"runs": runs, "comparison": comparison,
            "run": {"backend": backend, "workers": workers, "seconds": round(result.seconds, 3),
                    "cpu_seconds": round(result.cpu_seconds, 3), "interrupted": result.interrupted,
                    "stopped": result.stopped}}


def _print_summary(files, loaded, reports: list[SimReport], results: dict, result: RunResult) -> None:
    if result.interrupted:
        click.echo(f"interrupted after {result.done()} of {result.wanted} matches: the report so far")
    elif result.stopped:
        click.echo(f"stopped after {result.done()} of {result.wanted} matches: the report so far")
    for path, game, report in zip(files, loaded, reports, strict=True):
        head = f"{game.title}: " if len(files) == 1 else f"{game.title} ({path}): "
        click.echo(head + report.summary())
    comparison = results["comparison"]
    if comparison is None:
        return
    click.echo(f"variant minus base, with 95% intervals ({files[1]} minus {files[0]}, the same seeds and bots):")

    def line(label: str, d: dict) -> str:
        mark = "  *" if d["significant"] else ""
        return (f"  {label}: {100 * d['base']:.1f}% -> {100 * d['variant']:.1f}%, {100 * d['difference']:+.1f} points "
                f"({100 * d['ci95'][0]:+.1f} to {100 * d['ci95'][1]:+.1f}){mark}")

    for seat in comparison["per_seat"]:
        click.echo(line(f"wins {seat['seat']}", seat["wins"]))
    click.echo(line("shared wins", comparison["shared"]))
    click.echo(line("no winner", comparison["no_winner"]))
    ln = comparison["length"]
    mark = "  *" if ln["significant"] else ""
    click.echo(f"  length: {ln['base']:.1f} -> {ln['variant']:.1f} decisions, {ln['difference']:+.1f} "
               f"({ln['ci95'][0]:+.1f} to {ln['ci95'][1]:+.1f}){mark}")
    click.echo("  (* the interval leaves out zero)")
