from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('jobs', '0001_initial'),
        ('repos', '0002_counts_as_text'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name='job',
            name='one_active_pdb_build',
        ),
        migrations.AddConstraint(
            model_name='job',
            constraint=models.UniqueConstraint(condition=models.Q(('kind', 'pdb'), ('status__in', ['queued', 'running'])), fields=('dedupe_key', 'user'), name='one_active_pdb_build_per_user'),
        ),
    ]
