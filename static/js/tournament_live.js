// @ts-check
// A tournament's live pages (games/templates/games/tournaments/standings.html and desk.html,
// issue #26 items 6-7): while the page is visible, ask the JSON door named in the
// "tournament-live-config" script every few seconds and redraw the standings' or the desk's
// table body from it. Text only (textContent): names are players' own words.

/**
 * @typedef {{url: string, seconds: number}} LiveConfig
 * @typedef {{rank: number, entrant: number, name: string, match_points: number,
 *   card_points: number, buchholz: number, parties: number, won: number, won_text: string,
 *   prize_eligible: boolean}} StandingRow
 * @typedef {{id: number, table: number, names: string[], phase: string, deal: number,
 *   totals: number[] | null, paused: boolean, away: number[]}} DeskRow
 */

/** The column heads of the table of `body`: each cell's `data-label`, which a phone shows
 * beside the value when the table's rows become cards (site.css `.phone-cards`).
 * @param {HTMLTableSectionElement} body @returns {string[]} */
function labels(body) {
  const head = body.parentElement instanceof HTMLTableElement ? body.parentElement.tHead : null;
  return head && head.rows[0] ? [...head.rows[0].cells].map((th) => th.textContent || "") : [];
}

/** @param {(string | number)[]} cells @param {string} key @param {number} id
 * @param {string[]} heads */
function row(cells, key, id, heads) {
  const tr = document.createElement("tr");
  tr.dataset[key] = String(id);
  cells.forEach((text, i) => {
    const td = document.createElement("td");
    td.textContent = String(text);
    td.dataset.label = heads[i] || "";
    tr.append(td);
  });
  return tr;
}

/** @param {HTMLTableSectionElement} body @param {StandingRow[]} rows */
function drawStandings(body, rows) {
  const heads = labels(body);
  body.replaceChildren(...rows.map((r) => {
    const tr = row([r.rank, r.name + (r.prize_eligible ? "" : " *"), r.match_points,
      r.card_points, r.buchholz, r.parties, r.won], "entrant", r.entrant, heads);
    tr.lastElementChild?.setAttribute("title", r.won_text);
    return tr;
  }));
}

/** @param {HTMLTableSectionElement} body @param {DeskRow[]} rows */
function drawDesk(body, rows) {
  const heads = labels(body);
  body.replaceChildren(...rows.map((t) => row([t.table, t.names.join(", "),
    t.phase + (t.paused ? " ⏸" : ""), t.deal, t.totals ? `${t.totals[0]} : ${t.totals[1]}` : "",
    t.away.map((s) => s + 1).join(", ")], "table", t.id, heads)));
}

function start() {
  const node = document.getElementById("tournament-live-config");
  if (!node) return;
  /** @type {LiveConfig} */
  const config = JSON.parse(node.textContent || "{}");
  const standings = document.querySelector("[data-standings] tbody");
  const desk = document.querySelector("[data-desk-tables] tbody");
  async function refresh() {
    if (document.visibilityState !== "visible") return;
    try {
      const response = await fetch(config.url, {credentials: "same-origin",
        headers: {Accept: "application/json"}});
      if (!response.ok) return;
      const body = await response.json();
      if (standings instanceof HTMLTableSectionElement && body.standings) {
        drawStandings(standings, body.standings);
      }
      if (desk instanceof HTMLTableSectionElement && body.tables && body.tables.length) {
        drawDesk(desk, body.tables);
      }
    } catch {
      // A missed refresh is taken again at the next tick.
    }
  }
  window.setInterval(refresh, Math.max(2, config.seconds || 10) * 1000);
  document.addEventListener("visibilitychange", refresh);
}

start();
