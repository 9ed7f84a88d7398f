"""The client-side meld checks, offline: the rule codes they give are the server's (the
integration tests then play thousands of the moves they list against a real server)."""

from __future__ import annotations

import unittest

from burraco import Meld, MeldError, check_attach, check_open
from burraco.melds import attachable, openable


def rule_of(cards: list[str], wild_at: int | None = None) -> str:
    try:
        check_open(cards, wild_at)
    except MeldError as e:
        return e.rule
    return "ok"


class OpeningTest(unittest.TestCase):
    def test_a_sequence_with_a_named_wild_position(self) -> None:
        # PROTOCOL.md section 3's example: the joker named at 7, not the low end's 4.
        shape = check_open(["5H", "6H", "JK"], 7)
        self.assertEqual((shape.kind, shape.start, shape.wild_at), ("sequence", 5, 7))
        self.assertEqual(shape.cards, ("5H", "6H", "JK"))
        # Unnamed, a wild that fits at both ends sits at the low end (RULES.md section 5).
        self.assertEqual(check_open(["5H", "6H", "JK"]).wild_at, 4)

    def test_a_bound_wild_and_a_natural_two(self) -> None:
        self.assertEqual(check_open(["5H", "JK", "7H"]).wild_at, 6)
        shape = check_open(["AH", "2H", "3H"])
        self.assertEqual((shape.start, shape.wild_at), (1, None))

    def test_the_rules_named_on_refusal(self) -> None:
        self.assertEqual(rule_of(["5H", "6H"]), "meld_too_few_cards")
        self.assertEqual(rule_of(["JK", "2H", "2S"]), "combination_of_wilds")
        self.assertEqual(rule_of(["5H", "6D", "9C"]), "not_a_meld")
        self.assertEqual(rule_of(["5H", "6H", "9H"]), "not_contiguous")
        self.assertEqual(rule_of(["5H", "6H", "JK", "2S"]), "too_many_wilds")
        self.assertEqual(rule_of(["AH", "KH", "QH", "AH"]), "two_natural_aces")
        self.assertEqual(rule_of(["7H"] * 2 + ["7D"] * 2 + ["7C"] * 2 + ["7S"] * 2 + ["JK", "2H"]),
                         "combination_too_long")
        self.assertEqual(rule_of(["5H", "6H", "JK"], 9), "wild_position_invalid")
        self.assertEqual(rule_of(["KS", "KH", "JK"]), "ok")

    def test_attaching_moves_a_free_wild_and_keeps_a_bound_one(self) -> None:
        free = Meld(0, "NS", "sequence", 4, ("JK", "5H", "6H"), 4, None)
        shape = check_attach(free, ["7H"])
        self.assertEqual((shape.start, shape.wild_at), (4, 4))
        bound = Meld(1, "NS", "sequence", 5, ("5H", "JK", "7H"), 6, None)
        self.assertEqual(check_attach(bound, ["8H"]).wild_at, 6)
        with self.assertRaises(MeldError) as refused:
            check_attach(bound, ["8H"], 9)
        self.assertEqual(refused.exception.rule, "bound_wild_moved")
        with self.assertRaises(MeldError) as refused:
            check_attach(bound, ["8D"])
        self.assertEqual(refused.exception.rule, "wrong_card_for_meld")

    def test_enumerators_list_only_what_the_checks_accept(self) -> None:
        hand = ["3H", "4H", "5H", "7H", "JK", "2C", "KS", "KD", "KS", "AH", "QH"]
        options = openable(hand)
        self.assertTrue(any(o.result.cards == ("3H", "4H", "5H") for o in options))
        self.assertTrue(any(o.result.kind == "combination" and o.result.wild == "JK"
                            for o in options))
        for o in options:
            self.assertEqual(check_open(o.cards, o.wild_at), o.result)
        meld = Meld(0, "NS", "sequence", 3, ("3H", "4H", "5H"), None, None)
        attachments = attachable(meld, ["6H", "7H", "JK", "AH", "2H"])
        self.assertTrue(any(a.cards == ("6H", "7H") for a in attachments))
        for a in attachments:
            self.assertEqual(check_attach(meld, a.cards, a.wild_at), a.result)


if __name__ == "__main__":
    unittest.main()
