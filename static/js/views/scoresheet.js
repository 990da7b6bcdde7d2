// @ts-check
// The score sheet over the table once a deal is over: tricks, cards, points, multiplier and
// totals of both teams, the Bock and Narr notes, both won piles and the Scart, and the
// buttons for the next deal (or, at the end of a match, the final result, every deal of the
// match, its replay and "same four again").

import { fmt, forget, h, patch } from "../dom.js";

/**
 * @import { Table } from "../render.js"
 * @import { SheetDeal, TeamId } from "../protocol.js"
 */

/** @type {TeamId[]} */
const TEAMS = ["A", "B"];

/** @param {Table} t */
export function renderOverlay(t) {
  const v = t.current;
  const S = t.S;
  const review = (v.phase === "ROUND_OVER" || v.phase === "MATCH_OVER") && v.review;
  // Closed by its button or Esc (issue #24 item 7): the score bar's "Score sheet" brings it
  // back, and nothing of it covers the table meanwhile.
  t.overlay.hidden = !review || t.sheetClosed;
  if (!review) { forget(t.overlay); return; }
  const key = JSON.stringify([v.review, v.totals, v.actions, v.phase, v.winner, t.showPiles,
    t.isOwner(), v.room.options.regame_by, v.tricks_won, v.narr_debt, v.match, v.seat]);
  patch(t.overlay, key, () => {
    const r = review;
    const owner = t.isOwner();
    const mult = r.multiplier || 1;
    /** @type {Array<[string, string | number, string | number]>} */
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
        TEAMS.map((tm) => h(`th.team-${tm.toLowerCase()}`, { scope: "col" },
          h("span.tag", { "aria-hidden": "true" }, tm), " ", t.teamName(tm))))),
      h("tbody", null, rows.map(([label, a, b], i) => h(`tr${i === rows.length - 1 ? ".total" : ""}`, null,
        h("th", { scope: "row" }, label), h("td", null, a), h("td", null, b)))));
    const parts = [
      h("h2", { id: "score-title" }, fmt(S.score_title, { n: v.deal_number })),
      h("p.result", null, t.resultText(r.points)),
      sheet,
    ];
    if (r.bock_triggered) parts.push(h("p.badge.badge-bock.block", null, S.bock_triggered));
    if (v.narr_debt) {
      parts.push(h("p.muted", null, fmt(v.narr_debt.status === "settled" ? S.narr_settled : S.narr_pending,
        { debtor: t.teamName(v.narr_debt.debtor), creditor: t.teamName(v.narr_debt.creditor) }),
      v.narr_debt.paid_card ? ` (${t.cardName(v.narr_debt.paid_card)})` : ""));
    }
    const details = h("details.piles", { open: t.showPiles,
      ontoggle: (e) => { t.showPiles = /** @type {HTMLDetailsElement} */ (e.target).open; } },
    h("summary", null, S.show_piles),
    TEAMS.map((tm) => h(`div.pile.team-${tm.toLowerCase()}`, null,
      h("h3", null, t.teamName(tm)),
      h("div.pile-cards", null, r.piles[tm].map((id) => t.card(id))))),
    v.scart ? h("div.pile", null, h("h3", null, S.scart_was),
      h("div.pile-cards", null, v.scart.map((id) => t.card(id)))) : null);
    parts.push(details);
    const buttons = [];
    // Issue #28 item 3: a seated player's review of their play in the deal just scored (the
    // lesson's table has no match of its own: id 0).
    if (v.seat !== null && v.match && v.match.id && v.deal_number) {
      buttons.push(h("a.button.button-secondary", {
        href: `${t.ctx.cfg.matches}${v.match.id}/deals/${v.deal_number}/review/`,
        "data-action": "review", target: "_blank", rel: "noopener" }, S.review_link));
    }
    if (v.phase === "MATCH_OVER") {
      parts.unshift(h("div.match-over", null, h("h2", null, S.match_over),
        h("p.winner", null, v.winner === "draw" ? S.match_draw
          : fmt(S.match_winner, { team: t.teamName(v.winner) })),
        h("p.final", null, t.scorePair(v.totals))));
      const match = v.match;
      if (match && match.deals) parts.splice(1, 0, dealsTable(t, match.deals));
      if (match && match.status === "finished" && (v.seat !== null || v.room.visibility === "public")) {
        // The match's page holds its replay (games/history/access.py: its players, and
        // everyone signed in for a public room's match, once it is finished).
        buttons.push(h("a.button.button-secondary", { href: `${t.ctx.cfg.matches}${match.id}/`,
          "data-action": "replay", target: "_blank", rel: "noopener" }, S.replay_link));
      }
      if (match && v.actions.new_match) {
        // Seated players only (the engine's actions are empty for spectators).
        const allowed = v.room.options.regame_by !== "owner" || owner;
        buttons.push(h("button.button.button-action", { type: "button", "data-action": "same-four",
          disabled: !allowed, title: allowed ? "" : S.same_four_owner_only,
          onclick: () => t.ctx.command("rematch", { match: match.id }) }, S.same_four));
        if (!allowed) buttons.push(h("span.muted", null, S.same_four_owner_only));
      }
      if (owner && v.actions.new_match) {
        buttons.push(h("button.button.button-secondary", { type: "button", "data-action": "new-match",
          onclick: () => t.ctx.command("new_match") }, S.new_match));
      } else if (!v.actions.new_match) {
        // A spectator: the players decide what comes next.
        buttons.push(h("p.muted", null, S.wait_new_match));
      }
    } else if (v.actions.regame) {
      const allowed = v.room.options.regame_by !== "owner" || owner;
      buttons.push(h("button.button.button-action", { type: "button", "data-action": "regame",
        disabled: !allowed, title: allowed ? "" : S.regame_owner_only,
        onclick: () => t.ctx.command("regame") }, S.regame));
      if (!allowed) buttons.push(h("span.muted", null, S.regame_owner_only));
      if (owner && v.actions.end_match) {
        buttons.push(h("button.button.button-secondary", { type: "button", "data-action": "end-match",
          onclick: () => t.ctx.command("end_match") }, S.end_match));
      }
    }
    const actions = h("div.overlay-actions", null, buttons);
    // At the end of a match the way on (replay, same four again) comes right after the result
    // and the deal list, above this last deal's own scoring.
    if (v.phase === "MATCH_OVER") parts.splice(v.match && v.match.deals ? 2 : 1, 0, actions);
    else parts.push(actions);
    // First in the sheet, so the keyboard reaches it at once; it stays in the sheet's corner.
    // Its name is its visible word; the sheet's title describes what it closes.
    const close = h("button.button.button-secondary.button-small-solid.sheet-close", { type: "button",
      "data-action": "close-sheet", "aria-describedby": "score-title", title: S.close_sheet,
      onclick: () => t.closeSheet() }, S.close);
    return h("div.sheet", { role: "region", "aria-labelledby": "score-title" }, close, parts);
  });
}

/**
 * The match deal by deal: card points of both teams (a Bock deal's doubled) with the running
 * totals under them and the Bock; under a deal, its Narr debt and BUOB calls in words (a row
 * of their own, so the table stays four columns wide on a phone); the last row is the final
 * total.
 * @param {Table} t
 * @param {SheetDeal[]} deals
 */
function dealsTable(t, deals) {
  const S = t.S;
  /**
   * A team's card points (×2 in a Bock deal) and, under them, the match total so far.
   * @param {SheetDeal} d
   * @param {number} i
   */
  const cell = (d, i) => h("td", null, h("span.sheet-points", null, d.bock ? `${d.points[i]} ×2` : String(d.points[i])),
    h("span.sheet-running", { title: S.col_running }, h("span.visually-hidden", null, `${S.col_running}: `),
      `Σ ${d.running[i]}`));
  const body = deals.flatMap((d) => {
    const notes = [];
    if (d.narr_debt) {
      notes.push(h("p.sheet-narr", null, fmt(d.narr_debt.status === "settled" ? S.narr_settled : S.narr_pending,
        { debtor: t.teamName(d.narr_debt.debtor), creditor: t.teamName(d.narr_debt.creditor) })));
    }
    for (const c of d.buob) {
      /** @type {TeamId} */
      const callers = c.caller % 2 === 0 ? "A" : "B";
      const took = c.won ? callers : callers === "A" ? "B" : "A";
      notes.push(h("p.sheet-buob", null, t.buobText(c), " ", fmt(S.buob_took, { team: t.teamName(took) })));
    }
    const row = h(`tr.sheet-deal${d.bock ? ".bock" : ""}`, { "data-deal": d.number },
      h("th", { scope: "row" }, fmt(S.deal_n, { n: d.number })),
      cell(d, 0),
      cell(d, 1),
      h("td.sheet-bock", null, d.bock ? S.bock_double : "—"));
    return notes.length
      ? [row, h("tr.sheet-notes", { "data-notes-for": d.number }, h("td", { colspan: 4 }, notes))]
      : [row];
  });
  const last = deals[deals.length - 1];
  const final = last ? h("tr.total", null, h("th", { scope: "row" }, S.score_total),
    h("td", null, last.running[0]), h("td", null, last.running[1]), h("td")) : null;
  return h("div.sheet-deals", null,
    h("h3", { id: "deals-title" }, S.deals_title),
    h("table.score-sheet.match-deals", { "aria-labelledby": "deals-title" },
      h("thead", null, h("tr", null,
        h("th", { scope: "col" }, S.col_deal),
        h("th.team-a", { scope: "col" }, t.teamName("A")),
        h("th.team-b", { scope: "col" }, t.teamName("B")),
        h("th", { scope: "col" }, S.col_bock))),
      h("tbody", null, body, final)));
}
