// Replay viewer of a finished match (issue #7): steps through the match action by action,
// from one seat's perspective or with all hands open. No build step, no external resources.
// The server sends full-information frames only for finished matches (games/history.py).
//
// Keys: ←/→ step, Home/End first/last, 0–3 a seat's view, A all hands open.

const SUIT_CLASS = { C: "suit-c", R: "suit-r", S: "suit-s", B: "suit-b", T: "suit-t" };

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function card(id) {
  const suit = id === "NARR" ? "narr" : SUIT_CLASS[id[0]] || "";
  return el("span", { class: `card ${suit}`, "data-card": id }, id);
}

function backs(count, label) {
  return el("span", { class: "card-back" }, `${count} ${label}`);
}

export class Replay {
  constructor(root, data, labels) {
    this.root = root;
    this.frames = data.frames;
    this.players = data.players;
    this.labels = labels;
    this.index = 0;
    this.view = "all";
    this.table = root.querySelector(".replay-table");
    this.info = root.querySelector(".replay-info");
    this.step = root.querySelector(".replay-step");
    this.slider = root.querySelector(".replay-slider");
    this.select = root.querySelector(".replay-view");
    this.slider.max = String(Math.max(0, this.frames.length - 1));
    this.bind();
    this.render();
  }

  bind() {
    this.root.querySelectorAll("[data-go]").forEach((button) => {
      button.addEventListener("click", () => this.go(button.dataset.go));
    });
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value)));
    this.select.addEventListener("change", () => this.setView(this.select.value));
    document.addEventListener("keydown", (event) => this.key(event));
  }

  key(event) {
    const target = event.target;
    if (target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName) &&
        target !== this.slider) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const k = event.key;
    if (k === "ArrowRight") this.go("next");
    else if (k === "ArrowLeft") this.go("prev");
    else if (k === "Home") this.go("first");
    else if (k === "End") this.go("last");
    else if (["0", "1", "2", "3"].includes(k)) this.setView(k);
    else if (k === "a" || k === "A") this.setView("all");
    else return;
    event.preventDefault();
  }

  go(where) {
    const last = this.frames.length - 1;
    const to = { first: 0, last, prev: this.index - 1, next: this.index + 1 }[where];
    this.show(Math.min(last, Math.max(0, to)));
  }

  show(i) {
    this.index = i;
    this.render();
  }

  setView(view) {
    this.view = view;
    this.select.value = view;
    this.render();
  }

  // May the current viewer see this seat's hand?
  sees(seat) {
    if (this.view === "all") return true;
    return Number(this.view) === seat;
  }

  describe(frame) {
    const a = frame.action;
    const L = this.labels;
    const who = a.seat !== undefined ? `${this.players[a.seat]} ` : "";
    let text = `${who}${L.action[a.type] || a.type}`;
    if (a.type === "play_card") text += ` ${a.card}${a.call_buob ? ` + ${L.buob}` : ""}`;
    if (a.type === "discard_scart" && this.canSeeScart(frame)) text += ` (${a.cards.join(", ")})`;
    if (a.type === "call_buob" && a.suit) text += ` (${a.suit})`;
    return text;
  }

  canSeeScart(frame) {
    const over = frame.points !== null;
    return this.view === "all" || over || Number(this.view) === frame.dealer;
  }

  render() {
    const frame = this.frames[this.index];
    const L = this.labels;
    this.slider.value = String(this.index);
    this.step.textContent = `${L.step} ${this.index + 1} / ${this.frames.length}`;
    if (!frame) return;
    const bits = [
      `${L.deal} ${frame.deal}`,
      `${L.dealer}: ${this.players[frame.dealer]}`,
      L.phase[frame.phase] || frame.phase,
    ];
    if (frame.bock) bits.push(L.bock);
    bits.push(this.describe(frame));
    this.info.textContent = bits.join(" · ");

    const seats = [0, 1, 2, 3].map((seat) => {
      const hand = frame.hands[seat];
      const cards = this.sees(seat)
        ? el("div", { class: "hand" }, ...hand.map(card))
        : el("div", { class: "hand" }, backs(hand.length, L.cards));
      return el("div", { class: `replay-seat seat-${seat} team-${seat % 2 ? "b" : "a"}` },
        el("h3", {}, `${this.players[seat]} (${seat}) · ${L.team} ${seat % 2 ? "B" : "A"}`
          + (seat === frame.dealer ? ` · ${L.dealer}` : "")),
        cards);
    });

    const center = el("div", { class: "replay-center" });
    if (frame.phase === "REVEAL" && frame.reveal) {
      center.append(el("p", {}, `${L.reveal}: `, ...frame.reveal.map(card)));
    }
    if (frame.trick) {
      const t = frame.trick;
      const row = el("p", {}, `${L.trick} ${t.number}: `);
      for (const [seat, id] of t.cards) {
        row.append(el("span", { class: "played" }, `${this.players[seat]} `, card(id)));
      }
      if (t.winner !== null) row.append(` — ${L.won_by} ${this.players[t.winner]}`);
      center.append(row);
      if (t.buob) {
        center.append(el("p", {}, `${L.buob}: ${this.players[t.buob.caller]} → `
          + `${this.players[t.buob.target]} (${t.buob.suit}, ${t.buob.mode})`
          + (t.buob.returned ? ` · ${t.buob.returned}` : "")));
      }
    }
    if (frame.scart) {
      center.append(el("p", {}, `${L.scart}: `,
        ...(this.canSeeScart(frame) ? frame.scart.map(card) : [backs(2, L.cards)])));
    }
    center.append(el("p", {},
      `${L.tricks_won}: A ${frame.tricks_won[0]} · B ${frame.tricks_won[1]}`));
    if (frame.debt) {
      center.append(el("p", {}, `${L.narr_debt}: ${L.team} ${frame.debt.debtor} → `
        + `${L.team} ${frame.debt.creditor} (${frame.debt.status})`
        + (frame.debt.paid ? ` · ${frame.debt.paid}` : "")));
    }
    if (frame.points) {
      center.append(el("p", { class: "points" },
        `${L.points}: A ${frame.points[0]} · B ${frame.points[1]}`));
    }
    center.append(el("p", {}, `${L.totals}: A ${frame.totals[0]} · B ${frame.totals[1]}`));

    this.table.replaceChildren(seats[2], el("div", { class: "replay-middle" },
      seats[1], center, seats[3]), seats[0]);
  }
}

async function start() {
  const root = document.getElementById("replay");
  if (!root) return;
  const labels = JSON.parse(document.getElementById("replay-labels").textContent);
  try {
    const response = await fetch(root.dataset.src, { credentials: "same-origin" });
    if (!response.ok) throw new Error(String(response.status));
    const data = await response.json();
    window.troccasReplay = new Replay(root, data, labels);
  } catch (error) {
    root.querySelector(".replay-info").textContent = labels.error;
  }
}

start();
