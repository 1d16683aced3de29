#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE of the vdpactl repository)

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

DOCUMENTATION = r'''
---
module: vdpa_dev
short_description: Create or delete a vDPA device with vdpactl
version_added: "0.1.0"
description:
  - Makes sure a vDPA device exists with the given attributes (like C(vdpa dev add)), or does not exist
    (like C(vdpa dev del)), by running C(vdpactl dev show|config|add|del --json) on the host.
  - Idempotent. A device whose only difference is its C(mac) gets it changed in place with C(vdpactl dev set)
    (VDPA_CMD_DEV_ATTR_SET, Linux 6.12+; C(method=dev set)), without C(force). Any other difference, or a MAC
    change on a kernel without C(dev set), is a failure naming every difference, unless C(force=true); then
    the device is deleted and created again (C(method=recreate), and the diff's C(after) says C(recreated)).
  - Only the attributes given are compared. The C(mgmtdev) comes from C(vdpactl dev show), C(mac), C(mtu)
    and C(max_vq_pairs) from C(vdpactl dev config); a device without C(max_vq_pairs) there has one queue pair.
    C(device_features) given as names are compared with the C(dev_features) the kernel reports, when it
    reports them (otherwise they are not checked; a warning says so).
  - Check mode and diff mode are supported.
options:
  name:
    description: Device name (global on the host, like C(vdpa0)).
    type: str
    required: true
  state:
    description: Whether the device should exist.
    type: str
    choices: [present, absent]
    default: present
  mgmtdev:
    description:
      - Management device to create it on, e.g. C(vdpasim_net) or C(pci/0000:08:00.2).
      - Required with C(state=present).
    type: str
  mac:
    description: MAC address, six hex octets like C(02:00:00:00:00:01) (net devices).
    type: str
  mtu:
    description: MTU, 68 to 65535 (net devices).
    type: int
  max_vqp:
    description: Maximum virtqueue pairs (net devices with MQ).
    type: int
  device_features:
    description:
      - Device features to provision, as feature names (C(VERSION_1), C(ACCESS_PLATFORM), C(MAC), ...)
        or one hex value (C(0x300000020)).
    type: list
    elements: str
  force:
    description:
      - Recreate a device whose attributes differ instead of failing.
      - If creating it again fails, the old device is put back (best effort) and the task fails.
    type: bool
    default: false
extends_documentation_fragment:
  - vdpactl.vdpa.vdpactl
attributes:
  check_mode:
    support: full
    description: Reports what would be created, deleted or recreated without running C(dev add) or C(dev del).
  diff_mode:
    support: full
    description: Before and after as state and attributes.
author:
  - vdpactl project (@vdpactl)
'''

EXAMPLES = r'''
- name: A vdpa_sim net device with a fixed MAC
  vdpactl.vdpa.vdpa_dev:
    name: vdpa7
    mgmtdev: vdpasim_net
    mac: "02:00:00:00:00:07"
    mtu: 1500

- name: A ConnectX function with 8 queue pairs, recreated if it exists with other attributes
  vdpactl.vdpa.vdpa_dev:
    name: mlx5-0
    mgmtdev: pci/0000:08:00.2
    mac: "02:00:00:00:01:00"
    max_vqp: 8
    force: true

- name: Remove it
  vdpactl.vdpa.vdpa_dev:
    name: vdpa7
    state: absent

- name: On the fake kernel, one state file per host
  vdpactl.vdpa.vdpa_dev:
    name: vdpa7
    mgmtdev: vdpasim_net
    backend: fake
    fake_state: /var/tmp/vdpactl-fake-state.json
'''

RETURN = r'''
device:
  description: The device's attributes after the task (empty when absent).
  returned: always
  type: dict
  sample: {"name": "vdpa7", "mgmtdev": "vdpasim_net", "mac": "02:00:00:00:00:07", "mtu": 1500, "max_vqp": 1,
           "type": "network", "max_vqs": 3}
differences:
  description: The attributes that differed from the existing device, as C(attribute - wanted X, device has Y).
  returned: when an existing device differed
  type: list
  elements: str
  sample: ["mac: wanted 02:00:00:00:00:08, device has 02:00:00:00:00:07"]
method:
  description:
    - How an existing device that differed was changed - C(dev set) (in place, the MAC on Linux 6.12+) or C(recreate)
      (deleted and created again, C(force=true); the diff's C(after) has a C(recreated) line saying why).
  returned: when an existing device differed and was changed
  type: str
  sample: dev set
commands:
  description: The vdpactl command lines run, in order.
  returned: always
  type: list
  elements: str
rc:
  description: vdpactl's exit code of the failing call.
  returned: failure of a vdpactl call
  type: int
  sample: 3
exit_name:
  description: The name of that exit code in vdpactl's README table.
  returned: failure of a vdpactl call
  type: str
  sample: NOT_FOUND
'''

import re

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.vdpactl.vdpa.plugins.module_utils.vdpactl import COMMON_ARGS, Vdpactl, VdpactlError

MAC_RE = re.compile(r'^[0-9A-Fa-f]{2}(:[0-9A-Fa-f]{2}){5}$')


def wanted_attributes(params):
    """The attributes the task asks for, normalised like vdpactl prints them."""
    wanted = {}
    if params.get('mgmtdev'):
        wanted['mgmtdev'] = params['mgmtdev']
    if params.get('mac'):
        wanted['mac'] = params['mac'].lower()
    if params.get('mtu') is not None:
        wanted['mtu'] = params['mtu']
    if params.get('max_vqp') is not None:
        wanted['max_vqp'] = params['max_vqp']
    features = params.get('device_features')
    if features and not (len(features) == 1 and features[0].lower().startswith('0x')):
        wanted['device_features'] = sorted(f.upper() for f in features)
    return wanted


def check_input(params):
    """Refuses what vdpactl would refuse, before anything runs on the host; returns a message or None."""
    if params.get('mac') and not MAC_RE.match(params['mac']):
        return 'mac: not a MAC address: "%s" (expected six hex octets like 02:00:00:00:00:01)' % params['mac']
    if params.get('mtu') is not None and not 68 <= params['mtu'] <= 65535:
        return 'mtu: %d is out of range (68 to 65535)' % params['mtu']
    if params.get('max_vqp') is not None and params['max_vqp'] < 1:
        return 'max_vqp: must be at least 1, got %d' % params['max_vqp']
    return None


def device_attributes(name, show, config):
    """The device as vdpactl reports it (`dev show` and `dev config` JSON) in the module's terms."""
    dev = dict((show or {}).get('dev', {}).get(name, {}))
    cfg = (config or {}).get('config', {}).get(name, {})
    attrs = {'name': name}
    for key in ('mgmtdev', 'type', 'vendor_id', 'max_vqs', 'max_vq_size'):
        if key in dev:
            attrs[key] = dev[key]
    if 'mac' in cfg:
        attrs['mac'] = str(cfg['mac']).lower()
    if 'mtu' in cfg:
        attrs['mtu'] = cfg['mtu']
    if attrs.get('type') == 'network' and config is not None:
        # without MQ the kernel sends no max_vq_pairs: the device has one pair
        attrs['max_vqp'] = cfg.get('max_vq_pairs', 1)
    if 'dev_features' in cfg:
        attrs['device_features'] = sorted(str(f).upper() for f in cfg['dev_features'])
    return attrs


def differences(wanted, current):
    """Every wanted attribute the device does not have, as one readable line each."""
    out = []
    for key in sorted(wanted):
        if key not in current:
            continue
        if wanted[key] != current[key]:
            out.append('%s: wanted %s, device has %s' % (key, fmt(wanted[key]), fmt(current[key])))
    return out


# what `vdpactl dev set` changes in place (Linux 6.12+); anything else needs a recreation
SETTABLE = ('mac',)


def set_args(name, keys, wanted):
    args = ['dev', 'set', name]
    for key in keys:
        args += ['--' + key, wanted[key]]
    return args


def fmt(value):
    if isinstance(value, list):
        return ','.join(value) if value else '(none)'
    return str(value)


def add_args(params):
    args = ['dev', 'add', params['name'], '--mgmtdev', params['mgmtdev']]
    if params.get('mac'):
        args += ['--mac', params['mac']]
    if params.get('mtu') is not None:
        args += ['--mtu', str(params['mtu'])]
    if params.get('max_vqp') is not None:
        args += ['--max-vqp', str(params['max_vqp'])]
    if params.get('device_features'):
        args += ['--features', ','.join(params['device_features'])]
    return args


def restore_args(name, old):
    """`dev add` that recreates a device as it was (after a forced recreation failed)."""
    args = ['dev', 'add', name, '--mgmtdev', old['mgmtdev']]
    if old.get('mac') and old['mac'] != '00:00:00:00:00:00':
        args += ['--mac', old['mac']]
    if old.get('mtu') is not None:
        args += ['--mtu', str(old['mtu'])]
    if old.get('max_vqp', 1) > 1:
        args += ['--max-vqp', str(old['max_vqp'])]
    return args


def read_device(cli, name):
    """The device's attributes, or None when it does not exist."""
    rc, show, err = cli.run(['dev', 'show', name], ok_codes=(0, 3))
    if rc == 3:
        if 'device not found' in err:
            return None
        raise VdpactlError('dev show', rc, err, cli.commands[-1])
    _rc, config, _err = cli.run(['dev', 'config', name])
    return device_attributes(name, show, config)


def diff_view(attrs):
    if attrs is None:
        return {'state': 'absent'}
    view = {'state': 'present'}
    view.update(attrs)
    return view


def run_module():
    module = AnsibleModule(
        argument_spec=dict(
            name=dict(type='str', required=True),
            state=dict(type='str', default='present', choices=['present', 'absent']),
            mgmtdev=dict(type='str'),
            mac=dict(type='str'),
            mtu=dict(type='int'),
            max_vqp=dict(type='int'),
            device_features=dict(type='list', elements='str'),
            force=dict(type='bool', default=False),
            **COMMON_ARGS
        ),
        required_if=[('state', 'present', ['mgmtdev'])],
        supports_check_mode=True,
    )
    p = module.params
    problem = check_input(p)
    if problem:
        module.fail_json(msg=problem, commands=[])
    cli = Vdpactl(module)
    name = p['name']
    result = dict(changed=False, device={}, commands=cli.commands)
    try:
        current = read_device(cli, name)
        if p['state'] == 'absent':
            if current is not None:
                result['changed'] = True
                if not module.check_mode:
                    cli.run(['dev', 'del', name])
            result['diff'] = dict(before=diff_view(current), after=diff_view(None))
            module.exit_json(**result)

        wanted = wanted_attributes(p)
        if current is None:
            result['changed'] = True
            if not module.check_mode:
                current = created(cli, p, wanted)
            else:
                current = dict(name=name, **wanted)
            result['diff'] = dict(before=diff_view(None), after=diff_view(current))
            result['device'] = current
            module.exit_json(**result)

        if 'device_features' in wanted and 'device_features' not in current:
            module.warn('device_features of %s cannot be checked: the kernel does not report them' % name)
        diffs = differences(wanted, current)
        if not diffs:
            result['device'] = current
            result['diff'] = dict(before=diff_view(current), after=diff_view(current))
            module.exit_json(**result)
        keys = [k for k in sorted(wanted) if k in current and wanted[k] != current[k]]
        after = dict(current)
        after.update(wanted)
        why_not_set = None
        if all(k in SETTABLE for k in keys):
            try:
                if not module.check_mode:
                    cli.run(set_args(name, keys, wanted))
                result.update(changed=True, differences=diffs, method='dev set', device=after,
                              diff=dict(before=diff_view(current), after=diff_view(after)))
                module.exit_json(**result)
            except VdpactlError as e:
                if e.rc != 5:  # NOT_SUPPORTED: the kernel lacks dev set (before 6.12) or ignored it
                    raise
                why_not_set = e.cli_message
        if not p['force']:
            module.fail_json(msg='device %s exists with other attributes: %s (%sforce: true recreates it)'
                                 % (name, '; '.join(diffs), 'the kernel cannot change it in place: %s; ' % why_not_set
                                    if why_not_set else ''), differences=diffs, device=current, commands=cli.commands)
        result.update(changed=True, differences=diffs, method='recreate')
        if not module.check_mode:
            cli.run(['dev', 'del', name])
            try:
                after = created(cli, p, wanted)
            except VdpactlError as e:
                restored = restore(cli, name, current)
                cli.fail(e, device=current if restored else {}, restored=restored, differences=diffs)
        result['device'] = after
        after_view = diff_view(after)
        after_view['recreated'] = 'deleted and created again: ' + (why_not_set or 'attributes that dev set cannot change')
        result['diff'] = dict(before=diff_view(current), after=after_view)
        module.exit_json(**result)
    except VdpactlError as e:
        cli.fail(e, device=result['device'])


def created(cli, params, wanted):
    """Creates the device; its attributes as the new device reports them (`dev add`'s answer and its `dev config`)."""
    _rc, shown, _err = cli.run(add_args(params))
    # the config too: `dev add` answers as `dev show`, without max_vqp, so a recreation's after-diff dropped it (or
    # said what was asked instead of what the device took)
    _rc, config, _err = cli.run(['dev', 'config', params['name']])
    attrs = dict(wanted)
    attrs.update(device_attributes(params['name'], shown, config))
    return attrs


def restore(cli, name, old):
    """Puts the old device back after a failed recreation; True when that worked."""
    try:
        cli.run(restore_args(name, old))
        return True
    except VdpactlError:
        return False


def main():
    run_module()


if __name__ == '__main__':
    main()
