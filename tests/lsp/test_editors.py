"""editors/vscode: the TextMate grammar knows exactly the grammar's keywords, and the extension
manifest starts `ludus lsp` for .ludus files."""

from __future__ import annotations

import json
import re

from ludus.cli import main
from ludus.language.parser import keywords
from tests.helpers import ROOT

VSCODE = ROOT / "editors" / "vscode"


def load(name: str) -> dict:
    return json.loads((VSCODE / name).read_text(encoding="utf-8"))


def grammar_keywords(grammar: dict) -> list[str]:
    out = []
    for pattern in grammar["repository"]["keywords"]["patterns"]:
        m = re.fullmatch(r"\\b\(\?:([a-z_|]+)\)\\b", pattern["match"])
        assert m, pattern["match"]
        out.extend(m.group(1).split("|"))
    return out


def test_the_textmate_grammar_has_every_keyword_of_the_grammar_once():
    words = grammar_keywords(load("syntaxes/ludus.tmLanguage.json"))
    assert len(words) == len(set(words))
    assert set(words) == set(keywords()), (
        "grammars/ludus.lark and editors/vscode/syntaxes/ludus.tmLanguage.json differ: "
        f"missing {sorted(set(keywords()) - set(words))}, extra {sorted(set(words) - set(keywords()))}")


def test_every_pattern_compiles_and_highlights_what_it_should():
    grammar = load("syntaxes/ludus.tmLanguage.json")
    assert grammar["scopeName"] == "source.ludus"
    scopes = {}
    for pattern in grammar["repository"]["keywords"]["patterns"]:
        scopes[pattern["name"]] = re.compile(pattern["match"])
    assert scopes["keyword.other.statement.ludus"].search("    gain 2 coins")
    assert scopes["storage.type.declaration.ludus"].search('card "Lamp":')
    assert scopes["keyword.control.ludus"].search("    for each s in seats:")
    assert not scopes["keyword.other.statement.ludus"].search("    regain_x 2")     # whole words only
    for entry in grammar["repository"].values():
        for key in ("match", "begin", "end"):
            if key in entry:
                re.compile(entry[key])
    assert re.compile(grammar["repository"]["comment"]["match"]).search("# a comment")
    replay = load("syntaxes/ludus-replay.tmLanguage.json")
    assert replay["scopeName"] == "source.ludus-replay"


def test_the_manifest_runs_ludus_lsp_for_ludus_files():
    manifest = load("package.json")
    languages = {lang["id"]: lang["extensions"] for lang in manifest["contributes"]["languages"]}
    assert languages == {"ludus": [".ludus"], "ludus-replay": [".replay"]}
    for g in manifest["contributes"]["grammars"]:
        assert (VSCODE / g["path"]).is_file()
    assert manifest["activationEvents"] == ["onLanguage:ludus"]
    assert (VSCODE / manifest["main"]).is_file()
    assert manifest["contributes"]["configuration"]["properties"]["ludus.command"]["default"] == ["ludus", "lsp"]
    assert "lsp" in main.commands                                   # the command the manifest starts exists
    extension = (VSCODE / manifest["main"]).read_text(encoding="utf-8")
    assert '"ludus", "lsp"' in extension and 'language: "ludus"' in extension
    load("language-configuration.json")
