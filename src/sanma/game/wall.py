"""The wall: a seeded sanma wall per rule set, its deal, live draws, dead wall and dora indicators.

One layout serves every rule set. A wall is the tile sequence in *deal order*: index 0 is the
first tile taken at the break, the live wall follows, and the dead wall is the tail, its last
tile lying at the break. Stacks are two tiles high; of a stack at indices ``(a, a + 1)`` the
tile at ``a`` is the top one (an indicator) and ``a + 1`` the one under it (its ura).

* deal: 4-4-4 tiles to each seat three times, dealer first, then one tile each: 39 tiles; the
  dealer's 14th tile is the first :meth:`Wall.draw`.
* replacement (rinshan) tiles, for kans, kita and flowers: ``rules.rinshan_tiles`` tiles taken
  from the break end in Tenhou's order (top then bottom of the last stack, then the stack before:
  indices ``n-2, n-1, n-4, n-3, ...``).
* ``rules.dead_wall == "fixed"`` (P14: club 14, online 18, Tenhou 14 with 8 rinshan): the dead
  wall is the last ``rules.dead_wall_size`` tiles; dora indicators lie at fixed places just
  before the rinshan stacks (indicator slot *i* is the stack at ``n - rinshan - 2 - 2i``: the
  first dora indicator, then kan dora 1..4). With ``rules.dead_wall_replenished`` each rinshan
  draw refills the dead wall from the live wall's tail (haitei comes one draw earlier, Tenhou);
  without it the dead wall shrinks instead (A001-11).
* ``rules.dead_wall == "to_indicator"`` (official, A002-1): the dead wall is just the rinshan
  tiles; every indicator (the first one included) is the stack at the live wall's tail, so the
  live wall runs up to just before the dora indicator and each kan dora shortens it by two.
  Rinshan draws leave the live wall alone here (``dead_wall_replenished`` applies to the fixed
  model only).
* In both models, once the rinshan tiles are used up, replacements come from the live wall's
  tail (each one shortens the live wall; A002-1).
* ``rules.dora_indicators_on_doubles`` (P07): initial indicators when the dice show doubles.

Why a mutable cursor rather than an immutable state: the engine draws ~55 times per hand and
the self-play benchmark plays many hands per second. A draw here is an index bump over a
shared tuple of tiles; an immutable state would allocate a new object per draw. The game
state that needs snapshots takes :meth:`Wall.copy`, which shares the tile tuple and copies
six integers.

>>> from sanma.rules.schema import Rules
>>> wall = Wall.shuffled(Rules(), seed=7)
>>> [len(h) for h in wall.haipai], wall.remaining, len(wall.dora_indicators)
([13, 13, 13], 55, 1)
>>> first = wall.draw()
>>> wall.remaining, wall.is_haitei
(54, False)
"""

from __future__ import annotations

import hashlib
import hmac
import random
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from functools import cache
from typing import Final

from mypy_extensions import mypyc_attr

from ..errors import HandError, IllegalActionError, RulesError
from ..i18n.messages import sentence
from ..rules.schema import Rules
from ..tiles import SEATS, Tile, parse_tiles, sanma_wall

HAND_SIZE: Final = 13
#: Tiles dealt before the dealer's first draw (13 per seat).
DEALT: Final = SEATS * HAND_SIZE
#: At most four kans happen in a hand, hence at most four kan dora.
MAX_KAN_DORA: Final = 4


def _hand_positions(seat: int) -> tuple[int, ...]:
    """Deal-order indices of the 13 tiles dealt to ``seat`` (0 = dealer): 4-4-4, then one."""
    blocks = [i for rnd in range(3) for i in range(rnd * 12 + seat * 4, rnd * 12 + seat * 4 + 4)]
    return (*blocks, 36 + seat)


#: Deal-order indices of each seat's starting hand, dealer first.
HAIPAI_POSITIONS: Final[tuple[tuple[int, ...], ...]] = tuple(_hand_positions(s) for s in range(SEATS))


def rinshan_positions(n: int, rinshan: int) -> tuple[int, ...]:
    """Deal-order indices of the replacement tiles, in the order they are taken.

    >>> rinshan_positions(108, 4)
    (106, 107, 104, 105)
    """
    return tuple(n - 2 - 2 * (k // 2) + k % 2 for k in range(rinshan))


def indicator_slot(n: int, rinshan: int, i: int) -> int:
    """Index of the ``i``-th indicator stack (0 = first dora indicator) with no replacements
    taken from the live wall's tail: the indicator is at the index, its ura one after.

    >>> indicator_slot(108, 8, 0), indicator_slot(108, 8, 1)  # Tenhou: y[9], y[11] (FORMAT.md §8)
    (98, 96)
    """
    return n - rinshan - 2 - 2 * i


def initial_indicator_count(rules: Rules, dice: tuple[int, int]) -> int:
    """Dora indicators turned at the start: ``dora_indicators_on_doubles`` on doubles (P07)."""
    return rules.dora_indicators_on_doubles if dice[0] == dice[1] else 1


def tile_set(rules: Rules) -> tuple[Tile, ...]:
    """The tiles of a wall under ``rules`` (P01, P02 flowers, P05 red fives), in a fixed order."""
    return _tile_set(rules.red_5p, rules.red_5s, rules.flowers)


@cache
def _tile_set(red_5p: int, red_5s: int, flowers: int) -> tuple[Tile, ...]:
    return sanma_wall({13: red_5p, 22: red_5s}, flowers)


@cache
def _layout(dead_wall: str, dead_wall_size: int, rinshan: int, replenished: bool, indicators: int, n: int,
            name: str) -> tuple[bool, bool, tuple[int, ...], int]:
    """(fixed model, refilled, rinshan positions, initial live-wall end before any indicator)."""
    where = f"rules {name!r}"
    if rinshan < 0:
        raise RulesError(sentence("{where}: rinshan_tiles = {rinshan} must not be negative (P14)",
                                  where=where, rinshan=rinshan))
    fixed = dead_wall == "fixed"
    if fixed:
        need = rinshan + 2 * indicators
        if dead_wall_size < need:
            raise RulesError(
                sentence("{where}: dead_wall_size = {dead_wall_size} cannot hold {rinshan} rinshan tiles "
                         "and {indicators} indicator stack(s) (needs at least {need}; P14)",
                         where=where, dead_wall_size=dead_wall_size, rinshan=rinshan, indicators=indicators, need=need))
        dead = dead_wall_size
    else:
        dead = rinshan + 2 * indicators
    if n - dead <= DEALT:
        raise RulesError(sentence("{where}: a {n}-tile wall with a {dead}-tile dead wall leaves no live "
                                  "wall (P14)", where=where, n=n, dead=dead))
    end = n - dead_wall_size if fixed else n - rinshan
    return fixed, fixed and replenished, rinshan_positions(n, rinshan), end


def check_layout(rules: Rules) -> None:
    """Raise ``RulesError`` when ``rules`` give a dead wall the wall cannot be laid out with (P14):
    what the engine would refuse at the first deal, checked when the rules are loaded."""
    _check_layout(rules, len(tile_set(rules)))


def _check_layout(rules: Rules, n: int) -> None:
    _layout(rules.dead_wall, rules.dead_wall_size, rules.rinshan_tiles, rules.dead_wall_replenished,
            rules.dora_indicators_on_doubles, n, rules.name)


@mypyc_attr(allow_interpreted_subclasses=True)  # tests and tools may subclass it
class Wall:
    """A sanma wall and the cursor of a hand being played on it (see the module doc for the layout).

    Build one with :meth:`shuffled` (a seed), :meth:`from_tiles` (an exact order, e.g. Tenhou's
    shuffle or a test) or :class:`sanma.game.WallBuilder`.
    """

    __slots__ = ("_dice", "_end", "_fixed", "_indicators", "_next", "_refill", "_rinshan", "_rinshan_taken",
                 "_rules", "_tiles")

    _tiles: tuple[Tile, ...]
    _dice: tuple[int, int]
    _rules: Rules
    _fixed: bool
    _refill: bool
    _rinshan: tuple[int, ...]
    _next: int
    _end: int
    _rinshan_taken: int
    _indicators: tuple[int, ...]

    def __init__(self, rules: Rules, tiles: Sequence[Tile], dice: tuple[int, int], *, check: bool = True) -> None:
        """Same as :meth:`from_tiles`; ``check=False`` skips the checks for tiles known to be the
        rules' tile set (the shuffle's own output)."""
        tiles = tuple(tiles)
        if not check:
            self._setup(rules, tiles, dice)
            return
        expected = tile_set(rules)
        if len(tiles) != len(expected):
            raise HandError(
                sentence("a wall under rules {name!r} has {n} tiles, got {n2}",
                         name=rules.name, n=len(expected), n2=len(tiles)))
        have, want = Counter(tiles), Counter(expected)
        if have != want:
            extra = sorted((have - want).elements())
            missing = sorted((want - have).elements())
            raise HandError(
                sentence("wall tiles do not match the tile set of rules {name!r} (red_5p={red_5p}, "
                         "red_5s={red_5s}, flowers={flowers}): extra {extra}; missing {missing}",
                         name=rules.name, red_5p=rules.red_5p, red_5s=rules.red_5s, flowers=rules.flowers,
                         extra=" ".join(map(str, extra)), missing=" ".join(map(str, missing))))
        if len(dice) != 2 or not all(isinstance(d, int) and 1 <= d <= 6 for d in dice):
            raise HandError(sentence("dice must be two numbers 1..6, got {dice!r}", dice=dice))
        self._setup(rules, tiles, (dice[0], dice[1]))

    def _setup(self, rules: Rules, tiles: tuple[Tile, ...], dice: tuple[int, int]) -> None:
        fixed, refill, rinshan, end = _layout(
            rules.dead_wall, rules.dead_wall_size, rules.rinshan_tiles, rules.dead_wall_replenished,
            rules.dora_indicators_on_doubles, len(tiles), rules.name)
        self._tiles = tiles
        self._dice = dice
        self._rules = rules
        self._fixed = fixed
        self._refill = refill
        self._rinshan = rinshan
        self._next = DEALT
        self._end = end
        self._rinshan_taken = 0
        self._indicators = ()
        for _ in range(initial_indicator_count(rules, dice)):
            self._turn_indicator()

    @classmethod
    def _trusted(cls, rules: Rules, tiles: tuple[Tile, ...], dice: tuple[int, int]) -> Wall:
        """A wall over tiles known to be the rules' tile set (the shuffle's own output): no check."""
        return cls(rules, tiles, dice, check=False)

    @classmethod
    def from_tiles(cls, rules: Rules, tiles: Sequence[Tile], dice: tuple[int, int]) -> Wall:
        """A wall with exactly these tiles in deal order (see the module doc) and these dice (1..6).

        Raises ``HandError`` if the tiles are not the tile set of ``rules`` (108 tiles, the red
        fives of ``red_5p``/``red_5s``, ``flowers`` flowers), or the dice are not two of 1..6.
        """
        return cls(rules, tiles, dice)

    @classmethod
    def shuffled(cls, rules: Rules, seed: object) -> Wall:
        """A wall shuffled by ``random.Random(seed)``: the same seed gives the same wall everywhere.

        >>> from sanma.rules.schema import Rules
        >>> Wall.shuffled(Rules(), "bug 42").tiles == Wall.shuffled(Rules(), "bug 42").tiles
        True
        """
        return _shuffle(rules, _rng(seed))

    # --- read-only views ------------------------------------------------------------------------
    @property
    def rules(self) -> Rules:
        return self._rules

    @property
    def tiles(self) -> tuple[Tile, ...]:
        """Every tile, in deal order."""
        return self._tiles

    @property
    def dice(self) -> tuple[int, int]:
        """The two deal dice, each 1..6."""
        return self._dice

    @property
    def haipai(self) -> tuple[tuple[Tile, ...], ...]:
        """The starting hands (13 tiles each) in deal order, dealer first, then the next seats."""
        t = self._tiles
        return tuple(tuple(t[i] for i in pos) for pos in HAIPAI_POSITIONS)

    @property
    def remaining(self) -> int:
        """Tiles left in the live wall."""
        return self._end - self._next

    @property
    def is_haitei(self) -> bool:
        """The live wall is empty: the tile just drawn was the last (haitei), the next discard is houtei."""
        return self._end <= self._next

    @property
    def live_tiles(self) -> tuple[Tile, ...]:
        """The tiles still in the live wall, in draw order."""
        return self._tiles[self._next:self._end]

    @property
    def rinshan_left(self) -> int:
        """Replacement tiles still in the dead wall (later replacements come from the live wall)."""
        return len(self._rinshan) - self._rinshan_taken

    @property
    def rinshan_tiles(self) -> tuple[Tile, ...]:
        """The replacement tiles still in the dead wall, in the order they will be taken."""
        return tuple(self._tiles[i] for i in self._rinshan[self._rinshan_taken:])

    @property
    def dora_indicators(self) -> tuple[Tile, ...]:
        """The face-up indicators: the initial one(s) (P07), then each revealed kan dora."""
        return tuple([self._tiles[i] for i in self._indicators])

    @property
    def indicator_positions(self) -> tuple[int, ...]:
        """Where the face-up indicators lie (indices into :attr:`tiles`)."""
        return self._indicators

    @property
    def ura_indicators(self) -> tuple[Tile, ...]:
        """The tile under each face-up indicator (A000-4): none without ``ura_dora`` (P10), and only
        under the initial ones without ``kan_ura`` (P11)."""
        return tuple([self._tiles[i] for i in self.ura_positions])

    @property
    def ura_positions(self) -> tuple[int, ...]:
        """Where the ura indicators lie (indices into :attr:`tiles`)."""
        rules = self._rules
        if not rules.ura_dora:
            return ()
        shown = self._indicators if rules.kan_ura else self._indicators[:self._initial_indicators]
        return tuple([i + 1 for i in shown])

    @property
    def kan_dora_revealed(self) -> int:
        return len(self._indicators) - self._initial_indicators

    @property
    def can_reveal_kan_dora(self) -> bool:
        """Another kan dora indicator can be turned (P13: some rules forbid a kan otherwise)."""
        if not self._rules.kan_dora or self.kan_dora_revealed >= MAX_KAN_DORA:
            return False
        return self._next_indicator_position() >= self._next

    @property
    def _initial_indicators(self) -> int:
        return initial_indicator_count(self._rules, self._dice)

    # --- actions --------------------------------------------------------------------------------
    def draw(self) -> Tile:
        """Take the next live-wall tile (the first call gives the dealer's 14th tile)."""
        return self._tiles[self.draw_position()]

    def draw_replacement(self) -> Tile:
        """Take a replacement tile for a kan, a kita or a flower (see the module doc for where from)."""
        return self._tiles[self.replacement_position()]

    def reveal_kan_dora(self) -> Tile:
        """Turn the next kan dora indicator and return it (P11); the engine decides when (P12)."""
        return self._tiles[self.reveal_position()]

    # The same three moves, giving where the tile lies (record replay finds where each recorded tile
    # must lie by playing a record's draws on a wall).
    def draw_position(self) -> int:
        """:meth:`draw`, returning the tile's index in :attr:`tiles`."""
        i = self._next
        if i >= self._end:
            raise IllegalActionError(
                sentence("draw from an empty live wall ({n}-tile wall, {rinshan_taken} replacement(s) "
                         "taken): the hand is an exhaustive draw",
                         n=len(self._tiles), rinshan_taken=self._rinshan_taken))
        self._next = i + 1
        return i

    def replacement_position(self) -> int:
        """:meth:`draw_replacement`, returning the tile's index in :attr:`tiles`."""
        k = self._rinshan_taken
        if k < len(self._rinshan):
            self._rinshan_taken = k + 1
            if self._refill and self._end > self._next:
                self._end -= 1  # the dead wall keeps its size: haitei moves one tile earlier (P14)
            return self._rinshan[k]
        if self._end <= self._next:
            raise IllegalActionError(
                sentence("no replacement tile left: the {n} rinshan tiles are used and the live wall is "
                         "empty", n=len(self._rinshan)))
        self._end -= 1  # A002-1: after the rinshan tiles, replacements come from the live wall's tail
        return self._end

    def reveal_position(self) -> int:
        """:meth:`reveal_kan_dora`, returning the indicator's index in :attr:`tiles`."""
        if not self._rules.kan_dora:
            raise IllegalActionError(sentence("rules {name!r} have no kan dora (kan_dora = false, P11)",
                                              name=self._rules.name))
        if self.kan_dora_revealed >= MAX_KAN_DORA:
            raise IllegalActionError(sentence("a fifth kan dora cannot be revealed ({max_kan_dora} already "
                                              "shown)", max_kan_dora=MAX_KAN_DORA))
        if self._next_indicator_position() < self._next:
            raise IllegalActionError(
                sentence("no tile left to reveal a kan dora: only {remaining} live tile(s) remain (P13)",
                         remaining=self.remaining))
        return self._turn_indicator()

    def copy(self) -> Wall:
        """An independent cursor over the same tiles (cheap: the tile tuple is shared)."""
        other = Wall(self._rules, self._tiles, self._dice, check=False)
        other._take_cursor(self)
        return other

    def _take_cursor(self, other: Wall) -> None:
        """Continue from where ``other`` (a wall over the same tiles) stands."""
        self._fixed, self._refill, self._rinshan = other._fixed, other._refill, other._rinshan
        self._next, self._end = other._next, other._end
        self._rinshan_taken, self._indicators = other._rinshan_taken, other._indicators

    # --- internals ------------------------------------------------------------------------------
    def _next_indicator_position(self) -> int:
        if self._fixed:
            return indicator_slot(len(self._tiles), len(self._rinshan), len(self._indicators))
        return self._end - 2

    def _turn_indicator(self) -> int:
        pos = self._next_indicator_position()
        # fixed: an indicator stack that still lies in the live wall (only after several kans
        # under a small dead wall) is taken out of it; to_indicator: always the live wall's tail.
        self._end = min(self._end, pos)
        self._indicators = (*self._indicators, pos)
        return pos

    def __repr__(self) -> str:
        return (f"<Wall rules={self._rules.name!r} dice={self._dice} remaining={self.remaining} "
                f"rinshan_left={self.rinshan_left} dora_indicators={''.join(map(str, self.dora_indicators))}>")


def _rng(seed: object) -> random.Random:
    if isinstance(seed, bool) or not isinstance(seed, int | str):
        raise HandError(sentence("a wall seed is an int or a str, got {name} {seed!r}",
                                 name=type(seed).__name__, seed=seed))
    return random.Random(seed)


def _shuffle(rules: Rules, rng: random.Random) -> Wall:
    tiles = list(tile_set(rules))
    rng.shuffle(tiles)
    dice = (rng.randint(1, 6), rng.randint(1, 6))
    return Wall._trusted(rules, tuple(tiles), dice)


def hand_seed(seed: int | str, hand: int, wall_key: bytes | None = None) -> str:
    """The wall seed of hand ``hand`` (0, 1, ...) of a game seeded ``seed``: the one home of it.

    Without ``wall_key`` it is ``f"{seed}:{hand}"``: anyone who knows the game's seed can rebuild
    every wall, which is what makes a chosen seed reproducible (and guessable: a seat must never
    learn it before the game ends). With a secret ``wall_key`` it is the HMAC-SHA256 of that text
    under the key: a program at the table that guessed or was told the seed still cannot rebuild
    a wall; publishing seed and key after the game lets anyone check every wall.

    >>> hand_seed(7, 2)
    '7:2'
    >>> len(hand_seed(7, 2, b"secret")), hand_seed(7, 2, b"secret") == hand_seed(7, 2, b"other")
    (64, False)
    """
    text = f"{seed}:{hand}"
    if wall_key is None:
        return text
    return hmac.new(wall_key, text.encode(), hashlib.sha256).hexdigest()


def seeded_walls(rules: Rules, seed: object) -> Iterator[Wall]:
    """An endless series of walls from one seed, one per hand of a game.

    >>> from sanma.rules.schema import Rules
    >>> a, b = seeded_walls(Rules(), 1), seeded_walls(Rules(), 1)
    >>> [next(a).tiles == next(b).tiles for _ in range(3)]
    [True, True, True]
    """
    rng = _rng(seed)
    while True:
        yield _shuffle(rules, rng)


def deal_order(hands: Iterable[Sequence[Tile]], rest: Sequence[Tile]) -> tuple[Tile, ...]:
    """Tiles in deal order from three 13-tile hands (dealer first) and the tiles after the deal.

    >>> from sanma.tiles import sanma_wall
    >>> t = sanma_wall({13: 1, 22: 1})
    >>> w = Wall(Rules(), deal_order([t[0:13], t[13:26], t[26:39]], t[39:]), (1, 2))
    >>> w.haipai[1] == t[13:26]
    True
    """
    out: list[Tile | None] = [None] * DEALT
    for seat, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise HandError(sentence("seat {seat} of the deal has {n} tiles, expected {hand_size}",
                                     seat=seat, n=len(hand), hand_size=HAND_SIZE))
        for pos, tile in zip(HAIPAI_POSITIONS[seat], hand, strict=True):
            out[pos] = tile
    dealt = [t for t in out if t is not None]
    if len(dealt) != DEALT:
        raise HandError(sentence("a deal needs {seats} hands of {hand_size} tiles",
                                 seats=SEATS, hand_size=HAND_SIZE))
    return (*dealt, *rest)


TileSpec = str | Iterable[Tile]


def _tiles_of(spec: TileSpec, what: str) -> tuple[Tile, ...]:
    if isinstance(spec, str):
        return parse_tiles(spec)
    tiles = tuple(spec)
    for t in tiles:
        if not isinstance(t, Tile):
            raise HandError(sentence("{what}: expected tiles or an mpsz string, got {t!r}", what=what, t=t))
    return tiles


class WallBuilder:
    """Set up exactly the tiles a test needs; every other place gets the remaining tiles.

    Seats are named by their wind in this hand (``east`` is the dealer). ``draws`` are the live
    wall in draw order from the dealer's first draw (seats take turns: east, south, west, east...).
    ``replacements`` are the rinshan tiles in the order kans/kita/flowers take them.
    ``indicators`` sets the dora indicator(s) (two with doubles under P07), their ura, and the
    kan dora indicators and their ura in the order the kans reveal them (assuming, under
    ``to_indicator``, no replacement was taken from the live wall before them). A hand may be
    given partly: its other tiles are filled. ``HandError`` on a fifth copy, on two requests for
    the same place, or on a request the layout cannot hold.

    >>> from sanma.rules.schema import Rules
    >>> from sanma.tiles import to_mpsz
    >>> wall = (WallBuilder(Rules(), seed=1)
    ...         .hands(east="111p222p333p444p5p", south="19m19p19s1234567z")
    ...         .draws("5p6p")
    ...         .replacements("4z")
    ...         .indicators(dora="1s", ura="2s", kan="3s")
    ...         .build())
    >>> to_mpsz(wall.haipai[0]), to_mpsz(wall.haipai[1]), len(wall.haipai[2])
    ('1112223334445p', '19m19p19s1234567z', 13)
    >>> str(wall.draw()), str(wall.draw()), str(wall.draw_replacement()), str(wall.reveal_kan_dora())
    ('5p', '6p', '4z', '3s')
    >>> to_mpsz(wall.dora_indicators), to_mpsz(wall.ura_indicators[:1])
    ('13s', '2s')
    >>> WallBuilder(Rules()).hands(east="1111p").draws("1p").build()
    Traceback (most recent call last):
    ...
    sanma.errors.HandError: WallBuilder: 5 copies of 1p requested (hand east 4, draws 1), the wall has 4
    """

    __slots__ = ("_dice", "_requests", "_rules", "_seed")

    def __init__(self, rules: Rules, seed: int | str = 0) -> None:
        self._rules = rules
        self._seed = seed
        self._dice: tuple[int, int] = (1, 2)
        # group name -> (positions in deal order, tiles)
        self._requests: dict[str, tuple[Tile, ...]] = {}

    def hands(self, east: TileSpec | None = None, south: TileSpec | None = None,
              west: TileSpec | None = None) -> WallBuilder:
        """Starting hands (up to 13 tiles each) of the dealer (``east``) and the next seats."""
        for name, spec in (("east", east), ("south", south), ("west", west)):
            if spec is not None:
                tiles = _tiles_of(spec, f"hand {name}")
                if len(tiles) > HAND_SIZE:
                    raise HandError(
                        sentence("WallBuilder: hand {name} has {n} tiles, at most {hand_size} (the dealer's "
                                 "14th tile is the first of draws())",
                                 name=name, n=len(tiles), hand_size=HAND_SIZE))
                self._requests[f"hand {name}"] = tiles
        return self

    def draws(self, tiles: TileSpec) -> WallBuilder:
        """The first live-wall draws, in order, starting with the dealer's 14th tile."""
        self._requests["draws"] = _tiles_of(tiles, "draws")
        return self

    def replacements(self, tiles: TileSpec) -> WallBuilder:
        """The first replacement (rinshan) tiles, in the order they are taken."""
        self._requests["replacements"] = _tiles_of(tiles, "replacements")
        return self

    def indicators(self, dora: TileSpec | None = None, ura: TileSpec | None = None,
                   kan: TileSpec | None = None, kan_ura: TileSpec | None = None) -> WallBuilder:
        """Initial dora indicator(s) and their ura; kan dora indicators 1..4 and their ura."""
        for name, spec in (("dora", dora), ("ura", ura), ("kan dora", kan), ("kan ura", kan_ura)):
            if spec is not None:
                self._requests[name] = _tiles_of(spec, name)
        return self

    def dice(self, first: int, second: int) -> WallBuilder:
        """The deal dice (default 1 and 2, not doubles)."""
        self._dice = (first, second)
        return self

    def _positions(self, n: int) -> dict[str, tuple[int, ...]]:
        rules = self._rules
        r = rules.rinshan_tiles
        initial = initial_indicator_count(rules, self._dice)
        live_end = n - rules.dead_wall_size if rules.dead_wall == "fixed" else n - r - 2 * initial
        slots = [indicator_slot(n, r, i) for i in range(initial + MAX_KAN_DORA)]
        return {
            **{f"hand {name}": HAIPAI_POSITIONS[seat] for seat, name in enumerate(("east", "south", "west"))},
            "draws": tuple(range(DEALT, live_end)),
            "replacements": rinshan_positions(n, r),
            "dora": tuple(slots[:initial]),
            "ura": tuple(s + 1 for s in slots[:initial]),
            "kan dora": tuple(slots[initial:]),
            "kan ura": tuple(s + 1 for s in slots[initial:]),
        }

    def build(self) -> Wall:
        """The wall, with every place not requested filled from the remaining tiles (seeded)."""
        rules = self._rules
        full = tile_set(rules)
        n = len(full)
        _check_layout(rules, n)
        available = Counter(full)
        wanted: Counter[Tile] = Counter()
        for tiles in self._requests.values():
            wanted.update(tiles)
        for tile, count in wanted.items():
            if count > available[tile]:
                parts = ", ".join(f"{name} {c}" for name, tiles in self._requests.items()
                                  if (c := tiles.count(tile)))
                raise HandError(
                    sentence("WallBuilder: {count} copies of {tile} requested ({parts}), the wall has "
                             "{available}", count=count, tile=tile, parts=parts, available=available[tile]))
        places = self._positions(n)
        order: list[Tile | None] = [None] * n
        owner: dict[int, str] = {}
        for name, tiles in self._requests.items():
            pos = places[name]
            if len(tiles) > len(pos):
                raise HandError(
                    sentence("WallBuilder: {n} {name} tile(s) requested, the layout of rules {name2!r} has "
                             "room for {n2} (dice {dice}, P07/P14)",
                             n=len(tiles), name=name, name2=rules.name, n2=len(pos), dice=self._dice))
            for p, tile in zip(pos, tiles, strict=False):
                if p in owner:
                    raise HandError(
                        sentence("WallBuilder: {name} and {owner} both ask for wall position {p} ({tile} "
                                 "and {order}); under rules {name2!r} they are the same tile",
                                 name=name, owner=owner[p], p=p, tile=tile, order=order[p], name2=rules.name))
                owner[p] = name
                order[p] = tile
        rest = list((available - wanted).elements())
        random.Random(self._seed).shuffle(rest)
        fill = iter(rest)
        return Wall(rules, [t if t is not None else next(fill) for t in order], self._dice)


def hand_wall(rules: Rules, seed: int | str, hand_number: int, wall_key: bytes | None = None) -> Wall:
    """The wall of hand ``hand_number`` (0-based) of a game seeded ``seed`` (and keyed by
    ``wall_key``, see :func:`hand_seed`): the engine's default deal, and what ``sanma verify``
    re-deals to check a published seed."""
    return Wall.shuffled(rules, hand_seed(seed, hand_number, wall_key))
