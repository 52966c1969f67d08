"""Turns say which of their text fields were cut at the bound the server was sent
(``cut``, by path) and whether their answer came from a content repair (``repaired``:
null when none was asked; docs/engine.md, "Content checks"). Turns stored before have
neither, which is what they were."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('debates', '0014_turns_say_what_they_were_shown'),
    ]

    operations = [
        migrations.AddField(
            model_name='turn',
            name='cut',
            field=models.JSONField(blank=True, default=list),
        ),
        migrations.AddField(
            model_name='turn',
            name='repaired',
            field=models.BooleanField(blank=True, null=True),
        ),
    ]
