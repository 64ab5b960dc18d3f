/* The table page: draws /api/state and the last read; redraws on every live event. */
"use strict";

const MOMENT_MS = 9000;
let shownFlags = null;   // flags already seen: only new ones make a moment
let momentTimer = null;
window.__updates = [];   // {id, delayMs}: the e2e test reads the delay from stored event to DOM

function $(id) { return document.getElementById(id); }

function waitingText(next) {
  if (!next) return "";
  const who = (next.players || []).join(", ");
  if (next.action === "throw") {
    const note = next.note ? " (" + t(next.note) + ")" : "";
    return (next.players.length === 1 ? t("Waiting for {player}: {dice}", { player: who, dice: next.dice || "" })
      : t("Waiting for {players}: {dice}", { players: who, dice: next.dice || "" })) + note;
  }
  return t("Waiting for a decision from {players}", { players: who });
}

function valueOf(d) { return d !== null && typeof d === "object" ? d.value : d; }

function throwRow(th) {
  const dice = (th.dice || []).map((d) => el("span", { class: "die" }, String(valueOf(d))));
  const extra = said(th, "rank") || (th.value !== undefined ? String(th.value) : "") ||
                (th.sum !== undefined ? "Σ " + th.sum + (th.distance !== undefined ? " (±" + th.distance + ")" : "") : "");
  return el("div", { class: "throw" }, el("span", { class: "who" }, th.player), el("span", { class: "dice" }, dice),
            el("span", { class: "rank" }, extra));
}

function drawMomentsFromState(s) {
  // the lasting moments: shown as long as the state says so
  const lines = [];
  if (s.red_man_says) {
    lines.push(el("div", { class: "m-red" }, "“" + t(s.red_man_says) + "”", el("small", {}, t("{player} is the red man", { player: s.red_man }))));
    if (s.tip_hat_says) lines.push(el("div", { class: "m-hat" }, "⚜ “" + t(s.tip_hat_says) + "”", el("small", {}, s.tip_hat_by)));
  }
  if (s.blessed) lines.push(el("div", { class: "m-bless" }, "✦ " + t("Salvation") + ": " + t("{player} is blessed", { player: s.blessed })));
  else if (s.phase === "salvation") lines.push(el("div", { class: "m-bless" }, t("Salvation")));
  return lines;
}

function newMoments(s, flags) {
  const out = [];
  for (const f of flags) {
    const [name, who] = f.split(":");
    if (name === "triple_zero") out.push(el("div", { class: "m-zero" }, t("Triple zero: {player} throws 100", { player: who })));
    else if (name === "exact_match") out.push(el("div", { class: "m-exact" }, t("Exact match: {player} throws the red numbers", { player: who })));
    else if (name === "chico") out.push(el("div", { class: "m-chico" }, t("Chico for {player}", { player: who })));
    else if (name === "rey_goal") out.push(el("div", { class: "m-rey" }, "♛ " + t("Third Rey: {player}", { player: who })));
  }
  return out;
}

function drawMoment(s) {
  const flags = s.flags || [];
  const fresh = shownFlags === null ? [] : flags.filter((f) => !shownFlags.includes(f));
  shownFlags = flags.slice();
  const lasting = drawMomentsFromState(s);
  const passing = newMoments(s, fresh);
  const box = $("moment");
  if (passing.length) {
    clearTimeout(momentTimer);
    momentTimer = setTimeout(() => { box.classList.remove("flash"); drawMoment(window.__state || s); }, MOMENT_MS);
    box.replaceChildren(...lasting, ...passing);
    box.classList.add("flash");
    box.hidden = false;
    return;
  }
  if (box.classList.contains("flash")) return;  // a passing moment is still on screen
  box.replaceChildren(...lasting);
  box.hidden = lasting.length === 0;
}

function drawScores(s) {
  const players = (s.players || []).slice();
  if (s.balances && "house" in s.balances) players.push("house");
  const cols = [[t("Round wins"), s.round_wins || s.wins]];
  if (s.chips) cols.push([t("Chips"), s.chips]);
  if (s.tallies) {
    cols.push([t("Reyes"), Object.fromEntries(Object.entries(s.tallies).map(([p, v]) => [p, v.reyes]))]);
    cols.push([t("Chicos"), Object.fromEntries(Object.entries(s.tallies).map(([p, v]) => [p, v.chicos]))]);
  }
  cols.push([t("Balances"), s.balances]);
  const next = (s.next && s.next.players) || [];
  const head = el("tr", {}, el("th", {}, t("Player")), cols.map(([name]) => el("th", {}, name)));
  const rows = players.map((p) => el("tr", { class: next.includes(p) ? "next" : "" },
    el("td", {}, p + (s.winner === p ? " ★" : "")),
    cols.map(([, values]) => el("td", {}, values && p in values ? String(values[p]) : "–"))));
  $("scores").replaceChildren(el("thead", {}, head), el("tbody", {}, rows));
  const pots = Object.entries(s.pots || {});
  $("pots").replaceChildren(...(pots.length ? [el("h3", {}, t("Pots")),
    ...pots.map(([k, v]) => el("div", { class: "pot" }, el("span", {}, k), el("b", {}, String(v))))] : []));
}

function drawExtra(s) {
  const parts = [];
  if (s.bar) parts.push(el("div", { class: "bar" }, t("The bar") + ": ", el("b", {}, String(s.bar.value)),
                           el("span", { class: "dice" }, s.bar.dice.map((d) => el("span", { class: "die" }, String(d))))));
  if (s.central) parts.push(el("div", { class: "bar central" }, t("Central dice") + ": ",
                               el("span", { class: "dice" }, s.central.dice.map((d) => el("span", { class: "die red" }, String(d)))),
                               el("b", {}, " Σ " + s.central.sum)));
  if (s.one_die && s.one_die.length) parts.push(el("div", { class: "muted" }, t("throw-off") + ": ",
                                                   s.one_die.map((o) => o.player + " " + o.die).join(", ")));
  if (s.last_throw && s.game === "rey_y_mendigo") {
    const lt = s.last_throw;
    parts.push(el("div", { class: "throw" }, el("span", { class: "who" }, lt.player),
                  el("span", { class: "dice" }, lt.dice.map((d, i) => el("span", { class: "die " + (lt.roles ? lt.roles[i] : "") }, String(d))))));
  }
  $("extra").replaceChildren(...parts);
}

function drawState(s) {
  window.__state = s;
  const open = !!s.game;
  $("empty").hidden = open;
  $("board").hidden = !open;
  $("game-title").textContent = open ? (TITLES[s.game] || s.game) : "dicestation";
  const total = s.rounds_total ? " / " + s.rounds_total : "";
  $("round").textContent = open && s.round ? t("Round {n}", { n: s.round }) + total : "";
  const w = $("waiting");
  if (!open) w.textContent = "";
  else if (s.finished) w.textContent = s.winner ? t("{winner} wins the game", { winner: s.winner }) : t("Game over");
  else w.textContent = waitingText(s.next);
  w.classList.toggle("over", !!s.finished);
  if (!open) return;
  const now = (s.current_throws || []).concat(s.throw_off_throws || []);
  const last = (s.rounds || [])[(s.rounds || []).length - 1];
  if (now.length || !last) $("throws").replaceChildren(...now.map(throwRow));
  else {
    // between rounds: the throws that decided the last round stay in view, with its result
    $("throws").replaceChildren(
      el("div", { class: "muted" }, t("Round {n}", { n: last.number }) + ": " + (last.winner || t("void"))),
      ...(last.throws || []).map(throwRow),
      el("div", { class: "reason" }, said(last, "reason")));
  }
  drawExtra(s);
  drawScores(s);
  const rounds = (s.rounds || []).slice().reverse().map((r) => el("li", { value: r.number },
    el("b", {}, r.winner || t("void")), " — ", said(r, "reason"),
    (r.flags || []).length ? el("span", { class: "flags" }, " [" + r.flags.join(", ") + "]") : null));
  $("rounds").replaceChildren(...rounds);
  drawMoment(s);
}

function drawRead(read) {
  const img = $("photo");
  if (!read) { img.hidden = true; $("no-read").hidden = false; $("read-id").textContent = ""; $("read-message").hidden = true; return; }
  $("no-read").hidden = true;
  img.src = read.annotated || read.photo;
  img.hidden = false;
  $("read-id").textContent = "#" + read.id + (read.status === "refused" ? " · " + t("refused") : "");
  const msg = $("read-message");
  msg.textContent = said(read, "message");
  msg.hidden = !read.message;
}

function refreshRead() {
  return fetch("/api/last-read", { headers: { "Accept": "application/json" } })
    .then((r) => (r.ok ? r.json() : null)).then(drawRead).catch(() => {});
}

function onMessage(msg) {
  const arrived = Date.now();
  if (msg.state) drawState(msg.state);
  if (msg.read) drawRead(msg.read);
  else refreshRead();
  document.body.dataset.lastEvent = String(msg.id);
  window.__updates.push({ id: msg.id, kind: msg.kind, delayMs: arrived - msg.time * 1000,
                          domMs: Date.now() - msg.time * 1000 });
  if (!msg.state) fetch("/api/state").then((r) => r.json()).then(drawState);
}

live(onMessage, (s) => { drawState(s); refreshRead(); }, (up) => {
  const b = $("live");
  b.textContent = up ? "● " + t("live") : t("reconnecting…");
  b.classList.toggle("off", !up);
});
