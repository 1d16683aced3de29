# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE of the vdpactl repository)

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import json
import os

import pytest

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.vdpactl.vdpa.plugins.modules import vdpa_rehearse, vdpa_info
from ansible_collections.vdpactl.vdpa.tests.unit.plugins.modules.fake_vdpactl import (
    ExitJson, FailJson, FakeVdpactl, exit_json, fail_json, set_module_args)


FIXTURE = os.path.join(os.path.dirname(__file__), 'fixtures', 'rehearsal.json')


def document(outcome='completed'):
    """A real `vdpactl rehearse --json` document (fixtures/rehearsal.json, which AnsibleSchemaCopyTest validates)."""
    with open(FIXTURE) as f:
        doc = json.load(f)
    if outcome == 'partial':
        doc['outcome'] = 'partial'
        # no completed iteration: count 0 and every figure null (the schema refuses zeros there)
        doc['statistics'] = {'downtime': dict({k: None for k in ('min_ms', 'p50_ms', 'p90_ms', 'p99_ms', 'max_ms', 'mean_ms')},
                                              count=0, exact=True), 'phases': {}}
        doc['failure'] = {'device': 'mlx5-0', 'phase': 'suspend', 'call': 'VHOST_VDPA_SUSPEND', 'errno': 5, 'errno_name': 'EIO',
                          'message': 'VHOST_VDPA_SUSPEND: EIO'}
        doc['devices'][0]['detail'] = 'resumed'
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
    doc = document()
    assert r['downtime_ms'] == doc['statistics']['downtime']['p50_ms'] and r['simulated'] is True
    assert r['phases']['save_state'] == doc['statistics']['phases']['save_state']
    assert r['backend'] == {'kind': 'fake', 'kernel_profile': '6.12', 'presets': ['mlx5-612']}
    with open(dest) as f:
        saved = json.load(f)
    assert saved['host'] == 'node3' and saved['schema'] == 'vdpactl.rehearsal' and saved['schema_version'] == 1


def test_window_fake_kernel_fake_clock_and_memory_layout_become_the_cli_arguments(patched):
    fake = Rehearsals(0, document())
    patched.setattr(AnsibleModule, 'run_command', fake.method())
    run(vdpa_rehearse, dict(window='in-place', fake_kernel='6.1', fake_clock='virtual', memory_layout='/etc/layout.json'))
    assert fake.calls[0] == ['/opt/bin/vdpactl', '--fake-kernel', '6.1', '--fake-clock', 'virtual', 'rehearse', '--strategy',
                             'parallel', '--iterations', '1', '--window', 'in-place', '--memory-layout', '/etc/layout.json', '--json']
    r = run(vdpa_rehearse, dict(memory_layout='/etc/layout.json', memory='8G'))
    assert r['failed'] is True and 'mutually exclusive' in r['msg']


def test_a_document_that_does_not_match_the_schema_fails_the_task(patched):
    doc = document()
    doc['plan']['queuePairs'] = doc['plan'].pop('queue_pairs')
    patched.setattr(AnsibleModule, 'run_command', Rehearsals(0, doc).method())
    r = run(vdpa_rehearse, dict())
    assert r['failed'] is True
    assert 'output does not match rehearsal.schema.json' in r['msg'] and 'queuePairs' in r['msg'], r['msg']


def test_partial_fails_with_the_failing_call_and_the_rollback_report(patched, tmp_path):
    patched.setattr(AnsibleModule, 'run_command', Rehearsals(6, document('partial')).method())
    dest = str(tmp_path / 'r.json')
    r = run(vdpa_rehearse, dict(json_dest=dest))
    assert r['failed'] is True and r['exit_name'] == 'PARTIAL'
    assert r['msg'] == ('rehearsal PARTIAL: suspend VHOST_VDPA_SUSPEND on mlx5-0 failed with EIO (VHOST_VDPA_SUSPEND: EIO); '
                        'rolled back: mlx5-0 RUNNING (resumed)')
    assert r['devices'][0]['detail'] == 'resumed'
    assert r['downtime_ms'] is None and r['downtime']['p50_ms'] is None and r['downtime']['count'] == 0
    with open(dest) as f:
        assert json.load(f)['outcome'] == 'partial'


def test_check_mode_runs_no_rehearsal(patched):
    fake = Rehearsals(0, document())
    patched.setattr(AnsibleModule, 'run_command', fake.method())
    r = run(vdpa_rehearse, dict(_ansible_check_mode=True))
    assert r['changed'] is False and fake.calls == []


def test_info_reports_a_not_ready_host_as_data_unless_readiness_is_required(patched):
    fake = FakeVdpactl()
    doctor = {'schema': 'vdpactl.doctor', 'schema_version': 1, 'ready': False, 'simulated': False,
              'backend': {'kind': 'kernel', 'kernel_release': '6.12.5', 'presets': []}, 'kernel_vdpa': False,
              'checks': [{'id': 'module:vhost_vdpa', 'status': 'FAIL', 'title': 'vhost_vdpa', 'detail': 'not loaded',
                          'hint': 'modprobe vhost_vdpa'},
                         {'id': 'privileges', 'status': 'OK', 'title': 'privileges', 'detail': 'euid 0', 'hint': None}]}

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
