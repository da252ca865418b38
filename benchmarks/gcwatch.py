"""``python benchmarks/gcwatch.py FILE serve ARGS...``: sanma's command line with every garbage collection of
the process written to FILE, one line each: ``MONOTONIC GENERATION MS CPU_MS COLLECTED`` (the end's
``time.monotonic()``, the same clock in every process of the machine; the pause in wall-clock ms, then the
CPU ms the collection itself used, which does not grow when other processes take the cores); and to
FILE.loop, every half second, how busy its event loop was (see ``timed_select``).
``bench_server.py --gc-trace`` starts its servers so and reports their pauses; the server's own code is not changed.
With ``--untuned`` before FILE (``bench_server.py --gc-untuned``), the server keeps CPython's own collector
settings (``sanma.web.collector.tune`` does nothing): the "before" of an A/B on one build; with
``--thresholds=A,B,C`` it tunes with those thresholds instead of ``collector.THRESHOLDS``.
"""

from __future__ import annotations

import gc
import sys
import time
from typing import Any


def main() -> None:
    import sanma.web.collector as collector

    if sys.argv[1] == "--untuned":
        del sys.argv[1]
        collector.tune = lambda: 0
    elif sys.argv[1].startswith("--thresholds="):  # tune, but with these thresholds (A/B of THRESHOLDS)
        collector.THRESHOLDS = tuple(int(x) for x in sys.argv.pop(1).split("=")[1].split(","))  # type: ignore[assignment]
    path = sys.argv[1]
    out = open(path, "a", buffering=1)  # noqa: SIM115 - open as long as the process
    started = [0.0, 0.0]

    def watch(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            started[:] = time.perf_counter(), time.thread_time()
        else:
            ms = (time.perf_counter() - started[0]) * 1e3
            cpu = (time.thread_time() - started[1]) * 1e3
            out.write(f"{time.monotonic():.4f} {info['generation']} {ms:.3f} {cpu:.3f} {info['collected']}\n")

    gc.callbacks.append(watch)

    def census(signum: int, frame: object) -> None:  # kill -USR1: what the collector walks, by type
        import collections

        young = collections.Counter(type(o).__qualname__ for g in (0, 1) for o in gc.get_objects(g))
        objs = gc.get_objects()
        kinds = collections.Counter(type(o).__qualname__ for o in objs)
        sizes = collections.Counter()
        for o in objs:
            if isinstance(o, (list, dict, tuple)):
                sizes[type(o).__qualname__] += len(o)
        del objs
        t0 = time.thread_time()
        unreachable = gc.collect()
        cpu = (time.thread_time() - t0) * 1e3
        after = collections.Counter(type(o).__qualname__ for o in gc.get_objects())
        freed = kinds - after  # by type, what that collection freed (unreachable cycles)
        with open(path + ".census", "a") as f:
            f.write(f"{sum(kinds.values())} tracked, frozen {gc.get_freeze_count()}, full collection CPU "
                    f"{cpu:.1f} ms, {unreachable} unreachable\n{kinds.most_common(30)}\nitems {sizes}\n"
                    f"freed by it: {freed.most_common(15)}\n"
                    f"young (generations 0 and 1, what a middle collection walks): {sum(young.values())}, "
                    f"{young.most_common(20)}\n")

    import selectors

    # FILE.loop, every half second: MONOTONIC BUSY CPU TURNS LONGEST_MS — the share of the span the event
    # loop was not waiting in epoll (it had work), the share the process was on a core (BUSY - CPU: the
    # loop had work and waited for a core), its turns and its longest turn (a wrapper of the selector)
    loop_out = open(path + ".loop", "a", buffering=1)  # noqa: SIM115 - open as long as the process
    acc = {"idle": 0.0, "since": time.monotonic(), "cpu": time.process_time(), "turns": 0, "longest": 0.0,
           "last": 0.0}
    select = selectors.EpollSelector.select

    def timed_select(self: selectors.EpollSelector, timeout: float | None = None) -> Any:
        start = time.perf_counter()
        if acc["last"]:
            acc["longest"] = max(acc["longest"], start - acc["last"])
        ready = select(self, timeout)
        end = time.perf_counter()
        acc["idle"] += end - start
        acc["turns"] += 1
        acc["last"] = end
        now = time.monotonic()
        if now - acc["since"] >= 0.5:
            span, cpu = now - acc["since"], time.process_time()
            loop_out.write(f"{now:.3f} {1 - acc['idle'] / span:.3f} {(cpu - acc['cpu']) / span:.3f} "
                           f"{acc['turns']} {acc['longest'] * 1e3:.1f}\n")
            acc.update(idle=0.0, since=now, cpu=cpu, turns=0, longest=0.0)
        return ready

    selectors.EpollSelector.select = timed_select  # type: ignore[method-assign]

    import signal

    signal.signal(signal.SIGUSR1, census)
    sys.argv = ["sanma", *sys.argv[2:]]
    from sanma.cli import main as sanma

    sanma()


if __name__ == "__main__":
    main()
