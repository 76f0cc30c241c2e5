"""The package's version, as installed (a source tree without metadata says so)."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("belote_sim")
except PackageNotFoundError:  # running from a source tree
    __version__ = "0.0.0+source"
