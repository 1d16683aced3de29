# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE of the vdpactl repository)
"""Runs the vdpactl CLI for the collection's modules and turns its exit codes into task failures."""

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import json
import os
import traceback

from ansible.module_utils.basic import missing_required_lib
from ansible_collections.vdpactl.vdpa.plugins.module_utils.vdpactl_schemas import SCHEMAS

try:
    import jsonschema
    JSONSCHEMA_IMPORT_ERROR = None
except ImportError:  # pragma: no cover (Debian: python3-jsonschema)
    jsonschema = None
    JSONSCHEMA_IMPORT_ERROR = traceback.format_exc()

try:
    from shlex import quote as _quote
except ImportError:  # pragma: no cover
    from pipes import quote as _quote

# vdpactl's exit codes (README "Exit codes"); lab automation branches on the names.
EXIT_NAMES = {
    0: 'OK',
    1: 'FAILURE',
    2: 'USAGE',
    3: 'NOT_FOUND',
    4: 'PERMISSION',
    5: 'NOT_SUPPORTED',
    6: 'PARTIAL',
    7: 'KERNEL_ERROR',
    8: 'NOT_READY',
    9: 'RESOURCE_LIMIT',
    10: 'BLOCKED',
    130: 'INTERRUPTED',
}

COMMON_ARGS = dict(
    executable=dict(type='path', default='vdpactl'),
    backend=dict(type='str', choices=['auto', 'kernel', 'fake']),
    fake_state=dict(type='path'),
    fake_faults=dict(type='path'),
)


def schema_for(args):
    """The schema file of what `vdpactl ARGS --json` prints (docs/json-schemas.md); None when it prints nothing."""
    words = [a for a in args if not a.startswith('-')]
    verb = words[0] if words else ''
    sub = words[1] if len(words) > 1 else ''
    if verb == 'rehearse':
        return 'compare.schema.json' if any(a == '--compare' or a.startswith('--compare=') for a in args) else 'rehearsal.schema.json'
    if verb == 'vhost':
        return 'vhost-info.schema.json' if sub == 'info' else 'vhost-timing.schema.json'
    if verb == 'migrate':
        return 'migrate-facts.schema.json' if sub == 'facts' else 'migrate-check.schema.json'
    if verb == 'dev':
        if sub == 'del':
            return None
        return {'config': 'iproute-config.schema.json', 'vstats': 'iproute-vstats.schema.json'}.get(sub, 'iproute-dev.schema.json')
    return {'mgmtdev': 'iproute-mgmtdev.schema.json', 'doctor': 'doctor.schema.json', 'bench': 'bench.schema.json',
            'report': 'fleet.schema.json'}.get(verb)


def schema_errors(doc, schema_file):
    """What in DOC does not match the shipped schema SCHEMA_FILE (jsonschema, draft 2020-12); [] when it conforms."""
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMAS[schema_file]))
    errors = ['%s: %s' % ('/' + '/'.join(str(p) for p in e.absolute_path), e.message) for e in validator.iter_errors(doc)]
    return sorted(errors)


def exit_name(rc):
    return EXIT_NAMES.get(rc, 'UNKNOWN')


def cli_message(stderr):
    """The CLI's own error lines ("vdpactl: ..."), without the prefix; else the last line it printed."""
    lines = [line.strip() for line in (stderr or '').splitlines() if line.strip()]
    own = [line[len('vdpactl: '):] for line in lines if line.startswith('vdpactl: ')]
    own = [line for line in own if not line.startswith('run with --verbose')]
    if own:
        return '; '.join(own)
    return lines[-1] if lines else 'no message'


class VdpactlError(Exception):
    """A vdpactl call that ended with an exit code the caller did not expect."""

    def __init__(self, what, rc, stderr, cmd, stdout=''):
        self.what = what
        self.rc = rc
        self.stderr = stderr
        self.stdout = stdout
        self.cmd = cmd
        self.cli_message = cli_message(stderr)
        super(VdpactlError, self).__init__('vdpactl %s failed (exit %d %s): %s' % (what, rc, exit_name(rc), self.cli_message))


def jsonschema_problem(lib):
    """Why LIB (the imported jsonschema module, or None) cannot validate vdpactl's draft 2020-12 schemas; None when it can.

    Draft202012Validator came with jsonschema 4.0; the 3.2 series (Debian 11, RHEL 9's python3-jsonschema) lacks it,
    and a module then died with an AttributeError traceback instead of saying what the host needs.
    """
    if lib is None:
        return 'jsonschema >= 4.0'
    if not hasattr(lib, 'Draft202012Validator'):
        return 'jsonschema >= 4.0 (this host has %s, without draft 2020-12)' % getattr(lib, '__version__', 'an older one')
    return None


class Vdpactl(object):
    """The vdpactl CLI on the managed host; fails the module at once when it is not there."""

    def __init__(self, module):
        self.module = module
        problem = jsonschema_problem(jsonschema)
        if problem:
            module.fail_json(msg=missing_required_lib(problem + ' (Debian: python3-jsonschema)'), exception=JSONSCHEMA_IMPORT_ERROR)
        self.path = self._find(module.params['executable'] or 'vdpactl')
        self.commands = []

    def _find(self, exe):
        if '/' in exe:
            if os.path.isfile(exe) and os.access(exe, os.X_OK):
                return exe
            found = None
        else:
            found = self.module.get_bin_path(exe, opt_dirs=['/usr/local/bin'])
        if not found:
            self.module.fail_json(msg='vdpactl not found on this host (executable %s): install it with the '
                                      'vdpactl.vdpa.install role or set the executable option' % exe)
        return found

    def global_args(self):
        p = self.module.params
        args = []
        if p.get('backend'):
            args += ['--backend', p['backend']]
        if p.get('fake_state'):
            args += ['--fake-state', p['fake_state']]
        if p.get('fake_faults'):
            args += ['--fake-faults', p['fake_faults']]
        if p.get('fake_kernel'):
            args += ['--fake-kernel', p['fake_kernel']]
        if p.get('fake_clock'):
            args += ['--fake-clock', p['fake_clock']]
        return args

    def run(self, args, ok_codes=(0,), as_json=True):
        """
        Runs `vdpactl ARGS --json`; returns (rc, parsed JSON or None, stderr). Raises VdpactlError, also when the
        document does not match its schema (the same schemas as the jar's, module_utils/vdpactl_schemas.py).
        """
        cmd = [self.path] + self.global_args() + list(args) + (['--json'] if as_json else [])
        self.commands.append(' '.join(_quote(c) for c in cmd))
        rc, out, err = self.module.run_command(cmd, environ_update={'LC_ALL': 'C'})
        what = ' '.join(a for a in args[:2] if not a.startswith('-'))
        if rc not in ok_codes:
            raise VdpactlError(what, rc, err, cmd, out)
        data = None
        if as_json and out.strip():
            try:
                data = json.loads(out)
            except ValueError as e:
                raise VdpactlError(what + ' (output is not JSON: %s)' % e, rc, err, cmd, out)
            # a command that failed before printing data prints the error document instead (README "Exit codes")
            schema = 'error.schema.json' if isinstance(data, dict) and data.get('schema') == 'vdpactl.error' else schema_for(args)
            if schema is not None:
                errors = schema_errors(data, schema)
                if errors:
                    raise VdpactlError('%s (output does not match %s: %s)' % (what, schema, '; '.join(errors[:5])), rc, err, cmd, out)
        return rc, data, err

    def fail(self, error, **extra):
        """Fails the task with the CLI's message and exit code."""
        result = dict(msg=str(error), rc=error.rc, exit_name=exit_name(error.rc), stderr=error.stderr,
                      cmd=error.cmd, commands=self.commands)
        result.update(extra)
        self.module.fail_json(**result)
