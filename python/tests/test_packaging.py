"""`pip install .` from the checkout, offline, as a Python user installs it:
into a virtual environment that sees Debian's numpy, with no package index.
The version pip records is the module's and the CLI's."""

import os
import pathlib
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]


def test_pip_installs_the_checkout_offline_and_the_versions_agree(cli, tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", str(venv)], check=True, timeout=120)
    python = str(venv / "bin" / "python")
    # The backend's CMake build lives beside the others and is reused by the
    # next run (an incremental build), as a developer's `pip install .` is.
    # With warnings as errors, as the release tree compiles: the module's
    # compile is then the release tree's, which ccache has (45-60 s saved
    # after an engine change), and a warning fails here as it does there.
    env = dict(os.environ, BLOOMLAB_WHEEL_BUILD=str(ROOT / "build" / "wheel"), PIP_NO_INDEX="1",
               PIP_DISABLE_PIP_VERSION_CHECK="1", CMAKE_ARGS="-DBLOOMLAB_WERROR=ON")
    env.pop("PYTHONPATH", None)  # the installed package, not the build tree's
    r = subprocess.run([python, "-m", "pip", "install", "--no-index", str(ROOT)], env=env, capture_output=True,
                       text=True, timeout=1200, cwd=tmp_path)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    assert "Successfully installed bloomlab-" in r.stdout

    probe = (
        "import importlib.metadata, bloomlab\n"
        "f = bloomlab.sized('blocked', n=1000, p=0.01)\n"
        "f.add_many(['a', 'b'])\n"
        "print(importlib.metadata.version('bloomlab'), bloomlab.__version__, len(f), bloomlab.__file__)\n"
        # The typing installed beside the module has every kind's class, those
        # the build writes from the module (python/stubs.py) included.
        "import ast, pathlib\n"
        "hints = ast.parse(pathlib.Path(bloomlab.__file__).with_name('_bloomlab.pyi').read_text())\n"
        "typed = {n.name for n in hints.body if isinstance(n, ast.ClassDef)}\n"
        "print(','.join(c.__name__ for _, c, *_ in bloomlab._bloomlab._kinds if c.__name__ not in typed) or 'none')\n"
    )
    r = subprocess.run([python, "-c", probe], env=env, capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    pip_version, module_version, items, where, untyped = r.stdout.split()
    cli_version = subprocess.run([cli, "--version"], capture_output=True, text=True, timeout=60).stdout.split()[-1]
    assert pip_version == module_version == cli_version
    assert items == "2"
    assert where.startswith(str(venv))
    assert untyped == "none", f"kinds with no class in the installed _bloomlab.pyi: {untyped}"
