"""Parsing is safe from several threads at once (a Dask worker runs matches on threads)."""

from __future__ import annotations

import threading

from ludus.language.parser import parse
from tests.helpers import EXAMPLES


def test_many_threads_parse_the_same_file_at_once_without_errors():
    text = (EXAMPLES / "market-town.ludus").read_text(encoding="utf-8")
    expected = parse(text, "market-town.ludus")
    failures: list[BaseException] = []
    results = []
    start = threading.Barrier(6)

    def work():
        try:
            start.wait()
            for _ in range(3):
                results.append(parse(text, "market-town.ludus"))
        except BaseException as exc:  # noqa: BLE001 - collected and asserted below
            failures.append(exc)

    threads = [threading.Thread(target=work) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not failures, failures[:1]
    assert len(results) == 18 and all(r == expected for r in results)
