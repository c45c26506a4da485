// memsim serve's page: plain JavaScript, no framework, nothing loaded from elsewhere.
"use strict";

const $ = id => document.getElementById(id);
const el = (tag, props = {}, ...kids) => {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (k.startsWith("data-") || k.startsWith("aria-") || k === "role" || k === "tabindex") e.setAttribute(k, v);
    else e[k] = v;
  }
  for (const kid of kids) e.append(kid);
  return e;
};
const fmt = x => (x === null || x === undefined) ? "" : Number(typeof x === "object" ? x.float : x).toFixed(4);
// num reads a value of a review: {exact, float}.
const num = x => (x && typeof x === "object") ? x.float : Number(x);
const sleep = ms => new Promise(r => setTimeout(r, ms));
// The pause while a bot's turn is shown, in milliseconds (tests set window.memsimDelay = 0).
const delay = () => (typeof window.memsimDelay === "number" ? window.memsimDelay : 700);

async function api(method, url, body, raw) {
  const opts = {method, headers: {}};
  if (body !== undefined) {
    opts.body = raw ? body : JSON.stringify(body);
    opts.headers["Content-Type"] = raw ? "text/plain" : "application/json";
  }
  const res = await fetch(url, opts);
  const type = res.headers.get("Content-Type") || "";
  const data = type.startsWith("application/json") ? await res.json() : await res.text();
  if (!res.ok) {
    const err = new Error(data && data.error ? data.error : res.status + " " + res.statusText);
    err.data = data;
    throw err;
  }
  return data;
}

function showError(id, err) {
  const p = $(id);
  if (!err) { p.hidden = true; p.textContent = ""; return; }
  p.hidden = false;
  p.textContent = err.message || String(err);
}

// Tabs: click, or the arrow keys along the tab list.
const tabs = [...document.querySelectorAll('[role="tab"]')];
function selectTab(tab, focus) {
  for (const t of tabs) {
    const on = t === tab;
    t.setAttribute("aria-selected", on);
    t.tabIndex = on ? 0 : -1;
    $(t.getAttribute("aria-controls")).hidden = !on;
  }
  if (focus) tab.focus();
  if (tab.id === "tab-explore" && !exploreShown) showTable();
}
for (const t of tabs) {
  t.addEventListener("click", () => selectTab(t));
  t.addEventListener("keydown", e => {
    const i = tabs.indexOf(t);
    if (e.key === "ArrowRight") selectTab(tabs[(i + 1) % tabs.length], true);
    else if (e.key === "ArrowLeft") selectTab(tabs[(i + tabs.length - 1) % tabs.length], true);
  });
}

// Faces get a colour each: the pairs' by their number, the singletons grey.
function faceStyle(btn, face, index, pairs) {
  if (face && face[0] === "S") btn.style.setProperty("--hue", "0"), btn.classList.add("single");
  else btn.style.setProperty("--hue", String(Math.round((index * 137.508) % 360)));
}

// drawBoard draws cells (coord, show, face) in cols columns into box; with onFlip the face-down
// cards are buttons that flip, moved between with the arrow keys.
function drawBoard(box, cells, cols, pairs, onFlip, remembered) {
  const focused = document.activeElement && box.contains(document.activeElement) ? Number(document.activeElement.dataset.pos) : -1;
  box.replaceChildren();
  box.style.setProperty("--cols", cols);
  cells.forEach((c, pos) => {
    const b = el("button", {type: "button", class: "card " + c.show, "data-pos": pos, tabindex: "-1"});
    const face = c.face || "";
    const index = face ? (face[0] === "P" ? Number(face.slice(1)) : pairs + Number(face.slice(1))) : 0;
    if (c.show === "up" || c.show === "taken") faceStyle(b, face, index, pairs);
    b.append(el("span", {class: "face", text: c.show === "down" ? "" : face}), el("span", {class: "coord", text: c.coord}));
    const mem = remembered && remembered[pos];
    if (mem && c.show === "down") { b.classList.add("remembered"); b.title = "remembered: " + mem; }
    b.setAttribute("aria-label", c.coord + ": " + (c.show === "down" ? "face down" + (mem ? ", remembered " + mem : "") : c.show === "up" ? face + " face up" : face + " taken"));
    if (onFlip) {
      b.disabled = c.show !== "down";
      b.addEventListener("click", () => onFlip(pos));
      b.addEventListener("keydown", e => moveFocus(e, box, pos, cols, cells.length));
    } else b.disabled = true;
    box.append(b);
  });
  const live = [...box.querySelectorAll("button:not([disabled])")];
  const keep = live.find(b => Number(b.dataset.pos) === focused) || live[0];
  if (keep) keep.tabIndex = 0;
  if (focused >= 0 && keep) keep.focus();
}

function moveFocus(e, box, pos, cols, n) {
  const step = {ArrowRight: 1, ArrowLeft: -1, ArrowDown: cols, ArrowUp: -cols}[e.key];
  if (!step) return;
  e.preventDefault();
  for (let p = pos + step; p >= 0 && p < n; p += step) {
    const b = box.querySelector(`[data-pos="${p}"]`);
    if (b && !b.disabled) {
      for (const o of box.querySelectorAll("button")) o.tabIndex = -1;
      b.tabIndex = 0;
      b.focus();
      return;
    }
  }
}

// showTurns shows turns one by one on a copy of cells: each turn's cards face up, then taken
// or face down again.
async function showTurns(box, cells, cols, pairs, turns, lastEl, textOf) {
  const work = cells.map(c => ({...c}));
  for (const t of turns) {
    for (const f of t.flips) work[f.pos] = {...work[f.pos], show: "up", face: f.face};
    drawBoard(box, work, cols, pairs, null);
    lastEl.textContent = textOf(t);
    if (delay() > 0) await sleep(delay());
    for (const f of t.flips) work[f.pos] = {...work[f.pos], show: t.end === "pair" ? "taken" : "down"};
  }
}

// ---- Play ----
let game = null;     // the state of the game on the table
let busy = false;    // a move is under way

async function loadPlayers() {
  const p = await api("GET", "/api/players");
  for (const id of ["play-against", "watch-p0", "watch-p1"]) {
    const s = $(id);
    s.replaceChildren(...p.players.map(x => el("option", {value: x.name, text: x.name + (x.program ? " (program)" : "")})));
    s.value = p.default;
  }
  if (p.players.length > 1) $("watch-p1").value = p.players.find(x => x.name !== p.default).name;
  for (const f of [$("play-form"), $("watch-form"), $("explore-form")]) f.elements.pass.value = p.pass;
  return p;
}

function formDeal(f) {
  const d = {pairs: Number(f.elements.pairs.value), pass: f.elements.pass.value};
  if (f.elements.singletons) d.singletons = Number(f.elements.singletons.value);
  const seed = f.elements.seed.value.trim();
  if (seed !== "") d.seed = Number(seed);
  return d;
}

$("play-form").addEventListener("submit", async e => {
  e.preventDefault();
  const f = e.target;
  const req = {against: f.elements.against.value, seat: Number(f.elements.seat.value), coach: f.elements.coach.checked, ...formDeal(f)};
  showError("play-error", null);
  try {
    busy = true;
    game = null;
    const st = await api("POST", "/api/games", req);
    $("play-game").hidden = false;
    await showState(st, true);
  } catch (err) { showError("play-error", err); } finally { busy = false; }
});

async function move(body) {
  if (!game || busy || game.over || !game.question) return;
  busy = true;
  $("play-game").dataset.state = "busy";
  showError("play-error", null);
  try {
    const st = await api("POST", `/api/games/${game.id}/flip`, body);
    await showState(st, false);
  } catch (err) {
    showError("play-error", err);
    $("play-game").dataset.state = "waiting";
  } finally { busy = false; }
}

async function showState(st, fresh) {
  const cells = fresh || !game ? st.cells : game.cells;
  if (st.turns.length > 0) {
    $("play-game").dataset.state = "animating";
    const name = i => st.seats[i].person ? "you" : st.seats[i].name;
    await showTurns($("play-board"), cells, st.cols, st.pairs, st.turns, $("play-last"), t => t.text || (name(t.seat) + " passed"));
  }
  game = st;
  const remembered = {};
  for (const m of st.memory || []) for (const c of m.cards) remembered[c.pos] = (remembered[c.pos] ? remembered[c.pos] + ", " : "") + m.name + " " + c.face;
  drawBoard($("play-board"), st.cells, st.cols, st.pairs, st.over ? null : pos => move({pos}), remembered);
  const named = st.question && st.question.named !== undefined ? $("play-board").querySelector(`[data-pos="${st.question.named}"]`) : null;
  if (named) {
    named.classList.add("named");
    named.disabled = true;
    named.setAttribute("aria-label", st.cells[st.question.named].coord + ": named first, face down until the second card is named");
  }
  const you = st.you, other = 1 - you;
  $("play-scores").textContent = `you ${st.scores[you]}, ${st.seats[other].name} ${st.scores[other]}`;
  $("play-turn").textContent = st.over ? "" : st.question ? turnText(st) : "";
  $("play-rules").hidden = !st.variant;
  $("play-rules").textContent = st.variant ? rulesText(st) : "";
  $("play-last").textContent = st.last ? st.last.text : "";
  $("play-pass").disabled = !st.question || !st.question.can_pass;
  $("play-save").href = `/api/games/${st.id}/record`;
  $("play-save").setAttribute("download", `memsim-game-${st.seed}.jsonl`);
  $("play-result").hidden = !st.over;
  $("play-result").textContent = st.over ? "Result " + st.result : "";
  $("play-game").dataset.state = st.over ? "over" : "waiting";
  showCoach(st.coach);
  showMemory(st.memory || []);
}

// turnText names the person's decision: the turn (of the limit, with the turns left) and the card.
function turnText(st) {
  const q = st.question;
  let s = `turn ${st.turn}`;
  if (st.turn_limit) s += ` of ${st.turn_limit} (${st.turns_left} left)`;
  if (q.blind && q.card === 1) return s + ": name both cards, the first then the second, before either is turned up";
  if (q.blind) return s + `: name your second card (${st.cells[q.named].coord} stays face down until then)`;
  return s + `: your ${q.card === 1 ? "first" : "second"} card`;
}

// rulesText says how the game's rule variant plays.
function rulesText(st) {
  const parts = [];
  if (st.copies > 2) parts.push(`${st.copies} cards of each face: any two cards of a face are a pair`);
  if (st.blind) parts.push("blind flips: both cards are named before either is turned up");
  if (st.turn_limit) parts.push(`the game ends after ${st.turn_limit} turns, the pairs left counting for nobody`);
  return "Rules: " + parts.join("; ") + ".";
}

function showCoach(c) {
  const box = $("coach");
  box.hidden = !c;
  if (!c) return;
  const body = $("coach-table").tBodies[0];
  body.replaceChildren();
  $("coach-turn").hidden = true;
  if (c.error) { $("coach-last").textContent = c.error; return; }
  $("coach-last").textContent = c.last ? c.last.text : "";
  $("coach-turn").hidden = !c.turn;
  $("coach-turn").textContent = c.turn ? (c.options.length ? "The choices of this turn, valued at its start (the variant's exact model)." : c.text) : "";
  $("coach-last").className = "cost" + (c.last && (c.last.cost_pairs > 0 || c.last.cost_win > 0) ? " lost" : "");
  for (const o of c.options) {
    const best = [o.best_pairs ? "best for pairs" : "", o.best_win ? "best to win" : ""].filter(Boolean).join(", ");
    const tr = el("tr", {class: (o.best_pairs || o.best_win ? "best" : "") + (o.model ? "" : " outside")},
      el("td", {text: o.move + (o.model ? "" : " (outside the model)")}, best ? el("span", {class: "tag", text: best}) : ""),
      el("td", {class: "num", text: fmt(o.pairs), "data-exact": o.pairs_exact}),
      el("td", {class: "num", text: c.no_win ? "–" : fmt(o.win), "data-exact": o.win_exact || ""}));
    body.append(tr);
  }
}

function showMemory(mem) {
  const box = $("memory");
  box.replaceChildren();
  for (const m of mem) {
    const cards = m.known ? (m.cards.length ? m.cards.map(c => c.coord + " " + c.face).join(", ") : "nothing") : "unknown (a program keeps its own memory)";
    box.append(el("p", {}, el("strong", {text: `${m.name}`}), ` (${m.kind || "own"} memory) remembers `, el("span", {class: "mem", text: cards})));
  }
}

$("play-pass").addEventListener("click", () => move({pass: true}));
document.addEventListener("keydown", e => {
  if ($("play").hidden || e.target.matches("input, textarea, select")) return;
  if (e.key === "p" || e.key === "P") { e.preventDefault(); move({pass: true}); }
});

async function reviewText(text) {
  selectTab($("tab-review"));
  $("review-text").value = text;
  $("review-game").value = 1;
  await runReview();
}

$("play-review").addEventListener("click", async () => {
  if (!game) return;
  try {
    const text = await api("GET", `/api/games/${game.id}/record`);
    await reviewText(text);
  } catch (err) { showError("play-error", err); }
});

// ---- Watch ----
let watched = null, watchAt = 0, watchTimer = null;

$("watch-form").addEventListener("submit", async e => {
  e.preventDefault();
  const f = e.target;
  stopWatch();
  showError("watch-error", null);
  try {
    watched = await api("POST", "/api/watch", {players: [f.elements.p0.value, f.elements.p1.value], ...formDeal(f)});
    $("watch-game").hidden = false;
    watchAt = 0;
    drawWatch();
  } catch (err) { showError("watch-error", err); }
});

// drawWatch draws the watched game after its first watchAt turns.
function drawWatch() {
  const w = watched;
  const n = 2 * w.pairs + w.singletons;
  const cells = [];
  for (let p = 0; p < n; p++) cells.push({coord: String.fromCharCode(97 + p % w.cols) + (Math.floor(p / w.cols) + 1), show: "down"});
  const scores = w.seats.map(() => 0);
  for (const t of w.turns.slice(0, watchAt)) {
    if (t.end === "pair") { scores[t.seat]++; for (const f of t.flips) cells[f.pos] = {...cells[f.pos], show: "taken", face: f.face}; }
  }
  const cur = w.turns[watchAt - 1];
  if (cur && cur.end !== "pair") for (const f of cur.flips) cells[f.pos] = {...cells[f.pos], show: "up", face: f.face};
  drawBoard($("watch-board"), cells, w.cols, w.pairs, null);
  $("watch-scores").textContent = w.seats.map((s, i) => `${s.name} ${scores[i]}`).join(", ");
  $("watch-step").textContent = `turn ${watchAt} of ${w.turns.length}`;
  $("watch-last").textContent = cur ? cur.text : "";
  $("watch-result").hidden = watchAt < w.turns.length;
  $("watch-result").textContent = "Result " + w.result;
}

function stopWatch() {
  clearInterval(watchTimer);
  watchTimer = null;
  $("watch-run").textContent = "Play";
}
$("watch-next").addEventListener("click", () => { if (watched && watchAt < watched.turns.length) { watchAt++; drawWatch(); } });
$("watch-back").addEventListener("click", () => { if (watched && watchAt > 0) { watchAt--; drawWatch(); } });
$("watch-run").addEventListener("click", () => {
  if (!watched) return;
  if (watchTimer) { stopWatch(); return; }
  if (watchAt >= watched.turns.length) watchAt = 0;
  $("watch-run").textContent = "Pause";
  watchTimer = setInterval(() => {
    if (watchAt >= watched.turns.length) { stopWatch(); return; }
    watchAt++;
    drawWatch();
  }, Math.max(50, delay()));
});
$("watch-review").addEventListener("click", () => { if (watched) reviewText(watched.record); });

// ---- Review ----
$("review-file").addEventListener("change", async e => {
  const file = e.target.files[0];
  if (file) $("review-text").value = await file.text();
});
$("review-form").addEventListener("submit", e => { e.preventDefault(); runReview(); });

async function runReview() {
  showError("review-error", null);
  const out = $("review-out");
  out.dataset.state = "loading";
  try {
    const k = Number($("review-game").value) || 1;
    const res = await api("POST", "/api/review?game=" + k, $("review-text").value, true);
    showReview(res);
    out.hidden = false;
    out.dataset.state = "shown";
  } catch (err) {
    out.hidden = true;
    out.dataset.state = "failed";
    showError("review-error", err);
  }
}

function showReview(res) {
  if (res.variant) return showVariantReview(res);
  if (res.seats) return showSeatsReview(res);
  const r = res.review;
  const names = r.players.map((p, i) => p || "seat " + i);
  $("review-head").textContent = `Game ${r.game} of ${res.games}: ${names[0]} (seat 0) against ${names[1]} (seat 1); ${r.pairs} pairs, ${r.singletons} singletons, pass ${r.pass}; ${r.arithmetic} values. ` +
    `Result: ${names[0]} ${r.scores[0]}, ${names[1]} ${r.scores[1]}${r.finished ? "" : " so far (unfinished)"}.`;
  // The SVG is the server's drawing (analysis/plots), parsed as an image document.
  const svg = new DOMParser().parseFromString(res.svg, "image/svg+xml").documentElement;
  svg.removeAttribute("width"); svg.removeAttribute("height");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", "Evaluation graph: " + names[0] + "'s win score after each decision");
  $("review-graph").replaceChildren(document.importNode(svg, true));
  const seats = $("review-seats");
  seats.replaceChildren(el("tr", {}, ...["Seat", "Decisions", "At best (pairs)", "At best (win)", "Pairs lost", "Win lost", "Luck (pairs)", "Luck (win)"].map(h => el("th", {scope: "col", text: h}))));
  r.seats.forEach((s, i) => seats.append(el("tr", {}, el("td", {text: names[i]}), el("td", {class: "num", text: s.decisions}), el("td", {class: "num", text: s.best}),
    el("td", {class: "num", text: s.best_win}), el("td", {class: "num", text: fmt(s.lost.pairs)}), el("td", {class: "num", text: fmt(s.lost.win)}),
    el("td", {class: "num", text: fmt(s.luck.pairs)}), el("td", {class: "num", text: fmt(s.luck.win)}))));
  const dec = $("review-decisions");
  dec.replaceChildren(el("tr", {}, ...["Turn", "Seat", "Card", "State", "Move", "Best", "Cost (pairs)", "Cost (win)"].map(h => el("th", {scope: "col", text: h}))));
  for (const d of r.decisions) {
    const same = (a, b) => a && b && (a.exact && b.exact ? a.exact === b.exact : num(a) === num(b));
    const best = d.options.filter(o => o.model && (same(o.pairs, d.best.pairs) || same(o.win, d.best.win))).map(o => o.move);
    const lost = num(d.cost.pairs) > 0 || num(d.cost.win) > 0;
    const st = d.state;
    dec.append(el("tr", {class: lost ? "lost" : ""}, el("td", {class: "num", text: d.turn + 1}), el("td", {text: names[d.seat]}), el("td", {class: "num", text: d.card}),
      el("td", {text: `n=${st.n}, j=${st.j}` + (st.s ? `, s=${st.s}, f=${st.f}` : "") + (st.lead ? `, d=${st.lead}` : "")}),
      el("td", {text: (d.revealed ? "after " + d.revealed + ": " : "") + d.chosen}),
      el("td", {text: d.options.length === 1 ? "forced" : lost ? best.join(" or ") : "best"}),
      el("td", {class: "num", text: fmt(d.cost.pairs)}), el("td", {class: "num", text: fmt(d.cost.win)})));
  }
}

// showVariantReview shows the review of a game under a rule variant: a decision per turn, the
// choices of the variant's exact model valued at the turn's start.
function showVariantReview(res) {
  const r = res.variant;
  const names = r.players.map((p, i) => p || "seat " + i);
  $("review-head").textContent = `Game ${r.game} of ${res.games}: ${names[0]} (seat 0) against ${names[1]} (seat 1); ${r.pairs} pairs, ${r.singletons} singletons, pass ${r.pass}, ${r.variant}; ${r.arithmetic} values, a turn at a time in the choices of the variant's model${res.no_win ? ` (${res.win_note})` : ""}. ` +
    `Result: ${names[0]} ${r.scores[0]}, ${names[1]} ${r.scores[1]}${r.finished ? "" : " so far (unfinished)"}.`;
  if (res.svg) {
    const svg = new DOMParser().parseFromString(res.svg, "image/svg+xml").documentElement;
    svg.removeAttribute("width"); svg.removeAttribute("height");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", "Evaluation graph: " + names[0] + (r.win ? "'s win score" : "'s expected pairs") + " at each turn's decision");
    $("review-graph").replaceChildren(document.importNode(svg, true));
  } else {
    $("review-graph").replaceChildren(el("p", {class: "note", text: "The game has no decision to draw."}));
  }
  const win = x => r.win ? fmt(x) : "–";
  const seats = $("review-seats");
  seats.replaceChildren(el("tr", {}, ...["Seat", "Decisions", "At best (pairs)", "At best (win)", "Pairs lost", "Win lost", "Luck (pairs)", "Luck (win)"].map(h => el("th", {scope: "col", text: h}))));
  r.seats.forEach((s, i) => seats.append(el("tr", {}, el("td", {text: names[i]}), el("td", {class: "num", text: s.decisions}), el("td", {class: "num", text: s.best}),
    el("td", {class: "num", text: r.win ? s.best_win : "–"}), el("td", {class: "num", text: fmt(s.lost.pairs)}), el("td", {class: "num", text: win(s.lost.win)}),
    el("td", {class: "num", text: fmt(s.luck.pairs)}), el("td", {class: "num", text: win(s.luck.win)}))));
  const dec = $("review-decisions");
  dec.replaceChildren(el("tr", {}, ...["Turn", "Seat", "Choices", "State", "Choice", "Best", "Cost (pairs)", "Cost (win)", "Luck (pairs)", "Luck (win)"].map(h => el("th", {scope: "col", text: h}))));
  for (const d of r.decisions) {
    const lost = num(d.cost.pairs) > 0 || (r.win && num(d.cost.win) > 0);
    const st = d.state;
    const where = (d.faces ? "faces " + d.faces : `n=${st.n}, j=${st.j}` + (st.s ? `, s=${st.s}, f=${st.f}` : "")) + (st.lead ? `, d=${st.lead}` : "") + (d.turns_left ? `, ${d.turns_left} left` : "");
    const best = d.best + (r.win && d.best_win !== d.best ? ` (to win: ${d.best_win})` : "");
    dec.append(el("tr", {class: lost ? "lost" : ""}, el("td", {class: "num", text: d.turn + 1}), el("td", {text: names[d.seat]}),
      el("td", {class: "num", text: d.options.length}), el("td", {text: where}),
      el("td", {text: d.chosen ? d.made.join(" or ") : "outside the model"}),
      el("td", {text: d.options.length === 1 ? "forced" : lost ? best : "best"}),
      el("td", {class: "num", text: fmt(d.cost.pairs)}), el("td", {class: "num", text: win(d.cost.win)}),
      el("td", {class: "num", text: fmt(d.luck.pairs)}), el("td", {class: "num", text: win(d.luck.win)})));
  }
}

// showSeatsReview shows the review of a game of three or more seats: every seat's expected pairs
// at the start, its decisions, the best among them, the pairs its choices lost, its luck and its
// pairs taken; then a decision per turn, every legal choice valued in the mover's expected pairs
// (every seat for itself afterwards), the choice the turn's cards made in bold.
function showSeatsReview(res) {
  const r = res.seats;
  const names = r.players.map((p, i) => p || "seat " + i);
  $("review-head").textContent = `Game ${r.game} of ${res.games}: ${names.map((n, i) => `${n} (seat ${i})`).join(", ")}; ${r.pairs} pairs, ${r.singletons} singletons, pass ${r.pass}; ${r.arithmetic} values, a turn at a time in the choices of every seat for itself (no win scores). ` +
    `Result: ${names.map((n, i) => `${n} ${r.scores[i]}`).join(", ")}${r.finished ? "" : " so far (unfinished)"}.`;
  $("review-graph").replaceChildren(el("p", {class: "note", text: "A game of three or more seats has no evaluation graph."}));
  const seats = $("review-seats");
  seats.replaceChildren(el("tr", {}, ...["Seat", "Expected pairs at the start", "Decisions", "At best", "Pairs lost", "Luck (pairs)", "Pairs taken"].map(h => el("th", {scope: "col", text: h}))));
  r.totals.forEach((s, i) => seats.append(el("tr", {}, el("td", {text: names[i]}), el("td", {class: "num", text: r.start ? fmt(r.start[i]) : "–"}),
    el("td", {class: "num", text: s.decisions}), el("td", {class: "num", text: s.best}),
    el("td", {class: "num", text: fmt(s.lost)}), el("td", {class: "num", text: fmt(s.luck)}), el("td", {class: "num", text: r.scores[i]}))));
  const dec = $("review-decisions");
  dec.replaceChildren(el("tr", {}, ...["Turn", "Seat", "State", "Choices (mover's expected pairs)", "Choice made", "Best", "Cost (pairs)", "Luck (pairs)"].map(h => el("th", {scope: "col", text: h}))));
  for (const d of r.decisions) {
    const lost = num(d.cost) > 0;
    const st = d.state;
    const where = `n=${st.n}, j=${st.j}` + (st.s ? `, s=${st.s}, f=${st.f}` : "") + (d.passes ? `, ${d.passes} passed in a row` : "");
    // The choices the turn's cards fit, among the legal ones ("daring or safe"), as memsim review names them.
    const made = d.made.filter(c => d.options.some(o => o.choice === c));
    const top = d.options.find(o => o.choice === d.best);
    const same = (a, b) => a.exact && b.exact ? a.exact === b.exact : num(a) === num(b);
    const best = d.options.filter(o => same(o.pairs, top.pairs)).map(o => o.choice);
    const options = el("td", {class: "options"}, ...d.options.flatMap((o, i) => [i ? ", " : "",
      el(made.includes(o.choice) ? "strong" : "span", {text: `${o.choice} ${fmt(o.pairs)}`})]));
    dec.append(el("tr", {class: lost ? "lost" : ""}, el("td", {class: "num", text: d.turn + 1}), el("td", {text: names[d.seat]}),
      el("td", {text: where}), options,
      el("td", {text: d.chosen ? made.join(" or ") : "outside the model (not judged)"}),
      el("td", {text: d.options.length === 1 ? "forced" : lost ? best.join(" or ") : "best"}),
      el("td", {class: "num", text: d.chosen ? fmt(d.cost) : "–"}), el("td", {class: "num", text: d.chosen ? fmt(d.luck) : "–"})));
  }
}

// ---- Explore ----
let exploreShown = false, table = null, selected = -1;
const choiceColour = {"daring": "var(--daring)", "safe": "var(--safe)", "known-first": "var(--known)", "pass": "var(--passc)"};

$("explore-form").addEventListener("submit", e => { e.preventDefault(); showTable(); });

async function showTable() {
  exploreShown = true;
  const f = $("explore-form");
  const choices = ["daring", "safe", "known-first", "pass"].filter(c => f.elements["c-" + c].checked);
  const q = new URLSearchParams({pairs: f.elements.pairs.value, pass: f.elements.pass.value, singletons: f.elements.singletons.value, choices: choices.join(",")});
  if (Number(f.elements.memory.value) > 0) { q.set("memory", f.elements.memory.value); q.set("forget", f.elements.forget.value); }
  showError("explore-error", null);
  try {
    table = await api("GET", "/api/table?" + q);
    drawTable();
    $("explore-out").hidden = false;
  } catch (err) { showError("explore-error", err); }
}

const SVGNS = "http://www.w3.org/2000/svg";
function svgEl(tag, attrs) {
  const e = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

// drawTable draws the optimal choice over (n, j) as a heat map: n down, j across.
function drawTable() {
  const t = table, N = t.pairs;
  const cell = 12, left = 28, top = 18;
  const svg = svgEl("svg", {viewBox: `0 0 ${left + N * cell + 2} ${top + N * cell + 2}`, tabindex: "0", role: "img",
    "aria-label": `Optimal choice in each state, n pairs left down the side (1 to ${N}), j unknown pairs across`});
  svg.append(svgEl("text", {x: 2, y: 12, class: "axis"}));
  svg.lastChild.textContent = "n \\ j";
  for (let k = 5; k <= N; k += 5) {
    const tx = svgEl("text", {x: left + (k - 0.5) * cell, y: 12, class: "axis", "text-anchor": "middle"}); tx.textContent = k; svg.append(tx);
    const ty = svgEl("text", {x: left - 3, y: top + (k - 0.5) * cell + 4, class: "axis", "text-anchor": "end"}); ty.textContent = k; svg.append(ty);
  }
  t.cells.forEach((c, i) => {
    const r = svgEl("rect", {x: left + (c.j - 1) * cell, y: top + (c.n - 1) * cell, width: cell - 1, height: cell - 1,
      fill: choiceColour[c.choice], class: "cell", "data-i": i, "data-n": c.n, "data-j": c.j, "data-choice": c.choice});
    svg.append(r);
  });
  const pick = e => { const i = e.target.dataset && e.target.dataset.i; if (i !== undefined) selectCell(Number(i)); };
  svg.addEventListener("mouseover", pick);
  svg.addEventListener("click", pick);
  svg.addEventListener("keydown", e => {
    const c = t.cells[selected] || t.cells[0];
    let n = c.n, j = c.j;
    if (e.key === "ArrowRight") j++; else if (e.key === "ArrowLeft") j--; else if (e.key === "ArrowDown") n++; else if (e.key === "ArrowUp") n--; else return;
    e.preventDefault();
    const i = t.cells.findIndex(x => x.n === n && x.j === j);
    if (i >= 0) selectCell(i);
  });
  $("explore-map").replaceChildren(svg);
  const used = [...new Set(t.cells.map(c => c.choice))];
  $("explore-legend").replaceChildren("Colour: the optimal choice (the first best in the order daring, safe, known-first, pass). ",
    ...used.map(c => el("span", {class: "key"}, el("i", {style: `background:${choiceColour[c]}`}), c + " ")));
  $("explore-head").textContent = `Optimal strategy table: ${t.memory === "perfect" ? "perfect memory" : "a shared memory " + t.memory}, pass ${t.pass}, ${t.singletons} singletons (${t.unseen} unseen), choices ${t.choices}; two players, both optimal; ${t.arithmetic} arithmetic.`;
  selected = -1;
  $("explore-cell").textContent = "Hover over or tap a state (or focus the map and use the arrow keys).";
}

function selectCell(i) {
  const t = table, c = t.cells[i];
  selected = i;
  const svg = $("explore-map").firstChild;
  for (const r of svg.querySelectorAll(".cell.on")) r.classList.remove("on");
  svg.querySelector(`[data-i="${i}"]`).classList.add("on");
  const box = $("explore-cell");
  const rows = t.names.map((name, k) => c.values[k] === null ? null :
    el("tr", {class: c.best.includes(name) ? "best" : ""}, el("td", {text: name}), el("td", {class: "num", text: fmt(c.values[k])}))).filter(Boolean);
  box.replaceChildren(el("p", {}, el("strong", {text: `n = ${c.n}, j = ${c.j}`}), `: ${c.n} pairs left, ${c.j} unknown, ${c.n - c.j} half-known`),
    el("p", {text: `optimal: ${c.choice}; value ${fmt(c.value)} expected pairs for the mover`}),
    el("table", {}, el("tr", {}, el("th", {text: "Choice"}), el("th", {text: "Expected pairs"})), ...rows));
}

loadPlayers().catch(err => showError("play-error", err));
