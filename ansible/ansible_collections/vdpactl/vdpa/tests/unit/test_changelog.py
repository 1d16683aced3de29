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
import sys

import yaml

COLLECTION = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
CHANGELOGS = os.path.join(COLLECTION, 'changelogs')
RENDERED = os.path.join(COLLECTION, 'CHANGELOG.rst')
# the ansible-core versions the collection supports (meta/runtime.yml: >= 2.14), each with its sanity ignore file
SANITY_VERSIONS = ['2.14', '2.15', '2.16', '2.17', '2.18']


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


def _version_key(v):
    return tuple(int(p) for p in str(v).split('.'))


def _title(text, char, over=False):
    line = char * len(text)
    return (line + '\n' if over else '') + text + '\n' + line + '\n'


def render_changelog():
    """CHANGELOG.rst as `antsibull-changelog generate` lays it out (combined format, newest release first).

    antsibull-changelog cannot run here (not in Debian, no Python package index), so the rendering is done here
    and the test below keeps the committed file equal to changelogs/changelog.yaml.
    """
    c = config()
    with open(os.path.join(CHANGELOGS, 'changelog.yaml')) as f:
        log = yaml.safe_load(f)
    out = [_title('%s Release Notes' % c['title'], '=', over=True), '.. contents:: Topics\n']
    for version in sorted(log['releases'], key=_version_key, reverse=True):
        release = log['releases'][version]
        changes = release.get('changes', {})
        out.append(_title('v%s' % version, '='))
        summary = changes.get(c['prelude_section_name'])
        if summary:
            out.append(_title(c['prelude_section_title'], '-') + '\n' + summary.strip() + '\n')
        for name, title in c['sections']:
            if changes.get(name):
                out.append(_title(title, '-') + '\n' + ''.join('- %s\n' % e.strip() for e in changes[name]))
            if name == c['new_plugins_after_name'] and release.get('modules'):
                out.append(_title('New Modules', '-') + '\n'
                           + ''.join('- %s - %s\n' % (m['name'], m['description']) for m in release['modules']))
    return '\n'.join(out)


def test_the_rendered_changelog_is_the_one_of_changelog_yaml():
    with open(RENDERED) as f:
        committed = f.read()
    assert committed == render_changelog(), 'CHANGELOG.rst differs: python3 tests/unit/test_changelog.py --write'


def breaking_bump_problems(releases):
    """Releases with breaking changes that do not raise the major version (the minor one below 1.0: semver's 0.x)."""
    out = []
    ordered = sorted(releases, key=_version_key)
    for before, after in zip(ordered, ordered[1:]):
        if 'breaking_changes' in (releases[after].get('changes') or {}):
            b, a = _version_key(before), _version_key(after)
            if not (a[0] > b[0] or (a[0] == 0 and b[0] == 0 and a[1] > b[1])):
                out.append('%s has breaking changes but only follows %s' % (after, before))
    return out


def test_galaxy_version_is_the_newest_release_and_breaking_changes_raise_it_by_semver():
    with open(os.path.join(CHANGELOGS, 'changelog.yaml')) as f:
        releases = yaml.safe_load(f)['releases']
    with open(os.path.join(COLLECTION, 'galaxy.yml')) as f:
        version = str(yaml.safe_load(f)['version'])
    newest = sorted(releases, key=_version_key)[-1]
    assert version == str(newest), 'galaxy.yml %s, newest release in changelog.yaml %s' % (version, newest)
    assert breaking_bump_problems(releases) == []
    assert breaking_bump_problems({'0.1.0': {}, '0.1.1': {'changes': {'breaking_changes': ['x']}}}) == [
        '0.1.1 has breaking changes but only follows 0.1.0']
    assert breaking_bump_problems({'1.2.0': {}, '2.0.0': {'changes': {'breaking_changes': ['x']}}}) == []


def test_one_sanity_ignore_file_per_supported_version_with_the_same_entries():
    sanity = os.path.join(COLLECTION, 'tests', 'sanity')
    files = sorted(n for n in os.listdir(sanity) if n.startswith('ignore-'))
    assert files == ['ignore-%s.txt' % v for v in SANITY_VERSIONS]
    contents = set()
    for name in files:
        with open(os.path.join(sanity, name)) as f:
            contents.add(f.read())
    assert len(contents) == 1, 'the ignore files differ'
    with open(os.path.join(COLLECTION, 'meta', 'runtime.yml')) as f:
        assert yaml.safe_load(f)['requires_ansible'] == '>=%s.0' % SANITY_VERSIONS[0]


if __name__ == '__main__' and sys.argv[1:] == ['--write']:
    with open(RENDERED, 'w') as out:
        out.write(render_changelog())
