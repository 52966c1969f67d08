import pytest


@pytest.fixture(autouse=True)
def media_root(settings, tmp_path):
    """Each test's stored files in its own folder."""
    settings.MEDIA_ROOT = tmp_path / "media"
    return settings.MEDIA_ROOT
