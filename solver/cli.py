"""The `puzzle` command (also `python -m solver`).

Bad input of any kind ends with exit code 2 and one line on stderr; `verify` of a sequence that does
not solve, and `solve` that finds nothing within its budget, end with exit code 1.
"""

from __future__ import annotations

import argparse
import json
import math
import sys

# Start-up is part of every command's time, and compiling our modules from source costs about a
# tenth of a second: keep their bytecode even where the environment says not to (PYTHONDONTWRITEBYTECODE).
sys.dont_write_bytecode = False

from solver import api, catalog, engine, geometry, numbers
from solver.draw import draw_text
from solver.errors import PuzzleError


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line, exit 2, no usage dump
        raise _UsageError(f"{self.prog}: {message}")


class _UsageError(Exception):
    pass


SOLVE_SECONDS = 60.0  # a solve's time limit when none is given and no proof is asked for


def _seconds(text: str) -> float:
    """--time-limit: a positive, finite number of seconds (nan and inf limit nothing)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number of seconds: {text!r}") from None
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, got {text}")
    return value


def _state_arg(defn, args):
    return api.parse_state(defn, args.state) if args.state is not None else defn.goal


def _emit(data, as_json: bool, text: str):
    print(json.dumps(data) if as_json else text)


def cmd_catalog(args):
    names = catalog.names()
    if args.json:
        print(json.dumps([{"name": n, "description": catalog.describe(n)} for n in names]))
    else:
        width = max(len(n) for n in names)
        for n in names:
            print(f"{n.ljust(width)}  {catalog.describe(n)}")


def cmd_show(args):
    print(api.export_yaml(api.load(args.definition), args.format), end="")


def cmd_import(args):
    print(api.export_yaml(api.import_file(args.file, args.format)), end="")


def cmd_shape(args):
    if args.list:
        width = max(len(n) for n in geometry.NAMED)
        for name, text in geometry.NAMED.items():
            print(f"{name.ljust(width)}  {text}")
        return
    if args.description is None:
        raise _UsageError("puzzle shape: give a DESCRIPTION (e.g. 'c f 0.333333333333333') or --list")
    print(api.shape_yaml(args.description, args.name), end="")


def cmd_info(args):
    facts = api.info(api.load(args.definition))
    if args.json:
        print(numbers.json_text(facts))  # counts can be longer than str(int) allows
        return
    count = numbers.grouped(facts["state_count"]) + ("" if facts["state_count_exact"] else " (upper bound)")
    lines = [
        f"name:        {facts['name']}",
        f"stickers:    {facts['stickers']}",
        f"moves:       {facts['moves']} ({' '.join(facts['move_names'][:40])}{' ...' if facts['moves'] > 40 else ''})",
        f"goals:       {facts['goals']}",
        "orbits:      " + ("; ".join(
            f"{o['name']}: {o['pieces']} pieces of {o['stickers_per_piece']}, {o['orientations']} orientations"
            for o in facts["orbits"]) or "none"),
        (f"group order: {numbers.grouped(facts['group_order'])}" + ("" if facts["group_order_exact"] else " (lower bound)"))
        if facts["group_order"] is not None else "group order: - (guarded moves)",
        f"states:      {count}",
        f"hash:        {facts['hash']}",
    ]
    print("\n".join(lines))


def cmd_scramble(args):
    defn = api.load(args.definition)
    if args.random_state and args.moves is not None:
        raise _UsageError("puzzle scramble: give --moves or --random-state, not both")
    result = api.scramble(defn, moves=25 if args.moves is None and not args.random_state else args.moves,
                          random_state=args.random_state, seed=args.seed)
    state = engine.state_text(defn, result["state"])
    data = {"moves": result["moves"], "state": engine.format_state(defn, result["state"])}
    if "uniform" in result:
        data["uniform"] = result["uniform"]
    text = (" ".join(result["moves"]) + "\n" if result["moves"] is not None else "") + state
    _emit(data, args.json, text)


def cmd_apply(args):
    defn = api.load(args.definition)
    state = api.apply_moves(defn, api.parse_moves(defn, args.moves), _state_arg(defn, args))
    print(engine.state_text(defn, state))


def cmd_solve(args):
    defn = api.load(args.definition)
    if (args.scramble is None) == (args.state is None):
        raise _UsageError("puzzle solve: give exactly one of --scramble MOVES or --state STATE")
    goal = None if args.goal is None else api.parse_goal(defn, args.goal)
    if args.scramble is not None:
        state = api.apply_moves(defn, api.parse_moves(defn, args.scramble))
    else:  # towards a partial goal, the state may say `?` too
        state = api.parse_state(defn, args.state, wildcard=None if goal is None else api.WILDCARD)
    if args.max_length is not None and args.max_length < 0:
        raise _UsageError("puzzle solve: --max-length must be 0 or more")
    # without a limit a big puzzle's chains may search on for ever, its long answer in hand
    limit = args.time_limit if args.time_limit is not None or args.optimal else SOLVE_SECONDS
    result = api.solve(defn, state, optimal=args.optimal, method=args.method, time_limit=limit,
                       max_length=args.max_length, goal=goal)
    if result["solution"] is None:
        # Same exit code with or without --json: a script must not read "no answer" as success.
        reason = result["stopped"] or "search space exhausted: no goal reachable within the search"
        if args.json:  # the phase that ran out is its own field
            print(json.dumps({**result, "reason": reason}))
        else:
            during = f" during {result['phase']}" if result.get("phase") else ""
            print(f"no solution found ({reason}{during}) after {result['seconds']} s, {result['nodes']:,} nodes")
        return 1
    if args.json:
        print(json.dumps(result))
        return
    print(" ".join(result["solution"]) or "(already solved)")
    flags = ["optimal" if result["optimal"] else "not proven optimal", "verified" if result["verified"] else "NOT VERIFIED"]
    if result["stopped"]:
        flags.append(f"stopped: {result['stopped']}")
    print(f"{result['length']} moves, {', '.join(flags)}, method {result['method']}, "
          f"{result['seconds']} s, {result['nodes']:,} nodes", file=sys.stderr)


def cmd_verify(args):
    defn = api.load(args.definition)
    state = api.parse_state(defn, args.state)
    moves = api.parse_moves(defn, args.solution)
    if api.verify(defn, state, moves):
        print(f"ok: solved in {len(moves)} moves")
    else:
        print("not solved: the moves do not reach a goal from this state")
        return 1


def cmd_draw(args):
    defn = api.load(args.definition)
    print(draw_text(defn, _state_arg(defn, args)))


def _size(text: str) -> int:
    scale = {"K": 2**10, "M": 2**20, "G": 2**30}.get(text[-1:].upper(), 1)
    try:
        return int(float(text.rstrip("kKmMgG")) * scale)
    except ValueError:
        raise _UsageError(f"puzzle: --budget: {text!r} is not a size like 512M") from None


def cmd_pdb_build(args):
    from solver.search import engine as search  # numba loads only for the commands that search

    defn = api.load(args.definition)
    headers = search.pdb_build(defn, budget_bytes=_size(args.budget) if args.budget else None)
    if args.json:
        print(json.dumps(headers))
        return
    for h in headers:
        print(f"{h['description']}: {h['entries']:,} entries, {h['bits']} bits, max distance {h['max_depth']}, "
              f"built in {h['build_seconds']} s")


def cmd_pdb_list(args):
    from solver.search import engine as search  # numba loads only for the commands that search

    rows = search.pdb_list()
    if args.json:
        print(json.dumps(rows))
        return
    for h in rows:
        print(f"{h['name']}  {h['description']}  {h['entries']:,} entries  {h['bytes']:,} bytes  {h['path']}")


def cmd_gods(args):
    from solver.search import engine as search  # numba loads only for the commands that search

    facts = search.gods(api.load(args.definition), budget_bytes=_size(args.budget) if args.budget else None)
    if args.json:
        print(json.dumps(facts))
        return
    for d, count in facts["distribution"].items():
        print(f"{d:>4}  {count:,}")
    print(f"{facts['states']:,} states; God's number {facts['gods_number']}; {facts['antipodes']:,} antipodes")


def cmd_effect(args):
    defn = api.load(args.definition)
    result = api.effect(defn, api.parse_moves(defn, args.moves))
    if args.json:
        print(json.dumps(result))
        return
    print(result["effect"])
    print(f"support {result['support']} pieces, order {result['order']}, key {result['effect_key']}")


def cmd_discover(args):
    defn = api.load(args.definition)
    for name in ("max_length", "max_support"):
        value = getattr(args, name)
        if value is not None and value < 1:
            raise _UsageError(f"puzzle discover: --{name.replace('_', '-')} must be at least 1")
    results = api.discover(defn, max_length=args.max_length, max_support=args.max_support,
                           time_limit=args.time_limit)
    if args.json:
        print(json.dumps(results))
        return
    if not results:
        print("nothing found within the limits")
        return 1
    width = max(r["length"] for r in results)
    for r in results:
        mark = "*" if r["shortest"] else " "
        print(f"{r['length']:>{len(str(width))}}{mark} {r['effect']}: {' '.join(r['moves'])}")
    print("* shortest for its effect", file=sys.stderr)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="puzzle", description="Define, inspect and solve permutation puzzles.")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    d = "catalog name, definition file (YAML, KPuzzle JSON, ksolve/twsearch), shape:DESCRIPTION or a named shape"

    p = sub.add_parser("catalog", help="list the built-in puzzles")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_catalog)

    p = sub.add_parser("show", help="print a definition as YAML")
    p.add_argument("definition", help=d)
    p.add_argument("--format", choices=["native", "seed", "kpuzzle", "ksolve"], default="native")
    p.set_defaults(run=cmd_show)

    p = sub.add_parser("import", help="read a KPuzzle JSON or ksolve/twsearch file, print the native YAML")
    p.add_argument("file")
    p.add_argument("--format", choices=["kpuzzle", "ksolve"], help="default: guessed from the name and content")
    p.set_defaults(run=cmd_import)

    p = sub.add_parser("export", help="write a definition as KPuzzle JSON or a ksolve/twsearch file")
    p.add_argument("definition", help=d)
    p.add_argument("--format", choices=["kpuzzle", "ksolve"], required=True)
    p.set_defaults(run=cmd_show)

    p = sub.add_parser("shape", help="build a puzzle from a shape: a solid and its cuts, or a named shape")
    p.add_argument("description", nargs="?",
                   help="e.g. 'c f 0.333333333333333' (3x3x3), 'o f 0.333333333333333' or 'megaminx'")
    p.add_argument("--list", action="store_true", help="list the named shapes and their descriptions")
    p.add_argument("--name", help="the definition's name (default: the named shape's, else shape)")
    p.set_defaults(run=cmd_shape)

    p = sub.add_parser("info", help="facts: stickers, moves, orbits, group order, state count, hash")
    p.add_argument("definition", help=d)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_info)

    p = sub.add_parser("scramble", help="random moves or a uniformly random state")
    p.add_argument("definition", help=d)
    p.add_argument("--moves", type=int, help="number of random moves (default 25)")
    p.add_argument("--random-state", action="store_true", help="a uniformly random reachable state")
    p.add_argument("--seed", type=int)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_scramble)

    p = sub.add_parser("apply", help="apply moves and print the state reached")
    p.add_argument("definition", help=d)
    p.add_argument("moves", help="move names separated by spaces")
    p.add_argument("--state", help="start state (default: the goal)")
    p.set_defaults(run=cmd_apply)

    p = sub.add_parser("solve", help="solve a scramble or a state")
    p.add_argument("definition", help=d)
    p.add_argument("--scramble", help="moves applied to the goal")
    p.add_argument("--state", help="colours, as letters, space-separated symbols or a JSON list")
    p.add_argument("--goal", help="a partial goal: the puzzle's goal with ? where a sticker does not matter")
    p.add_argument("--optimal", action="store_true", help="insist on a shortest solution")
    p.add_argument("--method", choices=api.METHODS, help="force a method (special: the specialized solver)")
    p.add_argument("--time-limit", type=_seconds,
                   help=f"the most seconds to spend (default {SOLVE_SECONDS:g}; none with --optimal)")
    p.add_argument("--max-length", type=int,
                   help="target length: stop at the first answer this short (default: the solver's, 20 for the 3x3x3)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_solve)

    p = sub.add_parser("pdb", help="pattern databases: build the tables a puzzle's solves use, or list them")
    pdb_sub = p.add_subparsers(dest="pdb_command", required=True, parser_class=_Parser)
    q = pdb_sub.add_parser("build", help="build (or find in the cache) the tables solve would use")
    q.add_argument("definition", help=d)
    q.add_argument("--budget", help="memory for the tables, e.g. 512M (default PUZZLEHUB_PDB_BUDGET or 512M)")
    q.add_argument("--json", action="store_true")
    q.set_defaults(run=cmd_pdb_build)
    q = pdb_sub.add_parser("list", help="the tables in the cache folder (PUZZLEHUB_CACHE)")
    q.add_argument("--json", action="store_true")
    q.set_defaults(run=cmd_pdb_list)

    p = sub.add_parser("gods", help="distance distribution of the whole state space, God's number")
    p.add_argument("definition", help=d)
    p.add_argument("--budget", help="memory for the table, e.g. 512M")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_gods)

    p = sub.add_parser("verify", help="check that a move sequence solves a state")
    p.add_argument("definition", help=d)
    p.add_argument("--state", required=True)
    p.add_argument("--solution", required=True)
    p.set_defaults(run=cmd_verify)

    p = sub.add_parser("effect", help="what a move sequence does to the pieces")
    p.add_argument("definition", help=d)
    p.add_argument("moves", help="move names separated by spaces")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_effect)

    p = sub.add_parser("discover", help="find short sequences that touch few pieces (algorithms)")
    p.add_argument("definition", help=d)
    p.add_argument("--max-length", type=int, help="longest sequence, in moves")
    p.add_argument("--max-support", type=int, help="most pieces touched (default 4)")
    p.add_argument("--time-limit", type=_seconds, help="seconds (default 30)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=cmd_discover)

    p = sub.add_parser("draw", help="draw a state as text")
    p.add_argument("definition", help=d)
    p.add_argument("--state")
    p.set_defaults(run=cmd_draw)
    return parser


def main(argv=None) -> int:
    try:
        args = build_parser().parse_args(argv)
        return args.run(args) or 0
    except _UsageError as exc:
        print(_one_line(str(exc)), file=sys.stderr)
        return 2
    except PuzzleError as exc:
        print(_one_line(f"puzzle: error: {exc}"), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("puzzle: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def _one_line(text: str) -> str:
    return " ".join(text.split())


if __name__ == "__main__":
    sys.exit(main())
