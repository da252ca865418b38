import os
import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while the command line loads: no traceback
    print("interrupted before the command started: nothing was done", file=sys.stderr, flush=True)
    os._exit(130)  # not sys.exit: see sanma.cli._exit_interrupted

main()
