"""A new public revision whose puzzle has no algorithms gets a discovery run, within its owner's
quota, once the revision is committed. The catalog's own revisions are queued by publish_catalog
(smallest first, outside quotas), so they are left alone here."""

from django.conf import settings
from django.db import transaction
from django.db.models.signals import post_save
from django.dispatch import receiver

from puzzlehub.jobs import services
from puzzlehub.repos.models import Revision
from puzzlehub.repos.services import CATALOG_OWNER


@receiver(post_save, sender=Revision, dispatch_uid="discover_new_puzzle")
def _discover_new_puzzle(sender, instance: Revision, created: bool, **kwargs) -> None:
    if not created or not settings.DISCOVER_NEW_PUZZLES or instance.repository.owner.username == CATALOG_OWNER:
        return
    revision_id = instance.id
    transaction.on_commit(lambda: _queue(revision_id))


def _queue(revision_id: int) -> None:
    revision = Revision.objects.select_related("repository__owner").filter(id=revision_id).first()
    if revision is not None and revision.repository.head_id == revision.id:
        services.discover_new_puzzle(revision=revision)
