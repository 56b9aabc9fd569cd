"""Re-decide every logged command under today's rules and compare with what the log says.

Each command is decided again with the dice it was logged with (CORE-1): the generator derived
from the game's secret, once the log holds SecretRevealed and the secret opens GameStarted's
commitment (CORE-2), and its loaded dice if any; its events and every state hash must come out
the same. Exit statuses:

- 0, "N events verified", then how many commands were re-decided, K of them with dice from the
  revealed secret;
- 3, the first divergence, "seq S: logged ..., produced ..." (a tampered die, a secret that does
  not open the commitment, a wrong hash);
- 6, a log verified as far as it can be without the secret (a running game): every event folded
  and hashed, every command that draws nothing re-decided, and the output says how many commands
  drew random outcomes that wait for the reveal (and how many this copy of the log withholds);
- 7, a log that replays, but whose envelopes carry loaded dice (``chronicle play --dice``): those
  commands' outcomes were chosen by whoever made the log, not drawn from the secret (CORE-1), and
  the output names their seqs. It is 7 even when something waits for the reveal as well.

A log played under another rules version is named as such either way: a divergence then may be a
rules change, not a forgery.

``--rules VERSION`` re-decides the whole log under another released version of its game (issue
19): "replays unchanged under VERSION" (status 0, or 6 as above), or the first event where they
part, with both outcomes and the clause behind each ("clause: logged EC-15, produced EC-15";
a refusal names the rejection's clause) and what VERSION's release notes say of that clause.
Status 3 then too; an unreleased VERSION is a bad argument (status 2).
"""

from __future__ import annotations

import argparse

from events.game import RulesVersionChanged
from events.log import audit_log
from server import logfile
from server.cli.status import BAD_ARGS, DIVERGED, LOADED, SUCCESS, UNREVEALED, CommandError


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("log", metavar="LOG", help="a log file (JSON Lines)")
    parser.add_argument("--rules", metavar="VERSION", help="re-decide the log under this released rules version of "
                        "its game instead of the one it names (e.g. echo-2)")


def run(args: argparse.Namespace) -> int:
    game, envelopes = logfile.read(args.log)
    version = envelopes[0].event.rules_version
    if args.rules is not None:
        return _under(game, envelopes, args.rules)
    if version != game.rules_version:
        print(f"log was played under {version}, today's rules are {game.rules_version}")
    report = audit_log(game, envelopes)
    if report.divergence is not None:
        print(report.divergence)
        return DIVERGED
    for line in lines(report):
        print(line)
    return status(report)


def status(report) -> int:
    """The exit status of an audit that found no divergence (the module docstring's 0, 6 or 7)."""
    if report.complete:
        return SUCCESS
    return LOADED if report.loaded else UNREVEALED


def _under(game, envelopes: list, rules_version: str) -> int:
    """``--rules``: the whole log re-decided under another released version (follow=False)."""
    try:
        other = game.version(rules_version)
    except KeyError as error:
        raise CommandError(f"--rules: {error.args[0]}", BAD_ARGS) from None
    played = envelopes[0].event.rules_version
    moves = "".join(f", moved to {e.event.to_version} at seq {e.seq}" for e in envelopes
                    if isinstance(e.event, RulesVersionChanged))
    print(f"log played under {played}{moves}, audited under {other.rules_version}")
    report = audit_log(other, envelopes, follow=False)
    divergence = report.divergence
    if divergence is None:
        print(f"replays unchanged under {other.rules_version}")
        for line in lines(report):
            print(line)
        return status(report)
    for line in divergence_lines(divergence, other, played):
        print(line)
    return DIVERGED


def divergence_lines(divergence, game, played: str) -> list[str]:
    """The first divergence, the clause behind each outcome and what the newer versions say of it."""
    out = [f"diverges at seq {divergence.seq}" + (f" ({divergence.clause})" if divergence.clause else ""),
           f"  logged under {played}: {divergence.logged}",
           f"  produced under {game.rules_version}: {divergence.produced}",
           f"  clause: logged {divergence.logged_rule or '-'}, produced {divergence.produced_rule or '-'}"]
    try:
        changed = game.changes_since(played) if game.rules_version != played else ()
    except KeyError:  # auditing under an older version: what changed runs the other way
        changed = game.newest().version(played).changes_since(game.rules_version)
    for release, clause, text in changed:
        if clause in (divergence.logged_rule, divergence.produced_rule):
            out.append(f"  {release} changed {clause}: {text}")
    return out


def lines(report) -> list[str]:
    """What the audit established, in plain words (the first line alone when everything was checked)."""
    commands = _count(report.redecided, "command")
    if report.complete:
        dice = f", {report.with_dice} with dice from the revealed secret" if report.revealed else ""
        return [f"{report.events} events verified", f"  {commands} re-decided{dice}"]
    out = [f"{report.events} events folded and hashed; {commands} re-decided; NOT fully verified:"]
    if report.sealed:
        out.append(f"  {_count(report.sealed, 'command')} drew random outcomes that wait for the game's secret, "
                   "revealed when the game ends (CORE-2): audit the log again then")
    if report.loaded:
        shown = ", ".join(str(seq) for seq in report.loaded[:LOADED_SHOWN])
        more = f" and {len(report.loaded) - LOADED_SHOWN} more" if len(report.loaded) > LOADED_SHOWN else ""
        out.append(f"  {_count(len(report.loaded), 'command')} took loaded dice, chosen by whoever made the log "
                   f"and not drawn from the game's secret (CORE-1): seq {shown}{more}")
    if report.withheld:
        out.append(f"  {_count(report.withheld, 'command')} withheld from this copy of the log (hidden "
                   "information): the whole log is public once the game is over")
    if report.over and not report.revealed:
        out.append("  the game is over but the log holds no SecretRevealed: it was cut short or tampered with")
    return out


LOADED_SHOWN = 10  # seqs of commands with loaded dice named in the output; the rest are counted


def _count(number: int, what: str) -> str:
    return f"{number} {what}" + ("" if number == 1 else "s")
