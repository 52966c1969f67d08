"""Persona fields get the engine's limits (name 80, texts 2,000 characters).

Rows stored before the limits existed are cut to them first, so that every stored
persona and version still validates as the engine's Persona (reads, restores and
debates would otherwise refuse them) and the shorter name column accepts them.
The numbers are copied, not imported: a migration must not change with the code.
The column change is the next migration, in its own transaction (PostgreSQL refuses
to alter a table with pending trigger events from updates in the same transaction).
"""

from django.db import migrations

NAME_MAX, TEXT_MAX = 80, 2_000
TEXT_FIELDS = ("background", "expertise", "approach", "bias")


def _cut(data):
    changed = False
    for field, limit in [("name", NAME_MAX), *[(f, TEXT_MAX) for f in TEXT_FIELDS]]:
        value = data.get(field)
        if isinstance(value, str) and len(value) > limit:
            data[field] = value[:limit].strip() or value[:limit]
            changed = True
    return changed


def cut_to_limits(apps, schema_editor):
    LibraryPersona = apps.get_model("personas", "LibraryPersona")
    PersonaVersion = apps.get_model("personas", "PersonaVersion")
    for persona in LibraryPersona.objects.all().iterator():
        data = {f: getattr(persona, f) for f in ("name", *TEXT_FIELDS)}
        if not _cut(data):
            continue
        name, n = data["name"], 2
        # Two long names may share their first 80 characters; names are unique per library.
        while LibraryPersona.objects.filter(library_id=persona.library_id,
                                            name__iexact=name).exclude(pk=persona.pk).exists():
            suffix = f" ({n})"
            name, n = data["name"][: NAME_MAX - len(suffix)] + suffix, n + 1
        data["name"] = name
        for field, value in data.items():
            setattr(persona, field, value)
        persona.save(update_fields=list(data))
    for version in PersonaVersion.objects.all().iterator():
        if isinstance(version.data, dict) and _cut(version.data):
            version.save(update_fields=["data"])


class Migration(migrations.Migration):

    dependencies = [
        ('personas', '0001_initial'),
    ]

    operations = [
        migrations.RunPython(cut_to_limits, migrations.RunPython.noop),
    ]
