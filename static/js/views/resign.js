// @ts-check
// The Resign button (issue #24): a seated player gives the running match up, after saying so
// in a confirm; the server ends it, won by the other team (docs/protocol.md, `resign`).

import { h } from "../dom.js";

/** @import { Table } from "../render.js" */

/**
 * The button, or null where there is nothing to give up: a spectator, the lobby, a match over.
 * @param {Table} t
 */
export function resignButton(t) {
  const v = t.current;
  const running = v.match !== null && v.match.status === "running"
    && v.phase !== "LOBBY" && v.phase !== "MATCH_OVER";
  if (v.seat === null || !running) return null;
  return h("button.button.button-resign", { type: "button", "data-action": "resign",
    onclick: () => {
      // The player's own say, asked once more: resigning cannot be taken back.
      if (window.confirm(t.S.resign_confirm)) t.ctx.command("resign");
    } }, t.S.resign);
}
