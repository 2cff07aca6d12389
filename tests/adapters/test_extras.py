"""The adapters' libraries stay optional: installed by extras, imported only when used."""

from __future__ import annotations

import subprocess
import sys
import tomllib

from tests.helpers import ROOT


def test_importing_ludus_and_the_adapters_imports_no_learning_library():
    code = ("import sys, ludus, ludus.cli, ludus.adapters.openspiel, ludus.adapters.pettingzoo\n"
            "print(sorted(m for m in ('pyspiel', 'open_spiel', 'pettingzoo', 'gymnasium', 'numpy') if m in sys.modules))")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[]"


def test_the_extras_name_the_libraries_and_dev_installs_them():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    assert any(d.startswith("open_spiel") for d in extras["openspiel"])
    assert {d.split(">")[0] for d in extras["pettingzoo"]} >= {"pettingzoo", "gymnasium"}
    dev_extras = {x.strip() for d in extras["dev"] if d.startswith("ludus[") for x in d[6:-1].split(",")}
    assert {"openspiel", "pettingzoo"} <= dev_extras
    core = " ".join(project["dependencies"])
    assert "spiel" not in core and "pettingzoo" not in core and "gymnasium" not in core
