"""`ludus fmt`: the house style, comments kept, idempotent, meaning kept, every shipped file formatted."""

from __future__ import annotations

import json
import random
import re
import shutil

import pytest
from click.testing import CliRunner

from ludus.cli import main
from ludus.language.discover import games_in
from ludus.language.loader import load_declarations
from ludus.language.source import LudusError
from ludus.pipeline import fingerprint, load
from ludus.tools import fmt as fmt_module
from ludus.tools.fmt import FormatError, format_text
from tests.helpers import EXAMPLES, GAMES, ROOT, no_crash, play_random

SHIPPED = sorted([*GAMES.rglob("*.ludus"), *EXAMPLES.rglob("*.ludus")])
SHIPPED_GAMES = sorted([*games_in(GAMES), *games_in(EXAMPLES)])


def split_comment(line: str) -> tuple[str, str]:
    """A line's code and its comment ('' if none), telling a '#' in a string from a comment's."""
    in_string = False
    for i, ch in enumerate(line):
        if in_string and ch == "\\":
            continue
        if ch == '"' and (i == 0 or line[i - 1] != "\\"):
            in_string = not in_string
        elif ch == "#" and not in_string:
            return line[:i], line[i:]
    return line, ""


def spoil(text: str) -> str:
    """The same program badly laid out: two-space indents, commas and '=' squeezed, blank lines doubled,
    trailing comments moved; strings and comments untouched."""
    out = []
    for line in text.splitlines():
        code, comment = split_comment(line)
        stripped = code.lstrip(" ")
        depth = (len(code) - len(stripped)) // 4
        parts = re.split(r'("(?:[^"\\\n{]|\\.|\{[^{}\n]*\}|\{)*")', stripped)
        squeezed = "".join(p if i % 2 else p.replace(", ", ",").replace(" = ", "=") for i, p in enumerate(parts))
        out.append("  " * depth + squeezed.rstrip() + (" " + comment if comment else ""))
        if not line.strip():
            out.append("")
    return "\n".join(out) + "\n"


def ids(paths):
    return [str(p.relative_to(ROOT)) for p in paths]


MESSY = '''\
# a header comment
game   "Messy"
players 2
seats Red,Blue


counter coins  per seat start 3 min 0   # money
value top=10
define richest(s)=coins of s>=top and not(coins of s<-1)
rule pay_out( s ):
  gain 2*( 1+1 ) coins for s
  if coins of s>top :   set coins of s to top-1
action Take:
   gain -1 +2 coins
flow:


  repeat 2 times:
        for each s in seats:
            pay_out(s)
            # a comment inside the loop
        offer Take to Red
'''

MESSY_FORMATTED = '''\
# a header comment
game "Messy"
players 2
seats Red, Blue

counter coins per seat start 3 min 0    # money
value top = 10
define richest(s) = coins of s >= top and not (coins of s < -1)

rule pay_out(s):
    gain 2 * (1 + 1) coins for s
    if coins of s > top: set coins of s to top - 1

action Take:
    gain -1 + 2 coins

flow:
    repeat 2 times:
        for each s in seats:
            pay_out(s)
            # a comment inside the loop
        offer Take to Red
'''


def test_a_messy_file_comes_out_in_the_house_style():
    assert format_text(MESSY) == MESSY_FORMATTED


def test_formatting_twice_changes_nothing_on_the_sample():
    assert format_text(MESSY_FORMATTED) == MESSY_FORMATTED


def test_the_sample_means_the_same_game_after_formatting(tmp_path):
    (tmp_path / "a.ludus").write_text(MESSY, encoding="utf-8")
    (tmp_path / "b.ludus").write_text(format_text(MESSY), encoding="utf-8")
    a, b = load(tmp_path / "a.ludus"), load(tmp_path / "b.ludus")
    assert _playouts(a) == _playouts(b)


def test_strings_and_their_holes_are_kept_byte_for_byte():
    text = 'game "G"\nplayers 1\nseats Red\nflow:\n    log "a  #not a comment  {1+1}  {if true then "x" else ""}"\n'
    out = format_text(text)
    assert '"a  #not a comment  {1+1}  {if true then "x" else ""}"' in out


def test_a_minus_sign_a_call_and_a_bracketed_property_keep_their_meaning():
    text = ('kind Thing:\n    power: number\n'
            'card "C" is Thing:\n    power (1 + 2)\n'
            'define f(x) = x - -1\n'
            'track t from -6 to 6 start 0\n')
    out = format_text(text)
    assert "    power (1 + 2)\n" in out  # not `power(1 + 2)`, which would read as a call
    assert "define f(x) = x - -1\n" in out
    assert "track t from -6 to 6 start 0\n" in out


def test_a_zone_family_and_its_members_come_out_in_the_house_style():
    text = ('value colours = ["red","blue"]\n'
            'zone   expedition  per seat   and colour\n'
            'zone discards per colour   top  only\n'
            'flow:\n    move expedition of P1   at "red" to discards of   "blue"\n')
    out = format_text(text)
    assert out == ('value colours = ["red", "blue"]\n'
                   'zone expedition per seat and colour\n'
                   'zone discards per colour top only\n\n'
                   'flow:\n    move expedition of P1 at "red" to discards of "blue"\n')
    assert format_text(out) == out


def test_a_members_key_in_a_force_order_line_keeps_its_dash_and_digits():
    # `dark-blue` and `2nd` lex as several tokens: spaced apart they would name no member
    text = ('value colours = ["dark-blue", "2nd"]\nzone discards per colour\nzone row per seat and colour\n'
            'test "t":\n    force order discards   dark-blue = "A"\n    force order row  2nd of P2 = "A"\n'
            '    force order discards dark - blue = "A"\n')
    out = format_text(text)
    assert out.splitlines()[-3:] == ['    force order discards dark-blue = "A"', '    force order row 2nd of P2 = "A"',
                                     '    force order discards dark - blue = "A"']
    assert format_text(out) == out


def test_brackets_spanning_lines_and_continued_lines_keep_their_breaks():
    text = ('define xs = [1,\n              2, # two\n              3]\n'
            'define y = 1 +\\\n   2\n')
    out = format_text(text)
    assert out == 'define xs = [1,\n              2,  # two\n              3]\ndefine y = 1 + \\\n    2\n'
    assert format_text(out) == out


def test_trailing_comments_line_up_in_a_run_and_keep_their_text():
    text = 'value a = 1 # one\nvalue bbbbbb = 2      #   two, spaced\nvalue c = 3\nvalue d = 4 # alone\n'
    out = format_text(text)
    assert out == ('value a = 1       # one\nvalue bbbbbb = 2  #   two, spaced\n'
                   'value c = 3\nvalue d = 4  # alone\n')


def test_a_far_comment_is_not_aligned_with_a_much_longer_line():
    long = "define a_long_name = [" + ", ".join(str(i) for i in range(20)) + "]"
    out = format_text(f"value a = 1  # short\n{long}  # long\n")
    assert out.splitlines()[0] == "value a = 1  # short"


def test_blank_lines_collapse_and_none_open_a_block():
    out = format_text('value a = 1\n\n\n\nvalue b = 2\nrule r:\n\n    pass\n\n\n')
    assert out == 'value a = 1\n\nvalue b = 2\n\nrule r:\n    pass\n'


def test_tabs_windows_line_ends_and_a_byte_order_mark_are_normalised():
    out = format_text('\ufeffrule r:\r\n\tif true:\r\n\t\tpass\r\n')
    assert out == 'rule r:\n    if true:\n        pass\n'
    # old Mac line ends, a lone \r, mixed in: the formatter once said formatting would break it
    assert format_text('rule r:\r\tif true:\r\n\t\tpass\r# a\x0cnote\n') == 'rule r:\n    if true:\n        pass\n\n# a\x0cnote\n'


def test_a_syntax_error_is_refused_with_its_place():
    with pytest.raises(LudusError) as info:
        format_text("value x =\n", "bad.ludus")
    d = info.value.diagnostics[0]
    assert (d.span.path, d.span.line, d.span.column) == ("bad.ludus", 1, 10)


def test_the_meaning_guard_refuses_a_broken_rewrite(monkeypatch):
    """If a spacing rule went wrong, the formatter must refuse, not write a different program."""
    monkeypatch.setattr(fmt_module, "_space", lambda prev, tok, *facts: "")
    with pytest.raises(FormatError, match="break the file"):
        # `countercoinsperseat` once read as `counter coinsperseat`; a keyword glued to a word is
        # now a syntax error, so the guard finds a broken file rather than a changed one
        format_text("counter coins per seat\n", "g.ludus")
    monkeypatch.setattr(fmt_module, "_space", lambda prev, tok, *facts: " $ ")
    with pytest.raises(FormatError, match="break the file"):
        format_text("value x = 1\n", "g.ludus")


def test_a_changed_meaning_is_refused(monkeypatch):
    real = fmt_module._join

    def swap(tokens, *args, **kwargs):
        return real([fmt_module.Tok(t.kind, "2" if t.text == "1" else t.text, t.line, t.column) for t in tokens],
                    *args, **kwargs)

    monkeypatch.setattr(fmt_module, "_join", swap)
    with pytest.raises(FormatError, match="change what the file means"):
        format_text("value x = 1\n", "g.ludus")


# ── every shipped file ──


@pytest.mark.parametrize("path", SHIPPED, ids=ids(SHIPPED))
def test_every_shipped_file_is_formatted_and_keeps_every_comment(path):
    text = path.read_text(encoding="utf-8")
    out = format_text(text, str(path))
    assert out == text, f"run `ludus fmt {path.relative_to(ROOT)}`"
    comments = [split_comment(line)[1] for line in text.splitlines()]
    assert [split_comment(line)[1] for line in out.splitlines() if split_comment(line)[1]] == [c for c in comments if c]


@pytest.mark.parametrize("path", SHIPPED, ids=ids(SHIPPED))
def test_formatting_a_shipped_file_in_another_style_gives_it_back(path):
    """Spoil the layout and format it back: the same lines, but for where trailing comments sit."""
    text = path.read_text(encoding="utf-8")
    spoiled = spoil(text)
    assert spoiled != text
    out = format_text(spoiled, str(path))
    assert format_text(out, str(path)) == out

    def shape(t):
        return [(code.rstrip(), comment) for code, comment in map(split_comment, t.splitlines())]

    assert shape(out) == shape(format_text(text, str(path)))


def _playouts(game, seeds=(1, 2), steps=300):
    outcomes = []
    for players in sorted({game.min_players, game.max_players}):
        for seed in seeds:
            match = game.new_match(players, seed=seed)
            play_random(match, random.Random(seed), limit=steps)
            data = json.loads(match.to_json())
            data.pop("fingerprint")
            # where a rule sits in its file is not what it means: `rule final_scoring, line 480`
            outcomes.append(re.sub(r"line \d+", "line N", json.dumps(data, sort_keys=True)))
    return outcomes


@pytest.mark.parametrize("path", SHIPPED_GAMES, ids=ids(SHIPPED_GAMES))
def test_a_formatted_game_is_the_same_game(path, tmp_path):
    """Spoil every file of the game, format it, and load it: the same declarations, the same matches."""
    original = tmp_path / "original"
    formatted = tmp_path / "formatted"
    shutil.copytree(ROOT, original, ignore=shutil.ignore_patterns(".*", "tests", "docs", "benchmarks", "ludus",
                                                                  "__pycache__", "*.egg-info"))
    shutil.copytree(original, formatted)
    for file in formatted.rglob("*.ludus"):
        file.write_text(format_text(spoil(file.read_text(encoding="utf-8")), str(file)), encoding="utf-8")
    rel = path.relative_to(ROOT)
    before, _ = load_declarations(original / rel)
    after, _ = load_declarations(formatted / rel)
    assert before == after
    assert _playouts(load(original / rel)) == _playouts(load(formatted / rel))


# ── the command ──


def test_fmt_rewrites_a_file_and_says_so(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(MESSY, encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", str(path)])
    assert result.exit_code == 0, result.output
    assert path.read_text(encoding="utf-8") == MESSY_FORMATTED
    assert "1 of 1 file reformatted" in result.output


def test_check_exits_1_and_changes_nothing(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(MESSY, encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", "--check", str(path)])
    assert result.exit_code == 1
    assert "would be reformatted" in result.output
    assert path.read_text(encoding="utf-8") == MESSY
    path.write_text(MESSY_FORMATTED, encoding="utf-8")
    assert CliRunner().invoke(main, ["fmt", "--check", str(path)]).exit_code == 0


def test_diff_shows_the_change_and_changes_nothing(tmp_path):
    path = tmp_path / "g.ludus"
    path.write_text(MESSY, encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", "--diff", str(path)])
    assert result.exit_code == 0
    assert "\n-value top=10\n" in result.output and "\n+value top = 10\n" in result.output
    assert path.read_text(encoding="utf-8") == MESSY


def test_a_file_with_a_syntax_error_is_left_as_it_is(tmp_path):
    bad = tmp_path / "bad.ludus"
    bad.write_text("value  x =\n", encoding="utf-8")
    good = tmp_path / "good.ludus"
    good.write_text("value  y = 1\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", str(bad), str(good)])
    assert result.exit_code == 1
    assert "bad.ludus:1:11: error: unexpected end of line" in result.output
    assert bad.read_text(encoding="utf-8") == "value  x =\n"
    assert good.read_text(encoding="utf-8") == "value y = 1\n"  # the others are still formatted
    assert no_crash(result)


@pytest.mark.parametrize("text", ['game "x"\nflow:\n    let a = (1 +\n', 'flow:\r\n    log "a {"\r\n'],
                         ids=["syntax", "text-hole"])
def test_a_refused_file_shows_its_line_and_caret_as_check_does(tmp_path, text):
    # fmt printed only "path:3:13: error: ..." and the hint, without the line and the caret
    # under the place that `ludus check` shows for the same file
    bad = tmp_path / "bad.ludus"
    bad.write_bytes(text.encode("utf-8"))
    formatted = CliRunner().invoke(main, ["fmt", str(bad)])
    checked = CliRunner().invoke(main, ["check", str(bad)])
    assert formatted.exit_code == checked.exit_code == 1
    located = checked.output.split(f"{bad}: 1 error")[0]
    assert "^" in located.splitlines()[2]
    assert formatted.output.startswith(located), formatted.output


def test_a_missing_file_and_an_empty_folder_are_clear_errors(tmp_path):
    result = CliRunner().invoke(main, ["fmt", str(tmp_path / "nope.ludus"), str(tmp_path)])
    assert result.exit_code == 1
    assert "cannot read" in result.output and "no .ludus files here" in result.output


def test_every_shipped_file_passes_fmt_check():
    result = CliRunner().invoke(main, ["fmt", "--check", str(GAMES), str(EXAMPLES)])
    assert result.exit_code == 0, result.output
    assert f"0 of {len(SHIPPED)} files would be reformatted" in result.output


def test_the_bad_programs_pass_fmt_check_but_those_with_syntax_errors():
    # the checker's bad programs are written in the house style too; a program whose point is a
    # syntax error cannot be formatted, and fmt leaves it as it is
    result = CliRunner().invoke(main, ["fmt", "--check", str(ROOT / "tests" / "programs")])
    assert re.search(r"^0 of \d+ files would be reformatted, \d+ not formatted$", result.output, re.M), result.output


def jiggle(text: str, rng: random.Random) -> str:
    """The same program with the spaces between its tokens changed at random: removed where
    no two words meet, doubled or tripled elsewhere, and put inside brackets and around dots."""
    out = []
    for line in text.splitlines():
        code, comment = split_comment(line)
        indent = code[: len(code) - len(code.lstrip(" "))]
        parts = re.split(r'("(?:[^"\\\n{]|\\.|\{[^{}\n]*\}|\{)*")', code[len(indent):])
        for i in range(0, len(parts), 2):
            pieces = re.findall(r"[A-Za-z0-9_]+|[^A-Za-z0-9_ ]+| +", parts[i])
            rebuilt = []
            for k, piece in enumerate(pieces):
                if piece.startswith(" "):
                    before = pieces[k - 1] if k else ""
                    after = pieces[k + 1] if k + 1 < len(pieces) else ""
                    glued = not (re.match(r"\w", before[-1:]) and re.match(r"\w", after[:1]))
                    rebuilt.append(rng.choice(["", " ", "   "] if glued else [" ", "  "]))
                else:
                    rebuilt.append(piece)
                    if not re.match(r"\w", piece) and rng.random() < 0.3:
                        rebuilt.append(" ")
            parts[i] = "".join(rebuilt)
        out.append(indent + "".join(parts).rstrip() + (" " * rng.randint(1, 6) + comment if comment else ""))
        # a blank line now and then, but never after a line a backslash continues: that line
        # would go on with the blank one, and end there
        if rng.random() < 0.05 and not code.rstrip().endswith("\\"):
            out.append("")
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("path", SHIPPED, ids=ids(SHIPPED))
def test_any_spacing_of_a_shipped_file_formats_to_the_same_lines(path):
    text = path.read_text(encoding="utf-8")
    want = [(code.rstrip(), comment) for code, comment in map(split_comment, text.splitlines()) if code.strip()]
    for seed in range(3):
        jiggled = jiggle(text, random.Random(seed))
        out = format_text(jiggled, str(path))
        assert format_text(out, str(path)) == out
        got = [(code.rstrip(), comment) for code, comment in map(split_comment, out.splitlines()) if code.strip()]
        assert got == want, seed


def test_a_closing_bracket_under_its_line_stays_there():
    text = "define xs = [\n    1,\n    2\n]\n"
    assert format_text(text) == text
    assert format_text("define xs = [\n  1,\n      2]\n") == "define xs = [\n    1,\n      2]\n"  # at least four in, else as written


def test_a_folder_is_formatted_whole_but_for_hidden_folders(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / ".hidden").mkdir()
    for place in ("a.ludus", "sub/b.ludus", ".hidden/c.ludus"):
        (tmp_path / place).write_text("value  x = 1\n", encoding="utf-8")
    (tmp_path / "notes.txt").write_text("value  x = 1\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert (tmp_path / "a.ludus").read_text() == (tmp_path / "sub" / "b.ludus").read_text() == "value x = 1\n"
    assert (tmp_path / ".hidden" / "c.ludus").read_text() == "value  x = 1\n"
    assert (tmp_path / "notes.txt").read_text() == "value  x = 1\n"


def test_a_linked_file_is_formatted_where_it_leads_and_stays_a_link(tmp_path):
    (tmp_path / "shared").mkdir()
    real = tmp_path / "shared" / "cards.ludus"
    real.write_text("value  x = 1\n", encoding="utf-8")
    (tmp_path / "game").mkdir()
    link = tmp_path / "game" / "cards.ludus"
    link.symlink_to(real)
    for target in (link, tmp_path / "game"):
        real.write_text("value  x = 1\n", encoding="utf-8")
        result = CliRunner().invoke(main, ["fmt", str(target)])
        assert result.exit_code == 0 and "1 of 1 file reformatted" in result.output, result.output
        assert link.is_symlink() and real.read_text(encoding="utf-8") == "value x = 1\n"
    assert sorted(p.name for p in (tmp_path / "shared").iterdir()) == ["cards.ludus"]


def test_a_text_hole_the_builder_refuses_is_refused_with_its_place(tmp_path):
    path = tmp_path / "hole.ludus"
    path.write_text('flow:\n    log  "{"\n', encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", str(path)])
    assert result.exit_code == 1
    assert "hole.ludus:2:11: error: '{' opens a hole that is never closed" in result.output
    assert path.read_text(encoding="utf-8") == 'flow:\n    log  "{"\n'


def test_a_file_nested_too_deeply_is_not_called_a_syntax_error(tmp_path):
    # the count after a refused parse said "syntax error" of an expression nested too deeply
    path = tmp_path / "deep.ludus"
    path.write_text("value x = " + "(" * 300 + "1" + ")" * 300 + "\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", str(path)])
    assert result.exit_code == 1
    assert "deep.ludus:1:" in result.output and "error: nested too deeply" in result.output
    assert f"{path}: not formatted: it has 1 error\n" in result.output and "syntax" not in result.output


@pytest.mark.parametrize("path", SHIPPED, ids=ids(SHIPPED))
def test_a_save_still_loads_after_formatting(path):
    """A saved match records the game's fingerprint; formatting a file (even from a spoiled
    layout) must not change it, or `ludus fmt` would make every save unloadable."""
    text = path.read_text(encoding="utf-8")
    key = str(path)
    assert fingerprint({key: format_text(spoil(text), key)}) == fingerprint({key: text})


def test_a_read_only_file_is_left_as_it_is(tmp_path):
    # the new text is renamed over the old file, which the folder's permissions allow: a file
    # marked read-only was rewritten anyway
    locked = tmp_path / "locked.ludus"
    locked.write_text("value  x = 1\n", encoding="utf-8")
    locked.chmod(0o444)
    other = tmp_path / "other.ludus"
    other.write_text("value  y = 1\n", encoding="utf-8")
    result = CliRunner().invoke(main, ["fmt", str(tmp_path)])
    assert result.exit_code == 1
    assert f"cannot write '{locked}': it is read-only" in result.output
    assert "1 of 2 files reformatted, 1 not formatted" in result.output
    assert locked.read_text(encoding="utf-8") == "value  x = 1\n"
    assert other.read_text(encoding="utf-8") == "value y = 1\n"
    assert CliRunner().invoke(main, ["fmt", "--check", str(locked)]).exit_code == 1  # checking writes nothing
