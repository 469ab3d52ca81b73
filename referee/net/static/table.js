// The shared table screen: a TV or a tablet on the table, read from across it. It shows the public view (the
// spectator's screen: what every seat may see) and nothing else: the host sends this page no other screen
// (``/ws?view=table``), so it never holds a secret to show. Its words come from the host in the screen's language
// (``/table/words``: the program's catalogue); the table is drawn by the hand's own map (map.js).
"use strict";

const state = { screen: null, version: -1, backoff: 500 };
const WORDS = { words: {}, terrain: {}, lang: "en" };
// The set-up steps a side decides in private, on its phone (the program's PRIVATE kinds): the table says so.
const ON_A_PHONE = new Set(["cards", "choose-cards", "holding", "blip"]);
const LOG_LINES = 12;               // the newest at the bottom; a short screen shows fewer
// The smallest word on the table, in pixels of a 1080-line screen (read at 2-3 m), scaled with a smaller screen
// (its shorter side: a tablet held upright too).
const LEAST_PX = 26;
const BESIDE = 3;                 // inches beside the table: the names of pieces at its edges

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "class") node.className = v;
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
  return node;
}

// ---- words ---------------------------------------------------------------------------------------------------------
function t(key, values) {
  const text = WORDS.words[key];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
}

function known(key, fallback) { return key in WORDS.words ? t(key) : fallback; }

async function loadWords() {
  const lang = new URLSearchParams(location.search).get("lang");
  for (let wait = 500; ; wait = Math.min(wait * 2, 8000)) {
    try {
      const response = await fetch("/table/words" + (lang ? "?lang=" + encodeURIComponent(lang) : ""),
                                   { credentials: "same-origin" });
      if (response.ok) { Object.assign(WORDS, await response.json()); break; }
    } catch (e) { /* the host is not there yet: asked again */ }
    await new Promise((done) => setTimeout(done, wait));
  }
  document.documentElement.lang = WORDS.lang;
  document.title = t("page_title");
  for (const node of document.querySelectorAll("[data-word]")) node.textContent = t(node.dataset.word);
  for (const node of document.querySelectorAll("[data-label]")) node.setAttribute("aria-label", t(node.dataset.label));
  renderKey();
}

// ---- the connection: the public view only --------------------------------------------------------------------------
function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?view=table");
  ws.onopen = () => { setStatus(t("connected"), false); state.backoff = 500; };
  ws.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (message.type === "screen" && message.version >= state.version) {
      state.version = message.version;
      state.screen = message.screen;
      render();
      document.body.dataset.version = message.version;    // the screen shown (the tests wait for it)
    } else if (message.type === "refused") setStatus(message.reason, true);
  };
  ws.onclose = (event) => {
    setStatus(event.code === 1008 ? t("no_seat") : t("reconnecting"), true);
    if (event.code === 1008) return;
    setTimeout(connect, state.backoff);
    state.backoff = Math.min(state.backoff * 2, 8000);
  };
}

function setStatus(text, down) {
  const s = document.getElementById("status");
  s.textContent = text;
  s.classList.toggle("down", down);
}

// ---- the screen ----------------------------------------------------------------------------------------------------
function phaseWord(phase) { return known("phase_" + phase, phase.replace(/-/g, " ")); }
function typeWord(type) { return known("type_" + type, type.replace(/-/g, " ")); }

function sideOf(view, id) {
  const piece = (view.units || []).find((u) => u.id === id) || (view.blips || []).find((b) => b.id === id);
  return piece ? piece.side : null;
}

function render() {
  const screen = state.screen;
  if (!screen) return;
  const view = screen.view;
  document.getElementById("name").textContent = view.name;
  document.getElementById("round").textContent = t("round", { round: view.round }) + " · " + phaseWord(view.phase);
  renderTurn(screen);
  renderWaiting(screen);
  renderActive(screen);
  renderBoard(screen);
  renderLog(screen);
}

function sideBand(node, side, text) {
  node.textContent = text;
  node.hidden = !text;
  node.classList.toggle("side-A", side === "A");
  node.classList.toggle("side-B", side === "B");
}

function renderTurn(screen) {
  const view = screen.view;
  const turn = document.getElementById("turn");
  if (!screen.over && view.phase === "action" && view.turn) sideBand(turn, view.turn.player, t("turn_of", { side: view.turn.player }));
  else if (!screen.over && view.phase !== "setup" && view.initiative) sideBand(turn, view.initiative, t("initiative", { side: view.initiative }));
  else sideBand(turn, null, "");
}

// Who the battle waits for, and where: at the table (the window's screen) or on a phone, deciding in private.
function waitingWords(screen) {
  const view = screen.view;
  if (screen.over && !screen.waits_for_computer) return [null, t("over")];
  // A side whose secrets stay on its own device: the battle waits for that device (its dice shares, a square it
  // opens), whoever's turn it is; or, refereed, for a side telling what its blip holds.
  const waits = screen.waits_for_computer;
  if (screen.dice_asked) {
    const who = screen.dice_asked.side;
    return [who, t(waits && waits.away ? "dice_away" : "dice_waiting", { side: who })];
  }
  if (waits) return [waits.side, t(waits.away ? "device_away" : "device_opening", { side: waits.side })];
  if (screen.contents_asked) {
    return [screen.contents_asked.side, t("telling_contents", { side: screen.contents_asked.side,
                                                               blip: screen.contents_asked.blip })];
  }
  if (screen.over) return [null, t("over")];
  const side = screen.to_act;
  const facing = (view.to_face || []).concat(Object.keys(view.to_place || {}));
  if (facing.length) {
    const who = sideOf(view, facing[0]) || side;
    return [who, t("on_their_phone", { side: who, what: t("step_face") })];
  }
  if (view.phase === "setup" && view.setup && view.setup.step) {
    const step = view.setup.step, who = view.setup.side || side;
    const what = known("step_" + step, step.replace(/-/g, " "));
    return [who, ON_A_PHONE.has(step) ? t("on_their_phone", { side: who, what: what })
                                      : t("setup_at_table", { side: who, what: what })];
  }
  if (view.phase === "end-of-round") {
    return side ? [side, t("on_their_phone", { side: side, what: t("step_end-of-round") })] : [null, t("both_on_phones")];
  }
  if (side && view.phase === "action") return [side, t("at_the_table", { side: side })];
  return [side, side ? t("waits_for_side", { side: side }) : ""];
}

function renderWaiting(screen) {
  const [side, words] = waitingWords(screen);
  const node = document.getElementById("waiting");
  node.textContent = words;
  node.dataset.side = side || "";
  node.classList.toggle("side-A", side === "A");
  node.classList.toggle("side-B", side === "B");
}

function renderActive(screen) {
  const view = screen.view;
  const turn = view.turn;
  const node = document.getElementById("active");
  const lines = [];
  if (!screen.over && view.phase === "action" && turn) {
    if (turn.active) {
      const unit = (view.units || []).find((u) => u.id === turn.active);
      const name = unit ? turn.active + " (" + typeWord(unit.type) + ")" : turn.active;
      lines.push(el("div", {}, t("active", { unit: name, n: turn.actions_left })));
    }
    lines.push(el("div", { class: "quiet" }, t("activations", { used: turn.primary_used, allowed: turn.primary_allowed })));
  }
  node.replaceChildren(...lines);
}

function renderBoard(screen) {
  const view = screen.view;
  const board = document.getElementById("board");
  if (!view.table) { board.replaceChildren(); return; }
  // The words on the table at LEAST_PX (scaled with the screen's height) however large the table is.
  const box = wholeTable(view, BESIDE);
  document.getElementById("board-box").style.aspectRatio = box[2] + " / " + box[3];
  const rect = board.getBoundingClientRect();
  const perInch = Math.min(rect.width / box[2], rect.height / box[3]) || 30;
  const least = LEAST_PX * Math.min(1, Math.max(0.62, Math.min(window.innerWidth, window.innerHeight) / 1080));
  const font = Math.max(0.7, least / perInch);
  drawTable(board, view, { seat: "spectator", terrain: WORDS.terrain, font: font, names: true, box: box,
                           edges: { near: t("side_edge", { side: "A" }), far: t("side_edge", { side: "B" }) } });
}

function renderLog(screen) {
  const lines = (screen.view.log || []).slice(-LOG_LINES);
  document.getElementById("log-lines").replaceChildren(...lines.map((l) => el("li", {}, l.text)));
}

// The key to the pieces' letters and marks, drawn with the map's own colours.
function renderKey() {
  const swatch = (cls, text) => el("span", { class: "swatch " + cls }, text);
  const items = Object.entries(LETTERS).map(([type, letter]) => el("li", {}, swatch("letter", letter), " " + typeWord(type)));
  items.push(el("li", {}, swatch("blip", "AB"), " " + t("key_blip")),
             el("li", {}, swatch("counters", "2"), " " + t("key_counters")),
             el("li", {}, swatch("damaged", "D"), " " + t("key_damaged")),
             el("li", {}, swatch("stunned", "S"), " " + t("key_stunned")),
             el("li", {}, swatch("activation", ""), " " + t("key_activation")),
             el("li", {}, swatch("active", ""), " " + t("key_active")));
  document.getElementById("key-list").replaceChildren(...items);
}

let resizing = null;
window.addEventListener("resize", () => {
  clearTimeout(resizing);
  resizing = setTimeout(() => state.screen && renderBoard(state.screen), 100);
});

document.addEventListener("DOMContentLoaded", async () => {
  await loadWords();
  setStatus(t("connecting"), false);
  connect();
});
