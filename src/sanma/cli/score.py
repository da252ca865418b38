"""``sanma score`` and ``sanma shanten``."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Annotated

import typer

from ..errors import HandError, ScoringError
from ..i18n.messages import sentence
from ..rules import Rules
from ..scoring import Score, score_hand
from ..tiles import parse_tiles, to_mpsz
from .common import RULES_HELP, cli_errors, load_rules

Wind = Annotated[str, typer.Option(help="E, S or W.")]


def _meld(kind: str, text: str) -> str:
    """``--pon 5z`` / ``--pon 555z`` → ``pon:555z``; ``--kan 1p`` → ``kan:1111p``."""
    tiles = parse_tiles(text)
    size = 3 if kind == "pon" else 4
    if len(tiles) == 1:
        tiles = tiles * size
    if len(tiles) != size:
        raise HandError(sentence("--{kind} {text!r}: give one tile or all {size}",
                                 kind=kind, text=text, size=size))
    return f"{kind}:{to_mpsz(tiles)}"


def score(
    hand: Annotated[str, typer.Argument(help="Concealed tiles incl. the winning tile, e.g. 123456789p99m111z.")],
    win: Annotated[str, typer.Option("--win", help="The winning tile, e.g. 9m.")],
    tsumo: Annotated[bool, typer.Option(help="Won by self-draw (default: ron).")] = False,
    riichi: Annotated[bool, typer.Option(help="The winner declared riichi.")] = False,
    double_riichi: Annotated[bool, typer.Option(help="Riichi on the first discard.")] = False,
    open_riichi: Annotated[bool, typer.Option(help="Open riichi (club rules).")] = False,
    ippatsu: Annotated[bool, typer.Option(help="Won within one go-around of riichi.")] = False,
    haitei: Annotated[bool, typer.Option(help="Tsumo on the last tile of the wall.")] = False,
    houtei: Annotated[bool, typer.Option(help="Ron on the last discard.")] = False,
    rinshan: Annotated[bool, typer.Option(help="Tsumo on a replacement tile after a kan/kita.")] = False,
    chankan: Annotated[bool, typer.Option(help="Ron on a tile added to a kan.")] = False,
    kanburi: Annotated[bool, typer.Option(help="Ron on the discard right after a kan (club).")] = False,
    tenhou: Annotated[bool, typer.Option(help="Dealer's win on the deal.")] = False,
    chiihou: Annotated[bool, typer.Option(help="Non-dealer's tsumo on the first draw.")] = False,
    renhou: Annotated[bool, typer.Option(help="Ron before one's first draw.")] = False,
    seat: Wind = "E",
    round_: Annotated[str, typer.Option("--round", help="Round wind: E, S or W.")] = "E",
    from_: Annotated[str | None, typer.Option("--from", help="Discarder's seat wind for a ron.")] = None,
    dora: Annotated[list[str] | None, typer.Option(help="Dora indicator (repeatable).")] = None,
    ura: Annotated[list[str] | None, typer.Option(help="Ura dora indicator (repeatable).")] = None,
    kita: Annotated[int, typer.Option(help="Norths pulled as nuki dora.")] = 0,
    flowers: Annotated[int, typer.Option(help="Flowers pulled (kansai).")] = 0,
    honba: Annotated[int, typer.Option(help="Honba sticks (repeat counters).")] = 0,
    kyotaku: Annotated[int, typer.Option(help="Riichi sticks on the table.")] = 0,
    pon: Annotated[list[str] | None, typer.Option(help="A pon, e.g. 5z or 555z (repeatable).")] = None,
    kan: Annotated[list[str] | None, typer.Option(help="An open kan, e.g. 1p (repeatable).")] = None,
    ankan: Annotated[list[str] | None, typer.Option(help="A concealed kan, e.g. 9s (repeatable).")] = None,
    rules: Annotated[str, typer.Option(help=RULES_HELP)] = "tenhou",
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Score a winning hand: yaku with han, fu breakdown, limit and payments by seat.

    Example: sanma score 123456789p99m111z --win 9m --riichi --seat S --from W --rules tenhou

    Exit status: 0 for a win, 1 when the hand is not a win (incomplete, no yaku, too few han),
    2 for bad input.
    """
    with cli_errors():
        rule_set = load_rules(rules)
        s = score_request(
            hand, win, rules=rule_set, pon=pon or (), kan=kan or (), ankan=ankan or (), seat=seat,
            round_=round_, from_=from_, dora=dora or (), ura=ura or (), kita=kita, flowers=flowers,
            honba=honba, kyotaku=kyotaku, tsumo=tsumo, riichi=riichi, double_riichi=double_riichi,
            open_riichi=open_riichi, ippatsu=ippatsu, haitei=haitei, houtei=houtei, rinshan=rinshan,
            chankan=chankan, kanburi=kanburi, tenhou=tenhou, chiihou=chiihou, renhou=renhou,
        )
    if as_json:
        typer.echo(json.dumps(score_json(s, rule_set), ensure_ascii=False))
    else:
        print_score(s, rule_set.name, honba=honba, kyotaku=kyotaku, deposit=rule_set.riichi_deposit,
                    winner=seat.upper())


# The situation flags of ``sanma score`` (booleans), in the order of its options; the web
# calculator offers exactly these.
FLAGS: tuple[str, ...] = ("tsumo", "riichi", "double_riichi", "open_riichi", "ippatsu", "haitei", "houtei",
                          "rinshan", "chankan", "kanburi", "tenhou", "chiihou", "renhou")


def flag_help() -> dict[str, str]:
    """Each situation flag's help text, as ``sanma score --help`` shows it."""
    from typing import get_type_hints

    hints = get_type_hints(score, include_extras=True)
    out: dict[str, str] = {}
    for name in FLAGS:
        option = next(m for m in hints[name].__metadata__ if isinstance(m, typer.models.OptionInfo))
        out[name] = str(option.help)
    return out


def score_request(
    hand: str, win: str, *, rules: Rules, pon: Iterable[str] = (), kan: Iterable[str] = (),
    ankan: Iterable[str] = (), seat: str = "E", round_: str = "E", from_: str | None = None,
    dora: Iterable[str] = (), ura: Iterable[str] = (), kita: int = 0, flowers: int = 0, honba: int = 0,
    kyotaku: int = 0, **flags: bool,
) -> Score:
    """``sanma score``'s options → ``score_hand`` (melds given as ``--pon 5z`` etc.); ``flags`` are ``FLAGS``."""
    unknown = sorted(set(flags) - set(FLAGS))
    if unknown:
        raise HandError(sentence("unknown situation flag {unknown!r}; the flags are: {items}",
                                 unknown=unknown[0], items=', '.join(FLAGS)))
    ura = tuple(ura)
    if ura and not (flags.get("riichi") or flags.get("double_riichi") or flags.get("open_riichi")):
        raise ScoringError(sentence("--ura {items} without --riichi: ura dora count only for a riichi winner",
                                    items=' '.join(ura)))
    melds = [_meld("pon", t) for t in pon]
    melds += [_meld("kan", t) for t in kan]
    melds += [_meld("ankan", t) for t in ankan]
    return score_hand(
        hand, win=win, melds=melds, seat_wind=seat, round_wind=round_, discarder_wind=from_,
        dora_indicators=tuple(dora), ura_indicators=tuple(ura), kita=kita, flowers=flowers, honba=honba,
        kyotaku=kyotaku, rules=rules, **flags,
    )


def score_json(s: Score, rules: Rules) -> dict[str, object]:
    """The object ``sanma score --json`` prints."""
    return {"rules": rules.name, **s.to_json()}


def print_score(s: Score, rules_name: str, *, honba: int = 0, kyotaku: int = 0, deposit: int = 1000,
                winner: str | None = None) -> None:
    """Readable result in a player's words (the words ``sanma play`` uses): yaku table, fu
    breakdown, value and payments, the winner's honba (P43, P44) and riichi sticks (P48) apart."""
    from rich.cells import cell_len
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    from ..i18n import current_lang, fu_line, term_name, tr, wind_short

    lang = current_lang()
    con = Console(highlight=False, markup=False)  # a rule set's name is never markup (issue 14 item 11)
    how = term_name("result", "tsumo" if s.tsumo else "ron", lang)
    title = tr("{how} — {rules} rules", how=how, rules=rules_name)
    t = Table(title=title, show_header=True, min_width=cell_len(title) + 2)  # the title on one line
    t.add_column(tr("yaku"))
    t.add_column(tr("han"), justify="right")
    for y in s.yaku:
        t.add_row(Text(term_name("yaku", y.name, lang)), tr("yakuman ×{n}", n=y.yakuman) if y.yakuman else str(y.han))
    con.print(t)
    if s.yakuman and not s.kazoe:
        value = tr("{n}× yakuman", n=s.yakuman)
    else:
        limit = f" ({term_name('limit', s.limit, lang)})" if s.limit else ""
        value = tr("{han} han {fu} fu", han=s.han, fu=s.fu) + limit
    line = Text(value, style="bold")
    line.append(" " + tr("→ {points:,} points", points=s.total) + (" " + tr("(dealer)") if s.dealer else ""))
    con.print(line)
    if s.fu_breakdown and not s.yakuman:
        raw = sum(fu for _, fu in s.fu_breakdown)
        parts = " + ".join(f"{fu_line(line, lang)} {fu}" for line, fu in s.fu_breakdown)
        con.print(tr("fu: {parts} = {raw}", parts=parts, raw=raw)
                  + (tr(", rounded up to {fu}", fu=s.fu) if raw != s.fu else ""))
    if winner is not None and (honba or kyotaku):
        gain = s.deltas.get(winner, 0)
        sticks = kyotaku * deposit
        items = [tr("hand {points:,}", points=s.total)]
        if honba:
            items.append(tr("{n} honba {points:,}", n=honba, points=gain - s.total - sticks))
        if kyotaku:
            items.append(tr("{n} riichi stick(s) {points:,}", n=kyotaku, points=sticks))
        con.print(tr("{winner} receives {gain:+,} = {items}", winner=wind_short(winner, lang), gain=gain,
                     items=" + ".join(items)))
    payments = ", ".join(f"{wind_short(w, lang)} {d:+,}" for w, d in s.deltas.items())
    con.print(tr("payments: {payments}", payments=payments))


def shanten_cmd(
    hand: Annotated[str, typer.Argument(help="13 or 14 tiles (fewer with calls), e.g. 19m19p19s1234567z.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
) -> None:
    """Shanten number of a hand: -1 complete, 0 tenpai, 1 one tile away, ...

    Example: sanma shanten 19m19p19s1234567z
    """
    from ..shanten_table import shanten

    with cli_errors():
        n = shanten(hand)
    if as_json:
        typer.echo(json.dumps({"hand": hand, "shanten": n}))
    else:
        from ..i18n import tr

        label = tr("complete") if n == -1 else tr("tenpai") if n == 0 else tr("{n}-shanten", n=n)
        typer.echo(f"{n} ({label})")


def register(app: typer.Typer) -> None:
    app.command("score")(score)
    app.command("shanten")(shanten_cmd)
