"""Email verification state, and invitation secrets kept only as SHA-256 digests.

Existing invitations are hashed in place, so links already sent keep working: the
link still carries the old token, and its digest is what the lookup now compares.
"""

import hashlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def _hash_invitation_tokens(apps, schema_editor):
    Invitation = apps.get_model("accounts", "Invitation")
    for invitation in Invitation.objects.only("pk", "token").iterator():
        Invitation.objects.filter(pk=invitation.pk).update(
            digest=hashlib.sha256(invitation.token.encode()).hexdigest())


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0004_team_allow_unpriced_models"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="VerifiedEmail",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                           serialize=False, verbose_name="ID")),
                ("email", models.EmailField(max_length=254)),
                ("verified_at", models.DateTimeField()),
                ("user", models.OneToOneField(on_delete=django.db.models.deletion.CASCADE,
                                              related_name="verified_email",
                                              to=settings.AUTH_USER_MODEL)),
            ],
        ),
        migrations.AddField(
            model_name="invitation",
            name="digest",
            field=models.CharField(editable=False, max_length=64, null=True),
        ),
        # The secrets cannot be recovered from digests: going back leaves links dead.
        migrations.RunPython(_hash_invitation_tokens, migrations.RunPython.noop),
        migrations.RemoveField(model_name="invitation", name="token"),
        migrations.AlterField(
            model_name="invitation",
            name="digest",
            field=models.CharField(editable=False, max_length=64, unique=True),
        ),
    ]
