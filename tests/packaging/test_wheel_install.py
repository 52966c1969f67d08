"""The project installs from its wheel, not only from the checkout (`pip install -e`).

A package missing from `[tool.setuptools.packages.find]` or a data file missing from
`package-data` passes every other test, because they import from the checkout. This
one builds the wheel, installs it into a fresh venv and runs Django from a folder
outside the checkout, so only what the wheel carries is importable.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import venv
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
UV = Path(sys.executable).parent / "uv"
_CONFIG_PREFIXES = ("DJANGO_", "DATABASE_", "REDIS_", "COUNCIL_", "PYTHON")


def _run(args: list[str], *, cwd: Path, env: dict[str, str] | None = None, timeout: int = 300):
    result = subprocess.run(
        args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout
    )
    assert result.returncode == 0, (args, result.stdout[-3000:], result.stderr[-3000:])
    return result


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(python of a venv holding only the built wheel + the project's dependencies, a cwd)."""
    base = tmp_path_factory.mktemp("wheel")
    dist = base / "dist"
    # A copy of the tracked files, so the build's egg-info/build folders stay out of the
    # checkout and a parallel test session cannot trip over them.
    source = base / "src"
    tracked = _run(["git", "ls-files", "-z"], cwd=ROOT).stdout.split("\0")
    for name in filter(None, tracked):
        target = source / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if (ROOT / name).is_file():
            shutil.copy2(ROOT / name, target)
    # uv (which `make install` installs) builds and installs as pip would, without pip's
    # seconds for an isolated build and for putting pip itself into the new venv. The
    # isolated build fetches setuptools: with the machine's certificates, as `make
    # install` does (uv's own roots refused this machine's registry proxy).
    _run([str(UV), "build", "--wheel", "--quiet", "--system-certs", "--out-dir", str(dist),
          str(source)], cwd=base)
    wheel = next(dist.glob("council-*.whl"))

    env_dir = base / "venv"
    venv.create(env_dir)
    python = env_dir / "bin" / "python"
    # The dependencies come from this test run's own environment (no download). A .pth
    # line adds that site-packages after the new venv's own, and .pth files inside it
    # (such as the editable install's finder, which points at the checkout) are not run.
    new_site = Path(_run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()"
                          "['purelib'])"], cwd=base).stdout.strip())
    (new_site / "deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    _run([str(UV), "pip", "install", "--python", str(python), "--no-deps", "--quiet",
          str(wheel)], cwd=base)

    outside = base / "elsewhere"
    outside.mkdir()
    shutil.copy2(ROOT / "manage.py", outside / "manage.py")
    return python, outside


def _clean_env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(_CONFIG_PREFIXES)}
    env.update(DJANGO_SETTINGS_MODULE="council_site.settings",
               DATABASE_URL=f"sqlite:///{tmp}/db.sqlite3", DJANGO_SECRET_KEY="x" * 50,
               LITELLM_LOCAL_MODEL_COST_MAP="True")
    return env


def test_every_app_is_imported_from_the_installed_wheel(installed):
    python, outside = installed
    code = (
        "import json, django; django.setup(); from django.apps import apps; "
        "print(json.dumps({a.name: a.path for a in apps.get_app_configs()}))"
    )
    out = _run([str(python), "-c", code], cwd=outside, env=_clean_env(outside)).stdout
    paths = json.loads(out.strip().splitlines()[-1])
    for app in ("accounts", "debates", "personas", "collab", "decisions"):
        assert app in paths
        assert str(ROOT) not in paths[app], f"{app} came from the checkout: {paths[app]}"


def test_the_wheel_carries_the_product_packages_and_not_the_benchmark_harness(installed):
    # bench/ (network namespaces, a TCP forwarder, stub model servers) is a tool of the
    # checkout, as are the tests; the wheel carries the apps and the site's plumbing.
    python, outside = installed
    assert (ROOT / "bench" / "__init__.py").is_file()  # there to leave out
    names = ("accounts", "site_edge", "view_kit", "api_kit", "council_site", "debates",
             "decisions", "bench", "debates.bench", "tests")
    code = ("import importlib.util, json; print(json.dumps({n: importlib.util.find_spec(n) "
            "is not None for n in " + repr(names) + "}))")
    out = _run([str(python), "-c", code], cwd=outside, env=_clean_env(outside)).stdout
    found = json.loads(out.strip().splitlines()[-1])
    assert [n for n, there in found.items() if there] == list(names[:7])


def test_manage_check_passes_outside_the_checkout(installed):
    # The wheel carries the Python packages; the site's templates/ and static/ folders
    # stay at the checkout's top level (the customer's layout), which is what the one
    # warning about STATICFILES_DIRS says. Errors, such as an app that cannot be
    # imported, fail the check.
    python, outside = installed
    result = _run([str(python), "manage.py", "check", "--fail-level", "ERROR"], cwd=outside,
                  env=_clean_env(outside))
    assert "System check identified" in result.stdout + result.stderr


def test_a_simulated_debate_runs_from_the_wheel(installed):
    python, outside = installed
    result = _run(
        [str(python), "manage.py", "debate", "Should we adopt a four-day week?",
         "--mode", "quick", "--format", "json"],
        cwd=outside, env=_clean_env(outside),
    )
    report = json.loads(result.stdout)
    assert report["question"] == "Should we adopt a four-day week?"
    assert report["rounds_completed"] >= 1


def test_the_wheel_carries_every_protocols_prompts(installed):
    # Each protocol's prompts live in its package (protocols/<name>/prompts/), the shared
    # ones beside the loader: package-data must list both.
    python, outside = installed
    code = ("import json; from debates.engine import get_protocol, known_protocols; "
            "from debates.engine.prompts import SHARED; print(json.dumps({n: sorted(p.name "
            "for p in get_protocol(n).prompts().folder.glob('*.md')) for n in "
            "known_protocols()} | {'': sorted(p.name for p in SHARED.glob('*.md'))}))")
    out = _run([str(python), "-c", code], cwd=outside, env=_clean_env(outside)).stdout
    found = json.loads(out.strip().splitlines()[-1])
    engine = ROOT / "debates" / "engine"
    expected = {n: sorted(p.name for p in (engine / "protocols" / n / "prompts").glob("*.md"))
                for n in ("council", "adversarial", "workflow")}
    expected[""] = sorted(p.name for p in (engine / "prompts").glob("*.md"))
    assert found == expected and all(expected.values())
