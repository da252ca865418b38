"""One game between bots: seats, seeds, the move loop, and what each bot achieved.

Seeds are strings built from the simulation seed and the game index, so a game is reproduced
by ``(seed, index)`` alone, in any process: the wall seed is ``f"{seed}-{index}"`` and the bot
of entry ``j`` is seeded ``f"{seed}-{index}-{j}"``. Seats rotate: in game ``i`` the bot of
entry ``j`` sits at seat ``(j + i) % 3`` (seat 0 deals first).

>>> from sanma.rules import Rules
>>> rec = play_game(Rules.preset("tenhou"), ("random", "random", "tsumogiri"), seed=1, index=0)
>>> rec.index, len(rec.entries), sorted(e.placement for e in rec.entries)
(0, 3, [1, 2, 3])
>>> rec == play_game(Rules.preset("tenhou"), ("random", "random", "tsumogiri"), seed=1, index=0)
True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..bots import Bot, Driver, make_bot
from ..errors import SanmaError
from ..game.engine import Game
from ..i18n import Message, sentence
from ..rules.schema import Rules
from ..tiles import SEATS


class SimulationError(SanmaError):
    """A bot failed (raised, or chose an illegal action) during a simulated game."""


@dataclass(frozen=True, slots=True)
class EntryResult:
    """What one ``--bots`` entry achieved in one game."""

    seat: int
    placement: int
    score: int
    points: float
    wins: int
    deal_ins: int
    riichi: int
    calls: int
    win_value: int = 0  # sum of the hand values (``Score.total``) of this entry's wins
    busted: bool = False  # the game ended on this entry's bust
    incidents: int = 0  # problems with an external bot (timeouts, garbage, exits): see ``GameSummary.incidents``
    fallbacks: int = 0  # decisions sanma took for the entry (tsumogiri) after such problems


@dataclass(frozen=True, slots=True)
class GameSummary:
    """One finished game: its index, how many hands it lasted, one result per bot entry."""

    index: int
    kyoku: int
    entries: tuple[EntryResult, ...]
    draws: int = 0  # hands that ended without a win (exhaustive draws and aborts; not chombo, P101)
    incidents: tuple[Message, ...] = ()  # what went wrong with external bots, as logged


def seat_of(entry: int, index: int) -> int:
    """The seat of ``--bots`` entry ``entry`` in game ``index`` (seats rotate every game)."""
    return (entry + index) % SEATS


def play_game(rules: Rules, bots: Sequence[str], seed: int | str, index: int, *,
              max_hands: int = 200, timeout: float | None = None, budget: float | None = None,
              wall_key: bytes | None = None) -> GameSummary:
    """Play game ``index`` of a simulation seeded ``seed``; ``bots`` are registry names, one per entry.

    ``timeout`` is the per-decision limit of external (``mjai:``) bots, ``budget`` their limit per game;
    ``wall_key`` a secret that keys the walls (``Game``'s ``wall_key``: the walls then do not follow from
    the seed alone). The bots are closed (external processes end) when the game ends, whether it
    finished or failed.
    """
    game, entry_at, by_seat = _play(rules, bots, seed, index, max_hands=max_hands, timeout=timeout, budget=budget,
                                    wall_key=wall_key)
    return _record(game, index, entry_at, by_seat)


def play_game_events(rules: Rules, bots: Sequence[str], seed: int | str, index: int, *,
                     max_hands: int = 200) -> Game:
    """Game ``index`` of a simulation seeded ``seed``, played again: the finished ``Game`` (its events)."""
    return _play(rules, bots, seed, index, max_hands=max_hands)[0]


def _play(rules: Rules, bots: Sequence[str], seed: int | str, index: int, *, max_hands: int = 200,
          timeout: float | None = None, budget: float | None = None,
          wall_key: bytes | None = None) -> tuple[Game, list[int], list[Bot]]:
    if len(bots) != SEATS:
        raise SimulationError(sentence("a game needs {seats} bots, got {n}: {names}", code="bots", seats=SEATS,
                                       n=len(bots), names=", ".join(bots)))
    by_seat: list[Bot] = [make_bot("random")] * SEATS
    entry_at = [0] * SEATS
    for j, name in enumerate(bots):
        seat = seat_of(j, index)
        by_seat[seat] = make_bot(name, seed=f"{seed}-{index}-{j}", rules=rules, timeout=timeout,
                                 budget=budget)
        entry_at[seat] = j
    try:
        game = Game(rules, seed=f"{seed}-{index}", names=[bots[entry_at[s]] for s in range(SEATS)],
                    max_hands=max_hands, wall_key=wall_key)
        driver = Driver(game, dict(enumerate(by_seat)))
        try:
            driver.run()
            driver.finish()  # the end of the game (end_kyoku, end_game) for bots that follow the stream
        except (SanmaError, LookupError, AssertionError) as e:  # a bot or engine failure: say where
            doing = sentence(" after {action}", action=str(driver.last)) if driver.last is not None else ""
            raise SimulationError(sentence(
                "game {index} (seed {seed!r}, {wind}-{kyoku}, {honba} honba){doing}: {kind}: {error}",
                code="game_failed", index=index, seed=seed, wind=game.round_wind, kyoku=game.kyoku_in_round + 1,
                honba=game.honba, doing=doing, kind=type(e).__name__, error=e)) from e
    finally:
        for bot in by_seat:
            bot.close()
    return game, entry_at, by_seat


def _record(game: Game, index: int, entry_at: list[int], by_seat: Sequence[Bot] = ()) -> GameSummary:
    # Counted per hand as the database counts them (sanma.store.facts, `sanma stats`): a seat's
    # win, deal-in (a double ron is one), riichi declared (accepted or not) and call (pon or open kan).
    wins = [0] * SEATS
    deal_ins = [0] * SEATS
    riichi = [0] * SEATS
    calls = [0] * SEATS
    value = [0] * SEATS
    dealt_in: set[int] = set()
    declared: set[int] = set()
    called: set[int] = set()
    for e in game.events:
        t = e["type"]
        if t == "hora":
            wins[e["actor"]] += 1
            value[e["actor"]] += int(e.get("points", 0))
            if e["target"] != e["actor"]:
                dealt_in.add(e["target"])
        elif t == "reach":
            declared.add(e["actor"])
        elif t in ("pon", "daiminkan"):
            called.add(e["actor"])
        elif t == "end_kyoku":
            for counts, seats in ((deal_ins, dealt_in), (riichi, declared), (calls, called)):
                for s in seats:
                    counts[s] += 1
                seats.clear()
    result = game.result
    assert result is not None
    entries = [EntryResult(0, 0, 0, 0.0, 0, 0, 0, 0)] * SEATS
    incidents: list[Message] = []
    for seat in range(SEATS):
        bot = by_seat[seat] if by_seat else None
        found = list(bot.incidents) if bot is not None else []
        incidents.extend(sentence("game {index}: {text}", index=index, text=text) for text in found)
        entries[entry_at[seat]] = EntryResult(seat, result.ranks[seat], result.scores[seat],
                                              float(result.points[seat]), wins[seat], deal_ins[seat],
                                              riichi[seat], calls[seat], value[seat], seat in game.busted,
                                              bot.incident_count if bot is not None else 0,
                                              bot.fallbacks if bot is not None else 0)
    draws = sum(1 for h in game.hand_results if h.kind not in ("hora", "chombo"))  # a chombo voids the hand (P101)
    return GameSummary(index, len(game.hand_results), tuple(entries), draws, tuple(incidents))
