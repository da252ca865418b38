"""The score keeper for games played on a physical table (``sanma table ...``).

People enter each hand's *outcome*; the keeper advances the game with the same settlement and
flow code as the engine (:mod:`sanma.game.payout`, :mod:`sanma.game.flow`) and keeps every entry
in an append-only log (:mod:`sanma.table.log`, stored by :mod:`sanma.store.keeper`), so any past
hand can be corrected and everything after it is recomputed. Seed 000's series rules (four people
at a three-player table) are in :mod:`sanma.table.series`. See docs/KEEPER.md.
"""
