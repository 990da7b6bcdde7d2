// Draws the room from the server's `view`: the lobby, or the table with its seats, trick, hand,
// actions and score sheet. Only what `view` contains is ever drawn (RULES.md §13).

import { renderBack, renderCard } from "./cards.js";
import { fmt, h, narrowScreen, onNarrowChange, patch, reducedMotion } from "./dom.js";

const POS = ["bottom", "left", "top", "right"];
const HOLD_MS = 1200;
const SWEEP_MS = 450;
const SUITS = ["C", "R", "S", "B"];

const team = (seat) => (seat % 2 === 0 ? "A" : "B");

export class Table {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx; // {cfg, S, names, command, toast, announce}
    this.S = ctx.S;
    this.view = null;
    this.selected = new Set();
    this.focusId = null;
    this.hold = null;
    this.showLast = false;
    this.buobMenu = false;
    this.attachBuob = false;
    this.showPiles = false;
    this.busyUntil = 0;
    this.prevTrickCards = new Set();
    this.entering = new Set();
    this.tickTimer = null;
    this.cardCache = new Map();
    this.build();
    onNarrowChange(() => { if (this.view && !this.inLobby()) this.renderHand(); });
  }

  // --- skeleton ----------------------------------------------------------------------------

  build() {
    const S = this.S;
    this.banner = h("div.offline-banner", { role: "status", hidden: true });
    this.closedNote = h("p.notice.closed-note", { hidden: true }, S.room_closed);
    this.lobby = h("section.lobby", { hidden: true, "aria-label": S.lobby_title });
    this.bar = h("div.scorebar");
    this.seatEls = POS.map((p) => h(`div.seat.pos-${p}`));
    this.center = h("div.center", { "aria-live": "off" });
    this.felt = h("div.felt", null, ...this.seatEls, this.center);
    this.status = h("p.status");
    this.actions = h("div.actions");
    this.hand = h("div.hand", { role: "group", "aria-label": S.your_hand,
      "aria-describedby": "hand-help" });
    this.handHelp = h("p.visually-hidden", { id: "hand-help" }, S.hand_help);
    this.overlay = h("div.overlay", { hidden: true });
    this.tableEl = h("section.table", { hidden: true }, this.bar, this.felt, this.status,
      this.actions, this.hand, this.handHelp, this.overlay);
    this.root.replaceChildren(this.banner, this.closedNote, this.lobby, this.tableEl);
    this.hand.addEventListener("click", (e) => {
      const el = e.target.closest(".card[data-card]");
      if (el) this.cardChosen(el.dataset.card);
    });
    this.hand.addEventListener("keydown", (e) => this.handKey(e));
    this.hand.addEventListener("focusin", (e) => {
      const el = e.target.closest(".card[data-card]");
      if (el) this.focusId = el.dataset.card;
    });
  }

  /** Forget what each region shows, so the next render rebuilds all of them. */
  invalidate() {
    for (const el of [this.lobby, this.bar, this.center, this.actions, this.overlay,
      ...this.seatEls]) el.__key = undefined;
    this.hand.replaceChildren();
  }

  setBanner(text) {
    this.banner.hidden = !text;
    this.banner.textContent = text || "";
  }

  // --- helpers -----------------------------------------------------------------------------

  base() {
    const v = this.view;
    return v && v.seat !== null && v.seat !== undefined ? v.seat : 0;
  }

  pos(seat) {
    return POS[(seat - this.base() + 4) % 4];
  }

  seatInfo(index) {
    return (this.view.seats || []).find((s) => s.index === index) || null;
  }

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

  teamName(t) {
    return t === "A" ? this.S.team_a : this.S.team_b;
  }

  cardName(id) {
    return this.ctx.names[id] || id;
  }

  card(id, opts = {}) {
    // Drawing a card builds a small SVG; cloning a drawn one is several times faster, and a
    // card looks the same every time it is drawn with the same options.
    const key = `${id}|${opts.interactive ? 1 : 0}|${opts.disabled ? 1 : 0}|${opts.reason || ""}|${opts.label || ""}`;
    let proto = this.cardCache.get(key);
    if (!proto) {
      proto = renderCard(id, { names: this.ctx.names, spriteUrl: this.ctx.cfg.sprite, ...opts });
      if (opts.disabled && opts.interactive) {
        // Still focusable and clickable: a click explains why (the server's sentence).
        proto.disabled = false;
      }
      if (this.cardCache.size > 600) this.cardCache.clear();
      this.cardCache.set(key, proto);
    }
    return proto.cloneNode(true);
  }

  back(extra = {}) {
    return renderBack({ spriteUrl: this.ctx.cfg.sprite, label: extra.label || "", ...extra });
  }

  inLobby() {
    return !this.view.match || this.view.phase === "LOBBY";
  }

  // --- apply -------------------------------------------------------------------------------

  apply(view, events) {
    const prev = this.view;
    this.view = view;
    if (!prev || prev.deal_number !== view.deal_number || prev.phase !== view.phase) {
      this.selected.clear();
      this.buobMenu = false;
      this.attachBuob = false;
      if (view.phase !== "ROUND_OVER") this.showPiles = false;
    }
    this.busyUntil = 0;
    this.trackTrick(prev, view);
    this.render();
    if (events) this.announceEvents(events);
    if (view.actions.play && !(prev && prev.actions.play)) this.ctx.announce(this.S.your_turn);
  }

  trackTrick(prev, view) {
    const cards = view.trick ? view.trick.cards : [];
    const now = new Set(cards.map(([, c]) => c));
    this.entering = new Set([...now].filter((c) => !this.prevTrickCards.has(c)));
    this.prevTrickCards = now;
    const completed = prev && view.phase !== "LOBBY" && prev.deal_number === view.deal_number
      && view.tricks_played > prev.tricks_played && view.last_trick;
    if (completed) {
      this.hold = { trick: view.last_trick, sweeping: false };
      clearTimeout(this.holdTimer);
      this.holdTimer = setTimeout(() => this.sweep(), HOLD_MS);
    } else if (this.hold && cards.length > 0) {
      this.endHold();
    }
  }

  sweep() {
    if (!this.hold) return;
    if (reducedMotion()) { this.endHold(); return; }
    this.hold.sweeping = true;
    this.renderCenter();
    this.holdTimer = setTimeout(() => this.endHold(), SWEEP_MS);
  }

  endHold() {
    clearTimeout(this.holdTimer);
    this.hold = null;
    if (this.view) this.renderCenter();
  }

  announceEvents(events) {
    const S = this.S;
    for (const e of events) {
      if (e.type === "card_played" && e.seat !== this.view.seat) {
        this.ctx.announce(fmt(S.played, { name: this.name(e.seat), card: this.cardName(e.card) }));
      } else if (e.type === "trick_won") {
        this.ctx.announce(fmt(S.trick_won_by, { name: this.name(e.winner) }));
      } else if (e.type === "buob_called") {
        this.ctx.announce(this.buobText(e));
      } else if (e.type === "deal_scored") {
        this.ctx.announce(this.resultText(e.points));
      } else if (e.type === "match_over") {
        this.ctx.announce(e.winner === "draw" ? S.match_draw
          : fmt(S.match_winner, { team: this.teamName(e.winner) }));
      }
    }
  }

  // --- render ------------------------------------------------------------------------------

  render() {
    const v = this.view;
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
      this.renderLobby();
      return;
    }
    this.renderBar();
    for (let s = 0; s < 4; s++) this.renderSeat(s);
    this.renderCenter();
    this.renderStatus();
    this.renderActions();
    this.renderHand();
    this.renderOverlay();
    this.tick();
  }

  // Countdowns (reveal window, turn timer) tick without re-rendering anything else.
  tick() {
    clearTimeout(this.tickTimer);
    const v = this.view;
    const nodes = this.root.querySelectorAll("[data-countdown]");
    if (!v || !v.deadline || nodes.length === 0) return;
    const left = Math.max(0, Math.ceil(v.deadline - Date.now() / 1000));
    for (const n of nodes) {
      n.textContent = fmt(this.S[n.dataset.countdown], { seconds: left });
    }
    if (left > 0) this.tickTimer = setTimeout(() => this.tick(), 250);
  }

  renderLobby() {
    const v = this.view;
    const S = this.S;
    const me = this.me();
    const owner = this.isOwner();
    const closed = v.room.closed;
    const mine = (v.seats || []).find((s) => s.player.id === me);
    const key = JSON.stringify([v.seats, v.room, me]);
    patch(this.lobby, key, () => {
      const slot = (index) => {
        const s = this.seatInfo(index);
        const t = team(index);
        if (!s) {
          return h(`div.slot.free.team-${t.toLowerCase()}`, { dataset: { index } },
            h("span.tag", { "aria-hidden": "true" }, t),
            h("span.slot-name.muted", null, S.free_seat),
            closed ? null : h("button.button.button-small-solid", {
              type: "button", "data-action": "take-seat",
              "aria-label": `${S.take_seat} (${this.teamName(t)})`,
              onclick: () => this.ctx.command("take_seat", { team: t, index }),
            }, S.take_seat));
        }
        const isMe = s.player.id === me;
        const controls = [];
        if (isMe && !closed) {
          controls.push(h("button.button.button-secondary.button-small-solid", {
            type: "button", "data-action": "leave-seat",
            onclick: () => this.ctx.command("leave_seat"),
          }, S.leave_seat));
        }
        if (owner && !isMe && !closed) {
          const move = h("select", { "aria-label": fmt(S.move_player, { name: s.player.name }),
            "data-action": "move",
            onchange: (e) => {
              const to = Number(e.target.value);
              if (e.target.value !== "") this.ctx.command("move_player", { player: s.player.id, index: to });
            } },
          h("option", { value: "" }, S.move_to),
          [0, 1, 2, 3].filter((i) => i !== index).map((i) => h("option", { value: i },
            `${fmt(S.seat_n, { n: i + 1 })} · ${this.teamName(team(i))}`)));
          controls.push(move,
            h("button.link-button", { type: "button", "data-action": "make-owner",
              onclick: () => this.ctx.command("transfer_owner", { player: s.player.id }) },
            S.make_owner),
            h("button.link-button.danger-link", { type: "button", "data-action": "kick",
              onclick: () => {
                if (window.confirm(fmt(S.confirm_kick, { name: s.player.name }))) {
                  this.ctx.command("kick", { player: s.player.id });
                }
              } }, S.kick));
        }
        return h(`div.slot.team-${t.toLowerCase()}${isMe ? ".me" : ""}`, { dataset: { index } },
          h("span.tag", { "aria-hidden": "true" }, t),
          h("span.slot-name", null,
            this.dot(s.connected),
            h("strong", null, s.player.name),
            isMe ? h("span.chip.chip-you", null, S.you) : null,
            s.is_owner ? h("span.chip.chip-owner", null, "★ ", S.owner) : null),
          controls.length ? h("span.slot-controls", null, controls) : null);
      };
      const col = (t, seats) => h(`div.team-col.team-${t.toLowerCase()}`, null,
        h("h2", null, h("span.tag", { "aria-hidden": "true" }, t), " ", this.teamName(t)),
        seats.map(slot));
      const seated = (v.seats || []).length;
      const teams = (v.seats || []).map((s) => team(s.index));
      const balanced = seated === 4 && teams.filter((t) => t === "A").length === 2;
      const parts = [
        h("div.lobby-teams", null, col("A", [0, 2]), col("B", [1, 3])),
        h("p.lobby-hint.muted", null, S.lobby_hint),
      ];
      if (!mine && !closed) parts.push(h("p.notice", null, S.spectating));
      if (!closed) {
        if (owner) {
          parts.push(h("div.start-row", null,
            h("button.button.button-start", { type: "button", "data-action": "start",
              disabled: !balanced, "aria-describedby": balanced ? null : "need-four",
              onclick: () => this.ctx.command("start_round") }, S.start_match),
            balanced ? null : h("span.muted", { id: "need-four" }, S.need_four)));
          parts.push(this.ownerPanel());
        } else {
          parts.push(h("p.muted", null, balanced ? S.waiting_owner : S.need_four));
        }
      }
      return parts;
    });
  }

  ownerPanel() {
    const S = this.S;
    const room = this.view.room;
    return h("details.owner-panel", { open: true },
      h("summary", null, S.owner_controls),
      h("div.owner-controls", null,
        h("button.button.button-secondary", { type: "button", "data-action": "edit-rules",
          onclick: () => this.ctx.editRules(room.options) }, S.edit_rules),
        h("label.inline", null, S.visibility, " ",
          h("select", { "data-action": "visibility",
            onchange: (e) => this.ctx.command("set_options", { visibility: e.target.value }) },
          h("option", { value: "public", selected: room.visibility === "public" }, S.public),
          h("option", { value: "private", selected: room.visibility === "private" }, S.private))),
        h("label.inline", null,
          h("input", { type: "checkbox", checked: room.allow_spectators,
            "data-action": "spectators",
            onchange: (e) => this.ctx.command("set_options", { allow_spectators: e.target.checked }) }),
          " ", S.spectators_allowed),
        h("button.button.button-danger", { type: "button", "data-action": "close-room",
          onclick: () => {
            if (window.confirm(S.confirm_close)) this.ctx.command("close_room");
          } }, S.close_room)));
  }

  dot(connected) {
    return h(`span.dot.${connected ? "on" : "off"}`, { role: "img",
      "aria-label": connected ? this.S.connected : this.S.away,
      title: connected ? this.S.connected : this.S.away });
  }

  renderBar() {
    const v = this.view;
    const S = this.S;
    const key = JSON.stringify([v.totals, v.tricks_won, v.deal_number, v.match_deals, v.bock,
      v.narr_debt, v.phase, v.team, !!v.last_trick, this.showLast]);
    patch(this.bar, key, () => {
      const score = (t) => h(`div.score.team-${t.toLowerCase()}${v.team === t ? ".mine" : ""}`, null,
        h("span.tag", { "aria-hidden": "true" }, t),
        h("span.score-label", null, this.teamName(t)),
        h("strong.score-total", { title: S.match_total }, v.totals[t]),
        h("span.score-tricks", { title: S.tricks }, `${S.tricks} ${v.tricks_won[t]}`));
      const dealText = v.match_deals
        ? fmt(S.deal_n_of, { n: v.deal_number, total: v.match_deals })
        : fmt(S.deal_n, { n: v.deal_number });
      const items = [score("A"), score("B"),
        h("div.deal-info", null, h("strong", null, dealText), h("span.phase", null,
          S[`phase_${v.phase}`] || v.phase))];
      const b = v.bock || {};
      const over = v.phase === "ROUND_OVER" || v.phase === "MATCH_OVER";
      const left = (b.pending || 0) + (b.is_bock && !over ? 1 : 0);
      if (b.enabled && (b.is_bock || left > 0)) {
        items.push(h("span.badge.badge-bock", { title: b.is_bock ? S.bock_deal : "" },
          b.is_bock ? `${S.bock} ×2` : S.bock, left > 0 ? ` · ${fmt(S.bock_left, { n: left })}` : ""));
      }
      if (v.narr_debt) {
        const d = v.narr_debt;
        const text = fmt(d.status === "settled" ? S.narr_settled : S.narr_pending,
          { debtor: this.teamName(d.debtor), creditor: this.teamName(d.creditor) });
        items.push(h(`span.badge.badge-narr.${d.status}`, { title: text },
          h("span.visually-hidden", null, text),
          h("span", { "aria-hidden": "true" }, `${S.narr_debt}: ${d.debtor} → ${d.creditor}`,
            d.status === "settled" ? " ✓" : " …")));
      }
      items.push(h("span.bar-buttons", null,
        h("button.button.button-secondary.button-small-solid", {
          type: "button", "data-action": "last-trick", "aria-pressed": String(this.showLast),
          disabled: !v.last_trick, onclick: () => this.toggleLast() }, S.last_trick),
        h("button.button.button-secondary.button-small-solid.help-button", {
          type: "button", popovertarget: "help-pop", "aria-label": S.help, title: S.help }, "?")));
      return items;
    });
  }

  toggleLast(force) {
    this.showLast = force === undefined ? !this.showLast : force;
    this.renderBar();
    this.renderCenter();
  }

  renderSeat(s) {
    const v = this.view;
    const S = this.S;
    const el = this.seatEls[POS.indexOf(this.pos(s))];
    const info = this.seatInfo(s);
    const t = team(s);
    const turn = v.turn === s && ["DEALING", "SCART", "PLAY"].includes(v.phase);
    const isMe = v.seat === s;
    const showTimer = turn && v.deadline && v.deadline_kind === "turn";
    const key = JSON.stringify([s, info, v.dealer, turn, v.hand_counts[s], isMe, showTimer,
      v.seat, v.phase, v.scart_count]);
    el.className = `seat pos-${this.pos(s)} team-${t.toLowerCase()}${turn ? " turn" : ""}${isMe ? " me" : ""}`;
    patch(el, key, () => {
      const label = [this.name(s), this.teamName(t), v.dealer === s ? S.dealer : "",
        turn ? S.on_turn : ""].filter(Boolean).join(", ");
      return h("div.plate", { role: "group", "aria-label": label, dataset: { seat: s } },
        h("span.tag", { "aria-hidden": "true" }, t),
        h("span.plate-main", null,
          h("span.plate-name", null, info ? this.dot(info.connected) : null,
            h("span.nm", null, info ? info.player.name : fmt(S.seat_n, { n: s + 1 }))),
          h("span.plate-sub", null,
            v.dealer === s ? h("span.chip.chip-dealer", { title: S.dealer }, S.dealer) : null,
            info && info.is_owner ? h("span.chip.chip-owner", { title: S.owner }, "★") : null,
            v.dealer === s && v.scart_count && v.phase === "PLAY"
              ? h("span.chip.chip-scart", { title: S.scart_pile },
                h("span", { "aria-hidden": "true" }, "Scart"),
                h("span.visually-hidden", null, S.scart_pile)) : null,
            !isMe ? h("span.count", null, fmt(S.cards_count, { n: v.hand_counts[s] })) : null,
            turn ? h("span.chip.chip-turn", null, S.on_turn) : null,
            showTimer ? h("span.chip.chip-timer", { "data-countdown": "seconds_left" }) : null)),
        !isMe && v.hand_counts[s] > 0 ? h("span.mini-backs", { "aria-hidden": "true" },
          this.back({ label: "" })) : null);
    });
  }

  renderCenter() {
    const v = this.view;
    const S = this.S;
    const trick = this.hold ? this.hold.trick : v.trick;
    const key = JSON.stringify([v.phase, v.reveal, trick, this.hold && this.hold.sweeping,
      v.buob && v.buob.call, this.showLast && v.last_trick, v.seat, v.dealer,
      v.phase === "DEALING" ? v.hand_counts : null]);
    patch(this.center, key, () => {
      const parts = [];
      if (v.phase === "REVEAL" && v.reveal) {
        parts.push(h("div.trick.reveal", { role: "list", "aria-label": S.reveal_title },
          Object.entries(v.reveal).map(([seat, id]) => h(`div.slot-card.at-${this.pos(+seat)}`,
            { role: "listitem" }, this.card(id, { label: `${this.name(+seat)}: ${this.cardName(id)}` })))));
        parts.push(h("div.center-note.corner", null, h("strong", null, S.reveal_title),
          h("span", { "data-countdown": "reveal_countdown" })));
      } else if (v.phase === "DEALING") {
        parts.push(h("div.center-note.dealing", null, h("div.deck", { "aria-hidden": "true" },
          this.back({ label: "" }), this.back({ label: "" }), this.back({ label: "" })),
        h("span", null, v.actions.deal ? S.your_deal : fmt(S.wait_deal, { name: this.name(v.dealer) }))));
      } else if (v.phase === "SCART") {
        parts.push(h("div.center-note", null, v.actions.scart ? h("strong", null, S.scart_title)
          : fmt(S.wait_scart, { name: this.name(v.dealer) })));
      } else if (v.phase === "PLAY" && trick) {
        const cards = trick.cards || [];
        const sweeping = this.hold && this.hold.sweeping;
        const cls = this.hold ? `.held${sweeping ? `.sweep-${this.pos(trick.winner)}` : ""}` : "";
        parts.push(h(`div.trick${cls}`, { role: "list", "aria-label": fmt(S.trick_n, { n: trick.number }) },
          cards.map(([seat, id]) => {
            const entering = !this.hold && this.entering.has(id) && !reducedMotion();
            const win = this.hold && trick.winner === seat;
            return h(`div.slot-card.at-${this.pos(seat)}${entering ? `.enter-${this.pos(seat)}` : ""}${win ? ".winner" : ""}`,
              { role: "listitem" }, this.card(id, { label: `${this.name(seat)}: ${this.cardName(id)}` }));
          })));
        const notes = [h("span.trick-no", null, fmt(S.trick_n, { n: trick.number }))];
        if (this.hold) {
          notes.push(h("strong", null, fmt(S.trick_won_by, { name: this.name(trick.winner) })));
        } else if (trick.led) {
          notes.push(h("span", null, fmt(S.led_suit, { suit: S[`suit_${trick.led}`] })));
        }
        parts.push(h("div.center-note.small", null, notes));
        const call = v.buob && v.buob.call;
        if (call && !this.hold) parts.push(h("div.buob-call", { role: "status" }, this.buobText(call)));
      }
      if (this.showLast && v.last_trick) {
        const t = v.last_trick;
        parts.push(h("div.last-trick", { role: "dialog", "aria-label": S.last_trick },
          h("div.last-head", null, h("strong", null, `${S.last_trick} · ${fmt(S.trick_n, { n: t.number })}`),
            h("button.link-button", { type: "button", onclick: () => this.toggleLast(false) }, S.close)),
          h("div.last-cards", null, t.cards.map(([seat, id]) => h(`figure${seat === t.winner ? ".winner" : ""}`, null,
            this.card(id), h("figcaption", null, this.name(seat))))),
          h("p", null, fmt(S.won_by, { name: this.name(t.winner) }))));
      }
      this.entering = new Set();
      return parts;
    });
  }

  buobText(call) {
    const S = this.S;
    return fmt(S.buob_called, { caller: this.name(call.caller), suit: S[`suit_${call.suit}`],
      target: this.name(call.target), mode: S[`mode_${call.mode}`] });
  }

  resultText(points) {
    const S = this.S;
    if (points.A === points.B) return S.score_tie;
    const w = points.A > points.B ? "A" : "B";
    return fmt(S.score_win, { team: this.teamName(w), a: points.A, b: points.B });
  }

  renderStatus() {
    const v = this.view;
    const S = this.S;
    let text = "";
    if (v.phase === "PLAY") {
      text = v.actions.play ? S.your_turn : fmt(S.turn_of, { name: this.name(v.turn) });
      const call = v.buob && v.buob.call;
      if (call && call.mode === "FORCED" && call.target === v.seat && v.seat !== null) text = S.buob_forced_you;
    } else if (v.phase === "DEALING") {
      text = v.actions.deal ? S.your_deal : fmt(S.wait_deal, { name: this.name(v.dealer) });
    } else if (v.phase === "SCART") {
      text = v.actions.scart ? S.scart_hint : fmt(S.wait_scart, { name: this.name(v.dealer) });
    } else if (v.phase === "REVEAL") {
      text = S.reveal_title;
    } else if (v.phase === "ROUND_OVER" && v.review) {
      text = this.resultText(v.review.points);
    } else if (v.phase === "MATCH_OVER") {
      text = S.match_over;
    }
    if (v.seat === null) text = `${text} ${S.spectating}`.trim();
    this.status.textContent = text;
    this.status.classList.toggle("mine", !!(v.actions.play || v.actions.deal || v.actions.scart));
  }

  renderActions() {
    const v = this.view;
    const S = this.S;
    const suits = (v.buob && v.buob.suits) || [];
    const kingLegal = v.actions.play && v.trick && v.trick.cards.length === 3
      && v.legal_cards.some((c) => SUITS.includes(c[0]) && c.endsWith("K"));
    const key = JSON.stringify([v.actions, suits, this.selected.size, [...this.selected],
      this.buobMenu, kingLegal, this.attachBuob, v.phase, v.hand_counts[v.dealer]]);
    patch(this.actions, key, () => {
      const out = [];
      if (v.actions.deal) {
        const pass = Math.min(3, Math.floor((v.hand_counts[v.dealer] || 0) / 6) + 1);
        out.push(h("button.button.button-action", { type: "button", "data-action": "deal",
          "aria-keyshortcuts": "D", onclick: () => this.ctx.command("deal_next_pass") },
        S.deal_pass, h("small", null, ` · ${fmt(S.deal_pass_n, { n: pass })}`)));
      }
      if (v.actions.scart) {
        out.push(h("span.scart-count", { "aria-live": "polite" }, fmt(S.scart_selected, { n: this.selected.size })));
        out.push(h("button.button.button-action", { type: "button", "data-action": "scart",
          disabled: this.selected.size !== 2,
          onclick: () => this.ctx.command("discard_scart", { cards: [...this.selected] }) },
        S.scart_confirm));
      }
      if (suits.length === 1) {
        out.push(h("button.button.button-buob", { type: "button", "data-action": "buob",
          "aria-keyshortcuts": "B", onclick: () => this.callBuob(suits[0]) },
        `${S.buob}!`, h("small", null, ` ${fmt(S.buob_on, { suit: S[`suit_${suits[0]}`] })}`)));
      } else if (suits.length > 1) {
        out.push(h("button.button.button-buob", { type: "button", "data-action": "buob",
          "aria-expanded": String(this.buobMenu), "aria-keyshortcuts": "B",
          onclick: () => { this.buobMenu = !this.buobMenu; this.renderActions(); } }, `${S.buob}!`));
        if (this.buobMenu) {
          out.push(h("span.buob-menu", { role: "group", "aria-label": S.buob_choose },
            suits.map((s) => h("button.button.button-secondary", { type: "button",
              "data-suit": s, onclick: () => this.callBuob(s) }, fmt(S.buob_on, { suit: S[`suit_${s}`] })))));
        }
      }
      if (kingLegal && suits.length === 0) {
        out.push(h("label.inline.attach-buob", null, h("input", { type: "checkbox",
          checked: this.attachBuob, onchange: (e) => { this.attachBuob = e.target.checked; } }),
        " ", S.buob_with_card));
      }
      return out;
    });
  }

  callBuob(suit) {
    this.buobMenu = false;
    this.ctx.command("call_buob", { suit });
  }

  pressBuob() {
    const b = this.actions.querySelector("[data-action=buob]");
    if (b) b.click();
  }

  pressDeal() {
    const b = this.actions.querySelector("[data-action=deal]");
    if (b) b.click();
  }

  // Why a card of the hand cannot be chosen now: the same sentences the server sends.
  reason(id) {
    const v = this.view;
    const S = this.S;
    if (v.phase === "SCART" && v.actions.scart) {
      return v.actions.scart_allowed.includes(id) ? null : S.err_SCART_FORBIDDEN_CARD;
    }
    if (v.phase !== "PLAY") return null;
    if (!v.actions.play) return S.err_NOT_YOUR_TURN;
    if (v.legal_cards.includes(id)) return null;
    const call = v.buob && v.buob.call;
    if (call && call.mode === "FORCED" && call.target === v.seat) return S.err_BUOB_FORCED_JACK;
    const led = v.trick && v.trick.led;
    if (led && v.hand.some((c) => c !== "NARR" && (c[0] === led))) return S.err_MUST_FOLLOW_SUIT;
    return S.err_MUST_PLAY_TRUMP;
  }

  renderHand() {
    const v = this.view;
    const hand = v.hand || [];
    const interactive = (v.phase === "PLAY" || (v.phase === "SCART" && v.actions.scart)) && v.seat !== null;
    const waiting = v.phase === "PLAY" && !v.actions.play;
    const rows = narrowScreen() && hand.length > 10 ? 2 : 1;
    const per = Math.ceil(hand.length / rows) || 1;
    const scart = v.phase === "SCART" && interactive;
    // Each card with what it looks like now; a card whose look did not change keeps its DOM
    // node, so a keyboard player's focus stays put and nothing is redrawn for nothing.
    const want = hand.map((id) => {
      const why = interactive ? this.reason(id) : null;
      const sel = this.selected.has(id);
      return { id, why, sel, ck: `${id}|${interactive}|${why || ""}|${waiting}|${sel}|${scart}` };
    });
    const hadFocus = this.hand.contains(document.activeElement);
    const build = (d) => {
      const el = this.card(d.id, { interactive, disabled: !!d.why && !waiting, reason: d.why || undefined });
      el.__ck = d.ck;
      if (interactive) {
        el.tabIndex = -1;
        if (d.why && waiting) el.setAttribute("aria-disabled", "true");
      }
      if (d.sel) {
        el.classList.add("selected");
        el.setAttribute("aria-pressed", "true");
      } else if (scart) {
        el.setAttribute("aria-pressed", "false");
      }
      return el;
    };
    if (this.hand.children.length !== rows) {
      this.hand.replaceChildren(...Array.from({ length: rows }, () => h("div.hand-row")));
    }
    [...this.hand.children].forEach((rowEl, r) => {
      const part = want.slice(r * per, (r + 1) * per);
      const n = part.length;
      rowEl.style.gridTemplateColumns = n > 1
        ? `repeat(${n - 1}, minmax(0, var(--card-w))) var(--card-w)` : "var(--card-w)";
      const byId = new Map(part.map((d) => [d.id, d]));
      for (const el of [...rowEl.children]) {
        const d = byId.get(el.dataset.card);
        if (!d || d.ck !== el.__ck) el.remove();
      }
      let i = 0;
      for (const d of part) {
        const cur = rowEl.children[i];
        if (!cur || cur.dataset.card !== d.id) rowEl.insertBefore(build(d), cur || null);
        i += 1;
      }
      while (rowEl.children.length > n) rowEl.lastElementChild.remove();
    });
    this.hand.classList.toggle("waiting", waiting);
    this.hand.classList.toggle("two-rows", rows === 2);
    this.restoreFocus(hadFocus && !this.hand.contains(document.activeElement));
  }

  handCards() {
    return [...this.hand.querySelectorAll(".card[data-card]")];
  }

  restoreFocus(hadFocus) {
    const cards = this.handCards();
    if (!cards.length) return;
    // The card that had focus, else (it was played) the nearest playable one.
    let target = cards.find((c) => c.dataset.card === this.focusId);
    if (!target) target = cards.find((c) => c.getAttribute("aria-disabled") !== "true") || cards[0];
    for (const c of cards) {
      const t = c === target ? 0 : -1;
      if (c.tabIndex !== t) c.tabIndex = t;
    }
    if (hadFocus && target.tagName === "BUTTON") target.focus({ preventScroll: true });
  }

  handKey(e) {
    const cards = this.handCards();
    const i = cards.indexOf(document.activeElement);
    if (i < 0) return;
    let next = null;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") next = cards[Math.min(cards.length - 1, i + 1)];
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = cards[Math.max(0, i - 1)];
    else if (e.key === "Home") next = cards[0];
    else if (e.key === "End") next = cards[cards.length - 1];
    if (next) {
      e.preventDefault();
      for (const c of cards) c.tabIndex = c === next ? 0 : -1;
      next.focus();
      this.focusId = next.dataset.card;
    }
  }

  cardChosen(id) {
    const v = this.view;
    if (!v || v.seat === null) return;
    if (v.phase === "SCART" && v.actions.scart) {
      const why = this.reason(id);
      if (why && !this.selected.has(id)) { this.ctx.toast(why); return; }
      if (this.selected.has(id)) this.selected.delete(id);
      else if (this.selected.size < 2) this.selected.add(id);
      else { this.selected.delete([...this.selected][0]); this.selected.add(id); }
      this.focusId = id;
      this.renderHand();
      this.renderActions();
      return;
    }
    if (v.phase !== "PLAY") return;
    if (Date.now() < this.busyUntil) return;
    // Illegal or out of turn: the server refuses with the rule in the player's language.
    this.busyUntil = Date.now() + 3000;
    this.focusId = id;
    const fields = { card: id };
    if (this.attachBuob && id.endsWith("K") && SUITS.includes(id[0])) fields.call_buob = true;
    this.ctx.command("play_card", fields, () => { this.busyUntil = 0; });
  }

  renderOverlay() {
    const v = this.view;
    const S = this.S;
    const show = (v.phase === "ROUND_OVER" || v.phase === "MATCH_OVER") && v.review;
    this.overlay.hidden = !show;
    if (!show) { this.overlay.__key = null; return; }
    const key = JSON.stringify([v.review, v.totals, v.actions, v.phase, v.winner, this.showPiles,
      this.isOwner(), v.room.options.regame_by, v.tricks_won, v.narr_debt]);
    patch(this.overlay, key, () => {
      const r = v.review;
      const owner = this.isOwner();
      const mult = r.multiplier || 1;
      const rows = [
        [S.score_tricks, v.tricks_won.A, v.tricks_won.B],
        [S.score_cards, r.piles.A.length, r.piles.B.length],
        [S.score_points, r.points.A, r.points.B],
        [S.score_multiplier, `×${mult}`, `×${mult}`],
        [S.score_added, r.points.A * mult, r.points.B * mult],
        [S.score_total, v.totals.A, v.totals.B],
      ];
      const sheet = h("table.score-sheet", null,
        h("thead", null, h("tr", null, h("th", { scope: "col" }, h("span.visually-hidden", null, S.score_team)),
          ["A", "B"].map((t) => h(`th.team-${t.toLowerCase()}`, { scope: "col" },
            h("span.tag", { "aria-hidden": "true" }, t), " ", this.teamName(t))))),
        h("tbody", null, rows.map(([label, a, b], i) => h(`tr${i === rows.length - 1 ? ".total" : ""}`, null,
          h("th", { scope: "row" }, label), h("td", null, a), h("td", null, b)))));
      const parts = [
        h("h2", { id: "score-title" }, fmt(S.score_title, { n: v.deal_number })),
        h("p.result", null, this.resultText(r.points)),
        sheet,
      ];
      if (r.bock_triggered) parts.push(h("p.badge.badge-bock.block", null, S.bock_triggered));
      if (v.narr_debt) {
        parts.push(h("p.muted", null, fmt(v.narr_debt.status === "settled" ? S.narr_settled : S.narr_pending,
          { debtor: this.teamName(v.narr_debt.debtor), creditor: this.teamName(v.narr_debt.creditor) }),
        v.narr_debt.paid_card ? ` (${this.cardName(v.narr_debt.paid_card)})` : ""));
      }
      const details = h("details.piles", { open: this.showPiles,
        ontoggle: (e) => { this.showPiles = e.target.open; } },
      h("summary", null, S.show_piles),
      ["A", "B"].map((t) => h(`div.pile.team-${t.toLowerCase()}`, null,
        h("h3", null, this.teamName(t)),
        h("div.pile-cards", null, r.piles[t].map((id) => this.card(id))))),
      v.scart ? h("div.pile", null, h("h3", null, S.scart_was),
        h("div.pile-cards", null, v.scart.map((id) => this.card(id)))) : null);
      parts.push(details);
      const buttons = [];
      if (v.phase === "MATCH_OVER") {
        parts.unshift(h("div.match-over", null, h("h2", null, S.match_over),
          h("p.winner", null, v.winner === "draw" ? S.match_draw
            : fmt(S.match_winner, { team: this.teamName(v.winner) })),
          h("p.final", null, `${this.teamName("A")} ${v.totals.A} : ${v.totals.B} ${this.teamName("B")}`)));
        if (owner && v.actions.new_match) {
          buttons.push(h("button.button.button-action", { type: "button", "data-action": "new-match",
            onclick: () => this.ctx.command("new_match") }, S.new_match));
        } else {
          buttons.push(h("p.muted", null, S.wait_new_match));
        }
      } else if (v.actions.regame) {
        const allowed = v.room.options.regame_by !== "owner" || owner;
        buttons.push(h("button.button.button-action", { type: "button", "data-action": "regame",
          disabled: !allowed, title: allowed ? "" : S.regame_owner_only,
          onclick: () => this.ctx.command("regame") }, S.regame));
        if (!allowed) buttons.push(h("span.muted", null, S.regame_owner_only));
        if (owner && v.actions.end_match) {
          buttons.push(h("button.button.button-secondary", { type: "button", "data-action": "end-match",
            onclick: () => this.ctx.command("end_match") }, S.end_match));
        }
      }
      parts.push(h("div.overlay-actions", null, buttons));
      return h("div.sheet", { role: "region", "aria-labelledby": "score-title" }, parts);
    });
  }
}
