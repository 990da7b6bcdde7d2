// @ts-check
// Replay viewer of a finished match (issue #7): steps through the match action by action,
// from one seat's perspective or with all hands open. No build step, no external resources.
// The server sends full-information frames only for finished matches (games/history/replay.py).
//
// Keys: ←/→ step, Home/End first/last, 0–3 a seat's view, A all hands open.

import { h } from "./dom.js";
import { isSuit } from "./suits.js";

/**
 * @import { BuobMode, CardId, PlayedCard, Phase, TeamId } from "./protocol.js"
 * @import { Suit } from "./suits.js"
 */

/**
 * One engine action of the match's log (transcript-shaped, without the deck).
 * @typedef {object} ReplayAction
 * @property {string} type
 * @property {number} [seat] the seat that sent it, for seated actions
 * @property {CardId} [card]
 * @property {boolean} [call_buob]
 * @property {Suit | null} [buob_suit]
 * @property {CardId[]} [cards]
 * @property {Suit | null} [suit]
 */

/**
 * @typedef {object} ReplayBuob
 * @property {number} caller
 * @property {Suit} suit
 * @property {number} target
 * @property {BuobMode} mode
 * @property {CardId | null} returned_card the card that went back, if any
 */

/**
 * @typedef {object} ReplayTrick
 * @property {number} number
 * @property {number} leader
 * @property {PlayedCard[]} cards
 * @property {number | null} winner
 * @property {ReplayBuob | null} buob
 */

/**
 * The match after one action, with every card (the match is over).
 * @typedef {object} ReplayFrame
 * @property {number} deal
 * @property {number} dealer
 * @property {boolean} bock
 * @property {Phase} phase
 * @property {ReplayAction} action
 * @property {CardId[][]} hands by seat
 * @property {CardId[] | null} reveal
 * @property {CardId[] | null} scart
 * @property {ReplayTrick | null} trick
 * @property {[number, number]} tricks_won teams A, B
 * @property {[number, number]} piles
 * @property {[number, number]} totals
 * @property {[number, number] | null} points once the deal is scored
 * @property {{ debtor: TeamId, creditor: TeamId, status: string, paid: CardId | null } | null} debt
 */

/**
 * What /…/replay.json answers (games/history/replay.py `replay_data`).
 * @typedef {object} ReplayData
 * @property {number} match
 * @property {string[]} players by seat
 * @property {ReplayFrame[]} frames
 */

/**
 * The viewer's words (games/history/views.py `_replay_labels`), in the page's language.
 * @typedef {{ phase: Record<string, string>, action: Record<string, string>, deal: string,
 *   dealer: string, trick: string, scart: string, reveal: string, tricks_won: string,
 *   totals: string, points: string, cards_one: string, cards: string, team: string, bock: string,
 *   narr_debt: string, won_by: string, buob: string, step: string, error: string }} ReplayLabels
 */

/** "all" (every hand open) or a seat "0"–"3". @typedef {string} ReplayViewer */

/** @param {CardId} id */
function card(id) {
  const suit = id === "NARR" ? "narr"
    : isSuit(id[0]) || id[0] === "T" ? `suit-${id[0].toLowerCase()}` : "";
  return h(`span.card${suit ? `.${suit}` : ""}`, { "data-card": id }, id);
}

/**
 * @param {number} count
 * @param {ReplayLabels} L
 */
function backs(count, L) {
  const text = count === 1 ? L.cards_one : L.cards;
  return h("span.card-back", null, text.replace("%(n)s", String(count)));
}

export class Replay {
  /**
   * @param {HTMLElement} root #replay, with the controls of match_detail.html
   * @param {ReplayData} data
   * @param {ReplayLabels} labels
   */
  constructor(root, data, labels) {
    this.root = root;
    this.frames = data.frames;
    this.players = data.players;
    this.labels = labels;
    this.index = 0;
    /** @type {ReplayViewer} */
    this.view = "all";
    /** @param {string} selector */
    const part = (selector) => /** @type {HTMLElement} */ (root.querySelector(selector));
    this.table = part(".replay-table");
    this.info = part(".replay-info");
    this.step = part(".replay-step");
    this.slider = /** @type {HTMLInputElement} */ (part(".replay-slider"));
    this.select = /** @type {HTMLSelectElement} */ (part(".replay-view"));
    this.slider.max = String(Math.max(0, this.frames.length - 1));
    this.bind();
    this.render();
  }

  bind() {
    this.root.querySelectorAll("[data-go]").forEach((button) => {
      button.addEventListener("click", () => this.go(
        /** @type {"first" | "last" | "prev" | "next"} */ (/** @type {HTMLElement} */ (button).dataset.go)));
    });
    this.slider.addEventListener("input", () => this.show(Number(this.slider.value)));
    this.select.addEventListener("change", () => this.setView(this.select.value));
    document.addEventListener("keydown", (event) => this.key(event));
  }

  /** @param {KeyboardEvent} event */
  key(event) {
    const target = /** @type {HTMLElement | null} */ (event.target);
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

  /** @param {"first" | "last" | "prev" | "next"} where */
  go(where) {
    const last = this.frames.length - 1;
    const to = { first: 0, last, prev: this.index - 1, next: this.index + 1 }[where];
    this.show(Math.min(last, Math.max(0, to)));
  }

  /** @param {number} i */
  show(i) {
    this.index = i;
    this.render();
  }

  /** @param {ReplayViewer} view */
  setView(view) {
    this.view = view;
    this.select.value = view;
    this.render();
  }

  /**
   * May the current viewer see this seat's hand?
   * @param {number} seat
   */
  sees(seat) {
    if (this.view === "all") return true;
    return Number(this.view) === seat;
  }

  /** @param {ReplayFrame} frame */
  describe(frame) {
    const a = frame.action;
    const L = this.labels;
    const who = a.seat !== undefined ? `${this.players[a.seat]} ` : "";
    let text = `${who}${L.action[a.type] || a.type}`;
    if (a.type === "play_card") text += ` ${a.card}${a.call_buob ? ` + ${L.buob}` : ""}`;
    if (a.type === "discard_scart" && this.canSeeScart(frame)) {
      text += ` (${/** @type {CardId[]} */ (a.cards).join(", ")})`;
    }
    if (a.type === "call_buob" && a.suit) text += ` (${a.suit})`;
    return text;
  }

  /** @param {ReplayFrame} frame */
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
        ? h("div.hand", null, ...hand.map(card))
        : h("div.hand", null, backs(hand.length, L));
      return h(`div.replay-seat.seat-${seat}.team-${seat % 2 ? "b" : "a"}`, null,
        h("h3", null, `${this.players[seat]} (${seat}) · ${L.team} ${seat % 2 ? "B" : "A"}`
          + (seat === frame.dealer ? ` · ${L.dealer}` : "")),
        cards);
    });

    const center = h("div.replay-center");
    if (frame.phase === "REVEAL" && frame.reveal) {
      center.append(h("p", null, `${L.reveal}: `, ...frame.reveal.map(card)));
    }
    if (frame.trick) {
      const t = frame.trick;
      const row = h("p", null, `${L.trick} ${t.number}: `);
      for (const [seat, id] of t.cards) {
        row.append(h("span.played", null, `${this.players[seat]} `, card(id)));
      }
      if (t.winner !== null) row.append(` — ${L.won_by} ${this.players[t.winner]}`);
      center.append(row);
      if (t.buob) {
        center.append(h("p", null, `${L.buob}: ${this.players[t.buob.caller]} → `
          + `${this.players[t.buob.target]} (${t.buob.suit}, ${t.buob.mode})`
          + (t.buob.returned_card ? ` · ${t.buob.returned_card}` : "")));
      }
    }
    if (frame.scart) {
      center.append(h("p", null, `${L.scart}: `,
        ...(this.canSeeScart(frame) ? frame.scart.map(card) : [backs(2, L)])));
    }
    center.append(h("p", null,
      `${L.tricks_won}: A ${frame.tricks_won[0]} · B ${frame.tricks_won[1]}`));
    if (frame.debt) {
      center.append(h("p", null, `${L.narr_debt}: ${L.team} ${frame.debt.debtor} → `
        + `${L.team} ${frame.debt.creditor} (${frame.debt.status})`
        + (frame.debt.paid ? ` · ${frame.debt.paid}` : "")));
    }
    if (frame.points) {
      center.append(h("p.points", null,
        `${L.points}: A ${frame.points[0]} · B ${frame.points[1]}`));
    }
    center.append(h("p", null, `${L.totals}: A ${frame.totals[0]} · B ${frame.totals[1]}`));

    this.table.replaceChildren(seats[2], h("div.replay-middle", null,
      seats[1], center, seats[3]), seats[0]);
  }
}

async function start() {
  const root = document.getElementById("replay");
  if (!root) return;
  /** @type {ReplayLabels} */
  const labels = JSON.parse(/** @type {string} */ (
    /** @type {HTMLElement} */ (document.getElementById("replay-labels")).textContent));
  try {
    const response = await fetch(/** @type {string} */ (root.dataset.src), { credentials: "same-origin" });
    if (!response.ok) throw new Error(String(response.status));
    /** @type {ReplayData} */
    const data = await response.json();
    /** @type {Window & { troccasReplay?: Replay }} */ (window).troccasReplay = new Replay(root, data, labels);
  } catch {
    /** @type {HTMLElement} */ (root.querySelector(".replay-info")).textContent = labels.error;
  }
}

start();
