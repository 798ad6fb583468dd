/* The search, one expansion at a time, so a learner can watch it think. Each algorithm keeps its
   own frontier: BFS a queue (h = 0), A* a heap ordered by f then deeper g first, IDA* a depth-first
   stack under a bound on f that grows to the smallest f that went over it. */
"use strict";
var Stepper = (function () {
  var ALGORITHMS = {
    "bfs": { heuristic: "zero", label: "BFS (h = 0)" },
    "astar-hamming": { heuristic: "hamming", label: "A*, Hamming" },
    "astar-manhattan": { heuristic: "manhattan", label: "A*, Manhattan" },
    "idastar": { heuristic: "linear-conflict", label: "IDA*, Manhattan + linear conflict" }
  };

  function Heap() { this.items = []; }
  Heap.prototype.before = function (a, b) { return a.f < b.f || (a.f === b.f && a.g > b.g); };
  Heap.prototype.push = function (x) {
    var a = this.items, i = a.length;
    a.push(x);
    while (i > 0) {
      var p = (i - 1) >> 1;
      if (!this.before(a[i], a[p])) break;
      var t = a[i]; a[i] = a[p]; a[p] = t; i = p;
    }
  };
  Heap.prototype.pop = function () {
    var a = this.items, top = a[0], last = a.pop();
    if (a.length) {
      a[0] = last;
      for (var i = 0; ;) {
        var l = 2 * i + 1, r = l + 1, m = i;
        if (l < a.length && this.before(a[l], a[m])) m = l;
        if (r < a.length && this.before(a[r], a[m])) m = r;
        if (m === i) break;
        var t = a[i]; a[i] = a[m]; a[m] = t; i = m;
      }
    }
    return top;
  };

  function Stepper(tiles, n, algorithm) {
    this.n = n;
    this.algorithm = algorithm;
    this.h = NPuzzle.heuristics[ALGORITHMS[algorithm].heuristic];
    this.expanded = 0;
    this.done = false;
    this.root = this.node(tiles.slice(), 0, null);
    this.bound = this.root.f;
    this.restart();
  }

  Stepper.prototype.node = function (tiles, g, parent) {
    var h = this.h(tiles, this.n);
    return { tiles: tiles, g: g, h: h, f: g + h, parent: parent };
  };

  Stepper.prototype.restart = function () {
    this.seen = {};
    this.seen[this.root.tiles.join(",")] = 0;  // BFS: seen when generated; A*: the least g pushed
    this.closed = {};
    this.nextBound = Infinity;
    if (this.algorithm === "bfs") { this.queue = [this.root]; this.head = 0; }
    else if (this.algorithm === "idastar") this.stack = [this.root];
    else { this.heap = new Heap(); this.heap.push(this.root); }
  };

  Stepper.prototype.frontier = function () {
    if (this.algorithm === "bfs") return this.queue.length - this.head;
    return this.algorithm === "idastar" ? this.stack.length : this.heap.items.length;
  };

  Stepper.prototype.take = function () {
    if (this.algorithm === "bfs") {
      var x = this.queue[this.head++];
      if (this.head > 4096) { this.queue = this.queue.slice(this.head); this.head = 0; }
      return x;
    }
    if (this.algorithm !== "idastar") {  // A*: skip heap entries of boards already expanded by a shorter route
      for (;;) {
        var best = this.heap.pop(), key = best.tiles.join(",");
        if (!this.closed[key]) { this.closed[key] = true; return best; }
      }
    }
    for (;;) {  // IDA*: nodes over the bound are cut, not expanded; an empty stack starts a new pass
      if (!this.stack.length) {
        this.bound = this.nextBound;
        this.restart();
        this.newPass = true;
      }
      var top = this.stack.pop();
      if (top.f <= this.bound) return top;
      if (top.f < this.nextBound) this.nextBound = top.f;
    }
  };

  Stepper.prototype.children = function (node) {
    var n = this.n, blank = node.tiles.indexOf(0), out = [];
    var back = node.parent ? node.parent.tiles.indexOf(0) : -1;
    var around = NPuzzle.neighbours(blank, n);
    for (var i = 0; i < around.length; i++) {
      if (around[i] === back) continue;  // never straight back to the parent
      var tiles = node.tiles.slice();
      tiles[blank] = tiles[around[i]]; tiles[around[i]] = 0;
      out.push(this.node(tiles, node.g + 1, node));
    }
    return out;
  };

  /* One expansion: {node, children, frontier, expanded, bound, found}. */
  Stepper.prototype.step = function () {
    if (this.done) return null;
    this.newPass = false;
    var node = this.take();
    if (NPuzzle.isGoal(node.tiles)) {
      this.done = true;
      return { node: node, children: [], frontier: this.frontier(), expanded: this.expanded, found: true,
               bound: this.bound, newPass: this.newPass };
    }
    this.expanded++;
    var kids = this.children(node), fresh = [];
    for (var i = 0; i < kids.length; i++) {
      var key = kids[i].tiles.join(",");
      if (this.algorithm === "idastar") fresh.push(kids[i]);  // IDA* keeps no table, only the path
      else if (this.algorithm === "bfs" ? !(key in this.seen)
               : !this.closed[key] && !(this.seen[key] <= kids[i].g)) {
        this.seen[key] = kids[i].g;
        fresh.push(kids[i]);
      }
    }
    if (this.algorithm === "bfs") Array.prototype.push.apply(this.queue, fresh);
    else if (this.algorithm === "idastar") for (var j = fresh.length - 1; j >= 0; j--) this.stack.push(fresh[j]);
    else fresh.forEach(function (k) { this.heap.push(k); }, this);
    return { node: node, children: kids, frontier: this.frontier(), expanded: this.expanded, found: false,
             bound: this.bound, newPass: this.newPass };
  };

  Stepper.ALGORITHMS = ALGORITHMS;
  return Stepper;
})();
