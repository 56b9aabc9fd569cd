"""Bots for empty seats, and the one playout loop that drives them.

A bot is a policy: given what its seat may see (the folded state) it picks one of the seat's
legal commands. ``RandomBot`` plays uniformly among them; ``GreedyBot`` looks one command ahead:
it decides each legal command with dice of its own (never the game's, which it cannot know),
folds the events and keeps the command whose outcome its game's ``score`` rates best. Each game
writes that score in ``events/games/<name>/bot.py``, a few lines of what matters in it: clues, trophies, hit points, explored Locations.

A bot may be handed a seat's view rather than the whole state (the server folds what the seat
may see: ``server/room.py``); a greedy lookahead that needs what the view hides rates that command
as the position unchanged.

A bot answers an undo that waits for its yes (``answer_undo``): yes, unless what it takes back holds a
draw or a reveal, which would be drawn anew (CORE-12): then no, for a seat alone against bots could
otherwise re-roll any die it dislikes. A person alone against bots can still take back moves that drew
nothing.

Bots are pure like the rest of the core: no clock, no I/O; their choices come from the
``chooser`` generator they are handed, so a bot game replays exactly from its seed. Their work is
bounded: at most ``MAX_OPTIONS`` commands are looked at per choice.
"""

from __future__ import annotations

from events.game import Flow
from events.log import fold
from events.rng import Rng
from events.rules import Rejection, refuse
from events.undo import AnswerUndo

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

    from events.game import Game

MAX_OPTIONS = 40  # commands a greedy bot tries per choice (a sample of them when there are more)
POLICIES = ("random", "greedy")


class RandomBot:
    """Any legal command, uniformly."""

    policy = "random"

    def choose(self, game: Game, state: Any, seat: str, chooser: Rng) -> Any:
        options = tuple(game.legal(state, seat))
        if not options:
            return None
        return chooser.pick(options)


class GreedyBot:
    """The legal command whose outcome, with the bot's own dice, ``score`` rates best."""

    policy = "greedy"

    def __init__(self, score: Callable[[Any, str], int]) -> None:
        self.score = score

    def choose(self, game: Game, state: Any, seat: str, chooser: Rng) -> Any:
        options = list(game.legal(state, seat))
        if not options:
            return None
        while len(options) > MAX_OPTIONS:  # a uniform sample, in the options' own order
            options.pop(chooser.below(len(options)))
        best: list = []
        best_score = None
        for option in options:
            try:
                produced = game.decide(state, seat, option, Rng(chooser.next64()))
            except AttributeError:
                # On a seat's view some outcomes cannot be worked out: the last secret pick of a
                # round reveals everyone's (GH-C2), and the view holds the others' sealed with
                # nothing inside (None). Such a command is rated as the position it stands in.
                produced = []
            if isinstance(produced, Rejection):  # pragma: no cover - legal() lists what decide accepts
                continue
            states = produced.states_from(state) if isinstance(produced, Flow) else None
            after = states[-1] if states else fold(game, produced, state)  # a Flow folded it already
            value = self.score(after, seat)
            if best_score is None or value > best_score:
                best, best_score = [option], value
            elif value == best_score:
                best.append(option)
        return chooser.pick(tuple(best)) if best else chooser.pick(tuple(options))


def score_of(game_name: str) -> Callable[[Any, str], int]:
    """The game's ``score(state, seat)``, from ``events/games/<name>/bot.py``."""
    # Explicit imports, as in ``events.games.load``: a bundler sees them and nothing is imported by name.
    if game_name == "mecha":
        from events.games.mecha.bot import score
    elif game_name == "arkham":
        from events.games.arkham.bot import score
    elif game_name == "gloomhaven":
        from events.games.gloomhaven.bot import score
    elif game_name == "echo":
        from events.games.echo.bot import score
    elif game_name == "skirmish":
        from events.games.skirmish.bot import score
    else:
        raise KeyError(f"no bot score for game {game_name!r}")
    return score


def bot(game: Game, policy: str) -> RandomBot | GreedyBot:
    """A bot of the named policy for this game; ``ValueError`` names the known policies."""
    if policy == "random":
        return RandomBot()
    if policy == "greedy":
        return GreedyBot(score_of(game.name))
    raise ValueError(f"unknown bot policy {policy!r} (known: {', '.join(POLICIES)})")


def next_mover(game: Game, state: Any, chooser: Rng) -> str | None:
    """One of the seats that may act now and have a legal command (several act at once in
    Gloomhaven's card selection), or None when nobody can."""
    seats = tuple(seat for seat in game.turn(state) if game.legal(state, seat))
    return chooser.pick(seats) if seats else None


def random_step(game: Game, state: Any, chooser: Rng) -> tuple | None:
    """``(seat, command)``: a seat that may act now and one of its legal commands, each uniformly
    (``RandomBot``); None when nobody can act. The one random step of every loop that drives a game
    itself (``chronicle play --random``, the benches, tests that submit with their own ids or dice)."""
    seat = next_mover(game, state, chooser)
    if seat is None:
        return None
    return seat, RandomBot().choose(game, state, seat, chooser)


def playout(table: Any, bots: dict, chooser: Rng, limit: int, prefix: str = "bot", on_result: Any = None) -> int:
    """Play ``table`` with ``bots`` (seat -> bot; a seat without one plays at random) until the game
    is over, nobody can act, or ``limit`` commands were made. Returns the number of commands made.

    ``on_result(seat, command, result)``, if given, sees each submission's answer (the CLI prints
    them). Command ids are ``{prefix}-{seq}``: unique in the log, since seq only grows.
    """
    game = table.game
    fallback = RandomBot()
    made = 0
    while made < limit and not game.is_over(table.state):
        seat = next_mover(game, table.state, chooser)
        if seat is None:
            break
        command = bots.get(seat, fallback).choose(game, table.state, seat, chooser)
        result = table.submit(seat, command, f"{prefix}-{table.seq + 1}")
        made += 1
        if on_result is not None:
            on_result(seat, command, result)
        if isinstance(result, Rejection):  # pragma: no cover - bots choose among legal commands
            raise ValueError(f"{game.name}: a bot's legal command was refused: {result}")
    return made


def answer_undo(table: Any, seat: str) -> tuple | None:
    """A bot's answer, as ``seat``, to the open undo request of ``table`` (an ``events.log.Table``) if it
    waits for ``seat``'s yes, else None: ``(AnswerUndo, why)``, ``why`` None for a yes, else the
    Rejection its no stands for (CORE-12).

    No when what it takes back holds a draw or a reveal (or whether it does is not known here): in a
    CORE-12 game that stretch is drawn anew once taken back (a re-roll); in a CORE-7 game its outcome
    is public and the asker chooses which command gets it. Yes otherwise, as a bot always said (CORE-6).
    """
    undos = table.undos
    request = undos.open
    if request is None or seat not in request.needs or seat in request.agreed:
        return None
    if request.redraw or undos.crosses_chance(table, request):
        why = refuse("CORE-12", "reject.bots.no_redraw", "{seat} is a bot: it says no to an undo that takes "
                     "back a draw or a reveal (taken back, it is drawn anew)", seat=seat)
        return AnswerUndo(request.seq, False, "CORE-12" if request.redraw else None), why
    return AnswerUndo(request.seq, True), None
