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
