// Opens a live game's WebSocket and says hello before Brython has even started (issue 16).
//
// server/pages.py names this script first on the play and watch pages only. It computes the
// socket's URL, its subprotocols and the hello exactly as client/net.py would (the game id from the
// path, the seat's token from the URL fragment, since 0, a snapshot join), sends the hello as soon as the socket
// opens and keeps every frame that arrives. Then the server's welcome and snapshot travel while
// the browser evaluates brython.js and the page's modules, instead of after them. When Python
// starts, net.Connection.open() takes this socket over (checking the URL and the token against
// its own) and reads the kept frames first; if anything differs, or the socket closed meanwhile,
// it closes it and opens its own, as before. Nothing here reads or writes the page's DOM.
(function () {
  var parts = location.pathname.split("/").filter(function (part) { return part; });
  if (parts.length !== 2 || (parts[0] !== "play" && parts[0] !== "watch")) return;
  function decoded(text) {  // as client/dom.py's _decoded: a malformed escape is kept as typed
    try { return decodeURIComponent(text); } catch (error) { return text; }
  }
  var game;
  try { game = decodeURIComponent(parts[1]); } catch (error) { return; }  // Python will say why
  var token = null;
  if (parts[0] === "play") {  // as client/dom.py's fragment_params().get("token") or None
    location.hash.slice(1).split("&").forEach(function (part) {
      if (!part) return;
      var at = part.indexOf("=");
      var key = at < 0 ? part : part.slice(0, at);
      var value = at < 0 ? "" : part.slice(at + 1);
      if (decoded(key) === "token") token = decoded(value.replace(/\+/g, " ")) || null;
    });
  }
  var scheme = location.protocol === "https:" ? "wss" : "ws";
  var url = scheme + "://" + location.host + "/ws/" + encodeURIComponent(game);
  var socket;
  // A seat's socket names its token at the upgrade too (as net.py's protocols()), so that past its
  // address's bound on opens the server lets the seat in before any frame (docs/protocol.md).
  var protocols = token && /^[A-Za-z0-9_-]+$/.test(token) ? ["chronicle", "chronicle.seat." + token] : [];
  try { socket = new WebSocket(url, protocols); } catch (error) { return; }
  var marks = window.chronicle_marks = window.chronicle_marks || {};
  var early = {url: url, token: token, socket: socket, sent: false, frames: []};
  socket.onopen = function () {
    socket.send(JSON.stringify({type: "hello", since: 0, token: token, snapshot: true}));
    early.sent = true;
    marks.hello = performance.now();
  };
  socket.onmessage = function (event) { early.frames.push(event.data); };
  // Called by client/net.py when it takes the socket: no handler of this script runs afterwards.
  early.release = function () {
    socket.onopen = null;
    socket.onmessage = null;
    var frames = early.frames;
    early.frames = [];
    return frames;
  };
  window.chronicle_socket = early;
})();
