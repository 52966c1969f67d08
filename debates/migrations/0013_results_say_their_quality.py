"""Results stored before the content checks (docs/engine.md, "Content checks") hold no
``quality``: the result model reads them as sound with no reasons, and the lists and
the status poll said the same with a branch of their own. Every stored result now says
so itself, as each result since does, and the branches are gone.

Plain values only: the two keys are appended last, where the result model's JSON tail
puts them, and the synthesis's search text gains the one word the engine's
``result_text`` would add ("sound"; an empty list adds none)."""

from django.db import migrations

SOUND = "sound"


def with_quality(result):
    return {**result, "quality": SOUND, "quality_reasons": []}


def results_say_their_quality(apps, schema_editor):
    for name in ("Synthesis", "EarlierSynthesis"):
        model = apps.get_model("debates", name)
        searchable = name == "Synthesis"
        for row in model.objects.exclude(result__has_key="quality").iterator():
            if not isinstance(row.result, dict):
                continue
            row.result = with_quality(row.result)
            fields = ["result"]
            if searchable:
                row.search_text = f"{row.search_text}\n{SOUND}" if row.search_text else SOUND
                fields.append("search_text")
            row.save(update_fields=fields)


class Migration(migrations.Migration):

    dependencies = [
        ("debates", "0012_round_metrics_are_derived_from_the_turns"),
    ]

    operations = [
        migrations.RunPython(results_say_their_quality, migrations.RunPython.noop),
    ]
