"""A revision's facts within a time budget.

What a definition says directly (name, stickers, moves, content hash) is read in the request. The
analysis (pieces, group order, number of states: solver.api.info) can take long on a large
definition, so it runs in a forked child process given PUZZLEHUB_ANALYSIS_BUDGET seconds: the web
process only waits, and a child still working at the deadline is killed. The revision is then stored
with its facts pending, and a worker (task `revisions.analyse`) computes them and fills them in on
every revision of that puzzle; pages say "being analysed" until then.
"""

import logging
import multiprocessing

from django.conf import settings
from django.db import transaction

from puzzlehub.celery import app
from puzzlehub.repos.models import Revision
from puzzlehub.web.drawing import thumbnail_svg  # a pure drawing module: it imports nothing of the apps
from solver import api as solver_api
from solver.numbers import decimal_text

log = logging.getLogger(__name__)

TASK = "revisions.analyse"


def direct_facts(defn) -> dict:
    """The facts read straight from the definition (and its thumbnail), the analysed ones left pending."""
    return {
        "content_hash": solver_api.content_hash(defn), "puzzle_name": defn.name, "stickers": defn.stickers,
        "thumbnail": thumbnail_svg(defn),
        "moves_count": len(defn.moves), "state_count": "", "state_count_exact": False, "group_order": "",
        "facts": {"move_names": defn.move_names, "goals": len(defn.goals), "guarded": defn.guarded,
                  "pending": True},
    }


def analysed_facts(info: dict, group_data: dict | None) -> dict:
    """Revision fields from solver.api.info and solver.api.group_data."""
    return {
        "group_data": group_data,
        "state_count": decimal_text(info["state_count"]),
        "state_count_exact": bool(info["state_count_exact"]),
        "group_order": "" if info.get("group_order") is None else decimal_text(info["group_order"]),
        "facts": {"move_names": info.get("move_names", []), "orbits": info.get("orbits", []),
                  "goals": info.get("goals", 1), "guarded": info.get("guarded", False),
                  "group_order_exact": info.get("group_order_exact")},
    }


def _analyse_in_child(analyse, defn, pipe) -> None:
    try:
        pipe.send(("ok", analyse(defn)))
    except Exception as exc:  # noqa: BLE001 - the parent decides; the child only reports
        pipe.send(("error", f"{type(exc).__name__}: {exc}"))


def _revision_analysis(defn) -> dict:
    return analysed_facts(solver_api.info(defn), solver_api.group_data(defn))


def facts_within(defn, budget: float) -> dict | None:
    """The analysed facts of defn (with its group data), or None when they take longer than
    `budget` seconds (or fail)."""
    return _within(_revision_analysis, defn, budget)


def info_within(defn, budget: float) -> dict | None:
    """solver.api.info(defn) alone (a preview's), or None when it takes longer than `budget` seconds."""
    return _within(solver_api.info, defn, budget)


def _within(analyse, defn, budget: float) -> dict | None:
    """analyse(defn) in a forked child, or None when it takes longer than `budget` seconds (or fails)."""
    reader, writer = multiprocessing.Pipe(duplex=False)
    child = multiprocessing.get_context("fork").Process(target=_analyse_in_child, args=(analyse, defn, writer),
                                                        daemon=True)
    child.start()
    writer.close()
    try:
        if not reader.poll(budget):
            return None
        outcome, value = reader.recv()
    except EOFError:  # the child died (out of memory, killed)
        return None
    finally:
        if child.is_alive():
            child.kill()
        child.join()
        reader.close()
    if outcome != "ok":
        log.warning("analysis in the request failed (%s); a worker will try", value)
        return None
    return value


def revision_facts(defn) -> dict:
    """The fields of a new revision: complete when the analysis fits the budget, else pending. A
    definition without a layout that may be a catalog puzzle waits for a worker to find its drawing
    (`layout_pending`)."""
    facts = direct_facts(defn)
    analysed = facts_within(defn, settings.PUZZLEHUB_ANALYSIS_BUDGET)
    if analysed is not None:
        facts.update(analysed)
    if solver_api.borrowable(defn):
        facts["facts"]["layout_pending"] = True
    return facts


def analyse_later(content_hash: str) -> None:
    """Once the transaction commits, ask a worker for the pending facts of this puzzle."""
    def send():
        try:
            app.send_task(TASK, args=[content_hash], queue=settings.PUZZLEHUB_ANALYSIS_QUEUE)
        except Exception as exc:  # noqa: BLE001 - the broker is down: the facts stay pending
            log.warning("analysis of %s not sent: %s", content_hash, exc)
    transaction.on_commit(send)


def fill_pending(content_hash: str, defn) -> int:
    """Analyse without a budget (in a worker) and fill in every pending revision of the puzzle."""
    done = analysed_facts(solver_api.info(defn), solver_api.group_data(defn))
    return Revision.objects.filter(content_hash=content_hash, facts__pending=True).update(**done)


def fill_presentation(content_hash: str, defn) -> int:
    """Find the drawing of a layout-less puzzle (in a worker: the match takes seconds) and give it,
    with a thumbnail drawn from it, to every revision of the puzzle waiting for one. Runs before
    fill_pending, whose update replaces the facts (and so the flag)."""
    found = solver_api.borrowed_presentation(defn)
    thumbnail = thumbnail_svg(solver_api.with_presentation(defn, found)) if found else None
    count = 0
    with transaction.atomic():
        for revision in Revision.objects.select_for_update().filter(content_hash=content_hash,
                                                                     facts__layout_pending=True):
            revision.facts.pop("layout_pending", None)
            revision.presentation = found
            revision.thumbnail = thumbnail or revision.thumbnail
            revision.save(update_fields=["facts", "presentation", "thumbnail"])
            count += 1
    return count
