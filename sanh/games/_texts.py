"""Machine codes for the texts engines write for players: settlement line details, log entries.

Engines never write prose for players. A text is a *code*: one or more parts joined by ``|``,
each part a code name and its arguments joined by ``:``::

    odds:0.95|commission:4990          wins 0.95:1, commission 49.90
    pays_la:1:0:3|ordinary:3           p2 → p1: 3 lá, 3 ordinary cards
    raises_to:0:45000                  p1 raised to 450.00

The argument kinds are in each code's template: ``{seat0}`` (an engine seat), ``{gold0}`` (an
amount in minor units), ``{n0}`` (a number shown as is), ``{cards0}`` (card codes run together,
``Ks7d``), ``{value0}`` (a term translated as ``value.*``: a hand category, a play's kind),
``{item0}`` (a settlement item, translated as ``item.*``) and ``{action0}`` (an action type,
``Fold``, translated as ``action.*``). :data:`TEXTS` holds the English
template of every code; the web client's ``sanh/web/i18n.json`` holds ``text.<code>`` in
Vietnamese and English with the same placeholders (the tests check both), the terminal and the
CLI format with :func:`describe` or :func:`sanh.cli._texts.describe`.

Refusals are codes too: an engine that refuses an action raises
:class:`sanh.errors.IllegalActionError` with a code as its ``reason`` (``betting_closed``,
``cannot_check:500``), which the server sends to the client beside its English words.

The hall's own refusals are codes of :data:`SERVER_TEXTS`: a table's answers (``table_full``,
``buy_in_between:4000:20000``), the WebSocket's sign-in and limits, the HTTP API's errors
(``{"error": ..., "message": ..., "text": ...}``), account and clan refusals and the table
setups the lobby may not create (:class:`sanh.errors.ConfigError`'s ``text``: the hall's checks
and each game's own checks of its options, ``option_at_least:lieng.min_raise:1``).

Codes stay plain strings, so settlements and views keep their JSON form and hand histories
replay unchanged. A text that is not made of known codes (a record written before the codes)
is shown as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence

from sanh.cards.card import Card, parse_card
from sanh.types import format_gold

__all__ = [
    "KINDS",
    "REFUSALS",
    "SERVER_TEXTS",
    "TEXTS",
    "clean",
    "describe",
    "is_code",
    "join",
    "parse",
    "placeholders",
    "text",
]

KINDS = ("seat", "gold", "n", "cards", "value", "item", "action")
"""The kinds of argument a template may name."""

_DETAILS: Mapping[str, str] = {
    # ----- a bet against the house, the bank or the dealer --------------------------------
    "odds": "wins {n0}:1",
    "loses": "loses",
    "profit": "profit {gold0}",
    "fee": "fee {gold0}",
    "commission": "commission {gold0}",
    "bet_of": "{seat0}: bet on {item1}",
    "fee_on_net": "fee on the net win {gold0}",
    "fee_on_bank": "fee on the bank's net win {gold0}",
    "tie_refund": "tie: stake refunded",
    "house_net": "the house's net",
    "push": "push",
    "dealer_not_qualify": "the dealer does not qualify",
    "beats_dealer": "beats the dealer",
    "ties_dealer": "tie with the dealer",
    "loses_to_dealer": "loses to the dealer",
    "fold": "fold",
    "forced_fold": "forced fold ({value0})",
    "forfeit_fold": "forfeited by the fold",
    "hand": "{value0}",
    # ----- payments between players (Tiến lên, Sâm, Phỏm, 3 Cây) --------------------------
    "pays_la": "{seat0} → {seat1}: {n2} lá",
    "rounding": "rounding",
    "capped": "capped: owed {gold0}",
    "rounding_capped": "rounding of a capped payment",
    "ordinary": "{n0} ordinary cards",
    "special": "{value0}: {n1} lá",
    "cut_victim": "{value0} {cards1}",
    "cut_by": "cut by {value0} {cards1}",
    "place": "place {n0}",
    "eats": "{seat0} ate {cards1}",
    "left_table": "disconnected or left the table",
    "den": "pays for everyone (đền {item0})",
    "loses_to_banker": "loses to the banker",
    "beats_banker": "beats the banker",
    "walkover": "the only one able to pay",
    "ga_in": "pays into the gà",
    "winner_takes_all": "winner takes all",
    "ga_ten": "takes the gà with 10 points",
    "no_bets": "nobody bet",
    "too_few_players": "fewer than two players can pay",
    "no_cover": "nobody can cover the bank ({gold0})",
    "banker_left": "the banker left before the deal",
    # ----- the public log of a betting round (Hold'em) ------------------------------------
    "folds": "{seat0} folded",
    "checks": "{seat0} checked",
    "calls": "{seat0} called",
    "goes_all_in": "{seat0} went all-in",
    "raises_to": "{seat0} raised to {gold1}",
}
"""Settlement line details and log entries."""

REFUSALS: Mapping[str, str] = {
    # ----- any game (sanh/games/base.py) ------------------------------------------------
    "only_table_seats": "only the table seats a player",
    "no_such_seat": "no such seat",
    "stack_not_positive": "a stack must be a positive amount",
    "seat_not_empty": "{seat0} is not empty",
    "hand_over": "the hand is over",
    "hand_not_over": "the hand is not over",
    "game_not_over": "the game is not over",
    "no_chance_due": "no deal or roll is due",
    "not_an_action": "not an action",
    "waiting_deal": "waiting for the deal",
    "not_game_action": "not an action of this game",
    "seat_may_not_act": "{seat0} may not act now",
    "shuffle_due": "a shuffle is due",
    "not_permutation": "not a permutation of the deck",
    "roll_due": "a roll is due",
    "dice_needed": "needs {n0} dice of 1..{n1}",
    "not_possible_now": "{action0} is not possible now ({value1})",
    "leave_needs_seat": "leaving needs a seat",
    "needs_seat": "this action needs a seat",
    "no_longer_in_play": "that player is no longer in play",
    "not_your_turn": "not your turn",
    # ----- bets against the house or a bank (Tài Xỉu, Teen Patti, Three Card Poker) -----
    "betting_closed": "the betting window is closed",
    "only_table_closes": "only the table closes betting",
    "table_does_not_bet": "the table does not bet",
    "table_never_ready": "the table is never ready",
    "host_is_bank": "the host is the bank of this player table and cannot bet",
    "finished_betting": "{seat0} has finished betting this round",
    "nothing_to_confirm": "no chips placed to confirm",
    "confirm_first": "confirm or clear the chips placed first",
    "not_tai_xiu_action": "not a Tài Xỉu action",
    "no_bet_area_tai_xiu": (
        "no bet area '{n0}'; areas are small, big, single_1..6, combination_1_2..combination_5_6,"
        " total_4..17, double_1..6, triple_1..6, any_triple"
    ),
    "no_bet_area": "no bet area '{n0}'; areas: {n1}",
    "chips_not_positive": "chips must be a positive amount",
    "max_places": "at most {n0} placements per seat and round",
    "side_refused": "a bet on {value0} is placed this round: {value1} is refused",
    "under_table_min": "{value0} would hold {gold1}, under the table minimum {gold2}",
    "over_table_max": "{value0} would hold {gold1}, over the table maximum {gold2}",
    "over_balance": "{gold0} is over the balance {gold1}",
    "bank_cannot_reserve": (
        "the host's bank has {gold0} available and {value1} needs {gold2} reserved"
    ),
    "not_teen_patti_action": "not a Teen Patti action",
    "bet_not_positive": "a bet must be a positive amount",
    "max_bets": "at most {n0} bets per seat and round",
    "bet_over_balance": "bet {gold0} is over the balance {gold1}",
    "no_decision_open": "no Play/Fold decision is open now",
    "only_seat_ready": "only a seat may be ready",
    "only_table": "only the table may do this",
    "no_pending_decision": "{seat0} has no pending decision",
    "forced_reason": "reason must be one of {n0}",
    "no_decision": "this seat has no decision to make",
    "play_bet_short": "too little balance for the Play bet",
    "no_bet_spot": "no bet spot '{n0}' here; spots: {n1}",
    "whole_units": "the amount must be an integer number of units",
    "bet_placed": "the {value0} bet is already placed",
    "under_min_of": "under the table minimum of {gold0}",
    "over_max_of": "over the table maximum of {gold0}",
    "over_balance_of": "over the balance of {gold0}",
    # ----- betting rounds (Hold'em, Liêng, Xì tố) -----------------------------------------
    "not_seat_turn_to_bet": "not this seat's turn to bet",
    "no_raise_now": "no bet or raise is allowed now",
    "raise_at_least": "a raise must be to at least {gold0} (the minimum)",
    "raise_at_most": "a raise may be to at most {gold0} (the maximum)",
    "cannot_check": "cannot check: {gold0} to call",
    "all_in_unavailable": "all-in (Tất cả) is not available in this round",
    "nothing_to_call": "nothing to call: check instead",
    "not_round_action": "{action0} is not an action of this betting round",
    "not_dealt_in": "{seat0} is not dealt into this hand",
    "has_folded": "{seat0} has folded",
    "lieng_bet_only": "only Tố, Theo or Bỏ now",
    "betting_only": "only betting actions now",
    "turn_up_own": "turn up one of your own two first cards",
    "not_in_hand": "{seat0} is not in this hand",
    "is_all_in": "{seat0} is all-in",
    "turn_of": "it is {seat0}'s turn, not {seat1}'s",
    "holdem_table_no_action": "the table has no action in Hold'em",
    "stake_short": "the stake does not cover the bet: call (all-in) or fold",
    "short_all_in": "a short all-in does not re-open the betting for a player who has acted",
    "no_caller": "no other player can call a raise",
    "whole_minor_units": "the amount must be whole minor units",
    "cannot_raise": "cannot raise",
    "raise_below_min": "raise to {gold0} is below the minimum {gold1}",
    "raise_above_match": (
        "raise to {gold0} is above the maximum {gold1} (the largest stake another player can match)"
    ),
    "raise_above_stake": "raise to {gold0} is above the maximum {gold1} (the whole stake)",
    # ----- shedding games (Tiến lên, Sâm) ---------------------------------------------------
    "no_declaration_window": "no declaration window is open",
    "only_table_closes_window": "only the table closes the window",
    "declaration_closed": "the declaration window is closed",
    "declarations_open": "Sâm declarations are still open",
    "leader_must_play": "the leader must play, not pass",
    "not_sam_action": "not a Sâm action",
    "double_four_cuts_twos": "two fours of a kind may only cut a pair of 2s",
    "does_not_beat": "{value0} {cards1} does not beat {value2} {cards3}",
    "no_going_out_on_twos": "you may not go out on 2s",
    "bao1_highest": "the next player is on Báo 1: play your highest single",
    "cards_not_tuple": "cards must be a tuple of cards",
    "play_needs_card": "a play needs at least one card",
    "card_repeated": "a card is repeated",
    "not_held": "you do not hold {cards0}",
    "two_low_end": "{cards0}: a 2 may only sit at the low end of a sequence",
    "not_combination": "{cards0} is not a combination",
    "play_needs_seat": "a play or pass needs a seat",
    "not_tien_len_action": "not a Tiến lên action",
    "first_play_includes": "the first play must include {cards0}",
    "four_pairs_only": "after passing, only 4 đôi thông may come back in",
    "straight_no_two": "a Tiến lên straight may not contain a 2",
    # ----- 3 Cây (Chương, Gà) ------------------------------------------------------------
    "clock_only": "only the table's clock closes a window",
    "no_window": "no window is open",
    "smallest_bet": "the smallest bet is {gold0}",
    "largest_bet": "the largest bet is {gold0}",
    "balance_only": "the balance is only {gold0}",
    "banker_cannot_cover": "the banker cannot cover it: at most {gold0} more can be accepted",
    "not_waiting_deal": "the cards are not waiting to be dealt",
    "banker_starts": "only the banker starts the deal",
    "no_bet_placed": "no bet has been placed",
    "no_card_index": "no card {n0}: a hand has cards 0..{n1}",
    "already_squeezed": "card {n0} has already been squeezed",
    "table_cannot_leave": "the table cannot leave",
    "not_in_round": "not in this round",
    "no_leaving_now": "no one can leave now",
    "not_chuong_action": "not an action of Ba Cây Chương",
    "bets_closed": "bets are closed",
    "banker_no_bet": "the banker does not bet",
    "cannot_play_round": "this seat cannot play this round",
    "already_decided": "already decided ({value0})",
    "cards_not_out": "the cards are not out",
    "not_playing_round": "not playing this round",
    "already_face_up": "the hand is already face up",
    "cannot_pay_ga": "cannot pay the gà and the stake ({gold0})",
    "not_deciding": "the players are not deciding now",
    "host_starts": "only the host starts the round",
    "round_started": "the round has already started",
    "two_ready": "at least two players must be ready",
    "not_ga_action": "not an action of 3 Cây Gà",
    # ----- Phỏm --------------------------------------------------------------------------
    "phom_table_no_action": "the table takes no action in Phỏm",
    "no_game_under_way": "no game is under way",
    "not_playing_game": "not playing this game",
    "eat_or_draw_first": "eat or draw first",
    "lay_down_first": "lay down your melds first",
    "send_or_discard": "you have taken a card: send or discard now",
    "not_now": "not now",
    "stock_empty": "the stock is empty",
    "no_discard_to_eat": "there is no discard to eat",
    "discard_to_eat_is": "the discard to eat is {cards0}, not {cards1}",
    "melds_of_three": "sizes must cut the cards into melds of 3 or more",
    "not_a_layout": "not a way to lay down all your melds",
    "layout_option": "possible: {cards0}",
    "layout_none": "possible: none",
    "eat_keeps_no_discard": "{cards0} cannot be melded while keeping a card to discard",
    "eat_no_meld": "{cards0} completes no meld with your hand",
    "eat_with_eaten": "{cards0} cannot be melded alongside your eaten cards ({cards1})",
    "eaten_must_stay": "{cards0} was eaten and must stay in a meld",
    "discard_breaks_eaten": (
        "discarding {cards0} would leave your eaten cards ({cards1}) without melds"
    ),
    "send_when_laying": "cards are sent only in the turn you lay down",
    "keep_discard": "keep a card to discard",
    "send_to_others": "cards are sent onto other players' melds",
    "no_meld_number": "{seat0} has no meld number {n1}",
    "does_not_fit": "{cards0} does not fit {seat1}'s meld {cards2}",
    "not_phom_action": "not an action of Phỏm",
    # ----- the server (sanh/server/table.py) ---------------------------------------------
    "wallet_short": "{seat0}'s wallet cannot cover {gold1} more",
    "own_seat_only": "you can only act for your own seat",
    "not_legal_action": "not a legal action",
    "void_interrupted": "interrupted before the deal",
    "void_no_replay": "unrecoverable: the log does not replay",
    "void_fault": "unrecoverable server fault",
    "void_settlement": "the settlement was refused",
}
"""Why an action is refused (an :class:`~sanh.errors.IllegalActionError`'s ``reason``) or a hand
was voided: every code and its English template (part of :data:`TEXTS`)."""

SERVER_TEXTS: Mapping[str, str] = {
    # ----- a table's answers to join, sit, buy-in, bots, act (sanh/server/table.py) -------
    "table_needs_invite": "this table needs an invite code",
    "no_seat_for_token": "no seat for this resume token",
    "not_at_table": "you are not at this table",
    "join_with_invite": "join with the invite code first",
    "already_seated": "you already have a seat here",
    "no_seat_number": "there is no seat {n0}",
    "seat_number_taken": "seat {n0} is taken",
    "table_full": "the table is full",
    "balance_below_buyin": "your balance is below the buy-in of {gold0}",
    "seat_needs_multiple": "a seat needs {n0} times the bet level: {gold1}",
    "sit_down_first": "sit down first",
    "no_buyin": "this game has no buy-in",
    "top_up_between_hands": "top up between hands",
    "buy_in_between": "buy in between {gold0} and {gold1}",
    "not_enough_gold": "not enough gold",
    "no_seat_here": "you have no seat here",
    "host_adds_bots": "only the host can add bots",
    "host_removes_bots": "only the host can send bots away",
    "no_hand_for_you": "no hand in progress for you",
    "act_for_old_hand": "that hand or round is over: act on the next one's view",
    "stale_version": "the hand is at version {n0}, not {n1}",
    "leave_quote_unknown": "no such leave quote for this hand; ask for a new one",
    "leave_cost_changed": "leaving now costs {gold1}, not the {gold0} quoted; ask again",
    # ----- the connection (sanh/server/app.py) -------------------------------------------
    "hello_timeout": "no hello with a session token within {n0} s",
    "say_hello_first": "say hello with a session token first",
    "bad_protocol": "this server speaks protocol {n0}",
    "signed_in_already": (
        "this connection is signed in already; open another one for another player"
    ),
    "unknown_token": "unknown or expired token",
    "empty_frame": "empty frame",
    "frame_too_large": "frames are limited to {n0} bytes",
    "slow_down": "too many messages; slow down",
    "no_table_named": "no table '{n0}'",
    # ----- chat (sanh/server/chat.py) ----------------------------------------------------
    "chat_empty": "say something first",
    "chat_too_long": "a chat line is at most {n0} characters",
    "chat_too_fast": "chat slower: {n0} lines at once, then one every {n1} s",
    "spectators_read_only": "spectators read this table's chat; the host may let them write",
    "host_sets_chat": "only the host decides who may chat",
    "lobby_chat_first": "listen to the lobby chat first",
    # ----- the HTTP API (sanh/server/app.py) ---------------------------------------------
    "body_too_large": "body too large",
    "log_in_first": "log in first",
    "wrong_credentials": "wrong credentials",
    "bad_filter": "bad filter",
    "no_such_table": "no such table",
    "no_such_hand": "no such hand of yours",
    # ----- accounts and clans (sanh/ledger/players.py, PlayerCode) -----------------------
    "username_invalid": (
        "a username is {n0} to {n1} of a-z 0-9 _ . and does not start with 'guest'"
    ),
    "username_taken": "this username is taken",
    "password_too_short": "a password needs at least {n0} characters",
    "no_such_player": "no such player",
    "not_a_guest": "this player is not a guest",
    "display_name_invalid": "a name is 1 to {n0} printable characters",
    "language_invalid": "the language is vi or en",
    "clan_name_invalid": "a clan name is {n0} to {n1} characters",
    "clan_name_taken": "this clan name is taken",
    "no_such_clan": "no such clan",
    "already_in_clan": "you are in a clan already",
    "not_in_clan": "you are not in a clan",
    "not_allowed": "your clan role does not allow this",
    "leader_must_hand_over": "a leader hands the clan over to another member before leaving",
    "role_invalid": "no such clan role",
    "display_name_reserved": "this name looks like the house's, the staff's or a bot's",
    "display_name_taken": "this name looks like another player's",
    # ----- the account limits and the daily gold (sanh/server/guard.py, app.py) -----------
    "too_many_guests": "too many guests from this address: try again in {n0} s",
    "too_many_tables": "you already host {n0} open tables: close or fill one first",
    "tables_too_fast": "too many new tables: try again in {n0} s",
    "too_many_registrations": "too many registrations from this address: try again in {n0} s",
    "too_many_logins": "too many failed log-ins: try again in {n0} s",
    "login_too_fast": "a log-in of this account or from this address is being checked: try again",
    "hall_busy": "the hall is busy checking passwords: try again in a moment",
    "wrong_password": "the current password is wrong",
    "guest_has_no_password": "a guest has no password: register to have one",
    "session_revoked": "this session has ended: log in again",
    "daily_claimed": "today's gold has been claimed already: come back tomorrow",
    "daily_not_eligible": "the daily gold is for players with less than {gold0}",
    # ----- a table's setup (ConfigError: sanh/server/hall.py, sanh/games/base.py) -------
    "unknown_game": "unknown game '{n0}'",
    "game_not_offered": "{n0} is not offered at this hall",
    "seats_range": "{n0} seats {n1}..{n2}, not {n3}",
    "stake_range": "the bet level must be between {gold0} and {gold1}",
    "stake_not_positive": "the bet level must be positive, not {gold0}",
    "option_not_integer": "option {n0}: expected an integer, got {n1}",
    "option_wrong_type": "option {n0}: expected {n1}, got {n2}",
    "option_not_allowed": "option {n0}: {n1} is not one of {n2}",
    "option_timer": "option {n0}: a timer of 1 to {n1} seconds, not {n2}",
    "unknown_option": "{n0}: unknown option '{n1}'",
    "option_replay_only": "option {n0} is for replaying recorded hands, not for a table",
    "option_over_house_paytable": (
        "option {n0} may not pay more than the rules' paytables at a table the house banks"
    ),
    "unknown_option_renamed": "{n0}: unknown option '{n1}' (now '{n2}')",
    "option_twice": "{n0}: option '{n1}' is given twice",
    # ----- a game's own checks of its options and first hand (ConfigError: sanh/games/) --
    "option_at_least": "option {n0} must be at least {n1}",
    "option_not_negative": "option {n0} must not be negative",
    "option_positive": "option {n0} must be positive, not {n1}",
    "option_between": "option {n0} must be {n1}..{n2}, not {n3}",
    "option_zero_or_at_least": "option {n0} must be 0 (none) or at least {n1}",
    "option_not_seat": "option {n0}: {n1} is not a seat number 1..{n2}",
    "option_numbers": "option {n0}: {n1} is not {n2} non-negative numbers like 50-40-...",
    "option_multipliers": "option {n0}: {n1} is not non-negative integers like 1,2,3",
    "option_total_paytable": (
        "option {n0}: {n1} is not asian, macau or odds above 0 for every total 4..17"
        " like 4=50,5=18,..."
    ),
    "bet_limits_impossible": "the bet limits {gold0}..{gold1} are impossible",
    "bet_multiples_impossible": "the bet limits {n0} L..{n1} L are impossible",
    "two_players_needed": "the game needs two players with at least {n0} L to start",
    "two_seats_with_chips": "the game needs at least two seats with chips",
    "buy_in_range": "a buy-in is from {gold0} to {gold1}, not {gold2}",
    "buy_in_over_balance": "a buy-in of {gold0} exceeds the balance {gold1}",
    # ----- a table's state as the hall hands it over (internal: stacks, host, carry) ----
    "stacks_for_seats": "{n0} stacks for {n1} seats",
    "clan_flags_for_seats": "{n0} clan flags for {n1} seats",
    "stack_negative": "a stack is negative",
    "host_not_seated": "host seat {n0} is not at the table",
    "carry_invalid": "the state carried over from the last round is invalid ({n0}: {n1})",
    # ----- the HTTP API's contract (sanh/server/api.py) ---------------------------------
    "body_not_json": "the body is not JSON",
    "method_not_allowed": "this path does not take this method",
    "field_invalid": "{n0} is missing or not valid",
    "no_such_endpoint": "no such endpoint",
    # ----- the bank of a player-hosted table (sanh/server/table.py, ``host``) -----------
    "waiting_for_host": "no banker: betting is closed until a player becomes the banker",
    "void_no_host": "the banker left: every bet is refunded",
    "no_bank_here": "this table has no player banker",
    "bank_taken": "the table already has a banker",
    "bank_between": "a bank is from {gold0} to {gold1}",
    "bank_needs": "being the banker needs at least {gold0}",
    "tai_xiu_system_table_only": (
        "the hall has one house-banked Tài Xỉu table; players create player-hosted ones"
    ),
    # ----- friends (sanh/server/friends.py) ------------------------------------------------
    "friend_self": "you cannot be your own friend",
    "friend_blocked": "one of you has blocked the other",
    "friend_already": "you are friends already",
    "friend_request_sent": "you have asked this player already",
    "friend_no_request": "there is no friend request between you",
    "friend_not_friends": "you are not friends",
    "friend_blocked_already": "you have blocked this player already",
    "friend_not_blocked": "you have not blocked this player",
    "friend_hide_missing": "say whether to hide your table",
    "friend_no_table": "no such table",
    "friend_invite_not_there": "you can only invite to a table you are at",
    "friend_offline": "your friend is not online",
    # ----- leaderboards (sanh/server/leaderboards.py) -----------------------------------------
    "board_unknown_game": "no leaderboard for the game '{n0}'",
}
"""What the hall refuses outside the rules (part of :data:`TEXTS`): a table's answers to
joining, sitting, buying in and bots, the WebSocket's sign-in and limits, the HTTP API's
errors, account and clan refusals, and a table setup the lobby or a game may not create (a
:class:`~sanh.errors.ConfigError`'s ``text``; option values a player typed go through
:func:`clean`)."""

TEXTS: Mapping[str, str] = {**_DETAILS, **REFUSALS, **SERVER_TEXTS}
"""Every code and its English template."""

assert len(TEXTS) == len(_DETAILS) + len(REFUSALS) + len(SERVER_TEXTS), "a code is given twice"

_PLACEHOLDER = re.compile(r"\{(" + "|".join(KINDS) + r")(\d)\}")
_CODE = re.compile(r"^[a-z][a-z0-9_]*(:[^:|]*)*(\|[a-z][a-z0-9_]*(:[^:|]*)*)*$")


def placeholders(template: str) -> tuple[tuple[str, int], ...]:
    """The ``(kind, index)`` placeholders of a template, in order of appearance."""
    return tuple((kind, int(index)) for kind, index in _PLACEHOLDER.findall(template))


def _arity(template: str) -> int:
    return max((index + 1 for _, index in placeholders(template)), default=0)


_ARITY = {code: _arity(template) for code, template in TEXTS.items()}


def _arg(value: object) -> str:
    if isinstance(value, bool):
        raise TypeError(f"a text argument is not a boolean: {value!r}")
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, int | str | float):
        out = str(value)
    elif isinstance(value, Sequence) and all(isinstance(c, Card) for c in value):
        out = "".join(str(c) for c in value)
    else:
        raise TypeError(f"not a text argument: {value!r}")
    if ":" in out or "|" in out:
        raise ValueError(f"a text argument may not hold ':' or '|': {out!r}")
    return out


def text(code: str, *args: object) -> str:
    """One part: ``code`` with its arguments (``text("odds", 5) == "odds:5"``).

    :raises KeyError: if ``code`` is not in :data:`TEXTS`.
    :raises ValueError: if the number of arguments is not the template's.
    """
    arity = _ARITY[code]
    if len(args) != arity:
        raise ValueError(f"text {code!r} takes {arity} arguments, not {len(args)}")
    return ":".join((code, *(_arg(a) for a in args)))


def join(*parts: str) -> str:
    """Several parts as one text (empty parts are left out)."""
    return "|".join(p for p in parts if p)


def parse(detail: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The ``(code, args)`` parts of a text; ``()`` for an empty text or one not in code form."""
    if not is_code(detail):
        return ()
    out = []
    for part in detail.split("|"):
        code, *args = part.split(":")
        out.append((code, tuple(args)))
    return tuple(out)


def is_code(detail: str) -> bool:
    """Whether ``detail`` has the form of a code (known or not)."""
    return bool(detail) and _CODE.match(detail) is not None


def _default_value(name: str) -> str:
    return name.replace("_", " ")


def _default_action(name: str) -> str:
    return name.lower()


def clean(value: object, limit: int = 40) -> str:
    """Free text (a client's unknown bet area) as a safe argument: ``:`` and ``|`` become ``?``."""
    return str(value)[:limit].replace(":", "?").replace("|", "?")


def _seat_name(seat: int) -> str:
    return f"p{seat + 1}"


def describe(
    detail: str,
    templates: Mapping[str, str] = TEXTS,
    *,
    seat: Callable[[int], str] = _seat_name,
    value: Callable[[str], str] = _default_value,
    item: Callable[[str], str] = _default_value,
    action: Callable[[str], str] = _default_action,
    cards: Callable[[Iterable[Card]], str] | None = None,
    sep: str = ", ",
    gold: Callable[[int], str] = format_gold,
) -> str:
    """A text in words: each part's template filled in (English by default).

    ``gold`` writes an amount in minor units (default: :func:`format_gold`, ``1,234.00``).

    A text not in code form, or with a code missing from ``templates``, is returned as it is.
    """
    parts = parse(detail)
    if not parts or any(code not in templates for code, _ in parts):
        return detail
    show_cards = cards or _pretty_cards

    def part(code: str, args: tuple[str, ...]) -> str:
        def fill(match: re.Match[str]) -> str:
            kind, index = match.group(1), int(match.group(2))
            arg = args[index] if index < len(args) else ""
            try:
                if kind == "seat":
                    return seat(int(arg))
                if kind == "gold":
                    return gold(int(arg))
                if kind == "cards":
                    return show_cards(_cards(arg))
            except ValueError:
                return arg
            if kind == "value":
                return value(arg)
            if kind == "item":
                return item(arg)
            if kind == "action":
                return action(arg)
            return arg

        return _PLACEHOLDER.sub(fill, templates[code])

    return sep.join(part(code, args) for code, args in parts)


def _pretty_cards(cards: Iterable[Card]) -> str:
    return " ".join(c.pretty for c in cards)


def _cards(run: str) -> tuple[Card, ...]:
    if len(run) % 2:
        raise ValueError(run)
    return tuple(parse_card(run[i : i + 2]) for i in range(0, len(run), 2))
