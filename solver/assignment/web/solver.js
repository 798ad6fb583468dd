/* The page's search code, free of the DOM: it runs both in the page (stepping, parity, heuristics)
   and in the Web Worker that solves (the page builds the worker from this same text via a Blob URL).
   Boards are arrays of N*N numbers, row by row, 0 the blank; the goal is 1..N*N-1 then the blank. */
"use strict";
var NPuzzle = (function () {
  function goal(n) {
    var tiles = [];
    for (var i = 1; i < n * n; i++) tiles.push(i);
    tiles.push(0);
    return tiles;
  }

  function isGoal(tiles) {
    for (var i = 0; i < tiles.length - 1; i++) if (tiles[i] !== i + 1) return false;
    return true;
  }

  /* Parity of the permutation of the non-blank tiles, from its cycles. */
  function permutationIsOdd(tiles) {
    var values = tiles.filter(function (t) { return t !== 0; });
    var seen = new Uint8Array(values.length + 1), cycles = 0;
    for (var s = 1; s <= values.length; s++) {
      if (seen[s]) continue;
      cycles++;
      for (var at = s; !seen[at]; at = values[at - 1]) seen[at] = 1;
    }
    return (values.length - cycles) % 2 === 1;
  }

  /* Odd N: the inversion parity never changes and the goal has none. Even N: inversions + blank row
     keeps its parity, and the goal has the blank in the last row (N-1, odd). */
  function isSolvable(tiles, n) {
    var odd = permutationIsOdd(tiles);
    if (n % 2) return !odd;
    var blankRow = Math.floor(tiles.indexOf(0) / n);
    return ((odd ? 1 : 0) + blankRow) % 2 === 1;
  }

  function neighbours(pos, n) {
    var r = Math.floor(pos / n), c = pos % n, out = [];
    if (r > 0) out.push(pos - n);
    if (r < n - 1) out.push(pos + n);
    if (c > 0) out.push(pos - 1);
    if (c < n - 1) out.push(pos + 1);
    return out;
  }

  function hamming(tiles) {
    var h = 0;
    for (var i = 0; i < tiles.length; i++) if (tiles[i] && tiles[i] !== i + 1) h++;
    return h;
  }

  function manhattan(tiles, n) {
    var h = 0;
    for (var i = 0; i < tiles.length; i++) {
      var t = tiles[i];
      if (t) h += Math.abs(Math.floor((t - 1) / n) - Math.floor(i / n)) + Math.abs((t - 1) % n - i % n);
    }
    return h;
  }

  /* Longest strictly increasing subsequence (patience sorting). */
  function lis(seq) {
    var piles = [];
    for (var i = 0; i < seq.length; i++) {
      var lo = 0, hi = piles.length;
      while (lo < hi) { var mid = (lo + hi) >> 1; if (piles[mid] < seq[i]) lo = mid + 1; else hi = mid; }
      piles[lo] = seq[i];
    }
    return piles.length;
  }

  /* Linear conflict cost of one line, for every line content: the key holds, per cell, the goal
     position along the line of the tile there if that tile belongs to this line, else n. The tiles
     that must step out of the line are len - LIS of those goal positions; each costs two moves. */
  var lineTables = {};
  function lineTable(n) {
    if (lineTables[n]) return lineTables[n];
    var size = Math.pow(n + 1, n), table = new Uint8Array(size);
    for (var key = 0; key < size; key++) {
      var seq = [], k = key;
      for (var c = 0; c < n; c++) { var d = k % (n + 1); k = (k - d) / (n + 1); if (d < n) seq.unshift(d); }
      table[key] = 2 * (seq.length - lis(seq));
    }
    return (lineTables[n] = table);
  }

  function rowKey(tiles, n, r) {
    var key = 0;
    for (var c = 0; c < n; c++) {
      var t = tiles[r * n + c];
      key = key * (n + 1) + (t && Math.floor((t - 1) / n) === r ? (t - 1) % n : n);
    }
    return key;
  }

  function colKey(tiles, n, c) {
    var key = 0;
    for (var r = 0; r < n; r++) {
      var t = tiles[r * n + c];
      key = key * (n + 1) + (t && (t - 1) % n === c ? Math.floor((t - 1) / n) : n);
    }
    return key;
  }

  function conflicts(tiles, n) {
    var table = lineTable(n), extra = 0;
    for (var line = 0; line < n; line++) extra += table[rowKey(tiles, n, line)] + table[colKey(tiles, n, line)];
    return extra;
  }

  var HEURISTICS = {
    zero: function () { return 0; },
    hamming: hamming,
    manhattan: manhattan,
    "linear-conflict": function (tiles, n) { return manhattan(tiles, n) + conflicts(tiles, n); }
  };

  /* IDA* with Manhattan + linear conflict, both updated incrementally: a sideways move changes only
     the two columns the tile leaves and enters, an up/down move only the two rows. Returns
     {moves: [tile slid, ...], nodes} or {gaveUp: true, nodes, bound} once budgetMs has passed. */
  function idaStar(start, n, budgetMs, onBound) {
    var N = n * n, b = Int32Array.from(start), table = lineTable(n);
    var md = new Int32Array(N * N), nb = [], path = [], nodes = 0, began = Date.now(), outOfTime = false;
    for (var t = 1; t < N; t++) for (var p = 0; p < N; p++) {
      md[t * N + p] = Math.abs(Math.floor((t - 1) / n) - Math.floor(p / n)) + Math.abs((t - 1) % n - p % n);
    }
    for (var q = 0; q < N; q++) nb.push(Int32Array.from(neighbours(q, n)));
    var h0 = HEURISTICS["linear-conflict"](start, n), bound = h0, next;

    function lineCost(from, to, vertical) {
      if (vertical) return table[rowKey(b, n, Math.floor(from / n))] + table[rowKey(b, n, Math.floor(to / n))];
      return table[colKey(b, n, from % n)] + table[colKey(b, n, to % n)];
    }

    function search(blank, g, h, prev) {
      var f = g + h;
      if (f > bound) { if (f < next) next = f; return false; }
      if (h === 0) return true;
      if ((++nodes & 0xffff) === 0 && Date.now() - began > budgetMs) { outOfTime = true; return false; }
      var around = nb[blank];
      for (var i = 0; i < around.length; i++) {
        var from = around[i];
        if (from === prev) continue;
        var tile = b[from], vertical = Math.abs(from - blank) === n;
        var before = lineCost(from, blank, vertical);
        b[blank] = tile; b[from] = 0;
        var h2 = h + md[tile * N + blank] - md[tile * N + from] + lineCost(from, blank, vertical) - before;
        path.push(tile);
        if (search(from, g + 1, h2, blank)) return true;
        path.pop();
        b[from] = tile; b[blank] = 0;
        if (outOfTime) return false;
      }
      return false;
    }

    for (;;) {
      next = Infinity;
      if (onBound) onBound(bound, nodes);
      if (search(b.indexOf(0), 0, h0, -1)) return { moves: path, nodes: nodes };
      if (outOfTime) return { gaveUp: true, nodes: nodes, bound: bound };
      bound = next;
    }
  }

  return {
    goal: goal, isGoal: isGoal, isSolvable: isSolvable, neighbours: neighbours, heuristics: HEURISTICS,
    manhattan: manhattan, hamming: hamming, conflicts: conflicts, idaStar: idaStar
  };
})();

/* In a worker (no document), answer solve requests; the page posts {id, tiles, n, budgetMs}. */
if (typeof document === "undefined" && typeof self !== "undefined" && typeof postMessage === "function") {
  self.onmessage = function (event) {
    var job = event.data;
    var result = NPuzzle.idaStar(job.tiles, job.n, job.budgetMs, function (bound, nodes) {
      postMessage({ id: job.id, progress: true, bound: bound, nodes: nodes });
    });
    result.id = job.id;
    postMessage(result);
  };
}
if (typeof module !== "undefined") module.exports = NPuzzle;
