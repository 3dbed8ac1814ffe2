// The history page's check of witnessed heads (docs/fairness.md, "Witnessed heads"), run in the
// player's browser on the export the server gives now, trusting none of its hashes or pins: each
// hash is recomputed with Web Crypto's SHA-256 over the event's canonical JSON (as
// tools/verify_export.py does), each head's pin with HMAC-SHA256 under the revealed seed. Before the
// end the export withholds hashes and seed (they would give secrets away), so only its pins can be
// compared. Numbers are kept as their text: a sealed order's salt draws exceed JavaScript's exact
// integers, and a hash over a rounded number would not be the server's.
"use strict";

(function () {
  const PIN_LABEL = "aegeapolis-export-pin:";
  const GENESIS = "0".repeat(64);
  const HEADER_FORM = /game=(\d+);\s*seq=(\d+);\s*pin=([0-9a-f]{64})/g;
  const SHORT_FORM = /\b(\d+)\s*[·.:]\s*([0-9a-f]{16,64})/g;

  class Num {
    constructor(text) { this.text = text; }
  }

  // A JSON parser that keeps every number as its text (the canonical JSON writes it back as read).
  function parse(text) {
    let at = 0;
    const fail = () => { throw new Error("not JSON at " + at); };
    const space = () => { while (/\s/.test(text[at] || "")) at += 1; };
    function value() {
      space();
      const c = text[at];
      if (c === "{") {
        at += 1; const object = {}; space();
        if (text[at] === "}") { at += 1; return object; }
        for (;;) {
          space(); const key = string(); space();
          if (text[at] !== ":") fail();
          at += 1; object[key] = value(); space();
          if (text[at] === ",") { at += 1; continue; }
          if (text[at] === "}") { at += 1; return object; }
          fail();
        }
      }
      if (c === "[") {
        at += 1; const array = []; space();
        if (text[at] === "]") { at += 1; return array; }
        for (;;) {
          array.push(value()); space();
          if (text[at] === ",") { at += 1; continue; }
          if (text[at] === "]") { at += 1; return array; }
          fail();
        }
      }
      if (c === '"') return string();
      for (const [word, meaning] of [["true", true], ["false", false], ["null", null]]) {
        if (text.startsWith(word, at)) { at += word.length; return meaning; }
      }
      const number = /^-?\d+(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at, at + 400));
      if (!number) fail();
      at += number[0].length;
      return new Num(number[0]);
    }
    function string() {
      if (text[at] !== '"') fail();
      let end = at + 1;
      while (text[end] !== '"') { end += text[end] === "\\" ? 2 : 1; if (end >= text.length) fail(); }
      const result = JSON.parse(text.slice(at, end + 1));
      at = end + 1;
      return result;
    }
    const result = value(); space();
    if (at !== text.length) fail();
    return result;
  }

  // Python's json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).
  function canonical(value) {
    if (value instanceof Num) return value.text;
    if (value === null || typeof value !== "object") return JSON.stringify(value);
    if (Array.isArray(value)) return "[" + value.map(canonical).join(",") + "]";
    const keys = Object.keys(value).sort();
    return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonical(value[k])).join(",") + "}";
  }

  const bytes = (text) => new TextEncoder().encode(text);
  const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");
  const number = (value) => (value instanceof Num ? Number(value.text) : value);

  async function eventHash(gameId, event) {
    const document = { game: gameId };
    for (const name of ["actor", "created", "payload", "prev_hash", "schema_version", "seq", "type"]) {
      document[name] = event[name];
    }
    return hex(await crypto.subtle.digest("SHA-256", bytes(canonical(document))));
  }

  // seq -> pin of the log: recomputed from its contents and the seed, or (before the end) the export's.
  async function pinsOf(log) {
    const events = log.events;
    const seed = log.game && log.game.seed;
    const withheld = events.some((event) => event.hash === null || event.hash === undefined);
    const pins = new Map();
    if (withheld || !seed) {
      for (const event of events) pins.set(number(event.seq), event.pin);
      return { pins, recomputed: false };
    }
    const key = await crypto.subtle.importKey("raw", bytes(seed), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    let prev = GENESIS;
    for (const [index, event] of events.entries()) {
      const seq = number(event.seq);
      if (seq !== index + 1 || event.prev_hash !== prev || (await eventHash(log.game.id, event)) !== event.hash) {
        return { broken: seq };
      }
      prev = event.hash;
      pins.set(seq, hex(await crypto.subtle.sign("HMAC", key, bytes(PIN_LABEL + event.hash))));
    }
    return { pins, recomputed: true };
  }

  function headsIn(text, gameId) {
    const heads = [];
    for (const [, game, seq, pin] of text.matchAll(HEADER_FORM)) {
      if (Number(game) === gameId) heads.push({ seq: Number(seq), pin });
    }
    if (heads.length === 0) {
      for (const [, seq, pin] of text.matchAll(SHORT_FORM)) heads.push({ seq: Number(seq), pin });
    }
    return heads.sort((a, b) => a.seq - b.seq);
  }

  function told(form, name, values) {
    let text = form.dataset[name];
    for (const [key, value] of Object.entries(values || {})) text = text.replace("{" + key + "}", value);
    const result = form.querySelector(".witness-result");
    result.textContent = text;
    result.dataset.outcome = name;
  }

  async function check(form) {
    told(form, "checking");
    let log;
    try {
      const response = await fetch(form.dataset.export, { credentials: "same-origin" });
      if (!response.ok) throw new Error(String(response.status));
      log = parse(await response.text());
      log.game.id = number(log.game.id);
    } catch (error) {
      told(form, "unloaded");
      return;
    }
    const text = form.querySelector("textarea").value.toLowerCase();
    const heads = headsIn(text, log.game.id);
    if (heads.length === 0) { told(form, "none"); return; }
    const found = await pinsOf(log);
    if (found.broken !== undefined) { told(form, "chain", { seq: found.broken }); return; }
    const last = Math.max(0, ...found.pins.keys());
    for (const head of heads) {
      if (!found.pins.has(head.seq)) { told(form, "missing", { seq: head.seq, last }); return; }
      const pin = found.pins.get(head.seq);
      if (typeof pin !== "string" || !pin.startsWith(head.pin)) { told(form, "broken", { seq: head.seq }); return; }
    }
    told(form, found.recomputed ? "ok" : "okPins", { n: heads.length });
  }

  for (const form of document.querySelectorAll("form.witness-form")) {
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      check(form);
    });
  }
})();
