"""The garbage collector of a serving process (``sanma serve``): tuned once, after start-up.

CPython's cyclic collector stops the whole process while it runs, and a full (generation 2)
collection walks every tracked object that is not frozen: ~0.9 µs each on this project's 2-core
machine. A served process holds ~83,000 of them from start-up (modules, the web framework's routes
and models, the rules engine's tables) and ~200 per open WebSocket (the ASGI
stack's coroutines, cells, deques, events): at 1,000 paced PostgreSQL tables (3,000 sockets)
~720,000, a full collection of 540–600 ms of CPU during which every table waits. CPython's
(700, 10, 10) ran one every ~8 s there: the paced tail of issue 22 (docs/PERFORMANCE.md, "The paced
tail and the garbage collector").

:func:`tune` is called once as the server starts (``create_app(tune_gc=True)``'s lifespan, SQLite
and PostgreSQL alike, once the store and the table registry exist, before the unfinished tables are
resumed or taken up):

- ``gc.collect()`` then ``gc.freeze()``: what start-up made and kept lives as long as the process,
  so it moves to the permanent generation, which no collection walks again. The resumed tables are
  not frozen: they end, and a frozen cycle would never be freed (a frozen object that becomes
  garbage without a cycle is still freed by its reference count).
- :data:`THRESHOLDS`: the young generations as CPython sets them (a larger first threshold made
  each young collection longer: 50,000 gave 45–70 ms pauses), but a full collection only after
  1,000 middle ones instead of 10 (CPython also waits until a quarter more objects reached the old
  generation): at 1,000 paced tables (~2 middle collections a second) one every ~8 minutes instead
  of two a minute. What that keeps waiting is little: while no game ends, a served process makes
  almost no cyclic garbage that lives long enough to reach the old generation (the full collections
  of a 600-table run found 10 and 23 unreachable objects); a finished game leaves some (at 1,000
  tables, ~15,000 objects per full collection, ~7 minutes apart: docs/PERFORMANCE.md, "Each table's
  moves on their own channel"). Cycles among long-lived objects wait longer to be freed, bounded by
  those 1,000 collections.
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger("sanma.web")

#: (young, middle, old) as ``gc.set_threshold`` takes them; the measurements are in docs/PERFORMANCE.md.
THRESHOLDS = (700, 10, 1000)


def tune() -> int:
    """Collect, freeze what start-up left, set :data:`THRESHOLDS`; return how many objects were frozen."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    frozen = gc.get_freeze_count()
    log.info("garbage collector: %d start-up objects frozen, thresholds %s", frozen, THRESHOLDS)
    return frozen
