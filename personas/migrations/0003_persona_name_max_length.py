"""The name column gets the engine's limit; 0002 cut longer names first."""

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('personas', '0002_persona_cut_to_limits'),
    ]

    operations = [
        migrations.AlterField(
            model_name='librarypersona',
            name='name',
            field=models.CharField(max_length=80),
        ),
    ]
