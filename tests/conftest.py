"""Suite-wide settings.

Hypothesis explores new random examples on every developer run, which is how it finds bugs.
On CI (``CI`` set, as ``.ci/run`` is run) it is derandomized: the examples are a fixed function
of each test, so a submission's verdict does not depend on the luck of one run; a bug a
developer run finds is fixed and pinned with a regression test.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")
