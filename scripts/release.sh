#!/usr/bin/env bash
# Builds what a user installs into dist/ (the directory is emptied first):
#   aasa-VERSION-linux-ARCH.tar.gz  aasa-VERSION/{bin/aasa, share/man/man1/aasa.1 and a page per
#                                   subcommand (aasa-verify.1, …), completions for
#                                   bash, zsh and fish, share/doc/aasa/{README.md, docs/},
#                                   LICENSE, NOTICE, README.md, CHANGELOG.md}
#   aasa_VERSION_DEBARCH.deb        /usr/bin/aasa, its man pages, completions, copyright, and
#                                   /usr/share/doc/aasa/{README.md, docs/}; no Depends: the
#                                   program is fully static
# The documentation keeps the repository's layout (README.md beside docs/), so that its links
# work, and the help texts name the installed pages (Sources/aasa/Support/InstalledDocs.swift).
#   aasa-VERSION-linux-ARCH-oci.tar   the OCI image localhost/aasa:VERSION (scripts/build-image.sh:
#                                   the static binary and a CA bundle, no base image), for
#                                   `podman load -i` / `docker load -i`
#   aasa-VERSION-linux-ARCH-shell-oci.tar   localhost/aasa:VERSION-shell: the same with busybox
#                                   as /bin/sh, for CI jobs that run a script in the image
#                                   (GitLab CI: docs/ci.md)
#   SHA256SUMS                      of the four, in `sha256sum -c` format
# VERSION is the last word of the first line of `aasa --version`.
#
# The binary is scripts/build-static.sh's (.build-static), stripped. The man page comes from
# swift-argument-parser's generate-manual plugin, which builds the package's executables in
# debug in AASA_MANUAL_SCRATCH_PATH (default .build, where CI's scripts/test.sh has already
# built them, so that it costs no second build there). Timestamps in the tarball and the .deb
# are those of the last commit (SOURCE_DATE_EPOCH), owners are root: two runs on one tree give
# the same bytes. The image's files and creation time are the commit's too, but buildah's
# archive is not byte-identical from run to run (its own metadata), so it is not promised.
#
# Progress goes to stderr; the artefacts' paths, one a line, to stdout.
# Environment: AASA_MAINTAINER (the .deb's Maintainer; default: the last commit's author),
# AASA_MANUAL_SCRATCH_PATH, AASA_DEB_XZ_LEVEL (default 6). lintian is run on the .deb when it
# is installed (never fatal; it is not installed for this).
set -euo pipefail
cd "$(dirname "$0")/.."
umask 022
export LC_ALL=C.UTF-8 TZ=UTC

say() { echo "release: $*" >&2; }
die() { say "error: $*"; exit 1; }
phase_start=0
phase() { phase_start=$(date +%s%N); say "$*"; }
phase_done() { say "  done in $(awk -v ns=$(( $(date +%s%N) - phase_start )) 'BEGIN { printf "%.1f s", ns / 1e9 }')"; }

[ -f LICENSE ] || die "no LICENSE at the top of the repository: a release must say under which licence it is distributed"

# strip and readelf (binutils), file; dpkg-deb and gzip are essential packages.
scripts/ensure-deps.sh binutils file

SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct 2>/dev/null || date +%s)}
export SOURCE_DATE_EPOCH

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# 1. The fully static binary, stripped.
phase "building the static binary (scripts/build-static.sh)"
binary=$(scripts/build-static.sh)
mkdir -p "$work/bin"
strip --strip-all --remove-section=.comment --remove-section=.note -o "$work/bin/aasa" "$binary"
aasa="$work/bin/aasa"
# build-static.sh refuses a dynamic binary; check the stripped copy that ships, three ways.
description=$(file -b "$aasa")
case "$description" in
    *"statically linked"* | *"static-pie linked"*) ;;
    *) die "$binary is not static: $description" ;;
esac
if ldd "$aasa" >/dev/null 2>&1; then die "ldd sees shared libraries in $binary: $(ldd "$aasa" 2>&1 | tr '\n' ' ')"; fi
if readelf -d "$aasa" 2>/dev/null | grep -q '(NEEDED)'; then die "$binary has NEEDED entries"; fi
if readelf -l "$aasa" | grep -q 'INTERP'; then die "$binary asks for a program interpreter"; fi
version=$("$aasa" --version | head -n 1 | awk '{ print $NF }')
[[ "$version" =~ ^[0-9][0-9A-Za-z.+~]*$ ]] || die "'aasa --version' gives '$version', not a version"
say "  aasa $version: $(stat -c %s "$binary") bytes, $(stat -c %s "$aasa") stripped; $description"
phase_done

# 2. The man page (one page, every subcommand in it).
manual_scratch=${AASA_MANUAL_SCRATCH_PATH:-.build}
manual_date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)
phase "generating the man page (generate-manual plugin, debug, in $manual_scratch)"
manual_out="$manual_scratch/plugins/GenerateManual/outputs/aasa/aasa.1"
rm -f "$manual_out"
if ! swift package --scratch-path "$manual_scratch" generate-manual --configuration debug \
        --date "$manual_date" > "$work/manual.log" 2>&1; then
    cat "$work/manual.log" >&2
    die "the generate-manual plugin failed"
fi
if [ ! -s "$manual_out" ]; then
    cat "$work/manual.log" >&2
    die "the generate-manual plugin wrote no $manual_out"
fi
# The generator leaves the blank lines of multi-paragraph help in the mdoc source, which groff
# warns about (and lintian reports): make each a paragraph break.
# The help names the docs where the binary runs; the page names the installed ones.
sed -e 's/^$/.Pp/' -e "s#docs/\([a-z-]*\.md\) in aasa's source#/usr/share/doc/aasa/docs/\1#g" "$manual_out" > "$work/aasa.1"
# A page per subcommand (aasa-verify.1, …: `man aasa-verify`), from the generator's multi-page
# manual, with EXIT STATUS, EXAMPLES, ENVIRONMENT and FILES (scripts/man-pages.py).
manual_dir=$(dirname "$manual_out")
rm -f "$manual_dir"/aasa.*.1
if ! swift package --scratch-path "$manual_scratch" generate-manual --multi-page --configuration debug \
        --date "$manual_date" > "$work/manual.log" 2>&1; then
    cat "$work/manual.log" >&2
    die "the generate-manual plugin failed (--multi-page)"
fi
mkdir -p "$work/man"
python3 scripts/man-pages.py "$manual_dir" "$work/man" > "$work/man-pages.txt" || die "scripts/man-pages.py failed"
sed -i 's/^$/.Pp/' "$work"/man/*.1
say "  $(wc -l < "$work/man-pages.txt") subcommand pages"
phase_done

# 3. Shell completions, from the binary that ships. The bash one is sourced, not run: no #!.
phase "generating completions"
for shell in bash zsh fish; do
    "$aasa" --generate-completion-script "$shell" | sed '1{/^#!/d}' > "$work/completion.$shell"
    [ -s "$work/completion.$shell" ] || die "no $shell completion script"
done
phase_done

# Every file of both archives gets the last commit's time.
stamp() { find "$1" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +; }

# 4. The tarball (packed in the background, while the .deb is built; gzip -9 would make it
# 0.5 % smaller for twice the time).
phase "packing"
rm -rf dist
mkdir dist
arch=$(uname -m)
top="aasa-$version"
tree="$work/tar/$top"
install -D -m 755 "$aasa" "$tree/bin/aasa"
install -D -m 644 "$work/aasa.1" "$tree/share/man/man1/aasa.1"
install -m 644 "$work"/man/*.1 "$tree/share/man/man1/"
install -D -m 644 "$work/completion.bash" "$tree/share/bash-completion/completions/aasa"
install -D -m 644 "$work/completion.zsh" "$tree/share/zsh/site-functions/_aasa"
install -D -m 644 "$work/completion.fish" "$tree/share/fish/vendor_completions.d/aasa.fish"
for doc in LICENSE NOTICE README.md CHANGELOG.md; do
    if [ -f "$doc" ]; then install -m 644 "$doc" "$tree/$doc"; fi
done
# install_docs DIR: README.md and the committed docs/ into DIR.
install_docs() {
    install -D -m 644 README.md "$1/README.md"
    git ls-files -z docs | while IFS= read -r -d '' page; do install -D -m 644 "$page" "$1/$page"; done
}
install_docs "$tree/share/doc/aasa"
stamp "$tree"
tarball="dist/aasa-$version-linux-$arch.tar.gz"
(
    set -o pipefail
    tar --sort=name --mtime="@$SOURCE_DATE_EPOCH" --owner=0 --group=0 --numeric-owner \
        --format=gnu -C "$work/tar" -cf - "$top" | gzip -n > "$tarball"
) &
tar_pid=$!

# 5. The Debian package.
deb_arch=$(dpkg --print-architecture)
root="$work/deb"
install -D -m 755 "$aasa" "$root/usr/bin/aasa"
mkdir -p "$root/usr/share/man/man1"
gzip -9n < "$work/aasa.1" > "$root/usr/share/man/man1/aasa.1.gz"
for page in "$work"/man/*.1; do gzip -9n < "$page" > "$root/usr/share/man/man1/$(basename "$page").gz"; done
install -D -m 644 "$work/completion.bash" "$root/usr/share/bash-completion/completions/aasa"
install -D -m 644 "$work/completion.zsh" "$root/usr/share/zsh/vendor-completions/_aasa"
install -D -m 644 "$work/completion.fish" "$root/usr/share/fish/vendor_completions.d/aasa.fish"
maintainer=${AASA_MAINTAINER:-$(git log -1 --format='%an <%ae>')}
# A native package's changelog.gz is a Debian changelog; the project's own one goes beside it.
mkdir -p "$root/usr/share/doc/aasa"
{
    echo "aasa ($version) unstable; urgency=medium"
    echo
    if [ -f CHANGELOG.md ]; then
        echo "  * aasa $version: see /usr/share/doc/aasa/CHANGELOG.md.gz."
    else
        echo "  * aasa $version."
    fi
    echo
    echo " -- $maintainer  $(date -R -u -d "@$SOURCE_DATE_EPOCH")"
} | gzip -9n > "$root/usr/share/doc/aasa/changelog.gz"
if [ -f CHANGELOG.md ]; then
    gzip -9n < CHANGELOG.md > "$root/usr/share/doc/aasa/CHANGELOG.md.gz"
fi
install_docs "$root/usr/share/doc/aasa"
# A static binary is this package's point, not a mistake.
mkdir -p "$root/usr/share/lintian/overrides"
echo "aasa: statically-linked-binary [usr/bin/aasa]" > "$root/usr/share/lintian/overrides/aasa"

# The copyright file: aasa's licence, then what the static binary contains besides aasa.
checkout_version() {
    local dir=".build-static/checkouts/$1"
    git -C "$dir" describe --tags --exact-match 2>/dev/null || git -C "$dir" rev-parse --short HEAD 2>/dev/null || echo "?"
}
deb_version() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "?"; }
swift_version=$(swift --version 2>&1 | sed -n 's/.*Swift version \([^ ]*\).*/\1/p' | head -n 1)
{
    echo "aasa $version"
    echo
    # Debian's copyright files refer to the common licences instead of copying them.
    if head -n 5 LICENSE | grep -q 'Apache License' && head -n 5 LICENSE | grep -q 'Version 2.0'; then
        echo "Licensed under the Apache License, Version 2.0: /usr/share/common-licenses/Apache-2.0"
    else
        cat LICENSE
    fi
    if [ -f NOTICE ]; then echo; cat NOTICE; fi
    cat <<EOF

-------------------------------------------------------------------------------
/usr/bin/aasa is a fully static program. Besides aasa it contains:

- the Swift ${swift_version:-?} runtime, standard library, Foundation and Dispatch
  (https://swift.org): Apache License 2.0 with Runtime Library Exception,
  /usr/share/common-licenses/Apache-2.0 and https://swift.org/LICENSE.txt;
  Foundation includes ICU data (Unicode License V3, https://www.unicode.org/license.txt)
- swift-argument-parser $(checkout_version swift-argument-parser), swift-nio $(checkout_version swift-nio), swift-nio-ssl $(checkout_version swift-nio-ssl)
  (with BoringSSL), swift-atomics $(checkout_version swift-atomics), swift-collections $(checkout_version swift-collections),
  swift-system $(checkout_version swift-system) (https://github.com/apple): Apache License 2.0,
  /usr/share/common-licenses/Apache-2.0; their NOTICE files follow
- llhttp (in swift-nio): MIT licence, below
- OpenSSL (Debian libssl-dev $(deb_version libssl-dev)): Apache License 2.0,
  /usr/share/common-licenses/Apache-2.0
- the GNU C Library (Debian libc6-dev $(deb_version libc6-dev)): GNU Lesser General Public
  License 2.1 or later, /usr/share/common-licenses/LGPL-2.1
EOF
    for notice in .build-static/checkouts/swift-nio/NOTICE.txt .build-static/checkouts/swift-nio-ssl/NOTICE.txt \
            .build-static/checkouts/swift-nio/Sources/CNIOLLHTTP/LICENSE; do
        if [ -f "$notice" ]; then
            printf '\n-------------------------------------------------------------------------------\n%s:\n\n' \
                "${notice#.build-static/checkouts/}"
            cat "$notice"
        fi
    done
} > "$work/copyright"
install -D -m 644 "$work/copyright" "$root/usr/share/doc/aasa/copyright"

# Installed-Size as dpkg-gencontrol counts it: KiB per file, rounded up, and 1 per directory.
installed_size=$(find "$root" -mindepth 1 \( -type f -printf '%s\n' -o -printf '1024\n' \) |
    awk '{ total += int(($1 + 1023) / 1024) } END { print total }')
mkdir -p "$root/DEBIAN"
cat > "$root/DEBIAN/control" <<EOF
Package: aasa
Version: $version
Architecture: $deb_arch
Maintainer: $maintainer
Installed-Size: $installed_size
Section: utils
Priority: optional
Description: check, verify, sign and migrate apple-app-site-association files
 aasa handles the legacy, signed side of Apple's app-site association:
 apple-app-site-association files served as application/pkcs7-mime. It
 detects, verifies (signature, chain, purpose, host, expiry), lints,
 matches URLs as iOS does, signs like the historical openssl smime recipe,
 extracts, converts and migrates them to the current plain JSON format,
 and audits live deployments over HTTPS.
 .
 The program is fully static: it depends on no other package.
EOF
(cd "$root" && find usr -type f -print0 | LC_ALL=C sort -z | xargs -0 md5sum) > "$root/DEBIAN/md5sums"
chmod 644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
stamp "$root"
deb="dist/aasa_${version}_${deb_arch}.deb"
# xz -6 (dpkg-deb's default) makes 19 MB in about 35 s on 2 cores; -1, which
# scripts/test-release.sh asks for, 22 MB in 4 s.
dpkg-deb --root-owner-group -Zxz -z"${AASA_DEB_XZ_LEVEL:-6}" --build "$root" "$deb" >/dev/null
wait "$tar_pid" || die "packing $tarball failed"

phase_done

# 6. The OCI images: the binary alone, and with a shell.
phase "building the OCI images (scripts/build-image.sh)"
image="dist/aasa-$version-linux-$arch-oci.tar"
shell_image="dist/aasa-$version-linux-$arch-shell-oci.tar"
scripts/build-image.sh "$aasa" "$version" "$image" >/dev/null || die "scripts/build-image.sh failed"
scripts/build-image.sh "$aasa" "$version" "$shell_image" --with-shell >/dev/null ||
    die "scripts/build-image.sh --with-shell failed"
(cd dist && sha256sum -- "${tarball#dist/}" "${deb#dist/}" "${image#dist/}" "${shell_image#dist/}" > SHA256SUMS)
phase_done

if command -v lintian >/dev/null; then
    phase "lintian $deb (not fatal)"
    lintian --info "$deb" >&2 || true
    phase_done
fi

say "artefacts:"
for artefact in "$tarball" "$deb" "$image" "$shell_image" dist/SHA256SUMS; do
    say "  $artefact ($(stat -c %s "$artefact") bytes)"
    echo "$artefact"
done
