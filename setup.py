"""The build's one step beyond pyproject.toml: the message catalogues (issue 24 item 5).

Each language's ``sanma.po`` (in git) is compiled with Babel into the ``sanma.mo`` that sanma reads,
inside the built package, so a plain ``pip install .`` (or a wheel) speaks Japanese as ``make install``
does. Untranslated or fuzzy entries fall back to English, as ``tools/messages.py compile`` has them.
"""

from __future__ import annotations

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

LOCALE = Path("src/sanma/i18n/locale")


class BuildPyWithCatalogues(build_py):
    """``build_py`` that also writes ``i18n/locale/LANG/LC_MESSAGES/sanma.mo`` into the build."""

    def run(self) -> None:
        super().run()
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for po in sorted(LOCALE.glob("*/LC_MESSAGES/sanma.po")):
            target = Path(self.build_lib) / po.relative_to("src").with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with po.open("rb") as f:
                catalogue = read_po(f)
            with target.open("wb") as f:
                write_mo(f, catalogue, use_fuzzy=False)


setup(cmdclass={"build_py": BuildPyWithCatalogues})
