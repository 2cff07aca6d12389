"""Runs of instructions that cannot wait, compiled to one Python function each.

vm.run executes a block one instruction at a time: fetch, dispatch on the opcode, call. Most of
a block never waits for anyone: a loop over the seats that counts their followers, an `if` that
moves a card, a rule that pays and draws. Such a run of statements becomes here one generated
function, with the loops and branches written as Python `while` and `if`, which vm.run calls
through a FUSED instruction put at the run's first instruction in `Code.fast` (`Code.ops` stay
as they are, for every other reader).

The function does what the instructions it replaces do, in the same order and on the same plain
data: loop positions stay in the frame's env as `[items, next index]`, scopes are opened and
closed in `state["scopes"]`, steps are counted for the step budget. So it can stop after any
statement and leave the frame exactly as the VM would have left it there, and the VM goes on from
that instruction. It stops:
- after a statement that fired a trigger or changed what 'at any time' reads (the VM runs those
  next, as it does after any statement);
- at a call of a rule or an effect it cannot run itself (it pushes the frame first, as CALL and
  RESOLVE do) and where a called rule stopped;
- where the game ended (`win`, `lose`, `end game`), with the frame at that instruction.
- at a decision or a die that waits for an answer, with the frame at that instruction, as the VM
  leaves it (the match is saved, copied or undone there like any other).
A rule whose whole body is one such run, and that calls no rule that calls it back, is called
directly (its frame pushed and popped as CALL and RET would); so is a card's effect.

Where the VM comes back to a frame (after an answer, a die, a rule's return), a **continuation**
takes over: a region from that instruction on, through the loops around it (the rest of this
turn of a loop, then its next turns, then what follows the loop). So a flow runs from one
decision to the next in generated code, and the VM only dispatches between frames. To keep the
code a block's size: the rest of a turn ends by calling the continuation from its loop's head
(one a loop, holding the loop's whole body once more), which goes outwards only, so the calls
are at most as deep as the loops; and a continuation stops, handing the frame to the VM, where
the next resume point's own continuation starts.

Only the step budget's error may name another line of the same loop: the budget is checked at
each loop's jump back rather than at every instruction.
"""

from __future__ import annotations

from ..engine import ops as O
from ..engine.vm import _FAILURES, _draw, _ended, _finish, _located, _reason, _roll, _scope, _unscope, endless, no_seat

# instructions a region runs itself; CALL and RESOLVE too, when the rule or effect can be called.
# A decision (DECIDE, and ROLL when chance is asked by hand) is listed here and, when it waits,
# left with the frame at its instruction, as the VM leaves it.
_LEAVES = {O.EXEC, O.DRAW, O.SHUFFLE, O.WIN, O.LOSE, O.END, O.CALL, O.RESOLVE, O.DECIDE, O.ROLL}
# the instructions after which the VM may come back to a frame: an answer, a die, a return
_RESUMES = {O.DECIDE, O.ROLL, O.CALL, O.RESOLVE}


_MAX_DIRECT = 60  # frames on the stack past which an effect is left to the VM (see `enter`)
_MAX_INDENT, _MAX_LOOPS = 80, 15  # the deepest function kept (see `_compilable`)


class _NotHere(Exception):
    """A part of a block that no region can hold."""


def fuse(game, pygen):
    """Regions for every block of `game`, written into `pygen` (the game's generated module,
    compiled and cached with its expressions); call `install` on the result once `pygen` is
    finished, to give the blocks their `fast` instructions."""
    gen = _Gen(game, pygen)
    # blocks whose whole body is one region: rules, effects, actions and triggers, called
    # directly. A rule qualifies once every rule it calls does, so a rule that calls itself,
    # even through others, never does.
    while True:
        grown = False
        for cid, code in gen.blocks:
            if cid not in gen.callable and gen.whole(code):
                gen.callable[cid] = len(code.ops) - 1
                grown = True
        if not grown:
            break
    for cid, code in gen.blocks:
        gen.block(cid, code)
    return gen


class _Gen:
    def __init__(self, game, pygen) -> None:
        self.game = game
        self.blocks = sorted(game.codes.items())
        self.pygen = pygen
        self.fast: dict = {}
        self.callable: dict = {}  # id of a block called directly -> index of its RET
        self.entries: dict = {}  # code id -> its whole-body function, once compiled
        self.entry_names: dict = {}
        self.consts: dict = {}  # id(object) -> its name in the namespace
        self.ns = pygen.ns  # the names below start with _rg_, which pysource's never do
        self.ns.update({
            "_rg_endless": endless, "_rg_FAILURES": _FAILURES, "_rg_located": _located,
            "_rg_scope": _scope, "_rg_unscope": _unscope, "_rg_finish": _finish, "_rg_no_seat": no_seat,
            "_rg_draw": _draw, "_rg_roll": _roll, "_rg_entries": self.entries, "_rg_defs": game.defs,
            "_rg_watch": game.anytime_watch, "_rg_ret": self.callable,
        })
        self.count = 0
        self.entered = False  # whether `_rg_enter` is written yet
        # what a `break` is written as: None, a Python `break`; else the line that leaves a
        # turn a continuation resumed (see `rest_of`)
        self.breaks: list = [None]
        self.continuations: dict = {}  # (code id, instruction) -> its continuation's name, or None
        self.resumes: dict = {}  # code id -> its resume points
        # after a statement: does the VM have work first (triggers, 'at any time')?
        anytime = bool(game.anytime) or bool(game.becomes)
        if anytime:
            self.check = "rt.events or (rt.changed and (_rg_watch is None or not _rg_watch.isdisjoint(rt.changed)))"
        elif game.watched:
            self.check = "rt.events"
        else:
            self.check = None
        # the labels whose scopes put a var back to its start as they close
        self.resetting = {spec.resets for spec in game.vars.values() if spec.resets}

    def const(self, obj) -> str:
        name = self.consts.get(id(obj))
        if name is None:
            name = self.consts[id(obj)] = f"_rg_k{len(self.consts)}"
            self.ns[name] = obj
        return name

    # ── which parts can be a region ──

    def items(self, code, a: int, b: int) -> list:
        """The statements of the sequence [a, b): (start, end) of each."""
        out = []
        k = a
        while k < b:
            shape = code.shapes.get(k)
            end = k + 1 if shape is None else shape[1]
            out.append((k, end))
            k = end
        return out

    def fits(self, code, a: int, b: int, in_loop: bool = False) -> bool:
        """Whether the statement [a, b) can be part of a region (`in_loop`: inside a loop of the
        same region, where a `break` may be)."""
        shape = code.shapes.get(a)
        op = code.ops[a]
        if shape is None:
            if b != a + 1 or op[0] not in _LEAVES:
                return False
            if op[0] == O.CALL:
                return op[1] in self.callable
            return True
        kind = shape[0]
        if kind == "break":
            return in_loop and all(code.ops[k][0] == O.UNSCOPE for k in range(a, b - 1))
        if kind == "if":
            _end, branches = shape[1], shape[2]
            parts = [(jf + 1, je) for jf, je in branches] + [(branches[-1][1] + 1, b)]
            return all(self.seq_fits(code, x, y, in_loop) for x, y in parts)
        if kind == "scope":
            return self.seq_fits(code, a + 1, b - 1, in_loop)
        if kind == "loop":
            _end, top, _scope_at, body_at, body_end, _back, _label_of = shape[1:]
            if code.ops[top][0] not in (O.NEXT, O.JUMPF) or (top != a and code.ops[a][0] != O.ITER):
                return False
            return self.seq_fits(code, body_at, body_end, True)
        return False

    def seq_fits(self, code, a: int, b: int, in_loop: bool = False) -> bool:
        return all(self.fits(code, x, y, in_loop) for x, y in self.items(code, a, b))

    def whole(self, code) -> bool:
        """Whether everything but the closing RET is one region."""
        last = len(code.ops) - 1
        return last > 0 and code.ops[last][0] == O.RET and self.seq_fits(code, 0, last)

    # ── regions of one block ──

    def block(self, cid: str, code) -> None:
        fast = list(code.ops)
        name = self.function(cid, code, 0, len(code.ops) - 1) if cid in self.callable else None
        if name is not None:
            self.entry_names[cid] = name
            fast[0] = (O.FUSED, name)
        else:
            self.regions(cid, code, 0, len(code.ops), fast)
        for c in self.resume_points(cid, code):
            name = self.continuation(cid, code, c)
            if name is not None:
                fast[c] = (O.FUSED, name)
        if any(op[0] == O.FUSED for op in fast):
            self.fast[cid] = fast

    def continuation(self, cid: str, code, c: int) -> str | None:
        """The name of the continuation of block `cid` from instruction `c`, written once."""
        key = (cid, c)
        if key not in self.continuations:
            self.continuations[key] = None  # while it is written: a loop's calls go outwards only
            breaks, self.breaks = self.breaks, [None]
            self.continuations[key] = self.function(cid, code, 0, len(code.ops) - 1, resume_at=c)
            self.breaks = breaks
        return self.continuations[key]

    def resume_points(self, cid: str, code) -> tuple[int, ...]:
        """Where the VM comes back to block `cid`, in order: after a decision or a die (once
        answered), a rule's call or an effect (once it returns). Each gets a continuation: a
        region from there to the end of the block, through the loops around it (see `rest`)."""
        points = self.resumes.get(cid)
        if points is None:
            last = len(code.ops) - 1
            points = () if last <= 0 or code.ops[last][0] != O.RET else tuple(
                k + 1 for k, op in enumerate(code.ops[:last - 1]) if op[0] in _RESUMES)
            self.resumes[cid] = points
        return points

    def regions(self, cid, code, a: int, b: int, fast: list) -> None:
        """Regions for the runs of the sequence [a, b) that fit, and within the parts that do not."""
        run: list = []

        def close():
            if run and self.worth(code, run[0][0], run[-1][1]):
                name = self.function(cid, code, run[0][0], run[-1][1])
                if name is not None:
                    fast[run[0][0]] = (O.FUSED, name)
                else:  # too deep for one function: regions inside its statements instead
                    for x, y in run:
                        self.within(cid, code, x, y, fast)
            run.clear()

        for x, y in self.items(code, a, b):
            if self.fits(code, x, y):
                run.append((x, y))
                continue
            close()
            self.within(cid, code, x, y, fast)
        close()

    def within(self, cid, code, x: int, y: int, fast: list) -> None:
        """Regions for the parts of the statement [x, y) that is not one itself."""
        shape = code.shapes.get(x)
        if shape is None or shape[0] == "break":
            return
        if shape[0] == "if":
            branches = shape[2]
            for jf, je in branches:
                self.regions(cid, code, jf + 1, je, fast)
            self.regions(cid, code, branches[-1][1] + 1, y, fast)
        elif shape[0] == "scope":
            self.regions(cid, code, x + 1, y - 1, fast)
        elif shape[0] == "loop":
            self.regions(cid, code, shape[4], shape[5], fast)

    def worth(self, code, a: int, b: int) -> bool:
        """A region of one plain statement would only add a call."""
        return b - a > 1 or code.ops[a][0] in (O.CALL, O.RESOLVE)

    # ── source ──

    def function(self, cid: str, code, a: int, b: int, resume_at: int | None = None) -> str | None:
        """The name of the generated function of the run [a, b), or with `resume_at` of its
        continuation from that instruction (see `rest`); None when Python could not compile it
        (nested too deeply: see `_compilable`) or no continuation goes past its first
        instruction, and the VM runs those instructions."""
        self.code_name = self.const(code)
        start = a if resume_at is None else resume_at
        out = ["    state = rt.state",
               "    stack = state['stack']",
               f"    pc = {start}",
               "    try:"]
        if resume_at is None:
            self.seq(code, a, b, out, 2)
        else:
            out.append(f"        pc = {start}")  # a try needs a statement: the rest may have none
            try:
                self.rest(cid, code, a, b, resume_at, out, 2, False)
            except _NotHere:
                return None
        out += ["    except _rg_FAILURES as exc:",
                "        frame['pc'] = pc",
                f"        raise _rg_located(exc, {self.code_name}, pc) from None",
                f"    frame['pc'] = {b}",
                "    return n",
                ""]
        if not _compilable(out):
            return None
        self.count += 1
        name = f"_rg_r{self.count}"
        self.pygen.lines.append(f"def {name}(rt, frame, env, n, budget):\n" + "\n".join(out) + "\n")
        return name

    # ── continuations ──

    def rest(self, cid: str, code, a: int, b: int, c: int, out: list, d: int, in_loop: bool) -> bool:
        """The sequence [a, b) from instruction `c` on, where the VM comes back to a frame: the
        rest of the statement `c` is inside (the rest of a turn of a loop, then the loop's
        next turns; the rest of a branch; the rest of a scope, then its closing), then the
        statements after it. True when it runs to `b`; False when it stops at a statement no
        region holds, with the frame there, for the VM to go on."""
        items = [(x, y) for x, y in self.items(code, a, b) if y > c]
        if items and items[0][0] < c:
            x, y = items.pop(0)
            if not self.rest_of(cid, code, x, y, c, out, d, in_loop):
                return False
        resumes = self.resume_points(cid, code)
        for x, y in items:
            # another resume point: its own continuation goes on from there, so that each
            # statement is written into one continuation, not into every one before it
            if not self.fits(code, x, y, in_loop) or (x in resumes and x != c):
                self.stop(x, c, out, d)
                return False
            self.item(code, x, y, out, d)
        return True

    def rest_of(self, cid: str, code, x: int, y: int, c: int, out: list, d: int, in_loop: bool) -> bool:
        """The rest of the compound statement [x, y) from instruction `c` inside it."""
        ind = "    " * d
        shape = code.shapes.get(x)
        kind = shape[0] if shape is not None else None
        if kind == "scope":
            if c < y - 1 and not self.rest(cid, code, x + 1, y - 1, c, out, d, in_loop):
                return False
            out.append(f"{ind}pc = {y - 1}; {self.closing(code.ops[x])}; n += 1")
            self.after_closing(code.ops[x], y - 1, out, d)
            return True
        if kind == "if":
            branches = shape[2]
            for jf, je in branches:
                if jf < c <= je:  # in a branch, or at its jump to the end
                    if c < je and not self.rest(cid, code, jf + 1, je, c, out, d, in_loop):
                        return False
                    out.append(f"{ind}n += 1")
                    return True
            if branches[-1][1] < c < y:  # in the `else`
                return self.rest(cid, code, branches[-1][1] + 1, y, c, out, d, in_loop)
            raise _NotHere("a test")
        if kind == "loop":
            _end, top, scope_at, body_at, body_end, _back, _label_of = shape[1:]
            if c == top and self.fits(code, x, y, in_loop):  # the next turns, as the loop takes them
                if code.ops[top][0] == O.NEXT:
                    out.append(f"{ind}it{x} = env[{code.ops[top][1]!r}]")
                out.append(f"{ind}while True:")
                self.turn(code, x, shape, out, d + 1)
                self.turn_end(code, shape, out, d + 1)
                return True
            if not body_at <= c <= body_end:
                raise _NotHere("a loop's head")
            if not self.fits(code, x, y, in_loop):
                # the rest of this turn, and the VM goes on at its end
                if c < body_end and not self.rest(cid, code, body_at, body_end, c, out, d, False):
                    return False
                self.stop(body_end, c, out, d)
                return False
            # the rest of this turn, then the loop's next turns and what follows it, in the
            # continuation from its head: one function for every resume point in its body
            ahead = self.continuation(cid, code, top)
            if ahead is None:
                raise _NotHere("a loop's next turns")
            after = self.continuation(cid, code, y)
            self.breaks.append(f"return {after}(rt, frame, env, n, budget)" if after is not None
                               else f"frame['pc'] = {y}; return n")
            # the loop fits, so its rest does: it stops only where an inner loop's continuation
            # takes over, which returns
            ended = c >= body_end or self.rest(cid, code, body_at, body_end, c, out, d, True)
            self.breaks.pop()
            if not ended:
                return False
            self.turn_end(code, shape, out, d)
            out.append(f"{ind}return {ahead}(rt, frame, env, n, budget)")
            return False
        raise _NotHere(kind)

    def stop(self, k: int, c: int, out: list, d: int) -> None:
        """Hand the frame to the VM at instruction `k`; a continuation that would stop where it
        starts is none."""
        if k == c:
            raise _NotHere("no progress")
        ind = "    " * d
        out.append(f"{ind}frame['pc'] = {k}")
        out.append(f"{ind}return n")

    def install(self) -> None:
        """Once the module is compiled: each block's `fast` instructions, and the whole-body
        functions of the blocks called directly."""
        ns = self.ns
        for cid, fast in self.fast.items():
            self.game.codes[cid].fast = [(O.FUSED, ns[op[1]]) if op[0] == O.FUSED else op for op in fast]
        for cid, name in self.entry_names.items():
            self.entries[cid] = ns[name]

    def seq(self, code, a: int, b: int, out: list, depth: int) -> None:
        items = self.items(code, a, b)
        if not items:
            out.append("    " * depth + "pass")
        for x, y in items:
            self.item(code, x, y, out, depth)

    def item(self, code, a: int, b: int, out: list, d: int) -> None:  # noqa: C901 - one case a shape
        ind = "    " * d
        shape = code.shapes.get(a)
        if shape is None:
            self.leaf(code, a, out, d)
            return
        kind = shape[0]
        if kind == "break":
            for k in range(a, b - 1):
                out.append(f"{ind}pc = {k}; _rg_unscope(rt, env)")
                # a var put back (see after_closing); which scope is closed is known as it runs
                if self.check is not None and self.resetting:
                    out.append(f"{ind}if {self.check}:")
                    out.append(f"{ind}    n += {k - a + 1}")
                    out.append(f"{ind}    frame['pc'] = {k + 1}")
                    out.append(f"{ind}    return n")
            out.append(f"{ind}n += {b - a}")
            if self.breaks[-1] is None:
                out.append(f"{ind}break")
            else:  # out of a turn a continuation resumed, which no Python loop holds
                out.append(f"{ind}{self.breaks[-1]}")
        elif kind == "if":
            branches = shape[2]
            for i, (jf, je) in enumerate(branches):
                out.append(f"{ind}pc = {jf}; n += 1")
                out.append(f"{ind}if {self.const(code.ops[jf][1])}(rt, env):")
                self.seq(code, jf + 1, je, out, d + 1)
                out.append(f"{ind}    n += 1")
                out.append(f"{ind}else:")
                d += 1
                ind = "    " * d
                if i == len(branches) - 1:
                    self.seq(code, je + 1, b, out, d)
        elif kind == "scope":
            out.append(f"{ind}pc = {a}; {self.opening(code.ops[a], None)}; n += 1")
            self.seq(code, a + 1, b - 1, out, d)
            out.append(f"{ind}pc = {b - 1}; {self.closing(code.ops[a])}; n += 1")
            self.after_closing(code.ops[a], b - 1, out, d)
        elif kind == "loop":
            top = shape[2]
            if code.ops[top][0] == O.NEXT:
                init, slot = code.ops[a], code.ops[top][1]
                # each loop its own local: loops nest
                out.append(f"{ind}pc = {a}; it{a} = env[{slot!r}] = [list({self.const(init[2])}(rt, env)), 0]; n += 1")
            out.append(f"{ind}while True:")
            self.turn(code, a, shape, out, d + 1)
            self.turn_end(code, shape, out, d + 1)
        else:  # pragma: no cover - fits() lets no other shape in
            raise _NotHere(kind)

    def turn(self, code, a: int, shape, out: list, d: int) -> None:
        """One turn of the loop at `a`, inside its Python `while True`: the test that leaves it
        (with `break`), the next element bound, its scope opened, its body."""
        ind = "    " * d
        _end, top, scope_at, body_at, body_end, _back, label_of = shape[1:]
        head = code.ops[top]
        out.append(f"{ind}pc = {top}; n += 1")
        if head[0] == O.NEXT:
            slot, var, it = head[1], head[2], f"it{a}"
            out.append(f"{ind}if {it}[1] >= len({it}[0]):")
            out.append(f"{ind}    del env[{slot!r}]")
            out.append(f"{ind}    break")
            if var is not None:
                out.append(f"{ind}env[{var!r}] = {it}[0][{it}[1]]")
            out.append(f"{ind}{it}[1] += 1")
        else:  # while COND
            out.append(f"{ind}if not {self.const(head[1])}(rt, env):")
            out.append(f"{ind}    break")
        if scope_at is not None:
            out.append(f"{ind}pc = {scope_at}; {self.opening(code.ops[scope_at], label_of)}; n += 1")
        self.breaks.append(None)  # a `break` in the body leaves this Python loop
        self.seq(code, body_at, body_end, out, d)
        self.breaks.pop()

    def turn_end(self, code, shape, out: list, d: int) -> None:
        """The end of a turn of a loop: its scope closed, and the jump back counted."""
        ind = "    " * d
        scope_at, body_end, back = shape[3], shape[5], shape[6]
        if scope_at is not None:
            out.append(f"{ind}pc = {body_end}; {self.closing(code.ops[scope_at])}; n += 1")
            self.after_closing(code.ops[scope_at], body_end, out, d)
        out.append(f"{ind}n += 1")
        out.append(f"{ind}if n > budget:")
        out.append(f"{ind}    raise _rg_endless({self.code_name}, {back}, budget)")

    def opening(self, op, label_of) -> str:
        """vm._scope for the SCOPE instruction `op`, written out when it is a phase, a turn or a
        loop whose label is a variable shown as `display` shows it."""
        _, kind, label, fn = op
        if kind == "phase" and fn is None:
            return f"state['scopes'].append({{'k': 'phase', 'n': {label!r}}})"
        if kind == "turn":
            # the seat checked as vm._scope checks it (a bool is no seat: its class is not int)
            return (f"_v = {self.const(fn)}(rt, env); "
                    f"_v if _v.__class__ is int and 0 <= _v < state['nseats'] else _rg_no_seat(_v); "
                    f"state['scopes'].append({{'k': 'turn', 'n': {label!r}, 'v': _v, "
                    f"'sc': env.get('$cur'), 'sa': env.get('$act')}}); env['$cur'] = env['$act'] = _v")
        if kind in ("each", "loop") and label_of is not None:
            var, vtype = label_of
            # the value as display shows it, the common ones written out (the labels' code)
            return (f"_v = env.get({var!r}); state['scopes'].append({{'k': {kind!r}, 'n': {label!r}, "
                    f"'v': {self.pygen.shown('_v', vtype)}}})")
        return f"_rg_scope(rt, env, {self.const(op)})"

    def closing(self, op) -> str:
        """vm._unscope for the scope `op` opened: a pop (a turn's puts $cur and $act back), or
        the call itself when closing it resets a var."""
        _, kind, label, _fn = op
        if self.resets(op):
            return "_rg_unscope(rt, env)"
        if kind == "turn":
            return "_r = state['scopes'].pop(); env['$cur'] = _r['sc']; env['$act'] = _r['sa']"
        return "state['scopes'].pop()"

    def resets(self, op) -> bool:
        """Whether closing the scope `op` opened puts a var back to its start."""
        return op[2] in self.resetting

    def after_closing(self, op, k: int, out: list, d: int) -> None:
        """After the scope `op` opened closes at `k`: a var put back to its start is a change,
        handed to the VM for triggers and 'at any time' as an instruction's change is."""
        if self.check is None or not self.resets(op):
            return
        ind = "    " * d
        out.append(f"{ind}if {self.check}:")
        out.append(f"{ind}    frame['pc'] = {k + 1}")
        out.append(f"{ind}    return n")

    def leaf(self, code, k: int, out: list, d: int) -> None:
        ind = "    " * d
        op = code.ops[k]
        kind = op[0]
        stop = f"{ind}    frame['pc'] = {k + 1}\n{ind}    return n"
        if kind == O.EXEC:
            out.append(f"{ind}pc = {k}; {self.const(op[1])}(rt, env); n += 1")
            if self.check is not None:
                out.append(f"{ind}if {self.check}:")
                out.append(stop)
        elif kind == O.DRAW:
            out.append(f"{ind}pc = {k}; _rg_draw(rt, env, {self.const(op)}); n += 1")
            if self.check is not None:
                out.append(f"{ind}if {self.check}:")
                out.append(stop)
        elif kind == O.SHUFFLE:
            zone, into = self.const(op[1]), (self.const(op[2]) if op[2] is not None else None)
            out.append(f"{ind}pc = {k}; n += 1; zone = {zone}(rt, env)")
            if into is not None:
                out.append(f"{ind}into = {into}(rt, env)")
                out.append(f"{ind}rt.move_entities(rt.zone_cards(zone), into)")
                out.append(f"{ind}zone = into")
            out.append(f"{ind}rt.shuffle(zone)")
            if self.check is not None:
                out.append(f"{ind}if {self.check}:")
                out.append(stop)
        elif kind in (O.WIN, O.LOSE, O.END):  # the game ends here: the frame stays at this instruction
            # the reason and place as vm.py's _ended gives them: the same result on either path
            ended = _ended(code, k, _reason(code, k))
            out.append(f"{ind}pc = {k}; n += 1")
            if kind == O.END:
                out.append(f"{ind}state['result'] = {{'winners': [], 'losers': list(range(state['nseats'])), "
                           f"**{ended!r}}}")
            else:
                out.append(f"{ind}_rg_finish(rt, {self.const(op[1])}(rt, env), {kind == O.WIN}, {ended!r})")
            out.append(f"{ind}frame['pc'] = {k}")
            out.append(f"{ind}return n")
        elif kind == O.DECIDE:  # the seat is asked here: the frame waits at this instruction
            out.append(f"{ind}pc = {k}; n += 1")
            out.append(f"{ind}_pd = {self.const(op[1])}.start(rt, env)")
            out.append(f"{ind}if _pd is not None:")
            out.append(f"{ind}    state['pending'] = _pd")
            out.append(f"{ind}    frame['pc'] = {k}")
            out.append(f"{ind}    return n")
        elif kind == O.ROLL:  # rolled here, or asked of chance with the frame at this instruction
            out.append(f"{ind}pc = {k}; n += 1; frame['pc'] = {k}")
            out.append(f"{ind}_rg_roll(rt, frame, {self.const(op)})")
            out.append(f"{ind}if state['pending'] is not None:")
            out.append(f"{ind}    return n")
        elif kind == O.CALL:
            out.append(f"{ind}pc = {k}; n += 1")
            out.append(f"{ind}e = {{'$cur': env.get('$cur'), '$act': env.get('$act')}}")
            out.append(f"{ind}e.update({self.const(op[2])}(rt, env))")
            self.enter(repr(op[1]), k, out, d)
        elif kind == O.RESOLVE:
            out.append(f"{ind}pc = {k}; n += 1")
            out.append(f"{ind}eid = {self.const(op[1])}(rt, env)")
            out.append(f"{ind}if eid is not None:")
            out.append(f"{ind}    cid = _rg_defs[rt.ent(eid)['d']].handlers.get({op[2]!r})")
            out.append(f"{ind}    if cid is not None:")
            out.append(f"{ind}        e = {{'this': eid, '$cur': env.get('$cur'), '$act': env.get('$act')}}")
            self.enter("cid", k, out, d + 2)
        else:  # pragma: no cover - fits() lets no other instruction in
            raise _NotHere(kind)

    def enter(self, cid: str, k: int, out: list, d: int) -> None:
        """Call the block `cid` (a rule's, or an effect's known only as it runs) through
        `_rg_enter`, and hand the frame to the VM at `k + 1` when that says so."""
        if not self.entered:
            self.entered = True
            self.pygen.lines.append(self.enter_function())
        ind = "    " * d
        out.append(f"{ind}n = _rg_enter(rt, frame, {cid}, e, n, budget, {k + 1})")
        out.append(f"{ind}if n < 0:")
        out.append(f"{ind}    return ~n")

    def enter_function(self) -> str:
        """`_rg_enter`: push the called block's frame and run it here when it is one region, else
        leave it to the VM. It gives the step count when the caller goes on, and the count's
        complement (negative) when the caller must stop with the frame at `after` (the block
        did not run to its end, the game ended, or the VM has work). A chain of effects may not
        end (an effect that resolves itself): past a depth of frames the VM runs them, and its
        step budget stops an endless one as it does without regions. One function, not this
        text at every call, so that a game's generated code stays small to compile."""
        cond = "f['pc'] != _rg_ret[cid] or state['result'] is not None or stack[-1] is not f"
        if self.check is not None:
            cond += f" or {self.check}"
        return "\n".join([
            "def _rg_enter(rt, frame, cid, e, n, budget, after):",
            "    state = rt.state",
            "    stack = state['stack']",
            "    f = {'c': cid, 'pc': 0, 'env': e}",
            "    stack.append(f)",
            "    fn = _rg_entries.get(cid)",
            f"    if fn is None or len(stack) > {_MAX_DIRECT}:",
            "        frame['pc'] = after",
            "        return ~n",
            "    n = fn(rt, f, e, n, budget)",
            f"    if {cond}:",
            "        frame['pc'] = after",
            "        return ~n",
            "    stack.pop()",
            "    return n + 1",
            ""]) + "\n"


def _compilable(lines: list[str]) -> bool:
    """Whether Python compiles a function this deep: it refuses more than 100 levels of
    indentation and more than 20 nested loops and trys. Far fewer are kept, for margin."""
    loops: list = []  # the indentation of each `while` still open
    for line in lines:
        indent = len(line) - len(line.lstrip(" "))
        if indent > 4 * _MAX_INDENT:
            return False
        while loops and loops[-1] >= indent and line.strip():
            loops.pop()
        if line.lstrip().startswith("while "):
            loops.append(indent)
            if len(loops) > _MAX_LOOPS:
                return False
    return True
