/* Shared by every page: translation, JSON calls with the CSRF token, the live stream. */
"use strict";

const TITLES = { gemelos: "Gemelos", red_mans_throw: "Red Man's Throw", barras: "Barras",
                 dados_centrales: "Dados Centrales", rey_y_mendigo: "El Rey y el Mendigo" };

function t(text, values) {
  let out = (window.I18N && window.I18N[text]) || text;
  if (values) {
    for (const [k, v] of Object.entries(values)) out = out.split("{" + k + "}").join(String(v));
  }
  return out;
}

/* What the rules or the station said: the English, and beside it (KEY_i18n) its template and
   values ({text, values} or {join, parts}), said again in the page's language. */
function said(obj, key) {
  const form = obj ? obj[key + "_i18n"] : null;
  return form ? sayForm(form) : (obj && obj[key]) || "";
}

function sayForm(form) {
  if (form === null || typeof form !== "object") return String(form);
  if (form.parts) return form.parts.map(sayForm).join(form.join);
  const values = {};
  for (const [k, v] of Object.entries(form.values || {})) values[k] = v !== null && typeof v === "object" ? sayForm(v) : v;
  return t(form.text, values);
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on")) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children.flat()) {
    if (c === null || c === undefined || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

async function api(method, url, body) {
  const opts = { method, headers: { "Accept": "application/json", "X-CSRF-Token": window.CSRF || "" },
                 credentials: "same-origin" };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const resp = await fetch(url, opts);
  let data = {};
  try { data = await resp.json(); } catch (e) { data = { error: resp.statusText }; }
  if (!resp.ok && !data.error) data.error = resp.status + " " + resp.statusText;
  data._status = resp.status;
  data._ok = resp.ok;
  return data;
}

/* The live stream: EventSource reconnects by itself and sends Last-Event-ID;
   when the browser gives up (server restarted, proxy error) we open a new one
   from the last id seen. Every (re)connection also refetches the state. */
function live(onMessage, onState, onStatus) {
  let lastId = null;
  let source = null;
  let retryMs = 1000;
  const refetch = () => fetch("/api/state", { headers: { "Accept": "application/json" } })
    .then((r) => r.json()).then(onState).catch(() => {});
  function open() {
    const url = lastId === null ? "/api/events" : "/api/events?after=" + lastId;
    source = new EventSource(url);
    window.__source = source;  // the browser tests cut it to check the catch-up
    source.onopen = () => { retryMs = 1000; onStatus(true); refetch(); };
    source.onerror = () => {
      onStatus(false);
      if (source.readyState === EventSource.CLOSED) {
        setTimeout(open, retryMs);
        retryMs = Math.min(retryMs * 2, 15000);
      }
    };
    const handle = (ev) => {
      lastId = Number(ev.lastEventId || lastId);
      let msg;
      try { msg = JSON.parse(ev.data); } catch (e) { return; }
      onMessage(msg);
    };
    for (const kind of ["read", "correction", "decision", "game", "refused", "message"]) {
      source.addEventListener(kind, handle);
    }
  }
  window.addEventListener("online", () => { if (source) source.close(); open(); });
  refetch();
  open();
}

function diceText(kind, value) {
  if (kind === "d6" && typeof value === "number" && value >= 1 && value <= 6) {
    return "⚀⚁⚂⚃⚄⚅"[value - 1];
  }
  return String(value);
}

function dieChip(value, extra) {
  const kind = typeof value === "object" && value !== null ? value.kind : null;
  const v = typeof value === "object" && value !== null ? value.value : value;
  return el("span", { class: "die" + (extra ? " " + extra : ""), title: String(v) }, String(v));
}
