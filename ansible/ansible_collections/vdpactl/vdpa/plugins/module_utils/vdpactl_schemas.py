# -*- coding: utf-8 -*-
# Copyright: vdpactl project
# Apache License 2.0 (see LICENSE)
# GENERATED from src/report/src/main/resources/org/vdpactl/schemas/*.schema.json by AnsibleSchemaCopyTest; do not edit.
"""The JSON Schemas of vdpactl's documents (docs/json-schemas.md), as the jar ships them."""

from __future__ import (absolute_import, division, print_function)
__metaclass__ = type

# schema file name -> its text
SCHEMAS = {
    'bench.schema.json': r'''{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:vdpactl:schema:bench:1",
  "title": "vdpactl bench orchestration --json",
  "description": "The orchestration benchmark: one row per device count (real clock, simulated latencies).",
  "type": "object",
  "properties": {
    "schema": {
      "const": "vdpactl.bench",
      "description": "which document this is"
    },
    "schema_version": {
      "const": 1,
      "description": "the version of its key set (docs/json-schemas.md)"
    },
    "simulated": {
      "type": "boolean",
      "description": "always true: the bench runs on the fake kernel's models"
    },
    "backend": {
      "type": "object",
      "properties": {
        "kind": {
          "type": "string"
        },
        "kernel_profile": {
          "type": "string"
        },
        "presets": {
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      },
      "required": [
        "kind",
        "presets"
      ],
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      }
    },
    "preset": {
      "type": "string",
      "description": "the mlx5 latency preset (--preset)"
    },
    "command": {
      "type": "string",
      "description": "the command line, as a shell would take it"
    },
    "rows": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "devices": {
            "type": "integer"
          },
          "vqs": {
            "type": "integer"
          },
          "critical_path_ms": {
            "type": [
              "number",
              "null"
            ]
          },
          "parallel_ms": {
            "type": [
              "number",
              "null"
            ]
          },
          "serial_ms": {
            "type": [
              "number",
              "null"
            ]
          },
          "pipelined_critical_path_ms": {
            "type": [
              "number",
              "null"
            ]
          },
          "parallel": {
            "type": "object",
            "properties": {
              "min_ms": {
                "type": "number"
              },
              "median_ms": {
                "type": "number"
              },
              "max_ms": {
                "type": "number"
              },
              "runs": {
                "type": "integer"
              }
            },
            "required": [
              "min_ms",
              "median_ms",
              "max_ms",
              "runs"
            ],
            "propertyNames": {
              "pattern": "^[a-z][a-z0-9_]*$"
            }
          },
          "pipelined": {
            "type": [
              "object",
              "null"
            ],
            "properties": {
              "min_ms": {
                "type": "number"
              },
              "median_ms": {
                "type": "number"
              },
              "max_ms": {
                "type": "number"
              },
              "runs": {
                "type": "integer"
              }
            },
            "required": [
              "min_ms",
              "median_ms",
              "max_ms",
              "runs"
            ],
            "propertyNames": {
              "pattern": "^[a-z][a-z0-9_]*$"
            }
          },
          "serial": {
            "type": "object",
            "properties": {
              "min_ms": {
                "type": "number"
              },
              "median_ms": {
                "type": "number"
              },
              "max_ms": {
                "type": "number"
              },
              "runs": {
                "type": "integer"
              }
            },
            "required": [
              "min_ms",
              "median_ms",
              "max_ms",
              "runs"
            ],
            "propertyNames": {
              "pattern": "^[a-z][a-z0-9_]*$"
            }
          },
          "window": {
            "type": "string"
          },
          "window_calls": {
            "type": "integer"
          },
          "cpu_per_call_us": {
            "type": [
              "number",
              "null"
            ]
          },
          "predicted_floor_ms": {
            "type": [
              "number",
              "null"
            ]
          },
          "load_before": {
            "type": [
              "number",
              "null"
            ]
          },
          "load_after": {
            "type": [
              "number",
              "null"
            ]
          },
          "replay": {
            "type": [
              "object",
              "null"
            ],
            "properties": {
              "min_ms": {
                "type": "number"
              },
              "median_ms": {
                "type": "number"
              },
              "max_ms": {
                "type": "number"
              },
              "runs": {
                "type": "integer"
              }
            },
            "required": [
              "min_ms",
              "median_ms",
              "max_ms",
              "runs"
            ],
            "propertyNames": {
              "pattern": "^[a-z][a-z0-9_]*$"
            }
          }
        },
        "required": [
          "devices",
          "vqs",
          "critical_path_ms",
          "parallel_ms",
          "serial_ms",
          "pipelined_critical_path_ms",
          "parallel",
          "pipelined",
          "serial",
          "window",
          "window_calls",
          "cpu_per_call_us",
          "predicted_floor_ms",
          "load_before",
          "load_after",
          "replay"
        ],
        "propertyNames": {
          "pattern": "^[a-z][a-z0-9_]*$"
        },
        "description": "one device count; a figure that could not be measured is null"
      }
    }
  },
  "required": [
    "schema",
    "schema_version",
    "rows",
    "simulated",
    "backend",
    "preset",
    "command"
  ],
  "propertyNames": {
    "pattern": "^[a-z][a-z0-9_]*$"
  }
}
''',
    'compare.schema.json': r'''{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:vdpactl:schema:compare:1",
  "title": "vdpactl rehearse --compare --json",
  "description": "The upstream mlx5_vdpa scenarios and this rehearsal on two fake latency presets, before and after (simulated figures).",
  "type": "object",
  "properties": {
    "schema": {
      "const": "vdpactl.compare",
      "description": "which document this is"
    },
    "schema_version": {
      "const": 1,
      "description": "the version of its key set (docs/json-schemas.md)"
    },
    "before": {
      "type": "string"
    },
    "after": {
      "type": "string"
    },
    "upstream": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "scenario": {
            "type": "string"
          },
          "before_preset": {
            "type": "string"
          },
          "after_preset": {
            "type": "string"
          },
          "before": {
            "type": "object",
            "properties": {
              "driver_ms": {
                "type": [
                  "number",
                  "null"
                ],
                "description": "null on a held-out row (one prior was derived from that figure): see interval"
              },
              "residual_ms": {
                "type": "number"
              },
              "commands": {
                "type": "string"
              }
            },
            "required": [
              "driver_ms",
              "residual_ms",
              "commands"
            ],
            "propertyNames": {
              "pattern": "^[a-z][a-z0-9_]*$"
            }
          },
          "after": {
            "type": "object",
            "properties": {
              "driver_ms": {
                "type": [
                  "number",
                  "null"
                ],
                "description": "null on a held-out row (one prior was derived from that figure): see interval"
              },
              "residual_ms": {
                "type": "number"
              },
              "commands": {
                "type": "string"
              }
            },
            "required": [
              "driver_ms",
              "residual_ms",
              "commands"
            ],
            "propertyNames": {
              "pattern": "^[a-z][a-z0-9_]*$"
            }
          },
          "published": {
            "type": "object",
            "properties": {
              "before": {
                "type": "number"
              },
              "after": {
                "type": "number"
              },
              "source": {
                "type": "string"
              },
              "use": {
                "type": "string"
              }
            },
            "required": [
              "before",
              "after",
              "source",
              "use"
            ],
            "propertyNames": {
              "pattern": "^[a-z][a-z0-9_]*$"
            }
          },
          "note": {
            "type": [
              "string",
              "null"
            ]
          },
          "interval": {
            "type": [
              "object",
              "null"
            ],
            "description": "a held-out row: totals over the priors' admitted range, and the fits kept and rejected; else null",
            "properties": {
              "before_ms": {
                "$ref": "#/$defs/range"
              },
              "after_ms": {
                "$ref": "#/$defs/range"
              },
              "change_ms": {
                "$ref": "#/$defs/range"
              },
              "fits": {
                "type": "integer"
              },
              "rejected": {
                "type": "integer"
              }
            },
            "required": [
              "before_ms",
              "after_ms",
              "change_ms",
              "fits",
              "rejected"
            ],
            "propertyNames": {
              "pattern": "^[a-z][a-z0-9_]*$"
            }
          }
        },
        "required": [
          "scenario",
          "before_preset",
          "after_preset",
          "before",
          "after",
          "published",
          "note"
        ],
        "propertyNames": {
          "pattern": "^[a-z][a-z0-9_]*$"
        }
      }
    },
    "plan": {
      "type": "object",
      "properties": {
        "sources": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string"
              },
              "path": {
                "type": "string"
              }
            },
            "required": [
              "name",
              "path"
            ],
            "propertyNames": {
              "pattern": "^[a-z][a-z0-9_]*$"
            }
          }
        },
        "destinations": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string"
              },
              "path": {
                "type": "string"
              }
            },
            "required": [
              "name",
              "path"
            ],
            "propertyNames": {
              "pattern": "^[a-z][a-z0-9_]*$"
            }
          }
        },
        "strategy": {
          "type": "string"
        },
        "premap": {
          "type": "boolean"
        },
        "memory": {
          "type": "object",
          "properties": {
            "regions": {
              "type": "array",
              "items": {
                "type": "object",
                "properties": {
                  "iova": {
                    "type": "integer"
                  },
                  "size": {
                    "type": "integer"
                  },
                  "page_size": {
                    "type": "integer"
                  }
                },
                "required": [
                  "iova",
                  "size",
                  "page_size"
                ],
                "propertyNames": {
                  "pattern": "^[a-z][a-z0-9_]*$"
                }
              }
            }
          },
          "required": [
            "regions"
          ],
          "propertyNames": {
            "pattern": "^[a-z][a-z0-9_]*$"
          }
        },
        "iterations": {
          "type": "integer"
        },
        "phases": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "queue_pairs": {
          "type": "integer"
        },
        "cvq_timeout": {
          "type": "string"
        },
        "window": {
          "type": "string"
        }
      },
      "required": [
        "sources",
        "destinations",
        "strategy",
        "premap",
        "memory",
        "iterations",
        "phases",
        "queue_pairs",
        "cvq_timeout",
        "window"
      ],
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      }
    },
    "phases": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "phase": {
            "type": [
              "string",
              "null"
            ]
          },
          "before_ms": {
            "type": "number"
          },
          "after_ms": {
            "type": "number"
          },
          "preparation": {
            "type": "boolean"
          }
        },
        "required": [
          "phase",
          "before_ms",
          "after_ms",
          "preparation"
        ],
        "propertyNames": {
          "pattern": "^[a-z][a-z0-9_]*$"
        }
      }
    }
  },
  "required": [
    "schema",
    "schema_version",
    "before",
    "after",
    "upstream",
    "plan",
    "phases"
  ],
  "propertyNames": {
    "pattern": "^[a-z][a-z0-9_]*$"
  },
  "$defs": {
    "range": {
      "description": "a held-out row's bounds over the undetermined priors, in ms",
      "type": "object",
      "properties": {
        "low": {
          "type": "number"
        },
        "high": {
          "type": "number"
        }
      },
      "required": [
        "low",
        "high"
      ],
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      }
    }
  }
}
''',
    'doctor.schema.json': r'''{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:vdpactl:schema:doctor:1",
  "title": "vdpactl doctor --json",
  "description": "Whether this host can drive vhost-vdpa devices: one entry per check.",
  "type": "object",
  "properties": {
    "schema": {
      "const": "vdpactl.doctor",
      "description": "which document this is"
    },
    "schema_version": {
      "const": 1,
      "description": "the version of its key set (docs/json-schemas.md)"
    },
    "ready": {
      "type": "boolean"
    },
    "verdict": {
      "type": "string",
      "description": "one line saying what ready means here (the exit code judges this host's kernel)"
    },
    "simulated": {
      "type": "boolean"
    },
    "backend": {
      "type": "object",
      "properties": {
        "kind": {
          "type": "string",
          "enum": [
            "fake",
            "kernel"
          ]
        },
        "kernel_profile": {
          "type": "string",
          "description": "the Linux version the fake speaks (fake only)"
        },
        "presets": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "kernel_release": {
          "type": "string",
          "description": "the running kernel's release (kernel only)"
        }
      },
      "required": [
        "kind",
        "presets"
      ],
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      },
      "description": "the backend as fields, not a sentence"
    },
    "kernel_vdpa": {
      "type": "boolean"
    },
    "checks": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "id": {
            "type": "string"
          },
          "status": {
            "type": "string",
            "enum": [
              "OK",
              "WARN",
              "FAIL",
              "INFO"
            ]
          },
          "title": {
            "type": "string"
          },
          "detail": {
            "type": "string"
          },
          "hint": {
            "type": [
              "string",
              "null"
            ]
          }
        },
        "required": [
          "id",
          "status",
          "title",
          "detail",
          "hint"
        ],
        "propertyNames": {
          "pattern": "^[a-z][a-z0-9_]*$"
        }
      }
    }
  },
  "required": [
    "schema",
    "schema_version",
    "ready",
    "simulated",
    "backend",
    "kernel_vdpa",
    "checks"
  ],
  "propertyNames": {
    "pattern": "^[a-z][a-z0-9_]*$"
  }
}
''',
    'error.schema.json': r'''{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:vdpactl:schema:error:1",
  "title": "error document of any vdpactl command with --json",
  "description": "What a command prints on stdout with --json when it fails before printing data (exit codes: README \"Exit codes\").",
  "type": "object",
  "properties": {
    "schema": {
      "const": "vdpactl.error",
      "description": "which document this is"
    },
    "schema_version": {
      "const": 1,
      "description": "the version of its key set (docs/json-schemas.md)"
    },
    "error": {
      "type": "object",
      "properties": {
        "exit": {
          "type": "integer"
        },
        "name": {
          "type": "string"
        },
        "message": {
          "type": "string"
        },
        "errno": {
          "type": "integer",
          "minimum": 1,
          "description": "the errno of the kernel's answer behind the failure (absent when none is)"
        },
        "errno_name": {
          "type": "string",
          "pattern": "^E[A-Z0-9]+$",
          "description": "its symbol (EBUSY)"
        }
      },
      "required": [
        "exit",
        "name",
        "message"
      ],
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      },
      "dependentRequired": {
        "errno": [
          "errno_name"
        ],
        "errno_name": [
          "errno"
        ]
      }
    }
  },
  "required": [
    "schema",
    "schema_version",
    "error"
  ],
  "propertyNames": {
    "pattern": "^[a-z][a-z0-9_]*$"
  }
}
''',
    'fleet.schema.json': r'''{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:vdpactl:schema:fleet:1",
  "title": "vdpactl report merge --json",
  "description": "Per-host rehearsal documents merged: one row per host, slowest first, and each phase's spread across the hosts.",
  "type": "object",
  "properties": {
    "schema": {
      "const": "vdpactl.fleet",
      "description": "which document this is"
    },
    "schema_version": {
      "const": 1,
      "description": "the version of its key set (docs/json-schemas.md)"
    },
    "figures": {
      "type": "string",
      "enum": [
        "simulated",
        "measured",
        "mixed"
      ]
    },
    "hosts": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "host": {
            "type": "string"
          },
          "file": {
            "type": "string"
          },
          "outcome": {
            "type": "string",
            "enum": [
              "completed",
              "partial",
              "interrupted"
            ]
          },
          "simulated": {
            "type": "boolean"
          },
          "setup": {
            "type": "object",
            "description": "what the host's figures depend on besides its hardware; \"-\" where the document does not give it",
            "properties": {
              "strategy": {
                "type": "string",
                "description": "serial, parallel, pipelined or svq"
              },
              "window": {
                "type": "string",
                "description": "migration or in-place"
              },
              "kernel": {
                "type": "string",
                "description": "the kernel the figures are of: the fake's kernel profile or the running kernel's release"
              },
              "backend": {
                "type": "string",
                "enum": [
                  "fake",
                  "kernel",
                  "-"
                ]
              },
              "preset": {
                "type": "string",
                "description": "the fake's latency presets, comma-separated"
              },
              "clock": {
                "type": "string",
                "description": "real or virtual"
              },
              "premap": {
                "type": [
                  "boolean",
                  "null"
                ],
                "description": "the destination's memory mapped before the window (--premap); null where the document does not say"
              },
              "memory_bytes": {
                "type": [
                  "integer",
                  "null"
                ],
                "description": "the guest memory rehearsed"
              },
              "devices": {
                "type": [
                  "integer",
                  "null"
                ],
                "description": "the source devices rehearsed"
              },
              "queue_pairs": {
                "type": [
                  "integer",
                  "null"
                ],
                "description": "the queue pairs per device"
              }
            },
            "required": [
              "strategy",
              "window",
              "kernel",
              "backend",
              "preset",
              "clock"
            ],
            "propertyNames": {
              "pattern": "^[a-z][a-z0-9_]*$"
            }
          },
          "iterations": {
            "type": "integer"
          },
          "devices": {
            "type": "integer"
          },
          "downtime_ms": {
            "type": [
              "number",
              "null"
            ]
          },
          "phases_ms": {
            "type": "object",
            "additionalProperties": {
              "type": "number"
            }
          },
          "preparation": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "description": "the phase ids that were the destination's preparation, not downtime"
          },
          "failure": {
            "type": [
              "string",
              "null"
            ]
          },
          "slowest_phase": {
            "type": [
              "string",
              "null"
            ],
            "description": "the downtime phase (its id) the host spent longest in"
          },
          "differs": {
            "type": "array",
            "items": {
              "type": "string",
              "pattern": "^[a-z][a-z0-9_]*$",
              "description": "a setup attribute, an open list (docs/json-schemas.md): new attributes may come within a version",
              "examples": [
                "strategy",
                "window",
                "premap",
                "memory",
                "devices",
                "queue_pairs",
                "kernel",
                "backend",
                "preset",
                "clock"
              ]
            },
            "description": "the setup attributes in which this host differs from most of the merged hosts"
          }
        },
        "required": [
          "host",
          "file",
          "outcome",
          "simulated",
          "setup",
          "iterations",
          "devices",
          "downtime_ms",
          "phases_ms",
          "preparation",
          "failure",
          "slowest_phase",
          "differs"
        ],
        "propertyNames": {
          "pattern": "^[a-z][a-z0-9_]*$"
        }
      }
    },
    "downtime": {
      "type": "object",
      "properties": {
        "name": {
          "type": "string"
        },
        "hosts": {
          "type": "integer"
        },
        "min_ms": {
          "type": "number"
        },
        "p50_ms": {
          "type": "number"
        },
        "p90_ms": {
          "type": "number"
        },
        "max_ms": {
          "type": "number"
        },
        "mean_ms": {
          "type": "number"
        },
        "slowest_host": {
          "type": [
            "string",
            "null"
          ],
          "description": "the host of max_ms; null when every host has the same figure"
        },
        "preparation": {
          "type": "boolean",
          "description": "true: these hosts' preparation (a migration window's reset), not downtime"
        }
      },
      "required": [
        "name",
        "hosts",
        "min_ms",
        "p50_ms",
        "p90_ms",
        "max_ms",
        "mean_ms",
        "slowest_host"
      ],
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      }
    },
    "phases": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "name": {
            "type": "string"
          },
          "hosts": {
            "type": "integer"
          },
          "min_ms": {
            "type": "number"
          },
          "p50_ms": {
            "type": "number"
          },
          "p90_ms": {
            "type": "number"
          },
          "max_ms": {
            "type": "number"
          },
          "mean_ms": {
            "type": "number"
          },
          "slowest_host": {
            "type": [
              "string",
              "null"
            ],
            "description": "the host of max_ms; null when every host has the same figure"
          },
          "preparation": {
            "type": "boolean",
            "description": "true: these hosts' preparation (a migration window's reset), not downtime"
          }
        },
        "required": [
          "name",
          "hosts",
          "min_ms",
          "p50_ms",
          "p90_ms",
          "max_ms",
          "mean_ms",
          "slowest_host"
        ],
        "propertyNames": {
          "pattern": "^[a-z][a-z0-9_]*$"
        }
      }
    },
    "partial": {
      "type": "array",
      "items": {
        "type": "string"
      }
    },
    "differences": {
      "type": "array",
      "description": "the setup attributes the hosts do not agree on: their figures are not like for like",
      "items": {
        "type": "object",
        "properties": {
          "attribute": {
            "type": "string",
            "pattern": "^[a-z][a-z0-9_]*$",
            "description": "a setup attribute, an open list (docs/json-schemas.md): new attributes may come within a version",
            "examples": [
              "strategy",
              "window",
              "premap",
              "memory",
              "devices",
              "queue_pairs",
              "kernel",
              "backend",
              "preset",
              "clock"
            ]
          },
          "usual": {
            "type": "string",
            "description": "the value most hosts have"
          },
          "hosts": {
            "type": "object",
            "description": "each host with another value (host name -> its value)",
            "additionalProperties": {
              "type": "string"
            }
          }
        },
        "required": [
          "attribute",
          "usual",
          "hosts"
        ]
      }
    },
    "compatibility": {
      "type": "object",
      "description": "the migration compatibility matrix (report merge --check): host x host, worst verdict per cell",
      "properties": {
        "hosts": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "cells": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "source": {
                "type": "string"
              },
              "destination": {
                "type": "string"
              },
              "verdict": {
                "type": "string",
                "enum": [
                  "compatible",
                  "warnings",
                  "blocked"
                ]
              }
            },
            "required": [
              "source",
              "destination",
              "verdict"
            ]
          }
        },
        "reasons": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "source": {
                "type": "string"
              },
              "destination": {
                "type": "string"
              },
              "devices": {
                "type": "string"
              },
              "kind": {
                "type": "string"
              },
              "id": {
                "type": "string"
              },
              "message": {
                "type": "string"
              },
              "action": {
                "type": "string"
              }
            },
            "required": [
              "source",
              "destination",
              "devices",
              "kind",
              "id",
              "message",
              "action"
            ]
          }
        }
      },
      "required": [
        "hosts",
        "cells",
        "reasons"
      ]
    }
  },
  "required": [
    "schema",
    "schema_version",
    "figures",
    "hosts",
    "downtime",
    "phases",
    "partial",
    "differences"
  ],
  "propertyNames": {
    "pattern": "^[a-z][a-z0-9_]*$"
  }
}
''',
    'iproute-config.schema.json': r'''{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:vdpactl:schema:iproute-config:1",
  "title": "vdpactl dev config --json",
  "description": "iproute2's `vdpa -j dev config show` shape (docs/json-compat.md).",
  "type": "object",
  "properties": {
    "config": {
      "type": "object",
      "additionalProperties": {
        "type": "object",
        "properties": {
          "mac": {
            "type": "string"
          },
          "mtu": {
            "type": "integer"
          },
          "link": {
            "type": "string"
          },
          "link_announce": {
            "type": "boolean"
          }
        },
        "description": "the config space as iproute2 prints it: only the fields the device has (no mac on a block device)"
      }
    }
  },
  "required": [
    "config"
  ]
}
''',
    'iproute-dev.schema.json': r'''{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:vdpactl:schema:iproute-dev:1",
  "title": "vdpactl dev list|show --json",
  "description": "iproute2's `vdpa -j dev show` shape (docs/json-compat.md).",
  "type": "object",
  "properties": {
    "dev": {
      "type": "object",
      "additionalProperties": {
        "type": "object",
        "properties": {
          "type": {
            "type": "string"
          },
          "mgmtdev": {
            "type": "string"
          },
          "vendor_id": {
            "type": "integer"
          },
          "max_vqs": {
            "type": "integer"
          },
          "max_vq_size": {
            "type": "integer"
          }
        },
        "required": [
          "type",
          "mgmtdev",
          "vendor_id",
          "max_vqs",
          "max_vq_size"
        ]
      }
    }
  },
  "required": [
    "dev"
  ]
}
''',
    'iproute-mgmtdev.schema.json': r'''{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:vdpactl:schema:iproute-mgmtdev:1",
  "title": "vdpactl mgmtdev list --json",
  "description": "iproute2's `vdpa -j mgmtdev show` shape (docs/json-compat.md): iproute2's keys, no schema keys.",
  "type": "object",
  "properties": {
    "mgmtdev": {
      "type": "object",
      "additionalProperties": {
        "type": "object",
        "properties": {
          "supported_classes": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "max_supported_vqs": {
            "type": "integer"
          },
          "dev_features": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        },
        "required": [
          "supported_classes",
          "max_supported_vqs",
          "dev_features"
        ]
      }
    }
  },
  "required": [
    "mgmtdev"
  ]
}
''',
    'iproute-vstats.schema.json': r'''{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:vdpactl:schema:iproute-vstats:1",
  "title": "vdpactl dev vstats --json",
  "description": "iproute2's `vdpa -j dev vstats show` shape (docs/json-compat.md): the kernel's counter names, with spaces.",
  "type": "object",
  "properties": {
    "vstats": {
      "type": "object",
      "minProperties": 1,
      "maxProperties": 1,
      "additionalProperties": {
        "type": "object",
        "properties": {
          "queue_type": {
            "enum": ["rx", "tx", "control_vq"]
          }
        },
        "additionalProperties": {
          "type": "integer",
          "minimum": 0
        }
      }
    }
  },
  "required": [
    "vstats"
  ]
}
''',
    'migrate-check.schema.json': r'''{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:vdpactl:schema:migrate-check:1",
  "title": "vdpactl migrate check --json",
  "description": "Per device pair: blockers, the migration path QEMU takes, warnings (docs/migrate.md).",
  "type": "object",
  "properties": {
    "schema": {
      "const": "vdpactl.migrate-check",
      "description": "which document this is"
    },
    "schema_version": {
      "const": 1,
      "description": "the version of its key set (docs/json-schemas.md)"
    },
    "verdict": {
      "type": "string",
      "enum": [
        "compatible",
        "warnings",
        "blocked"
      ],
      "description": "the worst verdict of the pairs"
    },
    "exit": {
      "type": "integer",
      "enum": [
        0,
        10
      ]
    },
    "source": {
      "type": "object",
      "properties": {
        "host": {
          "type": "string"
        },
        "from": {
          "type": "string",
          "enum": [
            "live",
            "file"
          ]
        },
        "qemu": {
          "type": [
            "string",
            "null"
          ]
        },
        "kernel_profile": {
          "type": [
            "string",
            "null"
          ]
        },
        "backend": {
          "type": [
            "string",
            "null"
          ]
        }
      },
      "required": [
        "host",
        "from"
      ]
    },
    "destination": {
      "type": "object",
      "properties": {
        "host": {
          "type": "string"
        },
        "from": {
          "type": "string",
          "enum": [
            "live",
            "file"
          ]
        },
        "qemu": {
          "type": [
            "string",
            "null"
          ]
        },
        "kernel_profile": {
          "type": [
            "string",
            "null"
          ]
        },
        "backend": {
          "type": [
            "string",
            "null"
          ]
        }
      },
      "required": [
        "host",
        "from"
      ]
    },
    "x_svq": {
      "type": "boolean"
    },
    "memory_bytes": {
      "type": "integer"
    },
    "pairs": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "source": {
            "type": "string"
          },
          "destination": {
            "type": "string"
          },
          "verdict": {
            "type": "string",
            "enum": [
              "compatible",
              "warnings",
              "blocked"
            ]
          },
          "blockers": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "id": {
                  "type": "string",
                  "description": "stable key: docs/migrate.md lists them"
                },
                "message": {
                  "type": "string"
                },
                "action": {
                  "type": "string",
                  "description": "what to do"
                },
                "source": {
                  "type": "string",
                  "description": "the QEMU or kernel function the rule comes from"
                },
                "cost_ms": {
                  "type": [
                    "number",
                    "null"
                  ],
                  "description": "downtime from a rehearsal; null without one"
                },
                "cost_from": {
                  "type": [
                    "string",
                    "null"
                  ]
                }
              },
              "required": [
                "id",
                "message",
                "action",
                "source"
              ]
            }
          },
          "path": {
            "type": [
              "object",
              "null"
            ],
            "properties": {
              "qemu_source": {
                "type": "string"
              },
              "qemu_destination": {
                "type": "string"
              },
              "svq": {
                "type": "string",
                "enum": [
                  "x-svq",
                  "at-migration-start",
                  "required"
                ]
              },
              "stop": {
                "type": "string",
                "enum": [
                  "suspend",
                  "reset",
                  "unknown"
                ]
              },
              "cvq": {
                "type": "string",
                "enum": [
                  "isolated",
                  "shadowed",
                  "passthrough",
                  "none"
                ]
              },
              "resume_for_rollback": {
                "type": "boolean"
              },
              "explanation": {
                "type": "array",
                "items": {
                  "type": "string"
                }
              },
              "rehearsal": {
                "type": "array",
                "items": {
                  "type": "object",
                  "properties": {
                    "rehearses": {
                      "type": "string"
                    },
                    "command": {
                      "type": "string"
                    },
                    "downtime_ms": {
                      "type": [
                        "number",
                        "null"
                      ],
                      "description": "the downtime --rehearse rehearsed, or null"
                    },
                    "simulated": {
                      "type": [
                        "boolean",
                        "null"
                      ],
                      "description": "true when the figure comes from the fake's models"
                    },
                    "note": {
                      "type": [
                        "string",
                        "null"
                      ],
                      "description": "why it was not rehearsed; with a simulated figure: the fake model it ran on"
                    }
                  },
                  "required": [
                    "rehearses",
                    "command"
                  ]
                }
              }
            },
            "required": [
              "qemu_source",
              "qemu_destination",
              "svq",
              "stop",
              "cvq",
              "resume_for_rollback",
              "explanation",
              "rehearsal"
            ]
          },
          "warnings": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "id": {
                  "type": "string",
                  "description": "stable key: docs/migrate.md lists them"
                },
                "message": {
                  "type": "string"
                },
                "action": {
                  "type": "string",
                  "description": "what to do"
                },
                "source": {
                  "type": "string",
                  "description": "the QEMU or kernel function the rule comes from"
                },
                "cost_ms": {
                  "type": [
                    "number",
                    "null"
                  ],
                  "description": "downtime from a rehearsal; null without one"
                },
                "cost_from": {
                  "type": [
                    "string",
                    "null"
                  ]
                }
              },
              "required": [
                "id",
                "message",
                "action",
                "source"
              ]
            }
          }
        },
        "required": [
          "source",
          "destination",
          "verdict",
          "blockers",
          "path",
          "warnings"
        ]
      }
    }
  },
  "required": [
    "schema",
    "schema_version",
    "verdict",
    "exit",
    "source",
    "destination",
    "x_svq",
    "memory_bytes",
    "pairs"
  ]
}
''',
    'migrate-facts.schema.json': r'''{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:vdpactl:schema:migrate-facts:1",
  "title": "vdpactl migrate facts --json",
  "description": "One host's vDPA devices and limits, as migrate check reads them (docs/migrate.md).",
  "type": "object",
  "properties": {
    "schema": {
      "const": "vdpactl.migrate-facts",
      "description": "which document this is"
    },
    "schema_version": {
      "const": 1,
      "description": "the version of its key set (docs/json-schemas.md)"
    },
    "host": {
      "type": "string"
    },
    "backend": {
      "type": "object",
      "properties": {
        "kind": {
          "type": "string",
          "enum": [
            "fake",
            "kernel"
          ]
        },
        "kernel_profile": {
          "type": "string"
        },
        "kernel_release": {
          "type": "string"
        },
        "presets": {
          "type": "array",
          "items": {
            "type": "string"
          }
        }
      },
      "required": [
        "kind",
        "presets"
      ]
    },
    "kernel": {
      "type": "object",
      "properties": {
        "release": {
          "type": [
            "string",
            "null"
          ],
          "description": "uname -r, null on the fake"
        },
        "profile": {
          "type": [
            "string",
            "null"
          ],
          "description": "the kernel profile vdpactl matches it to"
        }
      }
    },
    "qemu": {
      "type": "object",
      "properties": {
        "version": {
          "type": [
            "string",
            "null"
          ],
          "description": "the QEMU version, null when none was found"
        },
        "source": {
          "type": "string"
        }
      },
      "required": [
        "source"
      ]
    },
    "memlock": {
      "type": [
        "object",
        "null"
      ],
      "properties": {
        "soft_bytes": {
          "type": "integer",
          "description": "-1: unlimited"
        },
        "hard_bytes": {
          "type": "integer"
        }
      },
      "required": [
        "soft_bytes",
        "hard_bytes"
      ]
    },
    "cap_ipc_lock": {
      "type": "boolean"
    },
    "devices": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "name": {
            "type": "string"
          },
          "node": {
            "type": [
              "string",
              "null"
            ],
            "description": "/dev/vhost-vdpa-N, null without one"
          },
          "type": {
            "type": "string",
            "description": "net, block, ..."
          },
          "mgmtdev": {
            "type": "string"
          },
          "driver": {
            "type": [
              "string",
              "null"
            ],
            "description": "vdpa_sim, mlx5_vdpa, vduse, or null when unknown"
          },
          "firmware": {
            "type": [
              "string",
              "null"
            ],
            "description": "where the driver exposes it"
          },
          "pins_memory": {
            "type": "boolean",
            "description": "vhost-vdpa pins the VM's memory for this device (PA-mode driver): RLIMIT_MEMLOCK counts"
          },
          "features": {
            "type": "string",
            "pattern": "^0x[0-9a-f]{1,16}$",
            "description": "offered virtio features"
          },
          "feature_names": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "negotiated_features": {
            "anyOf": [
              {
                "type": "string",
                "pattern": "^0x[0-9a-f]{1,16}$"
              },
              {
                "type": "null"
              }
            ],
            "description": "what the guest driver negotiated (once FEATURES_OK), or null"
          },
          "negotiated_feature_names": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "string"
            }
          },
          "status": {
            "type": [
              "integer",
              "null"
            ],
            "description": "virtio status byte, null when the node could not be opened"
          },
          "mac": {
            "type": [
              "string",
              "null"
            ]
          },
          "mtu": {
            "type": [
              "integer",
              "null"
            ]
          },
          "max_vq_pairs": {
            "type": [
              "integer",
              "null"
            ]
          },
          "backend_features": {
            "anyOf": [
              {
                "type": "string",
                "pattern": "^0x[0-9a-f]{1,16}$"
              },
              {
                "type": "null"
              }
            ]
          },
          "backend_feature_names": {
            "type": "array",
            "items": {
              "type": "string"
            }
          },
          "backend_features_from": {
            "type": [
              "string",
              "null"
            ],
            "description": "the node of a device of the same management device they were read from (this one was held), or null"
          },
          "groups": {
            "type": [
              "integer",
              "null"
            ]
          },
          "address_spaces": {
            "type": [
              "integer",
              "null"
            ]
          },
          "cvq": {
            "type": [
              "object",
              "null"
            ],
            "properties": {
              "index": {
                "type": "integer"
              },
              "group": {
                "type": [
                  "integer",
                  "null"
                ]
              },
              "isolable": {
                "type": [
                  "boolean",
                  "null"
                ]
              },
              "reason": {
                "type": [
                  "string",
                  "null"
                ]
              }
            },
            "required": [
              "index",
              "isolable"
            ]
          },
          "held_by": {
            "type": "array",
            "items": {
              "type": "string"
            },
            "description": "processes holding the node open"
          },
          "unavailable": {
            "type": "array",
            "items": {
              "type": "string"
            }
          }
        },
        "required": [
          "name",
          "type",
          "mgmtdev",
          "pins_memory",
          "features",
          "feature_names",
          "held_by"
        ]
      }
    }
  },
  "required": [
    "schema",
    "schema_version",
    "host",
    "backend",
    "kernel",
    "qemu",
    "memlock",
    "cap_ipc_lock",
    "devices"
  ]
}
''',
    'rehearsal.schema.json': r'''{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:vdpactl:schema:rehearsal:1",
  "title": "vdpactl rehearse --json",
  "description": "A downtime rehearsal: plan, outcome, spans, per-phase percentiles, final device states (docs/rehearse.md).",
  "type": "object",
  "properties": {
    "schema": {
      "const": "vdpactl.rehearsal",
      "description": "which document this is"
    },
    "schema_version": {
      "const": 1,
      "description": "the version of its key set (docs/json-schemas.md)"
    },
    "simulated": {
      "type": "boolean"
    },
    "backend": {
      "type": "object",
      "properties": {
        "kind": {
          "type": "string",
          "enum": [
            "fake",
            "kernel"
          ]
        },
        "kernel_profile": {
          "type": "string",
          "description": "the Linux version the fake speaks (fake only)"
        },
        "presets": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "kernel_release": {
          "type": "string",
          "description": "the running kernel's release (kernel only)"
        }
      },
      "required": [
        "kind",
        "presets"
      ],
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      },
      "description": "the backend as fields, not a sentence"
    },
    "clock": {
      "type": "string",
      "enum": [
        "real",
        "virtual"
      ]
    },
    "command": {
      "type": "string"
    },
    "plan": {
      "type": "object",
      "properties": {
        "sources": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "destinations": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "paths": {
          "type": "array",
          "items": {
            "type": "string"
          }
        },
        "strategy": {
          "type": "string",
          "enum": [
            "serial",
            "parallel",
            "pipelined",
            "svq"
          ]
        },
        "premap": {
          "type": "boolean"
        },
        "phases": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/phase"
          }
        },
        "iterations": {
          "type": "integer"
        },
        "queue_pairs": {
          "type": "integer"
        },
        "memory_bytes": {
          "type": "integer"
        },
        "memory": {
          "type": "array",
          "items": {
            "type": "object",
            "properties": {
              "iova": {
                "type": "integer"
              },
              "size": {
                "type": "integer"
              },
              "page_size": {
                "type": "integer"
              }
            },
            "required": [
              "iova",
              "size",
              "page_size"
            ],
            "propertyNames": {
              "pattern": "^[a-z][a-z0-9_]*$"
            }
          }
        },
        "window": {
          "type": "string",
          "enum": [
            "migration",
            "in-place"
          ]
        },
        "preparation": {
          "type": "array",
          "items": {
            "$ref": "#/$defs/phase"
          }
        }
      },
      "required": [
        "sources",
        "destinations",
        "paths",
        "strategy",
        "premap",
        "phases",
        "iterations",
        "queue_pairs",
        "memory_bytes",
        "memory",
        "window",
        "preparation"
      ],
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      }
    },
    "outcome": {
      "type": "string",
      "enum": [
        "completed",
        "partial",
        "interrupted"
      ]
    },
    "statistics": {
      "type": "object",
      "properties": {
        "downtime": {
          "$ref": "#/$defs/dist"
        },
        "phases": {
          "type": "object",
          "additionalProperties": {
            "$ref": "#/$defs/dist"
          },
          "propertyNames": {
            "$ref": "#/$defs/phase"
          }
        }
      },
      "required": [
        "downtime",
        "phases"
      ],
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      }
    },
    "iterations": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "index": {
            "type": "integer"
          },
          "failed": {
            "type": "boolean"
          },
          "downtime_ms": {
            "type": "number"
          },
          "critical_path_ms": {
            "type": "number"
          },
          "phases": {
            "type": "array",
            "items": {
              "type": "object",
              "properties": {
                "phase": {
                  "$ref": "#/$defs/phase"
                },
                "in_window": {
                  "type": "boolean"
                },
                "wall_ms": {
                  "type": "number"
                },
                "slowest_device": {
                  "type": "string"
                },
                "slowest_ms": {
                  "type": "number"
                },
                "device_ms": {
                  "type": "object",
                  "additionalProperties": {
                    "type": "number"
                  }
                },
                "failed_calls": {
                  "type": "integer"
                }
              },
              "required": [
                "phase",
                "in_window",
                "wall_ms",
                "slowest_device",
                "slowest_ms",
                "device_ms",
                "failed_calls"
              ],
              "propertyNames": {
                "pattern": "^[a-z][a-z0-9_]*$"
              }
            }
          },
          "device_ms": {
            "type": "object",
            "additionalProperties": {
              "type": "number"
            }
          },
          "spans": {
            "type": "array",
            "items": {
              "$ref": "#/$defs/span"
            }
          }
        },
        "required": [
          "index",
          "failed",
          "downtime_ms",
          "critical_path_ms",
          "phases",
          "device_ms",
          "spans"
        ],
        "propertyNames": {
          "pattern": "^[a-z][a-z0-9_]*$"
        }
      }
    },
    "setup": {
      "type": "array",
      "items": {
        "$ref": "#/$defs/span"
      }
    },
    "devices": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "name": {
            "type": "string"
          },
          "path": {
            "type": "string"
          },
          "role": {
            "type": "string"
          },
          "state": {
            "type": "string"
          },
          "mapped": {
            "type": "boolean"
          },
          "status": {
            "type": [
              "string",
              "null"
            ],
            "deprecated": true,
            "description": "status_byte and status_names as a sentence (\"0x0f (...)\"); deprecated: dropped in version 2"
          },
          "detail": {
            "type": [
              "string",
              "null"
            ]
          },
          "status_byte": {
            "type": [
              "integer",
              "null"
            ],
            "minimum": 0,
            "maximum": 255,
            "description": "the status byte read back at the end; null when it could not be read"
          },
          "status_names": {
            "type": [
              "array",
              "null"
            ],
            "items": {
              "type": "string"
            },
            "description": "its flags (DRIVER_OK, ...; empty for 0); null when it could not be read"
          }
        },
        "required": [
          "name",
          "path",
          "role",
          "state",
          "mapped",
          "status",
          "detail"
        ],
        "propertyNames": {
          "pattern": "^[a-z][a-z0-9_]*$"
        }
      }
    },
    "notes": {
      "type": "array",
      "items": {
        "type": "string"
      }
    },
    "failure": {
      "type": "object",
      "properties": {
        "device": {
          "type": "string"
        },
        "phase": {
          "$ref": "#/$defs/phase"
        },
        "call": {
          "type": "string"
        },
        "errno": {
          "type": "integer"
        },
        "errno_name": {
          "type": "string"
        },
        "message": {
          "type": "string"
        }
      },
      "required": [
        "device",
        "phase",
        "call",
        "errno",
        "errno_name",
        "message"
      ],
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      }
    },
    "fallbacks": {
      "type": "object",
      "additionalProperties": {
        "type": "array",
        "items": {
          "type": "string"
        }
      },
      "propertyNames": {
        "$ref": "#/$defs/phase"
      }
    },
    "error": {
      "type": "object",
      "properties": {
        "exit": {
          "type": "integer"
        },
        "name": {
          "type": "string"
        },
        "message": {
          "type": "string"
        }
      },
      "required": [
        "exit",
        "name",
        "message"
      ],
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      }
    },
    "host": {
      "type": "string",
      "description": "the host's name, added by the Ansible module vdpa_rehearse (report merge names the host by it)"
    }
  },
  "required": [
    "schema",
    "schema_version",
    "simulated",
    "backend",
    "clock",
    "command",
    "plan",
    "outcome",
    "statistics",
    "iterations",
    "setup",
    "devices",
    "notes"
  ],
  "propertyNames": {
    "pattern": "^[a-z][a-z0-9_]*$"
  },
  "$defs": {
    "phase": {
      "type": "string",
      "pattern": "^[a-z][a-z0-9_]*$",
      "description": "a phase id, an open list (docs/json-schemas.md): new ids may come within a version",
      "examples": [
        "setup",
        "premap",
        "suspend",
        "save_state",
        "unmap",
        "reset",
        "configure",
        "set_map",
        "driver_ok",
        "cvq_mq",
        "resume",
        "rollback",
        "restore"
      ]
    },
    "span": {
      "type": "object",
      "properties": {
        "device": {
          "type": "string"
        },
        "phase": {
          "$ref": "#/$defs/phase"
        },
        "call": {
          "type": "string"
        },
        "start_ns": {
          "type": "integer"
        },
        "end_ns": {
          "type": "integer"
        },
        "duration_ns": {
          "type": "integer"
        },
        "errno": {
          "type": "integer"
        },
        "errno_name": {
          "type": [
            "string",
            "null"
          ]
        }
      },
      "required": [
        "device",
        "phase",
        "call",
        "start_ns",
        "end_ns",
        "duration_ns",
        "errno",
        "errno_name"
      ],
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      }
    },
    "dist": {
      "type": "object",
      "properties": {
        "count": {
          "type": "integer",
          "minimum": 0,
          "description": "completed iterations measured"
        },
        "min_ms": {
          "type": [
            "number",
            "null"
          ]
        },
        "p50_ms": {
          "type": [
            "number",
            "null"
          ]
        },
        "p90_ms": {
          "type": [
            "number",
            "null"
          ]
        },
        "p99_ms": {
          "type": [
            "number",
            "null"
          ]
        },
        "max_ms": {
          "type": [
            "number",
            "null"
          ]
        },
        "mean_ms": {
          "type": [
            "number",
            "null"
          ]
        },
        "exact": {
          "type": "boolean",
          "description": "false: read off a histogram (3 significant digits), more iterations than are kept"
        }
      },
      "required": [
        "count",
        "min_ms",
        "p50_ms",
        "p90_ms",
        "p99_ms",
        "max_ms",
        "mean_ms"
      ],
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      },
      "if": {
        "properties": {
          "count": {
            "const": 0
          }
        }
      },
      "then": {
        "properties": {
          "min_ms": {
            "type": "null"
          },
          "p50_ms": {
            "type": "null"
          },
          "p90_ms": {
            "type": "null"
          },
          "p99_ms": {
            "type": "null"
          },
          "max_ms": {
            "type": "null"
          },
          "mean_ms": {
            "type": "null"
          }
        },
        "description": "nothing measured: every figure is null, never 0"
      },
      "else": {
        "properties": {
          "min_ms": {
            "type": "number"
          },
          "p50_ms": {
            "type": "number"
          },
          "p90_ms": {
            "type": "number"
          },
          "p99_ms": {
            "type": "number"
          },
          "max_ms": {
            "type": "number"
          },
          "mean_ms": {
            "type": "number"
          }
        }
      },
      "description": "ms over the completed iterations; nearest-rank percentiles of the measured values"
    }
  },
  "allOf": [
    {
      "if": {
        "properties": {
          "outcome": {
            "const": "partial"
          }
        },
        "required": [
          "outcome"
        ]
      },
      "then": {
        "required": [
          "failure"
        ]
      }
    }
  ]
}
''',
    'vhost-info.schema.json': r'''{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:vdpactl:schema:vhost-info:1",
  "title": "vdpactl vhost info --json",
  "description": "Every vhost-vdpa ioctl's view of one device, plus what its kernel lacks.",
  "type": "object",
  "properties": {
    "schema": {
      "const": "vdpactl.vhost-info",
      "description": "which document this is"
    },
    "schema_version": {
      "const": 1,
      "description": "the version of its key set (docs/json-schemas.md)"
    },
    "device": {
      "type": "string"
    },
    "device_id": {
      "type": "integer"
    },
    "device_type": {
      "type": "string"
    },
    "features": {
      "type": "string"
    },
    "feature_names": {
      "type": "array",
      "items": {
        "type": "string"
      }
    },
    "backend_features": {
      "type": "string"
    },
    "backend_feature_names": {
      "type": "array",
      "items": {
        "type": "string"
      }
    },
    "status": {
      "type": "integer"
    },
    "status_names": {
      "type": "array",
      "items": {
        "type": "string"
      }
    },
    "vq_count": {
      "type": "integer"
    },
    "vring_num_max": {
      "type": "integer"
    },
    "group_count": {
      "type": [
        "integer",
        "null"
      ]
    },
    "address_space_count": {
      "type": [
        "integer",
        "null"
      ]
    },
    "iova_first": {
      "type": "string"
    },
    "iova_last": {
      "type": "string"
    },
    "config_size": {
      "type": "integer"
    },
    "config": {
      "type": [
        "object",
        "null"
      ],
      "properties": {
        "length": {
          "type": "integer"
        },
        "mac": {
          "type": "string",
          "description": "only with VIRTIO_NET_F_MAC among the device features"
        },
        "status": {
          "type": "integer",
          "description": "only with VIRTIO_NET_F_STATUS"
        },
        "max_virtqueue_pairs": {
          "type": "integer",
          "description": "only with VIRTIO_NET_F_MQ or VIRTIO_NET_F_RSS"
        },
        "mtu": {
          "type": "integer",
          "description": "only with VIRTIO_NET_F_MTU"
        },
        "speed": {
          "type": "integer",
          "description": "Mbit/s (4294967295 = unknown); only with VIRTIO_NET_F_SPEED_DUPLEX"
        },
        "duplex": {
          "type": "integer",
          "description": "0 half, 1 full, 255 unknown; only with VIRTIO_NET_F_SPEED_DUPLEX"
        },
        "rss_max_key_size": {
          "type": "integer",
          "description": "only with VIRTIO_NET_F_RSS or VIRTIO_NET_F_HASH_REPORT"
        },
        "rss_max_indirection_table_length": {
          "type": "integer",
          "description": "only with VIRTIO_NET_F_RSS"
        },
        "supported_hash_types": {
          "type": "integer",
          "description": "only with VIRTIO_NET_F_RSS or VIRTIO_NET_F_HASH_REPORT"
        }
      },
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      },
      "description": "decoded config; a net field only when its feature bit is offered (else left out); null when undecodable"
    },
    "config_error": {
      "type": [
        "string",
        "null"
      ]
    },
    "vqs": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "index": {
            "type": "integer"
          },
          "group": {
            "type": [
              "integer",
              "null"
            ]
          },
          "desc_group": {
            "type": [
              "integer",
              "null"
            ]
          },
          "size": {
            "type": [
              "integer",
              "null"
            ]
          }
        },
        "required": [
          "index",
          "group",
          "desc_group",
          "size"
        ],
        "propertyNames": {
          "pattern": "^[a-z][a-z0-9_]*$"
        }
      }
    },
    "unavailable": {
      "type": "array",
      "items": {
        "type": "string"
      },
      "deprecated": true,
      "description": "unavailable_calls as lines (\"VHOST_VDPA_GET_VRING_SIZE: EOPNOTSUPP\"); deprecated: dropped in schema_version 2"
    },
    "kernel": {
      "type": "object",
      "properties": {
        "profile": {
          "type": [
            "string",
            "null"
          ]
        },
        "simulated": {
          "type": "boolean"
        },
        "absent": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "deprecated": true,
          "description": "absent_calls as lines; deprecated: dropped in schema_version 2"
        },
        "costs": {
          "type": "array",
          "items": {
            "type": "string"
          },
          "deprecated": true,
          "description": "the costs of missing_backend_features, as lines; deprecated: dropped in schema_version 2"
        },
        "absent_calls": {
          "type": "array",
          "description": "the vhost-vdpa ioctls and vdpa commands this kernel lacks",
          "items": {
            "type": "object",
            "properties": {
              "name": {
                "type": "string",
                "description": "the kernel's name (VHOST_VDPA_SUSPEND)"
              },
              "kind": {
                "type": "string",
                "enum": [
                  "ioctl",
                  "vdpa_command"
                ]
              },
              "first_kernel": {
                "type": "string",
                "description": "the first profiled Linux version that has it"
              }
            },
            "required": [
              "name",
              "kind",
              "first_kernel"
            ],
            "propertyNames": {
              "pattern": "^[a-z][a-z0-9_]*$"
            }
          }
        },
        "missing_backend_features": {
          "type": "array",
          "description": "the backend features the device lacks and what vdpactl does without each",
          "items": {
            "type": "object",
            "properties": {
              "feature": {
                "type": "string",
                "description": "the backend feature's name (SUSPEND)"
              },
              "cost": {
                "type": "string",
                "description": "what vdpactl does without it, a sentence for people"
              }
            },
            "required": [
              "feature",
              "cost"
            ],
            "propertyNames": {
              "pattern": "^[a-z][a-z0-9_]*$"
            }
          }
        }
      },
      "required": [
        "profile",
        "simulated",
        "absent",
        "costs"
      ],
      "propertyNames": {
        "pattern": "^[a-z][a-z0-9_]*$"
      }
    },
    "unavailable_calls": {
      "type": "array",
      "description": "the queries the device did not answer, as fields",
      "items": {
        "type": "object",
        "properties": {
          "call": {
            "type": "string",
            "description": "the ioctl's kernel name"
          },
          "errno": {
            "type": "integer",
            "minimum": 1
          },
          "errno_name": {
            "type": "string",
            "pattern": "^E[A-Z0-9]+$"
          },
          "needs_owner": {
            "type": "boolean",
            "description": "true when the answer needs SET_OWNER first"
          }
        },
        "required": [
          "call",
          "errno",
          "errno_name",
          "needs_owner"
        ],
        "propertyNames": {
          "pattern": "^[a-z][a-z0-9_]*$"
        }
      }
    }
  },
  "required": [
    "schema",
    "schema_version",
    "device",
    "device_id",
    "device_type",
    "features",
    "feature_names",
    "backend_features",
    "backend_feature_names",
    "status",
    "status_names",
    "vq_count",
    "vring_num_max",
    "group_count",
    "address_space_count",
    "iova_first",
    "iova_last",
    "config_size",
    "config",
    "config_error",
    "vqs",
    "unavailable",
    "kernel"
  ],
  "propertyNames": {
    "pattern": "^[a-z][a-z0-9_]*$"
  }
}
''',
    'vhost-timing.schema.json': r'''{
  "$schema": "https://json-schema.org/draft/2020-12/schema",
  "$id": "urn:vdpactl:schema:vhost-timing:1",
  "title": "vdpactl vhost suspend|resume --json",
  "description": "The time of one suspend or resume per device.",
  "type": "object",
  "properties": {
    "schema": {
      "const": "vdpactl.vhost-timing",
      "description": "which document this is"
    },
    "schema_version": {
      "const": 1,
      "description": "the version of its key set (docs/json-schemas.md)"
    },
    "simulated": {
      "type": "boolean"
    },
    "results": {
      "type": "array",
      "items": {
        "type": "object",
        "properties": {
          "device": {
            "type": "string"
          },
          "operation": {
            "type": "string"
          },
          "millis": {
            "type": "number",
            "deprecated": true,
            "description": "the same as duration_ms; deprecated: dropped in schema_version 2"
          },
          "error": {
            "type": [
              "string",
              "null"
            ],
            "description": "what failed, a sentence for people; null when the call succeeded"
          },
          "duration_ms": {
            "type": "number",
            "description": "how long the call took, in ms"
          },
          "errno": {
            "type": [
              "integer",
              "null"
            ],
            "minimum": 1,
            "description": "the errno the call failed with; null when it succeeded"
          },
          "errno_name": {
            "type": [
              "string",
              "null"
            ],
            "pattern": "^E[A-Z0-9]+$",
            "description": "the errno's symbol (EOPNOTSUPP); null when the call succeeded"
          }
        },
        "required": [
          "device",
          "operation",
          "millis",
          "error"
        ],
        "propertyNames": {
          "pattern": "^[a-z][a-z0-9_]*$"
        }
      }
    }
  },
  "required": [
    "schema",
    "schema_version",
    "simulated",
    "results"
  ],
  "propertyNames": {
    "pattern": "^[a-z][a-z0-9_]*$"
  }
}
''',
}
