"""Pages and static files (owned by the client engineer)."""
routes: list = []
