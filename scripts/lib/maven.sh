# shellcheck shell=bash
# Maven's local repository as the scripts see it: one place for how a script asks which one the caller's Maven
# uses (scripts/test-example, scripts/vm-lane). Source from bash; defines functions only.

# Prints the local repository the caller's Maven uses, as Maven itself resolves it: -Dmaven.repo.local in
# MAVEN_OPTS or .mvn/maven.config, settings.xml's <localRepository>, else ~/.m2/repository. Run from the project
# (help:evaluate reads the project's settings); returns 1 when Maven could not answer.
vdpactl_maven_local_repo() {
    local repo
    repo=$(mvn -B -ntp -q -Dstyle.color=never help:evaluate -Dexpression=settings.localRepository -DforceStdout 2>/dev/null \
        | sed 's/\x1b\[[0-9;]*m//g') || return 1
    [ -n "$repo" ] && [ -d "$repo" ] || return 1
    printf '%s\n' "$repo"
}

# How the lane's guest Maven gets the host build's local repository REPO (an existing directory), for a project
# checkout at ROOT that vm-run shares with the guest. Prints one argument a line: first the vm-run options that
# make REPO visible in the guest at its own path (none when it lies inside ROOT, which is shared already; else
# `--rw REPO`: the guest sees the host's root read-only, but its /tmp, /run, /var/tmp and /dev/shm are tmpfs of
# its own, so a repository there would be missing or empty), then `--`, then the Maven option that names REPO
# (vm-run forwards no MAVEN_OPTS and no settings location, so the guest's Maven would use its default ~/.m2).
#   vdpactl_lane_maven_repo_args ROOT REPO
vdpactl_lane_maven_repo_args() {
    local root repo
    root=$(cd "$1" && pwd -P) || return 1
    repo=$(cd "$2" && pwd -P) || return 1
    case "$repo/" in
        "$root"/*) ;;
        *) printf '%s\n' --rw "$repo" ;;
    esac
    printf '%s\n' -- "-Dmaven.repo.local=$repo"
}
