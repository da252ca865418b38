"""``sanma demo``: a short tour — a few hands scored under every preset, side by side."""

from __future__ import annotations

import typer
from rich.console import Console
from rich.table import Table
from rich.text import Text

from ..errors import SanmaError
from ..rules import Rules
from ..scoring import score_hand

EXAMPLES: tuple[tuple[str, dict[str, object]], ...] = (
    ("Riichi ittsu, ron from West", dict(hand="123456789p99m111z", win="9m", riichi=True, seat_wind="S",
                                         discarder_wind="W")),
    ("Pinfu tsumo, non-dealer", dict(hand="234p789p123s789s11m", win="4p", tsumo=True, seat_wind="S")),
    ("Seven pairs ron", dict(hand="1199m3355p2277s66z", win="6z", seat_wind="W", discarder_wind="E")),
    ("Open honitsu with a white pon", dict(hand="123345p999p11z", win="1z", melds=("pon:555z",),
                                          tsumo=True, seat_wind="E")),
    ("North triplet: yakuhai, guest wind or kita?", dict(hand="444z123p456p789s11s", win="1s", tsumo=True,
                                                         seat_wind="S")),
)


def demo() -> None:
    """Score a few example hands under every preset and show how the rule sets differ."""
    con = Console()
    presets = Rules.presets()
    for title, kw in EXAMPLES:
        table = Table(title=f"{title}: {kw['hand']} win {kw['win']}", title_justify="left")
        table.add_column("preset")
        table.add_column("yaku")
        table.add_column("value", justify="right")
        table.add_column("payments")
        for name in presets:
            try:
                s = score_hand(rules=Rules.preset(name), **kw)  # type: ignore[arg-type]
            except SanmaError as e:
                table.add_row(name, Text(str(e).split(": ", 1)[-1], style="red"), "", "")
                continue
            yaku = ", ".join(f"{y.name} ×{y.yakuman}" if y.yakuman else f"{y.name} {y.han}" for y in s.yaku)
            value = f"{s.han}h {s.fu}fu {s.total:,}" if not s.yakuman else f"yakuman {s.total:,}"
            table.add_row(name, yaku, value, " ".join(f"{w}{d:+,}" for w, d in s.deltas.items()))
        con.print(table)
    con.print("Next: [bold]sanma score --help[/bold], [bold]sanma rules list[/bold].")


def register(app: typer.Typer) -> None:
    app.command("demo")(demo)
