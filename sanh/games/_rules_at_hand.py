"""The rules at hand of the built-in games (``GET /api/rules``): each game's short "how to play"
and its main rules in Vietnamese and English (a summary of RULES.md and docs/games/<game>.md;
those stay the full text), and the payout of each house bet under the default paytables.

Read through :meth:`Game.rules_at_hand <sanh.games.base.Game.rules_at_hand>` and
:meth:`Game.bet_payout <sanh.games.base.Game.bet_payout>`; a game defined outside this package
overrides those.
"""

from __future__ import annotations

from typing import Any

__all__ = ["GAME_RULES", "PAYOUTS"]

PAYOUTS: dict[str, dict[str, str]] = {
    "three-card-poker": {
        "ante_play": "1:1 + 1:1",
        "pair_plus": "40-30-5-4-1",
        "six_card_bonus": "1000-200-100-20-15-10-7",
    },
    "teen-patti-2020": {
        "player_a": "0.95:1",
        "player_b": "0.95:1",
        "tie": "50:1",
        "pair_plus": "50-40-30-6-3-1",
        "six_card_bonus": "1000-200-100-20-15-10-7",
    },
}
"""The payout of each house bet under the default paytables (``n:1``, or the paytable from the
best hand down); Tài Xỉu's come from its engine."""


def _text(how: str, rules: list[str]) -> dict[str, Any]:
    return {"how_to_play": how, "rules": rules}


GAME_RULES: dict[str, dict[str, Any]] = {
    "tien-len": {
        "section": "RULES.md §12",
        "vi": _text(
            "Mỗi người 13 lá. Người có 3♠ đánh trước; lần lượt đánh bộ cùng kiểu và lớn hơn, "
            "hoặc bỏ lượt. Ai hết bài trước thắng; người còn bài trả tiền theo số lá.",
            [
                "Thứ tự: 3 < 4 < … < K < A < 2; chất ♠ < ♣ < ♦ < ♥.",
                "Bộ: lá lẻ, đôi, sám, sảnh (3 lá liên tiếp trở lên, không có 2), đôi thông.",
                "Chặt 2: 3 đôi thông chặt một con 2; tứ quý chặt 2, đôi 2, 3 đôi thông; "
                "4 đôi thông chặt tất cả.",
                "Đếm lá: lá thường 1, 2 đen 5, 2 đỏ 10; bị cóng (chưa đánh lá nào) thì gấp đôi.",
                "Tới trắng: sảnh rồng 3→A, 5 đôi thông, 6 đôi, tứ quý 2 thắng ngay.",
            ],
        ),
        "en": _text(
            "13 cards each. The holder of 3♠ leads; in turn, beat the table with the same kind "
            "of play, higher, or pass. The first out of cards wins; the others pay by the cards "
            "left.",
            [
                "Ranks 3 < 4 < … < K < A < 2; suits ♠ < ♣ < ♦ < ♥.",
                "Plays: singles, pairs, triples, straights (3+ in a row, no 2), pair sequences.",
                "Cutting a 2: three pairs in a row cut a 2; four of a kind cuts a 2, a pair of 2s "
                "or three pairs in a row; four pairs in a row cut all of these.",
                "Counting: an ordinary card 1, a black 2 5, a red 2 10; doubled for a player who "
                "played no card (cóng).",
                "Instant wins: a dragon 3 to A, five pairs in a row, six pairs, four 2s.",
            ],
        ),
    },
    "sam-loc": {
        "section": "RULES.md §7",
        "vi": _text(
            "Mỗi người 10 lá. Đánh bộ lớn hơn hoặc bỏ lượt như Tiến lên, nhưng chất không tính. "
            "Ai tự tin không ai chặn được có thể Báo Sâm để đi trước và thắng lớn.",
            [
                "Thứ tự: 3 < … < A < 2; lá cùng số không chặn nhau.",
                "Bộ: lẻ, đôi, sám, sảnh (A-2-3 được, K-A-2 không), tứ quý.",
                "Tứ quý chặt một con 2; hai tứ quý chặt đôi 2.",
                "Báo Sâm thành công được trả thưởng; bị chặn thì đền cho cả bàn.",
                "Còn một lá thì hệ thống báo (Báo 1); người thua trả theo số lá còn lại.",
            ],
        ),
        "en": _text(
            "10 cards each. Beat the play on the table or pass, as in Tiến lên, but suits do not "
            "count. A player sure nobody can stop them may declare Sâm, lead, and win big.",
            [
                "Ranks 3 < … < A < 2; cards of one rank never beat each other.",
                "Plays: singles, pairs, triples, straights (A-2-3 yes, K-A-2 no), four of a kind.",
                "Four of a kind cuts a single 2; two fours of a kind cut a pair of 2s.",
                "A Sâm that succeeds is paid a bonus; a Sâm stopped pays everyone.",
                "Down to one card, the table announces it (Báo 1); losers pay by the cards left.",
            ],
        ),
    },
    "phom": {
        "section": "RULES.md §9",
        "vi": _text(
            "Người đi đầu 10 lá, người khác 9. Mỗi lượt ăn lá vừa đánh (nếu thành phỏm) hoặc "
            "bốc, rồi đánh một lá. Hết bài hạ phỏm; ít điểm rác nhất thắng.",
            [
                "Phỏm: 3-4 lá cùng số, hoặc 3+ lá liên tiếp cùng chất (A chỉ đứng thấp).",
                "Điểm: A = 1, 2-10 theo số, J 11, Q 12, K 13; rác là lá không thuộc phỏm.",
                "Lá đã ăn phải nằm trong phỏm hạ; một phỏm không được có hai lá ăn.",
                "Ù: toàn bộ bài thành phỏm là thắng ngay; không có phỏm nào là móm.",
            ],
        ),
        "en": _text(
            "The first player has 10 cards, the others 9. Each turn eat the last discard (if it "
            "makes a meld) or draw, then discard. At the end lay down melds; the fewest points "
            "of trash win.",
            [
                "Melds: 3-4 of a rank, or 3+ in a row of one suit (the ace only low).",
                "Points: A = 1, 2-10 face value, J 11, Q 12, K 13; trash is any card in no meld.",
                "An eaten card must end in a laid-down meld; no meld holds two eaten cards.",
                "Ù: every card in melds wins at once; no meld at all is móm (last).",
            ],
        ),
    },
    "texas-holdem": {
        "section": "RULES.md §4",
        "vi": _text(
            "Mỗi người 2 lá tẩy, 5 lá chung lật dần (3-1-1). Theo, tố, bỏ qua bốn vòng cược; "
            "tay 5 lá mạnh nhất từ 7 lá thắng pot.",
            [
                "Mù nhỏ và mù lớn đặt trước khi chia; các vòng cược: trước flop, flop, turn, "
                "river.",
                "Thứ tự tay: thùng phá sảnh, tứ quý, cù lũ, thùng, sảnh, sám, thú, đôi, mậu thầu.",
                "Tất tay tạo pot phụ; ai bỏ bài mất phần đã cược.",
            ],
        ),
        "en": _text(
            "Two hole cards each and five shared cards turned 3-1-1. Call, raise or fold over "
            "four betting rounds; the best five-card hand of seven wins the pot.",
            [
                "Small and big blinds before the deal; rounds pre-flop, flop, turn, river.",
                "Hands: straight flush, four of a kind, full house, flush, straight, three of a "
                "kind, two pair, pair, high card.",
                "An all-in makes side pots; a fold loses what was bet.",
            ],
        ),
    },
    "poker-aof": {
        "section": "RULES.md §4.9",
        "vi": _text(
            "Hold'em nhanh: mỗi người mua vào đúng 10 mù lớn, nhận 2 lá và chỉ có hai lựa chọn: "
            "tất tay hoặc bỏ bài. 5 lá chung chia hết rồi so bài.",
            [
                "Mua vào cố định 10 mù lớn; dưới 1 mù lớn phải nạp thêm hoặc rời bàn.",
                "Chỉ tất tay hoặc bỏ, trước flop; mù lớn được xem nếu chưa ai tất tay.",
                "Thứ tự tay như Texas Hold'em; tất tay tạo pot phụ.",
            ],
        ),
        "en": _text(
            "Fast Hold'em: everyone buys in for exactly 10 big blinds, gets 2 cards and has two "
            "choices only: all-in or fold. The five shared cards are dealt and hands compared.",
            [
                "A fixed buy-in of 10 big blinds; below 1 big blind, top up or leave.",
                "All-in or fold only, pre-flop; the big blind may check if nobody went all-in.",
                "Hands rank as in Texas Hold'em; all-ins make side pots.",
            ],
        ),
    },
    "xi-to": {
        "section": "RULES.md §6",
        "vi": _text(
            "Bộ 28 lá (8 đến A). Mỗi người một lá tẩy úp và các lá ngửa, chia dần đến 5 lá; "
            "cược sau mỗi lá. Tay 5 lá mạnh nhất thắng.",
            [
                "Vòng 1 chỉ theo (5% mức cược) hoặc bỏ; từ lá 3 được tố.",
                "Người có bài ngửa mạnh nhất nói trước mỗi vòng.",
                "Thứ tự như poker: cù lũ trên thùng; hai thùng phá sảnh thì thùng thấp hơn thắng.",
                "Tuỳ chọn chủ bàn: tự động theo 2 lá, tẩy lá thứ 5, tẩy max.",
            ],
        ),
        "en": _text(
            "A 28-card deck (8 to A). One face-down hole card and face-up cards, dealt up to "
            "five with a betting round after each; the best five-card hand wins.",
            [
                "Round 1 is call (5% of the stake) or fold; raises from card 3 on.",
                "The best face-up cards speak first each round.",
                "Hands rank as in poker (a full house beats a flush); of two straight flushes the "
                "lower wins.",
                "Host options: auto-follow at 2 cards, face-down 5th card, max stake.",
            ],
        ),
    },
    "lieng": {
        "section": "RULES.md §8",
        "vi": _text(
            "Mỗi người góp L rồi nhận 3 lá úp. Một vòng cược: tố, theo hoặc bỏ. Còn lại so bài, "
            "tay cao nhất ăn pot.",
            [
                "Thứ tự: sáp (A-A-A cao nhất), liêng đồng chất, liêng, ảnh (J/Q/K), rồi điểm "
                "9 → 0.",
                "Điểm: A = 1, 2-9 theo số, 10/J/Q/K = 0, lấy hàng đơn vị.",
                "Liêng cao nhất Q-K-A, thấp nhất A-2-3; K-A-2 không phải liêng.",
                "Chất: ♦ > ♥ > ♣ > ♠ khi bằng nhau.",
            ],
        ),
        "en": _text(
            "Each player antes L and gets 3 face-down cards. One betting round: raise, call or "
            "fold. The rest show down; the best hand takes the pot.",
            [
                "Hands: three of a kind (A-A-A highest), suited straight, straight, faces (J/Q/K), "
                "then points 9 down to 0.",
                "Points: A = 1, 2-9 face value, 10/J/Q/K = 0, the last digit counts.",
                "Straights run Q-K-A (top) to A-2-3; K-A-2 is not one.",
                "Ties: suits ♦ > ♥ > ♣ > ♠.",
            ],
        ),
    },
    "ba-cay-ga": {
        "section": "RULES.md §10",
        "vi": _text(
            "Bộ 36 lá (A đến 9). Mỗi người đặt L, nhận 3 lá, nặn hoặc lật. Tổng điểm lấy hàng "
            "đơn vị, cao nhất ăn hết (nhất ăn tất).",
            [
                "Điểm 1 → 10: hàng đơn vị 0 tính là 10, cao nhất.",
                "Bằng điểm: so lá cao nhất, chất ♦ > ♥ > ♣ > ♠; A♦ là lá cao nhất.",
                "Gà: mỗi người góp vào gà; ai được 10 điểm cao nhất ăn cả gà.",
            ],
        ),
        "en": _text(
            "A 36-card deck (A to 9). Each player stakes L, gets 3 cards, squeezes or flips. "
            "The last digit of the total scores; the highest takes everything.",
            [
                "Scores 1 to 10: a last digit of 0 counts 10, the highest.",
                "Ties: the top card, suits ♦ > ♥ > ♣ > ♠; A♦ is the highest card of all.",
                "The chicken pot (gà): everyone pays in; the best 10-point hand takes it.",
            ],
        ),
    },
    "ba-cay-chuong": {
        "section": "RULES.md §11",
        "vi": _text(
            "Như 3 Cây, nhưng mỗi người đặt cược với nhà cái (Chương). Hơn Chương thì được trả, "
            "thua thì mất cược.",
            [
                "Cược từ L đến 10 L; Chương phải đủ tiền trả mọi cược.",
                "Người thắng với 10 điểm được trả gấp đôi và cướp Chương ván sau.",
                "Điểm và so bài như 3 Cây Gà.",
            ],
        ),
        "en": _text(
            "As 3 Cây, but each player bets against a banker (Chương): beat the banker's hand "
            "and be paid, lose and lose the bet.",
            [
                "Bets L to 10 L; the banker must cover every bet.",
                "A player winning with 10 points is paid double and takes the bank next round.",
                "Scores and ties as in 3 Cây Gà.",
            ],
        ),
    },
    "tai-xiu": {
        "section": "RULES.md §5",
        "vi": _text(
            "Ba viên xúc xắc. Chọn cửa, bấm chip rồi \u201cĐồng ý\u201d trước khi hết giờ; lắc "
            "xong, cửa trúng được trả theo tỷ lệ, trừ phí trên tiền lãi.",
            [
                "Xỉu: tổng 4-10; Tài: tổng 11-17; thua khi ra bộ ba.",
                "Cửa số, cặp, đôi, bộ ba, bất kỳ bộ ba, tổng điểm: xem tỷ lệ bên dưới.",
                "Bàn hệ thống: phí 5%; bàn người chơi làm cái: phí 3%.",
            ],
        ),
        "en": _text(
            "Three dice. Pick areas, click chips, then \u201cĐồng ý\u201d (agree) before time "
            "is up; after the roll winning areas pay their odds, less a fee on the profit.",
            [
                "Small (Xỉu): totals 4-10; Big (Tài): 11-17; both lose on a triple.",
                "Single, combination, double, triple, any triple, totals: odds below.",
                "System table: fee 5%; a player-banked table: fee 3%.",
            ],
        ),
    },
    "three-card-poker": {
        "section": "RULES.md §13",
        "vi": _text(
            "Đặt Ante, Đôi+ hoặc Thưởng 6 lá. Xem tay bài chung, rồi Tố (cược thêm bằng Ante) "
            "hoặc Bỏ. Nhà cái cần Q trở lên mới đủ điều kiện.",
            [
                "Nhà cái không đủ điều kiện: Ante trả 1:1, Tố hoà.",
                "Thưởng Ante cho sảnh trở lên dù nhà cái có bài gì.",
                "Đôi+ và Thưởng 6 lá trả theo bảng, không phụ thuộc nhà cái.",
            ],
        ),
        "en": _text(
            "Bet Ante, Pair Plus or 6 Card Bonus. See the shared Player hand, then Play (a bet "
            "equal to the Ante) or Fold. The dealer qualifies with Q high or better.",
            [
                "A dealer who does not qualify: Ante pays 1:1, Play pushes.",
                "The Ante bonus pays a straight or better whatever the dealer holds.",
                "Pair Plus and 6 Card Bonus pay their tables whatever the dealer holds.",
            ],
        ),
    },
    "teen-patti-2020": {
        "section": "RULES.md §14",
        "vi": _text(
            "Hai tay A và B, mỗi tay 3 lá ngửa. Cược tay thắng, Hòa, Đôi+ hoặc Thưởng 6 lá.",
            [
                "Thứ tự: bộ ba A, bộ ba, thùng phá sảnh, sảnh, thùng, đôi, mậu thầu.",
                "Tay A/B trả 0,95:1 (phí 5%), hoàn cược khi hòa.",
                "Hòa trả 50:1; Đôi+ và Thưởng 6 lá theo bảng.",
            ],
        ),
        "en": _text(
            "Two hands, A and B, three face-up cards each. Bet on the winner, a Tie, Pair Plus "
            "or the 6 Card Bonus.",
            [
                "Hands: three aces, three of a kind, straight flush, straight, flush, pair, "
                "high card.",
                "Player A/B pay 0.95:1 (a 5% fee), pushed on a tie.",
                "Tie pays 50:1; Pair Plus and 6 Card Bonus pay their tables.",
            ],
        ),
    },
}
"""Game id -> ``section`` (where RULES.md has it in full), ``vi`` and ``en`` texts."""
