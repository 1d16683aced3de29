# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE of the vdpactl repository)

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

from ansible_collections.vdpactl.vdpa.plugins.module_utils.vdpactl import (VdpactlError, cli_message, exit_name, jsonschema_problem,
                                                                           schema_for)


def test_every_readme_exit_code_has_its_name():
    assert [exit_name(rc) for rc in range(10)] == ['OK', 'FAILURE', 'USAGE', 'NOT_FOUND', 'PERMISSION', 'NOT_SUPPORTED',
                                                   'PARTIAL', 'KERNEL_ERROR', 'NOT_READY', 'RESOURCE_LIMIT']
    assert exit_name(10) == 'BLOCKED'
    assert exit_name(130) == 'INTERRUPTED'
    assert exit_name(127) == 'UNKNOWN'


def test_the_message_is_the_cli_own_lines_without_logs():
    err = ('[main] INFO org.vdpactl.cli.CliContext - backend: fake\n'
           'vdpactl: internal error: boom\nvdpactl: run with --verbose for the stack trace\n')
    assert cli_message(err) == 'internal error: boom'


def test_the_launcher_without_a_jdk_gives_its_two_lines():
    err = ('vdpactl: no JDK >= 22 found (JAVA_HOME unset, nothing suitable in /usr/lib/jvm).\n'
           'vdpactl: install one (e.g. Temurin 25 or openjdk-25-jdk) and/or set JAVA_HOME.\n')
    e = VdpactlError('dev show', 1, err, ['vdpactl'])
    assert str(e) == ('vdpactl dev show failed (exit 1 FAILURE): no JDK >= 22 found (JAVA_HOME unset, nothing '
                      'suitable in /usr/lib/jvm).; install one (e.g. Temurin 25 or openjdk-25-jdk) and/or set JAVA_HOME.')


def test_without_own_lines_the_last_line_is_kept():
    assert cli_message('Error: Unable to access jarfile x.jar\n') == 'Error: Unable to access jarfile x.jar'
    assert cli_message('') == 'no message'


def test_jsonschema_without_draft_2020_12_is_a_missing_requirement_not_a_traceback():
    class Series32(object):
        __version__ = '3.2.0'
    assert jsonschema_problem(Series32()) == 'jsonschema >= 4.0 (this host has 3.2.0, without draft 2020-12)'
    assert jsonschema_problem(None) == 'jsonschema >= 4.0'
    import jsonschema
    assert jsonschema_problem(jsonschema) is None


class _Failed(Exception):
    pass


class _Module(object):
    """The AnsibleModule surface Vdpactl uses at start-up: its params and fail_json."""
    params = {'executable': None}

    def fail_json(self, **kwargs):
        raise _Failed(kwargs)


def test_a_host_with_jsonschema_3_gets_the_missing_requirement_through_the_import():
    """The module's own import path: a jsonschema 3.2 on the host (no Draft202012Validator) fails the task with
    missing_required_lib's message, before any vdpactl call, never an AttributeError traceback."""
    import importlib
    import sys
    import types
    from ansible_collections.vdpactl.vdpa.plugins.module_utils import vdpactl as utils
    old = types.ModuleType('jsonschema')
    old.__version__ = '3.2.0'
    old.Draft7Validator = object
    real = sys.modules.get('jsonschema')
    sys.modules['jsonschema'] = old
    try:
        importlib.reload(utils)
        try:
            utils.Vdpactl(_Module())
            raise AssertionError('no failure with jsonschema 3.2')
        except _Failed as e:
            msg = e.args[0]['msg']
        assert 'jsonschema >= 4.0 (this host has 3.2.0, without draft 2020-12)' in msg, msg
        assert 'Failed to import the required Python library' in msg, msg
    finally:
        if real is not None:
            sys.modules['jsonschema'] = real
        else:
            del sys.modules['jsonschema']
        importlib.reload(utils)
    assert utils.jsonschema_problem(utils.jsonschema) is None


def test_migrate_documents_are_checked_against_their_schemas():
    assert schema_for(['migrate', 'facts', '--qemu-version', '10.0.13']) == 'migrate-facts.schema.json'
    assert schema_for(['migrate', 'check', '--source', 'a.json', '--dest', 'b.json']) == 'migrate-check.schema.json'
