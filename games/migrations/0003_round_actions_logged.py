"""Round.actions_logged: each deal counts its log rows (the writer's next sequence number)."""

from django.db import migrations, models
from django.db.models import Max


def count_existing(apps, schema_editor):  # noqa: ANN001, ARG001 - migration signature
    Round = apps.get_model("games", "Round")
    for rnd in Round.objects.annotate(n=Max("actions__sequence")).exclude(n=None).iterator():
        Round.objects.filter(pk=rnd.pk).update(actions_logged=rnd.n)


class Migration(migrations.Migration):
    dependencies = [("games", "0002_standings_history")]

    operations = [
        migrations.AddField(
            model_name="round",
            name="actions_logged",
            field=models.PositiveIntegerField(default=0, editable=False,
                                              verbose_name="actions logged"),
        ),
        migrations.RunPython(count_existing, migrations.RunPython.noop),
    ]
