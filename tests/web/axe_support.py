"""axe-core for the accessibility check of the browser walk: a pinned npm package fetched
once into var/test-cache/ (``npm pack``), checked against its digest and injected into
test pages only; it is never part of the product's static files."""

from __future__ import annotations

import hashlib
import os
import subprocess
import tarfile
from typing import Any

import pytest

from tests.web.browser_support import ROOT

AXE_VERSION = "4.10.3"
AXE_SHA256 = "0f2b4d7dcdf7d1219df8d1959ad68e565f51d14c3f0d88bb71cd59abeb956292"
CACHE = ROOT / "var" / "test-cache"
# What a person would trip over (axe's "serious" and "critical" impacts), and the
# outline and table rules issue 32 found broken, whatever axe rates them.
RUN_AXE = """async () => {
  const always = ['heading-order', 'page-has-heading-one', 'empty-table-header'];
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations
    .filter(v => ['serious', 'critical'].includes(v.impact) || always.includes(v.id))
    .map(v => v.id + ' (' + v.impact + '): ' + v.nodes.slice(0, 4)
      .map(n => n.target.join(' ') + ' ' + (n.failureSummary || '').split('\\n')[1])
      .join(' | '));
}"""


def axe_source() -> str:
    """The text of axe.min.js, fetched with npm on first use."""
    script = CACHE / f"axe-core-{AXE_VERSION}.min.js"
    if script.exists():
        return script.read_text()
    CACHE.mkdir(parents=True, exist_ok=True)
    tarball = CACHE / f"axe-core-{AXE_VERSION}.tgz"
    if not tarball.exists():
        try:
            subprocess.run(["npm", "pack", f"axe-core@{AXE_VERSION}", "--pack-destination",
                            str(CACHE)], check=True, capture_output=True, timeout=300)
        except (OSError, subprocess.SubprocessError) as error:
            reason = f"axe-core could not be fetched with npm: {error}"
            if os.environ.get("CI") == "true":
                pytest.fail(f"{reason}; CI=true: the accessibility check must run",
                            pytrace=False)
            pytest.skip(reason)
    digest = hashlib.sha256(tarball.read_bytes()).hexdigest()
    assert digest == AXE_SHA256, f"{tarball} is not the pinned axe-core {AXE_VERSION}"
    with tarfile.open(tarball) as archive:
        member = archive.extractfile("package/axe.min.js")
        assert member is not None
        script.write_bytes(member.read())
    return script.read_text()


def axe_violations(page: Any, source: str) -> list[str]:
    """The page's violations RUN_AXE reports. The page's context must bypass the
    Content-Security-Policy (``bypass_csp=True``): axe is a script the site never serves."""
    page.add_script_tag(content=source)
    return page.evaluate(RUN_AXE)
