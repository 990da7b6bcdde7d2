// @ts-check
// What every view of the table shares: the view being drawn, the page's words, and how to
// name seats, teams and cards, place a seat around the felt, and draw a card.

import { renderBack, renderCard } from "../cards.js";
import { fmt, h } from "../dom.js";

/**
 * @import { CardOptions } from "../cards.js"
 * @import { BuobMode, CardId, CommandFields, CommandType, RoomOptions, SeatInfo, TeamId,
 *   TeamNumbers, View } from "../protocol.js"
 * @import { Suit } from "../suits.js"
 */

/**
 * The page's words (games/text/table.py `ui_strings`), some with "%(name)s" placeholders.
 * @typedef {Record<string, string>} Strings
 */

/**
 * The room page's `table-config` (games/views/pages.py `room`).
 * @typedef {object} TableConfig
 * @property {string} code
 * @property {string} ws the websocket's path
 * @property {{ id: number, name: string } | null} me null when not signed in
 * @property {string} sprite the card sprite's URL
 * @property {string} login
 * @property {string} home
 * @property {string} invite
 * @property {string} matches the match history's URL; a match's page (its replay) is
 *   `${matches}${id}/`
 * @property {string} rules the rules page's URL (the help links to its sections)
 * @property {string} favicon_turn the favicon shown while it is the viewer's turn
 * @property {boolean | null} sounds the signed-in player's saved choice; null when anonymous
 * @property {string | null} sounds_url where a signed-in player's choice is saved
 * @property {string | null} csrf the CSRF token that saving it needs
 * @property {boolean | null} single_card the player's "play a single legal card by itself";
 *   null when anonymous
 * @property {string | null} single_card_url where a change of it is saved
 */

/**
 * Send a command to the table; `done` runs once the server answered it (or it could not be
 * sent). `quiet`: a refusal because the table moved on meanwhile (STALE_VERSION,
 * NOT_YOUR_TURN, WRONG_PHASE) is not shown — for the plays the page makes by itself.
 * @typedef {<K extends CommandType>(type: K, fields?: CommandFields[K],
 *   done?: (() => void) | null, quiet?: boolean) => void} SendCommand
 */

/**
 * What the page gives the table.
 * @typedef {object} TableContext
 * @property {TableConfig} cfg
 * @property {Strings} S
 * @property {Record<CardId, string>} names the cards' names in the page's language
 * @property {SendCommand} command
 * @property {(type: "hint", done?: (() => void) | null) => void} ask a request that changes
 *   nothing (no version): `done` runs if it is refused or not sent
 * @property {(text: string, kind?: "error" | "info") => void} toast
 * @property {(text: string) => void} announce says `text` to screen readers
 * @property {(options: RoomOptions) => void} editRules opens the house-rule editor
 * @property {(card: CardId, why: string) => void} [refused] a card the view refuses was
 *   chosen (a lesson's page judges it; the table shows `why` when this is not given)
 */

/** Where each seat sits, counted from the receiver's own seat. */
export const POS = /** @type {const} */ (["bottom", "left", "top", "right"]);
/** @typedef {typeof POS[number]} Position */

/**
 * @param {number} seat
 * @returns {TeamId}
 */
export const team = (seat) => (seat % 2 === 0 ? "A" : "B");

export class Scene {
  /** @param {TableContext} ctx */
  constructor(ctx) {
    this.ctx = ctx;
    this.S = ctx.S;
    /** @type {View | null} the newest view; null until the first one arrives */
    this.view = null;
    /** @type {Map<string, HTMLElement>} */
    this.cardCache = new Map();
  }

  /** The view being drawn: the views draw only once there is one. */
  get current() {
    if (!this.view) throw new Error("render.js: no view to draw yet");
    return this.view;
  }

  base() {
    const v = this.view;
    return v && v.seat !== null && v.seat !== undefined ? v.seat : 0;
  }

  /**
   * @param {number} seat
   * @returns {Position}
   */
  pos(seat) {
    return POS[(seat - this.base() + 4) % 4];
  }

  /**
   * @param {number} index
   * @returns {SeatInfo | null}
   */
  seatInfo(index) {
    return (this.current.seats || []).find((s) => s.index === index) || null;
  }

  /** @param {number} index */
  name(index) {
    const s = this.seatInfo(index);
    if (!s) return fmt(this.S.seat_n, { n: index + 1 });
    return s.player.id === this.me() ? `${s.player.name} (${this.S.you})` : s.player.name;
  }

  me() {
    return this.ctx.cfg.me ? this.ctx.cfg.me.id : null;
  }

  isOwner() {
    return this.view && this.view.room.owner.id === this.me();
  }

  /** @param {TeamId | "draw" | null} t */
  teamName(t) {
    return t === "A" ? this.S.team_a : this.S.team_b;
  }

  /** @param {CardId} id */
  cardName(id) {
    return this.ctx.names[id] || id;
  }

  /**
   * A card of the table, drawn as `opts` says.
   * @param {CardId} id
   * @param {CardOptions} [opts]
   * @returns {HTMLElement}
   */
  card(id, opts = {}) {
    // Drawing a card builds a small SVG; cloning a drawn one is several times faster, and a
    // card looks the same every time it is drawn with the same options.
    const key = `${id}|${opts.interactive ? 1 : 0}|${opts.disabled ? 1 : 0}|${opts.reason || ""}|${opts.label || ""}`;
    let proto = this.cardCache.get(key);
    if (!proto) {
      proto = renderCard(id, { names: this.ctx.names, spriteUrl: this.ctx.cfg.sprite, ...opts });
      if (opts.disabled && opts.interactive) {
        // Still focusable and clickable: a click explains why (the server's sentence).
        /** @type {HTMLButtonElement} */ (proto).disabled = false;
      }
      if (this.cardCache.size > 600) this.cardCache.clear();
      this.cardCache.set(key, proto);
    }
    return /** @type {HTMLElement} */ (proto.cloneNode(true));
  }

  /**
   * A face-down card.
   * @param {CardOptions} [extra]
   * @returns {HTMLElement}
   */
  back(extra = {}) {
    return renderBack({ spriteUrl: this.ctx.cfg.sprite, ...extra, label: extra.label || this.S.face_down });
  }

  inLobby() {
    return !this.current.match || this.current.phase === "LOBBY";
  }

  /** @param {boolean} connected */
  dot(connected) {
    return h(`span.dot.${connected ? "on" : "off"}`, { role: "img",
      "aria-label": connected ? this.S.connected : this.S.away,
      title: connected ? this.S.connected : this.S.away });
  }

  /**
   * "X calls BUOB on Y's jack of …" for a call or a buob_called event.
   * @param {{ caller: number, suit: Suit, target: number, mode: BuobMode }} call
   */
  buobText(call) {
    const S = this.S;
    return fmt(S.buob_called, { caller: this.name(call.caller), suit: S[`suit_${call.suit}`],
      target: this.name(call.target), mode: S[`mode_${call.mode}`] });
  }

  /**
   * What the BUOB of a completed trick did: which card went back to whom and which jack came
   * in ("" while the trick is open or without a call).
   * @param {{ suit: Suit, target: number, mode: BuobMode, returned_card?: CardId | null } | null | undefined} call
   */
  exchangeText(call) {
    if (!call || call.returned_card === undefined) return "";
    const S = this.S;
    const jack = this.cardName(`${call.suit}J`);
    if (call.returned_card === null) return fmt(S.buob_jack_in, { name: this.name(call.target), jack });
    return fmt(S.buob_exchange, { card: this.cardName(call.returned_card),
      name: this.name(call.target), jack });
  }

  /** @param {TeamNumbers} points */
  resultText(points) {
    const S = this.S;
    if (points.A === points.B) return S.score_tie;
    const w = points.A > points.B ? "A" : "B";
    return fmt(S.score_win, { team: this.teamName(w), score: this.scorePair(points) });
  }

  /**
   * Both teams' figures labelled, A first ("A 16 : B 56"): the one way the table prints a
   * score pair (issue #24 item 4; games/text/scores.py for the pages).
   * @param {TeamNumbers} n
   */
  scorePair(n) {
    return fmt(this.S.score_pair, { a: n.A, b: n.B });
  }
}

/**
 * Whether `call` forces `seat` to play the called jack.
 * @param {{ mode: BuobMode, target: number } | null | undefined} call
 * @param {number | null} seat
 */
export function forcedOn(call, seat) {
  return !!call && call.mode === "forced" && call.target === seat;
}
