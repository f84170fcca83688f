// Calibration without the mat: click the play area's four corners, clockwise from the far-left one.
"use strict";
const image = document.getElementById("still");
if (image) {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const marks = document.getElementById("marks");
  const save = document.getElementById("save");
  let corners = [];
  function draw() {
    const w = image.clientWidth, h = image.clientHeight;
    marks.setAttribute("viewBox", `0 0 ${w} ${h}`);
    const sx = w / image.naturalWidth, sy = h / image.naturalHeight;
    const points = corners.map(([x, y]) => `${x * sx},${y * sy}`).join(" ");
    marks.innerHTML = `<polygon points="${points}" fill="rgba(255,200,0,.2)" stroke="orange" stroke-width="2"/>` +
      corners.map(([x, y], i) => `<circle cx="${x * sx}" cy="${y * sy}" r="6" fill="orange"/>` +
        `<text x="${x * sx + 8}" y="${y * sy - 8}" fill="orange">${i + 1}</text>`).join("");
    save.disabled = corners.length !== 4;
  }
  image.addEventListener("click", e => {
    if (corners.length === 4) return;
    const r = image.getBoundingClientRect();
    corners.push([(e.clientX - r.left) * image.naturalWidth / r.width, (e.clientY - r.top) * image.naturalHeight / r.height]);
    draw();
  });
  document.getElementById("reset").addEventListener("click", () => { corners = []; draw(); });
  save.addEventListener("click", async () => {
    const response = await fetch("/api/calibration", {method: "POST",
      headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
      body: JSON.stringify({corners, width_mm: Number(document.getElementById("width").value),
                            height_mm: Number(document.getElementById("height").value)})});
    const data = await response.json();
    document.getElementById("calibration-result").textContent = response.ok ? "saved to " + data.file : data.error;
    if (response.ok) document.getElementById("calibrated").textContent = "calibrated";
  });
}

document.querySelectorAll("button.learn").forEach(button => button.addEventListener("click", async () => {
  const csrf = document.querySelector('meta[name="csrf-token"]').content;
  const response = await fetch("/api/colours", {method: "POST",
    headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
    body: JSON.stringify({colour: button.dataset.colour})});
  const data = await response.json();
  document.getElementById("colour-result").textContent =
    response.ok ? `learned ${data.colour} from ${data.dice} dice` : data.error;
}));

// Zones of a table calibrated by its corners: drawn over the picture, their corners can be dragged.
function apply(m, x, y) {
  const w = m[2][0] * x + m[2][1] * y + m[2][2];
  return [(m[0][0] * x + m[0][1] * y + m[0][2]) / w, (m[1][0] * x + m[1][1] * y + m[1][2]) / w];
}
function inverse(m) {
  const [a, b, c] = m[0], [d, e, f] = m[1], [g, h, i] = m[2];
  const A = e * i - f * h, B = -(d * i - f * g), C = d * h - e * g;
  const det = a * A + b * B + c * C;
  return [[A / det, -(b * i - c * h) / det, (b * f - c * e) / det],
          [B / det, (a * i - c * g) / det, -(a * f - c * d) / det],
          [C / det, -(a * h - b * g) / det, (a * e - b * d) / det]];
}
async function editZones() {
  const image = document.getElementById("still");
  if (!image) return;
  const response = await fetch("/api/calibration");
  const calibration = await response.json();
  if (!calibration.calibrated || calibration.by !== "corners" || !calibration.casinos) return;  // a board: no zones
  document.getElementById("zones-help").hidden = false;
  const toImage = inverse(calibration.homography);
  const zones = Object.entries(calibration.casinos).map(([k, poly]) => ({key: k, poly}));
  zones.push({key: "rolling_area", poly: calibration.rolling_area});
  const svg = document.getElementById("marks");
  let dragging = null;
  function draw() {
    const sx = image.clientWidth / image.naturalWidth, sy = image.clientHeight / image.naturalHeight;
    svg.setAttribute("viewBox", `0 0 ${image.clientWidth} ${image.clientHeight}`);
    svg.innerHTML = zones.map((z, zi) => {
      const px = z.poly.map(([x, y]) => apply(toImage, x, y)).map(([x, y]) => [x * sx, y * sy]);
      return `<polygon points="${px.map(p => p.join(",")).join(" ")}" fill="rgba(60,200,255,.15)" stroke="#3cc8ff"/>` +
        `<text x="${px[0][0] + 4}" y="${px[0][1] + 14}" fill="#3cc8ff">${z.key === "rolling_area" ? "tray" : z.key}</text>` +
        px.map(([x, y], vi) => `<circle data-z="${zi}" data-v="${vi}" cx="${x}" cy="${y}" r="7" fill="#3cc8ff" ` +
          `style="pointer-events: all; cursor: move"/>`).join("");
    }).join("");
  }
  svg.addEventListener("pointerdown", e => {
    if (e.target.tagName === "circle") dragging = [Number(e.target.dataset.z), Number(e.target.dataset.v)];
  });
  window.addEventListener("pointerup", () => { dragging = null; });
  window.addEventListener("pointermove", e => {
    if (!dragging) return;
    const r = image.getBoundingClientRect();
    const x = (e.clientX - r.left) * image.naturalWidth / r.width, y = (e.clientY - r.top) * image.naturalHeight / r.height;
    zones[dragging[0]].poly[dragging[1]] = apply(calibration.homography, x, y);
    draw();
  });
  document.getElementById("save-zones").addEventListener("click", async () => {
    const csrf = document.querySelector('meta[name="csrf-token"]').content;
    const body = {casinos: Object.fromEntries(zones.filter(z => z.key !== "rolling_area").map(z => [z.key, z.poly])),
                  rolling_area: zones.find(z => z.key === "rolling_area").poly};
    const saved = await fetch("/api/zones", {method: "POST", headers: {"Content-Type": "application/json",
      "X-CSRF-Token": csrf}, body: JSON.stringify(body)});
    const data = await saved.json();
    document.getElementById("calibration-result").textContent = saved.ok ? "zones saved" : data.error;
  });
  if (image.complete) draw(); else image.addEventListener("load", draw);
}
editZones();
