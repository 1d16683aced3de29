# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE)
"""
meta/runtime.yml's requires_ansible: the collection is tested with ansible-core 2.14 (Debian 12's package, the only
version these machines can install) and refuses no newer ansible-core: a lower bound only.
"""

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import os

import yaml
from packaging.specifiers import SpecifierSet

COLLECTION = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def requires_ansible():
    with open(os.path.join(COLLECTION, 'meta', 'runtime.yml')) as f:
        return SpecifierSet(yaml.safe_load(f)['requires_ansible'])


def test_the_tested_series_is_accepted():
    assert '2.14.0' in requires_ansible()
    assert '2.14.18' in requires_ansible()


def test_no_newer_ansible_core_is_refused():
    for version in ('2.15.0', '2.16.14', '2.17.7', '2.18.1', '2.19.0', '2.20.0', '3.0.0'):
        assert version in requires_ansible(), version


def test_older_than_the_tested_series_is_refused():
    assert '2.13.13' not in requires_ansible()
