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
- :data:`THRESHOLDS`: the youngest generation as CPython sets it (a larger first threshold made
  each young collection longer: 50,000 gave 45–70 ms pauses), a middle collection after 100 young
  ones instead of 10, and a full one after 100 middle ones. At 1,000 paced tables the middle
  generation is mostly what one action makes and keeps until the table's next (each socket's
  awaited receive, the table's schedule and prompts: ~34,000 objects), and it is that size however
  often it is walked: every ~1.2 s (CPython's 10) it was a pause of 27–30 ms (up to 54) that ~2.4%
  of the actions waited on; every ~11 s it is one of ~75 ms that ~0.3% meet (p99 at 1,000 tables
  47 → 20 ms in the same minute: docs/PERFORMANCE.md, "Shared events and rarer middle
  collections"). A full collection then comes after ~100 middle ones (~17 minutes; CPython also
  waits until a quarter more objects reached the old generation). What that keeps waiting is
  mostly closed sockets (uvicorn's and websockets' objects of a closed connection are a cycle:
  ~15 objects each) and a finished game's few cycles; they are freed at the next full collection.
- Full collections stay long (~0.85 s at 1,000 tables: every running game's log, every socket's
  stack); events.py shares the engine's draws and discards, which were two thirds of a running
  game's objects.
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger("sanma.web")

#: (young, middle, old) as ``gc.set_threshold`` takes them; the measurements are in docs/PERFORMANCE.md.
THRESHOLDS = (700, 100, 100)


def tune() -> int:
    """Collect, freeze what start-up left, set :data:`THRESHOLDS`; return how many objects were frozen."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    frozen = gc.get_freeze_count()
    log.info("garbage collector: %d start-up objects frozen, thresholds %s", frozen, THRESHOLDS)
    return frozen
