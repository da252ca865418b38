"""The server's pages (``sanma serve``): the score keeper's router is :mod:`sanma.web.keeper`."""
