# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE of the vdpactl repository)
"""A stand-in for the vdpactl CLI in unit tests: answers the argv the modules build, like vdpactl does."""

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import json

from ansible.module_utils import basic
from ansible.module_utils.common.text.converters import to_bytes


def set_module_args(args):
    basic._ANSIBLE_ARGS = to_bytes(json.dumps({'ANSIBLE_MODULE_ARGS': args}))


class ExitJson(Exception):
    pass


class FailJson(Exception):
    pass


def exit_json(self, **kwargs):
    kwargs.setdefault('changed', False)
    raise ExitJson(kwargs)


def fail_json(self, **kwargs):
    kwargs['failed'] = True
    raise FailJson(kwargs)


class FakeVdpactl(object):
    """The devices of one host and the argv of every call; run_command replacement."""

    MGMTDEVS = {'vdpasim_net': {'supported_classes': ['net'], 'max_supported_vqs': 3, 'dev_features': ['MAC', 'MTU']}}

    def __init__(self, devices=None):
        self.devices = dict(devices or {})
        self.calls = []
        self.fail_next_add = None
        self.dev_set = True  # False: a kernel before 6.12 (no VDPA_CMD_DEV_ATTR_SET)

    def method(self):
        """A replacement for AnsibleModule.run_command."""
        return lambda module_self, cmd, **kwargs: self(module_self, cmd, **kwargs)

    def __call__(self, module_self, cmd, **kwargs):
        args = [a for a in cmd[1:] if a != '--json']
        while args and args[0].startswith('--') and args[0] in ('--backend', '--fake-state', '--fake-faults'):
            args = args[2:]
        self.calls.append(args)
        verb = tuple(args[:2])
        if verb == ('dev', 'show'):
            return self._show(args[2])
        if verb == ('dev', 'config') and len(args) == 2:
            return 0, json.dumps({'config': {}}), ''
        if verb == ('dev', 'config'):
            if args[2] not in self.devices:
                return 3, '', 'vdpactl: VDPA_CMD_DEV_CONFIG_GET %s: ENODEV (No such device): vdpa: device not found\n' % args[2]
            d = self.devices[args[2]]
            cfg = {'mac': d.get('mac', '00:00:00:00:00:00'), 'link': 'up', 'link_announce': False, 'mtu': d.get('mtu', 1500)}
            if d.get('max_vqp', 1) > 1:
                cfg['max_vq_pairs'] = d['max_vqp']
            return 0, json.dumps({'config': {args[2]: cfg}}), ''
        if verb == ('dev', 'add'):
            return self._add(args)
        if verb == ('dev', 'del'):
            if args[2] not in self.devices:
                return 3, '', 'vdpactl: VDPA_CMD_DEV_GET %s: ENODEV (No such device): vdpa: device not found\n' % args[2]
            del self.devices[args[2]]
            return 0, '', ''
        if verb == ('dev', 'set'):
            if not self.dev_set:
                return 5, '', ('vdpactl: dev set needs VDPA_CMD_DEV_ATTR_SET, which this kernel lacks (Linux 6.12+)\n')
            self.devices[args[2]]['mac'] = args[4]
            return 0, '', ''
        if verb == ('mgmtdev', 'list'):
            return 0, json.dumps({'mgmtdev': self.MGMTDEVS}), ''
        if verb == ('dev', 'list'):
            return 0, json.dumps({'dev': dict((n, self._dev(d)) for n, d in self.devices.items())}), ''
        raise AssertionError('unexpected vdpactl call %r' % (args,))

    @staticmethod
    def _dev(d):
        return {'type': 'network', 'mgmtdev': d['mgmtdev'], 'vendor_id': 0, 'max_vqs': 2 * d.get('max_vqp', 1) + 1,
                'max_vq_size': 256}

    def _show(self, name):
        if name not in self.devices:
            # as vdpactl does with --json: the error document on stdout, the line on stderr
            message = 'VDPA_CMD_DEV_GET %s: ENODEV (No such device): vdpa: device not found' % name
            error = {'schema': 'vdpactl.error', 'schema_version': 1, 'error': {'exit': 3, 'name': 'NOT_FOUND', 'message': message}}
            return 3, json.dumps(error), 'vdpactl: %s\n' % message
        return 0, json.dumps({'dev': {name: self._dev(self.devices[name])}}), ''

    def _add(self, args):
        name = args[2]
        opts = dict(zip(args[3::2], args[4::2]))
        if self.fail_next_add:
            rc, err = self.fail_next_add
            self.fail_next_add = None
            return rc, '', err
        if opts['--mgmtdev'] not in self.MGMTDEVS:
            return 3, '', ('[main] INFO org.vdpactl.cli.CliContext - backend: fake\n'
                           'vdpactl: VDPA_CMD_MGMTDEV_GET %s: ENODEV (No such device): vdpa: Fail to find the specified mgmt device\n'
                           % opts['--mgmtdev'])
        if name in self.devices:
            return 7, '', 'vdpactl: VDPA_CMD_DEV_NEW %s: EEXIST (File exists)\n' % name
        d = {'mgmtdev': opts['--mgmtdev']}
        if '--mac' in opts:
            d['mac'] = opts['--mac']
        if '--mtu' in opts:
            d['mtu'] = int(opts['--mtu'])
        if '--max-vqp' in opts:
            d['max_vqp'] = int(opts['--max-vqp'])
        self.devices[name] = d
        return 0, json.dumps({'dev': {name: self._dev(d)}}), ''
