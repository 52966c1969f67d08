"""The wheel carries compiled catalogues: the build compiles every .po to the .mo
gettext reads before it collects the package data (docs/engine.md, "Translations").
The project's metadata is in pyproject.toml."""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).parent


class BuildWithCatalogues(build_py):
    def run(self) -> None:
        # Loaded from its file: importing the package would need its dependencies,
        # which the build environment does not have (only Babel, pyproject.toml).
        spec = importlib.util.spec_from_file_location(
            "compile_catalogues", HERE / "debates" / "engine" / "i18n" / "compile.py")
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        module.compile_all([HERE / "debates", HERE / "view_kit"])
        super().run()


setup(cmdclass={"build_py": BuildWithCatalogues})
