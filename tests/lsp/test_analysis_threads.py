"""Analyses on worker threads: the event loop stays free, and a slow analysis of old text never
replaces a newer one's results."""

from __future__ import annotations

import asyncio
import threading

import pytest

from ludus.lsp import workspace as ws_module
from ludus.lsp.workspace import Workspace

GOOD = 'game "G"\nplayers 2\ncounter coins per seat\nflow:\n    gain 1 coins\n    win P1\n'
BAD = 'game "G"\nplayers 2\ncounter coins per seat\nflow:\n    gain 1 coinz\n    win P1\n'


def error_count(analysis) -> int:
    return sum(d.severity == "error" for ds in analysis.diagnostics.values() for d in ds)


def test_an_analysis_of_old_text_that_ends_last_does_not_replace_the_newer(tmp_path, monkeypatch):
    path = str(tmp_path / "g.ludus")
    ws = Workspace()
    ws.open(path, GOOD)
    real, started, release = ws_module.analyse, threading.Event(), threading.Event()

    def slow_once(game, overrides):
        if overrides[next(iter(overrides))] == GOOD and not release.is_set():
            started.set()
            release.wait(10)
        return real(game, overrides=overrides)

    monkeypatch.setattr(ws_module, "analyse", slow_once)
    old = {}
    worker = threading.Thread(target=lambda: old.setdefault("a", ws.analyse(path)))
    worker.start()
    assert started.wait(10)
    ws.open(path, BAD)                      # typed on while the first analysis runs
    newer = ws.analyse(path)
    assert error_count(newer) == 1
    release.set()
    worker.join(10)
    assert error_count(old["a"]) == 0       # the old text's own result, for its caller
    assert ws.analyse(path) is newer        # but the newer stays the one kept


def test_typing_analyses_off_the_event_loop_and_drops_a_result_overtaken_by_edits(tmp_path):
    pytest.importorskip("pygls")
    from ludus.lsp.server import make_server

    path = tmp_path / "g.ludus"
    path.write_text(GOOD, encoding="utf-8")
    server = make_server()
    sent = []
    server.text_document_publish_diagnostics = sent.append
    threads = []
    analyse = server.ludus.analyse

    def spy(p):
        threads.append(threading.get_ident())
        return analyse(p)

    server.ludus.analyse = spy
    uri = path.as_uri()

    async def typing() -> None:
        server.ludus.open(str(path), BAD)
        await server._refresh_now(uri)
        await asyncio.sleep(0)              # the publishing callback runs on the loop
        assert [[d.message for d in p.diagnostics if d.severity == 1] for p in sent] == [["unknown counter 'coinz'\ndid you mean 'coins'?"]]
        server.ludus.open(str(path), GOOD)
        work = server._refresh_now(uri)
        assert work in server.analysing       # held until it ends: the loop only keeps weak references
        await asyncio.sleep(0)              # it begins (an analysis takes the text as it is then)
        server.ludus.open(str(path), BAD)   # an edit before it ends: its result is not sent
        await work
        await asyncio.sleep(0)
        assert len(sent) == 1

    asyncio.run(typing())
    assert threads and threading.get_ident() not in threads


def test_an_edit_to_another_game_does_not_drop_an_analysis(tmp_path):
    """An editor opens the files of its last session at once: the analysis of the first was
    dropped as overtaken by the opening of the second, an unrelated game, and the first file
    showed no diagnostics until it was edited."""
    pytest.importorskip("pygls")
    from ludus.lsp.server import make_server

    first, second = tmp_path / "a" / "g.ludus", tmp_path / "b" / "g.ludus"
    for path in (first, second):
        path.parent.mkdir()
        path.write_text(BAD, encoding="utf-8")
    server = make_server()
    sent = []
    server.text_document_publish_diagnostics = sent.append

    async def open_both() -> None:
        server.ludus.open(str(first), BAD)
        work = server._refresh_now(first.as_uri())
        server.ludus.open(str(second), BAD)     # while the first is analysed
        await work
        await asyncio.sleep(0)

    asyncio.run(open_both())
    assert [p.uri for p in sent] == [first.as_uri()]


GAME_WITH_PART = 'game "Parts"\nplayers 2\ncounter coins per seat\ninclude "cards.ludus"\nflow:\n    win P1\n'
CARDS = 'card "Lamp":\n    on play:\n        gain 1 coins\n'


def test_an_older_result_is_never_published_after_a_newer_one(tmp_path):
    """A game's analysis under way, the part it could not find is opened: the part's analysis
    (of the whole game, now whole) was published, then the older one over it, which no edit to
    a file it read had overtaken: the game kept showing "cannot read 'cards.ludus'". Analyses
    now run one at a time, and are published in the order they began."""
    pytest.importorskip("pygls")
    from ludus.lsp.server import make_server

    game, cards = tmp_path / "game.ludus", tmp_path / "cards.ludus"
    game.write_text(GAME_WITH_PART, encoding="utf-8")
    server = make_server()
    sent = []
    server.text_document_publish_diagnostics = sent.append
    analyse, started, release = server.ludus.analyse, threading.Event(), threading.Event()

    def first_held(path):
        result = analyse(path)
        if not started.is_set():
            started.set()
            release.wait(10)
        return result

    server.ludus.analyse = first_held

    async def open_the_part_meanwhile() -> None:
        loop = asyncio.get_running_loop()
        server.ludus.open(str(game), GAME_WITH_PART)
        first = server._refresh_now(game.as_uri())
        assert await loop.run_in_executor(None, started.wait, 10)
        server.ludus.open(str(cards), CARDS)
        second = server._refresh_now(cards.as_uri())
        if second is not first:             # an analysis of its own, which need not wait: let it end
            await second
        release.set()
        await asyncio.gather(first, second)

    asyncio.run(open_the_part_meanwhile())
    shown = [[d.message for d in p.diagnostics if d.severity == 1] for p in sent if p.uri == game.as_uri()]
    assert shown[-1] == [], shown
