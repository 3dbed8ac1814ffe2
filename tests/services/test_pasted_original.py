"""H-SCREEN: where a reply's own words end (games/services/pasted_original.py), on text alone.

The writer's words are kept whole, colons, times and addresses included, unless an email they were
sent follows them; a rival cannot blind the net by writing the writer's email lines in messages.
"""

from __future__ import annotations

import pytest

from games.services.pasted_original import Written, word_runs, writers_words

TURN_EMAIL = """Hello Ben,

Your order by email was carried out.

What happened since your last turn:
- You consulted the Oracle and drew the Mission Card Flush.
- Sparta moved 2 phalanxes to E4.
- Sparta built a trade link between D3 and E4.

You have 5 AP, 4 FP, 0 Blanks, 0 VP; behind your screen: 1 pegasus.
Your Mission Cards: Flush, Monopoly of FP.
"""
SECRETS = [
    "You have 5 AP, 4 FP, 0 Blanks, 0 VP; behind your screen: 1 pegasus.",
    "Your Mission Cards: Flush.",
]
RUNS = word_runs([TURN_EMAIL])


@pytest.mark.parametrize(
    "text",
    [
        "Deal, I stay out of D3.\n\nTerms: 2 FP, meet at 10:00",
        "Deal, I stay out of D3.\nSee you on 12.12.:",
        "Hi.\n\nDeal: I keep out of D3 until 10.12, agreed?",
        "Einverstanden.\n\nVorschlag: 2 FP bis 10:00",
        "Hi Sparta.\n\nPlan: D3 at 10:00\n\nDeal: E4 at 11:00",
        "Write me at ben@example.com if you prefer.",
        "Deal.\nLet us meet at 10:00 and decide:",
    ],
)
def test_h_screen_a_writers_own_lines_are_kept_whole_when_no_email_follows(text: str) -> None:
    assert writers_words(text, RUNS, SECRETS) == Written(text)


def test_h_screen_everything_from_the_pasted_original_on_is_left_out_and_its_start_named() -> None:
    text = "Deal.\n\nFrom: AEGEAPOLIS <turns@x.example>\nSent: 30 Nov 2026 10:00\n\n" + TURN_EMAIL

    written = writers_words(text, RUNS, SECRETS)

    assert written == Written("Deal.", "From: AEGEAPOLIS <turns@x.example> Sent: 30 Nov 2026 10:00")


def test_h_screen_a_secret_line_shorter_than_a_run_is_cut_on_too() -> None:
    assert writers_words("Deal.\nYour Mission Cards: Flush.", set(), SECRETS).text == "Deal."


def test_h_screen_a_rivals_messages_repeating_the_writers_email_do_not_blind_the_net() -> None:
    """The rival knows the emails' wording and writes its lines to the writer in messages; the
    narration of his messages is skipped whole, never his words where the writer's email holds them."""
    lines = [line.removeprefix("- ") for line in TURN_EMAIL.splitlines() if line]
    told = [f"Message from Sparta to Athens: {line}" for line in lines]
    email = TURN_EMAIL + "\n".join(f"- {line}" for line in told)
    pasted = "Deal, I stay out of D3.\n\n" + TURN_EMAIL

    written = writers_words(pasted, word_runs([email], gaps=told), [])

    assert written.text == "Deal, I stay out of D3."


def test_h_screen_a_writer_may_repeat_a_message_as_the_emails_narrate_and_quote_it() -> None:
    said = "Deal: I leave Delos to you if you stay out of D3."
    email = f"What happened:\n- Message from Athens to Sparta: {said}\n\nSent to Sparta:\n\n> {said}\n"

    written = writers_words(said, word_runs([email], gaps=[f"Message from Athens to Sparta: {said}"]), [])

    assert written == Written(said)
