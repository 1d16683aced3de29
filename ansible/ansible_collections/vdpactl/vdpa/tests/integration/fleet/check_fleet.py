# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE of the vdpactl repository)
"""Checks the fleet integration run: the JSON-callback output of the first and second playbook runs, the
fake kernels' state files, and the merged fleet report.

usage: check_fleet.py FLEET_ROOT RUN1.json RUN2.json
Prints one line per check and 'N passed, N failed'; exits non-zero on a failure.
"""

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import json
import os
import sys

HOSTS = ['node%d' % i for i in range(1, 9)]
# fake_vfs of each host in ansible/fleet-demo/inventory.yml: one device mlx5-N per function
VFS = {'node1': 2, 'node2': 1, 'node3': 3, 'node4': 2, 'node5': 2, 'node6': 1, 'node7': 1, 'node8': 2}


class Checks(object):
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, ok, what):
        print('%s: %s' % ('ok  ' if ok else 'FAIL', what))
        if ok:
            self.passed += 1
        else:
            self.failed += 1


def load(path):
    with open(path) as f:
        text = f.read()
    # the json callback prints one document; anything before it (warnings) is skipped
    return json.loads(text[text.index('{'):])


def task_results(run, name):
    """Per host, the result of the task called `name` in any play."""
    out = {}
    for play in run['plays']:
        for task in play['tasks']:
            if task['task']['name'] == name:
                out.update(task['hosts'])
    return out


def main(root, run1_path, run2_path):
    c = Checks()
    run1, run2 = load(run1_path), load(run2_path)
    for label, run in (('first', run1), ('second', run2)):
        stats = run['stats']
        c.check(sorted(h for h in stats if h != 'localhost') == HOSTS, '%s run: the 8 hosts ran' % label)
        c.check(all(s['failures'] == 0 and s['unreachable'] == 0 for s in stats.values()), '%s run: no failed task' % label)
    c.check(all(run1['stats'][h]['changed'] > 0 for h in HOSTS), 'first run: every host changed (install, devices)')
    c.check(all(s['changed'] == 0 for s in run2['stats'].values()),
            'second run: all ok, no changed (%s)' % ', '.join('%s changed=%d' % (h, s['changed']) for h, s in sorted(run2['stats'].items())))
    created = task_results(run1, "Create the host's vDPA devices")
    c.check(all(all(item['changed'] for item in created[h]['results']) and len(created[h]['results']) == VFS[h] for h in HOSTS),
            'first run: every listed device created (changed) on every host')
    for h in HOSTS:
        with open(os.path.join(root, h, 'fake-state.json')) as f:
            devices = dict((d['name'], d) for d in json.load(f)['devices'])
        wanted = ['mlx5-%d' % i for i in range(VFS[h])]
        c.check(sorted(devices) == wanted and devices['mlx5-0'].get('mac') == '02:00:00:%02x:01:00' % int(h[4:]),
                '%s: its own fake kernel holds exactly %s' % (h, ', '.join(wanted)))
    rehearsed = task_results(run2, 'Rehearse a migration window and fetch the document and the report')
    c.check(all(rehearsed[h]['outcome'] == 'completed' and rehearsed[h]['simulated'] for h in HOSTS),
            'second run: rehearsal completed on all hosts (simulated)')
    controller = os.path.join(root, 'controller')
    c.check(all(os.path.isfile(os.path.join(controller, 'hosts', h + ext)) for h in HOSTS for ext in ('.json', '.html')),
            'every host document and HTML report fetched to the controller')
    with open(os.path.join(controller, 'fleet.json')) as f:
        fleet = json.load(f)
    hosts = fleet['hosts']
    downtimes = [h['downtime_ms'] for h in hosts]
    c.check([h['host'] for h in hosts if True] and sorted(h['host'] for h in hosts) == HOSTS, 'fleet report: a row per host')
    c.check(downtimes == sorted(downtimes, reverse=True), 'fleet report: slowest host first (%s)'
            % ', '.join('%s %.1f' % (h['host'], h['downtime_ms']) for h in hosts))
    by_host = dict((h['host'], h) for h in hosts)
    c.check(all(abs(by_host[h]['downtime_ms'] - rehearsed[h]['downtime_ms']) < 1e-6 for h in HOSTS),
            "fleet report: each host's downtime is the one its module returned")
    c.check(fleet['figures'] == 'simulated' and fleet['partial'] == [], 'fleet report: simulated, no PARTIAL host')
    c.check(fleet['downtime']['hosts'] == 8 and fleet['downtime']['slowest_host'] == hosts[0]['host'],
            'fleet report: downtime spread over 8 hosts, slowest host named')
    c.check([p['name'] for p in fleet['phases']][:2] == ['suspend', 'save_state'] and all(p['hosts'] == 8 for p in fleet['phases']),
            'fleet report: per-phase spread across the 8 hosts')
    with open(os.path.join(controller, 'fleet.html')) as f:
        html = f.read()
    c.check(html.count('<rect class="bar"') == 8 and all('<td>%s</td>' % h in html for h in HOSTS),
            'fleet.html: a bar and a row per host')
    print('%d passed, %d failed' % (c.passed, c.failed))
    return 1 if c.failed else 0


if __name__ == '__main__':
    sys.exit(main(*sys.argv[1:]))
