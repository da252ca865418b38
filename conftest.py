"""pytest set-up for the whole checkout (tests/ and the doctests in src/sanma)."""

import os

# The doctests of src/sanma run on the modules `import sanma` really loads: with the mypyc build
# (sanma/_accel.py) those live in src/sanma/_compiled, which pytest would refuse as a file mismatch.
os.environ["PY_IGNORE_IMPORTMISMATCH"] = "1"

# The suite speaks English whatever the machine's locale (a Japanese LANG would otherwise change
# every sentence a test reads); tests of the other language ask for it (--lang ja, SANMA_LANG).
os.environ["SANMA_LANG"] = "en"
os.environ.pop("SANMA_PSEUDO", None)
