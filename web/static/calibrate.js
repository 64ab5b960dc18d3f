/* Calibration: drag the tray corners and seat zones on the photo; label dice by clicking. */
"use strict";
const SVGNS = "http://www.w3.org/2000/svg";
const svg = document.getElementById("editor");
const img = document.getElementById("tray-img");
let size = [640, 480];
const layout = { corners: (window.LAYOUT.corners || []).slice(), zones: (window.LAYOUT.zones || []).slice() };
const COLOURS = ["#3e8ed0", "#46a758", "#e5484d", "#a855f7", "#f59e0b", "#14b8a6"];

function toast(text, bad) {
  const box = document.getElementById("toast");
  box.textContent = text; box.classList.toggle("bad", !!bad); box.hidden = false;
  clearTimeout(toast.timer); toast.timer = setTimeout(() => { box.hidden = true; }, 4000);
}

function setSize(w, h, photo) {
  size = [w, h];
  svg.setAttribute("viewBox", `0 0 ${w} ${h}`);
  img.setAttribute("width", w); img.setAttribute("height", h);
  // Corners are offered only on the camera's photo: guessed on a placeholder size they
  // would limit reads to a wrong part of the frame once saved.
  if (!layout.corners.length && photo) layout.corners = [[w * .05, h * .05], [w * .95, h * .05], [w * .95, h * .95], [w * .05, h * .95]];
  draw();
}

function svgEl(tag, attrs) {
  const n = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) n.setAttribute(k, v);
  return n;
}

function point(ev) {
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  const p = pt.matrixTransform(svg.getScreenCTM().inverse());
  return [Math.max(0, Math.min(size[0], p.x)), Math.max(0, Math.min(size[1], p.y))];
}

function handle(list, i, colour) {
  const r = Math.max(size[0], size[1]) / 70;
  const c = svgEl("circle", { cx: list[i][0], cy: list[i][1], r, class: "handle", fill: colour });
  c.addEventListener("pointerdown", (ev) => {
    ev.preventDefault();
    c.setPointerCapture(ev.pointerId);
    const move = (e) => { list[i] = point(e); draw(); };
    const up = () => { c.removeEventListener("pointermove", move); c.removeEventListener("pointerup", up); };
    c.addEventListener("pointermove", move);
    c.addEventListener("pointerup", up);
  });
  return c;
}

function draw() {
  for (const n of [...svg.querySelectorAll(".shape")]) n.remove();
  const g = svgEl("g", { class: "shape" });
  const sw = Math.max(size[0], size[1]) / 300;
  layout.zones.forEach((z, k) => {
    const colour = COLOURS[k % COLOURS.length];
    g.append(svgEl("polygon", { points: z.polygon.map((p) => p.join(",")).join(" "), fill: colour, "fill-opacity": .25,
                                stroke: colour, "stroke-width": sw }));
    const cx = z.polygon.reduce((a, p) => a + p[0], 0) / z.polygon.length;
    const cy = z.polygon.reduce((a, p) => a + p[1], 0) / z.polygon.length;
    const label = svgEl("text", { x: cx, y: cy, fill: "#fff", "font-size": size[1] / 18, "text-anchor": "middle" });
    label.textContent = z.name;
    g.append(label);
  });
  if (layout.corners.length === 4) {
    g.append(svgEl("polygon", { points: layout.corners.map((p) => p.join(",")).join(" "), fill: "none", stroke: "#ffcc4d",
                                "stroke-width": sw * 1.5, "stroke-dasharray": sw * 4 }));
  }
  layout.zones.forEach((z, k) => z.polygon.forEach((_, i) => g.append(handle(z.polygon, i, COLOURS[k % COLOURS.length]))));
  layout.corners.forEach((_, i) => g.append(handle(layout.corners, i, "#ffcc4d")));
  svg.append(g);
}

function loadTray(url) {
  const probe = new Image();
  probe.onload = () => { img.setAttribute("href", url); setSize(probe.naturalWidth, probe.naturalHeight, true); document.getElementById("no-empty").hidden = true; };
  probe.onerror = () => setSize(640, 480);
  probe.src = url;
}

document.getElementById("btn-empty").addEventListener("click", async () => {
  const out = await api("POST", "/calibrate/empty");
  if (!out._ok) return toast(out.error, true);
  loadTray(out.url + "?t=" + Date.now());
});
document.getElementById("btn-zone").addEventListener("click", () => {
  const name = window.prompt(t("Zone"), "seat " + (layout.zones.length + 1));
  if (!name) return;
  const [w, h] = size;
  const n = layout.zones.length;
  const x0 = (n % 4) * w / 4;
  layout.zones.push({ name, polygon: [[x0 + w * .02, h * .1], [x0 + w * .23, h * .1], [x0 + w * .23, h * .9], [x0 + w * .02, h * .9]] });
  draw();
});
document.getElementById("btn-save").addEventListener("click", async () => {
  const round = (pts) => pts.map((p) => [Math.round(p[0]), Math.round(p[1])]);
  const out = await api("POST", "/calibrate/layout", { corners: round(layout.corners),
    zones: layout.zones.map((z) => ({ name: z.name, polygon: round(z.polygon) })) });
  toast(out._ok ? t("Saved") : out.error, !out._ok);
});

/* --- teaching: click each die on the photo and give its value ----------- */
const teachImg = document.getElementById("teach-img");
const teachWrap = document.getElementById("teach-wrap");
let teachFile = null;
let labels = [];
function drawLabels() {
  for (const h of teachWrap.querySelectorAll(".hit")) h.remove();
  labels.forEach((d) => teachWrap.append(el("span", { class: "hit", title: d.kind + " " + d.value,
    style: `left:${100 * d.center[0] / teachImg.naturalWidth}%;top:${100 * d.center[1] / teachImg.naturalHeight}%` }, String(d.value))));
  document.getElementById("btn-add-photo").disabled = !labels.length;
}
document.getElementById("teach-file").addEventListener("change", (ev) => {
  teachFile = ev.target.files[0] || null;
  labels = [];
  if (teachFile) { teachImg.src = URL.createObjectURL(teachFile); teachImg.hidden = false; }
  teachImg.onload = drawLabels;
});
teachImg.addEventListener("click", (ev) => {
  const r = teachImg.getBoundingClientRect();
  const center = [(ev.clientX - r.left) * teachImg.naturalWidth / r.width, (ev.clientY - r.top) * teachImg.naturalHeight / r.height];
  const kind = document.getElementById("kind").value;
  const raw = window.prompt(t("New value") + " (" + window.KINDS[kind].join(", ") + ")");
  if (raw === null) return;
  const value = kind === "taba" ? raw.trim() : Number(raw);
  if (!window.KINDS[kind].includes(value)) return toast(kind + ": " + window.KINDS[kind].join(", "), true);
  labels.push({ kind, value, center: [Math.round(center[0]), Math.round(center[1])] });
  drawLabels();
});
document.getElementById("btn-add-photo").addEventListener("click", async () => {
  const form = new FormData();
  form.append("photo", teachFile);
  form.append("set", document.getElementById("set-name").value);
  form.append("labels", JSON.stringify(labels));
  const resp = await fetch("/calibrate/teach-photo", { method: "POST", body: form, headers: { "X-CSRF-Token": window.CSRF, Accept: "application/json" } });
  const out = await resp.json().catch(() => ({ error: resp.statusText }));
  if (!resp.ok) return toast(out.error, true);
  toast(t("Saved") + ": " + out.set + " #" + out.photo);
  labels = []; drawLabels();
});
async function setCall(url) {
  const out = await api("POST", url, { set: document.getElementById("set-name").value });
  if (!out._ok) return toast(out.error, true);
  document.getElementById("eval-out").textContent = out.lines ? out.lines.join("\n") : JSON.stringify(out, null, 1);
  return out;
}
document.getElementById("btn-teach").addEventListener("click", async () => {
  const out = await setCall("/calibrate/teach");
  if (out && out.in_use) {
    const sel = document.getElementById("in-use");
    if (![...sel.options].some((o) => o.value === out.in_use)) sel.append(el("option", { value: out.in_use }, out.in_use));
    sel.value = out.in_use;
    toast(t("In use") + ": " + out.in_use);
  }
});
document.getElementById("btn-use").addEventListener("click", async () => {
  const name = document.getElementById("in-use").value;
  const out = await api("POST", "/calibrate/profile", { set: name || null });
  if (!out._ok) return toast(out.error, true);
  toast(t("In use") + ": " + (out.in_use || t("any dice (untaught)")));
});
document.getElementById("btn-eval").addEventListener("click", () => setCall("/calibrate/evaluate"));
if (img.getAttribute("href")) loadTray(img.getAttribute("href")); else setSize(640, 480);
