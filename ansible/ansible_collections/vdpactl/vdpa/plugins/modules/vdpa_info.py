#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE of the vdpactl repository)

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

DOCUMENTATION = r'''
---
module: vdpa_info
short_description: Management devices, vDPA devices, their configuration and vdpactl doctor's findings
version_added: "0.1.0"
description:
  - Gathers, with one vdpactl call each, the management devices (C(vdpactl mgmtdev list --json)), the vDPA
    devices (C(dev list)), their configuration (C(dev config)) and the findings of C(vdpactl doctor).
  - The first three have the shape of iproute2's C(vdpa -j mgmtdev show), C(vdpa -j dev show) and
    C(vdpa -j dev config show) (keyed by name).
  - A host that C(doctor) finds not ready (exit code 8) is a finding, not a failure, unless C(require_ready=true).
  - Changes nothing; runs in check mode too.
options:
  gather:
    description: What to gather; each item costs one vdpactl start on the host.
    type: list
    elements: str
    choices: [mgmtdevs, devs, config, doctor, migrate_facts]
    default: [mgmtdevs, devs, config, doctor]
  qemu_version:
    description:
      - With C(migrate_facts) - the QEMU version the host's VMs run (default - what the qemu-system binary on the host says).
    type: str
  host_name:
    description:
      - With C(migrate_facts) - the host's name in the facts document (default - the host's own name); the compatibility
        matrix of the fleet report names the hosts by it.
    type: str
  require_ready:
    description: Fail when C(vdpactl doctor) finds blocking problems (lists them).
    type: bool
    default: false
extends_documentation_fragment:
  - vdpactl.vdpa.vdpactl
attributes:
  check_mode:
    support: full
    description: Only reads; runs the same in check mode.
  diff_mode:
    support: none
    description: Nothing changes, so there is no diff.
author:
  - vdpactl project (@vdpactl)
'''

EXAMPLES = r'''
- name: Everything vdpactl knows about the host
  vdpactl.vdpa.vdpa_info:
  register: vdpa

- name: Show the doctor's blocking findings
  ansible.builtin.debug:
    var: vdpa.doctor_failures

- name: The host's migration facts, for vdpactl migrate check on the controller (playbooks/fleet-migration.yml)
  vdpactl.vdpa.vdpa_info:
    gather: [migrate_facts]
    host_name: "{{ inventory_hostname }}"
  register: vdpa

- name: Only the devices, and fail early on a host that cannot drive vDPA
  vdpactl.vdpa.vdpa_info:
    gather: [devs, doctor]
    require_ready: true
'''

RETURN = r'''
mgmtdevs:
  description: Management devices keyed C(bus/name) or C(name), as C(vdpa -j mgmtdev show) prints them.
  returned: when gathered
  type: dict
  sample: {"vdpasim_net": {"supported_classes": ["net"], "max_supported_vqs": 3, "dev_features": ["MAC", "MTU"]}}
devs:
  description: vDPA devices keyed by name, as C(vdpa -j dev show) prints them.
  returned: when gathered
  type: dict
  sample: {"vdpa0": {"type": "network", "mgmtdev": "vdpasim_net", "vendor_id": 0, "max_vqs": 3, "max_vq_size": 256}}
config:
  description: Device configuration keyed by name, as C(vdpa -j dev config show) prints it.
  returned: when gathered
  type: dict
  sample: {"vdpa0": {"mac": "02:00:00:00:00:01", "link": "up", "link_announce": false, "mtu": 1500}}
doctor:
  description: C(vdpactl doctor --json) (C(ready), C(simulated), C(kernel_vdpa), C(checks) with id, status, title, detail, hint).
  returned: when gathered
  type: dict
doctor_failures:
  description: The doctor's checks with status C(FAIL), as C(title - detail (hint)).
  returned: when doctor is gathered
  type: list
  elements: str
ready:
  description: Whether doctor found the host ready to drive vDPA devices.
  returned: when doctor is gathered
  type: bool
migrate_facts:
  description: C(vdpactl migrate facts --json) (devices, features, negotiated features, backend features, groups, kernel,
    QEMU, RLIMIT_MEMLOCK, CAP_IPC_LOCK; docs/migrate.md).
  returned: when gathered
  type: dict
commands:
  description: The vdpactl command lines run.
  returned: always
  type: list
  elements: str
'''

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.vdpactl.vdpa.plugins.module_utils.vdpactl import COMMON_ARGS, Vdpactl, VdpactlError

CALLS = (
    ('mgmtdevs', ['mgmtdev', 'list'], 'mgmtdev'),
    ('devs', ['dev', 'list'], 'dev'),
    ('config', ['dev', 'config'], 'config'),
)


def doctor_failures(doctor):
    out = []
    for check in doctor.get('checks', []):
        if check.get('status') == 'FAIL':
            line = '%s: %s' % (check.get('title'), check.get('detail'))
            if check.get('hint'):
                line += ' (%s)' % check['hint']
            out.append(line)
    return out


def run_module():
    module = AnsibleModule(
        argument_spec=dict(
            gather=dict(type='list', elements='str', choices=['mgmtdevs', 'devs', 'config', 'doctor', 'migrate_facts'],
                        default=['mgmtdevs', 'devs', 'config', 'doctor']),
            qemu_version=dict(type='str'),
            host_name=dict(type='str'),
            require_ready=dict(type='bool', default=False),
            **COMMON_ARGS
        ),
        supports_check_mode=True,
    )
    cli = Vdpactl(module)
    gather = module.params['gather']
    result = dict(changed=False, commands=cli.commands)
    try:
        for key, args, top in CALLS:
            if key in gather:
                _rc, data, _err = cli.run(args)
                result[key] = (data or {}).get(top, {})
        if 'migrate_facts' in gather:
            args = ['migrate', 'facts']
            if module.params['qemu_version']:
                args += ['--qemu-version', module.params['qemu_version']]
            if module.params['host_name']:
                args += ['--host', module.params['host_name']]
            _rc, facts, _err = cli.run(args)
            result['migrate_facts'] = facts or {}
        if 'doctor' in gather:
            # exit 8 (NOT_READY) is doctor's verdict, reported as data
            _rc, doctor, _err = cli.run(['doctor'], ok_codes=(0, 8))
            doctor = doctor or {}
            result['doctor'] = doctor
            result['ready'] = bool(doctor.get('ready'))
            result['doctor_failures'] = doctor_failures(doctor)
            if module.params['require_ready'] and not result['ready']:
                module.fail_json(msg='vdpactl doctor: host not ready: %s' % '; '.join(result['doctor_failures']), **result)
    except VdpactlError as e:
        cli.fail(e)
    module.exit_json(**result)


def main():
    run_module()


if __name__ == '__main__':
    main()
