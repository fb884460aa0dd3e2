"""Solves stored before the worker kept only table names showed its file paths: keep their names."""

from pathlib import PurePath

from django.db import migrations


def names_only(apps, schema_editor):
    Job = apps.get_model("jobs", "Job")
    for job in Job.objects.filter(result__has_key="tables").only("id", "result").iterator():
        names = [PurePath(table).name for table in job.result["tables"]]
        if names != job.result["tables"]:
            Job.objects.filter(id=job.id).update(result=dict(job.result, tables=names))


class Migration(migrations.Migration):

    dependencies = [
        ('jobs', '0003_catalog_jobs_in_the_background'),
    ]

    operations = [
        migrations.RunPython(names_only, migrations.RunPython.noop),
    ]
