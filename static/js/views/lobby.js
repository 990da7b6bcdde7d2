// @ts-check
// The lobby between matches: both teams' seats with their controls, the start button, and the
// owner's panel (house rules, visibility, spectators, closing the room).

import { fmt, h, patch } from "../dom.js";
import { awayChip } from "./away.js";
import { BOT_LEVELS, DEFAULT_BOT_LEVEL, botChip } from "./bots.js";
import { team } from "./scene.js";

/**
 * @import { Table } from "../render.js"
 * @import { TeamId } from "../protocol.js"
 */

/** @param {Table} t */
export function renderLobby(t) {
  const v = t.current;
  const S = t.S;
  const me = t.me();
  const owner = t.isOwner();
  const closed = v.room.closed;
  const mine = (v.seats || []).find((s) => s.player.id === me);
  const key = JSON.stringify([v.seats, v.room, me]);
  patch(t.lobby, key, () => {
    /** @param {number} index */
    const slot = (index) => {
      const s = t.seatInfo(index);
      const tm = team(index);
      if (!s) {
        return h(`div.slot.free.team-${tm.toLowerCase()}`, { dataset: { index } },
          h("span.tag", { "aria-hidden": "true" }, tm),
          h("span.slot-name.muted", null, S.free_seat),
          closed ? null : h("button.button.button-small-solid", {
            type: "button", "data-action": "take-seat",
            "aria-label": `${S.take_seat} (${t.teamName(tm)})`,
            onclick: () => t.ctx.command("take_seat", { team: tm, index }),
          }, S.take_seat),
          owner && !closed ? seatBotControls(t, index) : null);
      }
      const isMe = s.player.id === me;
      const controls = [];
      if (s.player.bot && !closed) {
        // A bot's seat: the owner removes it; anyone else may sit there instead of it.
        if (owner) {
          controls.push(h("button.button.button-secondary.button-small-solid", {
            type: "button", "data-action": "remove-bot",
            onclick: () => t.ctx.command("remove_bot", { index }) }, S.remove_bot));
        }
        if (!mine || mine.index !== index) {
          controls.push(h("button.button.button-small-solid", {
            type: "button", "data-action": "take-seat",
            "aria-label": `${S.take_seat} (${t.teamName(tm)})`,
            onclick: () => t.ctx.command("take_seat", { team: tm, index }) }, S.take_seat));
        }
        return h(`div.slot.bot.team-${tm.toLowerCase()}`, { dataset: { index } },
          h("span.tag", { "aria-hidden": "true" }, tm),
          h("span.slot-name", null, t.dot(true), h("strong", null, s.player.name), botChip(t, s)),
          h("span.slot-controls", null, controls));
      }
      if (isMe && !closed) {
        controls.push(h("button.button.button-secondary.button-small-solid", {
          type: "button", "data-action": "leave-seat",
          onclick: () => t.ctx.command("leave_seat"),
        }, S.leave_seat));
      }
      if (owner && !isMe && !closed) {
        const move = h("select", { "aria-label": fmt(S.move_player, { name: s.player.name }),
          "data-action": "move",
          onchange: (e) => {
            const select = /** @type {HTMLSelectElement} */ (e.target);
            const to = Number(select.value);
            if (select.value !== "") t.ctx.command("move_player", { player: s.player.id, index: to });
          } },
        h("option", { value: "" }, S.move_to),
        [0, 1, 2, 3].filter((i) => i !== index).map((i) => h("option", { value: i },
          `${fmt(S.seat_n, { n: i + 1 })} · ${t.teamName(team(i))}`)));
        controls.push(move,
          h("button.link-button", { type: "button", "data-action": "make-owner",
            onclick: () => t.ctx.command("transfer_owner", { player: s.player.id }) },
          S.make_owner),
          h("button.link-button.danger-link", { type: "button", "data-action": "kick",
            onclick: () => {
              if (window.confirm(fmt(S.confirm_kick, { name: s.player.name }))) {
                t.ctx.command("kick", { player: s.player.id });
              }
            } }, S.kick));
      }
      return h(`div.slot.team-${tm.toLowerCase()}${isMe ? ".me" : ""}`, { dataset: { index } },
        h("span.tag", { "aria-hidden": "true" }, tm),
        h("span.slot-name", null,
          t.dot(s.connected),
          h("strong", null, s.player.name),
          isMe ? h("span.chip.chip-you", null, S.you) : null,
          s.is_owner ? h("span.chip.chip-owner", null, "★ ", S.owner) : null,
          awayChip(t, s)),
        controls.length ? h("span.slot-controls", null, controls) : null);
    };
    /**
     * @param {TeamId} tm
     * @param {number[]} seats
     */
    const col = (tm, seats) => h(`div.team-col.team-${tm.toLowerCase()}`, null,
      h("h2", null, h("span.tag", { "aria-hidden": "true" }, tm), " ", t.teamName(tm)),
      seats.map(slot));
    const seated = (v.seats || []).length;
    const teams = (v.seats || []).map((s) => team(s.index));
    const balanced = seated === 4 && teams.filter((tm) => tm === "A").length === 2;
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
            onclick: () => t.ctx.command("start_round") }, S.start_match),
          balanced ? null : h("span.muted", { id: "need-four" }, S.need_four)));
        parts.push(ownerPanel(t));
      } else {
        parts.push(h("p.muted", null, balanced ? S.waiting_owner : S.need_four));
      }
    }
    return parts;
  });
}

/**
 * The owner's controls of a free seat: a bot's level and the button that seats it.
 * @param {Table} t
 * @param {number} index
 */
function seatBotControls(t, index) {
  const S = t.S;
  const level = /** @type {HTMLSelectElement} */ (h("select", {
    "aria-label": fmt(S.bot_level_for, { n: index + 1 }), "data-action": "bot-level" },
  ...BOT_LEVELS.map((l) => h("option", { value: l, selected: l === DEFAULT_BOT_LEVEL }, S[`level_${l}`]))));
  return h("span.slot-controls.seat-bot", null, level,
    h("button.button.button-secondary.button-small-solid", {
      type: "button", "data-action": "seat-bot",
      onclick: () => t.ctx.command("seat_bot", { index, level: level.value }) }, S.seat_bot));
}

/**
 * The owner's controls of the room.
 * @param {Table} t
 */
function ownerPanel(t) {
  const S = t.S;
  const room = t.current.room;
  return h("details.owner-panel", { open: true },
    h("summary", null, S.owner_controls),
    h("div.owner-controls", null,
      h("button.button.button-secondary", { type: "button", "data-action": "edit-rules",
        onclick: () => t.ctx.editRules(room.options) }, S.edit_rules),
      h("label.inline", null, S.visibility, " ",
        h("select", { "data-action": "visibility",
          onchange: (e) => t.ctx.command("set_options", {
            visibility: /** @type {"public" | "private"} */ (
              /** @type {HTMLSelectElement} */ (e.target).value) }) },
        h("option", { value: "public", selected: room.visibility === "public" }, S.public),
        h("option", { value: "private", selected: room.visibility === "private" }, S.private))),
      h("label.inline", null,
        h("input", { type: "checkbox", checked: room.allow_spectators,
          "data-action": "spectators",
          onchange: (e) => t.ctx.command("set_options", {
            allow_spectators: /** @type {HTMLInputElement} */ (e.target).checked }) }),
        " ", S.spectators_allowed),
      h("button.button.button-danger", { type: "button", "data-action": "close-room",
        onclick: () => {
          if (window.confirm(S.confirm_close)) t.ctx.command("close_room");
        } }, S.close_room)));
}
