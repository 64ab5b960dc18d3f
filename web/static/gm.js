/* The GM screen: start a game, read, correct a die on the photo, undo, re-throw, decide, end. */
"use strict";

const NEEDS_AMOUNT = { join: "stake", stake: "amount" };
let state = null;
let lastRead = null;
let correcting = null;

function $(id) { return document.getElementById(id); }

function toast(text, bad) {
  const box = $("toast");
  box.textContent = text;
  box.classList.toggle("bad", !!bad);
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, bad ? 7000 : 3000);
}

async function call(method, url, body) {
  const out = await api(method, url, body);
  if (!out._ok) toast(t("Error") + ": " + (said(out, "error") || said(out, "message") || out._status), true);
  return out;
}

/* --- the start form, generated from rules.options.describe -------------- */
function optionInput(o) {
  const id = "opt-" + o.name;
  let input;
  if (typeof o.default === "boolean") {
    input = el("input", { type: "checkbox", id, name: o.name, checked: o.default });
  } else if (o.choices) {
    input = el("select", { id, name: o.name }, o.choices.map((c) => el("option", { value: c, selected: c === o.default }, c)));
  } else if (typeof o.default === "number") {
    input = el("input", { type: "number", id, name: o.name, value: o.default, step: Number.isInteger(o.default) ? 1 : "any",
                          min: o.min, max: o.max, style: "width:7em" });
  } else {
    input = el("input", { type: "text", id, name: o.name, value: o.default });
  }
  input.dataset.kind = typeof o.default;
  return el("div", {}, el("label", { for: id }, o.name), input, el("div", { class: "help" }, o.help));
}

function drawOptions() {
  const g = window.GAMES.find((x) => x.id === $("game").value);
  $("options").replaceChildren(...g.options.map(optionInput));
  $("players-help").textContent = g.max_players === g.min_players ? g.min_players + " players"
    : g.min_players + (g.max_players ? "–" + g.max_players : "+") + " players";
}

async function startGame(ev) {
  ev.preventDefault();
  const g = window.GAMES.find((x) => x.id === $("game").value);
  const options = {};
  for (const o of g.options) {
    const input = $("opt-" + o.name);
    let v = input.type === "checkbox" ? input.checked : input.value;
    if (typeof o.default === "number") v = Number(v);
    if (v !== o.default) options[o.name] = v;
  }
  const players = $("players").value.split("\n").map((s) => s.trim()).filter(Boolean);
  const out = await call("POST", "/api/games", { game: g.id, players, options });
  if (out._ok) { toast(t("Done")); drawState(out); refreshRead(); }
}

/* --- reads and corrections --------------------------------------------- */
async function read(override) {
  $("btn-read").disabled = true;
  const out = await api("POST", "/api/read", override ? { override: true } : undefined);
  $("btn-read").disabled = false;
  if (out.read) drawRead(out.read);
  if (out.state) drawState(out.state);
  if (!out._ok) toast(said(out, "error") || said(out, "message") || String(out._status), true);
  else toast(t("Done") + (out.ms !== undefined ? " (" + out.ms + " ms)" : ""));
}

function drawRead(r) {
  lastRead = r;
  const img = $("photo");
  const wrap = $("photo-wrap");
  for (const h of wrap.querySelectorAll(".hit")) h.remove();
  $("correct-form").hidden = true;
  if (!r) { img.hidden = true; $("read-id").textContent = ""; return; }
  $("read-id").textContent = "#" + r.id + (r.status === "refused" ? " · " + t("refused") : "");
  $("read-message").textContent = said(r, "message");
  $("read-message").hidden = !r.message;
  img.onload = () => placeHits(r);
  img.src = r.annotated || r.photo;
  img.hidden = false;
  if (img.complete && img.naturalWidth) placeHits(r);
}

function placeHits(r) {
  const wrap = $("photo-wrap");
  const img = $("photo");
  for (const h of wrap.querySelectorAll(".hit")) h.remove();
  if (r.status === "refused" || !img.naturalWidth) return;
  r.dice.forEach((d, i) => {
    if (!d.center) return;
    const hit = el("button", { class: "hit" + (d.corrected ? " corrected" : ""), type: "button",
                               "data-die": i, title: d.kind + " " + d.value,
                               "aria-label": t("Correct die {n}", { n: i + 1 }) + " (" + d.value + ")",
                               style: `left:${100 * d.center[0] / img.naturalWidth}%;top:${100 * d.center[1] / img.naturalHeight}%` });
    hit.addEventListener("click", () => startCorrection(i));
    wrap.append(hit);
  });
}

function startCorrection(i) {
  const d = lastRead.dice[i];
  correcting = i;
  for (const h of document.querySelectorAll(".hit")) h.classList.toggle("on", Number(h.dataset.die) === i);
  $("correct-title").textContent = t("Correct die {n}", { n: i + 1 }) + ": " + d.kind + " " + d.value + " →";
  const values = window.KINDS[d.kind] || [];
  $("correct-value").replaceChildren(...values.map((v) => el("option", { value: String(v), selected: v === d.value }, String(v))));
  $("correct-form").hidden = false;
  $("correct-value").focus();
}

async function saveCorrection(ev) {
  ev.preventDefault();
  if (correcting === null || !lastRead) return;
  const raw = $("correct-value").value;
  const value = /^-?\d+$/.test(raw) ? Number(raw) : raw;
  const out = await call("POST", "/api/events", { type: "correct", read: lastRead.id, die: correcting, value });
  if (out._ok) { toast(t("Saved")); drawState(out); refreshRead(); }
  correcting = null;
}

/* --- decisions: exactly what the game's next() offers ------------------- */
function decisionButtons(s) {
  const box = [];
  const next = s.next;
  const offers = [];
  if (next && next.choices) for (const c of next.choices) for (const p of next.players) offers.push([c, p]);
  if (s.red_man && !s.hat_tipped && s.tip_hat_by) offers.push(["tip_hat", s.tip_hat_by]);
  for (const [choice, player] of offers) {
    const field = NEEDS_AMOUNT[choice];
    const amount = field ? el("input", { type: "number", min: 0, step: "any", style: "width:5em",
                                         value: (s.stakes && s.stakes[player]) || "", "aria-label": t("Amount") }) : null;
    const pred = choice === "predict" ? el("input", { type: "text", placeholder: "pair / straight / [2,3,4]", style: "width:9em" }) : null;
    const btn = el("button", { type: "button", class: choice === "withdraw" ? "danger" : "",
                               "data-choice": choice, "data-player": player }, t(choice));
    btn.addEventListener("click", async () => {
      const ev = { type: choice, player };
      if (field) { if (amount.value === "" && choice === "stake") return toast(t("Amount") + "?", true);
                   if (amount.value !== "") ev[field] = Number(amount.value); }
      if (pred) { try { ev.prediction = JSON.parse(pred.value); } catch (e) { ev.prediction = pred.value; } }
      const out = await call("POST", "/api/events", ev);
      if (out._ok) { toast(t("Done")); drawState(out); }
    });
    box.push(el("div", { class: "row" }, el("b", {}, player), amount, pred, btn));
  }
  $("decisions").replaceChildren(...(box.length ? box : [el("p", { class: "muted" }, "—")]));
}

function drawState(s) {
  state = s;
  $("game-title").textContent = s.game ? (TITLES[s.game] || s.game) : t("No game is open");
  $("round").textContent = s.round ? t("Round {n}", { n: s.round }) + (s.game_id ? " · #" + s.game_id : "") : "";
  const w = $("waiting");
  if (!s.game) w.textContent = "";
  else if (s.finished) w.textContent = s.winner ? t("{winner} wins the game", { winner: s.winner }) : t("Game over");
  else if (s.next && s.next.action === "throw") w.textContent = t("Waiting for {players}: {dice}", { players: s.next.players.join(", "), dice: s.next.dice || "" });
  else if (s.next) w.textContent = t("Waiting for a decision from {players}", { players: s.next.players.join(", ") });
  $("btn-undo").disabled = !s.undoable;
  $("btn-read").disabled = !s.game || s.finished;
  $("btn-end").disabled = !s.game || s.finished;
  decisionButtons(s);
  $("throws").replaceChildren(...(s.current_throws || []).map((th) =>
    el("div", { class: "throw" }, el("span", { class: "who" }, th.player),
       el("span", { class: "dice" }, th.dice.map((d) => el("span", { class: "die" }, String(d)))))));
  const players = (s.players || []).concat(s.balances && "house" in s.balances ? ["house"] : []);
  $("scores").replaceChildren(el("tr", {}, el("th", {}, t("Player")), el("th", {}, t("Round wins")), el("th", {}, t("Balances"))),
    ...players.map((p) => el("tr", {}, el("td", {}, p), el("td", {}, String((s.round_wins || {})[p] ?? "–")),
                                  el("td", {}, String((s.balances || {})[p] ?? "–")))));
  $("pots").replaceChildren(...Object.entries(s.pots || {}).map(([k, v]) => el("div", { class: "pot" }, el("span", {}, k), el("b", {}, String(v)))));
  $("rounds").replaceChildren(...(s.rounds || []).slice().reverse().map((r) =>
    el("li", { value: r.number }, el("b", {}, r.winner || t("void")), " — ", said(r, "reason"))));
}

function refreshRead() {
  return fetch("/api/last-read", { headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : null)).then(drawRead).catch(() => {});
}

$("game").addEventListener("change", drawOptions);
$("start-form").addEventListener("submit", startGame);
$("btn-read").addEventListener("click", () => read(false));
$("btn-override").addEventListener("click", () => read(true));
$("btn-undo").addEventListener("click", async () => {
  const out = await call("POST", "/api/events", { type: "undo" });
  if (out._ok) { toast(t("Done")); drawState(out); refreshRead(); }
});
$("btn-rethrow").addEventListener("click", async () => {
  const out = await call("POST", "/gm/rethrow");
  if (out._ok) { toast(t("Done")); drawState(out.state); refreshRead(); }
});
$("btn-end").addEventListener("click", async () => {
  if (!window.confirm(t("End the game") + "?")) return;
  const out = await call("POST", "/api/events", { type: "end" });
  if (out._ok) { toast(t("Done")); drawState(out); }
});
$("correct-form").addEventListener("submit", saveCorrection);
$("correct-cancel").addEventListener("click", () => { $("correct-form").hidden = true; correcting = null; });
drawOptions();
live((msg) => { if (msg.state) drawState(msg.state); if (msg.read) drawRead(msg.read); else refreshRead(); },
     (s) => { drawState(s); refreshRead(); },
     (up) => { $("live").textContent = up ? "● " + t("live") : t("reconnecting…"); $("live").classList.toggle("off", !up); });
