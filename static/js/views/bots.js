// @ts-check
// Bots at the table (issue #15): a bot's name in the page's language and its badge. The server
// sends a bot's own name and its level (`player.bot`); the words come from the page's strings,
// so every place that shows a player's name says "Gion (bot, easy)" in the reader's language.

import { fmt, h } from "../dom.js";

/**
 * @import { Table } from "../render.js"
 * @import { SeatInfo, View } from "../protocol.js"
 * @import { Strings } from "./scene.js"
 */

/** The bots' levels, weakest first, as games/bots LEVELS lists them (a test holds the two
 * equal); a room owner's seat_bot offers them, the default preselected. */
export const BOT_LEVELS = ["beginner", "easy", "medium", "strong"];
export const DEFAULT_BOT_LEVEL = "easy";

/**
 * Name the view's bots in the page's language, once, as the view arrives.
 * @param {View} view
 * @param {Strings} S
 */
export function nameBots(view, S) {
  for (const s of view.seats || []) {
    const level = s.player.bot;
    if (level) {
      // The plate shows the bot's own name beside its badge, which says "bot · strong" once.
      s.player.own_name = s.player.own_name || s.player.name;
      s.player.name = fmt(S.bot_name, { name: s.player.own_name, level: S[`level_${level}`] || level });
    }
  }
}

/**
 * A bot's badge beside its own name, "bot · strong" (issue #24 item 5); null for a person. A bot
 * standing in for an away player is named by that player's away notice ("bot for Mario").
 * @param {Table} t
 * @param {SeatInfo | null} info
 */
export function botChip(t, info) {
  if (!info || !info.player.bot) return null;
  // A word, not a pictograph: a page without an emoji font would show an empty box.
  const level = t.S[`level_${info.player.bot}`] || info.player.bot;
  const words = fmt(t.S.bot_level_badge, { level });
  return h("span.chip.chip-bot", { title: words, dataset: { bot: info.player.bot } }, words);
}
