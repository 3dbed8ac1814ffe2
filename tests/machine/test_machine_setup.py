"""`make test` prepares a fresh machine itself (tools/machine-setup, the Makefile's `machine` step).

Finding: on a fresh machine `make test` failed its 38 browser tests, since only `.ci/run` installed
Debian's Chromium. These run the Makefile's own set-up step on a machine made to lack Chromium (a
CHROMIUM path that does not exist, a PATH whose apt-get and id are stand-ins that record what they
were asked), which CI, with Chromium installed, cannot show otherwise.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]


def fake_bin(tmp_path: Path, uid: int) -> Path:
    """A folder of stand-ins put first on PATH: apt-get writes its arguments to a log, id says uid."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "apt.log"
    (bin_dir / "apt-get").write_text(f'#!/bin/sh\necho "$@" >> {log}\n')
    (bin_dir / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    for tool in bin_dir.iterdir():
        tool.chmod(0o755)
    return bin_dir


def make_machine(tmp_path: Path, uid: int) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PATH": f"{fake_bin(tmp_path, uid)}:{os.environ['PATH']}",
        "CHROMIUM": str(tmp_path / "no-chromium-here"),
    }
    return subprocess.run(
        ["make", "--no-print-directory", "machine"],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_make_test_installs_chromium_on_a_machine_that_lacks_it(tmp_path: Path) -> None:
    """Finding: `make test` on a fresh machine did not install Chromium. As root, its set-up step does."""
    done = make_machine(tmp_path, uid=0)

    assert done.returncode == 0, done.stderr
    asked = (tmp_path / "apt.log").read_text().splitlines()
    assert asked[0] == "update"
    assert asked[1].split()[:2] == ["install", "-y"]
    assert "chromium" in asked[1].split()
    assert "Installing chromium" in done.stdout


def test_make_test_without_root_stops_at_once_with_the_command_to_run(tmp_path: Path) -> None:
    """Not root, it installs nothing and says the one command that would."""
    done = make_machine(tmp_path, uid=1000)

    assert done.returncode != 0
    assert not (tmp_path / "apt.log").exists()
    assert "apt-get update && apt-get install -y chromium" in done.stderr


def test_make_test_runs_the_machine_step_before_the_tests() -> None:
    """The README's test command is the one that prepares the machine, not only `.ci/run`. (`make -n`
    cannot show it: a .ONESHELL recipe that calls $(MAKE) is run even then.)"""
    rules = (REPO / "Makefile").read_text().splitlines()
    test_rule = next(line for line in rules if line.startswith("test:"))
    machine_rule = rules.index("machine:")
    assert "machine" in test_rule.split(":", 1)[1].split()
    assert rules[machine_rule + 1].strip() == "@bash tools/machine-setup"


def test_ci_adds_nothing_to_the_readme_test_command() -> None:
    """`.ci/run` is `make test` and nothing a new user would miss."""
    script = (REPO / ".ci" / "run").read_text()
    commands = [
        line.strip() for line in script.splitlines() if line.strip() and not line.strip().startswith("#")
    ]
    assert commands[-1] == "make test"
    assert not any(
        "apt-get" in line or "pg_ctlcluster" in line or "redis-server" in line for line in commands
    )
