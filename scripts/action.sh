#!/usr/bin/env bash
# The entry point of the GitHub Action (action.yml): runs `aasa ARGS` as the runner gives them.
#   INPUT_ARGS              the command line after `aasa` (split with Python's shlex: quotes as in
#                           a shell, nothing expanded: no globs, no variables)
#   INPUT_SARIF             when set: `--format sarif` is added and standard output goes there
#   INPUT_DEB               when set: that .deb is installed first (apt-get, with sudo unless root)
#   INPUT_FAIL_ON_FINDINGS  'false': exit status 1 of aasa does not fail the step
#   GITHUB_OUTPUT           receives `exit-code=N`
# Exits with aasa's status (0 for 1 when INPUT_FAIL_ON_FINDINGS is false); 2 with one line when
# the inputs cannot be used.
set -uo pipefail
fail() { echo "aasa action: error: $*" >&2; exit 2; }

if [ -n "${INPUT_DEB:-}" ]; then
    [ -f "$INPUT_DEB" ] || fail "deb: no such file: $INPUT_DEB"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    deb=$INPUT_DEB
    case "$deb" in /*) ;; *) deb="./$deb" ;; esac
    $sudo apt-get install -y -qq "$deb" >/dev/null || fail "deb: apt-get could not install $INPUT_DEB"
fi
command -v aasa >/dev/null || fail "no aasa on PATH: install it first, or give the .deb as 'deb'"

words_file=$(mktemp)
trap 'rm -f "$words_file"' EXIT
python3 -c '
import shlex, sys
try:
    words = shlex.split(sys.argv[1])
except ValueError as error:
    sys.exit(str(error))
sys.stdout.write("".join(word + "\0" for word in words))
' "${INPUT_ARGS:-}" > "$words_file" 2>/dev/null || fail "args: cannot split '${INPUT_ARGS:-}' into words (an unclosed quote?)"
words=()
while IFS= read -r -d '' word; do words+=("$word"); done < "$words_file"
[ "${#words[@]}" -gt 0 ] || fail "args is empty: give the command line after 'aasa', e.g. 'lint site/'"

if [ -n "${INPUT_SARIF:-}" ]; then
    aasa "${words[@]}" --format sarif > "$INPUT_SARIF"
else
    aasa "${words[@]}"
fi
status=$?
if [ -n "${GITHUB_OUTPUT:-}" ]; then echo "exit-code=$status" >> "$GITHUB_OUTPUT"; fi
if [ "$status" -eq 1 ] && [ "${INPUT_FAIL_ON_FINDINGS:-true}" = false ]; then exit 0; fi
exit "$status"
