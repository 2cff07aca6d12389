"""Bad programs with their expected diagnostics written inline; one harness runs them all.

See tests/programs/README.md for the convention. Each program is a `.ludus` file, or a folder
whose `main.ludus` is checked (its other files are includes and bases). The diagnostics that
`ludus.analyse` returns must equal the expectations exactly: nothing missing, nothing extra.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import ludus
from ludus.language.source import render

PROGRAMS = Path(__file__).resolve().parent.parent / "programs"

# `# error: message`, `# warning@13: message`, `# hint: did you mean 'x'?` (for the expectation before it)
MARK = re.compile(r"#\s*(error|warning|hint)(?:@(\d+))?:\s*")


def programs() -> list[Path]:
    found = sorted(PROGRAMS.glob("*.ludus")) + sorted(p for p in PROGRAMS.iterdir() if (p / "main.ludus").is_file())
    return found


def parse_expectations(path: Path) -> list[dict]:
    """Every expectation of one file: line, severity, message, and the column and hint if given."""
    out: list[dict] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        marks = list(MARK.finditer(line))
        for i, m in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(line)
            text = line[m.end():end].rstrip()
            kind, column = m.group(1), m.group(2)
            if kind == "hint":
                assert out and out[-1]["line"] == number, f"{path.name}:{number}: a hint follows its error on the same line"
                out[-1]["hint"] = text
                continue
            out.append({"path": path.resolve(), "line": number, "severity": kind, "message": text,
                        "column": int(column) if column else None, "hint": None})
    return out


def expectations_of(program: Path) -> list[dict]:
    files = sorted(program.rglob("*.ludus")) if program.is_dir() else [program]
    return [e for f in files for e in parse_expectations(f)]


def _abs(path: str) -> Path:
    return Path(path).resolve()


@pytest.mark.parametrize("program", programs(), ids=lambda p: p.name)
def test_program(program: Path):
    main = program / "main.ludus" if program.is_dir() else program
    expected = expectations_of(program)
    assert expected, f"{program.name} states no expectations"
    diags, _checked, sources = ludus.analyse(main)

    got = {(_abs(d.span.path), d.span.line, d.severity, d.message) for d in diags}
    want = {(e["path"], e["line"], e["severity"], e["message"]) for e in expected}

    def show(items):
        return "\n".join(f"  {p.name}:{line}: {sev}: {msg}" for p, line, sev, msg in sorted(items))

    assert got == want, f"missing:\n{show(want - got)}\nunexpected:\n{show(got - want)}"
    assert len(diags) == len(got), "a diagnostic is reported twice"

    by_place = {(_abs(d.span.path), d.span.line, d.severity, d.message): d for d in diags}
    for e in expected:
        d = by_place[(e["path"], e["line"], e["severity"], e["message"])]
        if e["column"] is not None:
            assert d.span.column == e["column"], f"{e['message']}: column {d.span.column}, expected {e['column']}"
        if e["hint"] is not None:
            assert d.hint == e["hint"], f"{e['message']}: hint {d.hint!r}, expected {e['hint']!r}"

    for d in diags:
        text = render(d, sources)
        lines = text.splitlines()
        assert lines[0] == f"{d.span}: {d.severity}: {d.message}"
        assert len(lines) >= 3 and set(lines[2].strip()) == {"^"}, f"no caret line:\n{text}"
        assert "Traceback" not in text


def test_programs_are_many_and_varied():
    found = programs()
    assert len(found) >= 40
    assert any(p.is_dir() for p in found)


def test_diagnostics_are_sorted_by_place():
    # a program with several errors: analyse returns them in source order
    for program in programs():
        main = program / "main.ludus" if program.is_dir() else program
        diags, _c, _s = ludus.analyse(main)
        keys = [d.sort_key for d in diags]
        assert keys == sorted(keys), program.name
