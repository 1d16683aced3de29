# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE)
"""
The changelog fragments and changelogs/changelog.yaml in antsibull-changelog's format. antsibull-changelog (and
so `ansible-test sanity --test changelog`) is not packaged by Debian 12 and this project's machines reach no Python
package index, so these tests check what its lint checks for fragments: a YAML mapping of known sections, each a
list of non-empty strings (release_summary a string), and a changelog.yaml of releases with known sections.
"""

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import os

import yaml

COLLECTION = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHANGELOGS = os.path.join(COLLECTION, 'changelogs')


def config():
    with open(os.path.join(CHANGELOGS, 'config.yaml')) as f:
        return yaml.safe_load(f)


def section_names():
    c = config()
    return set(name for name, _title in c['sections']) | set([c['prelude_section_name'], c['trivial_section_name']])


def problems_of_fragment(data, sections, prelude):
    """What antsibull-changelog lint would say of one fragment's content (empty when none)."""
    if not isinstance(data, dict) or not data:
        return ['not a non-empty YAML mapping']
    out = []
    for section, entries in data.items():
        if section not in sections:
            out.append('unknown section %r' % section)
        elif section == prelude:
            if not isinstance(entries, str) or not entries.strip():
                out.append('%s must be a non-empty string' % section)
        elif not isinstance(entries, list) or not entries:
            out.append('%s must be a non-empty list' % section)
        else:
            out.extend('%s: entry %r is not a non-empty string' % (section, e) for e in entries if not isinstance(e, str) or not e.strip())
    return out


def test_every_fragment_has_known_sections_of_string_lists():
    sections = section_names()
    prelude = config()['prelude_section_name']
    fragments = sorted(os.listdir(os.path.join(CHANGELOGS, 'fragments')))
    assert fragments, 'no changelog fragment'
    for name in fragments:
        assert name.endswith(('.yml', '.yaml')), name
        with open(os.path.join(CHANGELOGS, 'fragments', name)) as f:
            assert problems_of_fragment(yaml.safe_load(f), sections, prelude) == [], name


def test_the_validator_refuses_what_antsibull_changelog_refuses():
    sections = section_names()
    assert problems_of_fragment({'minor_changes': ['x']}, sections, 'release_summary') == []
    assert problems_of_fragment({'new_stuff': ['x']}, sections, 'release_summary') == ["unknown section 'new_stuff'"]
    assert problems_of_fragment({'bugfixes': 'x'}, sections, 'release_summary') == ['bugfixes must be a non-empty list']
    assert problems_of_fragment({'bugfixes': [3]}, sections, 'release_summary') == ["bugfixes: entry 3 is not a non-empty string"]
    assert problems_of_fragment(['x'], sections, 'release_summary') == ['not a non-empty YAML mapping']


def test_changelog_yaml_lists_releases_with_known_sections():
    with open(os.path.join(CHANGELOGS, 'changelog.yaml')) as f:
        log = yaml.safe_load(f)
    assert set(log) >= set(['ancestor', 'releases'])
    sections = section_names()
    prelude = config()['prelude_section_name']
    for version, release in log['releases'].items():
        assert problems_of_fragment(release.get('changes'), sections, prelude) == [], version
        assert 'release_date' in release, version
    with open(os.path.join(COLLECTION, 'galaxy.yml')) as f:
        assert yaml.safe_load(f)['version'] in [str(v) for v in log['releases']]
