"use strict";
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const MOVES = data.moves;  // letter -> the blank's [row, column] step, from the solver's moves

  // Decode a replay: its first board, then one letter per step (the blank's move) or "*" for a
  // stored board. Legality was decided by the grader; this only rebuilds the boards.
  function decode(replay) {
    const n = replay.n, boards = [replay.first.slice()];
    for (let i = 0; i < replay.steps.length; i++) {
      const letter = replay.steps[i];
      if (letter === "*") { boards.push(replay.jumps[String(i + 1)].slice()); continue; }
      const board = boards[boards.length - 1].slice(), blank = board.indexOf(0);
      const target = blank + MOVES[letter][0] * n + MOVES[letter][1];
      board[blank] = board[target]; board[target] = 0;
      boards.push(board);
    }
    return boards;
  }

  // A compact replay (see report_data) back to the player's form: what it left out, it left out because
  // the case says it (the size, the input as first board) or because it was empty.
  function expand(compact, info) {
    if (!compact) return null;
    return { n: info.n, first: compact.first || info.input, steps: compact.steps, jumps: compact.jumps || {},
             illegal: compact.illegal === undefined ? null : compact.illegal, repeat: compact.repeat || null,
             boards: compact.boards, shown: compact.shown || compact.boards };
  }

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) node.setAttribute(key, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }
  const fmt = (x) => (x === null || x === undefined ? "–" : String(Math.round(x * 100) / 100));

  // The matrix rows, one per submission, built from the data when their page is first shown (the file
  // carries no cell markup, and a class of a thousand builds one page, not a thousand rows).
  const PAGE_ROWS = 100;
  const SEVERITY = data.severity;  // the grader's verdict order, worst first
  const table = document.getElementById("matrix"), tbody = table.tBodies[0], built = new Map();
  const verdictsOf = data.submissions.map((sub) => new Set(sub.cells.filter((c) => c).map((c) => c[0])));
  const percent = (sub) => (sub.max_score ? 100 * sub.score / sub.max_score : 0);
  function buildRow(s) {
    const sub = data.submissions[s], row = el("tr");
    const pct = percent(sub);
    const bar = el("span", { class: "pct" }, `${Math.round(pct)}%`);
    bar.style.setProperty("--pct", `${pct.toFixed(1)}%`);
    const pctCell = el("td", { class: "num pctc" });
    pctCell.append(bar);
    row.append(el("th", { class: "sid", scope: "row", title: sub.id }, sub.id),
               el("td", { class: "num score" }, fmt(sub.score)), el("td", { class: "num max" }, fmt(sub.max_score)),
               pctCell);
    sub.cells.forEach((cell, k) => {
      if (!cell) { row.append(el("td", { class: "v none" }, "·")); return; }
      const td = el("td", { class: "v " + cell[0] });
      td.append(el("button", { type: "button", "data-sub": String(s), "data-case": String(k),
        title: `${sub.id} / ${data.cases[k].id}: ${cell[0]}, ${fmt(cell[1])}/${fmt(data.cases[k].points)}` }, cell[0]));
      row.append(td);
    });
    row.dataset.verdicts = Array.from(verdictsOf[s]).join(" ");
    return row;
  }
  const rowOf = (s) => { if (!built.has(s)) built.set(s, buildRow(s)); return built.get(s); };

  // Sort keys: a case column sorts by verdict (worst first), then points.
  const keyOf = {
    id: (s) => data.submissions[s].id, score: (s) => data.submissions[s].score,
    max: (s) => data.submissions[s].max_score, pct: (s) => percent(data.submissions[s]),
    case: (s, k) => { const c = data.submissions[s].cells[k]; return c ? SEVERITY.indexOf(c[0]) * 1e6 + c[1] : -1; },
  };
  const view = { order: data.submissions.map((_, s) => s), shown: [], page: 0 };
  function sortBy(head) {
    const ascending = head.getAttribute("aria-sort") !== "ascending", k = Number(head.dataset.case);
    const key = keyOf[head.dataset.sort];
    table.querySelectorAll("th[aria-sort]").forEach((th) => th.setAttribute("aria-sort", "none"));
    head.setAttribute("aria-sort", ascending ? "ascending" : "descending");
    view.order.sort((a, b) => {
      const x = key(a, k), y = key(b, k);
      const c = typeof x === "string" ? x.localeCompare(y) : x - y;
      return (ascending ? c : -c) || a - b;
    });
    applyFilter();
  }
  table.tHead.addEventListener("click", (event) => {
    const head = event.target.closest("th.sortable");
    if (head) sortBy(head);
  });

  // The API tests' panel (when the run had API tests): its rows follow the matrix's page, order and filter.
  let apiBody = null;
  const apiBuilt = new Map();
  if (data.api_names.length) {
    const apiTable = el("table", { class: "matrix", id: "api-matrix" }), head = el("tr");
    head.append(el("th", {}, "submission"), el("th", {}, "passed"));
    data.api_names.forEach((name) => { const th = el("th", { class: "case" }); th.append(el("span", {}, name)); head.append(th); });
    apiTable.append(el("thead"), el("tbody"));
    apiTable.tHead.append(head);
    apiBody = apiTable.tBodies[0];
    const scroll = el("div", { class: "scroll" }), section = el("section", { class: "panel" });
    scroll.append(apiTable);
    section.append(el("h2", {}, "API tests"), el("p", { class: "hint" }, "Hover a cell for the message; the rows follow the matrix's page."), scroll);
    const top = document.querySelector("section.top");
    top.parentNode.insertBefore(section, top);
  }
  function apiRowOf(s) {
    if (apiBuilt.has(s)) return apiBuilt.get(s);
    const sub = data.submissions[s], row = el("tr");
    const passed = sub.api.filter((test) => test && test[0]).length, run = sub.api.filter((test) => test).length;
    row.append(el("th", { class: "sid", scope: "row" }, sub.id), el("td", { class: "num" }, `${passed}/${run}`));
    sub.api.forEach((test, t) => {
      if (!test) { row.append(el("td", { class: "v none" }, "·")); return; }
      row.append(el("td", { class: "v " + data.api_verdicts[test[0] ? 0 : 1],
        title: `${sub.id} / ${data.api_names[t]}: ${fmt(test[1])}/${fmt(test[2])}\n${data.messages[test[3]]}` },
        test[0] ? "✓" : "✗"));
    });
    apiBuilt.set(s, row);
    return row;
  }

  const pageInfo = document.getElementById("page-info");
  const pagePrev = document.getElementById("page-prev"), pageNext = document.getElementById("page-next");
  function showPage(page) {
    const pages = Math.max(1, Math.ceil(view.shown.length / PAGE_ROWS));
    view.page = Math.max(0, Math.min(page, pages - 1));
    const first = view.page * PAGE_ROWS;
    tbody.replaceChildren(...view.shown.slice(first, first + PAGE_ROWS).map(rowOf));
    pageInfo.textContent = `page ${view.page + 1} of ${pages}`;
    pagePrev.disabled = view.page === 0;
    pageNext.disabled = view.page >= pages - 1;
    if (apiBody) apiBody.replaceChildren(...view.shown.slice(first, first + PAGE_ROWS).filter((s) => data.submissions[s].api)
                                                 .map(apiRowOf));
    if (state && state.selected) markSelected();
  }
  pagePrev.addEventListener("click", () => showPage(view.page - 1));
  pageNext.addEventListener("click", () => showPage(view.page + 1));

  // Search by id and filter by a verdict, over every submission; the first page of the matches is shown.
  const filter = document.getElementById("filter"), verdictFilter = document.getElementById("verdict-filter");
  const filterCount = document.getElementById("filter-count");
  function applyFilter() {
    const query = filter.value.trim().toLowerCase(), verdict = verdictFilter.value;
    view.shown = view.order.filter((s) => (!query || data.submissions[s].id.toLowerCase().includes(query)) &&
                                          (!verdict || verdictsOf[s].has(verdict)));
    filterCount.textContent = `${view.shown.length} of ${data.submissions.length} submissions shown`;
    showPage(0);
  }
  filter.addEventListener("input", applyFilter);
  verdictFilter.addEventListener("change", applyFilter);
  let state = null;
  applyFilter();
  // The sticky score columns sit right after the name column, whatever width the names give it.
  const headCells = table.tHead.rows[0].cells;
  table.style.setProperty("--left-score", `${headCells[0].offsetWidth}px`);
  table.style.setProperty("--left-max", `${headCells[0].offsetWidth + headCells[1].offsetWidth}px`);
  table.style.setProperty("--left-pct",
    `${headCells[0].offsetWidth + headCells[1].offsetWidth + headCells[2].offsetWidth}px`);

  // The player panel, built once; a matrix cell loads a (submission, case) into it.
  const panel = el("aside", { id: "player", class: "panel", "aria-live": "polite" });
  const matrixPanel = document.getElementById("matrix").closest(".panel");
  const workspace = el("div", { class: "workspace" });
  matrixPanel.parentNode.insertBefore(workspace, matrixPanel);
  workspace.append(matrixPanel, panel);

  state = { boards: [], index: 0, timer: null, replay: null, input: null, goal: null, selected: null };
  function markSelected() {
    document.querySelectorAll(".v button.selected").forEach((b) => b.classList.remove("selected"));
    const [s, k] = state.selected;
    const picked = document.querySelector(`.v button[data-sub="${s}"][data-case="${k}"]`);
    if (picked) picked.classList.add("selected");
  }
  const ui = {
    heading: el("h2", {}, "Replay"),
    title: el("div", { class: "title", id: "replay-title" }),
    facts: el("dl", { class: "facts" }),
    board: el("div", { class: "board", id: "replay-board", role: "img" }),
    scrub: el("input", { class: "scrub", id: "replay-scrub", type: "range", min: "0", max: "0", value: "0",
                         "aria-label": "step" }),
    info: el("div", { class: "stepinfo", id: "replay-step" }),
    controls: el("div", { class: "controls" }),
    message: el("pre", { class: "message", id: "replay-message" }),
  };
  const buttons = {};
  for (const [name, label, title] of [["first", "« first", "first board"], ["prev", "‹ prev", "previous step"],
                                      ["play", "▶ play", "play"], ["pause", "pause", "pause"],
                                      ["next", "next ›", "next step"], ["last", "last »", "last board"]]) {
    buttons[name] = el("button", { type: "button", id: "replay-" + name, title: title }, label);
    ui.controls.append(buttons[name]);
  }
  panel.append(ui.heading, ui.title, ui.facts, ui.board, ui.scrub, ui.info, ui.controls, ui.message);

  function fact(name, value, id) {
    ui.facts.append(el("dt", {}, name), el("dd", id ? { id: id } : {}, value));
  }

  function drawBoard(tiles, n, previous) {
    ui.board.replaceChildren();
    ui.board.style.gridTemplateColumns = `repeat(${n}, auto)`;
    ui.board.classList.toggle("small", n > 5);
    tiles.forEach((tile, pos) => {
      const moved = previous && tile !== 0 && previous[pos] !== tile;
      ui.board.append(el("div", { class: "tile" + (tile === 0 ? " blank" : "") + (moved ? " moved" : ""),
                                  "data-pos": String(pos) }, tile === 0 ? "" : String(tile)));
    });
    ui.board.setAttribute("aria-label", tiles.join(" "));
    ui.board.dataset.tiles = tiles.join(" ");
  }

  function show(index) {
    const boards = state.boards, replay = state.replay;
    if (!boards.length) return;
    state.index = Math.max(0, Math.min(index, boards.length - 1));
    const i = state.index, n = replay.n;
    drawBoard(boards[i], n, i > 0 ? boards[i - 1] : null);
    ui.scrub.value = String(i);
    const illegalHere = replay.illegal !== null && i === replay.illegal;
    ui.board.classList.toggle("illegal", illegalHere && i > 0);
    ui.board.classList.toggle("offstart", illegalHere && i === 0);
    const repeatHere = replay.repeat !== null && i === replay.repeat[0];
    ui.board.classList.toggle("repeat", repeatHere && !illegalHere);
    ui.info.replaceChildren();
    ui.info.append(`step ${i} of ${boards.length - 1}`);
    if (illegalHere) {
      ui.info.append(" · ", el("span", { class: "bad", id: "replay-illegal" },
        i === 0 ? "the first board is not the input" : `step ${i} is not a legal move`));
    } else if (repeatHere) {
      ui.info.append(" · ", el("span", { class: "bad", id: "replay-repeat" },
        `step ${i} returns to the board of step ${replay.repeat[1]}`));
    }
    // The assignment's goal (blank last or blank first), as the facts show it.
    ui.board.classList.toggle("at-goal", !illegalHere && !!state.goal && boards[i].join(" ") === state.goal.join(" "));
    buttons.first.disabled = buttons.prev.disabled = i === 0;
    buttons.next.disabled = buttons.last.disabled = i === boards.length - 1;
  }

  function pause() {
    if (state.timer !== null) { clearInterval(state.timer); state.timer = null; }
    buttons.play.disabled = !state.boards.length || state.boards.length < 2;
    buttons.pause.disabled = true;
  }
  function play() {
    if (state.boards.length < 2) return;
    if (state.index >= state.boards.length - 1) show(0);
    pause();
    buttons.play.disabled = true; buttons.pause.disabled = false;
    state.timer = setInterval(() => {
      show(state.index + 1);
      if (state.index >= state.boards.length - 1) pause();
    }, 450);
  }

  function load(subIndex, caseIndex) {
    pause();
    const sub = data.submissions[subIndex], info = data.cases[caseIndex], cell = sub.cells[caseIndex];
    const result = { verdict: cell[0], points: cell[1], max_points: info.points, message: data.messages[cell[2]],
                     seconds: cell[3] === undefined ? null : cell[3], moves: cell[4] === undefined ? null : cell[4],
                     replay: expand(cell[5], info) };
    state.selected = [subIndex, caseIndex];
    markSelected();
    ui.title.replaceChildren(el("span", { class: "badge " + result.verdict, id: "replay-verdict" }, result.verdict),
                             ` ${sub.id} · ${info.id}`);
    ui.facts.replaceChildren();
    fact("points", `${fmt(result.points)} / ${fmt(result.max_points)}`);
    fact("optimal", info.solvable ? `${fmt(info.optimal)} moves` : "unsolvable", "replay-optimal");
    if (info.goal) {
      const rows = [];
      for (let r = 0; r < info.n; r++) rows.push(info.goal.slice(r * info.n, (r + 1) * info.n).join(" "));
      fact("goal", rows.join(" / "), "replay-goal");
    }
    state.goal = info.goal;
    const replay = result.replay;
    fact("printed", replay ? `${replay.boards - 1} moves (${replay.boards} boards)` :
                    (result.moves !== null ? `K = ${result.moves}, no boards` : "no path"), "replay-printed");
    if (replay && replay.shown < replay.boards) fact("replayed", `the first ${replay.shown} boards`);
    fact("time", result.seconds === null ? "–" : `${fmt(result.seconds)} s`);
    ui.message.textContent = result.message || "";
    state.replay = replay;
    if (replay) {
      state.boards = decode(replay);
      ui.scrub.max = String(state.boards.length - 1);
      ui.scrub.disabled = false;
      show(0);
    } else {
      state.boards = [];
      ui.scrub.max = "0"; ui.scrub.disabled = true;
      ui.info.textContent = "no path was printed";
      if (info.input) { drawBoard(info.input, info.n, null); } else { ui.board.replaceChildren(); }
      ui.board.classList.remove("illegal", "offstart");
      for (const name of ["first", "prev", "next", "last"]) buttons[name].disabled = true;
    }
    pause();
  }

  buttons.first.addEventListener("click", () => { pause(); show(0); });
  buttons.prev.addEventListener("click", () => { pause(); show(state.index - 1); });
  buttons.next.addEventListener("click", () => { pause(); show(state.index + 1); });
  buttons.last.addEventListener("click", () => { pause(); show(state.boards.length - 1); });
  buttons.play.addEventListener("click", play);
  buttons.pause.addEventListener("click", pause);
  ui.scrub.addEventListener("input", () => { pause(); show(Number(ui.scrub.value)); });
  document.getElementById("matrix").addEventListener("click", (event) => {
    const button = event.target.closest("button[data-sub]");
    if (button) load(Number(button.dataset.sub), Number(button.dataset.case));
  });
  panel.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight") { pause(); show(state.index + 1); }
    if (event.key === "ArrowLeft") { pause(); show(state.index - 1); }
  });

  // Start on the first cell that went wrong (else the first cell), so the page opens on something useful.
  let start = null;
  data.submissions.forEach((sub, s) => sub.cells.forEach((cell, k) => {
    if (start === null && cell && cell[5] && cell[5].illegal !== undefined) start = [s, k];
  }));
  if (start === null && data.submissions.length && data.cases.length) start = [0, 0];
  if (start !== null && data.submissions[start[0]].cells[start[1]]) {
    showPage(Math.floor(view.shown.indexOf(start[0]) / PAGE_ROWS));
    load(start[0], start[1]);
  } else {
    panel.append(el("p", { class: "empty" }, "Nothing to replay."));
    pause();
  }
  document.body.dataset.ready = "true";
})();
