"""The build backend of `pip install .` (PEP 517), in the tree and with no
requirements, so that pip builds bloomlab offline: only Debian's and npm's
registries are reachable where bloomlab is built, and a backend fetched from
PyPI could not be.

build_wheel configures the checkout with CMake (as `make` does, into
build/wheel, or $BLOOMLAB_WHEEL_BUILD; $CMAKE_ARGS adds arguments to the
configure), builds the module's target, and packs
the package folder the build assembled (the compiled _bloomlab beside the
.py and .pyi files) into a wheel for this interpreter. The version is the
one CMake's project() sets, so `importlib.metadata.version("bloomlab")`,
`bloomlab.__version__` and `bloomlab --version` agree.

The build needs what `make` installs first (scripts/deps.sh: a compiler,
CMake, pybind11, Python's headers and the engine's header libraries).
"""

import base64
import hashlib
import os
import pathlib
import re
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile

ROOT = pathlib.Path(__file__).resolve().parents[2]
NAME = "bloomlab"
SUMMARY = "Bloom filters and their relatives, from bloomlab's C++ engine"


def _version():
    text = (ROOT / "CMakeLists.txt").read_text()
    found = re.search(r"project\(bloomlab VERSION ([0-9.]+)", text)
    if not found:
        raise RuntimeError("CMakeLists.txt: no 'project(bloomlab VERSION x.y.z' to take the version from")
    return found.group(1)


def _tag():
    interpreter = "cp" + sysconfig.get_config_var("py_version_nodot")
    platform = sysconfig.get_platform().replace("-", "_").replace(".", "_")
    return f"{interpreter}-{interpreter}-{platform}"


def _metadata():
    return "".join(
        line + "\n"
        for line in (
            "Metadata-Version: 2.1",
            f"Name: {NAME}",
            f"Version: {_version()}",
            f"Summary: {SUMMARY}",
            "Requires-Python: >=3.11",
            "Requires-Dist: numpy",
            "Provides-Extra: dask",
            'Requires-Dist: dask; extra == "dask"',
            'Requires-Dist: distributed; extra == "dask"',
        )
    )


def _dist_info():
    return f"{NAME}-{_version()}.dist-info"


def _build_package():
    """The package folder CMake assembles: build/wheel/python/bloomlab."""
    build = pathlib.Path(os.environ.get("BLOOMLAB_WHEEL_BUILD", ROOT / "build" / "wheel"))
    configure = ["cmake", "-S", str(ROOT), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release",
                 "-DBLOOMLAB_BUILD_TESTS=OFF", "-DBLOOMLAB_BUILD_BENCH=OFF",
                 f"-DPython3_EXECUTABLE={sys.executable}"]
    # More CMake arguments from $CMAKE_ARGS, as other CMake-based backends take them.
    configure += shlex.split(os.environ.get("CMAKE_ARGS", ""))
    if not (build / "CMakeCache.txt").exists() and shutil.which("ninja"):
        configure += ["-G", "Ninja"]
    subprocess.run(configure, check=True, stdout=sys.stderr)
    # The stubs' target builds the module first, then writes its typing.
    subprocess.run(["cmake", "--build", str(build), "--target", "bloomlab_python_stubs"], check=True,
                   stdout=sys.stderr)
    package = build / "python" / NAME
    if not any(package.glob("_bloomlab*.so")):
        raise RuntimeError(f"{package}: no compiled _bloomlab module (CMake said why it skipped the module)")
    return package


def _record_line(arcname, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{arcname},sha256={digest},{len(data)}"


def get_requires_for_build_wheel(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    info = pathlib.Path(metadata_directory) / _dist_info()
    info.mkdir(parents=True, exist_ok=True)
    (info / "METADATA").write_text(_metadata())
    return info.name


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    package = _build_package()
    tag = _tag()
    wheel = pathlib.Path(wheel_directory) / f"{NAME}-{_version()}-{tag}.whl"
    files = []
    for path in sorted(package.iterdir()):
        if path.is_file():
            files.append((f"{NAME}/{path.name}", path.read_bytes()))
    info = _dist_info()
    files.append((f"{info}/METADATA", _metadata().encode()))
    files.append((f"{info}/WHEEL", f"Wheel-Version: 1.0\nGenerator: bloomlab_build\nRoot-Is-Purelib: false\nTag: {tag}\n".encode()))
    record = "".join(_record_line(name, data) + "\n" for name, data in files) + f"{info}/RECORD,,\n"
    files.append((f"{info}/RECORD", record.encode()))
    with zipfile.ZipFile(wheel, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data in files:
            z.writestr(name, data)
    return wheel.name
