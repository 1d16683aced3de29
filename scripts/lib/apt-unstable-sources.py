#!/usr/bin/env python3
"""Prints a one-line-format apt sources list for Debian's unstable suite (or another suite of the
same archive: --suite), derived from this machine's own apt sources (so the lane uses whatever
mirror the machine is configured with and the repository names none).

Reads /etc/apt/sources.list, /etc/apt/sources.list.d/*.list and *.sources (deb822). Keeps the
"deb" entries whose suite is the machine's release itself (VERSION_CODENAME of /etc/os-release,
or "stable"), i.e. not -security/-updates/-backports, rewrites the suite to "unstable" (or
--suite's, where "{codename}" stands for the release's name: "{codename}-backports" is the lane's
QEMU peer's suite) and the components to "main", keeps Signed-By. Exit 1 with a message on stderr when nothing matches
(e.g. a non-Debian host).

Usage: apt-unstable-sources.py [--suite SUITE] [--etc DIR] [--codename NAME]   (the last two for tests)
"""
import glob
import os
import sys


def os_codename(etc):
    try:
        with open(os.path.join(etc, "os-release"), encoding="utf-8") as f:
            for line in f:
                if line.startswith("VERSION_CODENAME="):
                    return line.split("=", 1)[1].strip().strip('"')
    except OSError:
        pass
    return ""


def one_line_entries(path):
    """Yields (uri, suite, signed_by) of "deb" lines of a one-line-format file."""
    with open(path, encoding="utf-8") as f:
        for raw in f:
            line = raw.split("#", 1)[0].strip()
            if not line.startswith("deb "):
                continue
            words = line.split()[1:]
            signed_by = None
            if words and words[0].startswith("["):
                opts = []
                while words:
                    w = words.pop(0)
                    opts.append(w)
                    if w.endswith("]"):
                        break
                for o in " ".join(opts).strip("[]").split():
                    if o.startswith("signed-by="):
                        signed_by = o.split("=", 1)[1]
            if len(words) >= 2:
                yield words[0], words[1], signed_by


def deb822_entries(path):
    """Yields (uri, suite, signed_by) of every URI x suite of enabled "deb" stanzas."""
    with open(path, encoding="utf-8") as f:
        text = f.read()
    for stanza in text.split("\n\n"):
        fields = {}
        key = None
        for raw in stanza.splitlines():
            if raw.startswith("#"):
                continue
            if raw[:1].isspace() and key:
                fields[key] += "\n" + raw.strip()
                continue
            if ":" in raw:
                key, value = raw.split(":", 1)
                key = key.strip().lower()
                fields[key] = value.strip()
        if "deb" not in fields.get("types", "").split():
            continue
        if fields.get("enabled", "yes").lower() == "no":
            continue
        signed_by = fields.get("signed-by")
        if signed_by and "\n" in signed_by:
            signed_by = None  # an inline key block; apt's default keyring must do
        for uri in fields.get("uris", "").split():
            for suite in fields.get("suites", "").split():
                yield uri, suite, signed_by


def main(argv):
    etc = "/etc"
    codename = None
    suite_out = "unstable"
    args = list(argv)
    while args:
        a = args.pop(0)
        if a == "--etc":
            etc = args.pop(0)
        elif a == "--codename":
            codename = args.pop(0)
        elif a == "--suite":
            suite_out = args.pop(0)
        else:
            print(f"apt-unstable-sources: unknown argument {a}", file=sys.stderr)
            return 2
    codename = codename or os_codename(etc)
    release = {codename, "stable"} - {""}
    if "{codename}" in suite_out:
        if not codename:
            print("apt-unstable-sources: this machine's release has no codename (VERSION_CODENAME) for --suite "
                  f"{suite_out}", file=sys.stderr)
            return 1
        suite_out = suite_out.replace("{codename}", codename)
    entries = []
    apt = os.path.join(etc, "apt")
    main_list = os.path.join(apt, "sources.list")
    if os.path.isfile(main_list):
        entries += one_line_entries(main_list)
    for p in sorted(glob.glob(os.path.join(apt, "sources.list.d", "*.list"))):
        entries += one_line_entries(p)
    for p in sorted(glob.glob(os.path.join(apt, "sources.list.d", "*.sources"))):
        entries += deb822_entries(p)
    seen = set()
    out = []
    for uri, suite, signed_by in entries:
        if suite not in release or uri in seen:
            continue
        seen.add(uri)
        opt = f"[signed-by={signed_by}] " if signed_by else ""
        out.append(f"deb {opt}{uri} {suite_out} main")
    if not out:
        print(f"apt-unstable-sources: no deb entry for the release suite ({', '.join(sorted(release))}) "
              "in this machine's apt sources", file=sys.stderr)
        return 1
    print(f"# derived by scripts/lib/apt-unstable-sources.py from this machine's apt sources (suite {suite_out})")
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
