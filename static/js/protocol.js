// @ts-check
// The live table's protocol as the browser sees it (docs/protocol.md §4–§7): types only.
// Nothing here runs and nothing imports it at run time: modules name these types with
// `@import`, which the type checker reads and the browser never fetches.
//
// The `view` is games/engine/views.py `view()` plus the room around it added by
// games/services/snapshot.py `TableSnapshot.view_for`.

/** @import { Suit } from "./suits.js" */

// --- vocabulary (protocol §1) ---------------------------------------------------------------

/**
 * A card id: "C1"…"C10", "CJ", "CN", "CQ", "CK" (likewise R, S, B), "T1"…"T21" or "NARR".
 * @typedef {string} CardId
 */
/** @typedef {"A" | "B"} TeamId */
/** @typedef {"LOBBY" | "DEALING" | "REVEAL" | "SCART" | "PLAY" | "ROUND_OVER" | "MATCH_OVER"} Phase */
/** @typedef {{ A: number, B: number }} TeamNumbers */
/** A card on the table with the seat (0–3) that played it. @typedef {[number, CardId]} PlayedCard */
/** How a BUOB call is carried out (RULES.md §8). @typedef {"forced" | "deferred" | "self"} BuobMode */

/**
 * The house rules (RULES.md §14, protocol §1).
 * @typedef {object} RoomOptions
 * @property {number} reveal_seconds 2–30
 * @property {boolean} reveal_persist
 * @property {"honours" | "none" | "honours_and_trumps"} scart_forbidden
 * @property {"any" | "king_team"} buob_caller
 * @property {"any" | "owner"} regame_by
 * @property {number} match_deals 4, 8, 12, 16, or 0 = unlimited
 * @property {boolean} bock
 * @property {Array<"tie" | "all_tricks">} bock_triggers
 * @property {number} turn_seconds 0 = no turn timer, or 15–120
 * @property {number} [stand_in_seconds] 0 = no stand-in bot, or 1–600 s away before one plays
 * @property {"free" | "phrases" | "silent"} [table_talk] what the table talk allows (issue #17)
 */

// --- the view (protocol §6) -----------------------------------------------------------------

/**
 * What the receiver may send now (games/engine/rules.py `legal_actions`); all false or empty
 * for spectators.
 * @typedef {object} Actions
 * @property {boolean} deal may send deal_next_pass
 * @property {boolean} scart may send discard_scart
 * @property {CardId[]} scart_allowed cards the Scart may take
 * @property {boolean} play it is the receiver's turn
 * @property {CardId[]} legal_cards
 * @property {Suit[]} buob_suits
 * @property {boolean} regame
 * @property {boolean} end_match
 * @property {boolean} new_match
 */

/**
 * @typedef {object} Bock
 * @property {boolean} enabled the Bock house rule is on
 * @property {number} pending Bock deals owed
 * @property {boolean} is_bock this deal is one
 * @property {number} multiplier 1 or 2
 */

/**
 * A BUOB call. In a completed trick it also says which card went back (`returned_card`).
 * @typedef {object} BuobCall
 * @property {number} caller
 * @property {Suit} suit
 * @property {number} target
 * @property {BuobMode} mode
 * @property {CardId | null} [returned_card] only in a completed trick
 */

/**
 * A trick, open or completed.
 * @typedef {object} Trick
 * @property {number} number 1–19
 * @property {number} leader
 * @property {PlayedCard[]} cards in play order
 * @property {Suit | "T" | null} led set by the first card that is not the Narr
 * @property {number | null} winner
 * @property {BuobCall | null} buob
 */

/**
 * @typedef {object} NarrDebt
 * @property {TeamId} debtor
 * @property {TeamId} creditor
 * @property {number} trick
 * @property {"pending" | "settled"} status
 * @property {number | "end" | null} settled_at the trick where it was paid, or "end"
 * @property {CardId | null} paid_card only after the deal
 */

/**
 * Everything of a deal once it is over (ROUND_OVER, MATCH_OVER).
 * @typedef {object} Review
 * @property {Record<string, CardId[]>} dealt_hands by seat "0"…"3"
 * @property {Trick[]} tricks
 * @property {{ A: CardId[], B: CardId[] }} piles
 * @property {TeamNumbers} points
 * @property {boolean} bock_triggered
 * @property {number} multiplier
 */

/**
 * A player; `bot` is a bot's level ("beginner", "easy", "medium", "strong"), null or absent for a person.
 * @typedef {{ id: number, name: string, bot?: string | null, own_name?: string }} Player
 */

/**
 * @typedef {object} Room
 * @property {string} code
 * @property {string} name
 * @property {Player} owner
 * @property {"public" | "private"} visibility
 * @property {boolean} allow_spectators
 * @property {boolean} closed
 * @property {RoomOptions} options the room's current house rules (for the next match)
 */

/**
 * A seated player.
 * @typedef {object} SeatInfo
 * @property {number} index 0–3
 * @property {TeamId} team
 * @property {Player} player
 * @property {boolean} connected
 * @property {number | null} [away_since] Unix time since which a player without a live
 *   socket is away (the away clock); null when connected or unknown
 * @property {boolean} is_owner
 * @property {boolean} [stand_in] a bot plays this away player's seat now (issue #15)
 */

/**
 * A BUOB call of a scored deal (protocol §6 `match.deals`): the trick, caller and target seats,
 * the king's suit, the mode, and whether the caller's team took that trick.
 * @typedef {{ trick: number, caller: number, target: number, suit: Suit, mode: BuobMode,
 *   won: boolean }} SheetBuob
 */

/**
 * One scored deal of the match (protocol §6 `match.deals`), teams A and B in the arrays.
 * @typedef {object} SheetDeal
 * @property {number} number
 * @property {number} dealer
 * @property {boolean} bock
 * @property {[number, number]} points card points
 * @property {[number, number]} scored points added to the match (doubled in a Bock deal)
 * @property {[number, number]} running the match totals after this deal
 * @property {{ debtor: TeamId, creditor: TeamId, status: "pending" | "settled" } | null} narr_debt
 * @property {SheetBuob[]} buob
 */

/**
 * @typedef {{ id: number, number: number, status: "running" | "finished" | "abandoned",
 *   deals?: SheetDeal[], resigned?: { seat: number, name: string } | null,
 *   practice?: boolean, paused_at?: number | null }} MatchInfo `deals`
 *   only between deals and once the match is over; `resigned`: who gave the match up;
 *   `practice`: only bots besides one person, a table that waits for its person; `paused_at`:
 *   since when it waits (Unix time), null while it plays
 */

/**
 * Why the cards of the receiver's hand that `legal_cards` (for the dealer in SCART:
 * `actions.scart_allowed`) leaves out cannot be played now (protocol §6): the engine's code,
 * the cards its sentence names (the receiver's own: the cards the rule asks for instead) and
 * the suit led (MUST_FOLLOW_SUIT, MUST_PLAY_TRUMP; else null).
 * @typedef {object} Refusal
 * @property {string} code
 * @property {CardId[]} cards
 * @property {Suit | "T" | null} suit
 */

/**
 * Everything the receiver may know about the table (protocol §6).
 * @typedef {object} View
 * @property {Phase} phase
 * @property {number | null} seat the receiver's seat; null for a spectator
 * @property {TeamId | null} team
 * @property {number} dealer
 * @property {number} first_dealer
 * @property {number | null} turn
 * @property {RoomOptions} options the rules the table plays by
 * @property {TeamNumbers} totals
 * @property {number} deals_played
 * @property {number} match_deals
 * @property {TeamId | "draw" | null} winner
 * @property {Bock} bock
 * @property {number | null} deal_number
 * @property {CardId[]} hand
 * @property {number[]} hand_counts by seat
 * @property {CardId[]} legal_cards
 * @property {Refusal | null} refusal why the other cards of `hand` cannot be played now
 * @property {Actions} actions
 * @property {Record<string, CardId> | null} reveal by seat "0"…"3"
 * @property {CardId[] | null} scart
 * @property {number} scart_count
 * @property {Trick | null} trick
 * @property {Trick | null} last_trick
 * @property {number} tricks_played
 * @property {TeamNumbers} tricks_won
 * @property {TeamNumbers} pile_counts
 * @property {{ call: BuobCall | null, suits: Suit[] } | null} buob in PLAY
 * @property {NarrDebt | null} narr_debt
 * @property {Review | null} review
 * @property {Room} room
 * @property {SeatInfo[]} seats by seat
 * @property {MatchInfo | null} match
 * @property {number | null} deadline Unix time in seconds
 * @property {"reveal" | "turn" | null} deadline_kind
 */

// --- events (protocol §7) -------------------------------------------------------------------

/** @typedef {{ type: "round_started", number: number, dealer: number, is_bock: boolean }} RoundStartedEvent */
/** @typedef {{ type: "pass_dealt", pass: number, counts: number[], auto: boolean }} PassDealtEvent */
/** @typedef {{ type: "reveal_shown", reveal: Record<string, CardId> }} RevealShownEvent */
/** @typedef {{ type: "reveal_ended" }} RevealEndedEvent */
/**
 * `cards` is sent to the dealer only.
 * @typedef {{ type: "scart_discarded", dealer: number, count: number, auto: boolean, cards?: CardId[] }} ScartDiscardedEvent
 */
/** @typedef {{ type: "card_played", seat: number, card: CardId, trick: number, auto: boolean }} CardPlayedEvent */
/** @typedef {{ type: "buob_called", caller: number, suit: Suit, target: number, mode: BuobMode, trick: number }} BuobCalledEvent */
/**
 * A BUOB call refused because of where a jack lies: public (RULES §8). `suit` as named, or null.
 * @typedef {{ type: "buob_refused", caller: number, suit: Suit | null, code: string, trick: number }} BuobRefusedEvent
 */
/** @typedef {{ type: "buob_resolved", target: number, returned_card: CardId | null, jack: CardId, trick: number }} BuobResolvedEvent */
/** @typedef {{ type: "trick_won", trick: number, winner: number, team: TeamId, cards: PlayedCard[] }} TrickWonEvent */
/** @typedef {{ type: "narr_debt_created", trick: number, debtor: TeamId, creditor: TeamId }} NarrDebtCreatedEvent */
/**
 * `card` only when `settled_at` is "end".
 * @typedef {{ type: "narr_debt_settled", debtor: TeamId, creditor: TeamId, settled_at: number | "end", card?: CardId }} NarrDebtSettledEvent
 */
/**
 * @typedef {{ type: "deal_scored", number: number, points: TeamNumbers, multiplier: number,
 *   totals: TeamNumbers, tricks_won: TeamNumbers, bock_triggered: boolean, triggers: string[] }} DealScoredEvent
 */
/** @typedef {{ type: "match_over", winner: TeamId | "draw", totals: TeamNumbers }} MatchOverEvent */
/** @typedef {{ type: "match_reset" }} MatchResetEvent */

/**
 * @typedef {RoundStartedEvent | PassDealtEvent | RevealShownEvent | RevealEndedEvent
 *   | ScartDiscardedEvent | CardPlayedEvent | BuobCalledEvent | BuobRefusedEvent
 *   | BuobResolvedEvent | TrickWonEvent | NarrDebtCreatedEvent | NarrDebtSettledEvent
 *   | DealScoredEvent | MatchOverEvent | MatchResetEvent} GameEvent
 */

// --- server messages (protocol §5) ----------------------------------------------------------

/**
 * The table at `version`. Protocol 2: a change's frame carries its `events` (for animation;
 * the view is the truth); a welcome or `sync` answer has none.
 * @typedef {{ type: "state", version: number, view: View, events?: GameEvent[] }} StateMessage
 */
/** @typedef {{ type: "ack", action_id: string, version: number, duplicate: boolean }} AckMessage */
/** @typedef {{ type: "error", code: string, message: string, action_id: string | null }} ErrorMessage */
/**
 * @typedef {{ type: "presence", connected: number[],
 *   away_since?: Record<string, number | null>, watching?: number }} PresenceMessage
 *   away_since: by user id, since when each seated player without a live socket is away;
 *   watching: how many people without a seat have the table open (a count, never who)
 */
/** @typedef {{ type: "pong" }} PongMessage */
/**
 * One option of a hint (issue #28): a card (with the cards that play alike, and whether the
 * advice attaches a BUOB call to this king) or a pair for the Scart; `points` the asker's
 * team's expected card points at the deal's end, `behind` its difference to the best (<= 0).
 * @typedef {{ type: "play_card", card: CardId, same: CardId[], call_buob: boolean,
 *   points: number, behind: number }
 *   | { type: "discard_scart", cards: CardId[], points: number, behind: number }} HintOption
 */
/**
 * The strong bot's advice, to the asking socket alone, for the table's `version` then.
 * @typedef {{ type: "hint", action_id: string | null, version: number,
 *   kind: "play" | "scart", options: HintOption[],
 *   call: { suit: Suit, chance: number } | null }} HintMessage
 */

/**
 * Every frame the server sends.
 * @typedef {StateMessage | AckMessage | ErrorMessage | PresenceMessage
 *   | PongMessage | HintMessage} ServerMessage
 */

// --- client messages (protocol §4) ----------------------------------------------------------

/**
 * Each command's own fields, by command type.
 * @typedef {object} CommandFields
 * @property {{}} start_round
 * @property {{}} deal_next_pass
 * @property {{ cards: CardId[] }} discard_scart
 * @property {{ card: CardId, call_buob?: boolean, buob_suit?: Suit | null }} play_card
 * @property {{ suit?: Suit | null }} call_buob
 * @property {{}} regame
 * @property {{}} end_match
 * @property {{}} new_match
 * @property {{ match: number }} rematch
 * @property {{}} resign
 * @property {{ team: TeamId, index?: number | null }} take_seat
 * @property {{}} leave_seat
 * @property {{ player: number, index: number }} move_player
 * @property {{ player: number }} kick
 * @property {{ player: number }} transfer_owner
 * @property {{ options?: Partial<RoomOptions>, visibility?: "public" | "private",
 *   allow_spectators?: boolean, name?: string }} set_options
 * @property {{}} close_room
 * @property {{ index: number, level: string }} seat_bot
 * @property {{ index: number }} remove_bot
 */

/** @typedef {keyof CommandFields} CommandType */

/**
 * A command: its type, a fresh `action_id`, the version it was made on, and its fields.
 * @template {CommandType} K
 * @typedef {{ type: K, action_id: string, expected_version: number } & CommandFields[K]} Command
 */

/** @typedef {{ type: "ping" } | { type: "sync" }} ControlMessage */
/** A request that changes nothing: an `action_id`, no version. @typedef {{ type: "hint",
 *   action_id: string }} AskMessage */

/** Every frame the client sends.
 * @typedef {Command<CommandType> | ControlMessage | AskMessage} ClientMessage */

export {};
