// @ts-check
// A tournament's live pages (games/templates/games/tournaments/tournament.html, standings.html
// and desk.html; docs/decisions.md "Live standings: pushed on the site socket, polled as a
// fallback"). When the site socket says the tournament changed (a "tournament" frame, which
// static/js/site_socket.js passes on as a "troccas:site" event), the page reads its door again
// at once and redraws. Besides, it asks every `seconds` while it is visible: 30 s behind a site
// socket, for a frame lost while the socket was away; 10 s for a visitor who is not signed in
// (no site socket) and on the desk, whose tables' deals and totals move with every card and
// are no tournament change.
// The standings and the desk read their JSON door and redraw their table body, the standings
// their rounds' statuses too (text only, textContent: names are players' own words). The tournament page reads its own HTML and
// swaps its [data-live-region] parts: its sentences and buttons are the viewer's own, in the
// viewer's language; the desk does the same when its round moved on (new tables, new forms).

/**
 * @typedef {{json: string | null, page: string | null, seconds: number, tournament: number,
 *   round: {number: number, status: string} | null}} LiveConfig
 * @typedef {{rank: number, entrant: number, name: string, match_points: number,
 *   card_points: number, buchholz: number, parties: number, won: number, won_text: string,
 *   prize_eligible: boolean}} StandingRow
 * @typedef {{id: number, table: number, names: string[], phase: string, deal: number,
 *   totals: number[] | null, paused: boolean, away: number[]}} DeskRow
 * @typedef {{number: number, status: string} | null} DeskRound
 * @typedef {{number: number, status: string, status_text: string}} RoundRow
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

/**
 * The standings page's list of rounds: each one's status in words.
 * @param {RoundRow[]} rounds
 */
function drawRounds(rounds) {
  for (const r of rounds) {
    const node = document.querySelector(`[data-round-status="${r.number}"]`);
    if (node) node.textContent = r.status_text;
  }
}

/** @param {DeskRound | undefined} round */
function roundKey(round) {
  return round ? `${round.number}:${round.status}` : "";
}

/**
 * The page as the server draws it now: each [data-live-region] part of this page replaced by
 * the same part of the fresh one (the server's own escaped HTML; a parsed document runs no
 * script).
 * @param {string} url
 */
async function swapRegions(url) {
  const response = await fetch(url, { credentials: "same-origin",
    headers: { Accept: "text/html" } });
  if (!response.ok) return;
  const fresh = new DOMParser().parseFromString(await response.text(), "text/html");
  for (const mine of document.querySelectorAll("[data-live-region]")) {
    if (!(mine instanceof HTMLElement)) continue;
    const name = CSS.escape(mine.dataset.liveRegion || "");
    const theirs = fresh.querySelector(`[data-live-region="${name}"]`);
    if (!theirs) continue;
    const incoming = /** @type {HTMLElement} */ (document.importNode(theirs, true));
    keepTyped(mine, incoming);
    mine.replaceWith(incoming);
  }
}

/**
 * A result sheet the director is typing stays as typed (and focused) when its region is
 * drawn again: a push for another table must not wipe it.
 * @param {HTMLElement} mine
 * @param {HTMLElement} incoming
 */
function keepTyped(mine, incoming) {
  const focused = document.activeElement;
  for (const area of mine.querySelectorAll("[data-sheet] textarea")) {
    if (!(area instanceof HTMLTextAreaElement) || !area.value) continue;
    const sheet = area.closest("[data-sheet]");
    const key = sheet instanceof HTMLElement ? CSS.escape(sheet.dataset.sheet || "") : "";
    const twin = incoming.querySelector(`[data-sheet="${key}"] textarea`);
    if (!(twin instanceof HTMLTextAreaElement)) continue;
    twin.value = area.value;
    if (area === focused) {
      queueMicrotask(() => {
        twin.focus();
        twin.setSelectionRange(area.selectionStart, area.selectionEnd);
      });
    }
  }
}

function start() {
  const node = document.getElementById("tournament-live-config");
  if (!node) return;
  /** @type {LiveConfig} */
  const config = JSON.parse(node.textContent || "{}");
  // Where the page keeps what it last did (data-redrawn: push, poll or show), for the tests
  // and for anyone wondering whether the page is live.
  const marker = document.querySelector("[data-watch-tournament]");
  let round = roundKey(config.round);

  async function redraw() {
    if (!config.json) {
      if (config.page) await swapRegions(config.page);
      return;
    }
    const response = await fetch(config.json, { credentials: "same-origin",
      headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const body = await response.json();
    const standings = document.querySelector("[data-standings] tbody");
    if (standings instanceof HTMLTableSectionElement && body.standings) {
      drawStandings(standings, body.standings);
    }
    if (Array.isArray(body.rounds)) drawRounds(body.rounds);
    const desk = document.querySelector("[data-desk-tables] tbody");
    if (desk instanceof HTMLTableSectionElement && body.tables) {
      const now = roundKey(body.round);
      if (config.page && now !== round) {
        // Another round (or its next step): its tables, forms and sentences come with it.
        round = now;
        await swapRegions(config.page);
      } else if (body.tables.length) {
        drawDesk(desk, body.tables);
      }
    }
  }

  let busy = false;
  /** @type {string | null} */
  let queued = null;

  /** @param {string} why push, poll or show */
  async function refresh(why) {
    if (document.visibilityState !== "visible") return; // read again when shown
    if (busy) { // one read at a time; a change meanwhile is read once more after it
      queued = why;
      return;
    }
    busy = true;
    try {
      await redraw();
      if (marker instanceof HTMLElement) {
        marker.dataset.redrawn = why;
        marker.dataset.redraws = String(Number(marker.dataset.redraws || "0") + 1);
      }
    } catch {
      // A missed read is taken again at the next frame or tick.
    } finally {
      busy = false;
      if (queued !== null) {
        const next = queued;
        queued = null;
        void refresh(next);
      }
    }
  }

  document.addEventListener("troccas:site", (event) => {
    if (!(event instanceof CustomEvent)) return;
    /** @type {{type?: string, tournament?: number}} */
    const frame = event.detail;
    if (frame.type === "tournament" && frame.tournament === config.tournament) {
      void refresh("push");
    }
  });
  window.setInterval(() => void refresh("poll"), Math.max(2, config.seconds || 30) * 1000);
  document.addEventListener("visibilitychange", () => void refresh("show"));
}

start();
