"""Gloomhaven's monster-turn trace in the reader's language (issue 17).

The destinations a monster weighed (GH-C8, GH-C9) come in the ``MonsterTurnPlanned`` event with
step names and details that ``events/games/gloomhaven/focus.py`` writes in English (the event is the
same in every language). Their words come from fixed lists (``C8_STEPS``, ``C9_STEPS``,
``STOP_STEPS``, ``LABELS``), so the page says them in its language: a step by the catalogue key
``gh.step.<English step>``, each compared value's name by ``gh.label.<name>``; anything the
catalogue lacks is shown as written. Pure Python over ``client.i18n``: tested in CPython.
"""

from __future__ import annotations

from client.i18n import t, word

TIED = ": tied, the players choose (GH-C11)"
AREA = " (area, GH-C10)"
LABELS = ("extras at disadvantage", "negative on the route", "negative/movement", "disadvantage", "movement now",
          "path left", "movement", "targets", "group", "value")


def trace_step(step: str) -> str:
    """``GH-C8 (2) most targets (area, GH-C10): tied, the players choose (GH-C11)`` in the reader's words."""
    tied = step.endswith(TIED)
    base = step[: -len(TIED)] if tied else step
    area = base.endswith(AREA)
    base = base[: -len(AREA)] if area else base
    text = word("gh.step.", base)
    if area:
        text = t("gh.step_area", step=text)
    return t("gh.step_tied", step=text) if tied else text


def trace_detail(detail: str) -> str:
    """``targets 1; movement 2 (best: targets 2; movement 3)`` (``focus._detail``) in the reader's words."""
    if detail.startswith("enters ") and "; " in detail:  # GH-C4: "enters 2 negative hex(es); 0 is the fewest"
        first, _, rest = detail.partition("; ")
        count, fewest = first.split(" ")[1], rest.split(" ")[0]
        if count.isdigit():
            return t("gh.detail_negative", n=int(count), fewest=fewest)
        return detail
    main, _, best = detail.partition(" (best: ")
    text = _scores(main)
    return t("gh.detail_best", scores=text, best=_scores(best[:-1])) if best.endswith(")") else text


def _scores(text: str) -> str:
    parts = []
    for part in text.split("; "):
        label = next((name for name in LABELS if part.startswith(name + " ")), None)
        if label is None:
            parts.append(part)
            continue
        value = part[len(label) + 1:]
        parts.append(word("gh.label.", label) + " " + (word("gh.value.", value) if value in ("yes", "no", "none") else value))
    return "; ".join(parts)
