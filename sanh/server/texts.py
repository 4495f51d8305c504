"""The hall's own text codes: what the server answers and refuses outside the rules.

A table's answers to joining, sitting, buying in and bots, an action it refuses or a hand it
voids, the WebSocket's sign-in and limits, the HTTP API's errors
(``{"error": ..., "message": ..., "text": ...}``), account and clan refusals and the table
setups the lobby may not create (a :class:`~sanh.errors.ConfigError`'s ``text``). Each code is
declared once with its English template (:func:`sanh.texts.catalogue`); the engines' codes are
:mod:`sanh.games._texts`.
"""

from __future__ import annotations

from collections.abc import Mapping

from sanh.texts import catalogue

__all__ = ["SERVER_TEXTS"]

SERVER_TEXTS: Mapping[str, str] = catalogue(
    {
        # ----- a table's answers to join, sit, buy-in, bots, act (sanh/server/table_*.py) -------
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
        "login_too_fast": (
            "a log-in of this account or from this address is being checked: try again"
        ),
        "hall_busy": "the hall is busy checking passwords: try again in a moment",
        "wrong_password": "the current password is wrong",
        "guest_has_no_password": "a guest has no password: register to have one",
        "session_revoked": "this session has ended: log in again",
        "daily_claimed": "today's gold has been claimed already: come back tomorrow",
        "daily_not_eligible": "the daily gold is for players with less than {gold0}",
        # ----- an action the table refuses, a hand it voids (sanh/server/table_*.py) ---------
        "wallet_short": "{seat0}'s wallet cannot cover {gold1} more",
        "own_seat_only": "you can only act for your own seat",
        "not_legal_action": "not a legal action",
        "void_interrupted": "interrupted before the deal",
        "void_no_replay": "unrecoverable: the log does not replay",
        "void_fault": "unrecoverable server fault",
        "void_settlement": "the settlement was refused",
        # ----- a table's setup the hall refuses (ConfigError: sanh/server/hall.py) ----------
        "unknown_game": "unknown game '{n0}'",
        "game_not_offered": "{n0} is not offered at this hall",
        "stake_range": "the bet level must be between {gold0} and {gold1}",
        "option_replay_only": "option {n0} is for replaying recorded hands, not for a table",
        # ----- the HTTP API's contract (sanh/server/api.py) ---------------------------------
        "body_not_json": "the body is not JSON",
        "method_not_allowed": "this path does not take this method",
        "field_invalid": "{n0} is missing or not valid",
        "no_such_endpoint": "no such endpoint",
        # ----- the bank of a player-hosted table (sanh/server/table_seating.py, ``host``) ------
        "waiting_for_host": "no banker: betting is closed until a player becomes the banker",
        "void_no_host": "the banker left: every bet is refunded",
        "no_bank_here": "this table has no player banker",
        "bank_taken": "the table already has a banker",
        "bank_between": "a bank is from {gold0} to {gold1}",
        "bank_needs": "being the banker needs at least {gold0}",
        # ----- friends (sanh/server/friends.py) ----------------------------------------------
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
        # ----- leaderboards (sanh/server/leaderboards.py) ------------------------------------
        "board_unknown_game": "no leaderboard for the game '{n0}'",
        # ----- people (sanh/server/people.py) ----------------------------------------------
        "query_too_short": "type at least two letters or digits of a name",
        # ----- Sit & Go tournaments (sanh/server/tournaments.py) ------------------------------
        "tournament_buy_in": "the buy-in must be above zero and the fee at most the buy-in",
        "tournament_chips_not_conserved": "the tournament's chips do not add up",
        "tournament_full": "the tournament is full",
        "tournament_game": "a Sit & Go is Texas Hold'em, All-in or Fold or Tiến lên",
        "tournament_no_gold": "not enough gold to register",
        "tournament_not_full": "the tournament is not full",
        "tournament_not_registered": "you are not registered in this tournament",
        "tournament_not_registering": "the tournament is not taking registrations",
        "tournament_not_running": "the tournament is not running",
        "tournament_not_yours": "only the tournament's creator can cancel it",
        "tournament_registered_already": "you are registered already",
        "tournament_seat": "a tournament table's seats are its entrants':"
        " no sitting, leaving or buying in",
        "tournament_seats": "that number of seats is not offered for this tournament",
        "tournament_structure": "the tournament's structure is not valid"
        " (starting chips, hands per level, games)",
        "tournament_unknown": "no such tournament",
    }
)
"""What the hall refuses outside the rules: every code and its English template."""
