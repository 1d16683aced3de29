#!/usr/bin/python3
"""ansible-test, with the sanity tests run by this Python instead of per-test virtual environments.

ansible-test (2.14) creates a virtual environment per sanity test and pip-installs its pinned
requirements into it; a machine that reaches no Python package index cannot do that. This wrapper
runs each sanity test with the interpreter given in --python-interpreter (or this one), which must
have the requirements installed already (scripts/test-ansible installs them from Debian packages:
voluptuous, yamllint, pycodestyle, pytest...). Everything else is ansible-test unchanged.
"""

import sys

from ansible_test._internal.commands import sanity
from ansible_test._internal.host_configs import VirtualPythonConfig


def _this_python(args, python, name, coverage=False, minimize=False):
    """The interpreter under test itself, in place of a fresh virtual environment for test `name`."""
    return VirtualPythonConfig(version=python.version, path=python.path)


def _libyaml(python):
    """Whether PyYAML has libyaml (ansible-test reads it from the virtual environment's meta file)."""
    try:
        from yaml import CLoader  # noqa: F401  pylint: disable=unused-import
        return True
    except ImportError:
        return False


sanity.create_sanity_virtualenv = _this_python
sanity.check_sanity_virtualenv_yaml = _libyaml

from ansible_test._internal import main  # noqa: E402  (after the patch: test plugins import it by name)

if __name__ == '__main__':
    sys.exit(main())
