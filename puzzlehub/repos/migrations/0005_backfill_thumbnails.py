"""Thumbnails for the heads of repositories made before revisions had them (0003): cards show the
head's thumbnail, and a repository nobody revises again would otherwise never get one."""

from django.db import migrations


def draw_missing_thumbnails(apps, schema_editor):
    from puzzlehub.web.drawing import thumbnail_svg  # pure drawing: no app models involved
    from solver import api as solver_api
    from solver.errors import PuzzleError

    Revision, Repository = apps.get_model("repos", "Revision"), apps.get_model("repos", "Repository")
    heads = Revision.objects.filter(id__in=Repository.objects.values("head_id"), thumbnail="")
    heads = heads.only("id", "definition", "presentation")
    for revision in heads.iterator():
        try:
            defn = solver_api.with_presentation(solver_api.load_text(revision.definition), revision.presentation)
        except PuzzleError:  # a definition today's rules refuse stays without a picture, as before
            continue
        Revision.objects.filter(id=revision.id).update(thumbnail=thumbnail_svg(defn))


class Migration(migrations.Migration):
    dependencies = [("repos", "0004_revision_group_data")]
    operations = [migrations.RunPython(draw_missing_thumbnails, migrations.RunPython.noop)]
