"""On/off settings read from the environment (``CHRONICLE_GROUP_COMMIT``, ``CHRONICLE_GC_FREEZE``).

Unset or empty is the default, on; ``1``, ``on``, ``true``, ``yes`` are on and ``0``, ``off``,
``false``, ``no`` off, in any case and with spaces around; anything else is a ValueError that names
the variable, which the command line turns into a one-line error at start.
"""

from __future__ import annotations

import os
from collections.abc import Mapping


def switch_from_env(variable: str, environ: Mapping[str, str] | None = None) -> bool:
    """Whether ``variable`` (default on) is on in ``environ`` (default ``os.environ``)."""
    value = (os.environ if environ is None else environ).get(variable, "1").strip().lower()
    if value in ("1", "on", "true", "yes", ""):
        return True
    if value in ("0", "off", "false", "no"):
        return False
    raise ValueError(f"{variable}: expected 1 or 0, got {value!r}")
