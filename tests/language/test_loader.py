"""Files in, merged declarations out: include, extends, override, remove, cycles."""

from __future__ import annotations

from pathlib import Path

import pytest

from ludus.language import nodes as n
from ludus.language.loader import load_declarations


def write(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path / "main.ludus"


def names(items) -> list[str]:
    return [getattr(i, "name", type(i).__name__) for i in items]


def messages(loader) -> list[str]:
    return [d.message for d in loader.diagnostics]


def test_include_splices_declarations_in_place(tmp_path):
    main = write(tmp_path, {
        "main.ludus": 'value a = 1\ninclude "parts/more.ludus"\nvalue d = 4\n',
        "parts/more.ludus": 'value b = 2\ninclude "deeper.ludus"\n',
        "parts/deeper.ludus": "value c = 3\n",
    })
    items, loader = load_declarations(main)
    assert messages(loader) == []
    assert names(items) == ["a", "b", "c", "d"]
    assert len(loader.files) == 3
    # every declaration remembers the file it came from
    assert items[2].span.path.endswith("deeper.ludus")


def test_extends_then_override_replaces_in_place(tmp_path):
    main = write(tmp_path, {
        "base.ludus": "value rounds = 12\nvalue size = 3\n",
        "main.ludus": 'extends "base.ludus"\noverride value rounds = 8\nvalue extra = 1\n',
    })
    items, loader = load_declarations(main)
    assert messages(loader) == []
    assert names(items) == ["rounds", "size", "extra"]
    assert items[0] == n.ValueDecl("rounds", n.Number(8), True)


def test_remove_deletes_a_base_declaration(tmp_path):
    main = write(tmp_path, {
        "base.ludus": "action Slay:\n    pass\naction Move:\n    pass\ntoken Wood, Ore\n",
        "main.ludus": 'extends "base.ludus"\nremove action Slay\nremove token Ore\n',
    })
    items, loader = load_declarations(main)
    assert messages(loader) == []
    assert names(items) == ["Move", "TokenDecl"]


def test_override_and_remove_of_nothing_are_errors(tmp_path):
    main = write(tmp_path, {"main.ludus": "override value rounds = 8\nremove rule score\n"})
    items, loader = load_declarations(main)
    assert messages(loader) == ["'override' needs an earlier declaration of 'rounds' to replace",
                                "cannot remove rule 'score': it is not declared"]
    assert [(d.span.line, d.span.column) for d in loader.diagnostics] == [(1, 16), (2, 13)]


def test_a_duplicate_names_the_first_declaration(tmp_path):
    main = write(tmp_path, {
        "base.ludus": "value rounds = 12\n",
        "main.ludus": 'extends "base.ludus"\nvalue rounds = 8\nzone z\nzone z\n',
    })
    _items, loader = load_declarations(main)
    assert messages(loader) == ["'rounds' is already declared in base.ludus on line 1",
                                "'z' is already declared on line 3"]
    # the hint about 'override' only makes sense when replacing another file's declaration
    assert [d.hint for d in loader.diagnostics] == ["write 'override' before the declaration to replace it", None]


def test_singletons_replace_without_override(tmp_path):
    main = write(tmp_path, {
        "base.ludus": 'game "Base"\nplayers 2\n',
        "main.ludus": 'extends "base.ludus"\ngame "Variant"\n',
    })
    items, loader = load_declarations(main)
    assert messages(loader) == []
    assert items[0] == n.GameDecl("Variant")


def test_missing_include_is_reported_at_the_include(tmp_path):
    main = write(tmp_path, {"main.ludus": 'value a = 1\ninclude "nope.ludus"\n'})
    _items, loader = load_declarations(main)
    [d] = loader.diagnostics
    assert d.message == "cannot read 'nope.ludus': No such file or directory"
    assert (d.span.line, d.span.column) == (2, 9)


def test_include_cycles_are_reported_once_and_terminate(tmp_path):
    main = write(tmp_path, {
        "main.ludus": 'include "a.ludus"\n',
        "a.ludus": 'include "b.ludus"\nvalue a = 1\n',
        "b.ludus": 'include "main.ludus"\nvalue b = 1\n',
    })
    items, loader = load_declarations(main)
    assert messages(loader) == ["include cycle: 'main.ludus' ends up including itself"]
    assert loader.diagnostics[0].span.path.endswith("b.ludus")
    assert names(items) == ["b", "a"]


def test_a_file_including_itself(tmp_path):
    main = write(tmp_path, {"main.ludus": 'include "main.ludus"\n'})
    _items, loader = load_declarations(main)
    assert messages(loader) == ["include cycle: 'main.ludus' ends up including itself"]


def test_syntax_errors_in_several_files_are_all_reported(tmp_path):
    main = write(tmp_path, {
        "main.ludus": 'include "a.ludus"\ninclude "b.ludus"\n',
        "a.ludus": "value = 1\n",
        "b.ludus": "zone\n",
    })
    _items, loader = load_declarations(main)
    assert sorted(Path(d.span.path).name for d in loader.diagnostics) == ["a.ludus", "b.ludus"]


def test_removing_every_name_of_a_token_removes_its_declaration(tmp_path):
    # `token A, A` less A once stayed as a token declaration of no names, and as an `override`
    # included by another file it stopped the loader with an IndexError
    main = write(tmp_path, {
        "main.ludus": 'token A\ninclude "part.ludus"\nvalue v = 1\n',
        "part.ludus": "override token A, A\nremove token A\n",
    })
    items, loader = load_declarations(main)
    assert messages(loader) == []
    assert [(type(i).__name__, getattr(i, "names", None)) for i in items] == [("ValueDecl", None)]
    # the same part where nothing declares A: the override is the one error, as it would be
    # were the part's lines written in place of its include
    (tmp_path / "main.ludus").write_text('include "part.ludus"\nvalue v = 1\n', encoding="utf-8")
    items, loader = load_declarations(main)
    assert messages(loader) == ["'override' needs an earlier declaration of 'A' to replace"]
    assert [Path(d.span.path).name for d in loader.diagnostics] == ["part.ludus"]
    assert [type(i).__name__ for i in items] == ["ValueDecl"]


def test_an_included_part_overrides_and_removes_what_comes_before_it(tmp_path):
    # an include splices a file's declarations in place; a variant's changes kept in a part file
    # were each reported as "needs an earlier declaration", the part being merged on its own
    main = write(tmp_path, {
        "base.ludus": "value rounds = 12\nvalue size = 3\naction Slay:\n    pass\ntoken Wood, Ore\n",
        "main.ludus": 'extends "base.ludus"\ninclude "changes.ludus"\nvalue extra = 1\n',
        "changes.ludus": ("override value rounds = 8\nremove action Slay\nremove token Ore\n"
                          "override value size = 4\noverride value size = 5\nremove value extra_gone\n"
                          "value Slay_count = 0\n"),
    })
    items, loader = load_declarations(main)
    assert messages(loader) == ["cannot remove value 'extra_gone': it is not declared"]
    assert [Path(d.span.path).name for d in loader.diagnostics] == ["changes.ludus"]
    assert [(d.span.line, d.span.column) for d in loader.diagnostics] == [(6, 14)]
    values = {i.name: i.value for i in items if isinstance(i, n.ValueDecl)}
    assert values == {"rounds": n.Number(8), "size": n.Number(5), "Slay_count": n.Number(0), "extra": n.Number(1)}
    assert [i.names for i in items if isinstance(i, n.TokenDecl)] == [("Wood",)]
    assert not any(isinstance(i, n.ActionDecl) for i in items)
    assert not any(isinstance(i, n.RemoveDecl) for i in items)
    assert set(loader.removed) == {"Slay", "Ore"}


def test_a_part_removes_then_declares_again_and_overrides_twice(tmp_path):
    main = write(tmp_path, {
        "main.ludus": 'value target = 3\nvalue keep = 1\ninclude "part.ludus"\n',
        "part.ludus": ("remove value target\nvalue target = 7\noverride value target = 8\n"
                       "override value keep = 2\nremove value keep\nvalue keep = 9\n"),
    })
    items, loader = load_declarations(main)
    assert messages(loader) == []
    assert {i.name: i.value for i in items} == {"target": n.Number(8), "keep": n.Number(9)}


def test_overriding_one_token_of_a_declaration_keeps_the_others(tmp_path):
    # `override token Wood` once replaced all of `token Wood, Ore, Clay`: Ore and Clay were gone
    # without a word, a use of them was unknown, and `override token Clay` was an error
    main = write(tmp_path, {
        "base.ludus": "token Wood, Ore, Clay\ntoken Grain\ntoken Wool\nvalue v = 1\n",
        "main.ludus": 'extends "base.ludus"\noverride token Wood per seat\noverride token Clay per seat\n'
                      "override token Grain, Wool per seat\n",
    })
    items, loader = load_declarations(main)
    assert messages(loader) == []
    tokens = [(i.names, i.per, Path(i.span.path).name, i.span.line) for i in items if isinstance(i, n.TokenDecl)]
    assert tokens == [(("Ore",), None, "base.ludus", 1), (("Grain", "Wool"), "seat", "main.ludus", 4),
                      (("Wood",), "seat", "main.ludus", 2), (("Clay",), "seat", "main.ludus", 3)]


def test_a_use_after_a_parts_remove_is_an_unknown_name_where_it_is(tmp_path):
    # a variant's part file removes a value; the base before it still uses the value, the variant
    # after it uses it too. The base's use is the removal's doing, reported at the `remove`; the
    # variant's own use comes after it, and was once blamed on the base game as well
    import ludus

    write(tmp_path, {
        "base.ludus": 'game "B"\nplayers 2\nvalue target = 3\nvalue twice = target * 2\nflow:\n    end game\n',
        "part.ludus": "remove value target\n",
        "main.ludus": 'extends "base.ludus"\ninclude "part.ludus"\nvalue later = target + 1\n',
    })
    diags, _checked, _sources = ludus.analyse(tmp_path / "main.ludus")
    errors = [(Path(d.span.path).name, d.span.line, d.message) for d in diags if d.severity == "error"]
    assert errors == [
        ("main.ludus", 3, "unknown name 'target'"),
        ("part.ludus", 1, f"'remove value target' leaves it used in the base game, at {tmp_path / 'base.ludus'}:4:15"),
    ]


def test_the_collector_is_paused_while_a_game_loads_and_then_as_the_caller_left_it(tmp_path, monkeypatch):
    import gc

    import ludus
    from ludus import pipeline

    write(tmp_path, {"main.ludus": 'game "G"\nplayers 2\nflow:\n    end game\n', "bad.ludus": "value = \n"})
    during = []
    real_check = pipeline.check
    monkeypatch.setattr(pipeline, "check", lambda *a: during.append(gc.isenabled()) or real_check(*a))
    assert gc.isenabled()
    ludus.load(tmp_path / "main.ludus")
    assert during == [False] and gc.isenabled()
    with pytest.raises(ludus.LudusError):
        ludus.load(tmp_path / "bad.ludus")
    assert gc.isenabled()  # back on after a game that does not load
    gc.disable()
    try:
        ludus.analyse(tmp_path / "main.ludus")
        assert not gc.isenabled()  # a caller that turned it off keeps it off
    finally:
        gc.enable()


def test_an_include_of_a_file_named_apart_in_unicode_says_what_differs(tmp_path):
    # a file saved on a Mac may name 'é' as e and a combining accent: on Linux the include typed
    # with one 'é' missed it, the error escaped the name ('caf\xe9.ludus'), and the hint,
    # "did you mean 'café.ludus'?", named what looked like the very file written
    import unicodedata

    decomposed = unicodedata.normalize("NFD", "café.ludus")
    main = write(tmp_path, {decomposed: 'card "A"\n', "Board.ludus": 'card "B"\n', "main.ludus":
                            'game "G"\nplayers 2\ninclude "café.ludus"\ninclude "board.ludus"\ninclude "CAFÉ.ludus"\n'
                            'flow:\n    win P1\n'})
    _items, loader = load_declarations(main)
    found = [(d.message, d.hint) for d in loader.diagnostics]
    assert found == [
        ("cannot read 'café.ludus': No such file or directory",
         f"there is a file '{decomposed}' here, whose name looks the same but writes 'é' as U+0065 U+0301, "
         "where the include writes it as U+00E9: write the name as the file has it"),
        ("cannot read 'board.ludus': No such file or directory", "there is a file 'Board.ludus' here, whose name differs in case"),
        ("cannot read 'CAFÉ.ludus': No such file or directory",
         f"there is a file '{decomposed}' here, whose name differs in case, and in how Unicode writes its accented letters"),
    ]
