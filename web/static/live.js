// The live page: state by server-sent events, alerts shown and spoken, corrections by the JSON API.
"use strict";
const csrf = document.querySelector('meta[name="csrf-token"]').content;
const speak = document.getElementById("speak");
speak.checked = localStorage.getItem("speak") !== "off";
speak.addEventListener("change", () => localStorage.setItem("speak", speak.checked ? "on" : "off"));

function money(v) { return "$" + v.toLocaleString("en-US"); }
function chip(colour, name) {
  const span = document.createElement("span");
  span.className = "chip " + colour;
  span.textContent = name || colour;
  return span;
}
function say(text) {
  if (speak.checked && "speechSynthesis" in window) window.speechSynthesis.speak(new SpeechSynthesisUtterance(text));
}

// Each game draws its own table; a game without a view here shows its table notation.
const VIEWS = {"las-vegas": lasVegasView, "las-vegas-royale": royaleView, "just-4-fun": boardView};

function render(state) {
  document.getElementById("status").textContent = state.status + (state.calibrated ? "" : " (not calibrated)");
  document.getElementById("fps").textContent = state.fps + " frames/s, " + state.processing_ms + " ms each";
  document.getElementById("notice").textContent = state.notice || "";
  const round = document.getElementById("round");
  if (round) round.textContent = state.round;
  const names = Object.fromEntries((state.players || []).map(p => [p.colour, p.name]));
  (VIEWS[state.game] || notationView)(state, names);
}

function notationView(state, names) {
  document.getElementById("turn").textContent = state.to_act ? (names[state.to_act] || state.to_act) + " to act"
    : state.phase || "";
  const casinos = document.getElementById("casinos");
  casinos.replaceChildren();
  const text = document.createElement("pre");
  text.textContent = state.notation || "";
  casinos.insertRow().insertCell().append(text);
  const scores = document.getElementById("scores");
  scores.replaceChildren();
  (state.players || []).forEach(p => scores.insertRow().insertCell().append(chip(p.colour, p.name)));
  document.getElementById("final").replaceChildren();
}

function lasVegasView(state, names) {
  document.getElementById("turn").textContent =
    state.to_act ? (names[state.to_act] || state.to_act) + " to " + (state.phase === "place" ? "place" : "roll")
    : state.awaiting_clear ? "round over: clear the casinos" : state.phase;
  const casinos = document.getElementById("casinos");
  casinos.replaceChildren();
  state.preview.casinos.forEach((c, i) => {
    const row = casinos.insertRow();
    const head = document.createElement("th");
    head.textContent = "casino " + c.casino;
    row.appendChild(head);
    const dice = row.insertCell();
    const table = state.table[i];
    for (const [colour, n] of Object.entries(table.dice)) dice.append(chip(colour, n + " " + (names[colour] || colour)), " ");
    for (const [colour, n] of Object.entries(table.biggy)) dice.append(chip(colour, n + " Biggy"), " ");
    const notes = document.createElement("small");
    notes.textContent = " notes: " + (table.banknotes.map(money).join(", ") || "none");
    dice.append(notes);
    const reasons = row.insertCell();
    reasons.textContent = c.reasons.join("; ");
  });
  const scores = document.getElementById("scores");
  scores.replaceChildren();
  state.players.forEach(p => {
    const row = scores.insertRow();
    row.insertCell().append(chip(p.colour, p.name));
    row.insertCell().textContent = money(p.money);
    const now = state.preview.totals[p.colour] || 0;
    row.insertCell().textContent = now ? "+" + money(now) + " if the round ended now" : "";
  });
  const final = document.getElementById("final");
  final.replaceChildren();
  if (state.standings) {
    const h = document.createElement("h2");
    h.textContent = "Final result";
    const list = document.createElement("ol");
    state.standings.forEach(s => {
      const li = document.createElement("li");
      li.textContent = `${s.name}: ${money(s.money)} in ${s.banknotes} notes (rank ${s.rank})`;
      list.append(li);
    });
    final.append(h, list);
  }
}

// Just 4 Fun: the 6x6 board (stones per player, secured fields, owners, the fields the hand to play can name,
// lines of four one field from done), the players with their stones left, hands and the count if the game ended
// now, and what the table enters: the cards drawn, and the cards played (the camera cannot see them).
function boardView(state, names) {
  const who = c => names[c] || c;
  document.getElementById("turn").textContent = state.phase === "over" ? "game over"
    : who(state.to_act) + (state.phase === "play" ? " to place a stone" : " to draw");
  const open = new Set(state.threats.map(t => t.open));
  const legal = new Set(state.legal_fields);
  const board = document.getElementById("board");
  board.replaceChildren();
  const rows = [...Array(6)].map(() => board.insertRow());
  state.fields.slice().sort((a, b) => a.row - b.row || a.column - b.column).forEach(f => {
    const cell = rows[f.row].insertCell();
    cell.className = "field" + (legal.has(f.field) ? " legal" : "") + (f.owner ? " owned " + f.owner : "");
    const number = document.createElement("b");
    number.textContent = f.field + (f.secured ? " ★" : "") + (open.has(f.field) ? " !" : "");
    cell.append(number, document.createElement("br"));
    for (const [colour, n] of Object.entries(f.stones)) cell.append(chip(colour, String(n)), " ");
  });
  const scores = document.getElementById("scores");
  scores.replaceChildren();
  state.players.forEach(p => {
    const row = scores.insertRow();
    row.insertCell().append(chip(p.colour, p.name));
    row.insertCell().textContent = p.stones + " stones left";
    row.insertCell().textContent = "cards " + (p.hand.join(" ") || "none");
    row.insertCell().textContent = (state.count.points[p.colour] || 0) + " points";
  });
  const final = document.getElementById("final");
  final.replaceChildren();
  if (state.phase === "over") {
    const h = document.createElement("h2");
    h.textContent = state.count.winner ? who(state.count.winner) + " wins by " + (state.count.by === "line" ?
      "four fields in a line" : "points") : "no winner";
    const list = document.createElement("ul");
    state.count.reasons.forEach(r => { const li = document.createElement("li"); li.textContent = r; list.append(li); });
    final.append(h, list);
  }
  cardsView(state, who);
  questionView(state.question);
}

// The cards drawn (asked once a stone is placed) and the cards played (a stone on the player's own stack, or other
// cards than the camera said): numbers separated by spaces.
function cardsView(state, who) {
  const box = document.getElementById("asks");
  if (box.contains(document.activeElement)) return;  // never under the fingers of whoever types
  box.replaceChildren();
  if (state.phase === "over") return;
  const h = document.createElement("h2");
  h.textContent = "Enter on the page";
  const what = document.createElement("p");
  what.textContent = state.asks || who(state.to_act) + ": the camera watches the board; a stone put on your own stack is entered here";
  box.append(h, what);
  const numbers = text => text.split(/[\s,+]+/).filter(Boolean).map(Number);
  const entry = (label, send) => {
    const input = document.createElement("input");
    input.placeholder = "e.g. 3 9";
    input.size = 10;
    const button = document.createElement("button");
    button.textContent = label;
    button.addEventListener("click", () => send(numbers(input.value)));
    box.append(input, " ", button, " ");
  };
  const by = () => document.querySelector("#undo-form input").value;
  if (state.phase === "deal" || state.phase === "draw") {
    entry("cards drawn", cards => post("/api/event", {event: "drawn", player: state.to_act, cards: cards, who: by()}));
  }
  const placer = state.phase === "play" ? state.to_act : state.last_placed;
  if (placer) {
    entry("cards played by " + who(placer), cards => post("/api/event", {event: "placed", player: placer, cards: cards,
      field: cards.reduce((a, b) => a + b, 0), who: by()}));
  }
}

// Las Vegas Royale: Las Vegas's table with two money cards per casino, each player's chips, and in the
// main game the tiles with what each would do and the question the table answers here.
function royaleView(state, names) {
  lasVegasView(state, names);
  const rows = document.getElementById("scores").rows;
  state.players.forEach((p, i) => {
    const starts = p.colour === state.start ? " (started the round)" : "";
    const dollars = state.dollars && state.dollars[p.colour] ? ", " + money(state.dollars[p.colour]) + " off the cards" : "";
    rows[i].insertCell().textContent = p.chips + (p.chips === 1 ? " chip" : " chips") + dollars + starts;
  });
  const counted = document.getElementById("chips-form");
  if (counted && !counted.contains(document.activeElement)) {  // never under the fingers of whoever types
    state.players.forEach(p => { const input = counted.elements[p.colour]; if (input) input.value = p.chips; });
  }
  const tiles = document.getElementById("tiles");
  tiles.replaceChildren();
  if (state.tiles && state.tiles.length) {
    const h = document.createElement("h2");
    h.textContent = "Casino tiles";
    const list = document.createElement("ul");
    state.tiles.forEach(t => {
      const li = document.createElement("li");
      li.textContent = `casino ${t.casino}: ${t.code} ${t.name}: ${t.status}`;
      list.append(li);
    });
    tiles.append(h, list);
  }
  asksView(state.asks, names);
  passView(state, names);
  questionView(state.question);
}

// The referee cannot tell two histories apart (a pass or a placement, a misread die): the table says which.
function questionView(question) {
  if (!question) return;
  const box = document.getElementById("asks");
  const h = document.createElement("h2");
  h.textContent = "Which happened?";
  box.append(h);
  question.options.forEach((text, index) => {
    const button = document.createElement("button");
    button.textContent = text;
    button.addEventListener("click", () => post("/api/choose", {option: index,
      who: document.querySelector("#undo-form input").value}));
    box.append(button, " ");
  });
}

// A pass the camera did not see (or should not have seen) is recorded here; undo takes a wrong one back.
function passView(state, names) {
  const box = document.getElementById("asks");
  if (state.phase !== "place" || !state.to_act || (state.asks && !state.asks.dealt)) return;
  const button = document.createElement("button");
  button.textContent = (names[state.to_act] || state.to_act) + " passed (paid a chip)";
  button.addEventListener("click", () => post("/api/event", {event: "passed", player: state.to_act,
    who: document.querySelector("#undo-form input").value}));
  box.append(button);
}

// What the table must enter before the camera goes on (a tile's decision, the 2 black dice).
function asksView(asks, names) {
  const box = document.getElementById("asks");
  box.replaceChildren();
  if (!asks || asks.dealt) return;  // tiles and bank laid from the deck like the banknotes: nothing to enter
  const h = document.createElement("h2");
  h.textContent = "Enter on the page";
  const what = document.createElement("p");
  what.textContent = asks.what;
  box.append(h, what);
  if (asks.who === "chance") {  // the 2 black dice: two faces
    const faces = [0, 1].map(() => {
      const select = document.createElement("select");
      for (let v = 1; v <= 6; v++) select.append(new Option(String(v), String(v)));
      box.append(select, " ");
      return select;
    });
    const button = document.createElement("button");
    button.textContent = "Rolled";
    button.addEventListener("click", () => post("/api/event", {event: "black-dice-rolled",
      values: faces.map(s => Number(s.value)), who: document.querySelector("#undo-form input").value}));
    box.append(button);
    return;
  }
  asks.choices.forEach(c => {
    const button = document.createElement("button");
    button.textContent = c.choice + (c.amount ? " " + c.amount : "");
    button.addEventListener("click", () => post("/api/event", {event: "tile-choice", player: asks.who,
      choice: c.choice, amount: c.amount, who: document.querySelector("#undo-form input").value}));
    box.append(button, " ");
  });
}

function log(text, kind, details) {
  const li = document.createElement("li");
  li.textContent = text;
  if (kind) li.className = kind;
  if (details && details.length) {
    const list = document.createElement("ul");
    details.forEach(d => { const item = document.createElement("li"); item.textContent = d; list.append(item); });
    li.append(list);
  }
  document.getElementById("log").prepend(li);
}

function alertBox(message) {
  const box = document.createElement("div");
  box.className = message.type;
  box.textContent = message.text;
  const alerts = document.getElementById("alerts");
  alerts.prepend(box);
  while (alerts.children.length > 3) alerts.lastChild.remove();
  if (message.type === "alert") say(message.text);
}

const source = new EventSource("/events");
source.addEventListener("state", e => render(JSON.parse(e.data).state));
source.addEventListener("event", e => {
  const m = JSON.parse(e.data);
  const details = m.payout ? m.payout.casinos.filter(c => c.reasons.length)
    .map(c => "casino " + c.casino + ": " + c.reasons.join("; ")) : [];
  log(m.text, m.payout ? "settlement" : "", details);
});
source.addEventListener("alert", e => { const m = JSON.parse(e.data); alertBox(m); log("ALERT: " + m.text, "alert"); });
source.addEventListener("uncertain", e => alertBox(JSON.parse(e.data)));
source.addEventListener("reload", () => window.location.reload());
source.addEventListener("status", e => { document.getElementById("status").textContent = JSON.parse(e.data).status; });
source.addEventListener("health", e => {  // every 5 s without news: a dead camera shows 0 frames/s
  const m = JSON.parse(e.data);
  document.getElementById("status").textContent = m.status;
  document.getElementById("fps").textContent = m.fps + " frames/s";
});

async function post(url, body) {
  const response = await fetch(url, {method: "POST", headers: {"Content-Type": "application/json", "X-CSRF-Token": csrf},
                                     body: JSON.stringify(body)});
  const data = await response.json();
  document.getElementById("correction-result").textContent = response.ok ? "done" : data.error;
  if (response.ok && data.state) render(data.state);
}
// Chips are counted at the table and entered here where the referee's count differs (a pass it missed).
const chipsForm = document.getElementById("chips-form");
if (chipsForm) chipsForm.addEventListener("submit", e => {
  e.preventDefault();
  const counts = Array.from(chipsForm.querySelectorAll("input")).map(input => Number(input.value));
  post("/api/event", {event: "counted", resource: "chips", counts: counts,
    who: document.querySelector("#undo-form input").value});
});
document.getElementById("undo-form").addEventListener("submit", e => {
  e.preventDefault();
  post("/api/undo", {who: e.target.who.value});
});
const eventForm = document.getElementById("event-form");
if (eventForm) eventForm.addEventListener("submit", e => {
  e.preventDefault();
  const f = e.target;
  post("/api/event", {event: "placed", player: f.player.value, casino: Number(f.casino.value), dice: Number(f.dice.value),
                      who: document.querySelector("#undo-form input").value});
});
