// Starts Brython without any inline script, so the Content-Security-Policy can forbid them
// (script-src 'self' 'unsafe-eval': Brython compiles Python to JavaScript and evals it).
// The Python entry point (server/bundle.py's ENTRY, in __BRYTHON__.chronicle_entry) is a script
// element made here; once the page loaded, brython() starts and the entry runs.
(function () {
  window.chronicle_marks = window.chronicle_marks || {};  // socket.js may have marked its hello
  window.chronicle_marks.scripts = performance.now();
  var $B = __BRYTHON__;
  var entry = $B.chronicle_entry;
  var main = document.createElement("script");
  main.type = "text/python";
  main.id = entry.name;
  main.textContent = entry.src;
  document.body.appendChild(main);
  document.body.onload = function () {
    window.chronicle_marks.brython = performance.now();
    // server/bundle.py sets chronicle_precompiled when Node compiled every module ahead of time.
    var options = {debug: 0, indexeddb: !$B.chronicle_precompiled, ids: [entry.name]};
    // Not precompiled, or only the entry was (the modules' compile failed: Brython must then keep
    // its indexedDB cache, which it opens only when it has a script to compile): the page compiles.
    if (!entry.js || !$B.chronicle_precompiled) {
      brython(options);
      return;
    }
    // Precompiled (issue 16): Brython starts with no script to compile, then runs the entry's
    // JavaScript as its run_script would after compiling it (brython.js, $B.run_script): the same
    // execute task; the script's name is the entry's alone, not the page's URL with it.
    options.ids = [];
    brython(options);
    $B.script_filename = entry.name;
    $B.file_cache[entry.name] = entry.src;
    $B.url2name[entry.name] = entry.name;
    $B.scripts[entry.name] = main;
    $B.make_import_paths(entry.name);
    $B.builtins.__debug__ = false;  // debug: 0
    $B.tasks.push(["execute", {__doc__: $B.builtins.None, js: entry.js, __name__: entry.name, __file__: $B.script_path,
                               script_element: main, filename: entry.name}]);
    $B.loop();
  };
})();
