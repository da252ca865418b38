"""Issue 24 item 5: the catalogues are compiled as part of the build — a wheel built by pip from the
sources (no ``make``) carries each language's ``sanma.mo``, and sanma reads Japanese from it.

The wheel is built as ``pip install .`` builds it: in an isolated environment with the build
requirements of pyproject.toml (setuptools, Babel) from the package index.
"""

from __future__ import annotations

import gettext
import io
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from sanma.i18n.messages import LOCALE_DIR

ROOT = Path(__file__).resolve().parent.parent
MO = "sanma/i18n/locale/{lang}/LC_MESSAGES/sanma.mo"


@pytest.mark.slow
def test_a_wheel_built_from_the_sources_speaks_japanese(tmp_path: Path) -> None:
    langs = sorted(p.parent.parent.name for p in LOCALE_DIR.glob("*/LC_MESSAGES/sanma.po"))
    assert "ja" in langs
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
                           capture_output=True, text=True, timeout=600)
    assert build.returncode == 0, build.stdout + build.stderr
    (wheel,) = tmp_path.glob("sanma-*.whl")
    with zipfile.ZipFile(wheel) as z:
        for lang in langs:
            catalogue = gettext.GNUTranslations(io.BytesIO(z.read(MO.format(lang=lang))))
            with (LOCALE_DIR / lang / "LC_MESSAGES" / "sanma.po").open("rb") as f:
                po = read_po(f)
            translated = [(m.id if not m.context else f"{m.context}\x04{m.id}", m.string) for m in po
                          if isinstance(m.id, str) and m.id and m.string and not m.fuzzy]
            assert len(translated) > 1000
            # every translated sentence of the .po reads back from the wheel's .mo
            for key, words in translated:
                assert catalogue.gettext(key) == words, key
    assert gettext.GNUTranslations(io.BytesIO(zipfile.ZipFile(wheel).read(MO.format(lang="ja")))).gettext(
        "no hand in it") == "局がありません"
