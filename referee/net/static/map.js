// The table drawn from a seat's screen, for the phone's hand (its map, seen from the seat's edge) and for the shared
// table screen (the public view, side A's edge at the bottom as the window shows it). A plain script loaded before
// the page's own: its names are the page's. It draws only what the screen holds; the words it shows are the page's.
"use strict";

const SVG = "http://www.w3.org/2000/svg";
// The window's palette (ui/theme.py): Okabe & Ito's colours for the sides, told apart with every common colour-vision
// deficiency; each piece also carries a letter, so no colour alone says what it is, and each mark a letter or number.
const PALETTE = { cloth: "#c9c4b2", clothEdge: "#5c564a", A: "#0072b2", B: "#d55e00", blip: "#3a3a40",
                  ink: "#1d2327", objective: { defender: "#c42828", attacker: "#2850c4" }, tapped: "#f0e442",
                  counter: "#facc28", counterInk: "#1e1800", damaged: "#ff8c14", stunned: "#aa6eff",
                  activation: "#46dc6e", active: "#ffec78", light: { A: "#8cc8f0", B: "#f5aa78" },
                  contested: "#f5f5f5", destroyed: "#6e6e6e" };
const LETTERS = { commander: "C", tactical: "T", assault: "A", scout: "S", engineer: "E", "basic-drone": "B",
                  "kamikaze-drone": "K", "haywire-drone": "H", "recce-drone": "R" };
const DRONES = new Set(["basic-drone", "kamikaze-drone", "haywire-drone", "recce-drone"]);
const GREEK = { alpha: "α", beta: "β", gamma: "γ", delta: "δ", epsilon: "ε" };
// Terrain the battle leaves on the table, told apart by more than its colour: smoke's dashed edge, a crater's rim.
const LEFT_BEHIND = { smoke: { "stroke-dasharray": "0.5 0.35", "fill-opacity": 0.55 },
                      crater: { "stroke-width": 0.3 } };
const SNAP = 0.1;               // inches: a tap goes to the nearest tenth, as a click on the window's table does
const MARGIN = 2.2;             // inches around the table: its edges' names
const NEAR = 12;                // inches across the map while a trooper is faced or placed

function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) if (v !== null && v !== undefined) node.setAttribute(k, String(v));
  for (const c of children) if (c !== null && c !== undefined) node.append(c instanceof Node ? c : String(c));
  return node;
}

// A piece's letter or number, centred on it and outlined, legible on any cloth or terrain at a phone's scale (it may
// be wider than a small base).
function label(x, y, size, colour, text, outline) {
  return svg("text", { x: x, y: y + size * 0.36, "font-size": size, fill: colour, "text-anchor": "middle",
                       "font-weight": "bold", stroke: outline || "#ffffff", "stroke-width": size * 0.3,
                       "stroke-linejoin": "round", "paint-order": "stroke" }, text);
}

function snap(v) { return Math.round(Math.round(v / SNAP) * SNAP * 1000) / 1000; }

// A tap a finger's width outside a range is taken at its nearest point inside (the engine's own bounds, to the tenth).
function intoRange(v, range) {
  const [lo, hi] = range;
  const finger = 1.0;
  if (v < lo && v >= lo - finger) v = lo;
  if (v > hi && v <= hi + finger) v = hi;
  let s = snap(v);
  if (s < lo && v >= lo) s = snap(s + SNAP);
  if (s > hi && v <= hi) s = snap(s - SNAP);
  return s;
}

// Counter-clockwise from +x, in degrees 0 to 360 (the engine's facing), from ``from`` towards ``to``.
function bearing(from, to) {
  const deg = Math.atan2(to.y - from.y, to.x - from.x) * 180 / Math.PI;
  return (deg + 360) % 360;
}

// The spot touching ``first`` for ``unit``, in the direction of the tap (A66): bases in contact, to the thousandth.
function touching(first, unit, px, py) {
  const d = (first.base + unit.base) / 2;
  let dx = px - first.x, dy = py - first.y;
  if (Math.hypot(dx, dy) === 0) { dx = 1; dy = 0; }
  const len = Math.hypot(dx, dy);
  const r = (v) => Math.round(v * 1000) / 1000;
  return { x: r(first.x + dx / len * d), y: r(first.y + dy / len * d) };
}

// Table inches to the map's own units and back: the seat's edge at the bottom (side A's edge is y = 0; side B sits
// across the table, its view turned half round, as the window turns it). Any other seat sees it as side A does.
function mapPoint(view, seat, x, y) {
  const w = view.table.width, h = view.table.height;
  return seat === "B" ? [w - x, y] : [x, h - y];
}
function tablePoint(view, seat, mx, my) {
  const w = view.table.width, h = view.table.height;
  return seat === "B" ? { x: w - mx, y: my } : { x: mx, y: h - my };
}

// The whole table and its edges' names, in the map's units, ``side`` inches beside it (the pieces' names overhang).
function wholeTable(view, side) {
  const beside = side === undefined ? 0.6 : side;
  return [-beside, -MARGIN, view.table.width + 2 * beside, view.table.height + 2 * MARGIN];
}

// A badge of Target counters: a yellow disc with the number (the window's), a dark rim keeping it legible. ``size``:
// the number's size.
function counterBadge(x, y, size, n) {
  const r = size * 0.72;
  return svg("g", { class: "counters", "data-counters": n },
    svg("circle", { cx: x, cy: y, r: r, fill: PALETTE.counter, stroke: PALETTE.ink, "stroke-width": r * 0.12 }),
    label(x, y, size, PALETTE.counterInk, String(n), PALETTE.counter));
}

// A lettered tag (D: Damaged, S: Stunned), its colour a second cue only.
function markTag(x, y, size, colour, letter, mark) {
  const wide = size * 1.2, high = size * 1.25;
  return svg("g", { class: "mark", "data-mark": mark },
    svg("rect", { x: x - wide / 2, y: y - high / 2, width: wide, height: high, rx: size * 0.18, fill: colour,
                  stroke: PALETTE.ink, "stroke-width": size * 0.08 }),
    label(x, y, size, "#ffffff", letter, PALETTE.ink));
}

// A blip's public name on the shared screen: a counter in its side's colour as wide as the name, centred on it, with
// a dot at its lower left while it still has its activation.
function tagSize(size, text) { return [Math.max(size * 1.2, size * (0.68 * text.length + 0.4)), size * 1.25]; }
function nameTag(x, y, size, colour, text, activation) {
  const [wide, high] = tagSize(size, text);
  return svg("g", { class: "name" },
    svg("rect", { x: x - wide / 2, y: y - high / 2, width: wide, height: high, rx: size * 0.22, fill: colour,
                  stroke: PALETTE.ink, "stroke-width": size * 0.07 }),
    svg("text", { x: x, y: y + size * 0.36, "font-size": size, fill: "#ffffff", "text-anchor": "middle",
                  "font-weight": "bold" }, text),
    activation ? svg("circle", { class: "activation", cx: x - wide / 2, cy: y + high / 2, r: size * 0.2,
                                 fill: PALETTE.activation, stroke: PALETTE.ink, "stroke-width": size * 0.05 }) : null);
}

// The marks on a unit's base, where the window puts them: counters at the upper right, Stunned at the upper left,
// Damaged at the lower right, a dot at the lower left while it still has its activation. ``size``: their letters'.
function unitMarks(u, cx, cy, r, size) {
  const k = r * 0.8 + size * 0.3;
  const marks = [];
  if (u.activation) marks.push(svg("circle", { class: "activation", cx: cx - r * 0.78, cy: cy + r * 0.78, r: size * 0.3,
                                               fill: PALETTE.activation, stroke: PALETTE.ink, "stroke-width": size * 0.08 }));
  if (u.target_counters) marks.push(counterBadge(cx + k, cy - k, size, u.target_counters));
  if (u.stunned) marks.push(markTag(cx - k, cy - k, size, PALETTE.stunned, "S", "stunned"));
  if (u.damaged) marks.push(markTag(cx + k, cy + k, size, PALETTE.damaged, "D", "damaged"));
  return marks;
}

// Draw ``view``'s table into the SVG ``board``. ``o``: ``seat`` (whose edge is at the bottom), ``terrain`` (the
// terrain's kinds: colour, impassable), ``box`` (the part of the table shown, map units; else the whole of it),
// ``font`` (the size of its words, inches), ``edges`` ({near, far}: the words at the bottom and top edges), ``names``
// (each unit's and blip's name beside it: the shared screen's), ``zone`` ({x, y, colour, text}), ``around`` ({unit,
// first}: the ring a unit is placed on), ``chosen`` (a unit's id, outlined), ``tapped`` (a point, inches). Pieces are
// groups marked ``data-unit``, ``data-blip``, ``data-objective``; the active unit's has the class ``active``.
function drawTable(board, view, o) {
  const seat = o.seat, w = view.table.width, h = view.table.height;
  const at = (x, y) => mapPoint(view, seat, x, y);
  const box = o.box || wholeTable(view);
  const font = o.font || Math.max(box[2] > NEAR ? 1.1 : 0.45, Math.min(box[2], box[3]) / 30);
  const active = view.turn && view.turn.active;
  board.setAttribute("viewBox", box.join(" "));
  const defs = svg("defs", {}, svg("pattern", { id: "impassable", width: 1, height: 1, patternUnits: "userSpaceOnUse",
                                                patternTransform: "rotate(45)" },
    svg("line", { x1: 0, y1: 0, x2: 0, y2: 1, stroke: PALETTE.ink, "stroke-width": 0.18, "stroke-opacity": 0.55 })));
  const nodes = [defs, svg("rect", { x: 0, y: 0, width: w, height: h, fill: PALETTE.cloth, stroke: PALETTE.clothEdge,
                                     "stroke-width": 0.2 })];
  for (const f of view.terrain || []) {
    const kind = (o.terrain || {})[f.type] || {};
    const paint = Object.assign({ fill: kind.colour || "#9fb38a", "fill-opacity": 0.85, stroke: PALETTE.ink,
                                  "stroke-width": 0.08, "data-terrain": f.id, "data-type": f.type },
                                LEFT_BEHIND[f.type] || {});
    const shape = (attrs) => f.polygon ? svg("polygon", Object.assign({ points: f.polygon.map((p) => at(p[0], p[1]).join(",")).join(" ") }, attrs))
                                       : svg("circle", Object.assign({ cx: at(f.circle.x, f.circle.y)[0], cy: at(f.circle.x, f.circle.y)[1], r: f.circle.r }, attrs));
    if (!f.polygon && !f.circle) continue;
    nodes.push(shape(paint));
    if (kind.impassable) nodes.push(shape({ fill: "url(#impassable)", stroke: "none" }));
  }
  if (o.zone) {
    const [x0, y0] = at(o.zone.x[0], o.zone.y[0]), [x1, y1] = at(o.zone.x[1], o.zone.y[1]);
    nodes.push(svg("rect", { id: "zone", x: Math.min(x0, x1), y: Math.min(y0, y1), width: Math.abs(x1 - x0),
                             height: Math.abs(y1 - y0), fill: o.zone.colour, "fill-opacity": 0.16, stroke: o.zone.colour,
                             "stroke-width": 0.15, "stroke-dasharray": "0.6 0.4" }));
    nodes.push(svg("text", { x: Math.min(x0, x1) + 0.4, y: Math.min(y0, y1) + font * 0.9, "font-size": font * 0.8,
                             fill: PALETTE.ink }, o.zone.text));
  }
  if (o.around) {
    const [cx, cy] = at(o.around.first.x, o.around.first.y);
    nodes.push(svg("circle", { cx: cx, cy: cy, r: (o.around.first.base + o.around.unit.base) / 2, fill: "none",
                               stroke: o.around.colour, "stroke-width": 0.15, "stroke-dasharray": "0.4 0.3" }));
  }
  for (const g of view.ground || []) {
    // A patch of ground holding Target counters (p.19, A54): a cross on the point, its counters beside it.
    const [cx, cy] = at(g.x, g.y);
    const r = Math.max(0.5, font * 0.45);
    nodes.push(svg("g", { "data-ground": g.id },
      svg("path", { d: `M${cx - r} ${cy}H${cx + r}M${cx} ${cy - r}V${cy + r}`, stroke: PALETTE.ink, "stroke-width": 0.22 }),
      svg("path", { d: `M${cx - r} ${cy}H${cx + r}M${cx} ${cy - r}V${cy + r}`, stroke: PALETTE.counter, "stroke-width": 0.1 }),
      g.target_counters ? counterBadge(cx + r, cy - r, o.names ? font : font * 0.6, g.target_counters) : null));
  }
  for (const ob of view.objectives || []) {
    const [cx, cy] = at(ob.x, ob.y);
    const colour = ob.destroyed ? PALETTE.destroyed
      : ["alpha", "beta", "gamma"].includes(ob.id) ? PALETTE.objective.defender : PALETTE.objective.attacker;
    const r = o.names ? Math.max(ob.base / 2, font * 0.62) : ob.base / 2;     // its letter inside on the shared screen
    const held = PALETTE.light[ob.control];
    nodes.push(svg("g", { "data-objective": ob.id, "data-control": ob.control || "" },
      // Controlled: a solid ring in the side's light colour; else a dashed white one (the window's).
      o.names ? svg("circle", { cx: cx, cy: cy, r: r + 0.22, fill: "none", stroke: held || PALETTE.contested,
                                "stroke-width": 0.3, "stroke-dasharray": held ? null : "0.5 0.35" }) : null,
      svg("circle", { cx: cx, cy: cy, r: r, fill: "#ffffff", stroke: colour, "stroke-width": 0.25 }),
      label(cx, cy, Math.max(ob.base * 0.7, o.names ? font : font * 0.9), colour, GREEK[ob.id] || ob.id.slice(0, 1)),
      ob.destroyed ? svg("path", { d: `M${cx - r} ${cy - r}L${cx + r} ${cy + r}M${cx - r} ${cy + r}L${cx + r} ${cy - r}`,
                                   stroke: PALETTE.ink, "stroke-width": 0.15 }) : null,
      ob.target_counters ? counterBadge(cx + r * 0.9, cy - r * 0.9, o.names ? font : font * 0.6, ob.target_counters) : null));
  }
  for (const b of view.blips || []) {
    const [cx, cy] = at(b.x, b.y);
    const mine = b.side === seat && b.square !== undefined;
    const half = b.base / 2;
    const name = b.id.split("-").pop();
    const [wide, high] = o.names && !mine ? tagSize(font, name) : [b.base, b.base];
    const [rw, rh] = [Math.max(wide, b.base) + 0.7, Math.max(high, b.base) + 0.7];
    nodes.push(svg("g", { "data-blip": b.id, class: b.id === active ? "active" : null },
      b.id === active ? svg("rect", { class: "active-ring", x: cx - rw / 2, y: cy - rh / 2, width: rw, height: rh, rx: 0.3,
                                      fill: "none", stroke: PALETTE.active, "stroke-width": 0.3 }) : null,
      svg("rect", { x: cx - half, y: cy - half, width: b.base, height: b.base, rx: 0.12, fill: PALETTE[b.side] || PALETTE.blip,
                    stroke: PALETTE.ink, "stroke-width": 0.08 }),
      // The seat's own blips carry the square each stands for; the other side's are only counters here. On the
      // shared screen each counter carries its public name.
      mine ? label(cx, cy, Math.max(b.base * 0.7, font * 0.9), "#ffffff", String(b.square), PALETTE[b.side]) : null,
      o.names && !mine ? nameTag(cx, cy, font, PALETTE[b.side] || PALETTE.blip, name, b.activation) : null));
  }
  const names = [], pieces = [];
  for (const u of view.units || []) {
    const [cx, cy] = at(u.x, u.y);
    const r = u.base / 2;
    const chosen = o.chosen === u.id;
    const fill = PALETTE[u.side] || PALETTE.blip;
    const parts = [];
    if (u.id === active) parts.push(svg("circle", { class: "active-ring", cx: cx, cy: cy, r: r + 0.35, fill: "none",
                                                    stroke: PALETTE.active, "stroke-width": 0.3 }),
                                    svg("circle", { cx: cx, cy: cy, r: r + 0.52, fill: "none", stroke: PALETTE.ink,
                                                    "stroke-width": 0.06 }));
    parts.push(svg("circle", { cx: cx, cy: cy, r: r, fill: fill, stroke: chosen ? PALETTE.tapped : PALETTE.ink,
                               "stroke-width": chosen ? 0.25 : 0.08 }));
    if (o.names && DRONES.has(u.type)) {
      // A drone: a diamond on its base, as the window draws it.
      const k = r * 0.98;
      parts.push(svg("polygon", { points: [[cx, cy - k], [cx + k, cy], [cx, cy + k], [cx - k, cy]].map((p) => p.join(",")).join(" "),
                                  fill: fill, stroke: "#ffffff", "stroke-width": 0.06 }));
    }
    parts.push(label(cx, cy, o.names ? Math.max(u.base * 0.6, font) : Math.max(u.base * 0.6, font * 0.8), "#ffffff",
                     LETTERS[u.type] || "?", fill));
    if (u.facing !== undefined) {
      // The facing: a tick from the base's rim outwards (the letter inside stays clear).
      const ray = (k) => at(u.x + Math.cos(u.facing * Math.PI / 180) * u.base * k,
                            u.y + Math.sin(u.facing * Math.PI / 180) * u.base * k);
      const [[sx, sy], [fx, fy]] = [ray(0.5), ray(0.95)];
      parts.push(svg("line", { x1: sx, y1: sy, x2: fx, y2: fy, stroke: PALETTE.ink, "stroke-width": 0.15,
                               "stroke-linecap": "round" }));
    }
    if (o.names) {
      // Its name under it, in a layer under every piece: a name may hide a name, never a piece.
      names.push(svg("text", { class: "name", "data-name-of": u.id, x: cx, y: cy + r + font * 0.95, "font-size": font,
                               fill: PALETTE.ink, "text-anchor": "middle", "font-weight": "bold", stroke: "#ffffff",
                               "stroke-width": font * 0.22, "stroke-linejoin": "round", "paint-order": "stroke" }, u.id));
    }
    parts.push(...unitMarks(u, cx, cy, r, o.names ? font : Math.max(u.base * 0.6, font * 0.8) * 0.6));
    pieces.push(svg("g", { "data-unit": u.id, "data-side": u.side, class: u.id === active ? "active" : null }, ...parts));
  }
  nodes.push(...names, ...pieces);
  if (o.tapped) {
    const [tx, ty] = at(o.tapped.x, o.tapped.y);
    nodes.push(svg("circle", { id: "tapped", cx: tx, cy: ty, r: 0.7, fill: "none", stroke: PALETTE.ink, "stroke-width": 0.3 }),
               svg("circle", { cx: tx, cy: ty, r: 0.7, fill: "none", stroke: PALETTE.tapped, "stroke-width": 0.14 }));
  }
  if (o.edges) {
    const far = seat === "B" ? "A" : "B", near = seat === "B" ? "B" : "A";
    nodes.push(svg("text", { class: "edge", x: w / 2, y: h + MARGIN * 0.65, "font-size": font, fill: PALETTE[near],
                             "text-anchor": "middle", "font-weight": "bold" }, o.edges.near),
               svg("text", { class: "edge", x: w / 2, y: -MARGIN * 0.35, "font-size": font, fill: PALETTE[far],
                             "text-anchor": "middle", "font-weight": "bold" }, o.edges.far));
  }
  board.replaceChildren(...nodes);
}
