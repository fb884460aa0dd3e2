"""The generic engine's method names, apart from engine.py so that the command line and the site
can list and check them without loading the compiled search."""

METHODS = ("table", "ida", "phases", "fallback", "astar", "bidir", "bfs")
