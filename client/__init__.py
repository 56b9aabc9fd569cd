"""Chronicle's browser front end, run by Brython: pages, networking and SVG boards.

It imports ``events/`` unchanged to fold envelopes and to hint legal moves. BRYTHON.md's rules
hold here too: no ``typing``, ``dataclasses``, ``enum``, ``random``, ``functools`` or
``collections`` at run time, because every module imported costs compile time on page load.
``server/bundle.py`` packs this package and ``events`` into one script; docs/client.md explains.
"""
