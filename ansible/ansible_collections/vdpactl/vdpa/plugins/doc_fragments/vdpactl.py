# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE of the vdpactl repository)

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type


class ModuleDocFragment(object):
    # Options every module of the collection passes to the vdpactl CLI.
    DOCUMENTATION = r'''
options:
  executable:
    description:
      - The vdpactl launcher on the managed host.
      - A bare name is looked up in C(PATH) and C(/usr/local/bin); a path is used as it is.
      - The M(vdpactl.vdpa.vdpa_dev) family fails with one message when it is missing (install it with the
        C(vdpactl.vdpa.install) role).
    type: path
    default: vdpactl
  backend:
    description:
      - The kernel vdpactl talks to (its C(--backend) option). C(auto) uses the running kernel when it has vDPA,
        else the fake kernel. When not set, vdpactl's own default applies (C(VDPACTL_BACKEND) or C(auto)).
    type: str
    choices: [auto, kernel, fake]
  fake_state:
    description:
      - State file of the fake backend (its C(--fake-state) option); each host of a test fleet keeps its own.
    type: path
  fake_faults:
    description:
      - Fault-injection rules for the fake backend (its C(--fake-faults) option, JSON).
    type: path
notes:
  - The modules run the vdpactl CLI with C(--json) and parse its output; they hold no netlink or ioctl code.
  - A failed vdpactl call fails the task with the CLI's own message, its exit code in C(rc) and the code's
    name in C(exit_name) (C(USAGE), C(NOT_FOUND), C(PERMISSION), C(NOT_SUPPORTED), C(PARTIAL), C(KERNEL_ERROR),
    C(NOT_READY), C(RESOURCE_LIMIT), C(INTERRUPTED)), as listed in vdpactl's README.
  - vdpactl needs a JDK 22 or newer on the host; its launcher finds one by itself.
requirements:
  - vdpactl on the managed host (role C(vdpactl.vdpa.install)), a JDK 22 or newer.
  - python jsonschema >= 4.0 on the managed host (draft 2020-12; Debian 12's python3-jsonschema is 4.10).
'''
