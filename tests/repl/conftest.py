"""Fixtures the REPL's tests share. None is autouse: a test file names the ones it wants
(`pytestmark = pytest.mark.usefixtures(...)`), since the files differ in which of the user's
files they keep the REPL from, and how."""

from __future__ import annotations

import pytest

from tests import helpers


@pytest.fixture
def no_home_files(monkeypatch):
    """No history file and no kept sessions at all: both turned off."""
    helpers.no_home_files(monkeypatch)


@pytest.fixture
def history_in_tmp(monkeypatch, tmp_path):
    """The history file in the test's own folder rather than the user's home."""
    monkeypatch.setenv("LUDUS_HISTORY", str(tmp_path / "history"))


@pytest.fixture
def sessions_in_tmp(monkeypatch, tmp_path):
    """Kept sessions in the test's own folder rather than the user's home."""
    monkeypatch.setenv("LUDUS_SESSIONS", str(tmp_path / "sessions"))
