"""The games' text codes: settlement details, log entries, refusals and option checks.

The machinery (the code form, :func:`~sanh.texts.text`, :func:`~sanh.texts.describe`) is
:mod:`sanh.texts`; these are the codes the engines in :mod:`sanh.games` write, each declared
once with its English template (:func:`sanh.texts.catalogue`):

- :data:`DETAILS`: what a settlement line says (``SettlementLine.detail``), a debt's note, a
  view's log entries and a cancel reason;
- :data:`REFUSALS`: why an engine refuses an action, an
  :class:`~sanh.errors.IllegalActionError`'s ``reason`` (``betting_closed``,
  ``cannot_check:500``), which the server sends to the client beside its English words;
- :data:`CONFIG_TEXTS`: the table setups a game may not host, a
  :class:`~sanh.errors.ConfigError`'s ``text`` (``option_at_least:lieng.min_raise:1``; option
  values a player typed go through :func:`~sanh.texts.clean`).

The hall's own codes are :mod:`sanh.server.texts`.
"""

from __future__ import annotations

from collections.abc import Mapping

from sanh.texts import catalogue

__all__ = ["CONFIG_TEXTS", "DETAILS", "REFUSALS"]

DETAILS: Mapping[str, str] = catalogue(
    {
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
)
"""Settlement line details and log entries."""

REFUSALS: Mapping[str, str] = catalogue(
    {
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
            "no bet area '{n0}'; areas are small, big, single_1..6,"
            " combination_1_2..combination_5_6, total_4..17, double_1..6, triple_1..6, any_triple"
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
            "raise to {gold0} is above the maximum {gold1}"
            " (the largest stake another player can match)"
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
    }
)
"""Why an engine refuses an action (an :class:`~sanh.errors.IllegalActionError`'s ``reason``):
every code and its English template."""

CONFIG_TEXTS: Mapping[str, str] = catalogue(
    {
        # ----- a table's setup (ConfigError: sanh/games/base.py, the hall's checks) -----------
        "seats_range": "{n0} seats {n1}..{n2}, not {n3}",
        "stake_not_positive": "the bet level must be positive, not {gold0}",
        "option_not_integer": "option {n0}: expected an integer, got {n1}",
        "option_wrong_type": "option {n0}: expected {n1}, got {n2}",
        "option_not_allowed": "option {n0}: {n1} is not one of {n2}",
        "option_timer": "option {n0}: a timer of 1 to {n1} seconds, not {n2}",
        "unknown_option": "{n0}: unknown option '{n1}'",
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
        # ----- a house-only table (``house_only``, sanh/games/hosting.py) --------------------
        "tai_xiu_system_table_only": (
            "the hall has one house-banked Tài Xỉu table; players create player-hosted ones"
        ),
    }
)
"""The table setups a game may not host (a :class:`~sanh.errors.ConfigError`'s ``text``): the
checks of sanh/games/base.py and each game's own checks of its options and first hand."""
