// @ts-check
// The away clock (issue #14): a seated player without a live socket shows "away 0:45" on their
// plate (and after their name in the status line), counting up from the seat's `away_since`.
// One timer serves the whole table; it stops when nobody is away. Leaving and coming back are
// announced to screen readers.

import { fmt, h } from "../dom.js";

/**
 * @import { Table } from "../render.js"
 * @import { SeatInfo, View } from "../protocol.js"
 */

/** @type {number | undefined} */
let awayTimer;

/**
 * "0:45", "12:03", "1:02:03": the time since `since` (Unix seconds).
 * @param {number} since
 */
export function awayClock(since) {
  const d = Math.max(0, Math.floor(Date.now() / 1000 - since));
  const s = String(d % 60).padStart(2, "0");
  const m = Math.floor(d / 60) % 60;
  const hours = Math.floor(d / 3600);
  return hours ? `${hours}:${String(m).padStart(2, "0")}:${s}` : `${m}:${s}`;
}

/**
 * Whether seat `info` is away, with the instant it left (null: connected or never came).
 * @param {SeatInfo | null} info
 * @returns {number | null}
 */
export function awaySince(info) {
  return info && !info.connected && typeof info.away_since === "number" ? info.away_since : null;
}

/**
 * The room's stand-in grace period in seconds while a match runs (issue #15), else null: no
 * bot will stand in, so the away notice shows no countdown.
 * @param {Table} t
 */
function standInGrace(t) {
  const grace = t.current.room.options.stand_in_seconds;
  const running = t.current.match && t.current.match.status === "running";
  return running && typeof grace === "number" && grace > 0 ? grace : null;
}

/**
 * The away notice's words: "away 0:45", and while a match runs "· bot in 0:15", counting down
 * to the stand-in, then "· bot for Mario" (the server marks the seat too: `stand_in`).
 * @param {Table} t
 * @param {number} since
 * @param {number | null} grace
 * @param {string} name
 */
function awayText(t, since, grace, name) {
  const away = fmt(t.S.away_for, { time: awayClock(since) });
  if (grace === null) return away;
  const due = since + grace;
  const left = due - Date.now() / 1000;
  return left > 0
    ? `${away} · ${fmt(t.S.stand_in_in, { time: awayClock(Date.now() / 1000 - Math.ceil(left)) })}`
    : `${away} · ${fmt(t.S.stand_in_for, { name })}`;
}

/**
 * When a bot will stand in for seat `info` (Unix seconds), or null: not away, or no bot will.
 * @param {Table} t
 * @param {SeatInfo | null} info
 */
export function standInDue(t, info) {
  const since = awaySince(info);
  const grace = standInGrace(t);
  return since === null || grace === null || (info && info.stand_in) ? null : since + grace;
}

/**
 * The away notice of a seat: a chip the table's timer keeps counting; null if not away.
 * `countdown` false leaves out the stand-in's countdown: the plate shows the turn timer's,
 * which acts first (one countdown per seat, issue #24 item 5).
 * @param {Table} t
 * @param {SeatInfo | null} info
 * @param {boolean} [countdown]
 */
export function awayChip(t, info, countdown = true) {
  const since = awaySince(info);
  if (since === null || !info) return null;
  const grace = countdown ? standInGrace(t) : null;
  return h("span.chip.chip-away", {
    dataset: { awaySince: since, standIn: grace === null ? "" : grace, name: info.player.name },
    title: t.S.away,
  }, awayText(t, since, grace, info.player.name));
}

/**
 * Refresh every away clock on the page now, and every second while any is shown.
 * @param {Table} t
 */
export function awayTick(t) {
  clearTimeout(awayTimer);
  awayTimer = undefined;
  const nodes = /** @type {NodeListOf<HTMLElement>} */ (t.root.querySelectorAll("[data-away-since]"));
  if (nodes.length === 0) return;
  for (const n of nodes) {
    const grace = n.dataset.standIn ? Number(n.dataset.standIn) : null;
    n.textContent = awayText(t, Number(n.dataset.awaySince), grace, n.dataset.name || "");
  }
  awayTimer = setTimeout(() => awayTick(t), 1000 - (Date.now() % 1000) + 20);
}

/**
 * Announce the seated players who left or came back between `prev` and `view`.
 * @param {Table} t
 * @param {View | null} prev
 * @param {View} view
 */
export function announcePresence(t, prev, view) {
  if (!prev) return;
  for (const s of view.seats || []) {
    const was = (prev.seats || []).find((p) => p.player.id === s.player.id);
    if (!was || was.connected === s.connected || s.player.id === t.me()) continue;
    t.ctx.announce(fmt(s.connected ? t.S.back_now : t.S.away_now, { name: s.player.name }));
  }
}
