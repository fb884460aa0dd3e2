from django.core.management.base import BaseCommand, CommandError

from puzzlehub.jobs.services import discover_catalog
from puzzlehub.repos.models import Repository
from puzzlehub.repos.services import CATALOG_OWNER, publish_catalog
from solver import catalog
from solver.errors import PuzzleError


class Command(BaseCommand):
    help = f"Publish the built-in catalog puzzles as public repositories of user {CATALOG_OWNER} (idempotent)."

    def add_arguments(self, parser):
        parser.add_argument("names", nargs="*", help="catalog names (default: all of them)")

    def handle(self, *args, names, **options):
        unknown = [n for n in names if n not in catalog.names()]
        if unknown:
            raise CommandError(f"unknown catalog puzzle {unknown[0]}; see `puzzle catalog`")
        try:
            report = publish_catalog(names=names or None)
        except PuzzleError as exc:
            raise CommandError(str(exc)) from None
        for name, action in report:
            if action != "unchanged":
                self.stdout.write(f"{action:9} {CATALOG_OWNER}/{name}")
        unchanged = sum(1 for _, action in report if action == "unchanged")
        self.stdout.write(f"catalog: {len(report)} puzzles, {unchanged} unchanged")
        published = Repository.objects.filter(owner__username=CATALOG_OWNER, name__in=[n for n, _ in report])
        queued = discover_catalog(repositories=published.select_related("head", "owner"))
        if queued:
            self.stdout.write(f"{len(queued)} discovery runs and set builds queued for puzzles that have none")
