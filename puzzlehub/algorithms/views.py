"""Pages of algorithm sets: a puzzle's sets, a set's grid of cases (filters by length and by move
subset), and a case with every algorithm for it. Cases are drawn with only the set's stickers
coloured."""

from collections import Counter

from django.http import Http404
from django.shortcuts import render

from puzzlehub.algorithms import selectors
from puzzlehub.jobs.selectors import definition_of
from puzzlehub.repos import selectors as repo_selectors
from puzzlehub.web.drawing import puzzle_svg
from solver import api as solver_api

HIDDEN = "\0"  # the symbol drawn for stickers outside the set


def _case_drawing(defn, algorithm_set, state, label):
    inside = set(algorithm_set.stickers)
    shown = [c if x in inside else HIDDEN for x, c in enumerate(state)]
    return puzzle_svg(defn, shown, label=label, extra_colours={HIDDEN: "#d7dbe0"})


def _filters(request) -> tuple[int | None, set[str], str]:
    text = request.GET.get("max_length", "").strip()
    max_length = int(text) if text.isdigit() else None
    moves = request.GET.get("moves", "").replace(",", " ").split()
    return max_length, set(moves), " ".join(moves)


def sets_page(request, owner, name):
    repository = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
    rows = []
    for algorithm_set in selectors.sets_for(repository=repository):
        shortest = [min((a.length for a in c.algorithms.all()), default=None)
                    for c in selectors.set_cases(algorithm_set=algorithm_set, repository=repository)]
        lengths = Counter(n for n in shortest if n is not None)
        rows.append({"set": algorithm_set, "cases": len(shortest), "solved": sum(lengths.values()),
                     "lengths": sorted(lengths.items())})
    return render(request, "algorithms/sets.html", {"repo": repository, "rows": rows})


def set_page(request, owner, name, move, kind):
    repository = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
    algorithm_set = selectors.get_set(repository=repository, move=move, kind=kind)
    defn = definition_of(repository.head)
    max_length, subset, moves_text = _filters(request)
    cases = []
    for case in algorithm_set.cases.all():
        algorithms = selectors.case_algorithms(case=case, repository=repository, max_length=max_length, subset=subset)
        if (max_length or subset) and not algorithms:
            continue  # the filters hide cases with no algorithm that passes them
        cases.append({"case": case, "best": algorithms[0] if algorithms else None,
                      "alternatives": max(0, len(algorithms) - 1),
                      "drawing": _case_drawing(defn, algorithm_set, case.state, f"case {case.number}")})
    return render(request, "algorithms/set.html", {
        "repo": repository, "set": algorithm_set, "cases": cases, "total": algorithm_set.cases.count(),
        "max_length": max_length or "", "moves": moves_text,
        "move_names": " ".join(definition_of(repository.head).move_names),
    })


def case_page(request, owner, name, move, kind, number):
    repository = repo_selectors.get_repository(owner=owner, name=name, user=request.user)
    algorithm_set = selectors.get_set(repository=repository, move=move, kind=kind)
    case = algorithm_set.cases.filter(number=number).first()
    if case is None:
        raise Http404(f"no case {number} in this set")
    defn = definition_of(repository.head)
    # each algorithm plays from the state of the case it solves as it is (not always the drawn one:
    # solver.discover.cases.case_start) towards the set's goal (partial: the rest does not matter)
    rows = [{"algorithm": a, "start": solver_api.state_text(
                defn, solver_api.case_start(defn, algorithm_set.goal, a.moves.split()))}
            for a in selectors.case_algorithms(case=case, repository=repository)]
    return render(request, "algorithms/case.html", {
        "repo": repository, "set": algorithm_set, "case": case, "rows": rows,
        "goal": solver_api.state_text(defn, algorithm_set.goal),
        "drawing": _case_drawing(defn, algorithm_set, case.state, f"case {case.number}"),
    })
