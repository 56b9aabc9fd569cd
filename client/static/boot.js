// Starts Brython without any inline script, so the Content-Security-Policy can forbid them
// (script-src 'self' 'unsafe-eval': Brython compiles Python to JavaScript and evals it).
// The Python entry point is a script element made here; brython() runs it once the page loaded.
(function () {
  window.chronicle_marks = window.chronicle_marks || {};  // socket.js may have marked its hello
  window.chronicle_marks.scripts = performance.now();
  var main = document.createElement("script");
  main.type = "text/python";
  main.id = "chronicle-main";
  main.textContent = "from client.main import start\nstart()\n";
  document.body.appendChild(main);
  document.body.onload = function () {
    window.chronicle_marks.brython = performance.now();
    // server/bundle.py sets chronicle_precompiled when Node compiled every module ahead of time.
    brython({debug: 0, indexeddb: !__BRYTHON__.chronicle_precompiled, ids: ["chronicle-main"]});
  };
})();
