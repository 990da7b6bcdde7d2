// @ts-check
// The four name plates around the felt: name, connection, team, dealer, turn and timer, the
// away clock, the number of cards in hand and a card back for the other players.

import { fmt, h, patch } from "../dom.js";
import { awayChip, standInDue } from "./away.js";
import { botChip } from "./bots.js";
import { POS, team } from "./scene.js";

/** @import { Table } from "../render.js" */

/**
 * The plate of seat `s` (0–3), wherever it sits from the receiver's point of view.
 * @param {Table} t
 * @param {number} s
 */
export function renderSeat(t, s) {
  const v = t.current;
  const S = t.S;
  const el = t.seatEls[POS.indexOf(t.pos(s))];
  const info = t.seatInfo(s);
  const tm = team(s);
  const turn = v.turn === s && ["DEALING", "SCART", "PLAY"].includes(v.phase);
  const isMe = v.seat === s;
  // One countdown per seat (issue #24 item 5): when the away player's grace period and the turn
  // timer both run, the plate shows the one that acts first.
  const timerRuns = Boolean(turn && v.deadline && v.deadline_kind === "turn");
  const due = standInDue(t, info);
  const showTimer = timerRuns && (due === null || /** @type {number} */ (v.deadline) <= due);
  const key = JSON.stringify([s, info, v.dealer, turn, v.hand_counts[s], isMe, showTimer,
    v.seat, v.phase, v.scart_count, due]);
  el.className = `seat pos-${t.pos(s)} team-${tm.toLowerCase()}${turn ? " turn" : ""}${isMe ? " me" : ""}`;
  patch(el, key, () => {
    const label = [t.name(s), t.teamName(tm), v.dealer === s ? S.dealer : "",
      turn ? S.on_turn : ""].filter(Boolean).join(", ");
    return h("div.plate", { role: "group", "aria-label": label,
      dataset: { seat: s, standIn: info && info.stand_in ? "1" : "" } },
      h("span.tag", { "aria-hidden": "true" }, tm),
      h("span.plate-main", null,
        // The badge ("bot · strong") before the name, which wraps and is never cut short; a
        // bot's own name here, its level said once by the badge.
        h("span.plate-name", null, info ? t.dot(info.connected) : null, botChip(t, info),
          h("span.nm", { title: info ? info.player.name : null },
            info ? info.player.own_name || info.player.name : fmt(S.seat_n, { n: s + 1 }))),
        h("span.plate-sub", null,
          v.dealer === s ? h("span.chip.chip-dealer", { title: S.dealer }, S.dealer) : null,
          // The star is named in words for screen readers and as a tooltip (issue #24 item 14).
          info && info.is_owner ? h("span.chip.chip-owner", { title: S.owner },
            h("span", { "aria-hidden": "true" }, "★"),
            h("span.visually-hidden", null, S.owner)) : null,
          v.dealer === s && v.scart_count && v.phase === "PLAY"
            ? h("span.chip.chip-scart", { title: S.scart_pile },
              h("span", { "aria-hidden": "true" }, "Scart"),
              h("span.visually-hidden", null, S.scart_pile)) : null,
          !isMe ? h("span.count", null, fmt(v.hand_counts[s] === 1 ? S.cards_count_one : S.cards_count, { n: v.hand_counts[s] })) : null,
          turn ? h("span.chip.chip-turn", null, S.on_turn) : null,
          awayChip(t, info, !showTimer),
          showTimer ? h("span.chip.chip-timer", { "data-countdown": "turn_left" }) : null)),
      !isMe && v.hand_counts[s] > 0 ? h("span.mini-backs", { "aria-hidden": "true" },
        t.back({ label: "" })) : null);
  });
}
