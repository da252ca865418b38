"""The score keeper for games played on a physical table (``sanma table ...``).

People enter each hand's *outcome*; the keeper advances the game with the same settlement and
flow code as the engine (:mod:`sanma.game.payout`, :mod:`sanma.game.flow`) and keeps every entry
in an append-only log (:mod:`sanma.keeper.log`, stored by :mod:`sanma.store.keeper`), so any past
hand can be corrected and everything after it is recomputed. Seed 000's series rules (four people
at a three-player table) are in :mod:`sanma.keeper.series`. See docs/KEEPER.md.

The package is ``keeper`` (it was ``sanma.table``): in the code a "table" is a served game
(:mod:`sanma.web.tables`) or a bot's score situation; the command stays ``sanma table``.
"""
