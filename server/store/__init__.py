"""Where games live: the store contract (``base``) and its back ends, chosen by URL.

``store_for("chronicle.db")`` or ``store_for("sqlite:///path/to.db")`` gives SQLite;
``store_for("postgresql://user@host:port/db")`` (or ``postgres://``) gives PostgreSQL, for several
processes. The store comes back unopened: its owner opens and closes it. ``group_commit``
(default: ``CHRONICLE_GROUP_COMMIT``, else on) shares one transaction among the appends of many
games (issue 16; docs/scaling.md, "Group commit").
"""

from __future__ import annotations

from server.store.base import ChatLine, GameExists, GameMeta, SeqConflict, Store, Stored, StoreError, UnknownGame

__all__ = ["ChatLine", "GameExists", "GameMeta", "SeqConflict", "Store", "StoreError", "Stored", "UnknownGame", "store_for"]


def store_for(url_or_path: str, *, group_commit: bool | None = None) -> Store:
    """A store (not yet opened) for a URL or a SQLite file path."""
    if url_or_path.startswith(("postgresql://", "postgres://")):
        from server.store.postgres import PostgresStore

        return _configured(PostgresStore, url_or_path, group_commit=group_commit)
    if "://" in url_or_path and not url_or_path.startswith("sqlite://"):
        scheme = url_or_path.split("://", 1)[0]
        raise StoreError(f"unknown store URL scheme {scheme!r}: expected a file path, sqlite:///path or postgresql://…")
    from server.store.sqlite import SqliteStore

    path = url_or_path.removeprefix("sqlite://") if url_or_path.startswith("sqlite://") else url_or_path
    if not path:
        raise StoreError("sqlite:// needs a path, e.g. sqlite:///var/lib/chronicle.db")
    return _configured(SqliteStore, path, group_commit=group_commit)


def _configured(kind: type, *args, **options) -> Store:
    """``kind(*args, **options)``, a setting it refuses (``CHRONICLE_SQLITE_SYNC``,
    ``CHRONICLE_SQLITE_LOOP_WRITES``, ...: a ValueError naming it) as a StoreError, so that every
    command taking ``--db`` says it in one line."""
    try:
        return kind(*args, **options)
    except ValueError as error:
        raise StoreError(str(error)) from None
