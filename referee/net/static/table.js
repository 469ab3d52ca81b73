// The public table: what every seat may see (the spectator's screen), read-only. For a second monitor or a stream.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
const COLOURS = { A: "#1f5f8b", B: "#b0532a" };
let version = -1;

function svg(tag, attrs) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  return node;
}

function connect() {
  const ws = new WebSocket((location.protocol === "https:" ? "wss://" : "ws://") + location.host + "/ws?view=table");
  const status = document.getElementById("status");
  ws.onopen = () => { status.textContent = "connected"; status.classList.remove("down"); };
  ws.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === "screen" && message.version >= version) { version = message.version; render(message.screen); }
    if (message.type === "refused") status.textContent = message.reason;
  };
  ws.onclose = (event) => {
    status.textContent = event.code === 1008 ? "no seat: open the table's link again" : "reconnecting…";
    status.classList.add("down");
    if (event.code !== 1008) setTimeout(connect, 1000);
  };
}

function render(screen) {
  const view = screen.view;
  document.getElementById("name").textContent = view.name;
  document.getElementById("phase").textContent = "· round " + view.round + " · " + view.phase.replace(/-/g, " ");
  document.getElementById("waiting").textContent = screen.over ? "The battle is over."
    : screen.to_act ? "The battle waits for side " + screen.to_act + "." : "Both sides speak.";
  const w = view.table.width, h = view.table.height;
  const board = document.getElementById("board");
  board.setAttribute("viewBox", "0 0 " + w + " " + h);
  board.style.width = "100%";
  const nodes = [svg("rect", { x: 0, y: 0, width: w, height: h, fill: "#e9e4d4" })];
  for (const t of view.terrain) {
    if (t.polygon) nodes.push(svg("polygon", { points: t.polygon.map((p) => p.join(",")).join(" "), fill: "#9fb38a", opacity: 0.8 }));
    if (t.circle) nodes.push(svg("circle", { cx: t.circle.x, cy: t.circle.y, r: t.circle.r, fill: "#9fb38a", opacity: 0.8 }));
  }
  for (const o of view.objectives) nodes.push(svg("circle", { cx: o.x, cy: o.y, r: o.base / 2 + 0.3, fill: "none", stroke: "#6b4e9b", "stroke-width": 0.25 }));
  for (const b of view.blips) nodes.push(svg("rect", { x: b.x - b.base / 2, y: b.y - b.base / 2, width: b.base, height: b.base, fill: COLOURS[b.side] || "#444", opacity: 0.6 }));
  for (const u of view.units) nodes.push(svg("circle", { cx: u.x, cy: u.y, r: u.base / 2, fill: COLOURS[u.side] || "#444" }));
  board.replaceChildren(...nodes);
  const lines = (view.log || []).slice(-15);
  document.getElementById("log-lines").replaceChildren(...lines.map((l) => {
    const li = document.createElement("li");
    li.textContent = l.text;
    return li;
  }));
}

document.addEventListener("DOMContentLoaded", connect);
