"""The whole corpus through the engine with zero mismatches (issue 20).

``../shared/data/corpus/`` (PROVENANCE.md): 1,012 Tenhou Phoenix games of January 2026, each wall
re-dealt from its shuffle seed so every draw, replacement and indicator is checked; a game of
Tenhou's whole-number era; two Mahjong Soul games. Every action must be legal and every draw,
score, payment, next hand and final result must equal the record — the same check as

    sanma replay ../shared/data/corpus/*/* --check

A failure names the game, the kyoku and the action (``Mismatch``: "file: E2-1: illegal ankan
(event 47 of 49): ..."). The games are split over the machine's cores (at most 4 processes).
"""

from __future__ import annotations

import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from sanma.formats import read_record
from sanma.replay import replay_record
from shared_data import missing, shared_files

CORPUS = shared_files("corpus/*/*.xml", "corpus/*/*.json")


def _replay(paths: list[Path]) -> tuple[int, int, int, list[str]]:
    """(games, kyoku, matched, mismatches and read errors as text) of ``paths``."""
    kyoku = matched = 0
    problems: list[str] = []
    for path in paths:
        record = read_record(path)
        problems.extend(f"{path}: read: {e}" for e in record.errors)
        result = replay_record(record)
        kyoku += result.kyoku
        matched += result.matched
        problems.extend(str(m) for m in result.mismatches)
        if result.matched != result.kyoku and not result.mismatches:  # pragma: no cover - a checker fault
            problems.append(f"{path}: {result.matched} of {result.kyoku} kyoku matched")
    return len(paths), kyoku, matched, problems


def test_the_whole_corpus_replays_with_zero_mismatches() -> None:
    if not CORPUS:
        missing("the corpus folder")
    jobs = max(1, min(4, os.cpu_count() or 1))
    chunks = [CORPUS[i::jobs] for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(pool.map(_replay, chunks))
    games = sum(p[0] for p in parts)
    kyoku = sum(p[1] for p in parts)
    matched = sum(p[2] for p in parts)
    problems = [m for p in parts for m in p[3]]
    assert problems == [], f"{len(problems)} mismatches, first: " + "\n".join(problems[:20])
    assert games == len(CORPUS) >= 1015  # 1,012 Phoenix games, dnovikoff-sanma2, two Mahjong Soul games
    assert matched == kyoku > 9000
