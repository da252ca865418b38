"""``sanma table ...``: the score keeper for games on a physical table (docs/KEEPER.md).

Every command takes ``--db PATH`` and ``--json`` (the session's state after the command); a
refused command exits 2 with a message and changes nothing. Writing commands also take
``--author``, ``--reason``, ``--client-id`` (the same id twice is stored once; without it one is
derived from the session, the hand and the entry, so a command run twice is stored once, and
``--again`` says the same outcome really happened again),
``--expect-version`` (refused if someone else changed the session since) and ``--preview``
(show every payment, save nothing).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ..i18n import current_lang, sentence, tr
from .common import DB_WHERE, RULES_HELP, cli_errors

if TYPE_CHECKING:
    from ..keeper.keeper import Keeper

table_app = typer.Typer(
    name="table",
    help="Keep score of games played with real tiles: enter each hand's outcome; corrections, penalties, "
         "chips, four people at a three-player table, standings.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def register(app: typer.Typer) -> None:
    app.add_typer(table_app, name="table")


Db = Annotated[str | None, typer.Option("--db", help=f"The database: {DB_WHERE} (default $SANMA_DB or "
                                                    "./sanma.sqlite).")]
AsJson = Annotated[bool, typer.Option("--json", help="Print the session's state as one JSON object.")]
Author = Annotated[str, typer.Option(help="Who makes this entry (kept in the log).")]
Reason = Annotated[str, typer.Option(help="Why (kept in the log; for corrections and penalties).")]
ClientId = Annotated[str | None, typer.Option("--client-id", help="An id for this entry: sent twice, stored once.")]
Expect = Annotated[int | None, typer.Option("--expect-version", help="Refuse unless the session is at this version.")]
Preview = Annotated[bool, typer.Option("--preview", "--dry-run", help="Show every payment; save nothing.")]
Again = Annotated[bool, typer.Option(
    "--again", help="The same entry as the one just stored really happened again (else the command run twice "
                    "is stored once).")]
Names = Annotated[str | None, typer.Option(help="Comma-separated names.")]


def _names(text: str | None) -> list[str]:
    return [x.strip() for x in text.split(",") if x.strip()] if text else []


@contextmanager
def _session(db: str | None) -> Iterator[Keeper]:
    from ..keeper.keeper import Keeper
    from ..store import open_db

    store = open_db(db)
    try:
        yield Keeper(store)
    finally:
        store.close()


def _print(state: dict[str, Any], as_json: bool, note: str = "", *, full: bool = False,
           last: int | None = None) -> None:
    if as_json:
        typer.echo(json.dumps(state, ensure_ascii=False))
        return
    from ..keeper.keeper import in_words, render_text

    if note:
        typer.echo(note)
    typer.echo(render_text(in_words(state, current_lang()), full=full, last=last))


def _write(db: str | None, as_json: bool, action: Callable[[Keeper], dict[str, Any]]) -> None:
    from ..keeper.keeper import in_words

    with cli_errors(), _session(db) as k:
        state = action(k)
    undone = in_words(state, current_lang())["undone"]["text"] if state.get("undone") else ""
    note = (tr("preview — nothing saved") if state.get("preview") else
            tr("already stored (the same command for the same hand): nothing saved; if it really happened again, "
               "run it with --again") if state.get("duplicate") else
            tr("undid {what}", what=undone) if undone else "")
    _print(state, as_json, note)


# ---------------------------------------------------------------------------------------------
# building entries from options
# ---------------------------------------------------------------------------------------------

def _win_entry(ron: Sequence[str], tsumo: str | None, from_: str | None, hand: Sequence[str], win: Sequence[str],
               melds: Sequence[str], han: Sequence[int], fu: Sequence[int], yakuman: Sequence[int],
               yaku: Sequence[str], ura_han: int, closed: bool, flags: Sequence[str], dora: Sequence[str],
               ura: Sequence[str], kita: int, flowers: int, riichi: str | None, pao: str | None) -> dict[str, Any]:
    from ..keeper.entries import KeeperError

    if tsumo and ron:
        raise KeeperError(sentence("give --ron W (with --from L) or --tsumo W, not both"))
    winners = [tsumo] if tsumo else list(ron)
    if not winners:
        raise KeeperError(sentence("who won? give --ron W --from L or --tsumo W"))
    if ron and not from_:
        raise KeeperError(sentence("a ron needs --from: who dealt in"))
    if tsumo and from_:
        raise KeeperError(sentence("a tsumo has no --from"))
    by_tiles = bool(hand)
    if by_tiles and (han or fu or yakuman):
        raise KeeperError(sentence("give the hand by its tiles (--hand, --win) or by value (--han, --fu, --yakuman), "
                                    "not both"))
    wins: list[dict[str, Any]] = []
    for i, w in enumerate(winners):
        d: dict[str, Any] = {"winner": w}
        if by_tiles:
            if len(hand) != len(winners) or len(win) != len(winners):
                raise KeeperError(sentence("give one --hand and one --win per winner, in the order of --ron"))
            d.update(hand=hand[i], win=win[i], melds=_names(melds[i]) if i < len(melds) else [],
                     flags=list(flags), dora=list(dora), ura=list(ura), kita=kita, flowers=flowers)
        else:
            if not (han or yakuman):
                raise KeeperError(sentence("the hand of {who}: give --hand TILES --win T, or --han H --fu F, "
                                           "or --yakuman N", who=w))
            if len(han) + len(yakuman) < len(winners):
                raise KeeperError(sentence("give --han (or --yakuman) once per winner, in the order of --ron"))
            if i < len(yakuman) and yakuman[i]:
                d["yakuman"] = yakuman[i]
            else:
                d["han"] = han[i] if i < len(han) else 0
                d["fu"] = fu[i] if i < len(fu) else 0
            d.update(yaku=list(yaku), ura_han=ura_han, closed=closed, ippatsu="ippatsu" in flags)
        wins.append(d)
    entry: dict[str, Any] = {"kind": "win", "wins": wins, "riichi": _names(riichi)}
    if from_:
        entry["from"] = from_
    if pao:
        entry["pao"] = pao
    return entry


HandOpts = dict[str, Any]


def _flags(**kw: bool) -> list[str]:
    return [k for k, v in kw.items() if v]


# ---------------------------------------------------------------------------------------------
# commands
# ---------------------------------------------------------------------------------------------

@table_app.command("new")
def new(
    rules: Annotated[str, typer.Option(help=RULES_HELP)],
    people: Annotated[str, typer.Option(help="Names in seat-draw order: who drew East, South, West (and North).")],
    series: Annotated[str | None, typer.Option(help="A series (league) this session counts in.")] = None,
    final_only: Annotated[bool, typer.Option("--final-only", help="Record only each game's final scores.")] = False,
    db: Db = None, as_json: AsJson = False, author: Author = "",
) -> None:
    """Start a kept session. Example: sanma table new --rules club --people Aki,Ben,Chie,Dan"""
    from .common import load_rules

    def act(k: Keeper) -> dict[str, Any]:
        return k.new(load_rules(rules), _names(people), series=series, mode="final" if final_only else "hands",
                     author=author)

    _write(db, as_json, act)


def _hand_command(
    session: int, ron: list[str] | None, tsumo: str | None, from_: str | None, hand: list[str] | None,
    win: list[str] | None, melds: list[str] | None, han: list[int] | None, fu: list[int] | None,
    yakuman: list[int] | None, yaku: list[str] | None, ura_han: int, closed: bool, flags: list[str],
    dora: list[str] | None, ura: list[str] | None, kita: int, flowers: int, riichi: str | None,
    pao: str | None, entry_json: str | None,
) -> dict[str, Any]:
    from ..keeper.entries import KeeperError

    if entry_json is not None:
        try:
            entry = json.loads(entry_json)
        except json.JSONDecodeError as e:
            raise KeeperError(sentence("--entry-json is not JSON: {error}", error=str(e))) from None
        if not isinstance(entry, dict):
            raise KeeperError(sentence("--entry-json must be a JSON object"))
        return entry
    return _win_entry(ron or [], tsumo, from_, hand or [], win or [], melds or [], han or [], fu or [],
                      yakuman or [], yaku or [], ura_han, closed, flags, dora or [], ura or [], kita, flowers,
                      riichi, pao)


@table_app.command("hand")
def hand_cmd(
    session: Annotated[int, typer.Argument(help="The session id.")],
    ron: Annotated[list[str] | None, typer.Option(help="Winner by ron (twice for a double ron).")] = None,
    tsumo: Annotated[str | None, typer.Option(help="Winner by tsumo.")] = None,
    from_: Annotated[str | None, typer.Option("--from", help="Who dealt in (ron).")] = None,
    hand: Annotated[list[str] | None, typer.Option(help="Concealed tiles incl. the winning tile, per winner.")] = None,
    win: Annotated[list[str] | None, typer.Option(
        help="The winning tile, per winner; 'mixed' when it went into the hand before the win was shown "
             "(scored as the lowest shape where the rules say so, P129: official).")] = None,
    melds: Annotated[list[str] | None, typer.Option(help="Melds per winner, e.g. pon:555z,ankan:9999s.")] = None,
    han: Annotated[list[int] | None, typer.Option(help="Han, per winner (by value).")] = None,
    fu: Annotated[list[int] | None, typer.Option(help="Fu, per winner (by value).")] = None,
    yakuman: Annotated[list[int] | None, typer.Option(help="Yakuman multiplier, per winner (by value).")] = None,
    yaku: Annotated[list[str] | None, typer.Option(help="By value: a yaku that earns chips (chinitsu, ...).")] = None,
    ura_han: Annotated[int, typer.Option("--ura-han", help="By value: ura dora han (chips).")] = 0,
    closed: Annotated[bool, typer.Option(help="By value: the hand was closed (chips).")] = False,
    ippatsu: bool = False, double_riichi: bool = False, open_riichi: bool = False, haitei: bool = False,
    houtei: bool = False, rinshan: bool = False, chankan: bool = False, kanburi: bool = False,
    tenhou: bool = False, chiihou: bool = False, renhou: bool = False,
    dora: Annotated[list[str] | None, typer.Option(help="Dora indicator (repeatable).")] = None,
    ura: Annotated[list[str] | None, typer.Option(help="Ura dora indicator (repeatable).")] = None,
    kita: Annotated[int, typer.Option(help="Norths pulled by the winner.")] = 0,
    flowers: Annotated[int, typer.Option(help="Flowers pulled by the winner.")] = 0,
    riichi: Names = None,
    pao: Annotated[str | None, typer.Option(help="Who is liable (pao).")] = None,
    entry_json: Annotated[str | None, typer.Option("--entry-json", help="The whole entry as JSON.")] = None,
    db: Db = None, as_json: AsJson = False, author: Author = "", reason: Reason = "", client_id: ClientId = None,
    expect_version: Expect = None, preview: Preview = False, again: Again = False,
) -> None:
    """Enter a win. Examples:
    sanma table hand 1 --ron Aki --from Ben --han 3 --fu 40 --riichi Aki;
    sanma table hand 1 --tsumo Chie --hand 123456789p99m111z --win 9m"""
    flags = _flags(ippatsu=ippatsu, double_riichi=double_riichi, open_riichi=open_riichi, haitei=haitei,
                   houtei=houtei, rinshan=rinshan, chankan=chankan, kanburi=kanburi, tenhou=tenhou,
                   chiihou=chiihou, renhou=renhou)

    def act(k: Keeper) -> dict[str, Any]:
        entry = _hand_command(session, ron, tsumo, from_, hand, win, melds, han, fu, yakuman, yaku, ura_han, closed,
                              flags, dora, ura, kita, flowers, riichi, pao, entry_json)
        return k.add(session, entry, author=author, reason=reason, client_id=client_id,
                     expected_version=expect_version, preview=preview, derive_id=True, again=again)

    _write(db, as_json, act)


@table_app.command("draw")
def draw_cmd(
    session: Annotated[int, typer.Argument(help="The session id.")],
    tenpai: Names = None, riichi: Names = None, nagashi: Names = None,
    db: Db = None, as_json: AsJson = False, author: Author = "", reason: Reason = "", client_id: ClientId = None,
    expect_version: Expect = None, preview: Preview = False, again: Again = False,
) -> None:
    """Enter an exhaustive draw. Example: sanma table draw 1 --tenpai Aki,Chie --riichi Aki"""
    entry = {"kind": "draw", "tenpai": _names(tenpai), "riichi": _names(riichi), "nagashi": _names(nagashi)}
    _write(db, as_json, lambda k: k.add(session, entry, author=author, reason=reason, client_id=client_id,
                                        expected_version=expect_version, preview=preview, derive_id=True,
                                        again=again))


@table_app.command("abort")
def abort_cmd(
    session: Annotated[int, typer.Argument(help="The session id.")],
    kind: Annotated[str, typer.Option(help="kyuushu, three_winds, four_kans, all_riichi, or riichi_bust "
                                           "(P79: club) with --riichi P.")],
    riichi: Names = None,
    db: Db = None, as_json: AsJson = False, author: Author = "", reason: Reason = "", client_id: ClientId = None,
    expect_version: Expect = None, preview: Preview = False, again: Again = False,
) -> None:
    """Enter an abortive draw. Example: sanma table abort 1 --kind kyuushu"""
    entry = {"kind": "abort", "abort": kind, "riichi": _names(riichi)}
    _write(db, as_json, lambda k: k.add(session, entry, author=author, reason=reason, client_id=client_id,
                                        expected_version=expect_version, preview=preview, derive_id=True,
                                        again=again))


@table_app.command("chombo")
def chombo_cmd(
    session: Annotated[int, typer.Argument(help="The session id.")],
    who: Annotated[str, typer.Option(help="The offender (comma-separated when several in one hand).")],
    db: Db = None, as_json: AsJson = False, author: Author = "", reason: Reason = "", client_id: ClientId = None,
    expect_version: Expect = None, preview: Preview = False, again: Again = False,
) -> None:
    """Enter a chombo, settled as the rules say (P100-P101). Example: sanma table chombo 1 --who Ben --reason 誤ロン"""
    entry = {"kind": "chombo", "who": _names(who), "reason": reason}
    _write(db, as_json, lambda k: k.add(session, entry, author=author, reason=reason, client_id=client_id,
                                        expected_version=expect_version, preview=preview, derive_id=True,
                                        again=again))


@table_app.command("penalty")
def penalty_cmd(
    session: Annotated[int, typer.Argument(help="The session id.")],
    who: Annotated[str, typer.Option(help="Who made the mistake.")],
    kind: Annotated[str, typer.Option(help="false_call, wrong_call, false_win, false_win_voice, short_hand, "
                                           "long_hand, wall_collapse, riichi_voice, riichi_cancelled, "
                                           "riichi_late or free.")],
    points: Annotated[int, typer.Option(help="A free penalty: points the person pays (to the others).")] = 0,
    chips: Annotated[int, typer.Option(help="A free penalty: chips the person pays (to the others).")] = 0,
    db: Db = None, as_json: AsJson = False, author: Author = "", reason: Reason = "", client_id: ClientId = None,
    expect_version: Expect = None, preview: Preview = False, again: Again = False,
) -> None:
    """Enter a mistake at the table, costed by the rules (P102-P106).
    Example: sanma table penalty 1 --who Ben --kind false_call"""
    entry = {"kind": "penalty", "who": who, "penalty": kind, "reason": reason, "points": points, "chips": chips}
    _write(db, as_json, lambda k: k.add(session, entry, author=author, reason=reason, client_id=client_id,
                                        expected_version=expect_version, preview=preview, derive_id=True,
                                        again=again))


@table_app.command("seat")
def seat_cmd(
    session: Annotated[int, typer.Argument(help="The session id.")],
    draw: Annotated[str | None, typer.Option(help="A new seat draw: who drew East, South, West, North.")] = None,
    dealer: Annotated[str | None, typer.Option(help="The first dealer the dice chose for the coming game.")] = None,
    db: Db = None, as_json: AsJson = False, author: Author = "", reason: Reason = "", client_id: ClientId = None,
    expect_version: Expect = None, again: Again = False,
) -> None:
    """Before a game: a new seat draw (P126, every four games) and/or the first dealer."""
    entry: dict[str, Any] = {"kind": "seating", "draw": _names(draw)}
    if dealer:
        entry["dealer"] = dealer
    _write(db, as_json, lambda k: k.add(session, entry, author=author, reason=reason, client_id=client_id,
                                        expected_version=expect_version, derive_id=True, again=again))


FinalSticks = Annotated[int, typer.Option(
    "--sticks", help="Riichi sticks left on the table at the end (P31: under official nobody takes them, so the "
                     "scores add up to less).")]
FinalChombo = Annotated[list[str] | None, typer.Option(
    "--chombo", help="Who made a chombo in the game (once per chombo): official takes 20 at the end (P100).")]
FinalBust = Annotated[list[str] | None, typer.Option("--bust", help="Who busted (P108).")]
FinalBustBy = Annotated[list[str] | None, typer.Option(
    "--bust-by", help="Who caused the bust (P110: official's +10 / -10).")]


def final_entry(scores: str, chips: str | None, sticks: int, chombo: Sequence[str] | None,
                bust: Sequence[str] | None, bust_by: Sequence[str] | None) -> dict[str, Any]:
    """The final-scores entry of `table final` and `tournament result` (their options, parsed)."""
    chombos: dict[str, int] = {}
    for p in chombo or ():
        chombos[p.strip()] = chombos.get(p.strip(), 0) + 1
    entry: dict[str, Any] = {"kind": "final", "scores": _pairs(scores, "--scores"), "chips": _pairs(chips, "--chips")}
    if sticks:
        entry["sticks"] = sticks
    if chombos:
        entry["chombos"] = chombos
    if bust:
        entry["busted"] = [p.strip() for p in bust]
    if bust_by:
        entry["busters"] = [p.strip() for p in bust_by]
    return entry


@table_app.command("rename")
def rename_cmd(
    session: Annotated[int, typer.Argument(help="The session id.")],
    from_: Annotated[str, typer.Option("--from", help="The name as it was entered (e.g. misspelt).")],
    to: Annotated[str, typer.Option("--to", help="The person's name.")],
    db: Db = None, as_json: AsJson = False, author: Author = "", reason: Reason = "", client_id: ClientId = None,
    expect_version: Expect = None,
) -> None:
    """Correct a person's name in the whole session (every entry before and after); kept in the log, undone
    like any entry. Example: sanma table rename 1 --from Aik --to Aki"""
    entry = {"kind": "rename", "from": from_, "to": to}
    _write(db, as_json, lambda k: k.add(session, entry, author=author, reason=reason, client_id=client_id,
                                        expected_version=expect_version, derive_id=True))


@table_app.command("final")
def final_cmd(
    session: Annotated[int, typer.Argument(help="The session id.")],
    scores: Annotated[str, typer.Option(help="Final scores, e.g. Aki=31000,Ben=9000,Chie=5000.")],
    chips: Annotated[str | None, typer.Option(help="Chips won in the game, e.g. Aki=6,Ben=-3,Chie=-3.")] = None,
    sticks: FinalSticks = 0, chombo: FinalChombo = None, bust: FinalBust = None, bust_by: FinalBustBy = None,
    db: Db = None, as_json: AsJson = False, author: Author = "", reason: Reason = "", client_id: ClientId = None,
    expect_version: Expect = None, preview: Preview = False, again: Again = False,
) -> None:
    """Enter one game by its final scores only (with the sticks left, chombos and busts that change the points).
    Example: sanma table final 1 --scores A=52000,B=-2000,C=70000 --bust B --bust-by C"""
    def act(k: Keeper) -> dict[str, Any]:  # the pairs are parsed inside _write: a bad one is a clean error
        entry = final_entry(scores, chips, sticks, chombo, bust, bust_by)
        return k.add(session, entry, author=author, reason=reason, client_id=client_id,
                     expected_version=expect_version, preview=preview, derive_id=True, again=again)

    _write(db, as_json, act)


def _pairs(text: str | None, what: str) -> dict[str, int]:
    from ..keeper.entries import KeeperError
    from ..keeper.notation import parse_signed

    out: dict[str, int] = {}
    for part in _names(text):
        name, sep, value = part.partition("=")
        try:
            number = parse_signed(value)  # P30: "Ben=△5000" as well as "Ben=-5000"
        except KeeperError:
            raise KeeperError(sentence("{what}: {part!r} is not NAME=NUMBER", what=what, part=part)) from None
        if not sep or not isinstance(number, int):
            raise KeeperError(sentence("{what}: {part!r} is not NAME=NUMBER", what=what, part=part))
        out[name.strip()] = number
    return out


@table_app.command("fix")
def fix_cmd(
    session: Annotated[int, typer.Argument(help="The session id.")],
    hand_no: Annotated[int, typer.Argument(help="The entry's number (as `show` lists it).")],
    delete: Annotated[bool, typer.Option(help="Delete the entry.")] = False,
    ron: Annotated[list[str] | None, typer.Option()] = None,
    tsumo: Annotated[str | None, typer.Option()] = None,
    from_: Annotated[str | None, typer.Option("--from")] = None,
    hand: Annotated[list[str] | None, typer.Option()] = None,
    win: Annotated[list[str] | None, typer.Option()] = None,
    melds: Annotated[list[str] | None, typer.Option()] = None,
    han: Annotated[list[int] | None, typer.Option()] = None,
    fu: Annotated[list[int] | None, typer.Option()] = None,
    yakuman: Annotated[list[int] | None, typer.Option()] = None,
    yaku: Annotated[list[str] | None, typer.Option()] = None,
    ura_han: Annotated[int, typer.Option("--ura-han")] = 0,
    closed: bool = False, ippatsu: bool = False, double_riichi: bool = False, open_riichi: bool = False,
    haitei: bool = False, houtei: bool = False, rinshan: bool = False, chankan: bool = False,
    kanburi: bool = False, tenhou: bool = False, chiihou: bool = False, renhou: bool = False,
    dora: Annotated[list[str] | None, typer.Option()] = None,
    ura: Annotated[list[str] | None, typer.Option()] = None,
    kita: int = 0, flowers: int = 0, riichi: Names = None,
    pao: Annotated[str | None, typer.Option()] = None,
    draw: Annotated[bool, typer.Option("--draw", help="The entry becomes an exhaustive draw (with --tenpai).")] = False,
    tenpai: Names = None, nagashi: Names = None,
    abort: Annotated[str | None, typer.Option(help="The entry becomes an abortive draw of this kind.")] = None,
    chombo: Annotated[str | None, typer.Option(help="The entry becomes this person's chombo.")] = None,
    penalty: Annotated[str | None, typer.Option(help="The entry becomes a penalty of this kind (with --who).")] = None,
    who: Annotated[str | None, typer.Option()] = None,
    points: int = 0, chips: int = 0,
    entry_json: Annotated[str | None, typer.Option("--entry-json")] = None,
    db: Db = None, as_json: AsJson = False, author: Author = "", reason: Reason = "", client_id: ClientId = None,
    expect_version: Expect = None, preview: Preview = False,
) -> None:
    """Correct or delete a past entry; everything after it is recomputed.
    Example: sanma table fix 1 3 --ron Aki --from Chie --han 2 --fu 30 --reason "it was Chie's tile\""""
    flags = _flags(ippatsu=ippatsu, double_riichi=double_riichi, open_riichi=open_riichi, haitei=haitei,
                   houtei=houtei, rinshan=rinshan, chankan=chankan, kanburi=kanburi, tenhou=tenhou,
                   chiihou=chiihou, renhou=renhou)

    def act(k: Keeper) -> dict[str, Any]:
        from ..keeper.entries import KeeperError

        entry: dict[str, Any] | None
        kinds = [delete, draw, abort is not None, chombo is not None, penalty is not None,
                 bool(ron or tsumo or entry_json)]
        if sum(kinds) != 1:
            raise KeeperError(sentence("fix: give exactly one of --delete, a win (--ron/--tsumo), --draw, "
                                       "--abort KIND, --chombo P, --penalty KIND --who P, or --entry-json",
                                       code="malformed"))
        if delete:
            entry = None
        elif draw:
            entry = {"kind": "draw", "tenpai": _names(tenpai), "riichi": _names(riichi), "nagashi": _names(nagashi)}
        elif abort is not None:
            entry = {"kind": "abort", "abort": abort, "riichi": _names(riichi)}
        elif chombo is not None:
            entry = {"kind": "chombo", "who": _names(chombo), "reason": reason}
        elif penalty is not None:
            entry = {"kind": "penalty", "who": who, "penalty": penalty, "reason": reason, "points": points,
                     "chips": chips}
        else:
            entry = _hand_command(session, ron, tsumo, from_, hand, win, melds, han, fu, yakuman, yaku, ura_han,
                                  closed, flags, dora, ura, kita, flowers, riichi, pao, entry_json)
        return k.fix(session, hand_no, entry, author=author, reason=reason, client_id=client_id,
                     expected_version=expect_version, preview=preview, derive_id=True)

    _write(db, as_json, act)


@table_app.command("undo")
def undo_cmd(
    session: Annotated[int, typer.Argument(help="The session id.")],
    change: Annotated[int | None, typer.Option(help="Undo this change of the log (default: the last edit); "
                                                    "undoing an undo redoes.")] = None,
    db: Db = None, as_json: AsJson = False, author: Author = "", reason: Reason = "", client_id: ClientId = None,
    expect_version: Expect = None,
) -> None:
    """Undo the last change (or any change of the log, `sanma table log`); kept in the log."""
    _write(db, as_json, lambda k: k.undo(session, change, author=author, reason=reason, client_id=client_id,
                                         expected_version=expect_version))


@table_app.command("show")
def show_cmd(session: Annotated[int, typer.Argument(help="The session id.")], db: Db = None,
             as_json: AsJson = False,
             last: Annotated[int | None, typer.Option(help="Only the last N entries (default: all).")] = None) -> None:
    """The session: the game in play, scores, chips, every entry with its payments, each finished game's
    settlement line by line, the chombos and penalties, the standings."""
    with cli_errors(), _session(db) as k:
        if last is not None and last < 0:
            from ..keeper.entries import KeeperError

            raise KeeperError(sentence("--last {last}: give a number of entries, 0 or more", last=last))
        state = k.state(session)
    _print(state, as_json, full=True, last=last)


@table_app.command("penalties")
def penalties_cmd(session: Annotated[int, typer.Argument(help="The session id.")], db: Db = None,
                  as_json: AsJson = False) -> None:
    """Every chombo and penalty of the session with what it cost (points and chips then, rank points at
    the game's end), for a referee."""
    with cli_errors(), _session(db) as k:
        state = k.state(session)
    if as_json:
        typer.echo(json.dumps({"session": session, "penalties": state["penalties"]}, ensure_ascii=False))
        return
    from ..keeper.keeper import in_words, render_penalties

    typer.echo("\n".join(render_penalties(in_words(state, current_lang())["penalties"], state["notation"]))
               or tr("no chombo and no penalty"))


@table_app.command("links")
def links_cmd(session: Annotated[int, typer.Argument(help="The session id.")], db: Db = None,
              as_json: AsJson = False) -> None:
    """New links to the session's page in `sanma serve`: the organiser's (enters and corrects hands)
    and a read-only one. The links it gave before stop working (only their hashes are kept)."""
    from ..store import access
    from ..web.keeper import KIND, ROLES, links

    with cli_errors(), _session(db) as k:
        k.state(session)  # an unknown session is refused before anything is written
        master = access.issue(k.store, KIND, str(session), ROLES)
    out = links(access.Grant(KIND, str(session), access.ORGANISER), master)
    if as_json:
        typer.echo(json.dumps({"session": session, "links": out}))
        return
    words = {"organiser": tr("organiser"), "read": tr("read")}
    for role, path in out.items():
        typer.echo(f"{words.get(role, role):<10} {path}")
    typer.echo(tr("(paths on the server: http://HOST:PORT/keeper/...; keep the organiser's link to yourself)"))


@table_app.command("log")
def log_cmd(session: Annotated[int, typer.Argument(help="The session id.")], db: Db = None,
            as_json: AsJson = False) -> None:
    """Every change ever made to the session: who, when, what, why."""
    with cli_errors(), _session(db) as k:
        log = k.log(session)
    if as_json:
        typer.echo(json.dumps({"session": session, "changes": log}, ensure_ascii=False))
        return
    for c in log:
        what = c["kind"] + (f" {c['target']}" if c["target"] is not None else "")
        entry = json.dumps(c["entry"], ensure_ascii=False) if c["entry"] else ""
        typer.echo(f"{c['seq']:>4} {c['at']} {c['author'] or '-':<10} {what:<10} {entry} {c['reason']}".rstrip())


@table_app.command("standings")
def standings_cmd(
    session: Annotated[int | None, typer.Argument(help="The session id (or --series).")] = None,
    series: Annotated[str | None, typer.Option(help="Every session of this series together.")] = None,
    store_games: Annotated[bool, typer.Option("--store-games", help="Also count the database's games (imported "
                                              "records, games sanma played) among these people.")] = False,
    web_games: Annotated[bool, typer.Option("--web-games", help="Also count the games these people played at "
                                            "sanma's browser table (sanma serve), by their seat names.")] = False,
    alias: Annotated[list[str] | None, typer.Option(
        help="NAME=PERSON: a stored game's player NAME (a Tenhou or Mahjong Soul account, a seat name) is "
             "PERSON; repeat for each name.")] = None,
    db: Db = None, as_json: AsJson = False,
) -> None:
    """Per person: games, points, chips, placements (a session or a whole series)."""
    with cli_errors(), _session(db) as k:
        from ..keeper.entries import KeeperError

        if (session is None) == (series is None):
            raise KeeperError(sentence("give a session id or --series NAME"))
        aliases: dict[str, str] = {}
        for a in alias or ():
            name, sep, person = a.partition("=")
            if not sep or not name.strip() or not person.strip():
                raise KeeperError(sentence("--alias {alias!r}: give NAME=PERSON, e.g. --alias 'akiko_t=Aki'", alias=a))
            aliases[name.strip()] = person.strip()
        out = k.standings(session, series, store_games=store_games, web_games=web_games, aliases=aliases)
    if as_json:
        typer.echo(json.dumps(out, ensure_ascii=False))
        return
    from ..keeper.keeper import render_standings

    for name in out["unused_aliases"]:
        typer.echo(tr("note: --alias {name}={person}: nobody is called {name} in these games", name=name,
                       person=aliases[name]), err=True)
    typer.echo(render_standings(out["standings"], out["notation"]))


@table_app.command("export")
def export_cmd(
    session: Annotated[int, typer.Argument(help="The session id.")],
    csv: Annotated[bool, typer.Option("--csv", help="CSV: one row per hand and person.")] = False,
    db: Db = None,
) -> None:
    """Export a session: JSON (re-importable with `import`) or CSV."""
    with cli_errors(), _session(db) as k:
        text = k.export_csv(session) if csv else json.dumps(k.export(session), ensure_ascii=False, indent=1)
    typer.echo(text, nl=not text.endswith("\n"))


@table_app.command("import")
def import_cmd(
    file: Annotated[Path, typer.Argument(help="A file written by `sanma table export ID` (JSON), or by "
                                             "`export ID --csv` (then give --rules).")],
    rules: Annotated[str | None, typer.Option(help="For a CSV: the preset or rule file its games were played "
                                                   "under (the file's points are checked against it).")] = None,
    series: Annotated[str | None, typer.Option(help="For a CSV: a series (league) the new session counts in.")] = None,
    db: Db = None, as_json: AsJson = False,
) -> None:
    """Import an exported session as a new session.

    A JSON export is replayed change by change and checked. A CSV export holds each game's final
    scores, not its hands: it becomes a "final scores only" session under --rules, and every game's
    ranks, points and chips must come out as the file has them, or nothing is stored.
    """
    from ..keeper.entries import KeeperError
    from .common import load_rules

    with cli_errors(), _session(db) as k:
        try:
            text = file.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as e:
            raise KeeperError(sentence("{file}: cannot read it: {error}", file=str(file),
                                       error=str(e))) from None
        if file.suffix.lower() == ".csv":
            if rules is None:
                raise KeeperError(sentence("{file}: a CSV export names no rules: give --rules PRESET|FILE",
                                           file=str(file)))
            state = k.import_csv(text, load_rules(rules), series=series)
        else:
            if rules is not None or series is not None:
                raise KeeperError(sentence("{file}: a JSON export carries its own rules and series; --rules/--series "
                                           "are for a CSV", file=str(file)))
            try:
                data = json.loads(text)
            except json.JSONDecodeError as e:
                raise KeeperError(sentence("{file}: not a sanma table export: {error}", file=str(file),
                                           error=str(e))) from None
            state = k.import_session(data)
    _print(state, as_json)


@table_app.command("backup")
def backup_cmd(
    out: Annotated[str, typer.Argument(help="The copy to write (must not exist).")],
    db: Db = None,
) -> None:
    """A consistent copy of a live database, as a new SQLite file (SQLite's backup API; a PostgreSQL
    database is copied from one snapshot, as sanma db copy does)."""
    from ..store import open_db
    from ..store.keeper import backup

    with cli_errors():
        store = open_db(db)
        try:
            backup(store, out)
        finally:
            store.close()
    typer.echo(tr("backed up {source} to {out}", source=store.path, out=out))
