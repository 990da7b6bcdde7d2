// @ts-check
// The bar above the felt: both teams' totals and tricks, the deal and phase, the Bock and Narr
// debt badges, and the "last trick" and help buttons.

import { fmt, h, patch } from "../dom.js";
import { barExtras, extrasKey, watchingChip } from "./bar_extras.js";

/**
 * @import { Table } from "../render.js"
 * @import { Bock, TeamId } from "../protocol.js"
 */

/** @param {Table} t */
export function renderBar(t) {
  const v = t.current;
  const S = t.S;
  const key = JSON.stringify([v.totals, v.tricks_won, v.deal_number, v.match_deals, v.bock,
    v.narr_debt, v.phase, v.team, !!v.last_trick, t.showLast, extrasKey(t)]);
  patch(t.bar, key, () => {
    /** @param {TeamId} tm */
    const score = (tm) => h(`div.score.team-${tm.toLowerCase()}${v.team === tm ? ".mine" : ""}`, null,
      h("span.tag", { "aria-hidden": "true" }, tm),
      h("span.score-label", null, t.teamName(tm)),
      h("strong.score-total", { title: S.match_total }, v.totals[tm]),
      h("span.score-tricks", { title: S.tricks }, `${S.tricks} ${v.tricks_won[tm]}`));
    const dealText = v.match_deals
      ? fmt(S.deal_n_of, { n: v.deal_number, total: v.match_deals })
      : fmt(S.deal_n, { n: v.deal_number });
    const items = [score("A"), score("B"),
      h("div.deal-info", null, h("strong", null, dealText), h("span.phase", null,
        S[`phase_${v.phase}`] || v.phase))];
    /** @type {Partial<Bock>} */
    const b = v.bock || {};
    const over = v.phase === "ROUND_OVER" || v.phase === "MATCH_OVER";
    const left = (b.pending || 0) + (b.is_bock && !over ? 1 : 0);
    if (b.enabled && (b.is_bock || left > 0)) {
      items.push(h("span.badge.badge-bock", { title: b.is_bock ? S.bock_deal : "" },
        b.is_bock ? `${S.bock} ×2` : S.bock, left > 0 ? ` · ${fmt(left === 1 ? S.bock_left_one : S.bock_left, { n: left })}` : ""));
    }
    if (v.narr_debt) {
      const d = v.narr_debt;
      const text = fmt(d.status === "settled" ? S.narr_settled : S.narr_pending,
        { debtor: t.teamName(d.debtor), creditor: t.teamName(d.creditor) });
      items.push(h(`span.badge.badge-narr.${d.status}`, { title: text },
        h("span.visually-hidden", null, text),
        h("span", { "aria-hidden": "true" }, `${S.narr_debt}: ${d.debtor} → ${d.creditor}`,
          d.status === "settled" ? " ✓" : " …")));
    }
    const watching = watchingChip(t);
    if (watching) items.push(watching);
    items.push(h("span.bar-buttons", null,
      h("button.button.button-secondary.button-small-solid", {
        type: "button", "data-action": "last-trick", "aria-pressed": String(t.showLast),
        disabled: !v.last_trick, onclick: () => t.toggleLast() }, S.last_trick),
      h("button.button.button-secondary.button-small-solid.help-button", {
        type: "button", popovertarget: "help-pop", "aria-label": S.help, title: S.help }, "?"),
      ...barExtras(t)));
    return items;
  });
}
