#!/usr/bin/python
# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE of the vdpactl repository)

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

DOCUMENTATION = r'''
---
module: vdpa_rehearse
short_description: Rehearse a live-migration downtime window on the host's vDPA devices
version_added: "0.1.0"
description:
  - Runs C(vdpactl rehearse --json) with the module's options and returns the downtime, the per-phase
    summary and every device's final state (the full document with every span can be saved on the host
    with C(json_dest) and fetched to the controller with C(fetch_dir)).
  - A rehearsal that ended PARTIAL (vdpactl exit code 6, a call failed and every device was rolled back)
    fails the task; the result then holds the failing call and the rollback report (C(devices)).
  - What C(changed) means here - the task never reports C(changed). The rehearsal suspends, resets and
    reconfigures the devices it uses and brings every one back (resumed and mapped, or reset on a
    failed rollback, which fails the task); it is a measurement, and no managed state (the device set,
    their attributes) differs after it. The document (C(json_dest)) and the report (C(report)) it writes
    are outputs, like a command's log, not state the task converges. So a playbook run twice reports no
    change, and C(changed_when) can say otherwise where a site wants it. In check mode nothing runs.
  - Figures from the fake backend are simulated (C(simulated=true)).
options:
  devices:
    description: Devices to rehearse on (sources). Default, every vDPA device bound to vhost_vdpa.
    type: list
    elements: str
    default: []
  count:
    description: Use the first N devices (C(--devices N)).
    type: int
  dest:
    description: Separate destination devices, one per source.
    type: list
    elements: str
    default: []
  split:
    description: First half of the devices as sources, second half as destinations.
    type: bool
    default: false
  strategy:
    description:
      - serial (one device after another, what QEMU does), parallel (phase barriers), pipelined, or svq
        (serial with shadow-virtqueue destinations, QEMU's SVQ migration path).
    type: str
    choices: [serial, parallel, pipelined, svq]
    default: parallel
  iterations:
    description: Windows to rehearse.
    type: int
    default: 1
  premap:
    description: Map the destination memory before the window.
    type: bool
    default: false
  stop_and_copy:
    description: Only the source side of stop-and-copy (suspend, save state, unmap).
    type: bool
    default: false
  queue_pairs:
    description: Queue pairs of net devices (0, all the device offers).
    type: int
    default: 0
  window:
    description:
      - Where the downtime starts and ends for a device that is its own destination (C(--window)).
      - C(migration) (vdpactl's default) counts its reset as the destination's preparation, outside the downtime;
        C(in-place) counts it (a device restarted in place).
    type: str
    choices: [migration, in-place]
  fake_kernel:
    description:
      - Linux version the fake backend speaks (C(--fake-kernel)), a kernel profile's version or alias as C(vdpactl --help)
        lists them; the fake's default is the state file's, else 6.12.
      - vdpactl checks the name, so the module keeps no copy of the list; an unknown one fails the task with vdpactl's
        message and exit code 2 (C(USAGE)).
    type: str
  fake_clock:
    description:
      - Clock of the fake backend (C(--fake-clock)). C(virtual) is deterministic simulated time (reproducible fleet
        comparisons, no waiting); C(real) waits the modelled latencies.
    type: str
    choices: [real, virtual]
  memory_layout:
    description: A guest memory layout file on the host (C(--memory-layout FILE.json)), instead of C(memory)/C(regions).
    type: path
  memory:
    description: Guest memory size (C(4G), C(256G), ...).
    type: str
  regions:
    description: Region size of the guest memory layout.
    type: str
  page_size:
    description: Page size backing the guest memory (C(4K), C(2M), C(1G)).
    type: str
  report:
    description: Path on the host of the self-contained HTML report to write (C(--report)).
    type: path
  json_dest:
    description:
      - Path on the host where the full C(rehearse --json) document is saved, with a top-level C(host) field
        added (C(host_label)) so that C(vdpactl report merge) names the host.
    type: path
  host_label:
    description:
      - The host's name in the saved document. The action plugin sets it to C(inventory_hostname);
        the module alone uses the host's node name.
    type: str
  fetch_dir:
    description:
      - Directory on the controller to fetch the saved document (as C(<host_label>.json)) and the HTML report
        (as C(<host_label>.html)) to; done by the collection's action plugin after the module ran, also when
        the rehearsal ended PARTIAL.
    type: path
extends_documentation_fragment:
  - vdpactl.vdpa.vdpactl
attributes:
  check_mode:
    support: full
    description: Runs no rehearsal in check mode.
  diff_mode:
    support: none
    description: Device configuration does not change, so there is no diff.
author:
  - vdpactl project (@vdpactl)
'''

EXAMPLES = r'''
- name: Rehearse on every device, keep the document and the report on the controller
  vdpactl.vdpa.vdpa_rehearse:
    iterations: 5
    json_dest: /var/tmp/vdpactl-rehearsal.json
    report: /var/tmp/vdpactl-rehearsal.html
    fetch_dir: "{{ playbook_dir }}/reports"
  register: rehearsal

- name: Print the downtime
  ansible.builtin.debug:
    msg: "{{ inventory_hostname }}: {{ rehearsal.downtime_ms }} ms ({{ 'simulated' if rehearsal.simulated else 'measured' }})"

- name: Two ConnectX functions, serial like QEMU, 256 GiB of guest memory in 1 GiB regions
  vdpactl.vdpa.vdpa_rehearse:
    devices: [mlx5-0, mlx5-1]
    strategy: serial
    memory: 256G
    regions: 1G
'''

RETURN = r'''
outcome:
  description: C(completed) or C(partial).
  returned: when the rehearsal ran
  type: str
  sample: completed
simulated:
  description: True when the figures come from the fake kernel's models.
  returned: when the rehearsal ran
  type: bool
backend:
  description: Where the figures come from, as fields (kind, kernel_profile or kernel_release, presets).
  returned: when the rehearsal ran
  type: dict
  sample: {"kind": "fake", "kernel_profile": "6.12", "presets": ["mlx5-612"]}
plan:
  description: What was rehearsed (sources, destinations, paths, strategy, premap, phases, iterations, queue_pairs, memory, window).
  returned: when the rehearsal ran
  type: dict
downtime:
  description:
    - Percentiles of the downtime over the completed iterations (count, min_ms, p50_ms, p90_ms, p99_ms, max_ms, mean_ms, exact),
      the measured values themselves.
    - With no completed iteration (a failure in the first window) count is 0 and every figure is null, never 0.
  returned: when the rehearsal ran
  type: dict
downtime_ms:
  description: Median downtime (first suspend to last resume) over the completed iterations, in ms; null when none completed.
  returned: when the rehearsal ran
  type: float
  sample: 408.68
phases:
  description: Per phase, the percentiles over the completed iterations (count, min_ms, p50_ms, p90_ms, p99_ms, max_ms, mean_ms).
  returned: when the rehearsal ran
  type: dict
  sample: {"suspend": {"count": 1, "p50_ms": 2.56, "max_ms": 2.56}, "save_state": {"count": 1, "p50_ms": 4.48, "max_ms": 4.48}}
last_iteration:
  description: The last iteration's phases (wall time, slowest device, per-device ms) and downtime.
  returned: when the rehearsal ran
  type: dict
devices:
  description: Every device's final state (name, role, state, mapped, status, detail); the rollback report on PARTIAL.
  returned: when the rehearsal ran
  type: list
  elements: dict
failure:
  description: The failing call (device, phase id, call, errno, errno_name, message).
  returned: when the rehearsal ended PARTIAL
  type: dict
notes:
  description: vdpactl's remarks (memory reduced, queue pairs, ...).
  returned: when the rehearsal ran
  type: list
  elements: str
json_path:
  description: Where the document was saved on the host.
  returned: when json_dest is set
  type: str
report_path:
  description: Where the HTML report was written on the host.
  returned: when report is set
  type: str
host_label:
  description: The host's name in the saved document.
  returned: always
  type: str
commands:
  description: The vdpactl command lines run.
  returned: always
  type: list
  elements: str
'''

import json
import os
import platform

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.vdpactl.vdpa.plugins.module_utils.vdpactl import COMMON_ARGS, Vdpactl, VdpactlError, exit_name


def rehearse_args(p):
    args = ['rehearse'] + list(p['devices'])
    if p.get('count') is not None:
        args += ['--devices', str(p['count'])]
    if p['dest']:
        args += ['--dest', ','.join(p['dest'])]
    if p['split']:
        args.append('--split')
    args += ['--strategy', p['strategy'], '--iterations', str(p['iterations'])]
    if p.get('window'):
        args += ['--window', p['window']]
    if p['premap']:
        args.append('--premap')
    if p['stop_and_copy']:
        args.append('--stop-and-copy')
    if p['queue_pairs']:
        args += ['--queue-pairs', str(p['queue_pairs'])]
    for key, opt in (('memory', '--memory'), ('regions', '--regions'), ('page_size', '--page-size'),
                     ('memory_layout', '--memory-layout'), ('report', '--report')):
        if p.get(key):
            args += [opt, p[key]]
    return args


def summary(doc):
    """What the task returns of the rehearsal document (everything but the spans)."""
    stats = doc.get('statistics', {})
    downtime = stats.get('downtime', {})
    iterations = doc.get('iterations') or [{}]
    last = iterations[-1]
    return dict(
        outcome=doc.get('outcome'),
        simulated=bool(doc.get('simulated')),
        backend=doc.get('backend'),
        plan=doc.get('plan', {}),
        downtime_ms=downtime.get('p50_ms') if downtime.get('count') else None,
        downtime=downtime,
        phases=stats.get('phases', {}),
        last_iteration=dict(downtime_ms=last.get('downtime_ms'), critical_path_ms=last.get('critical_path_ms'),
                            phases=last.get('phases', []), device_ms=last.get('device_ms', {})),
        devices=doc.get('devices', []),
        failure=doc.get('failure'),
        notes=doc.get('notes', []),
    )


def save(path, doc, host):
    doc = dict(doc)
    doc['host'] = host
    directory = os.path.dirname(path)
    if directory and not os.path.isdir(directory):
        os.makedirs(directory)
    tmp = path + '.tmp'
    with open(tmp, 'w') as f:
        json.dump(doc, f)
    os.rename(tmp, path)


def run_module():
    module = AnsibleModule(
        argument_spec=dict(
            devices=dict(type='list', elements='str', default=[]),
            count=dict(type='int'),
            dest=dict(type='list', elements='str', default=[]),
            split=dict(type='bool', default=False),
            strategy=dict(type='str', default='parallel', choices=['serial', 'parallel', 'pipelined', 'svq']),
            iterations=dict(type='int', default=1),
            premap=dict(type='bool', default=False),
            stop_and_copy=dict(type='bool', default=False),
            queue_pairs=dict(type='int', default=0),
            memory=dict(type='str'),
            regions=dict(type='str'),
            page_size=dict(type='str'),
            memory_layout=dict(type='path'),
            window=dict(type='str', choices=['migration', 'in-place']),
            fake_kernel=dict(type='str'),
            fake_clock=dict(type='str', choices=['real', 'virtual']),
            report=dict(type='path'),
            json_dest=dict(type='path'),
            host_label=dict(type='str'),
            fetch_dir=dict(type='path'),
            **COMMON_ARGS
        ),
        mutually_exclusive=[('dest', 'split'), ('memory_layout', 'memory'), ('memory_layout', 'regions')],
        supports_check_mode=True,
    )
    p = module.params
    host = p['host_label'] or platform.node()
    if p['iterations'] < 1:
        module.fail_json(msg='iterations: must be at least 1, got %d' % p['iterations'], host_label=host)
    cli = Vdpactl(module)
    result = dict(changed=False, commands=cli.commands, host_label=host)
    if module.check_mode:
        module.exit_json(msg='check mode: rehearsal not run', **result)
    try:
        rc, doc, err = cli.run(rehearse_args(p), ok_codes=(0, 6))
    except VdpactlError as e:
        cli.fail(e, host_label=host)
    if not doc:
        module.fail_json(msg='vdpactl rehearse printed no document (exit %d)' % rc, rc=rc, stderr=err, **result)
    result.update(summary(doc))
    if p['json_dest']:
        save(p['json_dest'], doc, host)
        result['json_path'] = p['json_dest']
    if p['report']:
        result['report_path'] = p['report']
    if rc == 6:
        f = doc.get('failure') or {}
        states = ', '.join('%s %s (%s)' % (d.get('name'), d.get('state'), d.get('detail')) for d in doc.get('devices', []))
        module.fail_json(msg='rehearsal PARTIAL: %s %s on %s failed with %s (%s); rolled back: %s'
                             % (f.get('phase'), f.get('call'), f.get('device'), f.get('errno_name'), f.get('message'), states),
                         rc=rc, exit_name=exit_name(rc), **result)
    module.exit_json(**result)


def main():
    run_module()


if __name__ == '__main__':
    main()
