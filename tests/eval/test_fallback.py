"""Without the C speedups (compiling failed, or no compiler), sanh.eval falls back to Python."""

from __future__ import annotations

import subprocess
import sys
import textwrap

SCRIPT = textwrap.dedent(
    """
    import sys
    sys.modules["sanh.eval._speedups"] = None  # as if the extension had not been built
    import numpy as np
    import sanh.eval
    from sanh.cards import parse_cards
    from sanh.eval import poker, three_card
    assert sanh.eval.BACKEND == "python"
    assert sanh.eval.evaluate is poker.evaluate_python
    assert sanh.eval.tcp_rank is three_card.tcp_rank_python
    hand = parse_cards("As Ks Qs Js Ts 2c 3d")
    assert sanh.eval.evaluate(hand) == 7461 == sanh.eval.evaluate5(hand[:5])
    assert sanh.eval.evaluate_batch(np.array([hand])).tolist() == [7461]
    assert sanh.eval.tcp_rank_batch(np.array([hand[:3]])).tolist() == [sanh.eval.tcp_rank(hand[:3])]
    assert sanh.eval.teen_patti_rank(parse_cards("Ah 2c 3d")) > sanh.eval.teen_patti_rank(
        parse_cards("Kh Qc Jd"))
    from sanh.cli import main
    sys.stdin = __import__("io").StringIO("As Ad Ac\\n")
    assert main(["rank", "teen-patti"]) == 0
    """
)


def test_pure_python_fallback_in_a_fresh_interpreter() -> None:
    result = subprocess.run(
        [sys.executable, "-c", SCRIPT], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout == "740\n"
