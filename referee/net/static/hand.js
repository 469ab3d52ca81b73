// The phone's hand: the seat's own screen from the host, and every private decision of that seat.
// No framework and no build step: the host sends the seat's screen (docs/network.md); this page shows it and sends
// intents, each with an id of its own, sent again after a reconnect (the host applies it once).
"use strict";

const state = { screen: null, version: -1, ws: null, outbox: new Map(), decisionsKey: "", backoff: 500 };

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

// ---- the connection ------------------------------------------------------------------------------------------------
function connect() {
  const view = document.body.dataset.view === "table" ? "?view=table" : "";
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws" + view);
  state.ws = ws;
  ws.onopen = () => {
    setStatus("connected", false);
    state.backoff = 500;
    for (const text of state.outbox.values()) ws.send(text);    // unanswered intents: the host applies each once
  };
  ws.onmessage = (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (message.type === "screen" && message.version >= state.version) {
      state.version = message.version;
      state.screen = message.screen;
      const n = document.getElementById("notice");
      if (!n.classList.contains("error") && n.textContent !== "Sent…") notice("");   // a word about an older screen
      render();
    } else if (message.type === "reply") {
      state.outbox.delete(message.id);
      if (!message.ok) notice(message.reason, true);
      else if (message.result && message.result.waiting_for) notice("Said. Waiting for side " + message.result.waiting_for + ".");
      else if (message.result && message.result.asked) notice("Asked side " + message.result.asked + " to agree.");
      else notice("");
    } else if (message.type === "refused") {
      if (message.id) state.outbox.delete(message.id);
      notice(message.reason, true);
    }
  };
  ws.onclose = (event) => {
    setStatus(event.code === 1008 ? "no seat: open your link again" : "reconnecting…", true);
    if (event.code === 1008) return;
    setTimeout(connect, state.backoff);
    state.backoff = Math.min(state.backoff * 2, 8000);
  };
}

function send(intent) {
  const id = newId();
  const text = JSON.stringify({ type: "intent", id: id, intent: intent });
  state.outbox.set(id, text);
  if (state.ws && state.ws.readyState === WebSocket.OPEN) state.ws.send(text);
  notice("Sent…");
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
  const n = document.getElementById("notice");
  n.hidden = !text;
  n.textContent = text || "";
  n.classList.toggle("error", !!error);
}

// ---- words ---------------------------------------------------------------------------------------------------------
function title(id) { return (id || "").replace(/-/g, " ").replace(/\b\w/g, (c) => c.toUpperCase()); }
function unitWord(u) { return title(u.type) + (u.id ? " (" + u.id + ")" : ""); }
function cardTitle(id) { const c = (state.screen.cards_text || {})[id]; return c ? c.title : title(id); }

// ---- the screen ----------------------------------------------------------------------------------------------------
function render() {
  const screen = state.screen;
  const view = screen.view;
  const seat = screen.seat;
  document.getElementById("seat").textContent = seat === "spectator" ? "The table" : "Side " + seat;
  const phase = view.phase === "setup" ? "set-up" : view.phase.replace(/-/g, " ");
  document.getElementById("phase").textContent = "· round " + view.round + " · " + phase;
  renderWaiting(screen);
  renderDecisions(screen);
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
  if (screen.over) lines.push("The battle is over.");
  else if (screen.acting) {
    const publicOnly = screen.legal.length && screen.legal.every((a) => !a.private);
    lines.push(publicOnly ? "Your turn at the table: move, target and shoot on the table screen."
                          : "The battle waits for your decision.");
  } else if (screen.to_act) lines.push("The battle waits for side " + screen.to_act + ".");
  else lines.push("Waiting.");
  for (const m of screen.messages || []) lines.push(m);
  if (screen.said) lines.push(screen.said);
  w.replaceChildren(...lines.map((t) => el("p", {}, t)));
}

function decisionsKey(screen) {
  return JSON.stringify([screen.legal, screen.pending || null, screen.consent || null, screen.take_back || null,
                         screen.round_words || null, screen.undo || null, screen.scramble || null]);
}

function renderDecisions(screen) {
  const key = decisionsKey(screen);
  if (key === state.decisionsKey) return;          // a form being filled in is kept as it is
  state.decisionsKey = key;
  const parts = [];
  if (screen.pending) parts.push(pendingDie(screen.pending));
  if (screen.consent) parts.push(consentAsked(screen.consent));
  if (screen.take_back) parts.push(el("div", { class: "decision" }, "You asked side " + screen.take_back.asked_of +
                                      " to agree to take back " + screen.take_back.what + "."));
  const seen = new Set();
  for (const legal of screen.legal) {
    if (!legal.private) continue;
    const build = BUILDERS[legal.kind];
    if (!build || seen.has(legal.kind + "|" + legal.actor)) continue;
    seen.add(legal.kind + "|" + legal.actor);
    parts.push(el("div", { class: "decision", "data-kind": legal.kind }, build(legal, screen)));
  }
  if (screen.undo && screen.undo.allowed) {
    parts.push(el("div", { class: "decision" },
      el("button", { class: "second", on: { click: () => send({ kind: "undo" }) } },
         "Take back: " + screen.undo.what + (screen.undo.needs_consent ? " (asks side " + other(screen.seat) + ")" : ""))));
  }
  const box = document.getElementById("decisions");
  box.replaceChildren(...parts);
  document.getElementById("decide").hidden = parts.length === 0;
}

function other(side) { return side === "A" ? "B" : "A"; }

function pendingDie(pending) {
  const input = el("input", { type: "number", inputmode: "numeric", min: pending.kind === "bearing" ? 0 : 1,
                              max: pending.kind === "bearing" ? 359 : 6, step: pending.kind === "bearing" ? "any" : 1,
                              "aria-label": "the face rolled" });
  return el("div", { class: "decision", "data-kind": "die" },
    el("h3", {}, "Roll and type the die"), el("p", {}, pending.request),
    el("div", { class: "row" }, input,
       el("button", { on: { click: () => input.value !== "" && send({ kind: "answer", value: Number(input.value) }) } },
          "Give this die")));
}

function consentAsked(consent) {
  return el("div", { class: "decision", "data-kind": "consent" },
    el("h3", {}, "Side " + consent.from + " asks to take back " + consent.what),
    consent.why ? el("p", {}, consent.why) : null,
    el("button", { on: { click: () => send({ kind: "consent", allow: true }) } }, "Agree"),
    el("button", { class: "second", on: { click: () => send({ kind: "consent", allow: false }) } }, "Refuse"));
}

function squareSelect(squares, label) {
  return el("select", { "aria-label": label }, ...squares.map((n) => el("option", { value: n }, "square " + n)));
}

function missionBlock(id, screen) {
  const card = (screen.cards_text || {})[id];
  if (!card) return el("div", {}, title(id));
  return el("div", {},
    el("strong", {}, card.title),
    el("ul", { class: "vp" }, ...(card.vp || []).map((v) => el("li", {}, v))),
    el("div", {}, card.round_limit ? "Round limit: " + card.round_limit : "No round limit"));
}

const BUILDERS = {
  "draw-cards": (legal) => {
    const parts = [el("h3", {}, "Draw your cards")];
    let purchase = null;
    if (legal.free && legal.free.purchase) {
      purchase = el("input", { type: "text", placeholder: "basic-drone=2, …", "aria-label": "drones to buy" });
      parts.push(el("label", {}, "Drones to buy (Chance Encounter): ", purchase));
    }
    parts.push(el("button", { on: { click: () => {
      const args = {};
      if (purchase && purchase.value.trim()) {
        args.purchase = {};
        for (const item of purchase.value.split(",")) {
          const [k, v] = item.split("=").map((x) => x.trim());
          if (k) args.purchase[k] = Number(v || 1);
        }
      }
      act("draw-cards", legal.actor, args);
    } } }, "Draw"));
    return parts;
  },
  "choose-cards": (legal, screen) => {
    const group = (name, ids, show) => el("fieldset", {}, el("legend", {}, "Keep one " + name + " card"),
      ...ids.map((id, i) => el("label", { class: "choice" },
        el("input", { type: "radio", name: name, value: id, checked: i === 0 }), show(id))));
    const missions = group("mission", legal.free.mission, (id) => missionBlock(id, screen));
    const troops = group("troop", legal.free.troop, (id) => el("strong", {}, cardTitle(id)));
    return [el("h3", {}, "Choose your cards"), missions, troops,
      el("button", { on: { click: () => {
        const pick = (n) => (document.querySelector("input[name=" + n + "]:checked") || {}).value;
        act("choose-cards", legal.actor, { mission: pick("mission"), troop: pick("troop") });
      } } }, "Keep these")];
  },
  "fill-holding": (legal, screen) => {
    const spec = legal.free.squares;
    const units = spec.units;
    const selects = units.map((uid, i) => {
      const s = el("select", { "aria-label": "square for " + uid, "data-unit": uid },
        ...Array.from({ length: spec.squares[1] - spec.squares[0] + 1 }, (_, k) => {
          const n = spec.squares[0] + k;
          return el("option", { value: n, selected: n === Math.floor(i / spec.per_square) + 1 }, "square " + n);
        }));
      return s;
    });
    const problem = el("p", { class: "error-text" });
    return [el("h3", {}, "Fill your holding area"),
      el("p", {}, "Up to " + spec.per_square + " units a square. Only you see this."),
      ...units.map((uid, i) => el("div", { class: "row" }, el("span", { class: "name" }, uid), selects[i])),
      problem,
      el("button", { on: { click: () => {
        const squares = {};
        selects.forEach((s) => { (squares[s.value] = squares[s.value] || []).push(s.dataset.unit); });
        const full = Object.entries(squares).filter(([, ids]) => ids.length > spec.per_square).map(([n]) => n);
        if (full.length) { problem.textContent = "Too many units in square " + full.join(", "); return; }
        problem.textContent = "";
        act("fill-holding", legal.actor, { squares: squares });
      } } }, "Put them there"),
      el("button", { class: "second", on: { click: () => act("fill-holding", legal.actor, {}) } }, "Fill it for me")];
  },
  "place-blip": (legal, screen) => {
    const zone = legal.free["x, y"] || {};
    const square = squareSelect(legal.free.square, "the square this blip stands for");
    const xr = zone.x || [0, 99], yr = zone.y || [0, 99];
    const x = el("input", { type: "number", step: "0.1", min: xr[0], max: xr[1], placeholder: "x", "aria-label": "x in inches" });
    const y = el("input", { type: "number", step: "0.1", min: yr[0], max: yr[1], placeholder: "y", "aria-label": "y in inches" });
    const left = (screen.view.setup && screen.view.setup.blips_to_place) ? screen.view.setup.blips_to_place[screen.seat] : null;
    return [el("h3", {}, "Place a blip" + (left ? " (" + left + " to place)" : "")),
      el("label", {}, "It stands for ", square),
      el("div", { class: "row" }, "at x ", x, " y ", y),
      el("p", {}, "Zone: x " + xr[0] + "–" + xr[1] + "\", y " + yr[0] + "–" + yr[1] + "\". Leave x and y empty to have it placed for you."),
      el("button", { on: { click: () => {
        const args = { square: Number(square.value) };
        if (x.value !== "" && y.value !== "") { args.x = Number(x.value); args.y = Number(y.value); }
        act("place-blip", legal.actor, args);
      } } }, "Place this blip")];
  },
  "place-blips": (legal) => [el("button", { class: "second", on: { click: () => act("place-blips", legal.actor, {}) } },
                                "Place all my blips for me")],
  "scramble": (legal, screen) => {
    const free = (screen.scramble || {})[legal.actor] || [];
    const square = squareSelect(free, "the square to Scramble into");
    return [el("h3", {}, "Scramble " + legal.actor),
      el("label", {}, "Into ", square),
      el("button", { on: { click: () => act("scramble", legal.actor, { square: Number(square.value) }) } }, "Scramble")];
  },
  "face": (legal) => {
    const facing = el("input", { type: "number", min: 0, max: 359, step: 1, value: 0, "aria-label": "facing in degrees" });
    return [el("h3", {}, "Face " + legal.actor),
      el("div", { class: "row" }, "Facing ", facing, "°",
         el("button", { on: { click: () => act("face", legal.actor, { facing: Number(facing.value) }) } }, "Face"))];
  },
  "end-of-round": (legal, screen) => {
    const words = screen.round_words || {};
    const mission = screen.view.missions[screen.seat];
    const card = mission && (screen.cards_text || {})[mission];
    const limit = card ? (card.round_limit ? "Your mission's round limit: " + card.round_limit : "Your mission has no round limit") : "";
    if (words.withdraw_asked) {
      return [el("h3", {}, "Side " + words.withdraw_asked + " withdraws"), el("p", {}, limit),
        el("button", { on: { click: () => act("end-of-round", "", { answer: "allow" }) } }, "Allow it"),
        el("button", { class: "second", on: { click: () => act("end-of-round", "", { answer: "pursue" }) } }, "Pursue")];
    }
    if (words.mine) {
      return [el("h3", {}, "End of the round"),
        el("p", {}, "You said: " + words.mine + ". Waiting for side " + other(screen.seat) + ".")];
    }
    return [el("h3", {}, "End of the round"), el("p", {}, limit),
      el("button", { on: { click: () => act("end-of-round", "", {}) } }, "Play on"),
      el("button", { class: "second", on: { click: () => act("end-of-round", "", { stop: true }) } }, "Offer to stop"),
      el("button", { class: "second", on: { click: () => act("end-of-round", "", { withdraw: screen.seat }) } }, "Withdraw")];
  },
};

function renderMission(screen) {
  const box = document.getElementById("mission");
  const id = (screen.view.missions || {})[screen.seat];
  box.hidden = !id;
  if (!id) return;
  box.replaceChildren(el("h2", {}, "Mission"), missionBlock(id, screen));
}

function renderCards(screen) {
  const box = document.getElementById("cards");
  const cards = (screen.view.cards || {})[screen.seat];
  box.hidden = !cards;
  if (!cards) return;
  const lines = [];
  if (cards.troop) lines.push(el("li", {}, "Troops: " + cardTitle(cards.troop) + (cards.line ? ", line " + cards.line : "")));
  if (cards.drone) lines.push(el("li", {}, "Drones: " + cardTitle(cards.drone) + (cards.drone_line ? ", line " + cards.drone_line : "")));
  box.replaceChildren(el("h2", {}, "Cards"), el("ul", {}, ...lines));
}

function ownBlips(screen) {
  return (screen.view.blips || []).filter((b) => b.side === screen.seat && b.square !== undefined);
}

function renderHolding(screen) {
  const box = document.getElementById("holding");
  const holding = (screen.view.holding || {})[screen.seat];
  box.hidden = !holding;
  if (!holding) return;
  const standing = {};
  for (const b of ownBlips(screen)) standing[b.square] = b.id;
  const cells = [];
  for (let n = 1; n <= 16; n++) {
    const units = holding[String(n)] || [];
    cells.push(el("div", { class: "square" + (units.length ? "" : " empty"), "data-square": n },
      el("b", {}, n), ...units.map((u) => el("div", {}, title(u.type))),
      standing[n] ? el("div", { class: "blip", title: standing[n] }, "◆ blip " + standing[n].split("-").pop()) : null));
  }
  document.getElementById("squares").replaceChildren(...cells);
}

function renderBlips(screen) {
  const blips = ownBlips(screen);
  const box = document.getElementById("blips");
  box.hidden = blips.length === 0;
  document.getElementById("blip-list").replaceChildren(...blips.map((b) => el("li", {},
    el("strong", {}, b.id), " · square " + b.square + ": ",
    (b.contents && b.contents.length) ? b.contents.map(unitWord).join(", ") : "a decoy (empty)")));
}

function renderSeal(screen) {
  const seal = (screen.view.sealed || {})[screen.seat];
  const box = document.getElementById("seal");
  box.hidden = !seal;
  if (!seal) return;
  box.replaceChildren(el("h2", {}, "Your seal"),
    el("div", { class: "fingerprint" }, seal.match(/.{1,4}/g).join(" ")),
    el("p", {}, "Note its first groups: the end of the battle checks your set-up against it."));
}

function renderLog(screen) {
  const lines = (screen.view.log || []).slice(-12);
  document.getElementById("log-lines").replaceChildren(...lines.map((l) =>
    el("li", {}, l.text, l.note ? el("div", {}, el("em", {}, l.note)) : null)));
}

document.addEventListener("DOMContentLoaded", connect);
