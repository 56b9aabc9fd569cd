"""An error of ours in the reader's words (issue 17): a ``LogError`` naming a seq, a ``DecodeError``
with a ``$`` path, a JSON text that does not parse, said as the seq, the path or the line and column,
and a translated kind of fault (``fault.*``). The exception's own English text is kept only as a
tooltip on a mark marked ``lang="en"`` (``add_detail``), never inside a translated sentence.

Pure but for ``add_detail`` (which builds one element); ``fault_words`` runs in CPython too.
"""

from __future__ import annotations

from client.i18n import t

# A fault's kind, found in our own messages (events/log.py, events/record.py): the first that matches.
KINDS = (
    ("the log has a gap", "fault.kind.gap"),
    ("does not match", "fault.kind.hash"),
    ("SecretRevealed", "fault.kind.secret"),
    ("the stored secret", "fault.kind.secret"),
    ("GameStarted", "fault.kind.start"),
    ("RulesVersionChanged", "fault.kind.version"),
    ("is missing field", "fault.kind.missing_field"),
    ("has no field", "fault.kind.extra_field"),
    ("unknown field", "fault.kind.extra_field"),
    ("floats are not allowed", "fault.kind.float"),
    ("unknown", "fault.kind.unknown"),
    # a scenario's faults, as the server words them (events/validate.py, each game's board.py and rules.py)
    ("could be locked for ever in a battle", "fault.kind.endless_battle"),
    ("at most", "fault.kind.too_large"),
    ("<=", "fault.kind.too_large"),
    ("expected", "fault.kind.wrong_type"),
)


def _number_after(text: str, word: str) -> int | None:
    """The whole number right after ``word`` in ``text`` (no ``re``: it costs a Brython page ~0.5 s)."""
    at = text.find(word)
    if at < 0:
        return None
    digits = ""
    for char in text[at + len(word):]:
        if not char.isdigit():
            break
        digits += char
    return int(digits) if digits else None


def _path(text: str) -> str | None:
    """The ``$`` path (or ``line N…``) a message of ours starts with, before its first colon."""
    head = text.split(":", 1)[0] if ":" in text else ""
    if head.startswith("$") and " " not in head:
        return head
    if head.startswith("line ") and _number_after(head, "line ") is not None and " " not in head[5:]:
        return head
    return None


def fault_kind(text: str, rule: object = None) -> str:
    """The kind of fault ``text`` (an error's English) says, in the reader's language."""
    if rule:  # a logged undo that breaks its clause (CORE-4 to CORE-6)
        return t("fault.kind.undo", rule=str(rule))
    for part, key in KINDS:
        if part in text:
            return t(key)
    return t("fault.kind.other")


def fault_words(error: object) -> str:
    """``error`` in the reader's words: where it is (a seq, a ``$`` path, a line and column) and
    what kind of fault it is; an error of no known shape is said as a fault of the data."""
    text = str(error)
    rule = getattr(error, "rule", None)
    seq = _number_after(text, "seq ") if text.startswith("seq ") else None
    if seq is not None:
        return t("fault.at_seq", seq=seq, kind=fault_kind(text.split(":", 1)[-1], rule))
    path = _path(text)
    if path is not None:
        return t("fault.at_path", path=path, kind=fault_kind(text[len(path) + 1:], rule))
    line, column = _number_after(text, "line "), _number_after(text, "column ")
    if line is not None and column is not None:  # a JSON decoder's "…: line 1 column 2" (CPython and Brython)
        return t("fault.json_at", line=line, column=column)
    if type(error).__name__ in ("JSONDecodeError", "SyntaxError"):
        return t("fault.json")
    return fault_kind(text, rule)


def add_detail(node: object, error: object) -> object:
    """Put ``error``'s own English text on ``node`` as the tooltip of a small mark (``lang="en"``)."""
    from client.dom import add, el  # here, so that fault_words imports no browser module (CPython tests)

    detail = str(error)
    if node is not None and detail:
        add(node, el("span", " "), el("span", "[…]", "fault-detail", (("lang", "en"), ("title", detail))))
    return node
