"""One module per page: ``lobby`` (``/``), ``play`` (``/play/{id}`` and ``/watch/{id}``), ``replay``."""
