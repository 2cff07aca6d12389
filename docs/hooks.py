"""mkdocs hooks: a page for each shipped game, written from the game file's header comment.

A game file starts with a comment saying what the game is, every decision taken where its
rulebook leaves a point open, and every omission with its reason. The page shows that header,
what the file declares (title, players, seats, the files it includes) and the file itself,
highlighted by ludus's own lexer. Nothing is copied by hand, so a page cannot drift from its game.
"""

from __future__ import annotations

import re
from pathlib import Path

from mkdocs.structure.files import File

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("games", "examples")
HEADER_LINE = re.compile(r"^#(?: (.*))?$")


def game_files() -> list[Path]:
    """Every shipped game and variant (not its parts), in the order the README lists them."""
    from ludus.language.discover import games_in

    found = []
    for folder in FOLDERS:
        found.extend(p for p in games_in(ROOT / folder) if not p.name.endswith(".tests.ludus"))
    return found


LIST_ITEM = re.compile(r"^ {0,3}(?:\d+\.|[-*]) ")


def header(text: str) -> str:
    """The comment lines at the top of a file, without their '# ', as Markdown: a list that
    follows a line of text directly gets the blank line Markdown needs to see a list."""
    lines: list[str] = []
    in_list = False
    for line in text.splitlines():
        m = HEADER_LINE.match(line)
        if not m:
            break
        body = m.group(1) or ""
        if LIST_ITEM.match(body):
            if not in_list and lines and lines[-1].strip():
                lines.append("")
            in_list = True
        elif not body.strip():
            in_list = False
        lines.append(body)
    return "\n".join(lines).strip("\n")


def slug(path: Path) -> str:
    return path.stem


def title_of(path: Path, text: str) -> str:
    m = re.search(r'^game\s+"([^"]*)"', text, re.M)
    if m:
        return m.group(1)
    first = header(text).splitlines()[:1]
    return first[0].rstrip(".").split(":")[0] if first else path.stem


def page(path: Path) -> str:
    text = path.read_text(encoding="utf-8")
    rel = path.relative_to(ROOT).as_posix()
    about = header(text)
    lines = [f"# {title_of(path, text)}", ""]
    facts = [("file", f"`{rel}`")]
    if m := re.search(r"^players\s+(\d+)(?:\s+to\s+(\d+))?", text, re.M):
        facts.append(("players", m.group(1) + (f" to {m.group(2)}" if m.group(2) else "")))
    for word in ("seats", "sides"):
        if m := re.search(rf"^{word}\s+(.+)$", text, re.M):
            facts.append((word, m.group(1).split("#", 1)[0].strip()))
    if m := re.search(r'^extends\s+"([^"]+)"', text, re.M):
        facts.append(("a variant of", f"`{m.group(1)}`"))
    parts = re.findall(r'^include\s+"([^"]+)"', text, re.M)
    if parts:
        facts.append(("includes", ", ".join(f"`{p}`" for p in parts)))
    lines += ["| | |", "| --- | --- |", *[f"| {k} | {v} |" for k, v in facts], ""]
    lines += [f"`ludus play {rel}` plays it; `ludus check {rel}` checks it.", ""]
    if about:
        lines += ["## What it is, and the decisions taken", "",
                  "From the file's header, as the designer wrote it:", "", about, ""]
    lines += ["## The file", "", f'??? note "{rel}"', "", "    ```ludus",
              *[("    " + line).rstrip() for line in text.splitlines()], "    ```", ""]
    return "\n".join(lines)


def on_config(config, **kwargs):
    games = [{title_of(p, p.read_text(encoding="utf-8")): f"games/{slug(p)}.md"} for p in game_files()]
    for entry in config["nav"]:
        if isinstance(entry, dict) and "Games" in entry:
            entry["Games"] = games
    return config


def on_files(files, config, **kwargs):
    for path in game_files():
        files.append(File.generated(config, f"games/{slug(path)}.md", content=page(path)))
    return files
