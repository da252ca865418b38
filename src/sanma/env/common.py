"""What both environments share: rules by name, rewards, illegal-action handling, a text view."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ..errors import IllegalActionError
from ..game.actions import Action
from ..game.engine import Game
from ..rules.schema import Rules
from ..tiles import Tile, to_mpsz
from .action_space import NUM_ACTIONS, PASS, TSUMOGIRI, action_index, action_name, to_action

RewardMode = Literal["points", "score"]
IllegalMode = Literal["raise", "fallback"]
REWARD_MODES = ("points", "score")
ILLEGAL_MODES = ("raise", "fallback")


def resolve_rules(rules: Rules | str) -> Rules:
    return Rules.preset(rules) if isinstance(rules, str) else rules


def check_modes(reward: str, illegal_action: str) -> None:
    if reward not in REWARD_MODES:
        raise ValueError(f"reward must be one of {', '.join(REWARD_MODES)}, got {reward!r}")
    if illegal_action not in ILLEGAL_MODES:
        raise ValueError(f"illegal_action must be one of {', '.join(ILLEGAL_MODES)}, got {illegal_action!r}")


def choose(index: int, legal: tuple[Action, ...], seat: int, mode: IllegalMode) -> tuple[Action, bool]:
    """The legal action of ``index``; for a masked-out index raise or fall back (pass, then
    tsumogiri, then the lowest legal index). The flag says whether the index was illegal."""
    if not 0 <= index < NUM_ACTIONS:
        raise IllegalActionError(f"action index {index} is out of range 0..{NUM_ACTIONS - 1}")
    a = to_action(index, legal)
    if a is not None:
        return a, False
    if mode == "raise":
        offered = ", ".join(action_name(action_index(x)) for x in legal) or "nothing (not this seat's move)"
        raise IllegalActionError(f"action {index} ({action_name(index)}) is not legal for seat {seat} now; "
                                 f"legal: {offered}")
    by_index = {action_index(x): x for x in legal}
    for fallback in (PASS, TSUMOGIRI):
        if fallback in by_index:
            return by_index[fallback], True
    return by_index[min(by_index)], True


def reward_of(game: Game, seat: int, mode: RewardMode, score_before: int) -> float:
    """``points``: the final points (thousands, uma included) when the game ends, else 0.
    ``score``: the change of the seat's score since ``score_before``, in thousands."""
    if mode == "points":
        return float(game.result.points[seat]) if game.done and game.result is not None else 0.0
    return (game.scores[seat] - score_before) / 1000.0


def render_text(game: Game, seat: int, seats: Sequence[int] = (0, 1, 2)) -> str:
    """A few lines for a human: the table, each seat's melds and discards, ``seat``'s hand."""
    obs = game.observation(seat)
    lines = [f"{obs['round_wind']}-{obs['kyoku']} {obs['honba']} honba, {obs['kyotaku']} sticks, "
             f"wall {obs['wall_remaining']}, dora indicators {' '.join(obs['dora_indicators'])}"]
    for s in seats:
        pub = obs["seats"][s]
        river = " ".join(str(Tile.from_mjai(d["pai"])) for d in pub["discards"])
        melds = " ".join(to_mpsz(Tile.from_mjai(x) for x in m["tiles"]) for m in pub["melds"])
        flags = (" riichi" if pub["riichi"] else "") + (f" kita {pub['kita']}" if pub["kita"] else "")
        lines.append(f"seat {s}: {obs['scores'][s]:>6}{flags} | {melds} | {river}")
    lines.append(f"hand of seat {seat}: {to_mpsz(Tile.from_mjai(x) for x in obs['hand'])}"
                 + (f" (drew {Tile.from_mjai(obs['drawn'])})" if obs["drawn"] else ""))
    if game.done and game.result is not None:
        lines.append(f"final: scores {list(game.result.scores)}, points {list(game.result.points)}")
    return "\n".join(lines)
