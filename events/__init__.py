"""Chronicle's functional core: records, rules, dice, replay and the games.

Everything under ``events/`` is pure and standard-library only, so the browser (Brython) imports
it unchanged and folds the very same events with the very same reducers as the server.
Submodules are imported explicitly (``from events import log``); this file imports nothing, so a
page pays only for what it uses.
"""
