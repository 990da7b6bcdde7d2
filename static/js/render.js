// @ts-check
// Draws the room from the server's `view`: the lobby, or the table with its seats, trick, hand,
// actions and score sheet. Only what `view` contains is ever drawn (RULES.md §13).
//
// This module holds the table's own state (selection, menus, the trick on show) and its page
// skeleton, and composes the views of ./views/, one module per region.

import { forget, h, onNarrowChange } from "./dom.js";
import { pressAction, renderActions } from "./views/actions.js";
import { Attention } from "./views/attention.js";
import { announcePresence, awayTick } from "./views/away.js";
import { cardChosen, handKey, renderHand } from "./views/hand.js";
import { wireHelp } from "./views/help.js";
import { clearHint, markHinted, showHint } from "./views/hint.js";
import { renderLobby } from "./views/lobby.js";
import { POS, Scene } from "./views/scene.js";
import { renderBar } from "./views/scorebar.js";
import { premoveOnView } from "./views/premove.js";
import { renderOverlay } from "./views/scoresheet.js";
import { renderSeat } from "./views/seats.js";
import { announceTurn, renderStatus, setBanner, tick } from "./views/status.js";
import { announceEvents, announcePlays } from "./views/toasts.js";
import { renderCenter, skipHold, trackTrick } from "./views/trick.js";

/**
 * @import { CardId, GameEvent, HintMessage, View } from "./protocol.js"
 * @import { TableContext } from "./views/scene.js"
 * @import { Hold } from "./views/trick.js"
 */

export class Table extends Scene {
  /**
   * @param {HTMLElement} root the element the table is drawn into (#table-app)
   * @param {TableContext} ctx
   */
  constructor(root, ctx) {
    super(ctx);
    this.root = root;
    /** @type {Set<CardId>} the cards chosen for the Scart */
    this.selected = new Set();
    /** @type {string | null} the hand's card that has (or last had) the focus */
    this.focusId = null;
    /** @type {Hold | null} a completed trick still on show */
    this.hold = null;
    /** @type {number | undefined} */
    this.holdTimer = undefined;
    this.showLast = false;
    this.buobMenu = false;
    this.attachBuob = false;
    this.showPiles = false;
    this.busyUntil = 0;
    /** @type {CardId | null} the card chosen early, played when the turn comes (premove.js) */
    this.early = null;
    /** Whether this page has shown what a card chosen early means (once, as a toast). */
    this.earlyHinted = false;
    /** The player's option: play a single legal card by itself (the drawer, the profile). */
    this.singleCard = !!ctx.cfg.single_card;
    /** @type {CardId | null} the only legal card, lifted for a moment before it is played */
    this.autoCard = null;
    /** The turn whose single card was played by itself (premove.js `turnKey`). */
    this.singleTurn = "";
    /** @type {number | undefined} */
    this.singleTimer = undefined;
    /** @type {Set<CardId>} */
    this.prevTrickCards = new Set();
    /** @type {Set<CardId>} the trick's cards that just arrived (they slide in) */
    this.entering = new Set();
    /** @type {number | undefined} */
    this.tickTimer = undefined;
    const S = this.S;
    this.banner = h("div.offline-banner", { role: "status", hidden: true });
    this.closedNote = h("p.notice.closed-note", { hidden: true }, S.room_closed);
    this.lobby = h("section.lobby", { hidden: true, "aria-label": S.lobby_title });
    this.bar = h("div.scorebar");
    this.seatEls = POS.map((p) => h(`div.seat.pos-${p}`));
    this.center = h("div.center", { "aria-live": "off" });
    // The band between the top seats and the trick (issue #24 items 1 and 6): the BUOB call and
    // a new talk line show here, over no card; table_notices.css gives it its grid row.
    this.bandCall = h("div.band-call");
    this.band = h("div.felt-band", null, this.bandCall);
    this.felt = h("div.felt", null, ...this.seatEls, this.band, this.center);
    /** @type {HTMLButtonElement | null} the talk panel's button in the score bar (talk_badge.js) */
    this.talkButton = null;
    /** How many people watch without a seat (the presence frame's `watching`). */
    this.watching = 0;
    /** Whether the player closed this deal's score sheet (issue #24 item 7). */
    this.sheetClosed = false;
    this.status = h("p.status");
    this.actions = h("div.actions");
    // The strong bot's advice at a practice table (views/hint.js): asked, shown, cleared.
    this.hintPanel = h("div.hint-panel", { hidden: true, role: "status" });
    this.hintAsked = false;
    /** @type {CardId | null} the hint's best card, lifted in the hand */
    this.hinted = null;
    this.hand = h("div.hand", { role: "group", "aria-label": S.your_hand,
      "aria-describedby": "hand-help" });
    this.handHelp = h("p.visually-hidden", { id: "hand-help" }, `${S.hand_help} ${S.early_help}`);
    this.overlay = h("div.overlay", { hidden: true });
    this.tableEl = h("section.table", { hidden: true }, this.bar, this.felt, this.status,
      this.actions, this.hintPanel, this.hand, this.handHelp, this.overlay);
    this.root.replaceChildren(this.banner, this.closedNote, this.lobby, this.tableEl);
    this.hand.addEventListener("click", (e) => {
      const el = /** @type {HTMLElement | null} */ (
        /** @type {Element} */ (e.target).closest(".card[data-card]"));
      if (el) cardChosen(this, /** @type {CardId} */ (el.dataset.card));
    });
    this.hand.addEventListener("keydown", (e) => handKey(this, e));
    this.hand.addEventListener("focusin", (e) => {
      const el = /** @type {HTMLElement | null} */ (
        /** @type {Element} */ (e.target).closest(".card[data-card]"));
      if (el) this.focusId = /** @type {CardId} */ (el.dataset.card);
    });
    onNarrowChange(() => { if (this.view && !this.inLobby()) this.renderHand(); });
    // Issue #14 item 6: the tab's title, favicon and sounds; a tap on a held trick gathers it.
    this.attention = new Attention(ctx.cfg, S, (text) => ctx.toast(text));
    const helpPop = document.getElementById("help-pop");
    this.refreshHelp = helpPop ? wireHelp(this, helpPop) : () => {};
    this.center.addEventListener("click", (e) => {
      if (this.hold && /** @type {Element} */ (e.target).closest(".trick.held")) this.skipHold();
    });
  }

  /** Forget what each region shows, so the next render rebuilds all of them. */
  invalidate() {
    for (const el of [this.lobby, this.bar, this.center, this.bandCall, this.actions, this.overlay,
      ...this.seatEls]) forget(el);
    this.hand.replaceChildren();
  }

  /** @param {string | null | undefined} text the connection banner; empty hides it */
  setBanner(text) {
    setBanner(this, text);
  }

  /**
   * Draw `view`, the newest one; `events` (those of its version, if they arrived) are announced.
   * @param {View} view
   * @param {GameEvent[] | null} events
   */
  apply(view, events) {
    const prev = this.view;
    this.view = view;
    if (!prev || prev.deal_number !== view.deal_number || prev.phase !== view.phase) {
      this.selected.clear();
      this.buobMenu = false;
      this.attachBuob = false;
      this.sheetClosed = false;
      if (view.phase !== "ROUND_OVER") this.showPiles = false;
    }
    this.busyUntil = 0;
    clearHint(this);
    premoveOnView(this, prev, view);
    trackTrick(this, prev, view);
    this.render();
    announcePresence(this, prev, view);
    announcePlays(this, prev, view, events);
    if (events) announceEvents(this, events);
    announceTurn(this, prev, view);
    this.attention.update(prev, view);
  }

  render() {
    const v = this.current;
    this.root.dataset.state = "live";
    this.root.removeAttribute("aria-busy");
    this.root.dataset.phase = v.phase;
    this.root.dataset.myturn = v.actions.play ? "1" : "0";
    this.root.dataset.deal = String(v.deal_number || 0);
    this.closedNote.hidden = !v.room.closed;
    const lobby = this.inLobby();
    this.lobby.hidden = !lobby;
    this.tableEl.hidden = lobby;
    if (lobby) {
      renderLobby(this);
      awayTick(this);
      return;
    }
    this.renderBar();
    for (let s = 0; s < 4; s++) renderSeat(this, s);
    this.renderCenter();
    renderStatus(this);
    this.renderActions();
    this.renderHand();
    // Item 4: a spectator holds no hand, so is not told its arrow keys (not even by a screen
    // reader: a description is read from a hidden element too, so the link itself goes).
    const seated = v.seat !== null && v.seat !== undefined;
    this.handHelp.hidden = !seated;
    if (seated) this.hand.setAttribute("aria-describedby", "hand-help");
    else this.hand.removeAttribute("aria-describedby");
    renderOverlay(this);
    tick(this);
    awayTick(this);
    this.refreshHelp();
  }

  // The regions the views redraw on their own, between two views of the server.

  renderBar() { renderBar(this); }

  renderCenter() { renderCenter(this); }

  renderActions() { renderActions(this); }

  renderHand() {
    renderHand(this);
    markHinted(this);
  }

  /** A `hint` frame for the current version (views/hint.js). @param {HintMessage} msg */
  showHint(msg) { showHint(this, msg); }

  /** @param {boolean} [force] show (true) or hide (false) the last trick; toggle if omitted */
  toggleLast(force) {
    this.showLast = force === undefined ? !this.showLast : force;
    // The score sheet lies over the felt: it steps aside for the last trick (and comes back
    // from the score bar's "Score sheet").
    if (this.showLast && this.sheetShown()) {
      this.sheetClosed = true;
      renderOverlay(this);
    }
    this.renderBar();
    this.renderCenter();
  }

  /** Whether a score sheet is on show over the table. */
  sheetShown() { return !this.overlay.hidden; }

  /** Close the score sheet (its button, Esc); the score bar's "Score sheet" takes the focus. */
  closeSheet() {
    this.sheetClosed = true;
    renderOverlay(this);
    this.renderBar();
    /** @type {HTMLElement | null} */ (this.bar.querySelector("[data-action=open-sheet]"))?.focus();
  }

  /** Open the closed score sheet again; its close button takes the focus. */
  openSheet() {
    this.sheetClosed = false;
    this.showLast = false;
    renderOverlay(this);
    this.renderBar();
    this.renderCenter();
    /** @type {HTMLElement | null} */ (this.overlay.querySelector("[data-action=close-sheet]"))?.focus();
  }

  /**
   * The talk panel's button and its line for the band (talk_badge.js), once the talk exists.
   * @param {HTMLButtonElement} button
   * @param {HTMLElement} flash
   */
  attachTalk(button, flash) {
    this.talkButton = button;
    this.band.append(flash);
    if (this.view && !this.inLobby()) this.renderBar();
  }

  /** @param {number} n how many people watch the table without a seat */
  setWatching(n) {
    this.watching = n;
    if (this.view && !this.inLobby()) this.renderBar();
  }

  /** Gather the completed trick on show now (a tap on it, or Esc), without its pause. */
  skipHold() { skipHold(this); }

  /** @param {boolean} on the player's option "play a single legal card by itself" changed */
  setSingleCard(on) {
    this.singleCard = on;
    if (this.view && !this.inLobby()) {
      premoveOnView(this, this.view, this.view);
      this.renderHand();
    }
  }

  /** The B shortcut: the BUOB button, if there is one. */
  pressBuob() { pressAction(this, "buob"); }

  /** The D shortcut: the deal button, if there is one. */
  pressDeal() { pressAction(this, "deal"); }

  pressHint() { pressAction(this, "hint"); }
}
