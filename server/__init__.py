"""Chronicle's imperative shell: files, the command line, the store and the WebSocket server."""
