#!/usr/bin/env python3
"""Lays built Maven modules out as a file repository, the way `mvn deploy` to a file URL would, without
Maven's deploy step: that step caches the target repository's metadata in the local repository it runs
with (maven-metadata-<id>.xml under org/vdpactl), and scripts/test-example must leave the user's local
repository as it was.

    publish-file-repo.py REPO_DIR MODULE_DIR...

Each MODULE_DIR holds a pom.xml; a module of packaging jar must have been packaged (target/A-V.jar; its
-sources and -javadoc jars are published too when present). Writes REPO_DIR/G/A/V/A-V.{pom,jar,...} with
.sha1 and .md5 files. Exit 0, or 1 with one line naming what is missing."""
import hashlib
import shutil
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

NS = {"m": "http://maven.apache.org/POM/4.0.0"}


def text(project, path):
    node = project.find(path, NS)
    return node.text.strip() if node is not None and node.text else None


def coordinates(module):
    project = ET.parse(module / "pom.xml").getroot()
    group = text(project, "m:groupId") or text(project, "m:parent/m:groupId")
    artifact = text(project, "m:artifactId")
    version = text(project, "m:version") or text(project, "m:parent/m:version")
    packaging = text(project, "m:packaging") or "jar"
    return group, artifact, version, packaging


def publish(source, target):
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)
    data = target.read_bytes()
    for algorithm in ("sha1", "md5"):
        Path(f"{target}.{algorithm}").write_text(hashlib.new(algorithm, data).hexdigest())


def main(argv):
    if len(argv) < 3:
        print("usage: publish-file-repo.py REPO_DIR MODULE_DIR...", file=sys.stderr)
        return 2
    repo = Path(argv[1])
    for module in map(Path, argv[2:]):
        group, artifact, version, packaging = coordinates(module)
        folder = repo.joinpath(*group.split("."), artifact, version)
        publish(module / "pom.xml", folder / f"{artifact}-{version}.pom")
        if packaging == "pom":
            continue
        main_jar = module / "target" / f"{artifact}-{version}.jar"
        if not main_jar.is_file():
            print(f"publish-file-repo: {main_jar} is missing (package the module first)", file=sys.stderr)
            return 1
        for classifier in ("", "-sources", "-javadoc"):
            jar = module / "target" / f"{artifact}-{version}{classifier}.jar"
            if jar.is_file():
                publish(jar, folder / jar.name)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
