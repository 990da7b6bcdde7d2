// @ts-check
// Replay viewer of a finished match (issue #7): steps through the match action by action, trick
// by trick or deal by deal, from one seat's perspective or with all hands open, with the
// table's own cards (static/js/cards.js) and the table's words for a BUOB call and its exchange.
// No build step, no external resources. The server sends full-information frames only for
// finished matches (games/history/replay.py).
//
// Keys: ←/→ step, ↑/↓ trick, Page Up/Page Down deal (these four while the viewer has the
// focus, so the page still scrolls otherwise), Home/End first/last, 0–3 a seat's view, A all
// hands open.

import { renderBack, renderCard } from "./cards.js";
import { fmt, h } from "./dom.js";

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
 * @property {number} version the table's version after this action
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
 * @property {ReplayTalk[]} [talk] the players' table talk, by the version it was said at
 */

/**
 * One thing a player said at the table (issue #17), shown from the step it was said at.
 * @typedef {{ version: number, seat: number | null, name: string, text: string }} ReplayTalk
 */

/**
 * The viewer's words (games/history/views.py `_replay_labels`), in the page's language.
 * @typedef {{ phase: Record<string, string>, action: Record<string, string>, deal: string,
 *   dealer: string, trick: string, scart: string, reveal: string, tricks_won: string,
 *   totals: string, points: string, cards_one: string, cards: string, team: string, bock: string,
 *   narr_debt: string, won_by: string, buob: string, step: string, error: string, copied: string, copy_by_hand: string,
 *   buob_called: string, buob_exchange: string, buob_jack_in: string,
 *   mode: Record<BuobMode, string>, suit: Record<Suit, string>, face_down: string,
 *   debt_status: Record<string, string>, talk?: string }} ReplayLabels
 */

/**
 * How the viewer draws cards (games/history/views.py `replay_cards`): the table's sprite and
 * the cards' names in the page's language.
 * @typedef {{ sprite: string, names: Record<CardId, string> }} ReplayCards
 */

/** Where a step button or key goes. @typedef {"first" | "last" | "prev" | "next" | "prev-trick" | "next-trick" | "prev-deal" | "next-deal"} ReplayGo */

/** "all" (every hand open) or a seat "0"–"3". @typedef {string} ReplayViewer */

/**
 * @param {number} count
 * @param {ReplayLabels} L
 * @param {ReplayCards} C
 */
function backs(count, L, C) {
  const text = (count === 1 ? L.cards_one : L.cards).replace("%(n)s", String(count));
  return h("span.replay-backs", null, renderBack({ spriteUrl: C.sprite, label: L.face_down }),
    h("span.replay-count", null, text));
}

export class Replay {
  /**
   * @param {HTMLElement} root #replay, with the controls of match_detail.html
   * @param {ReplayData} data
   * @param {ReplayLabels} labels
   * @param {ReplayCards} cards
   */
  constructor(root, data, labels, cards) {
    this.root = root;
    this.frames = data.frames;
    this.players = data.players;
    this.labels = labels;
    this.cards = cards;
    /** @type {Map<string, HTMLElement>} drawn once per card, cloned after (cards.js builds SVG) */
    this.drawn = new Map();
    // The steps that complete a trick, and the first step of each deal.
    /** @type {number[]} */
    this.trickEnds = [];
    /** @type {number[]} */
    this.dealStarts = [];
    this.frames.forEach((f, i) => {
      if (i === 0 || f.deal !== this.frames[i - 1].deal) this.dealStarts.push(i);
      if (f.trick && f.trick.winner !== null
          && (f.action.type === "play_card" || f.action.type === "turn_timeout")) this.trickEnds.push(i);
    });
    this.index = 0;
    /** @type {ReplayTalk[]} */
    this.talk = data.talk || [];
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
        /** @type {ReplayGo} */ (/** @type {HTMLElement} */ (button).dataset.go)));
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
    const inside = !!target && this.root.contains(target);
    if (inside && k === "ArrowDown") this.go("next-trick");
    else if (inside && k === "ArrowUp") this.go("prev-trick");
    else if (inside && k === "PageDown") this.go("next-deal");
    else if (inside && k === "PageUp") this.go("prev-deal");
    else if (k === "ArrowRight") this.go("next");
    else if (k === "ArrowLeft") this.go("prev");
    else if (k === "Home") this.go("first");
    else if (k === "End") this.go("last");
    else if (["0", "1", "2", "3"].includes(k)) this.setView(k);
    else if (k === "a" || k === "A") this.setView("all");
    else return;
    event.preventDefault();
  }

  /** @param {ReplayGo} where */
  go(where) {
    const last = this.frames.length - 1;
    const i = this.index;
    const after = (/** @type {number[]} */ steps) => steps.find((s) => s > i) ?? last;
    const before = (/** @type {number[]} */ steps) => [...steps].reverse().find((s) => s < i) ?? 0;
    const frame = this.frames[i];
    const thisDeal = frame ? this.dealStarts.filter((s) => s <= i).pop() ?? 0 : 0;
    const to = {
      first: 0, last, prev: i - 1, next: i + 1,
      "next-trick": after(this.trickEnds), "prev-trick": before(this.trickEnds),
      "next-deal": after(this.dealStarts),
      // Within a deal, back to its first step; from its first step, to the deal before.
      "prev-deal": i > thisDeal ? thisDeal : before(this.dealStarts),
    }[where];
    this.show(Math.min(last, Math.max(0, to)));
  }

  /**
   * A card as the table draws it.
   * @param {CardId} id
   * @param {string} [label] overrides the card's name
   */
  card(id, label) {
    const key = `${id}|${label || ""}`;
    let proto = this.drawn.get(key);
    if (!proto) {
      proto = renderCard(id, { spriteUrl: this.cards.sprite, names: this.cards.names, label });
      this.drawn.set(key, proto);
    }
    return /** @type {HTMLElement} */ (proto.cloneNode(true));
  }

  /** @param {CardId} id */
  cardName(id) {
    return this.cards.names[id] || id;
  }

  /**
   * The call in the table's words: "X called BUOB on cups: Y (forced jack play)."
   * @param {ReplayBuob} call
   */
  buobText(call) {
    const L = this.labels;
    return fmt(L.buob_called, { caller: this.players[call.caller], suit: L.suit[call.suit],
      target: this.players[call.target], mode: L.mode[call.mode] });
  }

  /**
   * What the call of a completed trick did: which card went back to whom, which jack came in.
   * @param {ReplayBuob} call
   */
  exchangeText(call) {
    const L = this.labels;
    const jack = this.cardName(`${call.suit}J`);
    if (call.returned_card === null) {
      return fmt(L.buob_jack_in, { name: this.players[call.target], jack });
    }
    return fmt(L.buob_exchange, { card: this.cardName(call.returned_card),
      name: this.players[call.target], jack });
  }

  /** @param {number} i */
  show(i) {
    this.index = i;
    this.render();
    // The address names the step shown (issue #24 item 15: "#d2t7" = deal 2, trick 7), so a
    // copied link opens the same moment; replaceState keeps the back button for pages.
    const f = this.frames[i];
    if (f) window.history.replaceState(null, "", `#d${f.deal}${f.trick ? `t${f.trick.number}` : ""}`);
  }

  /**
   * The step a "#d<deal>t<trick>" address names: the step that completes that trick, or the
   * deal's first step; -1 when the match has no such deal or trick.
   * @param {string} hash
   */
  stepOf(hash) {
    const m = /^#d(\d+)(?:t(\d+))?$/.exec(hash);
    if (!m) return -1;
    const deal = Number(m[1]);
    if (m[2] === undefined) return this.dealStarts.find((s) => this.frames[s].deal === deal) ?? -1;
    const trick = Number(m[2]);
    const hits = this.frames.map((f, i) => (f.deal === deal && f.trick && f.trick.number === trick ? i : -1))
      .filter((i) => i >= 0);
    if (!hits.length) return -1;
    return this.trickEnds.find((s) => hits.includes(s)) ?? hits[hits.length - 1];
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
    if (a.type === "play_card" && a.card) {
      text += ` ${this.cardName(a.card)}${a.call_buob ? ` + ${L.buob}` : ""}`;
    }
    if (a.type === "discard_scart" && this.canSeeScart(frame)) {
      text += ` (${/** @type {CardId[]} */ (a.cards).map((id) => this.cardName(id)).join(", ")})`;
    }
    if (a.type === "call_buob" && a.suit) text += ` (${L.suit[a.suit]})`;
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
        ? h("div.hand", null, ...hand.map((id) => this.card(id)))
        : h("div.hand", null, backs(hand.length, L, this.cards));
      return h(`div.replay-seat.seat-${seat}.team-${seat % 2 ? "b" : "a"}`, null,
        h("h3", null, `${this.players[seat]} (${seat}) · ${L.team} ${seat % 2 ? "B" : "A"}`
          + (seat === frame.dealer ? ` · ${L.dealer}` : "")),
        cards);
    });

    const center = h("div.replay-center");
    if (frame.phase === "REVEAL" && frame.reveal) {
      center.append(h("p.replay-cards", null, `${L.reveal}: `, ...frame.reveal.map((id) => this.card(id))));
    }
    if (frame.trick) {
      const t = frame.trick;
      center.append(h("p", null, `${L.trick} ${t.number}`
        + (t.winner !== null ? ` — ${L.won_by} ${this.players[t.winner]}` : "")));
      const jack = t.buob && t.winner !== null ? `${t.buob.suit}J` : null;
      center.append(h("div.replay-trick", { role: "list", "aria-label": `${L.trick} ${t.number}` },
        t.cards.map(([seat, id]) => h(`span.played${id === jack ? ".buob-jack" : ""}${seat === t.winner ? ".winner" : ""}`,
          { role: "listitem" }, this.card(id, `${this.players[seat]}: ${this.cardName(id)}`),
          h("span.played-by", null, this.players[seat])))));
      if (t.buob) {
        // The call while the trick is open; once it is complete, what the exchange did too.
        center.append(h("p.replay-buob", null, this.buobText(t.buob),
          t.winner !== null ? ` ${this.exchangeText(t.buob)}` : ""));
      }
    }
    if (frame.scart) {
      center.append(h("p.replay-cards", null, `${L.scart}: `,
        ...(this.canSeeScart(frame) ? frame.scart.map((id) => this.card(id)) : [backs(2, L, this.cards)])));
    }
    center.append(h("p", null,
      `${L.tricks_won}: A ${frame.tricks_won[0]} · B ${frame.tricks_won[1]}`));
    if (frame.debt) {
      center.append(h("p", null, `${L.narr_debt}: ${L.team} ${frame.debt.debtor} → `
        + `${L.team} ${frame.debt.creditor} (${L.debt_status[frame.debt.status] || frame.debt.status})`
        + (frame.debt.paid ? ` · ${this.cardName(frame.debt.paid)}` : "")));
    }
    if (frame.points) {
      center.append(h("p.points", null,
        `${L.points}: A ${frame.points[0]} · B ${frame.points[1]}`));
    }
    center.append(h("p", null, `${L.totals}: A ${frame.totals[0]} · B ${frame.totals[1]}`));

    const talk = this.talkAt(frame);
    if (talk.length) {
      // What was said up to this step, the last few; what was said at this step stands out.
      // Always text, never markup (textContent through `h`).
      center.append(h("ol.replay-talk", { "aria-label": L.talk || "" }, talk.map(([m, now]) =>
        h(`li${now ? ".now" : ""}`, null, h("b", null, m.name), " ", m.text))));
    }
    this.table.replaceChildren(seats[2], h("div.replay-middle", null,
      seats[1], center, seats[3]), seats[0]);
  }

  /**
   * The talk said by `frame`'s step (the last five), each with whether it was said at it.
   * @param {ReplayFrame} frame
   * @returns {[ReplayTalk, boolean][]}
   */
  talkAt(frame) {
    const next = this.frames[this.index + 1];
    const until = next ? next.version : Infinity;
    const prior = this.index > 0 ? frame.version : -Infinity;
    return this.talk.filter((m) => m.version < until).slice(-5)
      .map((m) => /** @type {[ReplayTalk, boolean]} */ ([m, m.version >= prior]));
  }
}

/**
 * The copy button of "share a moment" (issue #24 item 15): the page's address names the step
 * shown (#d2t7), so copying it shares that moment. Where the clipboard is refused, the link is
 * shown selected for copying by hand.
 * @param {HTMLElement} root
 * @param {ReplayLabels} labels
 */
function share(root, labels) {
  const button = root.querySelector("[data-copy-link]");
  const note = root.querySelector(".replay-copied");
  const field = root.querySelector(".replay-link");
  if (!(button instanceof HTMLButtonElement) || !(note instanceof HTMLElement)
      || !(field instanceof HTMLInputElement)) return;
  /** @type {number | undefined} */
  let timer;
  button.addEventListener("click", async () => {
    const link = window.location.href;
    clearTimeout(timer);
    try {
      await navigator.clipboard.writeText(link);
      field.hidden = true;
      note.textContent = labels.copied;
      timer = window.setTimeout(() => { note.textContent = ""; }, 4000);
    } catch {
      note.textContent = labels.copy_by_hand;
      field.value = link;
      field.hidden = false;
      field.select();
    }
  });
}

async function start() {
  const root = document.getElementById("replay");
  if (!root) return;
  /** @type {ReplayLabels} */
  const labels = JSON.parse(/** @type {string} */ (
    /** @type {HTMLElement} */ (document.getElementById("replay-labels")).textContent));
  /** @type {ReplayCards} */
  const cards = JSON.parse(/** @type {string} */ (
    /** @type {HTMLElement} */ (document.getElementById("replay-cards")).textContent));
  try {
    const response = await fetch(/** @type {string} */ (root.dataset.src), { credentials: "same-origin" });
    if (!response.ok) throw new Error(String(response.status));
    /** @type {ReplayData} */
    const data = await response.json();
    const replay = new Replay(root, data, labels, cards);
    share(root, labels);
    /** @type {Window & { troccasReplay?: Replay }} */ (window).troccasReplay = replay;
    // "#v<version>" (the admin's link to a reported message): the step of that moment.
    const step = replay.stepOf(window.location.hash);
    if (step >= 0) { replay.index = step; replay.render(); }
    const wanted = /^#v(\d+)$/.exec(window.location.hash);
    if (wanted) {
      const v = Number(wanted[1]);
      let at = -1;
      replay.frames.forEach((f, i) => { if (f.version <= v) at = i; });
      if (at >= 0) { replay.index = at; replay.render(); }
    }
  } catch {
    /** @type {HTMLElement} */ (root.querySelector(".replay-info")).textContent = labels.error;
  }
}

start();
