// A side's secrets kept on this phone, for a battle whose host holds only their commitments (`seven-seconds host
// TABLE --kept-by B`). The same keeper as a joined computer's (referee/net/keeper.py), step for step, in the page:
// the dice contribution drawn here and sent as its commitment, each moment's shares sent when asked (one action a
// place in the battle); the cards drawn here from the host's parts and this side's shares, sent as their commitment;
// the holding area filled here and each square sent as a commitment, each blip counter as the commitment to the
// square it stands for; a square opened at a reveal, every square, the cards and the contribution at the end.
// The engine's figures the phone cannot work out (the force a troop card issues, a mission's words) come from the
// host's public deck (`/hand/deck`, referee/net/deck_facts.py); the host checks everything again at the end.
// What is kept lives in this browser's storage for the host's address: the phone is the side's own.
"use strict";

const Kept = (() => {
  const FORMAT = "seven-seconds-kept-side/1";
  const SQUARES = 16;
  const MOST_NUMBERS = 10000;            // the most public numbers one action draws, by far (net/keeper.py)
  const MOST_SHARES = 64;                // the most shares asked at once (dice.MAIL_SHARE_BATCH)
  const C = () => KeptCrypto;

  function placeNumber(place) {
    const n = place.split(" ").pop();
    return /^\d+$/.test(n) ? Number(n) : -1;
  }

  function whole(v, least, most) { return Number.isInteger(v) && v >= least && v <= most; }

  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }

  function copy(v) { return v === undefined ? v : JSON.parse(JSON.stringify(v)); }

  class Keeper {
    constructor(side, battle, deck, storage) {
      if (!/^[0-9a-f]{64}$/.test(battle || "")) {
        throw new Error("a side's secrets are kept for a battle whose dice are keyed (its id is the commitment to " +
                        "its seed, 64 hex digits)");
      }
      this.side = side;
      this.battle = battle;
      this.deck = deck;
      this.storage = storage || window.localStorage;
      this.key = "seven-seconds-kept/" + battle.slice(0, 32) + "-" + side;
      this.squares = {};                 // square -> [units, salt]
      this.blips = {};                   // slot (order placed, 1-16) -> [square, salt]
      this.dice = null;                  // [value, salt]
      this.answered = {};                // place -> moment answered last
      this.cards = null;
      this.inspection = { counters: null, log: 0, notes: [] };
      this.problems = [];
      this.commitments = new Map();      // "square|salt" -> a counter's commitment, worked out once
      try {
        // A browser that keeps nothing for the page (a private window that refuses storage) would lose the side's
        // secrets with the page: said now, before anything is committed.
        this.storage.setItem(this.key + "/probe", "1");
        this.storage.removeItem(this.key + "/probe");
      } catch (e) {
        throw new Error("this browser keeps no data for this page (" + e.message + "): open the link in a normal " +
                        "(not private) window, or play this side from a computer with seven-seconds join");
      }
      this.read();
    }

    // ---- what is kept ----------------------------------------------------------------------------------------------
    read() {
      const text = this.storage.getItem(this.key);
      if (!text) return;
      const doc = JSON.parse(text);
      if (!doc || doc.format !== FORMAT) throw new Error(this.key + ": format: expected " + FORMAT);
      this.squares = doc.squares || {};
      this.blips = doc.blips || {};
      this.dice = doc.dice || null;
      this.answered = doc.answered || {};
      this.cards = doc.cards || null;
      if (doc.inspection) this.inspection = doc.inspection;
    }

    write() {
      const doc = { format: FORMAT, battle: this.battle, side: this.side, squares: this.squares, blips: this.blips,
                    answered: this.answered, dice: this.dice, cards: this.cards };
      if (this.inspection.counters !== null) doc.inspection = this.inspection;
      // Written before anything it answers is sent: a page loaded again answers nothing otherwise.
      this.storage.setItem(this.key, JSON.stringify(doc));
    }

    // Why this device does not hold what the host holds this side's commitments to, or "": the side's secrets were
    // kept by another device (the one that set it up), or this browser's storage for the host was cleared. Such a
    // device must not answer for the side nor commit anything in its name, and shows nothing it does not hold.
    stranger(screen) {
      const view = screen.view || {};
      // (A host may hold the side's dice itself, its battle begun before the side was kept: only a contribution
      // drawn here and committed to otherwise tells.)
      const committed = (view.dice_commitments || {})[this.side];
      if (this.dice !== null && committed && C().diceCommitment(this.side, this.dice[0], this.dice[1]) !== committed) {
        return "its dice contribution";
      }
      if (((view.card_commitments || {})[this.side] || {}).committed && this.cards === null) return "its cards";
      if (Object.keys((view.square_commitments || {})[this.side] || {}).length && !Object.keys(this.squares).length) {
        return "its holding area";
      }
      return "";
    }

    // ---- the dice ----------------------------------------------------------------------------------------------------
    diceContribution() {
      if (this.dice === null) {
        this.dice = [C().randomHex(32), C().randomHex(16)];
        this.write();
      }
      return this.dice;
    }

    refusedMoment(moment) {
      const place = moment.split("|")[0];
      for (const [last, answered] of Object.entries(this.answered)) {
        if (last === place && answered !== moment) {
          return "the host asked for the dice of a second action at " + place + " (after another one's, with no " +
                 "take-back this side asked for or agreed to): refused, so no one picks among dice";
        }
        if (placeNumber(place) < placeNumber(last)) {
          return "the host asked for the dice of " + place + ", before " + last + " whose dice it had: refused, so " +
                 "no one picks among dice";
        }
      }
      return "";
    }

    takenBack() {
      if (Object.keys(this.answered).length) {
        this.answered = {};
        this.write();
      }
    }

    diceAnswer(screen) {
      if (screen.seat !== this.side) return null;
      if (screen.dice_commitment_asked) {
        const [value, salt] = this.diceContribution();
        return { kind: "dice-commitment", commitment: C().diceCommitment(this.side, value, salt) };
      }
      const asked = screen.dice_shares_asked;
      if (asked && typeof asked === "object" && this.dice !== null) {
        const moment = String(asked.moment);
        let start = asked.from, count = asked.count;
        let refused = this.refusedMoment(moment);
        if (!(whole(start, 0, MOST_NUMBERS) && whole(count, 1, MOST_SHARES))) {
          refused = "the host asked for " + count + " dice shares from number " + start + ": expected at most " +
                    MOST_SHARES + " from a number of 0 to " + MOST_NUMBERS + "; refused";
          start = count = 0;
        }
        if (refused) {
          if (!this.problems.includes(refused)) this.problems.push(refused);
          // Said to the host, so the action that waits is refused with the reason rather than waiting for shares
          // that will not come.
          // (cut to the lengths the host reads: net/messages.py MAX_MOMENT, MAX_REASON)
          return { kind: "dice-refused", moment: moment.slice(0, 100000), reason: refused.slice(0, 1000) };
        }
        this.problems = [];                // an ask refused earlier is behind the battle now
        const place = moment.split("|")[0];
        if (this.answered[place] !== moment) {
          this.answered = { [place]: moment };
          this.write();
        }
        const shares = [];
        for (let n = start; n < start + count; n++) shares.push(C().diceShare(this.side, this.dice[0], moment, n));
        return { kind: "dice-shares", moment: moment, from: start, shares: shares };
      }
      if (screen.open_dice && this.dice !== null) return { kind: "dice-opened", value: this.dice[0], salt: this.dice[1] };
      return null;
    }

    // ---- the cards -------------------------------------------------------------------------------------------------
    // The cards a draw gives this side: the host's parts on the screen and this side's own shares.
    offer(screen) {
      const draw = screen.draw_cards_asked;
      if (!draw || typeof draw !== "object" || !Array.isArray(draw.parts) || draw.parts.length !== 16) {
        throw new Error("draw_cards_asked: expected the host's 16 parts of the draw");
      }
      if (this.dice === null) throw new Error("the side's dice contribution is committed before its cards are drawn");
      const problem = this.drawProblem(screen.view || {}, draw);
      if (problem) throw new Error(problem);
      return C().offerOf(draw, this.side, this.dice[0]);
    }

    drawProblem(view, draw) {
      let kind;
      if (view.mode === "chance-encounter") kind = "chance-encounter";
      else kind = view.attacker === this.side ? "offence" : "defence";
      const streak = ((view.setup || {}).streak || {})[this.side] || 0;
      if (draw.kind !== kind || draw.streak !== streak) {
        return "the host asks for a draw of " + draw.kind + " missions at streak " + draw.streak + "; this battle " +
               "gives side " + this.side + " " + kind + " missions at streak " + streak + ": refused";
      }
      const own = [this.deck.missions[kind], this.deck.troops, this.deck.drones];
      if (!same([draw.missions, draw.troops, draw.drones], own)) {
        return "the host draws from other cards than its deck: refused";
      }
      return "";
    }

    // The cards drawn, and the draw-cards action's arguments: the commitment to them and the draw made. ``mission``
    // and ``troop``: a streak's choice among those drawn (else drawn here, A47).
    drawCards(screen, args) {
      const offer = this.offer(screen);
      if (args.purchase !== undefined && args.purchase !== null && screen.draw_cards_asked.kind !== "chance-encounter") {
        throw new Error("drones are bought only in a Chance Encounter [p.~15, A42]");
      }
      const mission = args.mission || offer.missions[C().randomBelow(offer.missions.length)];
      const troop = args.troop || offer.troops[C().randomBelow(offer.troops.length)];
      if (!offer.missions.includes(mission)) throw new Error("mission " + mission + " is not a mission card the draw gave");
      if (!offer.troops.includes(troop)) throw new Error("troop card " + troop + " is not a troop card the draw gave");
      const facts = this.deck.mission[mission];
      const force = ((this.deck.forces[troop] || {})[facts.troop_line] || {})[offer.drone];
      if (!force) throw new Error("troop card " + troop + " has no line " + facts.troop_line + " in the host's deck");
      const purchase = args.purchase === undefined || args.purchase === null ? null : this.purchase(args.purchase);
      const issued = purchase === null ? copy(force.issued) : this.bought(troop, facts.troop_line, purchase);
      const salt = C().randomHex(32);
      this.cards = { mission: mission, troop: troop, drone: offer.drone, purchase: purchase, salt: salt,
                     troop_line: facts.troop_line, drone_line: force.drone_line, issued: issued,
                     round_limit: facts.round_limit };
      this.write();
      const committed = C().cardsCommitment(this.battle, this.side, mission, troop, offer.drone, force.drone_line,
                                            purchase, salt);
      return { committed: committed, draw: screen.draw_cards_asked };
    }

    // A Chance Encounter's purchase as the phone keeps and sends it: its drone types in order, so the units it
    // issues are named here as the host names them when it issues the force again at the end.
    purchase(given) {
      if (!given || typeof given !== "object" || Array.isArray(given)) {
        throw new Error("purchase: expected {drone type: number}");
      }
      const sorted = {};
      for (const type of Object.keys(given).sort()) sorted[type] = given[type];
      return sorted;
    }

    // The force a troop line issues with a Chance Encounter's drones bought in place of its Drone card line (p.~15,
    // A42), checked as the engine checks it (cards.purchase_problems): the types priced, whole numbers, within the
    // line's points, a player's figure pool (p.~6) and the Holding Area (p.~10).
    bought(troop, line, purchase) {
      const facts = ((this.deck.lines || {})[troop] || {})[line];
      if (!facts) throw new Error("troop card " + troop + " has no line " + line + " in the host's deck");
      const deck = this.deck;
      const prices = new Map(deck.prices);
      const problems = [];
      for (const [type, n] of Object.entries(purchase)) {
        if (!prices.has(type)) problems.push("'" + type + "' is not a drone type (expected " +
                                             [...prices.keys()].join(", ") + ")");
        else if (!Number.isInteger(n) || n < 0) {
          problems.push(type + ": expected a whole number of drones, 0 or more (got " + JSON.stringify(n) + ")");
        }
      }
      if (!problems.length) {
        const cost = Object.entries(purchase).reduce((sum, [type, n]) => sum + prices.get(type) * n, 0);
        if (cost > facts.drone_points) {
          problems.push("the drones cost " + cost + " points, the troop line allows " + facts.drone_points +
                        " [p.~15, A42]");
        }
        const totals = Object.assign({}, facts.totals);
        for (const [type, n] of Object.entries(purchase)) if (n) totals[type] = (totals[type] || 0) + n;
        let all = 0;
        for (const [type, n] of Object.entries(totals)) {
          all += n;
          const limit = deck.pool[type];
          if (limit !== undefined && n > limit) {
            problems.push(n + " x " + (deck.titles[type] || type) + ", but a player's figure pool has " + limit +
                          " [p.~6]");
          }
        }
        if (all > deck.holding_units) {
          problems.push(all + " units do not fit the Holding Area (16 squares x 2 units = " + deck.holding_units +
                        ") [p.~10]");
        }
      }
      if (problems.length) throw new Error(problems.join("; "));
      const issued = copy(facts.troopers);
      for (const [type, n] of Object.entries(purchase)) {
        for (let k = 1; k <= n; k++) {
          issued.push({ id: this.side.toLowerCase() + "-" + type + "-" + k, type: type, rating: facts.rating });
        }
      }
      return issued;
    }

    cardsAnswer(screen) {
      if (screen.seat !== this.side || !screen.open_cards || this.cards === null || this.dice === null) return null;
      const c = this.cards;
      const answer = { kind: "cards-opened", mission: c.mission, troop: c.troop, drone: c.drone, salt: c.salt,
                       value: this.dice[0], dice_salt: this.dice[1] };
      if (c.purchase !== null && c.purchase !== undefined) answer.purchase = copy(c.purchase);
      return answer;
    }

    // ---- the holding area --------------------------------------------------------------------------------------------
    commit(screen, arrangement, order) {
      const setup = screen.view.setup || {};
      const issued = (this.cards || {}).issued || ((setup.issued || {})[this.side]) || [];
      const faction = (setup.factions || {})[this.side] || "";
      const units = {};
      for (const u of issued) {
        units[u.id] = { id: String(u.id), side: this.side, faction: faction, rating: u.rating, type: u.type };
      }
      const ids = Object.keys(units);
      let chosen = {};
      if (!arrangement) {
        const free = Array.from({ length: SQUARES }, (_, i) => i + 1);
        for (const group of C().drawnGroups(ids)) chosen[free.splice(C().randomBelow(free.length), 1)[0]] = group;
      } else {
        const problems = C().arrangementProblems(this.side, ids, arrangement);
        if (problems.length) throw new Error(problems.join("; "));
        for (const [n, group] of Object.entries(arrangement)) chosen[Number(n)] = group.map(String);
      }
      if (!order) {
        order = Array.from({ length: SQUARES }, (_, i) => i + 1);
        C().shuffle(order);
      }
      this.squares = {};
      this.blips = {};
      for (let n = 1; n <= SQUARES; n++) this.squares[n] = [(chosen[n] || []).map((u) => units[u]), C().randomHex(32)];
      order.forEach((n, i) => { this.blips[i + 1] = [n, C().randomHex(32)]; });
      this.write();
      const committed = {}, blips = {};
      for (let n = 1; n <= SQUARES; n++) {
        committed[n] = C().squareCommitment(this.battle, this.side, n, this.squares[n][0], this.squares[n][1]);
      }
      for (const [k, [n, salt]] of Object.entries(this.blips)) blips[k] = this.commitment(n, salt);
      return [committed, blips];
    }

    static fills(intent) {
      const action = intent.kind === "action" ? intent.action : null;
      return !!action && (["fill-holding", "scramble", "draw-cards", "end-of-round"].includes(action.kind) ||
                          (action.kind === "place-blip" && "square" in (action.args || {})));
    }

    // An intent on its way to the host: what this side keeps goes as commitments.
    outgoing(intent, screen) {
      if (!Keeper.fills(intent)) return intent;
      const action = intent.action;
      const args = Object.assign({}, action.args || {});
      const withArgs = (a) => Object.assign({}, intent, { action: Object.assign({}, action, { args: a }) });
      if (action.kind === "scramble") return Object.assign({}, intent, { action: this.scramble(screen, action) });
      if (action.kind === "end-of-round") {
        // Its own mission's round limit (A43), which only this phone knows: said at the end of the round it is reached.
        const limit = (this.cards || {}).round_limit;
        if (limit && Number(screen.view.round || 0) >= Number(limit)) return withArgs(Object.assign(args, { limit: this.side }));
        return intent;
      }
      if (action.kind === "draw-cards") {
        if (!("draw_cards_asked" in screen)) return intent;         // not this side's draw now: the host refuses it
        return withArgs(this.drawCards(screen, args));
      }
      if (action.kind === "place-blip") {
        const slot = this.slotFor(screen, args.square);
        delete args.square;
        return slot === null ? intent : withArgs(Object.assign(args, { slot: slot }));
      }
      const setup = screen.view.setup || {};
      if (setup.step !== "holding" || setup.side !== this.side) return intent;
      const [committed, blips] = this.commit(screen, args.squares);
      return withArgs({ committed: committed, blips_committed: blips });
    }

    // A Scramble of one of this side's units (p.22, A23): the square it goes into and which new counter is real,
    // chosen here; sent as a commitment for each of the three squares and for each counter in corner order.
    scramble(screen, action) {
      const args = Object.assign({}, action.args || {});
      const unit = (screen.view.units || []).find((u) => u.id === action.actor);
      const free = ((screen.scramble || {})[String(action.actor)] || []).map(Number);
      if (!unit || unit.side !== this.side || free.length < 3) return action;
      const squares = free.slice(0, 3);           // the engine's kept_scramble_squares: the three lowest unused
      const chosen = args.square;
      delete args.square;
      const real = squares.includes(chosen) ? chosen : squares[C().randomBelow(3)];
      const corner = C().randomBelow(3);
      const entry = { id: String(unit.id), side: this.side, faction: unit.faction, rating: unit.rating, type: unit.type };
      for (const n of squares) this.squares[n] = [n === real ? [entry] : [], C().randomHex(32)];
      const order = squares.filter((n) => n !== real);
      order.splice(corner, 0, real);
      const first = Math.max(0, ...Object.keys(this.blips).map(Number)) + 1;
      order.forEach((n, k) => { this.blips[first + k] = [n, C().randomHex(32)]; });
      this.write();
      const committed = {}, counters = {};
      for (const n of squares) committed[n] = C().squareCommitment(this.battle, this.side, n, ...this.squares[n]);
      for (let k = 0; k < 3; k++) counters[k + 1] = this.commitment(...this.blips[first + k]);
      return Object.assign({}, action, { args: Object.assign(args, { committed: committed, blips_committed: counters }) });
    }

    unplaced(screen) {
      const own = ((screen.view || {}).blip_commitments || {})[this.side] || {};
      return Object.keys(own).filter((k) => /^\d+$/.test(k) && k in this.blips).map(Number).sort((a, b) => a - b);
    }

    slotFor(screen, square) {
      const found = this.unplaced(screen).find((k) => this.blips[k][0] === square);
      return found === undefined ? null : found;
    }

    commitment(square, salt) {
      const key = square + "|" + salt;
      if (!this.commitments.has(key)) this.commitments.set(key, C().blipCommitment(this.battle, this.side, square, salt));
      return this.commitments.get(key);
    }

    openedBy(committed) {
      for (const [n, salt] of Object.values(this.blips)) if (this.commitment(n, salt) === committed) return [n, salt];
      return null;
    }

    squareOf(screen, blip) {
      const own = ((screen.view || {}).blip_commitments || {})[this.side] || {};
      return own[blip] === undefined ? null : this.openedBy(own[blip]);
    }

    // ---- a reveal, and the end ---------------------------------------------------------------------------------------
    opening(screen) {
      let asked = screen.open_square;
      if ((asked === undefined || asked === null) && (screen.open_squares || []).length) asked = screen.open_squares[0];
      if (!asked || typeof asked !== "object" || screen.seat !== this.side) return null;
      const counter = "committed" in asked ? this.openedBy(asked.committed) : null;
      const square = counter !== null ? counter[0] : Number(asked.square || 0);
      const kept = this.squares[square];
      if (!kept) return null;
      const answer = { kind: "contents", blip: String(asked.blip), contents: copy(kept[0]), salt: kept[1] };
      if (counter !== null) Object.assign(answer, { square: counter[0], square_salt: counter[1] });
      return answer;
    }

    // The answer to whatever the host asks of this side on its screen now, or null.
    answer(screen) {
      return this.opening(screen) || this.cardsAnswer(screen) || this.diceAnswer(screen);
    }

    // ---- this side's own screen ------------------------------------------------------------------------------------
    showCards(screen, view) {
      const c = this.cards;
      view.missions = Object.assign({}, view.missions, { [this.side]: c.mission });
      view.cards = Object.assign({}, view.cards, { [this.side]: { troop: c.troop, line: c.troop_line, drone: c.drone,
                                                                 drone_line: c.drone_line } });
      screen.cards_text = screen.cards_text || {};
      for (const id of [c.mission, c.troop, c.drone]) {
        if (!(id in screen.cards_text) && this.deck.words[id]) screen.cards_text[id] = this.deck.words[id];
      }
      if (view.setup && typeof view.setup === "object" && !Object.keys(this.squares).length) {
        view.setup.issued = Object.assign({}, view.setup.issued, { [this.side]: copy(c.issued) });
        for (const legal of screen.legal || []) {
          const free = legal && legal.free;
          if (legal.kind === "fill-holding" && free && free.squares && typeof free.squares === "object") {
            free.squares.units = c.issued.map((u) => u.id);
          }
        }
      }
    }

    // Its own mission's word when an objective's Target counters reach the number it counts it Inspected from (A41),
    // made here as the host makes it for a side whose mission it holds; shown in this side's log only.
    sayInspected(view) {
      const log = view.log;
      if (!Array.isArray(log)) return;
      const seen = this.inspection;
      const counters = {};
      for (const o of view.objectives || []) counters[String(o.id)] = Number(o.target_counters || 0);
      const notes = seen.notes.filter((n) => n[0] < log.length && log[n[0]].text === n[1]).map((n) => n.slice());
      const mission = this.cards ? this.deck.mission[this.cards.mission] : null;
      if (seen.counters !== null && mission && view.phase !== "over") {
        for (const [oid, now] of Object.entries(counters)) {
          const was = oid in seen.counters ? Number(seen.counters[oid]) : now;
          const template = mission.inspect[oid];
          if (template === undefined || !(was < mission.inspected_counters && mission.inspected_counters <= now)) continue;
          const words = template.replace("{now}", String(now));
          const at = entryFor(log, oid, Number(seen.log));
          if (at !== null && !notes.some((n) => same(n, [at, log[at].text, words]))) notes.push([at, log[at].text, words]);
        }
      }
      const first = seen.counters === null;
      const changed = !same(notes, seen.notes);
      this.inspection = { counters: counters, log: log.length, notes: notes };
      if (first || changed) this.write();
      for (const [at, , words] of notes) {
        const entry = log[at];
        if (!String(entry.note || "").includes(words)) entry.note = entry.note ? entry.note + " / " + words : words;
      }
    }

    // This side's screen with what the host does not hold filled in from here: its blips' squares and contents, the
    // squares left for its counters, its cards, mission and force, its mission's words.
    shown(screen) {
      const view = screen.view;
      if (!view || typeof view !== "object" || !(Object.keys(this.squares).length || this.cards)) return screen;
      for (const blip of view.blips || []) {
        if (blip.side !== this.side) continue;
        const counter = this.squareOf(screen, String(blip.id));
        if (counter !== null) blip.square = counter[0];
        if ((blip.contents === null || blip.contents === undefined) && blip.square in this.squares) {
          blip.contents = copy(this.squares[blip.square][0]);
        }
      }
      const unplaced = this.unplaced(screen);
      for (const legal of screen.legal || []) {
        const free = legal && legal.kind === "place-blip" ? legal.free : null;
        if (free && "square" in free && unplaced.length) free.square = unplaced.map((k) => this.blips[k][0]).sort((a, b) => a - b);
      }
      if (this.cards !== null) {
        this.showCards(screen, view);
        this.sayInspected(view);
      }
      const holding = (view.holding || {})[this.side];
      if (holding && typeof holding === "object") {
        for (const n of Object.keys(holding)) {
          if (holding[n] === null && n in this.squares) holding[n] = copy(this.squares[n][0]);
        }
      }
      return screen;
    }
  }

  // The log entry that put Target counters on objective ``oid`` since entry ``start`` (net/keeper.py: _entry_for).
  function entryFor(log, oid, start) {
    for (let i = log.length - 1; i >= Math.min(start, log.length); i--) {
      if (same(log[i].units, [oid])) return i;
    }
    for (let i = log.length - 1; i >= Math.min(start, log.length); i--) {
      if ((log[i].units || []).includes(oid)) return i;
    }
    return log.length ? log.length - 1 : null;
  }

  return { Keeper: Keeper };
})();
