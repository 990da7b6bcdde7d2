// @ts-check
// Leaving a match asks first (issue #24): while a seated player's match runs, a stand-in bot
// plays their seat once the room's away grace period is over, so closing the tab (the
// browser's own beforeunload prompt) and the site's own links (an in-page confirm) say so; at
// a practice table they say that the game waits instead.

import { fmt } from "../dom.js";

/** @import { View } from "../protocol.js" */

/**
 * The question to ask before leaving, or null: a spectator, the lobby, a match over, or a
 * room where no bot stands in (grace 0) leave without one. A practice table (only bots
 * besides the player) plays nobody's cards in their name: it pauses until they come back
 * (issue #24 item 2), and the question says so.
 * @param {View | null} v
 * @param {Record<string, string>} S
 */
export function leaveQuestion(v, S) {
  if (!v || v.seat === null || !v.match || v.match.status !== "running") return null;
  if (v.phase === "LOBBY" || v.phase === "MATCH_OVER") return null;
  if (v.match.practice) return S.leave_confirm_practice;
  const grace = v.room.options.stand_in_seconds ?? 60;
  return grace > 0 ? fmt(S.leave_confirm, { n: grace }) : null;
}

/**
 * Ask before the page is left during the player's running match.
 * @param {() => View | null} current the table's view now
 * @param {Record<string, string>} S
 */
export function guardLeaving(current, S) {
  // Set once the in-page confirm was answered "leave": the browser's prompt would ask twice.
  let leaving = false;
  window.addEventListener("beforeunload", (e) => {
    if (leaving || leaveQuestion(current(), S) === null) return;
    e.preventDefault();
    e.returnValue = ""; // older browsers show their own prompt only with this set
  });
  document.addEventListener("click", (e) => {
    const target = /** @type {Element | null} */ (e.target instanceof Element ? e.target : null);
    const link = target ? target.closest("a[href]") : null;
    if (!link || link.getAttribute("target") === "_blank") return;
    const href = link.getAttribute("href") || "";
    if (href.startsWith("#")) return;
    const question = leaveQuestion(current(), S);
    if (question === null) return;
    if (!window.confirm(question)) {
      e.preventDefault();
      return;
    }
    leaving = true;
  }, true);
}
