# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE of the vdpactl repository)

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import pytest

from ansible.module_utils.basic import AnsibleModule
from ansible_collections.vdpactl.vdpa.plugins.modules import vdpa_dev
from ansible_collections.vdpactl.vdpa.tests.unit.plugins.modules.fake_vdpactl import (
    ExitJson, FailJson, FakeVdpactl, exit_json, fail_json, set_module_args)

SIM = {'mgmtdev': 'vdpasim_net', 'mac': '02:00:00:00:00:07', 'mtu': 1500}


@pytest.fixture
def cli(monkeypatch):
    fake = FakeVdpactl()
    monkeypatch.setattr(AnsibleModule, 'exit_json', exit_json)
    monkeypatch.setattr(AnsibleModule, 'fail_json', fail_json)
    monkeypatch.setattr(AnsibleModule, 'run_command', fake.method())
    monkeypatch.setattr(AnsibleModule, 'get_bin_path', lambda self, name, required=False, opt_dirs=None: '/opt/bin/vdpactl')
    return fake


def run(args, check_mode=False):
    if check_mode:
        args = dict(args, _ansible_check_mode=True)
    set_module_args(args)
    with pytest.raises((ExitJson, FailJson)) as e:
        vdpa_dev.main()
    return e.value.args[0]


def test_creates_a_missing_device_and_reports_changed_with_a_diff(cli):
    r = run(dict(name='vdpa7', **SIM))
    assert r['changed'] is True
    assert cli.devices['vdpa7'] == SIM
    assert cli.calls[-2] == ['dev', 'add', 'vdpa7', '--mgmtdev', 'vdpasim_net', '--mac', '02:00:00:00:00:07', '--mtu', '1500']
    assert cli.calls[-1] == ['dev', 'config', 'vdpa7']
    assert r['diff']['before'] == {'state': 'absent'}
    assert r['diff']['after']['mac'] == '02:00:00:00:00:07'
    assert r['device']['mgmtdev'] == 'vdpasim_net'


def test_second_run_changes_nothing_and_runs_no_add(cli):
    run(dict(name='vdpa7', **SIM))
    before = len(cli.calls)
    r = run(dict(name='vdpa7', mgmtdev='vdpasim_net', mac='02:00:00:00:00:07'.upper(), mtu=1500))
    assert r['changed'] is False
    assert [c[:2] for c in cli.calls[before:]] == [['dev', 'show'], ['dev', 'config']]


def test_check_mode_reports_the_change_but_creates_nothing(cli):
    r = run(dict(name='vdpa7', **SIM), check_mode=True)
    assert r['changed'] is True
    assert 'vdpa7' not in cli.devices
    assert all(c[:2] != ['dev', 'add'] for c in cli.calls)


def test_other_attributes_fail_naming_each_difference_and_touch_nothing(cli):
    cli.devices['vdpa7'] = dict(SIM)
    r = run(dict(name='vdpa7', mgmtdev='vdpasim_net', mac='02:00:00:00:00:08', mtu=9000))
    assert r['failed'] is True
    assert r['msg'] == ('device vdpa7 exists with other attributes: mac: wanted 02:00:00:00:00:08, device has '
                        '02:00:00:00:00:07; mtu: wanted 9000, device has 1500 (force: true recreates it)')
    assert cli.devices['vdpa7'] == SIM


def test_a_new_mac_is_set_in_place_without_force(cli):
    cli.devices['vdpa7'] = dict(SIM)
    r = run(dict(name='vdpa7', mgmtdev='vdpasim_net', mac='02:00:00:00:00:08'))
    assert r['changed'] is True and r['method'] == 'dev set'
    assert [c[:2] for c in cli.calls] == [['dev', 'show'], ['dev', 'config'], ['dev', 'set']]
    assert cli.calls[-1] == ['dev', 'set', 'vdpa7', '--mac', '02:00:00:00:00:08']
    assert cli.devices['vdpa7']['mac'] == '02:00:00:00:00:08'
    assert r['diff']['after']['mac'] == '02:00:00:00:00:08' and 'recreated' not in r['diff']['after']


def test_a_new_mac_on_a_kernel_without_dev_set_fails_without_force(cli):
    cli.devices['vdpa7'] = dict(SIM)
    cli.dev_set = False
    r = run(dict(name='vdpa7', mgmtdev='vdpasim_net', mac='02:00:00:00:00:08'))
    assert r['failed'] is True
    assert r['msg'] == ('device vdpa7 exists with other attributes: mac: wanted 02:00:00:00:00:08, device has 02:00:00:00:00:07 '
                        '(the kernel cannot change it in place: dev set needs VDPA_CMD_DEV_ATTR_SET, which this kernel lacks '
                        '(Linux 6.12+); force: true recreates it)')
    assert cli.devices['vdpa7'] == SIM


def test_force_recreates_with_the_new_attributes_where_the_kernel_lacks_dev_set(cli):
    cli.devices['vdpa7'] = dict(SIM)
    cli.dev_set = False
    r = run(dict(name='vdpa7', mgmtdev='vdpasim_net', mac='02:00:00:00:00:08', force=True))
    assert r['changed'] is True and r['method'] == 'recreate'
    assert ['dev', 'del', 'vdpa7'] in cli.calls
    assert cli.devices['vdpa7']['mac'] == '02:00:00:00:00:08'
    assert r['differences'] == ['mac: wanted 02:00:00:00:00:08, device has 02:00:00:00:00:07']
    assert r['diff']['before']['mac'] == '02:00:00:00:00:07' and r['diff']['after']['mac'] == '02:00:00:00:00:08'
    assert r['diff']['after']['recreated'].startswith('deleted and created again: dev set needs VDPA_CMD_DEV_ATTR_SET')


def test_force_recreates_for_attributes_dev_set_cannot_change(cli):
    cli.devices['vdpa7'] = dict(SIM)
    r = run(dict(name='vdpa7', mgmtdev='vdpasim_net', mac='02:00:00:00:00:08', mtu=9000, force=True))
    assert r['method'] == 'recreate' and not any(c[:2] == ['dev', 'set'] for c in cli.calls)
    assert r['diff']['after']['recreated'] == 'deleted and created again: attributes that dev set cannot change'
    # the after-diff has every attribute the before-diff has (max_vqp was dropped on a recreation)
    assert r['diff']['before']['max_vqp'] == 1 and r['diff']['after']['max_vqp'] == 1
    assert set(r['diff']['before']) <= set(r['diff']['after'])


def test_a_recreation_reports_the_queue_pairs_the_new_device_has(cli):
    cli.devices['vdpa7'] = dict(SIM, max_vqp=4)
    r = run(dict(name='vdpa7', mgmtdev='vdpasim_net', mtu=9000, force=True))
    assert r['method'] == 'recreate'
    # not asked for, so the new device has the default: the diff says 4 -> 1 instead of leaving max_vqp out
    assert r['diff']['before']['max_vqp'] == 4 and r['diff']['after']['max_vqp'] == 1
    assert r['device']['max_vqp'] == 1 and r['device']['mtu'] == 9000


def test_force_puts_the_old_device_back_when_creating_fails(cli):
    cli.devices['vdpa7'] = dict(SIM)
    cli.dev_set = False
    cli.fail_next_add = (7, 'vdpactl: VDPA_CMD_DEV_NEW vdpa7: ENOMEM (Cannot allocate memory)\n')
    r = run(dict(name='vdpa7', mgmtdev='vdpasim_net', mac='02:00:00:00:00:08', force=True))
    assert r['failed'] is True
    assert r['restored'] is True
    assert r['exit_name'] == 'KERNEL_ERROR'
    assert cli.devices['vdpa7']['mac'] == '02:00:00:00:00:07'


def test_unknown_mgmtdev_fails_with_the_cli_message_and_exit_code(cli):
    r = run(dict(name='vdpa7', mgmtdev='nope'))
    assert r['failed'] is True
    assert r['rc'] == 3 and r['exit_name'] == 'NOT_FOUND'
    assert r['msg'] == ('vdpactl dev add failed (exit 3 NOT_FOUND): VDPA_CMD_MGMTDEV_GET nope: ENODEV (No such device): '
                        'vdpa: Fail to find the specified mgmt device')
    assert 'vdpa7' not in cli.devices


def test_a_bad_mac_fails_before_anything_runs(cli):
    r = run(dict(name='vdpa7', mgmtdev='vdpasim_net', mac='zz'))
    assert r['failed'] is True
    assert r['msg'] == 'mac: not a MAC address: "zz" (expected six hex octets like 02:00:00:00:00:01)'
    assert cli.calls == []


def test_absent_deletes_and_a_second_run_is_ok(cli):
    cli.devices['vdpa7'] = dict(SIM)
    r = run(dict(name='vdpa7', state='absent'))
    assert r['changed'] is True and 'vdpa7' not in cli.devices
    r = run(dict(name='vdpa7', state='absent'))
    assert r['changed'] is False


def test_max_vqp_absent_from_the_config_means_one_pair(cli):
    cli.devices['vdpa7'] = dict(SIM)
    assert run(dict(name='vdpa7', mgmtdev='vdpasim_net', max_vqp=1))['changed'] is False
    r = run(dict(name='vdpa7', mgmtdev='vdpasim_net', max_vqp=2))
    assert r['msg'].startswith('device vdpa7 exists with other attributes: max_vqp: wanted 2, device has 1')


def test_a_missing_vdpactl_is_one_clear_message(cli, monkeypatch):
    r = run(dict(name='vdpa7', mgmtdev='vdpasim_net', executable='/nonexistent/vdpactl'))
    assert r['failed'] is True
    assert r['msg'] == ('vdpactl not found on this host (executable /nonexistent/vdpactl): install it with the '
                        'vdpactl.vdpa.install role or set the executable option')
    assert cli.calls == []
