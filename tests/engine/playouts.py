"""Seeded random playouts of every shipped game, reduced to digests: the behaviour the engine must keep.

    python -m tests.engine.playouts            # re-record tests/engine/playouts.json
    python -m tests.engine.playouts PATH ...   # re-record only these games, keep the rest

Each match is driven through the public API as a user's bot would: `legal_actions()`, then
`apply(label)` of a move picked by `random.Random(seed)`; every fifth decision is also undone and
applied again, so undo takes part. A match is reduced to two short sha256 digests: of its move
labels (and the error that stopped it, if one did) and of its final `to_json()` without the
game files' fingerprint, so that an edit which changes no move and no state (a comment, a
header's list of decisions) leaves the digests as they are.

Re-record only when a change is meant to change behaviour (new rules, a fixed bug), and say so in
the commit: the test exists so that speed work cannot change a single move or byte unnoticed.
Fast games play 200 seeds; the slower ones fewer (the `seeds` column of GAMES).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
RECORD = Path(__file__).with_name("playouts.json")
LIMIT = 3000  # decisions per match; every shipped game ends well before

GAMES = [  # (path, players, seeds)
    ("examples/connect-four.ludus", 2, 200),
    ("examples/market-town.ludus", 2, 200),
    ("examples/market-town.ludus", 4, 200),
    ("examples/love-letter.ludus", 2, 200),
    ("examples/love-letter.ludus", 4, 100),
    ("examples/cant-stop.ludus", 2, 200),
    ("examples/cant-stop.ludus", 4, 100),
    ("examples/for-sale.ludus", 3, 100),
    ("examples/for-sale.ludus", 6, 40),
    ("examples/no-thanks.ludus", 3, 100),
    ("examples/no-thanks.ludus", 7, 40),
    ("examples/sushi-go.ludus", 2, 100),
    ("examples/sushi-go.ludus", 5, 40),
    ("examples/hearts.ludus", 3, 40),
    ("examples/hearts.ludus", 4, 60),
    ("examples/coup.ludus", 2, 200),
    ("examples/coup.ludus", 6, 100),
    ("examples/skull.ludus", 3, 100),
    ("examples/skull.ludus", 6, 40),
    ("examples/hanabi.ludus", 2, 200),
    ("examples/hanabi.ludus", 5, 100),
    ("examples/lost-cities.ludus", 2, 100),
    ("examples/jaipur.ludus", 2, 100),
    ("examples/azul.ludus", 2, 100),
    ("examples/azul.ludus", 4, 40),
    ("examples/uprising-great-country.ludus", 2, 40),
    ("examples/uprising-great-country.ludus", 6, 10),
    ("games/uprising.ludus", 2, 200),
    ("games/uprising.ludus", 4, 40),
    ("games/votes-for-women/votes-for-women.ludus", 2, 80),
    ("games/stonewall-uprising/stonewall-uprising.ludus", 2, 200),
    ("games/stonewall-uprising/stonewall-uprising-solo.ludus", 2, 200),
    ("games/gateway-uprising/gateway-uprising.ludus", 2, 40),
    ("games/gateway-uprising/gateway-uprising.ludus", 4, 15),
    ("games/gateway-uprising/gateway-uprising-hidden-runestones.ludus", 2, 15),
    ("benchmarks/games/engine-floor.ludus", 2, 20),  # benchmarked: compare.py's GAMES
]


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def play(game, players: int, seed: int) -> str:
    """One seeded match: the digest of its moves, a space, the digest of its final to_json()."""
    *_, digest = steps(game, players, seed)
    return digest


def steps(game, players: int, seed: int):
    """`play` one move at a time: None after each move, then the match's digest."""
    from ludus.engine.runtime import RuleError

    rng = random.Random(seed)
    match = game.new_match(players, seed=seed)
    moves = []
    try:
        while not match.is_over and len(moves) < LIMIT:
            options = match.legal_actions()
            label = options[rng.randrange(len(options))]
            match.apply(label)
            if len(moves) % 5 == 4:
                assert match.undo() == label
                assert match.legal_actions() == options
                match.apply(label)
            moves.append(label)
            yield None
    except RuleError as exc:
        moves.append(f"error: {exc}")
    yield f"{_sha(chr(10).join(moves))} {_sha(final_state(match))}"


def final_state(match) -> str:
    """The match's `to_json()` without its `fingerprint`, the hash of the game files' text that
    any edit changes: what the rules did, not how their files are written."""
    saved = json.loads(match.to_json())
    del saved["fingerprint"]
    return json.dumps(saved)


def key(path: str, players: int) -> str:
    return f"{path} {players}"


def record(only: list[str] | None = None) -> dict:
    """The digests of every game in GAMES; with `only` (paths as GAMES writes them), those
    games' afresh and every other game's as recorded."""
    import ludus

    kept = json.loads(RECORD.read_text(encoding="utf-8")) if only else {}
    unknown = set(only or ()) - {path for path, _, _ in GAMES}
    if unknown:
        raise SystemExit(f"not in GAMES: {', '.join(sorted(unknown))}")
    out = {}
    for path, players, seeds in GAMES:
        if only and path not in only:
            out[key(path, players)] = kept[key(path, players)]
            continue
        game = ludus.load(ROOT / path)
        out[key(path, players)] = [play(game, players, seed) for seed in range(seeds)]
        print(f"{path} with {players}: {seeds} seeds", file=sys.stderr)
    return out


if __name__ == "__main__":
    rows = [f"{json.dumps(k)}: {json.dumps(v)}" for k, v in record(sys.argv[1:]).items()]
    RECORD.write_text("{\n" + ",\n".join(rows) + "\n}\n", encoding="utf-8")
    print(f"wrote {RECORD}", file=sys.stderr)
