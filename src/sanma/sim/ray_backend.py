"""``--backend ray``: the same chunks of games as Ray tasks, on a cluster or a local one.

Each task plays a list of game indices with ``play_chunk`` exactly as a local worker process
would, so the records, and the summary, are the same as on any other backend. ``ray`` is
imported here only, when this backend is chosen.

With ``address`` sanma joins that cluster (``ray.init(address=...)``, e.g. ``auto`` or
``ray://head:10001``) and ships its own package to the workers (``runtime_env.py_modules``), so
every node plays with this exact code; the nodes need sanma's dependencies installed. Without
``address`` a local cluster is started with ``jobs`` CPUs and stopped afterwards.
"""

from __future__ import annotations

import contextlib
import logging
import os
from typing import Any

from ..i18n import sentence
from .arena import GameSummary, SimulationError
from .local import Options, Progress, chunks, play_chunk


def run_on_ray(rules_data: dict[str, Any], name: str, bots: tuple[str, ...], seed: int | str, games: int,
               jobs: int, address: str | None, opts: Options,
               progress: Progress | None) -> tuple[list[GameSummary], bool]:
    """The games as Ray tasks; ``(records, interrupted)``: on Ctrl-C the tasks in flight are
    cancelled (their workers killed) and the finished ones kept."""
    try:
        import ray
    except ImportError:
        raise SimulationError(sentence("--backend ray needs the ray package: pip install 'sanma[ray]'",
                                       code="no_ray")) from None
    started = False
    if not ray.is_initialized():
        try:
            if address:
                import sanma

                ray.init(address=address, logging_level=logging.WARNING,
                         runtime_env={"py_modules": [os.path.dirname(sanma.__file__)]})
            else:
                # "local": always a new private cluster, even when `ray start` left one on this machine
                ray.init(address="local", num_cpus=jobs, include_dashboard=False, logging_level=logging.WARNING)
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise SimulationError(sentence("cannot start or reach a Ray cluster at {address}: {why}", code="ray",
                                           address=address, why=str(e)) if address else
                                  sentence("cannot start or reach a Ray cluster locally: {why}", code="ray",
                                           why=str(e))) from None
        started = True
    try:
        cpus = max(1, int(ray.cluster_resources().get("CPU", jobs)))  # type: ignore[no-untyped-call]
        task = ray.remote(play_chunk)
        pending = [task.remote(rules_data, name, bots, seed, idx, *opts) for idx in chunks(games, cpus, most=64)]
        records: list[GameSummary] = []
        try:
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for ref in done:
                    chunk: list[GameSummary] = ray.get(ref)
                    records.extend(chunk)
                    if progress:
                        progress(len(chunk))
        except KeyboardInterrupt:
            for ref in pending:
                with contextlib.suppress(Exception):  # a task that already ended cannot be cancelled
                    ray.cancel(ref, force=True)
            return records, True
        return records, False
    finally:
        if started:
            ray.shutdown()
