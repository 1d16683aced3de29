# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE of the vdpactl repository)

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import json

import pytest

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.vdpactl.vdpa.plugins.modules import vdpa_rehearse, vdpa_info
from ansible_collections.vdpactl.vdpa.tests.unit.plugins.modules.fake_vdpactl import (
    ExitJson, FailJson, FakeVdpactl, exit_json, fail_json, set_module_args)


def document(outcome='completed'):
    doc = {
        'schema': 'vdpactl.rehearsal/1', 'simulated': True, 'backend': 'fake', 'clock': 'virtual', 'command': 'vdpactl rehearse',
        'plan': {'sources': ['mlx5-0'], 'phases': ['suspend', 'resume'], 'strategy': 'parallel', 'iterations': 1},
        'outcome': outcome,
        'statistics': {'downtime': {'count': 1, 'p50Ms': 12.5}, 'phases': {'suspend': {'count': 1, 'p50Ms': 2.5}}},
        'iterations': [{'index': 0, 'downtimeMs': 12.5, 'criticalPathMs': 12.0, 'phases': [], 'deviceMs': {}, 'spans': []}],
        'devices': [{'name': 'mlx5-0', 'state': 'RUNNING', 'detail': 'untouched'}], 'notes': [],
    }
    if outcome == 'partial':
        doc['statistics']['downtime'] = {'count': 0}
        doc['failure'] = {'device': 'mlx5-0', 'phase': 'suspend', 'call': 'VHOST_VDPA_SUSPEND', 'errno': 5, 'errnoName': 'EIO',
                          'message': 'VHOST_VDPA_SUSPEND: EIO'}
        doc['devices'] = [{'name': 'mlx5-0', 'state': 'RUNNING', 'detail': 'resumed'}]
    return doc


class Rehearsals(object):
    def __init__(self, rc, doc):
        self.rc = rc
        self.doc = doc
        self.calls = []

    def __call__(self, module_self, cmd, **kwargs):
        self.calls.append(cmd)
        return self.rc, json.dumps(self.doc), ''

    def method(self):
        return lambda module_self, cmd, **kwargs: self(module_self, cmd, **kwargs)


@pytest.fixture
def patched(monkeypatch):
    monkeypatch.setattr(AnsibleModule, 'exit_json', exit_json)
    monkeypatch.setattr(AnsibleModule, 'fail_json', fail_json)
    monkeypatch.setattr(AnsibleModule, 'get_bin_path', lambda self, name, required=False, opt_dirs=None: '/opt/bin/vdpactl')
    return monkeypatch


def run(module, args):
    set_module_args(args)
    with pytest.raises((ExitJson, FailJson)) as e:
        module.main()
    return e.value.args[0]


def test_options_become_the_cli_arguments_and_the_summary_is_returned(patched, tmp_path):
    fake = Rehearsals(0, document())
    patched.setattr(AnsibleModule, 'run_command', fake.method())
    dest = str(tmp_path / 'out' / 'r.json')
    r = run(vdpa_rehearse, dict(devices=['mlx5-0', 'mlx5-1'], strategy='serial', iterations=3, memory='8G', premap=True,
                                backend='fake', fake_state='/s.json', json_dest=dest, host_label='node3'))
    assert fake.calls[0] == ['/opt/bin/vdpactl', '--backend', 'fake', '--fake-state', '/s.json', 'rehearse', 'mlx5-0', 'mlx5-1',
                             '--strategy', 'serial', '--iterations', '3', '--premap', '--memory', '8G', '--json']
    assert r['changed'] is False
    assert r['downtime_ms'] == 12.5 and r['simulated'] is True
    assert r['phases']['suspend']['p50Ms'] == 2.5
    with open(dest) as f:
        saved = json.load(f)
    assert saved['host'] == 'node3' and saved['schema'] == 'vdpactl.rehearsal/1'


def test_partial_fails_with_the_failing_call_and_the_rollback_report(patched, tmp_path):
    patched.setattr(AnsibleModule, 'run_command', Rehearsals(6, document('partial')).method())
    dest = str(tmp_path / 'r.json')
    r = run(vdpa_rehearse, dict(json_dest=dest))
    assert r['failed'] is True and r['exit_name'] == 'PARTIAL'
    assert r['msg'] == ('rehearsal PARTIAL: suspend VHOST_VDPA_SUSPEND on mlx5-0 failed with EIO (VHOST_VDPA_SUSPEND: EIO); '
                        'rolled back: mlx5-0 RUNNING (resumed)')
    assert r['devices'][0]['detail'] == 'resumed'
    assert r['downtime_ms'] is None
    with open(dest) as f:
        assert json.load(f)['outcome'] == 'partial'


def test_check_mode_runs_no_rehearsal(patched):
    fake = Rehearsals(0, document())
    patched.setattr(AnsibleModule, 'run_command', fake.method())
    r = run(vdpa_rehearse, dict(_ansible_check_mode=True))
    assert r['changed'] is False and fake.calls == []


def test_info_reports_a_not_ready_host_as_data_unless_readiness_is_required(patched):
    fake = FakeVdpactl()
    doctor = {'ready': False, 'checks': [{'status': 'FAIL', 'title': 'vhost_vdpa', 'detail': 'not loaded', 'hint': 'modprobe vhost_vdpa'},
                                         {'status': 'OK', 'title': 'privileges', 'detail': 'euid 0', 'hint': None}]}

    def cli(module_self, cmd, **kwargs):
        if 'doctor' in cmd:
            return 8, json.dumps(doctor), ''
        return fake(module_self, cmd, **kwargs)
    patched.setattr(AnsibleModule, 'run_command', cli)
    r = run(vdpa_info, dict())
    assert r['changed'] is False and r['ready'] is False
    assert r['doctor_failures'] == ['vhost_vdpa: not loaded (modprobe vhost_vdpa)']
    assert 'vdpasim_net' in r['mgmtdevs'] and r['devs'] == {}
    r = run(vdpa_info, dict(gather=['doctor'], require_ready=True))
    assert r['failed'] is True
    assert r['msg'] == 'vdpactl doctor: host not ready: vhost_vdpa: not loaded (modprobe vhost_vdpa)'
