"""The site's public receipt key at ``/.well-known/council-receipt-key``: public, no
sign-in, so that anyone holding a receipt can check it against the key the site
publishes (docs/teams.md, "Decision receipts")."""

from __future__ import annotations

from django.http import HttpRequest, JsonResponse
from django.views.decorators.http import require_GET

from api_kit.errors import error_body
from decisions.receipts import published_key
from decisions.receipts_key import NoReceiptKey


@require_GET
def receipt_key(request: HttpRequest) -> JsonResponse:
    """The public key (raw, in base64, and PEM) and its key_id; 503 when the site has
    no signing key configured."""
    try:
        return JsonResponse(published_key())
    except NoReceiptKey as exc:
        return JsonResponse(error_body(503, str(exc), code="receipts_not_configured"),
                            status=503)
