"""``make bench`` (``python -m bench``): measures every area and prints one Markdown table.

Each area is a module ``bench.<area>`` with ``measure() -> list[Figure | Table]`` (a
``Table`` is printed after the figures' table). An area whose module is not there
(yet), or that raises ``AreaSkipped``, is skipped with a note. The run exits non-zero
when an area fails (a debate it ran did not succeed, or it crashed), after printing
whatever was measured. Results are recorded in docs/performance.md.
"""

from __future__ import annotations

import argparse
import importlib
import os
import platform
import sys
import time
import traceback
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TextIO

from bench.failure import AreaSkipped, DebatesFailed
from bench.figures import Figure, Table

# What a plain ``make bench`` measures, within 5 minutes.
AREAS = ("engine", "workers", "cli", "coldstart", "prompts", "sources", "sidebyside", "pages",
         "events", "evaluations", "sockets", "livelag")
# Measured only when asked for (--only): they need root and network namespaces, or
# PostgreSQL's server binaries (faults), and take minutes of their own.
EXTRA_AREAS = ("hosts", "streams", "faults")
HEADER = ("| area | figure | value | target | met | detail |\n"
          "|---|---|---|---|---|---|")


def python_speed() -> float:
    """Seconds for a fixed pure-Python loop: the machine's speed for code like ours,
    so figures from different days (or VMs of the same size) can be compared."""
    started = time.perf_counter()
    total = 0
    for i in range(10_000_000):
        total += i
    return time.perf_counter() - started


def machine() -> str:
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    return (f"{platform.node()}: {os.cpu_count()} cores, {memory:.0f} GiB, "
            f"{platform.system()} {platform.release()}, Python {platform.python_version()}, "
            f"reference loop {python_speed():.2f} s")


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench",
        description="Measure workers, engine, CLI, prompts, Agent Council side by side, "
                    "pages, events and an evaluation; print Markdown tables.")
    parser.add_argument("--only", action="append", choices=AREAS + EXTRA_AREAS,
                        metavar="AREA", help="measure only this area (repeatable): "
                        f"{', '.join(AREAS + EXTRA_AREAS)}")
    parser.add_argument("--output", type=Path,
                        help="also write the table (with date and machine) to this file")
    return parser


def main(argv: Sequence[str] | None = None, *, stdout: TextIO | None = None,
         stderr: TextIO | None = None) -> int:
    """Measure the areas ``argv`` asks for (Django already set up); 1 if any failed."""
    out, err = stdout or sys.stdout, stderr or sys.stderr
    opts = parser().parse_args(argv)
    areas: list[str] = opts.only or list(AREAS)
    figures: list[Figure] = []
    tables: list[Table] = []
    notes: list[str] = []
    failed: list[str] = []
    started = time.monotonic()
    for area in areas:
        print(f"bench: {area} ...", file=err, flush=True)
        area_started = time.monotonic()
        try:
            module = importlib.import_module(f"bench.{area}")
        except ModuleNotFoundError as exc:
            if exc.name != f"bench.{area}":
                raise
            notes.append(f"{area}: skipped, bench/{area}.py is not there yet")
            continue
        try:
            for measured in module.measure():
                (tables if isinstance(measured, Table) else figures).append(measured)
        except AreaSkipped as exc:
            notes.append(f"{area}: skipped, {exc}")
            continue
        except DebatesFailed as exc:
            figures += exc.figures
            failed.append(f"{area}: {exc}")
        except Exception as exc:  # noqa: BLE001 - one broken area must not hide the rest
            err.write(traceback.format_exc())
            failed.append(f"{area}: {type(exc).__name__}: {exc}")
        notes.append(f"{area}: {time.monotonic() - area_started:.0f} s")
    report = "\n".join([
        f"Measured {datetime.now(UTC):%Y-%m-%d %H:%M} UTC on {machine()}; "
        f"whole bench {time.monotonic() - started:.0f} s.",
        "", HEADER, *(f.row() for f in figures), "",
        *(line for table in tables for line in (table.title, "", *table.markdown, "")),
        *(f"- {note}" for note in notes), *(f"- **failed** {f}" for f in failed), "",
    ])
    print(report, file=out)
    if opts.output:
        opts.output.write_text(report)
    if failed:
        print(f"{len(failed)} area(s) failed: {'; '.join(failed)}", file=err)
        return 1
    return 0
