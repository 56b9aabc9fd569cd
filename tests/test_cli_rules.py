"""``chronicle audit --rules``, ``rules-check`` and ``upgrade`` (issue 19) on real corpus logs."""

from __future__ import annotations

from pathlib import Path

from server.cli.main import main
from server.cli.status import BAD_ARGS, DIVERGED, SUCCESS

CORPUS = Path(__file__).resolve().parent / "corpus"
ECHO_1_FIGHT_ENDS = CORPUS / "echo" / "echo-1" / "first-case-greedy-1.jsonl"  # a fight that ends at seq 32
ARKHAM_2_EVADE_KNOCKS_OUT = CORPUS / "arkham" / "arkham-2" / "frail-street-greedy-2.jsonl"  # Stamina 0 at seq 20
SKIRMISH_1 = CORPUS / "skirmish" / "skirmish-1" / "purge-greedy-1.jsonl"


def _audit(capsys, *args):
    status = main(["audit", *map(str, args)])
    return status, capsys.readouterr()


def test_ec_15_audit_of_an_echo_1_fight_that_ends_under_echo_2_names_ec_15(capsys):
    status, out = _audit(capsys, ECHO_1_FIGHT_ENDS, "--rules", "echo-2")
    assert status == DIVERGED
    lines = out.out.splitlines()
    assert lines[0] == "log played under echo-1, audited under echo-2"
    assert lines[1] == "diverges at seq 32 (EC-15)"
    # Check both outcomes: echo-1 ended the fight, echo-2 ends the round first (its movement point).
    assert lines[2].startswith("  logged under echo-1: ") and '"type":"CombatEnded"' in lines[2]
    assert lines[3].startswith("  produced under echo-2: ") and '"type":"CombatRoundEnded"' in lines[3]
    assert lines[4] == "  clause: logged EC-15, produced EC-15"
    assert lines[5].startswith("  echo-2 changed EC-15: the combat round in which a fight ends")


def test_ah_c4_audit_of_an_arkham_2_failed_evade_to_stamina_0_under_arkham_3_names_ah_c4(capsys):
    status, out = _audit(capsys, ARKHAM_2_EVADE_KNOCKS_OUT, "--rules", "arkham-3")
    assert status == DIVERGED
    lines = out.out.splitlines()
    assert lines[1] == "diverges at seq 20 (AH-C4)"
    # Check both outcomes: arkham-2 began combat (AH-8), arkham-3 knocks the investigator out (AH-C4).
    assert '"type":"CombatBegan"' in lines[2] and '"type":"KnockedOut"' in lines[3]
    assert lines[4] == "  clause: logged AH-8, produced AH-C4"
    assert lines[5].startswith("  arkham-3 changed AH-C4: a failed Evade that takes Stamina to 0")


def test_audit_under_a_version_the_log_replays_unchanged_under_says_so(capsys):
    status, out = _audit(capsys, SKIRMISH_1, "--rules", "skirmish-2")
    assert status == SUCCESS
    assert out.out.splitlines()[:3] == [
        "log played under skirmish-1, audited under skirmish-2", "replays unchanged under skirmish-2",
        "141 events verified",
    ]


def test_audit_under_an_older_version_names_what_the_newer_one_changed(capsys):
    """EC-8: an echo-2 game audited under echo-1 parts where echo-2's failed evasion holds for the round."""
    log = next(iter(sorted((CORPUS / "echo" / "echo-2").glob("bunba-brawl-greedy-1.jsonl"))))
    status, out = _audit(capsys, log, "--rules", "echo-1")
    assert status == DIVERGED
    assert "  echo-2 changed EC-8: a failed evasion lets the enemies strike first for the whole round" in out.out


def test_audit_under_an_unreleased_version_is_a_bad_argument_naming_the_released_ones(capsys):
    status, out = _audit(capsys, SKIRMISH_1, "--rules", "skirmish-9")
    assert status == BAD_ARGS
    assert "--rules: skirmish has no rules version 'skirmish-9' (released: skirmish-1, skirmish-2)" in out.err
