"""Tags a wheel that carries the library (telenorid/libtelenorid.so.0) for its platform.

The package itself is pure Python (ctypes, no extension module), so setuptools would tag it
py3-none-any and mark it Root-Is-Purelib: wrong for a wheel with a shared library in it, which only runs
on the platform it was built for. Such a wheel is py3-none-<platform> instead (any CPython 3, no ABI:
ctypes needs none) and installs to platlib (the wheel format, PEP 427). Without the library the package
stays py3-none-any.
"""
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.bdist_wheel import bdist_wheel

CARRIES_LIBRARY = (Path(__file__).resolve().parent / "telenorid" / "libtelenorid.so.0").exists()


class BinaryDistribution(Distribution):
    """Platform-specific, as if it had an extension module: the files go to platlib, the wheel gets a platform."""

    def has_ext_modules(self) -> bool:
        return True


class PlatformWheel(bdist_wheel):
    def get_tag(self) -> tuple:
        _, _, platform = super().get_tag()
        return "py3", "none", platform  # not cpXY-cpXY: no extension module, so no interpreter ABI


if CARRIES_LIBRARY:
    setup(distclass=BinaryDistribution, cmdclass={"bdist_wheel": PlatformWheel})
else:
    setup()
