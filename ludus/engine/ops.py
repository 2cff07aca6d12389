"""The VM's instruction set. An instruction is a tuple `(opcode, *operands)`; see vm.py."""

EXEC = 0  # fn                   run a statement that cannot suspend
JUMP = 1  # target
JUMPF = 2  # cond, target        jump when the condition is false
ITER = 3  # slot, source         start a loop over a list
NEXT = 4  # slot, var, target    bind the next item, or jump out when done
CALL = 5  # code id, bind        run a rule with arguments
RET = 6  #                       leave the current block
SCOPE = 7  # kind, label, fn     open a turn, phase or labelled loop iteration
UNSCOPE = 8  #                   close it (and reset what 'resets each' it)
DECIDE = 9  # spec               wait for a seat's decision
ROLL = 10  # sides, many, bind   ask chance for dice
SHUFFLE = 11  # zone, into       ask chance for an order
WIN = 12  # seats
LOSE = 13  # seats
END = 14  #                      the game ends with no winner
ALT_INIT = 15  # seats           start taking turns until every seat (or all but one) has passed
ALT_NEXT = 16  # var, one_left, target (one_left: `until one left`, else `until all pass`)
ALT_POP = 17  #                  leave an alternate loop early
PASS = 18  #                     the seat taking this turn passes
RESOLVE = 19  # card, handler    run a card's effect
DRAW = 20  # amount, src, dst, game
FUSED = 21  # fn                 a run of the above compiled to one function (compiler/regions.py)

NAMES = {v: k for k, v in dict(globals()).items() if k.isupper() and isinstance(v, int)}
