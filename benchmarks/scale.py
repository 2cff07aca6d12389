"""How checking a game grows with its size: generated games of n declarations, n doubling.

    python benchmarks/scale.py [--shape counters ...] [--sizes 5000 10000 20000] [--base REV]

Each shape is a game of n declarations of one sort (n counters, n values, n cards...), written
to a temporary folder; each size is checked in a fresh Python process, timed inside it: ludus
imported, the files read, merged and checked and every diagnostic rendered, as `ludus check`
does (`check`); then `ludus.load` of the same game in the same process (`load`: the file built
already, so this is mostly checking again and compiling). The `x` columns are the ratio to the
size before: about 2 where the work is linear in the declarations, about 4 where it is quadratic.

With `--base REV`, that commit is exported as compare.py does and measured in the same run, each
size base then head, so a busy machine slows both alike. A run that takes longer than
`--timeout` seconds is cut short and shown as `>` that many seconds.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

HEAD = 'game "Scale"\nplayers 2\n'
FLOW = 'flow:\n    log "x"\n    end game\n'
SHAPES = {
    "counters": lambda n: "".join(f"counter c{i}\n" for i in range(n)),
    "values": lambda n: "".join(f"value v{i} = {i}\n" for i in range(n)),
    "cards": lambda n: "kind Good:\n    cost: number\n" + "".join(f'card "C{i}" is Good:\n    cost {i}\n' for i in range(n)),
    "actions": lambda n: "counter n\n" + "".join(f"action A{i}:\n    gain 1 n\n" for i in range(n)),
    "defines": lambda n: "".join(f"define d{i}(x) = x + {i}\n" for i in range(n)),
    "zones": lambda n: "".join(f"zone z{i}\n" for i in range(n)),
    "kinds": lambda n: "".join(f"kind K{i}:\n    f: number\n" for i in range(n)),
}

RUN = """
import sys, time
t = time.perf_counter()
from ludus.pipeline import analyse, load
from ludus.language.source import render_all
diags, checked, sources = analyse(sys.argv[1])
render_all(diags, sources)
t1 = time.perf_counter()
load(sys.argv[1])
print(t1 - t, time.perf_counter() - t1)
"""


def measure(tree: Path, game: Path, timeout: float) -> tuple[float, float] | None:
    try:
        done = subprocess.run([sys.executable, "-c", RUN, str(game)], cwd=game.parent, capture_output=True,
                              text=True, timeout=timeout, env={**os.environ, "PYTHONPATH": str(tree)})
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        sys.exit(f"{game.name} in {tree}: {done.stderr.strip().splitlines()[-1]}")
    check, load = done.stdout.split()
    return float(check), float(load)


def cell(value: float | None, before: float | None, timeout: float) -> str:
    if value is None:
        return f"{'>' + format(timeout, '.0f'):>8}s        "
    ratio = f"x{value / before:.1f}" if before else ""
    return f"{value:8.2f}s {ratio:>6} "


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--shape", nargs="+", choices=sorted(SHAPES), default=["counters", "values", "cards"])
    parser.add_argument("--sizes", nargs="+", type=int, default=[5000, 10000, 20000])
    parser.add_argument("--base", help="a commit to measure beside this checkout")
    parser.add_argument("--timeout", type=float, default=120.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        trees = [("head", ROOT)]
        if args.base:
            from compare import export

            trees.insert(0, (args.base, export(args.base, Path(tmp))))
        print(f"{'n':>6} {'shape':<11} {'tree':<10} {'check':>9} {'':>6} {'load':>9}")
        for shape in args.shape:
            before: dict[str, tuple] = {}
            for n in args.sizes:
                game = Path(tmp) / f"{shape}{n}.ludus"
                game.write_text(HEAD + SHAPES[shape](n) + FLOW, encoding="utf-8")
                for name, tree in trees:
                    got = measure(tree, game, args.timeout)
                    check, load = got if got else (None, None)
                    was = before.get(name, (None, None))
                    print(f"{n:>6} {shape:<11} {name[:10]:<10} {cell(check, was[0], args.timeout)}"
                          f"{cell(load, was[1], args.timeout)}", flush=True)
                    before[name] = (check, load)


if __name__ == "__main__":
    main()
