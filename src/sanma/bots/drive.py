"""The one loop that drives bots seated at a game: the simulator, the environments, the terminal,
the review's rollouts and the server's tables all play their bots through :class:`Driver`.

Before a bot decides, every bot that follows the event stream is given the events it has not seen,
each as its own seat may see it (``public_events`` of the typed log); the deciding bot gets its seat's view
(``Game.view``) only when it reads one (``Bot.needs_view``). In a call window the seats answer in
the order of ``Game.to_move``; the engine keeps every answer until all have answered, so no seat
learns anything from that order.

>>> from sanma.rules import Rules
>>> from sanma.game.engine import Game
>>> from sanma.bots import make_bot
>>> g = Game(Rules.preset("tenhou"), seed=1, max_hands=2)
>>> d = Driver(g, {s: make_bot("efficient", seed=s) for s in range(3)})
>>> d.run()
>>> g.done, d.moves > 20
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from ..game.actions import Action
from ..game.engine import Game
from ..game.view import public_events
from .base import Bot


class Driver:
    """Bots at some seats of ``game`` (``bots``: seat -> bot); ``fed`` events are taken as already
    given to the event-following bots (0: they see the game from its first event)."""

    def __init__(self, game: Game, bots: Mapping[int, Bot], *, fed: int = 0) -> None:
        self.game = game
        self.bots = dict(bots)
        self.listeners = [(s, b) for s, b in sorted(self.bots.items()) if b.follows_events]
        self.fed = fed
        self.last: Action | None = None  # the last action a bot chose (for error messages)
        self.moves = 0

    def feed(self) -> None:
        """Give every event-following bot the events it has not seen, as its seat may see them."""
        g = self.game
        if self.listeners and self.fed < len(g.log):
            seen = [(bot, public_events(g.log, s, self.fed, g.events)) for s, bot in self.listeners]
            for i in range(len(g.log) - self.fed):  # event by event, every seat in turn
                for bot, events in seen:
                    bot.on_event(events[i])
        self.fed = len(g.log)

    def choose(self, seat: int, legal: tuple[Action, ...] | None = None) -> Action:
        """What the bot at ``seat`` chooses now among ``legal`` (default: the game's legal actions
        for the seat), the events fed first; not applied."""
        bot = self.bots[seat]
        self.feed()
        if legal is None:
            legal = self.game.legal_actions(seat)
        self.last = None
        self.last = bot.act(self.game.view(seat) if bot.needs_view else None, legal)
        return self.last

    def bot_to_move(self) -> int | None:
        """The first seat that must act now and is played by a bot (None: none, or the game is over)."""
        if self.game.done:
            return None
        for s in self.game.to_move:
            if s in self.bots:
                return s
        return None

    def step(self) -> bool:
        """One bot move; False when no bot has to move."""
        seat = self.bot_to_move()
        if seat is None:
            return False
        self.game.apply(self.choose(seat))
        self.moves += 1
        return True

    def run(self, stop: Callable[[Game], bool] | None = None) -> None:
        """Bot moves until a seat no bot plays must act, the game ends, or ``stop(game)`` is true."""
        while (stop is None or not stop(self.game)) and self.step():
            pass

    def finish(self) -> None:
        """Feed the events left (the end of the game) to the bots that follow the stream."""
        self.feed()

    def close(self) -> None:
        """Close every bot (external programs end)."""
        for bot in self.bots.values():
            bot.close()


__all__ = ["Driver"]
