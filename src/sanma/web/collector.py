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
  each young collection longer: 50,000 gave 45–70 ms pauses); a middle collection after 5 young
  ones instead of 10; a full one after 1,000 middle ones instead of 10. At 1,000 paced tables the
  middle generation is mostly what the last second's actions made and keep until the table's next
  (each socket's awaited receive, each table's schedule and prompts), so a middle collection's
  pause grows with the time since the last one while their CPU per second stays about the same:
  every ~1.2 s (CPython's 10) they were 27 ms (up to 54), every ~11 s (100, tried) 90 ms (up to
  137) and the p99 rose from ~48 to 60–130 ms a minute; every ~0.7 s (5) 13 ms (up to 34) and the
  p99 fell to ~39 ms (docs/PERFORMANCE.md, "Shared events and shorter middle collections").
  A full collection comes after 1,000 middle ones (~12 minutes; CPython also waits until a quarter
  more objects reached the old generation). What that keeps waiting is mostly closed sockets
  (uvicorn's and websockets' objects of a closed connection are a cycle: ~15 objects each) and a
  finished game's few cycles, freed at the next full collection.
- A full collection is still long (~0.85–0.95 s at 1,000 tables: every running game's log and
  every socket's stack); events.py shares the engine's draws and discards, which were two thirds
  of a running game's objects (1.6–2.0 s before).
"""

from __future__ import annotations

import gc
import logging

log = logging.getLogger("sanma.web")

#: (young, middle, old) as ``gc.set_threshold`` takes them; the measurements are in docs/PERFORMANCE.md.
THRESHOLDS = (700, 5, 1000)


def tune() -> int:
    """Collect, freeze what start-up left, set :data:`THRESHOLDS`; return how many objects were frozen."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
    frozen = gc.get_freeze_count()
    log.info("garbage collector: %d start-up objects frozen, thresholds %s", frozen, THRESHOLDS)
    return frozen
