"""`ludus simulate --json/--report` and comparing a variant with its base: the numbers, the files,
the intervals, and clear errors for bad flags."""

from __future__ import annotations

import functools
import json

import pytest
from click.testing import CliRunner

from ludus.cli import main
from ludus.simulation.stats import difference, mean_ci, wilson
from tests.helpers import EXAMPLES, GAMES, no_crash

MARKET = str(EXAMPLES / "market-town.ludus")
FOUR = str(EXAMPLES / "connect-four.ludus")

COIN = """game "Coin"
players 2
flow:
    roll d3 as r
    if r == 1:
        win item(seats, 1)
    elif r == 2:
        win seats
    end game
"""


def run(*args: str):
    return CliRunner().invoke(main, list(args))


def write(tmp_path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_wilson_and_newcombe_give_the_published_intervals():
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert wilson(0, 60)[0] == 0.0 and round(wilson(0, 60)[1], 4) == 0.0602
    assert wilson(0, 0) == (0.0, 1.0)
    # Newcombe (1998), method 10: 56/70 against 48/80 is +0.2 with 0.0524 to 0.3339
    d, low, high = difference(48, 80, 56, 70)
    assert (round(d, 4), round(low, 4), round(high, 4)) == (0.2, 0.0524, 0.3339)
    mean, low, high = mean_ci([1, 2, 3, 4])
    assert mean == 2.5 and round(high - mean, 4) == round(1.959964 * (1.6666667 / 4) ** 0.5, 4)


def test_json_has_the_counts_the_summary_prints(tmp_path):
    path = write(tmp_path, "coin.ludus", COIN)
    out = tmp_path / "r.json"
    result = run("simulate", path, "-n", "300", "--seed", "2", "-w", "2", "--json", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())["runs"][0]
    text = result.output
    sole = data["per_seat"][0]["wins"]["count"]
    assert f"  wins P1: {sole} (" in text
    assert data["per_seat"][1]["wins"]["count"] == 0  # P2 only ever wins together with P1
    shared = data["outcomes"]["shared"]["count"]
    nobody = data["outcomes"]["no_winner"]["count"]
    assert f"  shared wins: {shared} (" in text and f"  no winner: {nobody} (" in text
    assert sole + shared + nobody == 300 == data["matches"]
    assert data["per_seat"][1]["shared_wins"]["count"] == shared
    assert data["per_seat"][0]["wins_alone_or_shared"]["count"] == sole + shared
    assert data["per_seat"][0]["wins"]["ci95"] == [round(x, 6) for x in wilson(sole, 300)]
    assert data["length"]["histogram"] == [[0, 300]]  # the die rolls itself: no one decides anything
    assert data["first_player"]["by_seat"] == {} and data["actions"] == [] and data["cards"] == []


def test_actions_cards_and_the_first_player_are_counted(tmp_path):
    out = tmp_path / "four.json"
    result = run("simulate", FOUR, "-n", "20", "--seed", "4", "-w", "1", "--json", str(out))
    assert result.exit_code == 0, result.output
    data = json.loads(out.read_text())["runs"][0]
    total = sum(length * n for length, n in data["length"]["histogram"])
    [drop] = data["actions"]  # every decision of Connect Four is a Drop
    assert drop["name"] == "Drop" and drop["plays"] == total
    assert sum(drop["by_seat"].values()) == total
    assert data["first_player"]["by_seat"] == {data["seats"][0]: 20}
    decided = 20 - data["outcomes"]["no_winner"]["count"]
    first = data["per_seat"][0]["wins_alone_or_shared"]["count"]
    assert data["first_player"]["wins"] == {"count": first, "of": 20, "rate": first / 20,
                                            "ci95": [round(x, 6) for x in wilson(first, 20)]}
    # a seat that drops at all wins (alone or shared) in the matches someone won
    assert drop["win_rate_of_player"]["count"] == decided and drop["win_rate_of_player"]["of"] == 40

    out = tmp_path / "market.json"
    assert run("simulate", MARKET, "-n", "30", "-w", "1", "--json", str(out)).exit_code == 0
    data = json.loads(out.read_text())["runs"][0]
    names = {c["name"] for c in data["cards"]}
    assert "Copper Coin" in names and all(c["plays"] == sum(c["by_seat"].values()) for c in data["cards"])
    buys = next(a for a in data["actions"] if a["name"] == "Buy")["plays"]
    assert buys == sum(c["plays"] for c in data["cards"])  # each Buy names one card


def test_the_same_seeds_and_bots_give_the_same_report_data(tmp_path):
    outs = []
    for workers in ("1", "2"):
        folder = tmp_path / f"w{workers}"
        result = run("simulate", MARKET, "-n", "40", "--seed", "9", "--bot", "Amber=random", "-w", workers,
                     "--report", str(folder))
        assert result.exit_code == 0, result.output
        outs.append(json.loads((folder / "results.json").read_text()))
    assert outs[0]["runs"] == outs[1]["runs"]
    assert outs[0]["run"]["workers"] == 1 and outs[1]["run"]["workers"] == 2
    other = run("simulate", MARKET, "-n", "40", "--seed", "10", "--bot", "Amber=random", "--json", "-")
    assert json.loads(other.output)["runs"] != outs[0]["runs"]


def test_a_report_is_a_page_with_plots_that_names_every_seat_and_its_bot(tmp_path):
    folder = tmp_path / "report"
    result = run("simulate", MARKET, "-n", "25", "-p", "3", "--bot", "Basil=random", "--report", str(folder))
    assert result.exit_code == 0, result.output
    assert f"report: {folder / 'index.html'}" in result.output
    page = (folder / "index.html").read_text()
    data = json.loads((folder / "results.json").read_text())["runs"][0]
    assert data["seats"] == ["Amber", "Basil", "Cyrus"] or len(data["seats"]) == 3
    for seat in data["seats"]:
        assert f"<td>{seat}</td>" in page
    assert "<td>random</td>" in page and "First-player advantage" in page
    for image in ("run-wins.png", "run-length.png", "run-actions.png", "run-cards.png"):
        assert (folder / image).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f'src="{image}"' in page


def test_a_variant_against_itself_changes_nothing(tmp_path):
    folder = tmp_path / "same"
    result = run("simulate", MARKET, MARKET, "-n", "30", "--report", str(folder))
    assert result.exit_code == 0, result.output
    c = json.loads((folder / "results.json").read_text())["comparison"]
    assert all(s["wins"]["difference"] == 0 and not s["wins"]["significant"] for s in c["per_seat"])
    assert c["length"]["difference"] == 0 and "Variant against base" in (folder / "index.html").read_text()
    assert (folder / "compare-wins.png").exists() and (folder / "run2-wins.png").exists()


def test_a_variant_is_compared_with_its_base_seat_by_seat(tmp_path):
    base, variant = str(GAMES / "uprising.ludus"), str(EXAMPLES / "uprising-great-country.ludus")
    out = tmp_path / "c.json"
    result = run("simulate", base, variant, "-n", "12", "--seed", "1", "--json", str(out))
    assert result.exit_code == 0, result.output
    assert f"variant minus base, with 95% intervals ({variant} minus {base}, the same seeds and bots):" in result.output
    results = json.loads(out.read_text())
    one, two = results["runs"]
    c = results["comparison"]
    for i, seat in enumerate(c["per_seat"]):
        a, b = one["per_seat"][i]["wins"], two["per_seat"][i]["wins"]
        assert seat["wins"]["difference"] == round(b["count"] / b["of"] - a["count"] / a["of"], 6)
        low, high = seat["wins"]["ci95"]
        assert low <= seat["wins"]["difference"] <= high
        assert f"  wins {seat['seat']}: {100 * a['rate']:.1f}% -> {100 * b['rate']:.1f}%" in result.output


@pytest.mark.parametrize("args, message", [
    (["-w", "0"], "0 is not in the range 1<=x<=512"),
    (["--workers", "-2"], "-2 is not in the range 1<=x<=512"),
    (["--workers", "100000"], "100000 is not in the range 1<=x<=512"),
    (["--games", "20000000"], "20000000 is not in the range 1<=x<=10000000"),
    (["--scheduler", "tcp://127.0.0.1:9"], "a scheduler is for --backend dask"),
    (["--backend", "spark"], "'spark' is not one of 'local', 'dask'"),
    (["-p", "0"], "Market Town is for 2 to 4 players, not 0"),  # not the default count
    ([MARKET, MARKET], "give one game file, or two (a base and its variant), not 3"),
    ([str(EXAMPLES / "connect-four.ludus")], "has the seats"),
])
def test_bad_flags_are_usage_errors(args, message):
    result = run("simulate", MARKET, "-n", "2", *args)
    assert result.exit_code == 2, result.output
    assert message in result.output and no_crash(result)


def test_a_report_onto_a_file_and_json_into_a_missing_folder_are_usage_errors(tmp_path):
    afile = write(tmp_path, "taken", "x")
    result = run("simulate", MARKET, "-n", "2", "--report", afile)
    assert result.exit_code == 2 and f"{afile} is a file, not a folder" in result.output
    result = run("simulate", MARKET, "-n", "2", "--json", str(tmp_path / "no" / "r.json"))
    assert result.exit_code == 2 and "there is no folder" in result.output
    result = run("simulate", MARKET, "-n", "2", "--json", str(tmp_path))
    assert result.exit_code == 2 and "is a folder" in result.output


def _game_copy(tmp_path):
    game = tmp_path / "mt.ludus"
    game.write_text((EXAMPLES / "market-town.ludus").read_text(encoding="utf-8"), encoding="utf-8")
    return game


@pytest.mark.parametrize("name, message", [
    ("mt.ludus", "is a file of the game being simulated"),
    ("hard.json", "is a file of the game being simulated"),  # a hard link to it
    ("soft.json", "is a file of the game being simulated"),  # a symbolic link to it
    ("other.ludus", "is named as a game file (.ludus); give another name, like other.json"),
    ("notes.json", "exists and does not hold the results of a `ludus simulate` run"),
])
def test_json_never_writes_over_a_game_file_or_a_file_it_did_not_write(tmp_path, name, message):
    game = _game_copy(tmp_path)
    text = game.read_text(encoding="utf-8")
    (tmp_path / "hard.json").hardlink_to(game)
    (tmp_path / "soft.json").symlink_to(game)
    (tmp_path / "notes.json").write_text('{"mine": 1}', encoding="utf-8")
    result = run("simulate", str(game), "-n", "2", "-w", "1", "--json", str(tmp_path / name))
    assert result.exit_code == 2 and message in result.output, result.output
    assert game.read_text(encoding="utf-8") == text
    assert (tmp_path / "notes.json").read_text(encoding="utf-8") == '{"mine": 1}'


def test_json_replaces_the_results_of_an_earlier_run(tmp_path):
    out = tmp_path / "r.json"
    assert run("simulate", MARKET, "-n", "2", "-w", "1", "--json", str(out)).exit_code == 0
    first = json.loads(out.read_text(encoding="utf-8"))
    assert run("simulate", MARKET, "-n", "3", "-w", "1", "--json", str(out)).exit_code == 0
    assert first["runs"][0]["matches"] == 2 and json.loads(out.read_text(encoding="utf-8"))["runs"][0]["matches"] == 3


def test_a_report_never_replaces_files_of_a_folder_that_holds_no_earlier_report(tmp_path):
    pytest.importorskip("matplotlib")
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("<p>mine</p>", encoding="utf-8")
    result = run("simulate", MARKET, "-n", "2", "-w", "1", "--report", str(site))
    assert result.exit_code == 2 and "holds index.html, which the report would replace" in result.output
    assert (site / "index.html").read_text(encoding="utf-8") == "<p>mine</p>"
    assert sorted(p.name for p in site.iterdir()) == ["index.html"]
    # a folder holding an earlier report is written again, as running again is meant to
    fresh = tmp_path / "fresh"
    assert run("simulate", MARKET, "-n", "2", "-w", "1", "--report", str(fresh)).exit_code == 0
    again = run("simulate", MARKET, "-n", "3", "-w", "1", "--report", str(fresh))
    assert again.exit_code == 0, again.output
    assert json.loads((fresh / "results.json").read_text(encoding="utf-8"))["runs"][0]["matches"] == 3


def test_an_unreachable_scheduler_is_a_usage_error(monkeypatch):
    pytest.importorskip("distributed")
    import ludus.simulation.cli as sim_cli

    monkeypatch.setattr(sim_cli, "run", functools.partial(sim_cli.run, connect_timeout="1s"))  # 10s by default
    result = run("simulate", MARKET, "-n", "2", "--backend", "dask", "--scheduler", "tcp://127.0.0.1:9")
    assert result.exit_code == 2, result.output
    assert "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in result.output


class _Terminal:
    """Standard error as a terminal: what rich draws the progress bar on."""

    def __init__(self):
        import io

        self.buffer = io.StringIO()

    def write(self, text):
        return self.buffer.write(text)

    def flush(self):
        pass

    def isatty(self):
        return True


def test_a_terminal_gets_a_progress_bar_on_stderr_and_the_same_summary(monkeypatch):
    import ludus.simulation.cli as sim_cli

    plain = run("simulate", MARKET, "-n", "30", "--seed", "4", "-w", "2")
    terminal = _Terminal()
    monkeypatch.setattr(sim_cli, "_terminal", lambda: terminal)
    shown = run("simulate", MARKET, "-n", "30", "--seed", "4", "-w", "2")
    assert shown.exit_code == plain.exit_code == 0
    drawn = terminal.buffer.getvalue()
    assert "simulating" in drawn and "30/30" in drawn
    assert plain.output.startswith("Market Town: 30 matches, 2 players")  # the report, without a bar
    assert "simulating" not in plain.output + plain.stderr

    def steady(text):  # the summary less its timings
        return [line for line in text.splitlines()[1:] if not line.startswith(("  speed", "  per CPU"))]

    assert steady(shown.output) == steady(plain.output)


def test_the_command_on_a_dask_cluster_prints_the_report_of_one_worker(tmp_path):
    distributed = pytest.importorskip("distributed")
    local = run("simulate", MARKET, "-n", "40", "--seed", "6", "-w", "1", "--json", "-")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None) as c:
        on_dask = run("simulate", MARKET, "-n", "40", "--seed", "6", "--backend", "dask",
                      "--scheduler", c.scheduler_address, "--json", "-")
    assert on_dask.exit_code == 0, on_dask.output
    one, two = json.loads(local.output), json.loads(on_dask.output)
    assert two["run"]["backend"] == "dask" and one["runs"] == two["runs"]


def test_a_full_disk_while_writing_the_report_is_a_clear_error(tmp_path, monkeypatch):
    import ludus.simulation.report as report

    def full(folder, results):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(report, "write_report", full)
    result = run("simulate", MARKET, "-n", "2", "-w", "1", "--report", str(tmp_path / "r"))
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)
    assert f"cannot write the report in {tmp_path / 'r'}: No space left on device" in result.output


def _unwritable_folder(tmp_path):
    """A folder no file can be made in: a read-only one, or, for root, who writes in those,
    /proc/self."""
    from pathlib import Path

    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        (locked / "probe").write_text("x", encoding="utf-8")
    except OSError:
        return locked
    (locked / "probe").unlink()
    if Path("/proc/self").is_dir():
        return Path("/proc/self")
    pytest.skip("no folder here that this user cannot write in")


def test_json_and_a_report_that_cannot_be_written_are_refused_before_the_first_match(tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    import ludus.simulation.cli as sim_cli

    folder = _unwritable_folder(tmp_path)

    def no_run(*args, **kwargs):
        raise AssertionError("the run started")

    monkeypatch.setattr(sim_cli, "run", no_run)
    result = run("simulate", MARKET, "-n", "2", "-w", "1", "--json", str(folder / "r.json"))
    assert result.exit_code == 2, result.output
    assert f"Invalid value for --json: cannot write {folder / 'r.json'}: " in result.output
    result = run("simulate", MARKET, "-n", "2", "-w", "1", "--report", str(folder))
    assert result.exit_code == 2, result.output
    assert f"Invalid value for --report: cannot write the report in {folder}: " in result.output


def test_a_plot_is_written_whole_or_not_at_all(tmp_path, monkeypatch):
    # matplotlib wrote each plot in place: a full disk (or a power cut) halfway through a report
    # written again left a broken image where the earlier report's had been
    import errno
    import os

    from ludus.simulation import report

    plt = report._pyplot()
    plot = tmp_path / "run-wins.png"
    plot.write_bytes(b"the earlier report's plot")
    synced = []
    real = os.fsync

    def broken_disk(fd):
        synced.append(os.fstat(fd).st_size)
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr(os, "fsync", broken_disk)
    with pytest.raises(OSError, match="Input/output error"):
        report._save(plt, plt.subplots()[0], plot)
    assert synced and synced[0] > 0  # the whole image was written before its fsync
    assert plot.read_bytes() == b"the earlier report's plot"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["run-wins.png"]  # no stray file
    monkeypatch.setattr(os, "fsync", real)
    assert report._save(plt, plt.subplots()[0], plot) == "run-wins.png"
    assert plot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
