"""The per-seat view (issue 10 item 4): ``Game.view(seat)``, the spectator view, masked events."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine_helpers import find, start
from sanma import events as ev
from sanma.game.engine import Game
from sanma.game.view import mask, mask_event, public_events
from sanma.rules import Rules
from sanma.tiles import Tile

# Every key bots, sanma.env and the terminal read from Game.observation before the view existed.
OBSERVATION_KEYS = {"seat", "round_wind", "round_index", "kyoku", "honba", "kyotaku", "dealer", "scores",
                    "dora_indicators", "wall_remaining", "hand", "drawn", "seats", "legal_actions"}
# winds, player names ("C") and the kinds a hand waits on: no copy of a tile
WIND_KEYS = {"round_wind", "wind", "names", "waits"}
SEAT_KEYS = {"discards", "melds", "kita", "flowers", "riichi", "hand_size", "open_hand"}


def _tiles_in(value: object) -> Counter[str]:
    """Every tile name anywhere in a JSON value."""
    out: Counter[str] = Counter()
    if isinstance(value, str):
        try:
            Tile.from_mjai(value)
        except ValueError:
            return out
        out[value] += 1
    elif isinstance(value, dict):
        for k, v in value.items():
            if k not in WIND_KEYS:
                out += _tiles_in(v)
    elif isinstance(value, list | tuple):
        for v in value:
            out += _tiles_in(v)
    return out


def _play(game: Game, rng: random.Random, steps: int) -> None:
    for _ in range(steps):
        if game.done:
            return
        seat = game.to_move[0]
        game.apply(rng.choice(game.legal_actions(seat)))


def test_observation_is_the_view_and_keeps_every_key() -> None:
    g = Game(Rules.preset("kansai"), seed=3)
    _play(g, random.Random(3), 40)
    for seat in range(3):
        obs = g.observation(seat)
        assert obs == g.view(seat).to_json()
        assert set(obs) >= OBSERVATION_KEYS
        assert all(set(s) >= SEAT_KEYS for s in obs["seats"])
        assert obs["hand"] == sorted(t.mjai for t in g.seats[seat].hand)


def test_view_shows_own_hand_with_the_drawn_tile_apart() -> None:
    g = Game(Rules.preset("tenhou"), seed=11)
    seat = g.to_move[0]
    v = g.view(seat)
    assert v.drawn is not None and len(v.hand) == 14 and len(v.closed_hand) == 13
    assert Counter(v.closed_hand) + Counter([v.drawn]) == Counter(v.hand)
    other = g.view((seat + 1) % 3)
    assert other.drawn is None and other.legal_actions == ()
    assert other.seats[seat].hand_size == 14


def test_view_of_a_seat_names_no_tile_beyond_what_it_may_know() -> None:
    """The seat's view mentions a tile kind only if the seat's own hand or the table shows a copy."""
    rng = random.Random(5)
    for seed in range(1):
        g = Game(Rules.preset("tenhou"), seed=seed, max_hands=4)
        while not g.done:
            for seat in (0, 1, 2, None):
                v = g.view(seat) if seat is not None else g.spectator_view()
                known = Counter(t.mjai for t in v.hand) + Counter(t.mjai for t in v.dora_indicators)
                for s in v.seats:
                    known += Counter(d.tile.mjai for d in s.discards)
                    known += Counter(t.mjai for m in s.melds for t in m.tiles)
                    known["N"] += s.kita
                mentioned = _tiles_in(v.to_json())
                unknown = {k for k in mentioned if not known[k]}
                assert not unknown, f"seat {seat} sees {unknown}"
            _play(g, rng, 1)


def test_spectator_view_has_no_concealed_tile() -> None:
    g = Game(Rules.preset("tenhou"), seed=2)
    _play(g, random.Random(2), 30)
    j = g.spectator_view().to_json()
    assert j["seat"] is None and j["hand"] == [] and j["closed_hand"] == [] and j["drawn"] is None
    assert j["legal_actions"] == [] and j["waits"] == []
    assert all(s["open_hand"] is None for s in j["seats"])


def test_masked_events_hide_other_deals_draws_and_the_seed() -> None:
    g = Game(Rules.preset("tenhou"), seed=4)
    _play(g, random.Random(4), 20)
    for seat in (0, 1, 2, None):
        for e, raw in zip(public_events(g.log, seat), g.events, strict=True):
            assert "seed" not in e
            if e["type"] == "start_kyoku":
                for i, h in enumerate(e["tehais"]):
                    assert h == (raw["tehais"][i] if i == seat else ["?"] * len(h))
            if e["type"] == "tsumo":
                assert e["pai"] == (raw["pai"] if raw["actor"] == seat else "?")
    assert g.public_events(1) == public_events(g.log, 1)
    assert mask_event({"type": "dahai", "actor": 0, "pai": "1p", "tsumogiri": False}, None)["pai"] == "1p"


def test_masking_works_on_the_typed_log() -> None:
    """Issue 20: ``Game.log`` holds the typed events, ``Game.events`` their mjai dicts; ``mask`` hides
    other seats' deals and draws on the typed event (``None`` tiles), and its mjai form is what a
    seat receives (the game's own dict where nothing is hidden)."""
    g = Game(Rules.preset("tenhou"), seed=4)
    _play(g, random.Random(4), 20)
    assert [e.to_mjai() for e in g.log] == g.events
    for seat in (0, 1, None):
        seen = public_events(g.log, seat, 0, g.events)
        for e, raw, m in zip(g.log, g.events, seen, strict=True):
            masked = mask(e, seat)
            assert masked.to_mjai() == m == mask_event(raw, seat)
            if isinstance(e, ev.Tsumo):
                assert masked.pai == (e.pai if e.actor == seat else None)
                assert (m is raw) == (e.actor == seat)
            elif isinstance(e, ev.StartKyoku):
                assert [h == e.tehais[i] for i, h in enumerate(masked.tehais)] == [i == seat for i in range(3)]
                assert all(t is None for i, h in enumerate(masked.tehais) if i != seat for t in h)
            else:
                assert masked is e and m is raw
    secret = ev.StartGame(("A", "B", "C"), "tenhou", None, (("seed", "42"), ("room", "x")))
    assert mask(secret, 0).to_mjai() == {"type": "start_game", "names": ["A", "B", "C"], "rules": "tenhou",
                                         "room": "x"}


def test_view_furiten_blocks_ron_P75() -> None:
    """P75: a seat the view calls furiten is never offered a ron on one of its waits."""
    checked = 0
    for seed in range(6):
        g = Game(Rules.preset("tenhou"), seed=seed)
        rng = random.Random(seed)
        while not g.done:
            for seat in range(3):
                v = g.view(seat)
                if v.furiten and any(a.type == "hora" and a.target != seat for a in v.legal_actions):
                    pytest.fail(f"seed {seed}: furiten seat {seat} offered ron")
                checked += v.furiten
            _play(g, rng, 1)
    assert checked > 0  # the situation did occur


def test_view_rejects_a_seat_that_is_not_there() -> None:
    g = Game(Rules.preset("tenhou"), seed=1)
    with pytest.raises(ValueError, match="seat 3"):
        g.view(3)


def _play_calls(game: Game, rng: random.Random) -> list[dict[str, object]]:
    """Play until the game ends, taking every pon and kan on offer; the views seen after each kan."""
    seen = []
    melds = 0
    while not game.done:
        seat = game.to_move[0]
        legal = game.legal_actions(seat)
        order = ("daiminkan", "kakan", "ankan", "pon")
        calls = sorted((a for a in legal if a.type in order), key=lambda a: order.index(a.type))
        game.apply(calls[0] if calls else rng.choice([a for a in legal if a.type != "hora"] or legal))
        now = sum(len(st.melds) for st in game.seats)
        if now != melds and not game.done:  # a new meld (or a kan made of a pon): every seat's view and a spectator's
            seen.extend(game.view(s).to_json() for s in range(3))
            seen.append(game.spectator_view().to_json())
        melds = now
    return seen


def test_view_names_the_kind_of_each_kan_and_a_kakans_added_tile_P12() -> None:
    """P12 (kan dora timing differs by ankan / daiminkan / kakan): the view tells the three apart,
    and a kakan carries the tile that was added, as the table draws it (issue 11)."""
    kinds: Counter[str] = Counter()
    for seed in range(40):
        game = Game(Rules.preset("tenhou"), seed=seed)
        for view in _play_calls(game, random.Random(seed)):
            for s in view["seats"]:  # type: ignore[union-attr]
                for m in s["melds"]:
                    kinds[m["kind"]] += 1
                    assert m["kind"] in ("pon", "daiminkan", "kakan", "ankan")
                    assert (m["type"], m["kind"]) in {("pon", "pon"), ("kan", "daiminkan"), ("kan", "kakan"),
                                                      ("ankan", "ankan")}
                    assert (m["added"] is not None) == (m["kind"] == "kakan")
                    if m["kind"] == "kakan":
                        assert m["added"] in m["tiles"] and len(m["tiles"]) == 4
        if all(kinds[k] for k in ("daiminkan", "kakan", "ankan")):
            break
    assert all(kinds[k] for k in ("pon", "daiminkan", "kakan", "ankan")), kinds


def test_a_kakan_in_the_view_is_the_event_that_made_it_P12() -> None:
    """The kind and added tile come from the hand's own kakan event (seat and tile), not a guess."""
    from sanma.game.view import added_kans

    start = ev.StartKyoku("E", 1, 0, 0, 0, (Tile.parse("1p"),), (35000,) * 3, ((), (), ()))
    events: list[ev.Event] = [start, ev.Kakan(2, Tile.parse("0p"), (Tile.parse("5p"),) * 3),
                              start, ev.Kakan(1, Tile.parse("9s"), (Tile.parse("9s"),) * 3)]
    assert {(s, str(t)) for (s, _), t in added_kans(events).items()} == {(1, "9s")}  # only the current hand
    assert {(s, t.mjai) for (s, _), t in added_kans(events[:2]).items()} == {(2, "5pr")}


def test_a_view_built_on_shared_public_seats_is_the_same_view() -> None:
    """The server builds every seat's public facts once per action for all its connections: each
    seat's view (and a spectator's) made that way is exactly the view made alone."""
    from sanma.game.view import public_seats, seat_view, spectator_view

    game = Game(Rules.preset("kansai"), seed=4)
    rng = random.Random(4)
    for _ in range(12):
        _play(game, rng, 15)
        public = public_seats(game)
        public_json = [p.to_json() for p in public]
        for seat in range(3):
            assert seat_view(game, seat, public).to_json(seats_json=public_json) == game.view(seat).to_json()
        assert spectator_view(game, public).to_json(seats_json=public_json) == game.spectator_view().to_json()


@pytest.mark.slow
def test_a_view_never_tells_which_other_seat_was_offered_a_call() -> None:
    """Hidden information: while seats decide on a discard (ron, pon, kan), a kan (chankan) or a
    kita, that a seat was asked tells what it holds (a pair of the tile, a wait on it). A seat's
    view names only its own decision then, a spectator's none; the seat on turn stays public."""
    windows = 0
    for seed in range(6):
        g = Game(Rules.preset("tenhou"), seed=seed)
        rng = random.Random(seed)
        while not g.done:
            moving = g.to_move
            if g._pending:  # a call window: every viewer sees at most itself
                windows += 1
                for seat in range(3):
                    assert g.view(seat).to_move == ((seat,) if seat in moving else ()), (seat, moving)
                assert g.spectator_view().to_move == ()
            else:
                assert all(g.view(s).to_move == moving == (g.view(s).turn,) for s in range(3))
            seat = moving[0]
            g.apply(rng.choice(g.legal_actions(seat)))
    assert windows > 50  # random play reaches many call windows


def test_each_wait_shows_the_copies_its_seat_cannot_see() -> None:
    """Issue 18: the table shows each wait with its copies left. Four less the seat's own hand, the
    rivers, melds, kita and the dora indicators; a copy in another seat's concealed hand is unseen."""
    g = start(Rules.preset("tenhou"), south="23p567s789s555z11m", west="1p", draws="4p", dora="1p")
    south = g.view(1)
    assert [t.mjai for t in south.waits] == ["1p", "4p"] and south.waits_left == (3, 4)  # 1p: the indicator
    assert south.to_json()["waits_left"] == [3, 4]
    action = find(g, 0, "dahai", "4p")
    assert action is not None
    g.apply(action)
    assert g.view(1).waits_left == (3, 3)  # at its ron prompt: the 4p in the river; West's 1p unseen
    assert g.view(0).waits_left == () and g.spectator_view().waits_left == ()


def test_view_counts_the_visible_tiles_and_what_the_seat_cannot_see() -> None:
    """SeatView.visible is the one count of the tiles everyone sees (rivers, a called discard once in
    its meld, melds, kita, indicators: ``legal.visible_counts``); ``unseen`` is four less the seat's
    hand and those, 0 for 2m-8m (not in the sanma set)."""
    from sanma.tiles import NUM_KINDS, REMOVED_KINDS

    g = Game(Rules.preset("tenhou"), seed=8)
    _play(g, random.Random(8), 120)
    for seat in range(3):
        v = g.view(seat)
        seen = Counter(t.kind for t in v.dora_indicators)
        for pub in v.seats:
            seen.update(d.tile.kind for d in pub.discards if not d.called)
            seen.update(t.kind for m in pub.melds for t in m.tiles)
            seen[30] += pub.kita
        assert v.visible == tuple(seen[k] for k in range(NUM_KINDS))
        mine = Counter(t.kind for t in v.hand)
        assert v.unseen == tuple(0 if k in REMOVED_KINDS else max(0, 4 - mine[k] - seen[k]) for k in range(NUM_KINDS))
    spectator = g.spectator_view()
    assert spectator.visible == g.view(0).visible and sum(spectator.unseen) == 4 * 27 - sum(spectator.visible)


def test_a_flower_turned_as_the_dora_indicator_is_no_visible_kind() -> None:
    """Kansai walls can turn a flower as an indicator (it points at nothing): the views' counts skip
    it (``legal.visible_counts`` indexed the 34 kinds with it and failed)."""
    g = Game(Rules.preset("kansai"), seed=19, max_hands=2)
    rng = random.Random(19)
    flowers = 0
    while not g.done:
        if any(t.is_flower for t in g.wall.dora_indicators):
            flowers += 1
            v = g.view(g.to_move[0])
            table = sum(sum(not d.called for d in p.discards) + sum(len(m.tiles) for m in p.melds) + p.kita
                        for p in v.seats)
            assert sum(v.visible) == table + sum(not t.is_flower for t in v.dora_indicators)
        g.apply(rng.choice(g.legal_actions(g.to_move[0])))
    assert flowers
