// The phone's hand: the seat's own screen from the host, and every private decision of that seat.
// No framework and no build step: the host sends the seat's screen (docs/network.md); this page shows it and sends
// intents, each with an id of its own, sent again after a reconnect (the host applies it once).
"use strict";

const state = { screen: null, version: -1, ws: null, outbox: new Map(), decisionsKey: "", backoff: 500,
                takers: new Map(), mapFor: "", tapped: null, sent: false };
// A side that keeps its secrets on this phone (kept.js): its keeper, the host's public deck it draws with, why it
// could not be made, the screen as the host sent it, and the version whose ask was answered last.
const kept = { keeper: null, deck: null, loading: false, problem: "", raw: null, answered: -1, taken: new Set(),
               stranger: "" };
// The page's words, from the host in the phone's language (``/hand/words``: the program's catalogue), and the
// terrain's names and colours.
const WORDS = { words: {}, terrain: {}, lang: "en" };

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
    else if (k === "class") node.className = v;
    else if (v !== null && v !== undefined && v !== false) node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
  return node;
}

function newId() {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);          // randomUUID needs a secure context; a LAN page is plain http
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

// ---- words ---------------------------------------------------------------------------------------------------------
function t(key, values) {
  const text = WORDS.words[key];
  if (text === undefined) return key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
}

async function loadWords() {
  const lang = new URLSearchParams(location.search).get("lang");
  for (let wait = 500; ; wait = Math.min(wait * 2, 8000)) {
    try {
      const response = await fetch("/hand/words" + (lang ? "?lang=" + encodeURIComponent(lang) : ""),
                                   { credentials: "same-origin" });
      if (response.ok) { Object.assign(WORDS, await response.json()); break; }
    } catch (e) { /* the host is not there yet: asked again */ }
    await new Promise((done) => setTimeout(done, wait));
  }
  document.documentElement.lang = WORDS.lang;
  document.title = t("page_title");
  for (const node of document.querySelectorAll("[data-word]")) node.textContent = t(node.dataset.word);
  for (const node of document.querySelectorAll("[data-label]")) node.setAttribute("aria-label", t(node.dataset.label));
}

// ---- the connection ------------------------------------------------------------------------------------------------
function connect() {
  const view = document.body.dataset.view === "table" ? "?view=table" : "";
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws" + view);
  state.ws = ws;
  ws.onopen = () => {
    setStatus(t("connected"), false);
    state.backoff = 500;
    for (const text of state.outbox.values()) ws.send(text);    // unanswered intents: the host applies each once
  };
  ws.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (message.type === "screen" && message.version >= state.version) {
      state.version = message.version;
      kept.raw = message.screen;
      state.screen = keptScreen(message.screen);
      const n = document.getElementById("notice");
      if (!n.classList.contains("error") && !state.sent) notice("");   // a word about an older screen
      render();
      answerHost();
    } else if (message.type === "reply") {
      state.outbox.delete(message.id);
      if (!message.ok) { notice(message.reason, true); renderMap(state.screen); }
      else if (message.result && message.result.waiting_for) notice(t("said_waiting", { side: message.result.waiting_for }));
      else if (message.result && message.result.asked) notice(t("asked_agree", { side: message.result.asked }));
      else notice("");
    } else if (message.type === "refused") {
      if (message.id) state.outbox.delete(message.id);
      notice(message.reason, true);
    }
  };
  ws.onclose = (event) => {
    setStatus(event.code === 1008 ? t("no_seat") : t("reconnecting"), true);
    if (event.code === 1008) return;
    setTimeout(connect, state.backoff);
    state.backoff = Math.min(state.backoff * 2, 8000);
  };
}

function send(intent) {
  if (kept.stranger) { notice(t("kept_stranger", { side: state.screen.seat, what: kept.stranger }), true); return; }
  if (kept.keeper) {
    if (intent.kind === "undo" || (intent.kind === "consent" && intent.allow)) kept.keeper.takenBack();
    if (Kept.Keeper.fills(intent)) {
      try {
        intent = kept.keeper.outgoing(intent, state.screen);
      } catch (e) {
        notice(e.message, true);
        return;
      }
    }
  }
  post(intent);
  notice(t("sent"));
  state.sent = true;
}

function post(intent) {
  const id = newId();
  const text = JSON.stringify({ type: "intent", id: id, intent: intent });
  state.outbox.set(id, text);
  if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(text);
}

// ---- a side whose secrets this phone keeps ----------------------------------------------------------------------
// The screen as this side sees it: what the host holds only as commitments filled in from the keeper. Made once the
// host's public deck is here (the keeper draws its cards with it).
function keptScreen(screen) {
  if (!screen.keep_secrets) return screen;
  if (!kept.keeper && !kept.problem) makeKeeper(screen);
  if (kept.keeper && !kept.stranger) {
    kept.stranger = kept.keeper.stranger(screen);
    if (kept.stranger) leave();
  }
  return kept.keeper && !kept.stranger ? kept.keeper.shown(JSON.parse(JSON.stringify(screen))) : screen;
}

// A device that does not hold its side's secrets (they are on the device that set the side up, or this browser's
// data for the host was cleared) leaves the battle: it could answer nothing the battle waits for, and while its
// socket stayed open the side would never count as away, so a battle whose secrets are lost could not be claimed.
function leave() {
  state.ws.onclose = null;
  state.ws.close();
  setStatus(t("not_connected"), true);
}

async function makeKeeper(screen) {
  if (kept.loading) return;
  kept.loading = true;
  for (let wait = 500; !kept.deck; wait = Math.min(wait * 2, 8000)) {
    try {
      const response = await fetch("/hand/deck?side=" + encodeURIComponent(screen.seat), { credentials: "same-origin" });
      if (response.ok) kept.deck = await response.json();
    } catch (e) { /* the host is not there yet: asked again */ }
    if (!kept.deck) await new Promise((done) => setTimeout(done, wait));
  }
  try {
    kept.keeper = new Kept.Keeper(screen.seat, (screen.view.dice_commitments || {}).seed, kept.deck);
  } catch (e) {
    kept.problem = e.message;
  }
  kept.loading = false;
  if (kept.raw) {
    state.screen = keptScreen(kept.raw);
    state.decisionsKey = "";
    render();
    answerHost();
  }
}

// What the host asks of this side (its dice commitment or shares, a square to open, at the end its cards and
// contribution) is answered at once, with no one tapping: once for each screen that asks.
function answerHost() {
  const keeper = kept.keeper;
  if (!keeper || kept.stranger || !kept.raw || !kept.raw.keep_secrets || kept.answered === state.version) return;
  kept.answered = state.version;
  const said = keeper.problems.join("\n");
  const answer = keeper.answer(kept.raw);
  if (keeper.problems.join("\n") !== said) renderWaiting(state.screen);       // an ask it refused, said at once
  if (!answer) return;
  const text = JSON.stringify(answer);
  if (kept.taken.has(text)) return;
  // At the end a square, the cards or the contribution is opened once: a screen built before the host took the
  // opening asks for it again.
  if ((kept.raw.open_squares || kept.raw.open_cards) && answer.kind !== "dice-shares") kept.taken.add(text);
  post(answer);
}

function act(kind, actor, args) {
  send({ kind: "action", action: { kind: kind, actor: actor || "", args: args || {} } });
}

function setStatus(text, down) {
  const s = document.getElementById("status");
  s.textContent = text;
  s.classList.toggle("down", down);
}

function notice(text, error) {
  state.sent = false;
  const n = document.getElementById("notice");
  n.hidden = !text;
  n.textContent = text || "";
  n.classList.toggle("error", !!error);
}

// ---- names ---------------------------------------------------------------------------------------------------------
function title(id) { return (id || "").replace(/-/g, " ").replace(/\b\w/g, (c) => c.toUpperCase()); }
function unitWord(u) { return title(u.type) + (u.id ? " (" + u.id + ")" : ""); }
function cardTitle(id) { const c = (state.screen.cards_text || {})[id]; return c ? c.title : title(id); }
function phaseWord(phase) { const key = "phase_" + phase; return key in WORDS.words ? t(key) : phase.replace(/-/g, " "); }

// ---- the screen ----------------------------------------------------------------------------------------------------
function render() {
  const screen = state.screen;
  const view = screen.view;
  const seat = screen.seat;
  document.getElementById("seat").textContent = seat === "spectator" ? t("spectator") : t("side", { side: seat });
  document.getElementById("phase").textContent = t("round_phase", { round: view.round, phase: phaseWord(view.phase) });
  renderWaiting(screen);
  renderDecisions(screen);
  renderMap(screen);
  renderMission(screen);
  renderCards(screen);
  renderHolding(screen);
  renderBlips(screen);
  renderSeal(screen);
  renderLog(screen);
}

function renderWaiting(screen) {
  const w = document.getElementById("waiting");
  const lines = [];
  if (screen.over) lines.push(t("over"));
  else if (screen.acting) {
    const publicOnly = screen.legal.length && screen.legal.every((a) => !a.private);
    lines.push(publicOnly ? t("your_turn_table") : t("waits_for_you"));
  } else if (screen.to_act) lines.push(t("waits_for_side", { side: screen.to_act }));
  else lines.push(t("waiting"));
  const asked = screen.contents_asked;
  if (asked && !screen.tell_contents) lines.push(t("telling_contents", { side: asked.side, blip: asked.blip }));
  if (screen.keep_secrets) {
    if (kept.problem) lines.push(t("kept_problem", { problem: kept.problem }));
    else if (kept.stranger) lines.push(t("kept_stranger", { side: screen.seat, what: kept.stranger }));
    else lines.push(t("kept_here", { side: screen.seat }));
    for (const problem of kept.keeper ? kept.keeper.problems : []) lines.push(problem);
  }
  for (const [side, n] of Object.entries(screen.squares_hidden || {})) {
    if (n) lines.push(t("opening_squares", { side }));
  }
  const waits = screen.waits_for_computer;
  if (screen.dice_asked) {
    const side = screen.dice_asked.side;
    lines.push(t(waits && waits.away ? "dice_away" : "dice_waiting", { side }));
  } else if (waits && waits.away) lines.push(t("computer_away", { side: waits.side }));
  for (const m of screen.messages || []) lines.push(m);
  if (screen.said) lines.push(screen.said);
  w.replaceChildren(...lines.map((line) => el("p", {}, line)));
}

function decisionsKey(screen) {
  return JSON.stringify([screen.legal, screen.pending || null, screen.consent || null, screen.take_back || null,
                         screen.round_words || null, screen.undo || null, screen.scramble || null,
                         screen.tell_contents || null, screen.mission_entry || null,
                         screen.may_claim_forfeit || null]);
}

function renderDecisions(screen) {
  const key = decisionsKey(screen);
  if (key === state.decisionsKey) return;          // a form being filled in is kept as it is
  state.decisionsKey = key;
  state.takers = new Map();                        // the decisions that take a point on the map, built again below
  state.tapped = null;
  const parts = [];
  if (screen.pending) parts.push(pendingDie(screen.pending));
  if (screen.tell_contents) parts.push(tellContents(screen.tell_contents));
  if (screen.mission_entry) parts.push(missionEntry(screen.mission_entry));
  if (screen.consent) parts.push(consentAsked(screen.consent));
  if (screen.take_back) parts.push(el("div", { class: "decision" },
                                      t("asked_take_back", { side: screen.take_back.asked_of, what: screen.take_back.what })));
  const seen = new Set();
  for (const legal of screen.legal) {
    if (!legal.private) continue;
    const build = BUILDERS[legal.kind];
    if (!build || seen.has(legal.kind + "|" + legal.actor)) continue;
    seen.add(legal.kind + "|" + legal.actor);
    parts.push(el("div", { class: "decision", "data-kind": legal.kind, "data-actor": legal.actor }, build(legal, screen)));
  }
  if (screen.may_claim_forfeit) {
    parts.push(el("div", { class: "decision", "data-kind": "forfeit" },
      el("button", { class: "second", on: { click: () => send({ kind: "forfeit" }) } },
         t("claim_forfeit", { side: screen.may_claim_forfeit }))));
  }
  if (screen.undo && screen.undo.allowed) {
    const words = screen.undo.needs_consent ? t("take_back_asks", { what: screen.undo.what, side: other(screen.seat) })
                                            : t("take_back", { what: screen.undo.what });
    parts.push(el("div", { class: "decision" },
      el("button", { class: "second", on: { click: () => send({ kind: "undo" }) } }, words)));
  }
  const box = document.getElementById("decisions");
  box.replaceChildren(...parts);
  document.getElementById("decide").hidden = parts.length === 0;
  if (!state.takers.has(state.mapFor)) state.mapFor = state.takers.size ? state.takers.keys().next().value : "";
  markMapChoice();
}

function other(side) { return side === "A" ? "B" : "A"; }

function pendingDie(pending) {
  const input = el("input", { type: "number", inputmode: "numeric", min: pending.kind === "bearing" ? 0 : 1,
                              max: pending.kind === "bearing" ? 359 : 6, step: pending.kind === "bearing" ? "any" : 1,
                              "aria-label": t("face_rolled") });
  return el("div", { class: "decision", "data-kind": "die" },
    el("h3", {}, t("roll_die")), el("p", {}, pending.request),
    el("div", { class: "row" }, input,
       el("button", { on: { click: () => input.value !== "" && send({ kind: "answer", value: Number(input.value) }) } },
          t("give_die"))));
}

// A refereed physical game: the owner says what its blip holds when a reveal needs it (up to 2 units, or a decoy),
// as the window's contents dialog asks; only this hand is asked, the table is told only whose word it waits for.
function tellContents(asked) {
  const rows = [];
  for (let i = 0; i < asked.most; i++) {
    const type = el("select", { "aria-label": t("unit_type_n", { n: i + 1 }), "data-unit": i },
      el("option", { value: "" }, i === 0 ? t("no_unit") : t("no_second_unit")),
      ...asked.types.map((ty) => el("option", { value: ty }, title(ty))));
    const rating = el("select", { "aria-label": t("rating_n", { n: i + 1 }), "data-rating": i },
      ...asked.ratings.map((r) => el("option", { value: r, selected: r === "veteran" }, title(r))));
    rows.push({ type: type, rating: rating });
  }
  const units = () => rows.filter((r) => r.type.value).map((r) => ({ rating: r.rating.value, type: r.type.value }));
  return el("div", { class: "decision", "data-kind": "contents" },
    el("h3", {}, t("what_blip_holds", { blip: asked.blip })),
    el("p", {}, t("contents_note", { faction: title(asked.faction) })),
    ...rows.map((r) => el("div", { class: "row" }, r.rating, r.type)),
    el("button", { on: { click: () => send({ kind: "contents", blip: asked.blip, contents: units() }) } },
       t("that_is_what")),
    el("button", { class: "second", on: { click: () => send({ kind: "contents", blip: asked.blip, contents: [] }) } },
       t("a_decoy")));
}

// A refereed physical game: the side enters its own mission card (and, if it wishes, troop and drone cards) so the
// program scores the battle, as the window's missions dialog offers; the table is told only that it is entered.
function missionEntry(entry) {
  if (entry.problem) return el("div", { class: "decision" }, el("h3", {}, t("enter_mission")), el("p", {}, entry.problem));
  const pick = (label, cards, none) => el("select", { "aria-label": label },
    ...(none ? [el("option", { value: "" }, none)] : []),
    ...cards.map((c) => el("option", { value: c[0] }, c[1])));
  const mission = pick(t("mission"), entry.missions, null);
  const troop = pick(t("troop_card"), entry.troop, t("no_troop_card"));
  const drone = pick(t("drone_card"), entry.drone, t("no_drone_card"));
  return el("div", { class: "decision", "data-kind": "mission" },
    el("h3", {}, t("enter_mission")), el("p", {}, t("mission_note")),
    el("label", { class: "stack" }, t("mission"), mission), el("label", { class: "stack" }, t("troop_card"), troop),
    el("label", { class: "stack" }, t("drone_card"), drone),
    el("button", { on: { click: () => send({ kind: "mission", mission: mission.value, troop: troop.value || null,
                                              drone: drone.value || null }) } }, t("enter_it")));
}

function consentAsked(consent) {
  return el("div", { class: "decision", "data-kind": "consent" },
    el("h3", {}, t("consent_asked", { side: consent.from, what: consent.what })),
    consent.why ? el("p", {}, consent.why) : null,
    el("button", { on: { click: () => send({ kind: "consent", allow: true }) } }, t("agree")),
    el("button", { class: "second", on: { click: () => send({ kind: "consent", allow: false }) } }, t("refuse")));
}

function squareSelect(squares, label) {
  return el("select", { "aria-label": label }, ...squares.map((n) => el("option", { value: n }, t("square_n", { n: n }))));
}

function missionBlock(id, screen) {
  const card = (screen.cards_text || {})[id];
  if (!card) return el("div", {}, title(id));
  return el("div", {},
    el("strong", {}, card.title),
    el("ul", { class: "vp" }, ...(card.vp || []).map((v) => el("li", {}, v))),
    el("div", {}, card.round_limit ? t("round_limit", { n: card.round_limit }) : t("no_round_limit")));
}

// A decision that takes a point on the table: the map answers it when it is the map's choice (the first such
// decision, or the one whose "Use the map" was tapped last). ``take(x, y)`` gets the point tapped, in inches.
function mapTaker(legal, what, take, extra) {
  const key = legal.kind + "|" + legal.actor;
  state.takers.set(key, Object.assign({ kind: legal.kind, actor: legal.actor, what: what, take: take }, extra || {}));
  return el("button", { class: "second map-choice", "data-map": key,
                        on: { click: () => { state.mapFor = key; markMapChoice(); renderMap(state.screen);
                                             document.getElementById("map-card").scrollIntoView(); } } },
            t("use_map"));
}

function markMapChoice() {
  for (const b of document.querySelectorAll("button.map-choice")) {
    b.hidden = state.takers.size < 2;
    b.classList.toggle("chosen", b.dataset.map === state.mapFor);
  }
}

const BUILDERS = {
  "draw-cards": (legal, screen) => {
    if (screen.keep_secrets) return keptDraw(legal, screen);
    const parts = [el("h3", {}, t("draw_title"))];
    let purchase = null;
    if (legal.free && legal.free.purchase) {
      purchase = el("input", { type: "text", placeholder: "basic-drone=2, …", "aria-label": t("drones_to_buy") });
      parts.push(el("label", {}, t("drones_to_buy") + " ", purchase));
    }
    parts.push(el("button", { on: { click: () => {
      const args = {};
      if (purchase && purchase.value.trim()) args.purchase = purchaseOf(purchase.value);
      act("draw-cards", legal.actor, args);
    } } }, t("draw")));
    return parts;
  },
  "choose-cards": (legal, screen) => chooseCards(legal.free.mission, legal.free.troop, screen,
    (mission, troop) => act("choose-cards", legal.actor, { mission: mission, troop: troop })),
  "fill-holding": (legal) => {
    const spec = legal.free.squares;
    const units = spec.units;
    const selects = units.map((uid, i) => el("select", { "aria-label": t("square_for", { unit: uid }), "data-unit": uid },
      ...Array.from({ length: spec.squares[1] - spec.squares[0] + 1 }, (_, k) => {
        const n = spec.squares[0] + k;
        return el("option", { value: n, selected: n === Math.floor(i / spec.per_square) + 1 }, t("square_n", { n: n }));
      })));
    const problem = el("p", { class: "error-text" });
    return [el("h3", {}, t("fill_title")),
      el("p", {}, t("per_square", { n: spec.per_square })),
      ...units.map((uid, i) => el("div", { class: "row" }, el("span", { class: "name" }, uid), selects[i])),
      problem,
      el("button", { on: { click: () => {
        const squares = {};
        selects.forEach((s) => { (squares[s.value] = squares[s.value] || []).push(s.dataset.unit); });
        const full = Object.entries(squares).filter(([, ids]) => ids.length > spec.per_square).map(([n]) => n);
        if (full.length) { problem.textContent = t("too_many", { squares: full.join(", ") }); return; }
        problem.textContent = "";
        act("fill-holding", legal.actor, { squares: squares });
      } } }, t("put_there")),
      el("button", { class: "second", on: { click: () => act("fill-holding", legal.actor, {}) } }, t("fill_for_me"))];
  },
  "place-blip": (legal, screen) => {
    const zone = legal.free["x, y"] || {};
    const square = squareSelect(legal.free.square, t("stands_for_label"));
    const xr = zone.x || [0, screen.view.table.width], yr = zone.y || [0, screen.view.table.height];
    const x = el("input", { type: "number", step: "0.1", min: xr[0], max: xr[1], placeholder: "x", "aria-label": t("x_inches") });
    const y = el("input", { type: "number", step: "0.1", min: yr[0], max: yr[1], placeholder: "y", "aria-label": t("y_inches") });
    const left = (screen.view.setup && screen.view.setup.blips_to_place) ? screen.view.setup.blips_to_place[screen.seat] : null;
    const place = () => {
      const args = { square: Number(square.value) };
      if (x.value !== "" && y.value !== "") { args.x = Number(x.value); args.y = Number(y.value); }
      act("place-blip", legal.actor, args);
    };
    const use = mapTaker(legal, t("place_blip"), (px, py) => {
      const p = { x: intoRange(px, xr), y: intoRange(py, yr) };
      x.value = p.x; y.value = p.y;
      place();
      return p;
    }, { zone: { x: xr, y: yr } });
    return [el("h3", {}, left ? t("place_blip_left", { n: left }) : t("place_blip")),
      el("label", {}, t("stands_for") + " ", square),
      el("p", {}, t("zone", { x0: xr[0], x1: xr[1], y0: yr[0], y1: yr[1] }) + " " + t("blip_tap")),
      el("div", { class: "row" }, t("at_x") + " ", x, " " + t("and_y") + " ", y),
      el("button", { on: { click: place } }, t("place_this_blip")), use];
  },
  "place-blips": (legal) => [el("button", { class: "second", on: { click: () => act("place-blips", legal.actor, {}) } },
                                t("place_all_blips"))],
  "scramble": (legal, screen) => {
    const free = (screen.scramble || {})[legal.actor] || [];
    const square = squareSelect(free, t("scramble_label"));
    return [el("h3", {}, t("scramble_title", { unit: legal.actor })),
      el("label", {}, t("scramble_into") + " ", square),
      el("button", { on: { click: () => act("scramble", legal.actor, { square: Number(square.value) }) } }, t("scramble_do"))];
  },
  "face": (legal, screen) => {
    const facing = el("input", { type: "number", min: 0, max: 359, step: 1, value: 0, "aria-label": t("facing_label") });
    const view = screen.view;
    const unit = (view.units || []).find((u) => u.id === legal.actor);
    const first = (view.to_place || {})[legal.actor];
    const firstUnit = first && (view.units || []).find((u) => u.id === first);
    // A drone has no facing (A12): it is only placed.
    const faced = (view.to_face || []).includes(legal.actor);
    let use = null, hint = null;
    if (unit && firstUnit) {
      // A unit of the square after the first: placed where its owner taps, touching the first (A66), facing away.
      hint = t("place_tap", { first: first });
      use = mapTaker(legal, t("face_title", { unit: legal.actor }), (px, py) => {
        const p = touching(firstUnit, unit, px, py);
        const deg = bearing(firstUnit, p);
        facing.value = Math.round(deg);
        act("face", legal.actor, faced ? { x: p.x, y: p.y, facing: Math.round(deg * 10) / 10 } : { x: p.x, y: p.y });
        return p;
      }, { unit: unit, around: firstUnit });
    } else if (unit) {
      hint = t("face_tap");
      use = mapTaker(legal, t("face_title", { unit: legal.actor }), (px, py) => {
        const deg = bearing(unit, { x: px, y: py });
        facing.value = Math.round(deg);
        act("face", legal.actor, { facing: Math.round(deg * 10) / 10 });
        return { x: px, y: py };
      }, { unit: unit });
    }
    return [el("h3", {}, t("face_title", { unit: legal.actor })), hint ? el("p", {}, hint) : null,
      faced ? el("div", { class: "row" }, t("facing") + " ", facing, "°",
         el("button", { on: { click: () => act("face", legal.actor, { facing: Number(facing.value) }) } }, t("face")))
        : null,
      use];
  },
  "end-of-round": (legal, screen) => {
    const words = screen.round_words || {};
    const mission = screen.view.missions[screen.seat];
    const card = mission && (screen.cards_text || {})[mission];
    const limit = card ? (card.round_limit ? t("mission_limit", { n: card.round_limit }) : t("mission_no_limit")) : "";
    if (words.withdraw_asked) {
      return [el("h3", {}, t("withdraws", { side: words.withdraw_asked })), el("p", {}, limit),
        el("button", { on: { click: () => act("end-of-round", "", { answer: "allow" }) } }, t("allow_it")),
        el("button", { class: "second", on: { click: () => act("end-of-round", "", { answer: "pursue" }) } }, t("pursue"))];
    }
    if (words.mine) {
      const word = ("word_" + words.mine) in WORDS.words ? t("word_" + words.mine) : words.mine;
      return [el("h3", {}, t("end_of_round")),
        el("p", {}, t("you_said", { word: word, side: other(screen.seat) }))];
    }
    return [el("h3", {}, t("end_of_round")), el("p", {}, limit),
      el("button", { on: { click: () => act("end-of-round", "", {}) } }, t("play_on")),
      el("button", { class: "second", on: { click: () => act("end-of-round", "", { stop: true }) } }, t("offer_stop")),
      el("button", { class: "second", on: { click: () => act("end-of-round", "", { withdraw: screen.seat }) } }, t("withdraw"))];
  },
};

// A streak's choice of cards (A47): a mission and a troop card among those drawn.
function chooseCards(missionIds, troopIds, screen, keep) {
  const group = (name, legend, ids, show) => el("fieldset", {}, el("legend", {}, legend),
    ...ids.map((id, i) => el("label", { class: "choice" },
      el("input", { type: "radio", name: name, value: id, checked: i === 0 }), show(id))));
  const missions = group("mission", t("keep_mission"), missionIds, (id) => missionBlock(id, screen));
  const troops = group("troop", t("keep_troop"), troopIds, (id) => el("strong", {}, cardTitle(id)));
  return [el("h3", {}, t("choose_title")), missions, troops,
    el("button", { on: { click: () => {
      const pick = (n) => (document.querySelector("input[name=" + n + "]:checked") || {}).value;
      keep(pick("mission"), pick("troop"));
    } } }, t("keep_these"))];
}

// The cards of a side kept on this phone, drawn here (kept.js): at a streak the choice among those drawn (A47) and in
// a Chance Encounter the drones bought (A42) are made here too, the cards in sight, before anything goes to the host,
// which is sent only the commitment to the cards kept.
function keptDraw(legal, screen) {
  const buying = !!(legal.free && legal.free.purchase);
  const draw = () => {
    let offer;
    try {
      offer = kept.keeper.offer(kept.raw);
    } catch (e) {
      notice(e.message, true);
      return;
    }
    if (offer.missions.length < 2 && offer.troops.length < 2 && !buying) { act("draw-cards", legal.actor, {}); return; }
    for (const id of [...offer.missions, ...offer.troops, offer.drone]) {
      if (!(id in screen.cards_text) && kept.deck.words[id]) screen.cards_text[id] = kept.deck.words[id];
    }
    const box = document.querySelector('.decision[data-kind="draw-cards"]');
    const parts = chooseCards(offer.missions, offer.troops, screen, (mission, troop) => {
      const args = { mission: mission, troop: troop };
      if (buying && purchase.value.trim()) args.purchase = purchaseOf(purchase.value);
      act("draw-cards", legal.actor, args);
    });
    const purchase = el("input", { type: "text", placeholder: "basic-drone=2, …", "aria-label": t("drones_to_buy") });
    if (buying) {
      // The drones' prices and what the chosen troop line allows, said again when another card is chosen.
      const budget = el("p", { class: "budget" });
      const prices = kept.deck.prices.map(([type, cost]) => (kept.deck.titles[type] || type) + " " + cost);
      const say = () => {
        const pick = (n) => (box.querySelector("input[name=" + n + "]:checked") || {}).value;
        const line = ((kept.deck.lines[pick("troop")] || {})[(kept.deck.mission[pick("mission")] || {}).troop_line]);
        budget.textContent = t("kept_budget", { card: cardTitle(offer.drone), prices: prices.join(", "),
                                                points: line ? line.drone_points : "?" });
      };
      parts.splice(parts.length - 1, 0, el("label", { class: "stack" }, t("drones_to_buy"), purchase), budget);
      box.addEventListener("change", say);
      setTimeout(say);
    }
    box.replaceChildren(...parts);
  };
  screen.cards_text = screen.cards_text || {};
  return [el("h3", {}, t("draw_title")), el("p", {}, t("kept_draw")),
    el("button", { disabled: !kept.keeper, on: { click: draw } }, t("draw"))];
}

// "basic-drone=2, recce-drone" as a purchase: {drone type: number} (a type alone: one).
function purchaseOf(text) {
  const bought = {};
  for (const item of text.split(",")) {
    const [k, v] = item.split("=").map((x) => x.trim());
    if (k) bought[k] = Number(v || 1);
  }
  return bought;
}

// ---- the map: the table seen from the seat's own edge, a tap answering the decision that takes a point -------------
// The drawing is the shared table screen's too (map.js, loaded first).
function renderMap(screen) {
  if (!screen) return;
  const card = document.getElementById("map-card");
  const view = screen.view;
  if (!view.table || screen.seat === "spectator") { card.hidden = true; return; }
  card.hidden = false;
  const seat = screen.seat, w = view.table.width, h = view.table.height;
  const taker = state.takers.get(state.mapFor);
  // The whole table; a trooper to face or place, the table around it (a base is a few pixels across the whole).
  let box = null;
  if (taker && taker.unit) {
    const [ux, uy] = mapPoint(view, seat, (taker.around || taker.unit).x, (taker.around || taker.unit).y);
    const side = Math.min(NEAR, w, h);
    box = [Math.max(0, Math.min(w - side, ux - side / 2)), Math.max(0, Math.min(h - side, uy - side / 2)), side, side];
  }
  const map = document.getElementById("map");
  drawTable(map, view, {
    seat: seat, terrain: WORDS.terrain, box: box, tapped: state.tapped,
    chosen: taker && taker.unit ? taker.unit.id : null,
    zone: taker && taker.zone ? { x: taker.zone.x, y: taker.zone.y, colour: PALETTE[seat], text: t("your_zone") } : null,
    around: taker && taker.around ? { first: taker.around, unit: taker.unit, colour: PALETTE[seat] } : null,
    edges: { near: t("your_edge"), far: t("their_edge", { side: other(seat) }) } });
  map.classList.toggle("taking", !!taker);
  card.classList.toggle("taking", !!taker);
  document.getElementById("map-for").textContent = taker ? t("map_for", { what: taker.what }) : "";
  document.getElementById("map-note").textContent = state.tapped ? t("tapped", { x: state.tapped.x, y: state.tapped.y }) : "";
}

function tapMap(event) {
  const screen = state.screen;
  const taker = state.takers.get(state.mapFor);
  if (!screen || !taker) return;
  const map = document.getElementById("map");
  const matrix = map.getScreenCTM();
  if (!matrix) return;
  const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
  const q = tablePoint(screen.view, screen.seat, p.x, p.y);
  state.tapped = taker.take(snap(q.x), snap(q.y));
  renderMap(screen);
}

function renderMission(screen) {
  const box = document.getElementById("mission");
  const id = (screen.view.missions || {})[screen.seat];
  box.hidden = !id;
  if (!id) return;
  box.replaceChildren(el("h2", {}, t("mission")), missionBlock(id, screen));
}

function renderCards(screen) {
  const box = document.getElementById("cards");
  const cards = (screen.view.cards || {})[screen.seat];
  box.hidden = !cards;
  if (!cards) return;
  const lines = [];
  const named = (id, line) => line ? t("card_line", { card: cardTitle(id), line: line }) : cardTitle(id);
  if (cards.troop) lines.push(el("li", {}, t("troops_card", { card: named(cards.troop, cards.line) })));
  if (cards.drone) lines.push(el("li", {}, t("drones_card", { card: named(cards.drone, cards.drone_line) })));
  box.replaceChildren(el("h2", {}, t("cards")), el("ul", {}, ...lines));
}

function ownBlips(screen) {
  return (screen.view.blips || []).filter((b) => b.side === screen.seat && b.square !== undefined);
}

// A side kept on a phone: its squares and what its blips stand for are this phone's, never the host's stand-ins
// (shown only once the keeper has read them, and never on a device that does not hold them).
function notHeld(screen) {
  return !!screen.keep_secrets && (!kept.keeper || !!kept.stranger);
}

function renderHolding(screen) {
  const box = document.getElementById("holding");
  const holding = notHeld(screen) ? null : (screen.view.holding || {})[screen.seat];
  box.hidden = !holding;
  if (!holding) return;
  const standing = {};
  for (const b of ownBlips(screen)) standing[b.square] = b.id;
  const cells = [];
  for (let n = 1; n <= 16; n++) {
    const units = holding[String(n)] || [];
    cells.push(el("div", { class: "square" + (units.length ? "" : " empty"), "data-square": n },
      el("b", {}, n), ...units.map((u) => el("div", {}, title(u.type))),
      standing[n] ? el("div", { class: "blip", title: standing[n] }, t("blip_in_square", { label: standing[n].split("-").pop() })) : null));
  }
  document.getElementById("squares").replaceChildren(...cells);
}

function renderBlips(screen) {
  const blips = notHeld(screen) ? [] : ownBlips(screen);
  const box = document.getElementById("blips");
  box.hidden = blips.length === 0;
  document.getElementById("blip-list").replaceChildren(...blips.map((b) => el("li", {},
    t("blip_stands_for", { blip: b.id, n: b.square,
                           contents: (b.contents && b.contents.length) ? b.contents.map(unitWord).join(", ") : t("decoy") }))));
}

function renderSeal(screen) {
  // A side kept on its device: the host's seal covers only the stand-ins it holds; the side's own commitments,
  // checked at every opening, are what hold it to its set-up.
  const seal = screen.keep_secrets ? null : (screen.view.sealed || {})[screen.seat];
  const box = document.getElementById("seal");
  box.hidden = !seal;
  if (!seal) return;
  box.replaceChildren(el("h2", {}, t("your_seal")),
    el("div", { class: "fingerprint" }, seal.match(/.{1,4}/g).join(" ")),
    el("p", {}, t("seal_note")));
}

function renderLog(screen) {
  const lines = (screen.view.log || []).slice(-12);
  document.getElementById("log-lines").replaceChildren(...lines.map((l) =>
    el("li", {}, l.text, l.note ? el("div", {}, el("em", {}, l.note)) : null)));
}

document.addEventListener("DOMContentLoaded", async () => {
  document.getElementById("map").addEventListener("click", tapMap);
  await loadWords();
  setStatus(t("connecting"), false);
  connect();
});
