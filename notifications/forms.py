from django import forms

from notifications.models import NotificationSettings


class NotificationSettingsForm(forms.ModelForm):
    class Meta:
        model = NotificationSettings
        fields = ["mentions", "replies", "debates", "invitations"]
        labels = {"mentions": "Someone mentions you or gives you an action",
                  "replies": "Someone replies in your thread",
                  "debates": "A debate you started finishes or fails",
                  "invitations": "Someone accepts your invitation"}
        widgets = {f: forms.RadioSelect for f in fields}
