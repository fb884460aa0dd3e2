import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def record_repository(apps, schema_editor):
    """Existing algorithms belong to the repository of the revision they were made on."""
    Algorithm = apps.get_model("algorithms", "Algorithm")
    Revision = apps.get_model("repos", "Revision")
    Algorithm.objects.filter(revision__isnull=False).update(
        repository=models.Subquery(Revision.objects.filter(id=models.OuterRef("revision_id")).values("repository_id")[:1])
    )


class Migration(migrations.Migration):

    dependencies = [
        ('algorithms', '0003_algorithm_sets'),
        ('repos', '0002_counts_as_text'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='algorithm',
            name='algorithm_unique_per_puzzle',
        ),
        migrations.AddField(
            model_name='algorithm',
            name='repository',
            field=models.ForeignKey(null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='algorithms', to='repos.repository'),
        ),
        migrations.RunPython(record_repository, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name='algorithm',
            constraint=models.UniqueConstraint(fields=('repository', 'moves'), name='algorithm_unique_per_repository'),
        ),
    ]
