"""Replay re-deals Tenhou walls from the record's shuffle seed (issue 4 item 3, FORMAT.md §8)."""

from __future__ import annotations

import re

from sanma.formats import read_mjlog
from sanma.replay import replay_record
from shared_data import data_path


def test_mjlogs_carry_their_seed_and_replay_on_re_dealt_walls() -> None:
    for path in sorted(data_path("tenhou_mjlog").glob("*.xml")):
        record = read_mjlog(path)
        assert record.shuffle_seed or any(record.kyoku_seeds), path.name
        result = replay_record(record)
        assert any("re-dealt" in n for n in result.notes)
        assert result.mismatches == [] and result.matched == result.kyoku == len(record.kyoku)


def test_a_tampered_seed_deals_other_tiles_and_every_difference_is_reported() -> None:
    text = data_path("tenhou_mjlog", "2018110809gm-00b9-0000-00a79b89.xml").read_text()
    seed = re.search(r'<SHUFFLE seed="mt19937ar-sha512-n288-base64,([^"]+)"', text)
    assert seed is not None
    b64 = seed.group(1)
    flipped = ("B" if b64[10] == "A" else "A").join((b64[:10], b64[11:]))
    record = read_mjlog(text.replace(b64, flipped), source="tampered.xml")
    result = replay_record(record)
    assert result.mismatches, "a different seed must deal different tiles"
    assert result.matched < result.kyoku
