from django.urls import path

from decisions import receipts_views, review_views, views

app_name = "decisions"

urlpatterns = [
    path("debates/<uuid:code>/decision", views.decide, name="decide"),
    path("debates/<uuid:code>/decision/history", views.history, name="history"),
    path("decisions/", views.decision_log, name="log"),
    path("actions/", views.my_actions, name="my_actions"),
    path("debates/<uuid:code>/outcome", review_views.review, name="review"),
    path("calibration/", review_views.calibration, name="calibration"),
    path(".well-known/council-receipt-key", receipts_views.receipt_key, name="receipt_key"),
]
