// The phone's own commitments, dice shares and card draw, for a side whose secrets stay on the phone
// (referee/game/battle/commit.py, dice.py, kept_cards.py). The host checks every one of them with the Python code,
// so each function here gives the same text, digest or draw as the Python function it is named after, byte for byte,
// for the data the phone passes. A number or a host's part in any other form is refused, not read as Python's int().
// A LAN page is plain http: crypto.subtle needs a secure context and is missing there, so SHA-256 and HMAC come from
// the vendored js-sha256 (static/vendor/sha256.min.js, loaded before this script: the global `sha256`), and random
// bytes from crypto.getRandomValues (which a plain http page has).
"use strict";

const KeptCrypto = (() => {
  const SQUARE_FORMAT = "seven-seconds-square/1";
  const BLIP_FORMAT = "seven-seconds-blip/1";
  const CARDS_FORMAT = "seven-seconds-cards/1";
  const CONTRIBUTION_FORMAT = "seven-seconds-dice-contribution/1";
  const SHARE_FORMAT = "seven-seconds-dice-share/1";
  const CARD_SHARE_FORMAT = "seven-seconds-card-share/1";
  const UNIT_KEYS = ["id", "side", "faction", "rating", "type"];     // what a commitment covers of each unit
  const SHARE_HEX = 16;            // a share: 64 bits, as hex
  const SALT_BYTES = 32;           // 256 bits: 64 hex digits, as secrets.token_hex(32)
  const SQUARES = 16;
  const UNITS_PER_SQUARE = 2;
  const KEPT_PARTS = 16;           // the host's parts of a card draw
  const TWO_64 = 1n << 64n;

  // ---- Python's texts -----------------------------------------------------------------------------------------------
  // Python's str.isprintable: every character but those of categories C* and Z* (the space apart). The categories are
  // the browser's Unicode version, Python's its own: they differ only on characters assigned since the older one.
  const NOT_PRINTABLE = /[\p{C}\p{Z}]/u;

  const hex = (n, width) => n.toString(16).padStart(width, "0");

  // Python's code point position of UTF-16 index `index` in `text` (for an error message as Python words it).
  function codePointIndex(text, index) {
    let n = 0;
    for (let i = 0; i < index; i += text.codePointAt(i) > 0xffff ? 2 : 1) n += 1;
    return n;
  }

  // The UTF-8 bytes of `text`, as Python's text.encode("utf-8") (a lone surrogate: an error) or, with `backslash`,
  // .encode("utf-8", "backslashreplace") (a lone surrogate: the six characters \udxxx). TextEncoder would write
  // U+FFFD for it, which Python never does.
  function utf8(text, backslash) {
    const out = [];
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= 0xd800 && c <= 0xdfff) {
        const next = i + 1 < text.length ? text.charCodeAt(i + 1) : 0;
        if (c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (next - 0xdc00);
          i += 1;
        } else if (backslash) {
          for (const b of "\\u" + hex(c, 4)) out.push(b.charCodeAt(0));
          continue;
        } else {
          throw new Error(`'utf-8' codec can't encode character '\\u${hex(c, 4)}' in position ` +
                          `${codePointIndex(text, i)}: surrogates not allowed`);
        }
      }
      if (c < 0x80) out.push(c);
      else if (c < 0x800) out.push(0xc0 | (c >> 6), 0x80 | (c & 0x3f));
      else if (c < 0x10000) out.push(0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
      else out.push(0xf0 | (c >> 18), 0x80 | ((c >> 12) & 0x3f), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f));
    }
    return Uint8Array.from(out);
  }

  // Python's repr() of a text, as the arrangement's messages quote a square or a unit id ({key!r}).
  function pyRepr(text) {
    const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
    let out = quote;
    for (const ch of text) {                       // by code point: a lone surrogate comes on its own
      const c = ch.codePointAt(0);
      if (ch === quote || ch === "\\") out += "\\" + ch;
      else if (ch === "\t") out += "\\t";
      else if (ch === "\n") out += "\\n";
      else if (ch === "\r") out += "\\r";
      else if (c < 0x20 || c === 0x7f) out += "\\x" + hex(c, 2);
      else if (c < 0x7f || !NOT_PRINTABLE.test(ch)) out += ch;
      else if (c <= 0xff) out += "\\x" + hex(c, 2);
      else if (c <= 0xffff) out += "\\u" + hex(c, 4);
      else out += "\\U" + hex(c, 8);
    }
    return out + quote;
  }

  // A value refused, as a message shows it: a text as Python's repr, None as Python names it, an array or object by
  // its Python type.
  function shown(value) {
    if (typeof value === "string") return pyRepr(value);
    if (value === null || value === undefined) return "None";
    return typeof value === "object" ? pyTypeName(value) : String(value);
  }

  // A whole number as the phone passes it, as a BigInt: a safe integer (3.0 is 3: JSON cannot tell them apart) or a
  // text of ASCII digits (a form's key, "1".."16"); else null.
  function whole(value) {
    if (Number.isSafeInteger(value)) return BigInt(value);
    return typeof value === "string" && /^[0-9]+$/.test(value) ? BigInt(value) : null;
  }

  function wholeOf(value, what) {
    const n = whole(value);
    if (n === null) throw new Error(`${what}: expected a whole number (got ${shown(value)})`);
    return n;
  }

  // The name of the Python type a JSON value arrives as (a whole number is an int: 5.0 cannot be told from 5 here).
  function pyTypeName(value) {
    if (value === null || value === undefined) return "NoneType";
    if (typeof value === "boolean") return "bool";
    if (typeof value === "string") return "str";
    if (typeof value === "number") return Number.isInteger(value) ? "int" : "float";
    if (Array.isArray(value)) return "list";
    if (isDict(value)) return "dict";
    return (value.constructor && value.constructor.name) || "object";
  }

  function isDict(value) {
    if (value instanceof Map) return true;
    if (typeof value !== "object" || value === null) return false;
    const proto = Object.getPrototypeOf(value);
    return proto === Object.prototype || proto === null;
  }

  // Python compares texts by code point; JavaScript's < by UTF-16 unit, which differs when a character beyond U+FFFF
  // meets one from U+E000 to U+FFFF.
  function byCodePoint(a, b) {
    let i = 0;
    while (i < a.length && i < b.length) {
      const x = a.codePointAt(i), y = b.codePointAt(i);
      if (x !== y) return x < y ? -1 : 1;
      i += x > 0xffff ? 2 : 1;
    }
    return i < a.length ? 1 : i < b.length ? -1 : 0;
  }

  // ---- the canonical text (commit.canonical_text) -------------------------------------------------------------------
  // A number not whole as Python's repr() writes it: the shortest digits that read back (JavaScript's too), with
  // Python's choice of form: an exponent below 1e-4 and from 1e16, written e-05, e+16.
  function pyFloat(x) {
    const [mantissa, exponent] = x.toExponential().split("e");
    const sign = mantissa.startsWith("-") ? "-" : "";
    const digits = mantissa.replace("-", "").replace(".", "");
    const e = Number(exponent), decpt = e + 1;
    if (decpt > -4 && decpt <= 16) {
      if (decpt <= 0) return sign + "0." + "0".repeat(-decpt) + digits;
      if (decpt >= digits.length) return sign + digits + "0".repeat(decpt - digits.length) + ".0";
      return sign + digits.slice(0, decpt) + "." + digits.slice(decpt);
    }
    const rest = digits.length > 1 ? "." + digits.slice(1) : "";
    return sign + digits[0] + rest + "e" + (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0");
  }

  // A text as Python's json.dumps(ensure_ascii=False) writes it: only the quote, the backslash and the control
  // characters below U+0020 escaped (U+007F, U+2028 and the rest as they are), \u00xx in lowercase.
  const JSON_ESCAPES = { '"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t" };
  function jsonText(text) {
    return '"' + text.replace(/["\\\x00-\x1f]/g,
                              (ch) => JSON_ESCAPES[ch] || "\\u" + hex(ch.charCodeAt(0), 4)) + '"';
  }

  function jsonValue(value) {
    if (value === null) return "null";
    switch (typeof value) {
      case "boolean": return value ? "true" : "false";
      case "string": return jsonText(value);
      case "bigint": return value.toString();
      case "number":
        if (!Number.isFinite(value)) throw new Error("Out of range float values are not JSON compliant");
        // canonical_numbers: a whole number as an integer (1.0 is 1, -0.0 is 0, 1e21 all its digits)
        return Number.isInteger(value) ? BigInt(value).toString() : pyFloat(value);
      case "object":
        if (Array.isArray(value)) return "[" + value.map(jsonValue).join(",") + "]";
        if (isDict(value)) {
          const entries = value instanceof Map ? [...value.entries()].map(([k, v]) => [String(k), v])
            : Object.entries(value);
          entries.sort((x, y) => byCodePoint(x[0], y[0]));
          return "{" + entries.map(([k, v]) => jsonText(k) + ":" + jsonValue(v)).join(",") + "}";
        }
    }
    throw new TypeError(`Object of type ${pyTypeName(value)} is not JSON serializable`);
  }

  function canonicalText(data) {
    return jsonValue(data);
  }

  const sha256Hex = (text) => sha256.hex(utf8(text, false));

  // ---- commitments (commit.py, dice.commitment) ---------------------------------------------------------------------
  function unitEntries(units) {
    const has = (u, k) => Object.prototype.hasOwnProperty.call(u, k);
    return Array.from(units, (u) => Object.fromEntries(UNIT_KEYS.map((k) => [k, has(u, k) ? u[k] : null])));
  }

  function squareCommitment(battle, side, square, units, salt) {
    return sha256Hex(canonicalText({ format: SQUARE_FORMAT, battle, side, square: wholeOf(square, "square"),
                                     contents: unitEntries(units), salt }));
  }

  function blipCommitment(battle, side, square, salt) {
    return sha256Hex(canonicalText({ format: BLIP_FORMAT, battle, side, square: wholeOf(square, "square"), salt }));
  }

  function cardsCommitment(battle, side, mission, troop, drone, droneLine, purchase, salt) {
    const bought = purchase === null || purchase === undefined ? null
      : Object.fromEntries(Object.entries(purchase).map(([k, v]) => [k, wholeOf(v, `purchase ${shown(k)}`)]));
    return sha256Hex(canonicalText({ format: CARDS_FORMAT, battle, side, mission, troop, drone,
                                     drone_line: droneLine, purchase: bought, salt }));
  }

  function diceCommitment(side, value, salt) {
    return sha256Hex(`${CONTRIBUTION_FORMAT}|${side}|${salt}|${value}`);
  }

  // ---- dice shares and the card draw (dice.dice_share, kept_cards.py) -----------------------------------------------
  function diceShare(side, value, moment, n, purpose = SHARE_FORMAT) {
    // The key is the SHA-256 digest's 32 bytes, not its hex text; the moment is written as Python's
    // encode("utf-8", "backslashreplace") writes it.
    const key = sha256.array(utf8(`${purpose}|${side}|${value}`, false));
    return sha256.hmac.hex(key, utf8(`${moment}|${n}`, true)).slice(0, SHARE_HEX);
  }

  // The host's parts as kept_cards.draw_problems lets them through: anything else is refused, not read.
  function drawNumbers(parts, side, value, moment) {
    if (!Array.isArray(parts) || parts.length !== KEPT_PARTS ||
        !parts.every((p) => typeof p === "string" && p.length === SHARE_HEX && /^[0-9a-f]+$/.test(p))) {
      throw new Error(`draw.parts: expected ${KEPT_PARTS} parts of ${SHARE_HEX} hex digits`);
    }
    return parts.map((part, n) =>
      BigInt("0x" + part) ^ BigInt("0x" + diceShare(side, value, moment, n, CARD_SHARE_FORMAT)));
  }

  // A whole number from 0 to n - 1 from the next 64-bit numbers, as kept_cards._below (rejection keeps it unbiased).
  function below(numbers, n) {
    const size = BigInt(n), limit = TWO_64 - TWO_64 % size;
    for (let step = numbers.next(); !step.done; step = numbers.next()) {
      const v = BigInt(step.value);
      if (v < limit) return Number(v % size);
    }
    throw new Error("the draw ran out of numbers");
  }

  function drawnOffer(numbers, missions, troops, drones, streak) {
    const it = numbers[Symbol.iterator]();
    const m = missions[below(it, missions.length)];
    const t = troops[below(it, troops.length)];
    const d = drones[below(it, drones.length)];
    const missionIds = [m], troopIds = [t];
    if (streak >= 2) {
      const rest = troops.filter((c) => c !== t);
      if (rest.length) troopIds.push(rest[below(it, rest.length)]);
    }
    if (streak >= 3) {
      const rest = missions.filter((c) => c !== m);
      if (rest.length) missionIds.push(rest[below(it, rest.length)]);
    }
    return { missions: missionIds, troops: troopIds, drone: d };
  }

  function offerOf(draw, side, value) {
    const streak = draw.streak;
    if (!Number.isInteger(streak) || streak < 0 || streak > 4) {
      throw new Error("draw.streak: expected the side's winning streak, 0 to 4");
    }
    return drawnOffer(drawNumbers(draw.parts, side, value, draw.moment), draw.missions, draw.troops, draw.drones,
                      streak);
  }

  // ---- random numbers from the operating system ---------------------------------------------------------------------
  function randomBytes(count) {
    const bytes = new Uint8Array(count);
    for (let i = 0; i < count; i += 65536) crypto.getRandomValues(bytes.subarray(i, i + 65536));   // 64 KiB a call
    return bytes;
  }

  function randomHex(bytes = SALT_BYTES) {
    if (!Number.isSafeInteger(bytes) || bytes < 0) throw new RangeError("randomHex: expected a number of bytes");
    return Array.from(randomBytes(bytes), (b) => hex(b, 2)).join("");
  }

  // A whole number from 0 to n - 1, every one equally likely: numbers at or above the last whole multiple of n below
  // 2^32 (2^64 for a bigger n) are drawn again, as a plain % would favour the small ones.
  function randomBelow(n) {
    if (!Number.isSafeInteger(n) || n <= 0) throw new RangeError("nothing to draw from");
    if (n <= 2 ** 32) {
      const limit = 2 ** 32 - (2 ** 32 % n), word = new Uint32Array(1);
      do crypto.getRandomValues(word); while (word[0] >= limit);
      return word[0] % n;
    }
    const size = BigInt(n), limit = TWO_64 - TWO_64 % size;
    for (;;) {
      const v = BigInt("0x" + randomHex(8));
      if (v < limit) return Number(v % size);
    }
  }

  function shuffle(list) {
    for (let i = list.length - 1; i > 0; i--) {
      const j = randomBelow(i + 1);
      [list[i], list[j]] = [list[j], list[i]];
    }
    return list;
  }

  // ---- the holding area's rule (commit.drawn_groups, commit.arrangement_problems) -----------------------------------
  function drawnGroups(units) {
    const all = Array.from(units);
    if (all.length > SQUARES * UNITS_PER_SQUARE) {
      throw new Error(`${all.length} units do not fit 16 squares of 2 [p.~10]`);
    }
    const groups = all.slice(0, SQUARES).map((u) => [u]);
    all.slice(SQUARES).forEach((u, i) => groups[i].push(u));
    return groups;
  }

  function squareOverfull(n, count) {
    return count > UNITS_PER_SQUARE ? `square ${n} holds ${count} units; at most ${UNITS_PER_SQUARE} [p.~10]` : "";
  }

  // `squares` as the phone sends it ({square: [unit ids]}). A plain object lists its keys that are whole numbers
  // ("1", "16") first, in ascending order, whatever order they were put in (a Map keeps that order): the messages come
  // in the order the keys are gone through, as Python goes through the JSON the page sends.
  function arrangementProblems(side, issued, squares) {
    if (!isDict(squares)) return [`squares: expected {square: [unit ids]} (got ${pyTypeName(squares)})`];
    const ids = new Set(issued);
    const problems = [], placed = [];
    const entries = squares instanceof Map ? [...squares.entries()] : Object.entries(squares);
    for (const [key, units] of entries) {
      const n = whole(key);
      if (n === null || n < 1n || n > BigInt(SQUARES)) {
        problems.push(`square ${n === null ? shown(key) : n}: expected a square number from 1 to ${SQUARES} [p.~10]`);
        continue;
      }
      if (!Array.isArray(units) || !units.every((u) => typeof u === "string")) {
        problems.push(`square ${n}: expected a list of unit ids`);
        continue;
      }
      if (squareOverfull(n, units.length)) problems.push(squareOverfull(n, units.length));
      for (const u of units) {
        if (!ids.has(u)) {
          problems.push(`square ${n}: ${pyRepr(u)} is not a unit side ${side}'s cards issued ` +
                        `(expected one of ${[...ids].sort(byCodePoint).join(", ")})`);
        } else if (placed.includes(u)) {
          problems.push(`square ${n}: ${u} is already in another square`);
        }
        placed.push(u);
      }
    }
    const left = [...ids].filter((u) => !placed.includes(u)).sort(byCodePoint);
    if (left.length && !problems.length) {
      problems.push(`every issued unit goes into a square: ${left.join(", ")} left [p.~10]`);
    }
    return problems;
  }

  return Object.freeze({
    SALT_BYTES, SHARE_FORMAT, CARD_SHARE_FORMAT,
    canonicalText, unitEntries, squareCommitment, blipCommitment, cardsCommitment, diceCommitment,
    diceShare, drawNumbers, drawnOffer, offerOf,
    randomHex, randomBelow, shuffle,
    drawnGroups, arrangementProblems,
  });
})();
