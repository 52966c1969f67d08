from django import forms

from notifications.models import Channel, NotificationSettings
from view_kit.site_words import ui_lazy

CHANNELS = [(value, ui_lazy(f"site.notifications.channel.{value}")) for value in Channel.values]


class NotificationSettingsForm(forms.ModelForm):
    class Meta:
        model = NotificationSettings
        fields = ["mentions", "replies", "debates", "invitations", "follow_up", "email_digest"]
        labels = {f: ui_lazy(f"site.notifications.setting.{f}") for f in fields}
        help_texts = {f: "" for f in fields}
        widgets = {f: forms.RadioSelect for f in fields if f != "email_digest"}

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        for name in self.Meta.fields:
            field = self.fields[name]
            if isinstance(field, forms.ChoiceField):
                field.choices = CHANNELS
