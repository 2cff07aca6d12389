"""editors/vscode: the TextMate grammar knows exactly the grammar's keywords, and the extension
manifest starts `ludus lsp` for .ludus files."""

from __future__ import annotations

import json
import re

from ludus.cli import main
from ludus.language.parser import keywords
from ludus.tools.lexers import keyword_functions
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


def test_a_built_in_function_spelled_as_a_keyword_is_a_call_before_a_bracket():
    grammar = load("syntaxes/ludus.tmLanguage.json")
    call = grammar["repository"]["keyword-call"]
    m = re.fullmatch(r"\\b\(\?:([a-z_|]+)\)\(\?=.*\)", call["match"])
    assert m and tuple(m.group(1).split("|")) == keyword_functions()
    # tried before the keywords, at the top level and inside a text's holes
    order = [p["include"] for p in grammar["patterns"]]
    assert order.index("#keyword-call") < order.index("#keywords")
    hole = [p["include"] for p in grammar["repository"]["string"]["patterns"][1]["patterns"]]
    assert hole.index("#keyword-call") < hole.index("#keywords")
    pattern = re.compile(call["match"])
    assert pattern.match("top(deck)") and pattern.match("any (x)") and pattern.match("card(\"Lamp\")")
    assert not pattern.match("top only") and not pattern.match("max 3") and not pattern.match("topmost(x)")


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
