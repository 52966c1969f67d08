from django import forms

from notifications.models import NotificationSettings


class NotificationSettingsForm(forms.ModelForm):
    class Meta:
        model = NotificationSettings
        fields = ["mentions", "replies", "debates", "invitations", "follow_up", "email_digest"]
        labels = {"mentions": "Someone mentions you or gives you an action",
                  "replies": "Someone replies in your thread",
                  "debates": "A debate you started finishes or fails",
                  "invitations": "Someone accepts your invitation",
                  "follow_up": "Reminders: your actions due tomorrow or overdue, decisions "
                               "due for review",
                  "email_digest": "One mail a day with everything, instead of one mail "
                                  "per event"}
        widgets = {f: forms.RadioSelect for f in fields if f != "email_digest"}
