#!/usr/bin/env bash
# CI: builds the release (scripts/release.sh) and tests it as a user gets it.
# - dist/SHA256SUMS checks; the .deb and the tarball hold exactly the expected files, the same
#   binary and man page, owned by root; the .deb has no Depends.
# - The .deb installs (dpkg -i): `aasa --version` from PATH is /usr/bin/aasa, `man -w aasa`
#   finds /usr/share/man/man1/aasa.1.gz, the man page renders without groff warnings, so does
#   each subcommand's page (`man aasa-verify`, with its EXAMPLES, EXIT STATUS, ENVIRONMENT and
#   FILES), the help names installed pages of the docs, the
#   bash completion loads, the installed aasa verifies the bundled example; `dpkg -r` removes it.
# - The tarball, unpacked in an empty directory, runs with an empty environment (env -i: no
#   PATH, no HOME): --version and a verify of the example.
# - The OCI image, loaded and run with podman (ContainerImageTests), as non-root, read-only.
# Ends with `release: N passed, M failed`; exits 1 on any failure.
#
# Needs root (dpkg -i) and changes the machine's package database only for the test: an `aasa`
# package of another version already installed is refused (the test would remove it); one of
# the same version (an earlier run's) is replaced, removed, and this build installed at the end.
# Images whose dpkg configuration excludes man pages or docs (path-exclude, as in minimised
# container images) are named, and those files are installed with --path-include so that they
# are really tested. Expects scripts/test.sh to have built .build (the man page plugin reuses it).
set -euo pipefail
cd "$(dirname "$0")/.."
repo=$PWD
export LC_ALL=C.UTF-8

passed=0
failed=0
say() { echo "release: $*" >&2; }
ok() { passed=$((passed + 1)); say "ok: $*"; }
bad() { failed=$((failed + 1)); say "FAIL: $*"; }
# check DESCRIPTION COMMAND...: one test.
check() {
    local what=$1
    shift
    if "$@"; then ok "$what"; else bad "$what"; fi
}
aborted=""
abort() { bad "$*"; aborted=1; exit 1; }

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
work=$(mktemp -d)
installed=""        # this test installed the package
reinstall_at_end="" # an aasa of this version was installed before the test
dpkg_filters=()     # --path-include options that undo this machine's dpkg path-exclude
finish() {
    local status=$?
    if [ -n "$installed" ]; then
        $sudo dpkg -r aasa >/dev/null 2>&1 || say "could not remove the aasa package: remove it with dpkg -r aasa"
    fi
    if [ -n "$reinstall_at_end" ] && [ -n "${deb:-}" ]; then
        say "reinstalling aasa from $deb, as it was installed before the test"
        $sudo dpkg -i "${dpkg_filters[@]}" "$deb" >/dev/null || say "could not reinstall $deb"
    fi
    rm -rf "$work"
    if [ "$status" -ne 0 ] && [ -z "$aborted" ] && [ "$failed" -eq 0 ]; then
        failed=$((failed + 1))
        say "FAIL: stopped by an unexpected error (exit status $status)"
    fi
    echo "release: $passed passed, $failed failed"
    [ "$failed" -eq 0 ] || exit 1
    exit 0
}
trap finish EXIT

# man-db for `man -w`; file for the checks below.
scripts/ensure-deps.sh man-db file

# 1. Build the release. The .deb's xz level only trades size for time (-1: 22 MB in 4 s
# instead of 19 MB in 35 s): CI takes the fast one unless told otherwise.
say "running scripts/release.sh"
artefacts=$(AASA_DEB_XZ_LEVEL=${AASA_DEB_XZ_LEVEL:-1} scripts/release.sh) || abort "scripts/release.sh failed"
tarball=$(grep -E '^dist/aasa-.*\.tar\.gz$' <<< "$artefacts" || true)
deb=$(grep -E '^dist/aasa_.*\.deb$' <<< "$artefacts" || true)
image=$(grep -E '^dist/aasa-.*-oci\.tar$' <<< "$artefacts" | grep -v -- '-shell-oci\.tar$' || true)
shell_image=$(grep -E '^dist/aasa-.*-shell-oci\.tar$' <<< "$artefacts" || true)
if [ ! -f "$tarball" ] || [ ! -f "$deb" ] || [ ! -f "$image" ] || [ ! -f "$shell_image" ] || [ ! -f dist/SHA256SUMS ]; then
    abort "release.sh did not list a tarball, a .deb, the two OCI images and SHA256SUMS: $artefacts"
fi
ok "release.sh built $tarball, $deb, $image, $shell_image and dist/SHA256SUMS"
version=$(dpkg-deb -f "$deb" Version)
top="aasa-$version"
deb_arch=$(dpkg --print-architecture)
example="$repo/examples/apple-app-site-association.p7m"
trust=(--ca-file "$repo/certs/ca-bundle.pem" --no-system-roots)
mkdir -p "$work/peek" && tar -C "$work/peek" -xzf "$tarball" "$top/bin/aasa"
aasa_built="$work/peek/$top/bin/aasa"

sums_check() { (cd dist && sha256sum --strict --quiet -c SHA256SUMS && [ "$(wc -l < SHA256SUMS)" -eq 4 ]); }
check "SHA256SUMS checks (sha256sum -c), the four artefacts" sums_check
# owned_by_root: a `tar -tv --numeric-owner` listing on stdin has only 0/0 owners.
owned_by_root() { ! awk '{ print $2 }' | grep -qv '^0/0$'; }

# 2. What the archives hold.
optional_docs=()
for doc in CHANGELOG.md NOTICE; do
    if [ -f "$doc" ]; then optional_docs+=("$doc"); fi
done
# docs_entries PREFIX: the entries of the installed documentation (README.md and the committed
# docs/, the repository's layout) under PREFIX, directories with a trailing slash.
docs_entries() {
    { echo README.md; git ls-files docs; } | while IFS= read -r page; do
        local dir=${page%/*}
        while [ "$dir" != "$page" ] && [ -n "$dir" ]; do
            echo "$1/$dir/"
            [ "${dir%/*}" = "$dir" ] && break
            dir=${dir%/*}
        done
        echo "$1/$page"
    done
    echo "$1/"
}
# subcommand_pages: the page of each subcommand (aasa-verify.1, aasa-audit-summarize.1, …), from
# the built binary's help: every SUBCOMMANDS entry but help, and theirs.
subcommand_pages() {
    local aasa=$1 command sub
    for command in $("$aasa" --help | awk '/^SUBCOMMANDS:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
        [ "$command" = help ] && continue
        echo "aasa-$command.1"
        for sub in $("$aasa" "$command" --help | awk '/^SUBCOMMANDS:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
            echo "aasa-$command-$sub.1"
        done
    done
}
pages=$(subcommand_pages "$aasa_built")
[ "$(wc -l <<< "$pages")" -ge 14 ] || abort "the built binary's help lists only these subcommands: $pages"
expected_tar=$(
    {
        printf '%s\n' "$top/" "$top/LICENSE" "$top/README.md" "$top/bin/" "$top/bin/aasa" "$top/share/" \
            "$top/share/bash-completion/" "$top/share/bash-completion/completions/" \
            "$top/share/bash-completion/completions/aasa" \
            "$top/share/fish/" "$top/share/fish/vendor_completions.d/" \
            "$top/share/fish/vendor_completions.d/aasa.fish" \
            "$top/share/man/" "$top/share/man/man1/" "$top/share/man/man1/aasa.1" \
            "$top/share/zsh/" "$top/share/zsh/site-functions/" "$top/share/zsh/site-functions/_aasa"
        for doc in "${optional_docs[@]}"; do echo "$top/$doc"; done
        echo "$top/share/doc/"
        docs_entries "$top/share/doc/aasa"
        sed "s#^#$top/share/man/man1/#" <<< "$pages"
    } | sort -u
)
actual_tar=$(tar -tzf "$tarball" | sort)
if [ "$actual_tar" = "$expected_tar" ]; then
    ok "the tarball holds exactly the expected files"
else
    bad "the tarball's files differ from the expected list:"
    diff <(echo "$expected_tar") <(echo "$actual_tar") | sed 's/^/    /' >&2 || true
fi
tar_owned_by_root() { tar --numeric-owner -tvzf "$tarball" | owned_by_root; }
check "every tarball entry is owned by 0/0" tar_owned_by_root

expected_deb=$(
    {
        printf '%s\n' ./ ./usr/ ./usr/bin/ ./usr/bin/aasa ./usr/share/ \
            ./usr/share/bash-completion/ ./usr/share/bash-completion/completions/ \
            ./usr/share/bash-completion/completions/aasa \
            ./usr/share/doc/ ./usr/share/doc/aasa/ ./usr/share/doc/aasa/changelog.gz ./usr/share/doc/aasa/copyright \
            ./usr/share/fish/ ./usr/share/fish/vendor_completions.d/ ./usr/share/fish/vendor_completions.d/aasa.fish \
            ./usr/share/lintian/ ./usr/share/lintian/overrides/ ./usr/share/lintian/overrides/aasa \
            ./usr/share/man/ ./usr/share/man/man1/ ./usr/share/man/man1/aasa.1.gz \
            ./usr/share/zsh/ ./usr/share/zsh/vendor-completions/ ./usr/share/zsh/vendor-completions/_aasa
        if [ -f CHANGELOG.md ]; then echo ./usr/share/doc/aasa/CHANGELOG.md.gz; fi
        docs_entries ./usr/share/doc/aasa
        sed 's#^\(.*\)$#./usr/share/man/man1/\1.gz#' <<< "$pages"
    } | sort -u
)
actual_deb=$(dpkg-deb --fsys-tarfile "$deb" | tar -t | sort)
if [ "$actual_deb" = "$expected_deb" ]; then
    ok "the .deb holds exactly the expected files"
else
    bad "the .deb's files differ from the expected list:"
    diff <(echo "$expected_deb") <(echo "$actual_deb") | sed 's/^/    /' >&2 || true
fi
deb_owned_by_root() { dpkg-deb --fsys-tarfile "$deb" | tar --numeric-owner -tv | owned_by_root; }
check "every .deb entry is owned by 0/0" deb_owned_by_root
control_ok() {
    [ "$(dpkg-deb -f "$deb" Package)" = aasa ] &&
        [ "$(dpkg-deb -f "$deb" Architecture)" = "$deb_arch" ] &&
        [ -n "$(dpkg-deb -f "$deb" Maintainer)" ] &&
        [ -n "$(dpkg-deb -f "$deb" Installed-Size)" ] &&
        [ -z "$(dpkg-deb -f "$deb" Depends Pre-Depends Recommends)" ] &&
        [ "$(basename "$deb")" = "aasa_${version}_${deb_arch}.deb" ] &&
        [ "$(basename "$tarball")" = "aasa-$version-linux-$(uname -m).tar.gz" ]
}
check "control: package aasa $version for $deb_arch, a Maintainer, no Depends; artefact names" control_ok

unpacked="$work/unpacked"
mkdir -p "$unpacked/tar" "$unpacked/deb"
tar -C "$unpacked/tar" -xzf "$tarball"
dpkg-deb -x "$deb" "$unpacked/deb"
check "the .deb and the tarball ship the same binary" cmp -s "$unpacked/deb/usr/bin/aasa" "$unpacked/tar/$top/bin/aasa"
same_man_pages() {
    local page
    for page in aasa.1 $pages; do
        gzip -dc "$unpacked/deb/usr/share/man/man1/$page.gz" | cmp -s - "$unpacked/tar/$top/share/man/man1/$page" ||
            { say "  $page differs"; return 1; }
    done
}
check "the .deb and the tarball ship the same man pages" same_man_pages
static_ok() {
    local binary="$unpacked/tar/$top/bin/aasa"
    file -b "$binary" | grep -Eq 'statically linked|static-pie linked' && ! ldd "$binary" >/dev/null 2>&1
}
check "the binary is static (file, ldd)" static_ok

# 3. The .deb, installed.
prior=$(dpkg-query -W -f='${db:Status-Status} ${Version}' aasa 2>/dev/null || true)
case "$prior" in
    "" | "not-installed "*) ;;
    "installed $version")
        say "note: aasa $version is already installed (an earlier run's?): the test replaces and removes it, then installs this build again at the end"
        reinstall_at_end=1
        ;;
    *) abort "an aasa package is already on this machine ($prior); the test would replace and remove it: remove it first (dpkg -r aasa)" ;;
esac
if [ -z "$reinstall_at_end" ] && [ -e /usr/bin/aasa ]; then
    abort "/usr/bin/aasa exists and belongs to no aasa package; the test would overwrite it"
fi

# dpkg's path filters (dpkg.cfg.d/* in order, then dpkg.cfg; the last match wins, `*` matches
# `/`): minimised images drop /usr/share/man/* and /usr/share/doc/*. A user of such an image
# would not get those files; here they are installed anyway, by name, so that they are tested.
filters=()
for cfg in /etc/dpkg/dpkg.cfg.d/* /etc/dpkg/dpkg.cfg; do
    [ -f "$cfg" ] || continue
    while IFS= read -r line; do
        if [[ "$line" =~ ^[[:space:]]*(--)?path-(exclude|include)[[:space:]=][[:space:]]*([^[:space:]]+) ]]; then
            filters+=("${BASH_REMATCH[2]} ${BASH_REMATCH[3]} $cfg")
        fi
    done < "$cfg"
done
while IFS= read -r entry; do
    case "$entry" in */) continue ;; esac
    path="/${entry#./}"
    verdict="include"
    source=""
    for filter in "${filters[@]}"; do
        read -r kind pattern cfg <<< "$filter"
        # shellcheck disable=SC2053 # the pattern is a glob, as dpkg's fnmatch reads it
        if [[ "$path" == $pattern ]]; then verdict=$kind; source="$cfg: path-$kind=$pattern"; fi
    done
    if [ "$verdict" = exclude ]; then
        say "note: this machine's dpkg configuration drops $path ($source); installing it with --path-include=$path"
        dpkg_filters+=("--path-include=$path")
    fi
done <<< "$actual_deb"

if $sudo dpkg -i "${dpkg_filters[@]}" "$deb" >"$work/dpkg.log" 2>&1; then
    installed=1
    ok "dpkg -i $deb"
else
    cat "$work/dpkg.log" >&2
    installed=1
    abort "dpkg -i $deb failed"
fi
files_installed() {
    local listed entry path missing=0
    listed=$(dpkg -L aasa)
    while IFS= read -r entry; do
        case "$entry" in */) continue ;; esac
        path="/${entry#./}"
        if [ ! -f "$path" ] || ! grep -qxF "$path" <<< "$listed"; then
            say "  not installed: $path"
            missing=1
        fi
    done <<< "$actual_deb"
    [ "$missing" -eq 0 ]
}
check "every file of the .deb is installed and listed by dpkg -L aasa" files_installed

version_from_path() {
    local path output
    path=$(env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin bash -c 'command -v aasa')
    [ "$path" = /usr/bin/aasa ] || { say "  aasa in PATH is $path"; return 1; }
    output=$(env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin aasa --version) || return 1
    [ "$(head -n 1 <<< "$output" | awk '{ print $NF }')" = "$version" ] || { say "  aasa --version: $output"; return 1; }
}
check "aasa --version from PATH is /usr/bin/aasa, version $version" version_from_path

# Ubuntu's minimised images divert /usr/bin/man to a stub; use the real man, and say so.
man=/usr/bin/man
true_man=$(dpkg-divert --truename /usr/bin/man 2>/dev/null || echo /usr/bin/man)
if [ "$true_man" != /usr/bin/man ] && [ -x "$true_man" ]; then
    say "note: /usr/bin/man is diverted on this image (a minimised one); using $true_man"
    man=$true_man
fi
man_finds_page() {
    local found
    found=$(env -u MANPATH "$man" -w aasa) || return 1
    [ "$found" = /usr/share/man/man1/aasa.1.gz ] || { say "  man -w aasa: $found"; return 1; }
}
check "man -w aasa finds /usr/share/man/man1/aasa.1.gz" man_finds_page
man_renders() {
    local warnings
    warnings=$(MANROFFSEQ='' MANWIDTH=80 "$man" --warnings -E UTF-8 -l -Tutf8 -Z /usr/share/man/man1/aasa.1.gz 2>&1 >/dev/null)
    [ -z "$warnings" ] || { say "  groff: $warnings"; return 1; }
}
check "the man page renders without groff warnings" man_renders
# subcommand_pages_work: `man aasa-verify` and the others: found where the .deb put them,
# rendered without groff warnings, with the sections of a manual page, naming the installed docs.
subcommand_pages_work() {
    local page name found warnings text section bad=0
    while IFS= read -r page; do
        name=${page%.1}
        found=$("$man" -w "$name" 2>&1)
        [ "$found" = "/usr/share/man/man1/$page.gz" ] || { say "  man -w $name: $found"; bad=1; continue; }
        warnings=$(MANROFFSEQ='' MANWIDTH=80 "$man" --warnings -E UTF-8 -l -Tutf8 -Z "$found" 2>&1 >/dev/null)
        [ -z "$warnings" ] || { say "  $name: groff: $warnings"; bad=1; }
        text=$(MANWIDTH=200 "$man" -E UTF-8 -l "$found" 2>/dev/null | col -b)
        for section in NAME SYNOPSIS DESCRIPTION ENVIRONMENT FILES "EXIT STATUS" EXAMPLES; do
            grep -qx "$section" <<< "$text" || { say "  $name has no $section section"; bad=1; }
        done
        grep -q "/usr/share/doc/aasa/docs" <<< "$text" || { say "  $name does not name the installed docs"; bad=1; }
        if grep -q "in aasa's source" <<< "$text"; then say "  $name names the source's docs"; bad=1; fi
    done <<< "$pages"
    if gzip -dc /usr/share/man/man1/aasa.1.gz | grep -q "in aasa's source"; then say "  aasa(1) names the source's docs"; bad=1; fi
    [ "$bad" -eq 0 ]
}
check "man aasa-verify and every subcommand's page: found, rendered, with ENVIRONMENT, FILES, EXIT STATUS and EXAMPLES" \
    subcommand_pages_work
check "the bash completion loads and completes aasa" \
    bash -c 'source /usr/share/bash-completion/completions/aasa && complete -p aasa >/dev/null'
if command -v zsh >/dev/null; then check "the zsh completion parses" zsh -n /usr/share/zsh/vendor-completions/_aasa; fi
if command -v fish >/dev/null; then check "the fish completion parses" fish -n /usr/share/fish/vendor_completions.d/aasa.fish; fi

verifies_example() {
    local output
    output=$("$@" verify "$example" "${trust[@]}" 2>&1) || { say "  $output"; return 1; }
    [ "$(head -n 1 <<< "$output")" = "$example: valid" ] || { say "  $output"; return 1; }
}
check "the installed aasa verifies the example" verifies_example /usr/bin/aasa

# help_pages_installed AASA DOCS: every page the help texts name is a file under DOCS, and the
# help names no other (the source repository's docs/…).
help_pages_installed() {
    local aasa=$1 docs=$2 help pages page missing=0
    help=$(for command in "" $("$aasa" --help | awk '/^SUBCOMMANDS:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
        "$aasa" help $command; done 2>&1) || { say "  aasa help failed: $help"; return 1; }
    # Every page named (a word ending in docs/NAME.md) is one of DOCS.
    pages=$(tr -s ' \n' '\n\n' <<< "$help" | grep -oE "[^[:space:]]*docs/[a-z-]+\.md" | sed 's/^[("]*//' | sort -u)
    if grep -vq "^$docs/" <<< "$pages"; then
        say "  help texts name pages that are not the installed ones: $(grep -v "^$docs/" <<< "$pages" | tr '\n' ' ')"
        return 1
    fi
    [ "$(wc -l <<< "$pages")" -ge 7 ] || { say "  the help names only these installed pages: $pages"; return 1; }
    while IFS= read -r page; do
        [ -f "$page" ] || { say "  named in a help text, not installed: $page"; missing=1; }
    done <<< "$pages"
    [ "$missing" -eq 0 ]
}
check "the installed help names the pages under /usr/share/doc/aasa/docs, and they are there" \
    help_pages_installed /usr/bin/aasa /usr/share/doc/aasa/docs

if $sudo dpkg -r aasa >"$work/dpkg.log" 2>&1; then
    installed=""
    check "dpkg -r aasa removes /usr/bin/aasa" test ! -e /usr/bin/aasa
    status=$(dpkg-query -W -f='${db:Status-Status}' aasa 2>/dev/null || true)
    check "dpkg no longer has aasa installed (${status:-unknown to dpkg})" test "${status:-not-installed}" = not-installed
else
    cat "$work/dpkg.log" >&2
    bad "dpkg -r aasa"
fi

# 4. The tarball, unpacked in an empty directory, with an empty environment.
fresh=$(mktemp -d "$work/tarball.XXXXXX")
tar -C "$fresh" -xzf "$tarball"
tar_version() {
    local output
    output=$(cd "$fresh" && env -i "./$top/bin/aasa" --version) || return 1
    [ "$(head -n 1 <<< "$output" | awk '{ print $NF }')" = "$version" ] || { say "  --version: $output"; return 1; }
}
check "env -i ./$top/bin/aasa --version says $version" tar_version
tar_verifies() { (cd "$fresh" && verifies_example env -i "./$top/bin/aasa"); }
check "env -i ./$top/bin/aasa verifies the example" tar_verifies
check "the tarball's help names its own share/doc/aasa/docs pages, and they are there" \
    help_pages_installed "$fresh/$top/bin/aasa" "$fresh/$top/share/doc/aasa/docs"

# 5. The OCI image, loaded and run with podman (Tests/AASAAuditTests/ContainerImageTests.swift:
# --version, verify and lint of mounted files, an audit of the test nginx, non-root, read-only).
scripts/ensure-deps.sh podman runc
image_runs() {
    AASA_OCI_ARCHIVE="$repo/$image" AASA_OCI_SHELL_ARCHIVE="$repo/$shell_image" AASA_OCI_VERSION="$version" \
        scripts/swift-test.sh --skip-build --filter 'ContainerImageTests' > "$work/image.log" 2>&1 ||
        { tail -n 60 "$work/image.log" >&2; return 1; }
    grep -Eq 'Test run with 2 tests .* passed' "$work/image.log" && ! grep -q 'skipped' "$work/image.log" ||
        { say "  the image tests did not run"; tail -n 20 "$work/image.log" >&2; return 1; }
    grep -E 'image (size|start-up)' "$work/image.log" | sed 's/^/    /' >&2 || true
}
check "the OCI images run with podman: verify, lint, audit, as non-root with a read-only root ($(stat -c %s "$image") bytes); docs/ci.md's GitLab jobs in the shell image ($(stat -c %s "$shell_image") bytes)" image_runs
