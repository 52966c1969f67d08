import uuid

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import accounts.models


def give_memberships_codes(apps, schema_editor):
    # A unique default cannot be added in one step to rows that already exist.
    Membership = apps.get_model("accounts", "Membership")
    for membership in Membership.objects.filter(code__isnull=True).only("id"):
        membership.code = uuid.uuid4()
        membership.save(update_fields=["code"])


class Migration(migrations.Migration):

    dependencies = [
        ("accounts", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="membership",
            name="code",
            field=models.UUIDField(null=True, editable=False),
        ),
        migrations.RunPython(give_memberships_codes, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="membership",
            name="code",
            field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True),
        ),
        migrations.AddField(
            model_name="team",
            name="monthly_budget_usd",
            field=models.FloatField(blank=True, null=True, help_text="Spend allowed per calendar month (UTC); empty means unlimited.", validators=[django.core.validators.MinValueValidator(0.0)]),
        ),
        migrations.AddField(
            model_name="team",
            name="debate_cost_cap_usd",
            field=models.FloatField(blank=True, null=True, help_text="A debate whose estimated cost exceeds this is refused; empty means no cap.", validators=[django.core.validators.MinValueValidator(0.0)]),
        ),
        migrations.AddField(
            model_name="team",
            name="debates_per_hour",
            field=models.PositiveIntegerField(default=30, help_text="Debates the team may start in any rolling hour."),
        ),
        migrations.CreateModel(
            name="Invitation",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("code", models.UUIDField(default=uuid.uuid4, editable=False, unique=True)),
                ("email", models.EmailField(blank=True, help_text="When set, only a user with this address may accept.", max_length=254)),
                ("role", models.CharField(choices=[("owner", "Owner"), ("editor", "Editor"), ("viewer", "Viewer")], default="viewer", max_length=16)),
                ("token", models.CharField(default=accounts.models.new_invitation_token, editable=False, max_length=64, unique=True)),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("expires_at", models.DateTimeField()),
                ("accepted_at", models.DateTimeField(blank=True, null=True)),
                ("revoked_at", models.DateTimeField(blank=True, null=True)),
                ("accepted_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="accepted_invitations", to=settings.AUTH_USER_MODEL)),
                ("created_by", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name="+", to=settings.AUTH_USER_MODEL)),
                ("team", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="invitations", to="accounts.team")),
            ],
            options={
                "ordering": ["-created_at", "-id"],
            },
        ),
    ]
