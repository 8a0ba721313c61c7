"""Shared fixtures: the bloomlab command of the same build as the module."""

import os
import pathlib

import pytest

import bloomlab


def cli_path():
    """BLOOMLAB_CLI, else <build>/src/bloomlab beside <build>/python/bloomlab."""
    given = os.environ.get("BLOOMLAB_CLI")
    if given:
        return pathlib.Path(given)
    return pathlib.Path(bloomlab.__file__).resolve().parents[2] / "src" / "bloomlab"


@pytest.fixture(scope="session")
def cli():
    path = cli_path()
    assert path.is_file(), f"the bloomlab command is not at {path} (build it, or set BLOOMLAB_CLI)"
    return str(path)
