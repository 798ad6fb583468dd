/* The game: the board, its controls, the solver in a Web Worker and the step-through view.
   The ids and data attributes here are a contract the tests and docs/game.md rely on. */
"use strict";
(function () {
  var $ = function (id) { return document.getElementById(id); };
  var params = new URLSearchParams(location.search);
  var budgetMs = Math.max(200, parseInt(params.get("budget"), 10) || 10000);
  var game = { n: 3, tiles: [], history: [], moves: 0, solvable: true, busy: false, started: null, timer: null };
  var tileEls = {}, stepper = null, worker = null, jobs = 0, pending = null, playing = null;

  function setStatus(text, isError) {
    $("status").textContent = text;
    $("status").className = isError ? "error" : "";
  }

  /* ?board=: N*N comma-separated numbers, a permutation of 0..N*N-1 with N 3 or 4. */
  function parseBoard(text) {
    var parts = text.split(",").map(function (s) { return s.trim(); });
    var n = Math.round(Math.sqrt(parts.length));
    if (parts.length !== 9 && parts.length !== 16) {
      throw new Error("?board= needs 9 numbers (3×3) or 16 (4×4), row by row, 0 the blank; found " + parts.length);
    }
    var tiles = parts.map(function (s, i) {
      if (!/^\d+$/.test(s)) throw new Error("?board= value " + (i + 1) + " is '" + s + "', not a whole number");
      return parseInt(s, 10);
    });
    var seen = {};
    tiles.forEach(function (t, i) {
      if (t >= n * n) throw new Error("?board= value " + (i + 1) + " is " + t + "; tiles go from 0 to " + (n * n - 1));
      if (seen[t]) throw new Error("?board= has " + t + " twice");
      seen[t] = true;
    });
    return { tiles: tiles, n: n };
  }

  function commandFor(tiles, n) {
    var rows = [];
    for (var r = 0; r < n; r++) rows.push(tiles.slice(r * n, r * n + n).join(" "));
    return "printf '" + n + "\\n" + rows.join("\\n") + "\\n' | python -m solver -";
  }

  /* ---------------------------------------------------------------- the board */
  function place(el, pos, animate) {
    var first = animate && el.getBoundingClientRect();
    var row = Math.floor(pos / game.n), col = pos % game.n;
    el.style.gridRow = String(row + 1);
    el.style.gridColumn = String(col + 1);
    el.dataset.row = row;
    el.dataset.col = col;
    if (first && el.animate) {
      var last = el.getBoundingClientRect();
      el.animate([{ transform: "translate(" + (first.left - last.left) + "px," + (first.top - last.top) + "px)" },
                  { transform: "none" }], { duration: Math.min(160, speed() * 0.7), easing: "ease-out" });
    }
  }

  function setBoard(tiles, n) {
    stopPlaying();
    game.n = n; game.tiles = tiles.slice(); game.history = []; game.moves = 0; game.started = null;
    game.solvable = NPuzzle.isSolvable(tiles, n);
    $("size").value = String(n);
    var board = $("board");
    board.innerHTML = "";
    board.style.gridTemplateColumns = "repeat(" + n + ", 1fr)";
    board.style.gridTemplateRows = "repeat(" + n + ", 1fr)";
    tileEls = {};
    tiles.forEach(function (t, pos) {
      var el = document.createElement("div");
      el.className = t ? "tile" : "tile blank";
      el.dataset.tile = t;
      el.textContent = t ? String(t) : "";
      if (t) {  // the picture's piece for the tile's goal cell
        el.style.backgroundSize = n * 100 + "% " + n * 100 + "%";
        el.style.backgroundPosition = ((t - 1) % n) * 100 / (n - 1) + "% " + Math.floor((t - 1) / n) * 100 / (n - 1) + "%";
      }
      place(el, pos, false);
      board.appendChild(el);
      tileEls[t] = el;
    });
    $("command").hidden = true;
    resetSearch();
    refresh();
    if (!game.solvable) {
      setStatus("This board cannot be solved: its tile parity differs from the goal's, so no sequence of " +
                "moves reaches it. Shuffle, or enter another board.", true);
    } else setStatus(NPuzzle.isGoal(tiles) ? "Solved board: press Shuffle to play." : "Slide tiles next to the blank.");
  }

  function refresh() {
    $("moves").textContent = String(game.moves);
    var board = $("board");
    board.classList.toggle("unsolvable", !game.solvable);
    board.classList.toggle("solved", NPuzzle.isGoal(game.tiles));
    board.dataset.solvable = String(game.solvable);
    $("undo").disabled = game.busy || !game.history.length;
    ["shuffle", "solve", "hint", "size"].forEach(function (id) { $(id).disabled = game.busy; });
    $("cancel").disabled = !game.busy;
    document.querySelectorAll(".tile.hint").forEach(function (el) { el.classList.remove("hint"); });
  }

  /* Slide the tile at pos into the blank, if they are neighbours. */
  function slide(pos, undoing) {
    var blank = game.tiles.indexOf(0);
    if (NPuzzle.neighbours(blank, game.n).indexOf(pos) < 0) return false;
    var tile = game.tiles[pos];
    game.tiles[blank] = tile; game.tiles[pos] = 0;
    place(tileEls[tile], blank, true);
    place(tileEls[0], pos, false);
    if (undoing) { game.moves--; } else { game.moves++; game.history.push(blank); }
    if (!game.started) startTimer();
    resetSearch();
    refresh();
    if (NPuzzle.isGoal(game.tiles)) {
      stopTimer();
      if (!playing) setStatus("Solved in " + game.moves + " moves!");
    }
    return true;
  }

  function userSlide(pos) {
    if (game.busy) return;
    if (slide(pos, false) && !NPuzzle.isGoal(game.tiles) && game.solvable) setStatus("");
  }

  function startTimer() {
    game.started = Date.now();
    clearInterval(game.timer);
    game.timer = setInterval(showTime, 500);
  }
  function stopTimer() { clearInterval(game.timer); showTime(); game.started = null; }
  function showTime() {
    if (!game.started) return;
    var s = Math.floor((Date.now() - game.started) / 1000);
    $("timer").textContent = Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  /* ---------------------------------------------------------------- solving in a worker */
  function startWorker() {
    try {
      var url = URL.createObjectURL(new Blob([$("solver-src").textContent], { type: "text/javascript" }));
      worker = new Worker(url);
      worker.onmessage = function (e) {
        document.body.dataset.solver = "worker";  // tests check the page stayed free while solving
        if (pending && e.data.id === pending.id) pending.handle(e.data);
      };
      worker.onerror = function (e) {  // the worker could not start: solve the waiting job on the page
        e.preventDefault();
        worker = null;
        if (pending) solveHere(pending.job);
      };
    } catch (err) { worker = null; }  // no workers here: solve on the page itself
  }

  function findSolution(tiles, n, done) {
    var id = ++jobs, job = { id: id, tiles: tiles, n: n, budgetMs: budgetMs };
    pending = { id: id, job: job, handle: function (msg) {
      if (msg.progress) { setStatus("Searching… bound on f " + msg.bound + ", " + msg.nodes.toLocaleString("en") + " nodes so far"); return; }
      pending = null;
      done(msg);
    } };
    if (worker) worker.postMessage(job);
    else solveHere(job);
  }

  function solveHere(job) {
    setTimeout(function () {
      var result = NPuzzle.idaStar(job.tiles, job.n, job.budgetMs);
      result.id = job.id;
      document.body.dataset.solver = "page";
      if (pending && pending.id === job.id) pending.handle(result);
    }, 0);
  }

  function withSolution(then) {
    if (!game.solvable) { setStatus("This board cannot be solved (tile parity), so there is nothing to search.", true); return; }
    if (NPuzzle.isGoal(game.tiles)) { setStatus("Already solved."); return; }
    game.busy = true; refresh();
    setStatus("Searching…");
    var tiles = game.tiles.slice();
    findSolution(tiles, game.n, function (msg) {
      game.busy = false; refresh();
      if (msg.gaveUp) {
        setStatus("Too deep to solve in the page within " + budgetMs / 1000 + " s (searched " +
                  msg.nodes.toLocaleString("en") + " nodes, bound on f reached " + msg.bound +
                  "). The reference solver solves it optimally: run the command below.", true);
        $("command").textContent = commandFor(tiles, game.n);
        $("command").hidden = false;
        return;
      }
      then(msg.moves, msg.nodes);
    });
  }

  function speed() { return parseInt($("speed").value, 10); }

  function play(moves, nodes) {
    var i = 0;
    game.busy = true; refresh();
    setStatus("Optimal solution: " + moves.length + " moves (IDA* searched " + nodes.toLocaleString("en") + " nodes).");
    playing = setInterval(function () {
      if (i >= moves.length) { stopPlaying(); setStatus("Solved: the optimal solution took " + moves.length + " moves."); return; }
      game.busy = false;  // slide() checks nothing about busy; keep the buttons off meanwhile
      slide(game.tiles.indexOf(moves[i++]), false);
      game.busy = true; refresh();
    }, speed());
  }

  function stopPlaying() {
    if (playing) { clearInterval(playing); playing = null; }
    if (pending && worker) { worker.terminate(); startWorker(); }
    pending = null;
    game.busy = false;
    if (tileEls[0]) refresh();
  }

  /* ---------------------------------------------------------------- shuffling */
  function shuffled(n, how) {
    var tiles;
    if (how === "random") {
      do {
        tiles = NPuzzle.goal(n);
        for (var i = tiles.length - 1; i > 0; i--) { var j = Math.floor(Math.random() * (i + 1)); var t = tiles[i]; tiles[i] = tiles[j]; tiles[j] = t; }
      } while (!NPuzzle.isSolvable(tiles, n) || NPuzzle.isGoal(tiles));
      return tiles;
    }
    do {  // a random walk that never undoes its last move
      tiles = NPuzzle.goal(n);
      var blank = tiles.length - 1, prev = -1;
      for (var k = 0; k < parseInt(how, 10); k++) {
        var options = NPuzzle.neighbours(blank, n).filter(function (p) { return p !== prev; });
        var from = options[Math.floor(Math.random() * options.length)];
        tiles[blank] = tiles[from]; tiles[from] = 0; prev = blank; blank = from;
      }
    } while (NPuzzle.isGoal(tiles));
    return tiles;
  }

  /* ---------------------------------------------------------------- the step-through view */
  function mini(tiles, n) {
    var box = document.createElement("div");
    box.className = "mini";
    box.style.gridTemplateColumns = "repeat(" + n + ", 1fr)";
    tiles.forEach(function (t) {
      var cell = document.createElement("span");
      cell.textContent = t ? String(t) : "";
      if (!t) cell.className = "z";
      box.appendChild(cell);
    });
    return box;
  }

  function showNode(el, node) {
    el.innerHTML = "";
    el.dataset.g = node.g; el.dataset.h = node.h; el.dataset.f = node.f;
    el.dataset.board = node.tiles.join(",");
    el.appendChild(mini(node.tiles, game.n));
    var text = document.createElement("span");
    text.className = "ghf";
    text.innerHTML = "g=<b>" + node.g + "</b> h=<b>" + node.h + "</b> f=<b>" + node.f + "</b>";
    el.appendChild(text);
  }

  function resetSearch() {
    stepper = null;
    $("node").hidden = true;
    $("children").innerHTML = "";
    $("expanded").textContent = "0";
    $("frontier").textContent = "0";
    $("bound-box").hidden = true;
  }

  function step(times) {
    if (game.busy) return;
    if (!game.solvable) { setStatus("This board cannot be solved (tile parity), so there is nothing to search.", true); return; }
    if (!stepper) stepper = new Stepper(game.tiles, game.n, $("algorithm").value);
    var out = null;
    for (var i = 0; i < times && !stepper.done; i++) out = stepper.step();
    if (!out) { setStatus("The search is over: it found the goal. Reset to start again."); return; }
    showNode($("node"), out.node);
    $("node").hidden = false;
    $("children").innerHTML = "";
    out.children.forEach(function (c) {
      var el = document.createElement("div");
      el.className = "child";
      showNode(el, c);
      $("children").appendChild(el);
    });
    $("expanded").textContent = String(out.expanded);
    $("frontier").textContent = String(out.frontier);
    $("bound-box").hidden = stepper.algorithm !== "idastar";
    $("bound").textContent = String(out.bound);
    if (out.found) setStatus("Goal reached at depth g = " + out.node.g + " after " + out.expanded + " expansions.");
    else setStatus(out.newPass ? "New IDA* pass: the bound on f is now " + out.bound + "." :
                   "Expanding a node with f = " + out.node.f + "; its children are below.");
  }

  /* ---------------------------------------------------------------- input */
  function wire() {
    $("board").addEventListener("click", function (e) {
      var el = e.target.closest(".tile");
      if (!el || swiped) { swiped = false; return; }
      userSlide(game.tiles.indexOf(parseInt(el.dataset.tile, 10)));
    });
    var start = null, swiped = false;  // a swipe on the board moves the tile that way into the blank
    $("board").addEventListener("pointerdown", function (e) { start = { x: e.clientX, y: e.clientY }; swiped = false; });
    $("board").addEventListener("pointerup", function (e) {
      if (!start) return;
      var dx = e.clientX - start.x, dy = e.clientY - start.y;
      start = null;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;
      swiped = true;
      if (Math.abs(dx) > Math.abs(dy)) moveToward(dx > 0 ? "ArrowRight" : "ArrowLeft");
      else moveToward(dy > 0 ? "ArrowDown" : "ArrowUp");
    });
    document.addEventListener("keydown", function (e) {
      if (["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"].indexOf(e.key) < 0) return;
      if (e.target && e.target.tagName === "SELECT") return;
      e.preventDefault();
      moveToward(e.key);
    });
    $("shuffle").addEventListener("click", function () {
      setBoard(shuffled(game.n, $("difficulty").value), game.n);
      setStatus("New board: slide the tiles home, or press Solve.");
    });
    $("size").addEventListener("change", function () { setBoard(NPuzzle.goal(parseInt($("size").value, 10)), parseInt($("size").value, 10)); });
    $("solve").addEventListener("click", function () { withSolution(play); });
    $("hint").addEventListener("click", function () {
      withSolution(function (moves) {
        tileEls[moves[0]].classList.add("hint");
        setStatus("Hint: slide " + moves[0] + " (" + moves.length + " moves from here to the goal).");
      });
    });
    $("undo").addEventListener("click", function () {
      if (!game.busy && game.history.length) slide(game.history.pop(), true);
    });
    $("cancel").addEventListener("click", function () { stopPlaying(); setStatus("Stopped."); });
    $("picture").addEventListener("change", function () { $("board").classList.toggle("picture", $("picture").checked); });
    $("step").addEventListener("click", function () { step(1); });
    $("step10").addEventListener("click", function () { step(10); });
    $("reset-search").addEventListener("click", function () { resetSearch(); setStatus("Search reset."); });
    $("algorithm").addEventListener("change", function () { resetSearch(); });
  }

  /* An arrow moves the tile on that side of the blank the arrow's way (ArrowUp: the tile below goes up). */
  function moveToward(key) {
    var blank = game.tiles.indexOf(0), n = game.n, r = Math.floor(blank / n), c = blank % n;
    var from = { ArrowUp: r < n - 1 ? blank + n : -1, ArrowDown: r > 0 ? blank - n : -1,
                 ArrowLeft: c < n - 1 ? blank + 1 : -1, ArrowRight: c > 0 ? blank - 1 : -1 }[key];
    if (from >= 0) userSlide(from);
  }

  wire();
  startWorker();
  var asked = params.get("board");
  if (asked === null) {
    var n = params.get("size") === "4" ? 4 : 3;
    setBoard(shuffled(n, "25"), n);
  } else {
    try {
      var parsed = parseBoard(asked);
      setBoard(parsed.tiles, parsed.n);
    } catch (err) {
      setBoard(NPuzzle.goal(3), 3);
      setStatus(err.message + ". Showing the solved 3×3 board instead.", true);
    }
  }
  document.body.dataset.ready = "true";
})();
