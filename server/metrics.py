"""What ``/metrics`` tells Prometheus, with the standard client library, one registry per app.

A registry per app (not the library's global one) so that several apps in one process, as in
tests, count apart. Names follow Prometheus' conventions: counters end in ``_total``, the
latency histogram is in seconds.
"""

from __future__ import annotations

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.exposition import CONTENT_TYPE_LATEST

# Command-to-broadcast: from the command frame's arrival to its events queued for every
# connection of this process. Buckets from a lone SQLite commit (~0.2 ms) to a long stall.
LATENCY_BUCKETS = (0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1.0, 2.0, 5.0)
# Connections cut below the application, by reason, in this process: uvicorn's protocols count them
# (server/wsprotocol.py, server/httpprotocol.py), which know no app; every app's /metrics shows them.
TRANSPORT_CUTS: dict[str, int] = {}


def transport_cut(reason: str) -> None:
    TRANSPORT_CUTS[reason] = TRANSPORT_CUTS.get(reason, 0) + 1


class TransportCuts:
    """``chronicle_transport_cut_total{reason}``, read from ``TRANSPORT_CUTS`` when /metrics is asked."""

    def collect(self):
        from prometheus_client.core import CounterMetricFamily

        family = CounterMetricFamily("chronicle_transport_cut", "Connections cut below the application, by reason: "
                                     "'too-many-frames', 'write-buffer' (server/wsprotocol.py), 'head-timeout', "
                                     "'too-many-connections-per-address', 'too-many-connections' "
                                     "(server/httpprotocol.py); docs/bounds.md.", labels=["reason"])
        for reason, count in sorted(TRANSPORT_CUTS.items()):
            family.add_metric([reason], count)
        yield family


class Metrics:
    content_type = CONTENT_TYPE_LATEST

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        self.connections = Gauge("chronicle_connections", "Open WebSocket connections to games.",
                                 registry=self.registry)
        self.commands = Counter("chronicle_commands_total", "Command frames received from seats and spectators.",
                                registry=self.registry)
        self.rejections = Counter("chronicle_rejections_total",
                                  "Commands refused, by code ('rejected': the rules said no, with a clause).",
                                  ["code"], registry=self.registry)
        self.conflicts = Counter("chronicle_append_conflicts_total",
                                 "Appends refused because another writer took the seq first (then re-read, re-decided).",
                                 registry=self.registry)
        self.caught_up = Counter("chronicle_events_followed_total",
                                 "Events appended by another process, read after a notification and broadcast here.",
                                 registry=self.registry)
        self.folds = Counter("chronicle_folds_total",
                             "Events folded to rebuild a state: 'state' for /api/games/{id}/state, 'room' for a "
                             "Room's load (each at most server/snapshots.py's SNAPSHOT_EVERY per rebuild).",
                             ["reason"], registry=self.registry)
        self.loads = Counter("chronicle_games_loaded_total",
                             "Games loaded into memory from the store, for a socket on a game that was not in memory "
                             "(a game stays in memory room_linger seconds after its last socket left).",
                             registry=self.registry)
        self.audits = Counter("chronicle_audits_total",
                              "Whole logs re-decided, by route ('audit', 'rules', 'import'): one at a time per process, "
                              "in its worker process (server/workers.py); an answer kept or shared is not counted again.",
                              ["route"], registry=self.registry)
        self.worker_pid = Gauge("chronicle_worker_pid",
                                "The process doing the whole-log work of /audit, /rules, imports and /state folded "
                                "from seq 1 (server/workers.py): its worker process, or this one when it works in "
                                "threads (CHRONICLE_WORKER_PROCESS=0).", registry=self.registry)
        self.worker_replaced = Counter("chronicle_worker_replaced_total",
                                       "Worker processes replaced, by reason ('lost': it died, 'resident': it grew "
                                       "past CHRONICLE_WORKER_RESIDENT_MIB, server/workers.py).", ["reason"], registry=self.registry)
        self.log_lines = Counter("chronicle_log_lines_made_total",
                                 "Lines of GET /api/games/{id}/log made (read from the store, checked, redacted for a "
                                 "spectator); a line made once is served from memory after (server/logs.py).",
                                 registry=self.registry)
        self.latency = Histogram("chronicle_command_broadcast_seconds",
                                 "From a command's arrival to its events queued for every connection of this process.",
                                 buckets=LATENCY_BUCKETS, registry=self.registry)
        self.registry.register(TransportCuts())

    def render(self) -> bytes:
        return generate_latest(self.registry)


def operations_routes(store, metrics: Metrics, feed=None) -> list:
    """``/healthz`` and ``/metrics``, for a load balancer and for Prometheus."""
    from starlette.responses import JSONResponse, Response
    from starlette.routing import Route

    from server.store import StoreError, UnknownGame

    async def healthz(request) -> Response:
        """200 when the store answers (and, on PostgreSQL, this process hears other processes' events)."""
        try:
            ping = getattr(store, "ping", None)
            if ping is not None:
                await ping()
            else:
                try:  # one indexed read through the contract: an unknown game means the store answered
                    await store.get_game("g-healthz")
                except UnknownGame:
                    pass
        except StoreError as error:
            return JSONResponse({"status": "failing", "store": "store-unavailable", "message": str(error)}, 503)
        body = {"status": "ok", "store": "ok"}
        if feed is not None:
            body["listening"] = feed.connected.is_set()
            if not body["listening"]:
                body.update(status="failing", message="not listening for other processes' events (reconnecting)")
                return JSONResponse(body, 503)
        return JSONResponse(body)

    async def metrics_page(request) -> Response:
        return Response(metrics.render(), media_type=metrics.content_type)

    return [Route("/healthz", healthz, methods=["GET"]), Route("/metrics", metrics_page, methods=["GET"])]
