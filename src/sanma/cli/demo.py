"""``sanma demo``: a short tour — a few hands scored under every preset, side by side."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..errors import SanmaError
from ..i18n import current_lang, describe, term_name, tr, wind_short
from ..i18n.messages import Message, in_words, sentence
from ..rules import Rules
from ..scoring import score_hand

EXAMPLES: tuple[tuple[Message, dict[str, object]], ...] = (
    (sentence("Riichi ittsu, ron from West"), dict(hand="123456789p99m111z", win="9m", riichi=True, seat_wind="S",
                                                   discarder_wind="W")),
    (sentence("Pinfu tsumo, non-dealer"), dict(hand="234p789p123s789s11m", win="4p", tsumo=True, seat_wind="S")),
    (sentence("Seven pairs ron"), dict(hand="1199m3355p2277s66z", win="6z", seat_wind="W", discarder_wind="E")),
    (sentence("Open honitsu with a white pon"), dict(hand="123345p999p11z", win="1z", melds=("pon:555z",),
                                                     tsumo=True, seat_wind="E")),
    (sentence("North triplet: yakuhai, guest wind or kita?"), dict(hand="444z123p456p789s11s", win="1s", tsumo=True,
                                                                   seat_wind="S")),
)


def demo() -> None:
    """Score a few example hands under every preset and show how the rule sets differ."""
    con = Console()
    lang = current_lang()
    words = in_words(lang)
    presets = Rules.presets()
    for title, kw in EXAMPLES:
        table = Table(title=tr("{title}: {hand} win {win}", title=title, hand=kw["hand"], win=kw["win"]),
                      title_justify="left")
        table.add_column(tr("preset"))
        table.add_column(tr("yaku"))
        table.add_column(tr("value"), justify="right")
        table.add_column(tr("payments"))
        for name in presets:
            try:
                s = score_hand(rules=Rules.preset(name), **kw)  # type: ignore[arg-type]
            except SanmaError as e:
                params = e.message.params if isinstance(e.message, Message) else {}
                why = params.get("problem", params.get("reason"))  # the why, without the hand it names
                table.add_row(name, Text(why.text() if isinstance(why, Message) else describe(e), style="red"), "", "")
                continue
            yaku = ", ".join(f"{term_name('yaku', y.name, lang) if words else y.name} "
                             + (f"×{y.yakuman}" if y.yakuman else str(y.han)) for y in s.yaku)
            value = (tr("{han}h {fu}fu {points:,}", han=s.han, fu=s.fu, points=s.total) if not s.yakuman
                     else tr("yakuman {points:,}", points=s.total))
            table.add_row(name, yaku, value, " ".join(f"{wind_short(w, lang)}{d:+,}" for w, d in s.deltas.items()))
        con.print(table)
    con.print(tr("Next: [bold]sanma score --help[/bold], [bold]sanma rules list[/bold]."))


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)
