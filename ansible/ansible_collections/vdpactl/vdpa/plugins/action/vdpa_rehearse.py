# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE of the vdpactl repository)
"""Runs the vdpa_rehearse module, naming the host after its inventory name, then fetches its outputs."""

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

import os

from ansible.plugins.action import ActionBase


class ActionModule(ActionBase):

    def run(self, tmp=None, task_vars=None):
        task_vars = task_vars or {}
        result = super(ActionModule, self).run(tmp, task_vars)
        args = dict(self._task.args)
        if not args.get('host_label'):
            args['host_label'] = task_vars.get('inventory_hostname')
        fetch_dir = args.get('fetch_dir')
        result.update(self._execute_module(module_name='vdpactl.vdpa.vdpa_rehearse', module_args=args,
                                           task_vars=task_vars))
        if fetch_dir and not self._play_context.check_mode:
            fetched = self._fetch_outputs(result, fetch_dir, args['host_label'])
            result['fetched'] = fetched
        return result

    def _fetch_outputs(self, result, fetch_dir, host):
        """Copies the saved document and the HTML report to the controller, also after a PARTIAL rehearsal."""
        fetch_dir = os.path.expanduser(fetch_dir)
        if not os.path.isdir(fetch_dir):
            os.makedirs(fetch_dir)
        fetched = []
        for key, suffix in (('json_path', '.json'), ('report_path', '.html')):
            remote = result.get(key)
            if not remote:
                continue
            local = os.path.join(fetch_dir, host + suffix)
            self._connection.fetch_file(remote, local)
            fetched.append(local)
        return fetched
