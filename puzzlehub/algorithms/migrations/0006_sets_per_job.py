"""Sets are no longer one per puzzle, layer and kind, shared by every repository of the puzzle: each
build keeps its own, and a repository shows those of jobs its readers may open (a set built on a
private repository was shown on public repositories of the same puzzle). Existing sets, one per
puzzle, layer and kind, are one per job, layer and kind too."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ("algorithms", "0005_algorithm_written"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="algorithmset", name="one_set_per_layer_kind"),
        migrations.AddConstraint(
            model_name="algorithmset",
            constraint=models.UniqueConstraint(fields=("job", "move", "kind"), name="one_set_per_job_layer_kind"),
        ),
    ]
