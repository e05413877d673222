#!/usr/bin/env bash
# Builds the OCI image of aasa (scripts/release.sh calls it) and writes it as an OCI archive:
#   scripts/build-image.sh BINARY VERSION OUT.tar [--with-shell]
# BINARY is the stripped, fully static aasa of the release. No base image is pulled from a
# registry: the image is one layer made here from scratch with buildah, holding only what the
# program needs at run time:
#   /usr/bin/aasa                           the static binary (ENTRYPOINT)
#   /etc/ssl/certs/ca-certificates.crt      Debian's CA bundle (package ca-certificates), for
#                                           audit and the system roots (SSL_CERT_FILE names it:
#                                           a static OpenSSL looks in /usr/lib/ssl otherwise)
#   /usr/share/doc/ca-certificates/copyright   its licence (MPL-2.0, and the certificates' terms)
#   /usr/share/doc/aasa/{LICENSE,NOTICE}    aasa's
#   /etc/passwd, /etc/group                 root and the user aasa (65532), whom it runs as
#   /etc/nsswitch.conf                      `hosts: files dns`: glibc 2.34 and later have the
#                                           files and dns sources inside libc, static or not, so
#                                           a static binary resolves names without any NSS module
#                                           (tested: a name from --add-host, i.e. /etc/hosts)
# OCI labels: title, description, version, licenses, revision (the commit), created (the last
# commit's time); no `source`, since the project has no public address. The image's name is
# localhost/aasa:VERSION (the archive's reference), which docs/audit.md's Kubernetes manifest
# uses after `podman load`.
#
# --with-shell builds localhost/aasa:VERSION-shell instead: the same files and configuration,
# plus Debian's statically linked busybox (package busybox-static, GPL-2.0, its copyright
# file beside it) as /bin/busybox with a link per applet in /bin (sh, mkdir, cat, …), for what
# runs a job's script in the image's own shell: a GitLab CI job (docs/ci.md), a Kubernetes
# command that needs `sh -c`, `podman run -it … sh` to look around. As distroless images have
# a :debug variant, the shell is a tag of its own, so that the plain image stays what the
# binary needs and nothing else.
# Needs buildah (installed here when missing, with ca-certificates); runs as root, with vfs
# storage in a temporary directory, so it leaves nothing in the machine's image store.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:?usage: scripts/build-image.sh BINARY VERSION OUT.tar}
version=${2:?usage: scripts/build-image.sh BINARY VERSION OUT.tar}
out=${3:?usage: scripts/build-image.sh BINARY VERSION OUT.tar [--with-shell]}
shell=${4:-}
case "$shell" in
    "") tag=$version; title=aasa ;;
    --with-shell) tag=$version-shell; title="aasa (with a shell)" ;;
    *) echo "build-image: the fourth argument can only be --with-shell, not '$shell'" >&2; exit 64 ;;
esac
scripts/ensure-deps.sh buildah ca-certificates
if [ -n "$shell" ]; then scripts/ensure-deps.sh busybox-static; fi
SOURCE_DATE_EPOCH=${SOURCE_DATE_EPOCH:-$(git log -1 --format=%ct)}
bundle=/etc/ssl/certs/ca-certificates.crt
[ -s "$bundle" ] || { echo "build-image: no CA bundle at $bundle (package ca-certificates)" >&2; exit 1; }

work=$(mktemp -d)
storage=(--storage-driver vfs --root "$work/storage" --runroot "$work/run")
container=""
cleanup() {
    if [ -n "$container" ]; then buildah "${storage[@]}" rm "$container" >/dev/null 2>&1 || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

rootfs="$work/rootfs"
install -D -m 755 "$binary" "$rootfs/usr/bin/aasa"
install -D -m 644 "$bundle" "$rootfs/etc/ssl/certs/ca-certificates.crt"
install -D -m 644 /usr/share/doc/ca-certificates/copyright "$rootfs/usr/share/doc/ca-certificates/copyright"
install -D -m 644 LICENSE "$rootfs/usr/share/doc/aasa/LICENSE"
if [ -f NOTICE ]; then install -D -m 644 NOTICE "$rootfs/usr/share/doc/aasa/NOTICE"; fi
printf 'root:x:0:0:root:/root:/sbin/nologin\naasa:x:65532:65532:aasa:/nonexistent:/sbin/nologin\n' > "$rootfs/etc/passwd"
printf 'root:x:0:\naasa:x:65532:\n' > "$rootfs/etc/group"
printf 'hosts: files dns\n' > "$rootfs/etc/nsswitch.conf"
if [ -n "$shell" ]; then
    install -D -m 755 /bin/busybox "$rootfs/bin/busybox"
    install -D -m 644 /usr/share/doc/busybox-static/copyright "$rootfs/usr/share/doc/busybox-static/copyright"
    for applet in $(/bin/busybox --list); do
        [ -e "$rootfs/bin/$applet" ] || ln -s busybox "$rootfs/bin/$applet"
    done
    # The applets that scripts find in /usr/bin (#!/usr/bin/env, …).
    mkdir -p "$rootfs/usr/bin"
    ln -s ../../bin/busybox "$rootfs/usr/bin/env"
fi
chmod 644 "$rootfs/etc/passwd" "$rootfs/etc/group" "$rootfs/etc/nsswitch.conf"
find "$rootfs" -exec touch -h -d "@$SOURCE_DATE_EPOCH" {} +

container=$(buildah "${storage[@]}" from scratch)
buildah "${storage[@]}" copy --chown 0:0 "$container" "$rootfs/" / >/dev/null
created=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%dT%H:%M:%SZ)
buildah "${storage[@]}" config \
    --entrypoint '["/usr/bin/aasa"]' --cmd '["--help"]' --user 65532:65532 --workingdir / \
    --env SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt --env SSL_CERT_DIR=/etc/ssl/certs \
    --label "org.opencontainers.image.title=$title" \
    --label "org.opencontainers.image.description=Check, verify, sign and migrate apple-app-site-association files" \
    --label "org.opencontainers.image.version=$version" \
    --label org.opencontainers.image.licenses=Apache-2.0 \
    --label "org.opencontainers.image.revision=$(git rev-parse HEAD)" \
    --label "org.opencontainers.image.created=$created" \
    "$container"
rm -f "$out"
buildah "${storage[@]}" commit --quiet --format oci --timestamp "$SOURCE_DATE_EPOCH" --disable-compression=false \
    "$container" "oci-archive:$out:localhost/aasa:$tag" >/dev/null
[ -s "$out" ] || { echo "build-image: buildah wrote no $out" >&2; exit 1; }
echo "$out"
