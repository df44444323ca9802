#!/usr/bin/env bash
# npm run test:image (issue 37): builds the Dockerfile here and runs a form through the image.
#
# No image registry is reachable from these machines, so the base image is made here: a minimal Debian
# (mmdebstrap, cached under $FORMSIGN_IMAGE_CACHE keyed by its inputs) plus the Node.js this machine runs,
# imported with `podman import`. The image is built with `podman build --isolation chroot`, its root
# file system exported (`podman create` + `podman export`), and `formsign serve` and `formsign worker`
# started in it with chroot as the image's non-root user (podman run needs cgroups this machine
# refuses). Then a form is created, sent, signed and downloaded through the HTTP API and the signed PDF
# checked with pdfsig. Needs root (mmdebstrap, podman, chroot, mount).
set -euo pipefail
SELF="$(readlink -f "$0")"
cd "$(dirname "$SELF")/.."
REPO="$PWD"
started=$(date +%s)
step_started=$started
step() {
  local now; now=$(date +%s)
  echo "test:image: [$((now - started)) s] $*"
  step_started=$now
}
fail() { echo "test:image: FAILED: $*" >&2; exit 1; }

[ "$(id -u)" = 0 ] || fail "needs root (mmdebstrap, podman build, chroot and mount)"

need_apt=()
command -v mmdebstrap >/dev/null || need_apt+=(mmdebstrap)
command -v podman >/dev/null || need_apt+=(podman)
command -v pdfsig >/dev/null || need_apt+=(poppler-utils)
if [ ${#need_apt[@]} -gt 0 ]; then
  step "installing ${need_apt[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
fi

# ---- the base image: minbase Debian + this machine's Node.js (node, npm, headers for node-gyp)
SUITE="${FORMSIGN_IMAGE_SUITE:-bookworm}"
MIRROR="${FORMSIGN_IMAGE_MIRROR:-http://deb.debian.org/debian}"
CACHE="${FORMSIGN_IMAGE_CACHE:-/var/cache/formsign-image}"
NODE_BIN="$(readlink -f "$(command -v node)")"
NODE_PREFIX="$(node -p 'require("path").resolve(process.execPath, "../..")')"
NPM_DIR="$NODE_PREFIX/lib/node_modules/npm"
[ -d "$NPM_DIR" ] && [ -f "$NODE_PREFIX/include/node/node.h" ] || fail "node's npm ($NPM_DIR) or headers ($NODE_PREFIX/include/node) are missing"
# Everything the tarball is made from: the mmdebstrap command below (its text in this file), the suite,
# the mirror, the node binary and npm's version. A change to any of them makes a new tarball.
RECIPE="$(sed -n '/^  mmdebstrap /,/"\$MIRROR"$/p' "$SELF")"
[ -n "$RECIPE" ] || fail "the mmdebstrap command is not where this script looks for it"
KEY="$( { echo "$RECIPE"; echo "$SUITE $MIRROR"; sha256sum "$NODE_BIN" | cut -d' ' -f1; node -p 'require(process.argv[1] + "/package.json").version' "$NPM_DIR"; } | sha256sum | cut -c1-16)"
BASE_TAR="$CACHE/base-$KEY.tar"
BASE_IMAGE="localhost/formsign-test-base:$KEY"
mkdir -p "$CACHE"
if [ ! -s "$BASE_TAR" ]; then
  step "making the base with mmdebstrap ($SUITE, $(node --version)) into $BASE_TAR"
  rm -f "$CACHE"/base-*.tar "$CACHE"/base-*.tar.tmp
  mmdebstrap --quiet --variant=minbase --mode=root --format=tar \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/locale/*' \
    --dpkgopt='path-exclude=/usr/share/info/*' \
    --customize-hook='rm -rf "$1"/var/lib/apt/lists/* "$1"/var/cache/apt/*.bin' \
    --customize-hook="install -D -m 755 '$NODE_BIN' \"\$1/usr/local/bin/node\"" \
    --customize-hook="mkdir -p \"\$1/usr/local/lib/node_modules\" \"\$1/usr/local/include\" && cp -a '$NPM_DIR' \"\$1/usr/local/lib/node_modules/npm\" && cp -a '$NODE_PREFIX/include/node' \"\$1/usr/local/include/node\"" \
    --customize-hook='ln -s ../lib/node_modules/npm/bin/npm-cli.js "$1/usr/local/bin/npm" && ln -s ../lib/node_modules/npm/bin/npx-cli.js "$1/usr/local/bin/npx"' \
    "$SUITE" "$BASE_TAR.tmp" "$MIRROR"
  mv "$BASE_TAR.tmp" "$BASE_TAR"
else
  step "base tarball cached: $BASE_TAR"
fi
if ! podman image exists "$BASE_IMAGE"; then
  step "importing the base as $BASE_IMAGE"
  podman import --quiet "$BASE_TAR" "$BASE_IMAGE" >/dev/null
  # The bases of earlier inputs, and what was built on them, are not used again.
  for old in $(podman images --format '{{.Repository}}:{{.Tag}}' localhost/formsign-test-base); do
    [ "$old" = "$BASE_IMAGE" ] || podman rmi --force "$old" >/dev/null 2>&1 || true
  done
fi

WORK="$(mktemp -d /var/tmp/formsign-image.XXXXXX)"
ROOTFS="$WORK/rootfs"
LOG="$WORK/serve.log"
WORKER_LOG="$WORK/worker.log"
pids=()
cleanup() {
  local status=$?
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  # Nothing of the image's user may outlive the run (it would hold the mounts).
  if [ -n "${IMAGE_USER:-}" ] && pgrep -u "${IMAGE_USER%%:*}" >/dev/null 2>&1; then
    echo "test:image: processes of user ${IMAGE_USER%%:*} still running after SIGTERM" >&2; status=1
  fi
  if [ $status -ne 0 ]; then
    for f in "$LOG" "$WORKER_LOG"; do [ -s "$f" ] && { echo "--- $f (last lines)"; tail -n 40 "$f"; }; done >&2
  fi
  umount "$ROOTFS/proc" 2>/dev/null || true
  umount "$ROOTFS/dev" 2>/dev/null || true
  # Only after both are gone: the tmpfs goes at once (rm -rf of its 30,000 files took 100 s on a busy disk).
  if ! mountpoint -q "$ROOTFS/proc" && ! mountpoint -q "$ROOTFS/dev"; then
    umount "$ROOTFS" 2>/dev/null || true
    mountpoint -q "$ROOTFS" || rm -rf "$WORK"
  fi
  exit $status
}
trap cleanup EXIT

# ---- the image, built from the repository's Dockerfile with the base as its build argument
IMAGE="localhost/formsign:test-image"
step "podman build --isolation chroot --build-arg BASE_IMAGE=$BASE_IMAGE"
# Docker format: OCI image configs have no HEALTHCHECK.
# The CA bundle npm trusts here (an egress proxy's CA may be in it), mounted for the build's RUN steps only.
ca_args=()
CAFILE="$(npm config get cafile 2>/dev/null || true)"
if [ -n "$CAFILE" ] && [ "$CAFILE" != null ] && [ -f "$CAFILE" ]; then
  ca_args=(-v "$CAFILE:/run/build-ca.crt:ro" --build-arg npm_config_cafile=/run/build-ca.crt)
fi
podman build --isolation chroot --format docker --layers --pull=never "${ca_args[@]}" \
  --build-arg "BASE_IMAGE=$BASE_IMAGE" -t "$IMAGE" -f Dockerfile . > "$WORK/build.log" 2>&1 \
  || { tail -n 40 "$WORK/build.log" >&2; fail "podman build (log above)"; }


step "exporting the image's root file system"
mkdir -p "$ROOTFS"
# In memory: written and thrown away each run, no disk I/O for either.
mount -t tmpfs -o size=3g,mode=755 formsign-image "$ROOTFS"
cid="$(podman create "$IMAGE" 2>"$WORK/podman.log")" || { cat "$WORK/podman.log" >&2; fail "podman create"; }
podman export "$cid" | tar -x -C "$ROOTFS"
# Its stderr: without systemd, podman says it could not remove the (never started) health-check timer.
podman rm "$cid" >/dev/null 2>>"$WORK/podman.log" || { cat "$WORK/podman.log" >&2; fail "podman rm"; }
podman image inspect "$IMAGE" > "$WORK/inspect.json"

# ---- what the image says about itself, and what it leaves out
node - "$WORK/inspect.json" "$ROOTFS" > "$WORK/run.env" <<'EOF'
const fs = require('fs');
const [file, rootfs] = process.argv.slice(2);
const image = JSON.parse(fs.readFileSync(file, 'utf8'))[0];
const c = image.Config;
const check = (ok, what) => { if (!ok) { console.error(`test:image: FAILED: ${what}`); process.exit(1); } };
check(/^[1-9]\d*(:[1-9]\d*)?$/.test(c.User ?? ''), `a numeric non-root USER (got ${JSON.stringify(c.User)})`);
check(c.Env.includes('DATA_DIR=/data') && Object.keys(c.Volumes ?? {}).includes('/data'), 'DATA_DIR=/data, a volume');
const health = image.Healthcheck ?? c.Healthcheck;
check(health && health.Test.join(' ').includes('/healthz'), `a HEALTHCHECK on /healthz (got ${JSON.stringify(health)})`);
check(JSON.stringify(c.Entrypoint) === '["formsign"]' && JSON.stringify(c.Cmd) === '["serve"]', `formsign serve by default (got ${JSON.stringify([c.Entrypoint, c.Cmd])})`);
for (const tool of ['qpdf', 'pdfsig', 'pdftoppm', 'g++', 'make', 'python3']) check(!fs.existsSync(`${rootfs}/usr/bin/${tool}`), `no ${tool} in the runtime`);
check(!fs.existsSync(`${rootfs}/app/src`) && !fs.existsSync(`${rootfs}/app/node_modules/vite`) && !fs.existsSync(`${rootfs}/app/node_modules/typescript`), 'no sources or development packages in the runtime');
const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
console.log(`IMAGE_USER=${q(c.User)}`);
console.log(`IMAGE_WORKDIR=${q(c.WorkingDir || '/')}`);
console.log(`IMAGE_ENV=(${c.Env.map(q).join(' ')})`);
console.log(`IMAGE_CMD=(${[...c.Entrypoint, ...c.Cmd].map(q).join(' ')})`);
console.log(`IMAGE_HEALTH=(${health.Test.slice(1).map(q).join(' ')})`);
console.log(`IMAGE_HEALTH_KIND=${q(health.Test[0])}`);
console.log(`IMAGE_SIZE_MB=${Math.round(image.Size / 1e6)}`);
EOF
# shellcheck disable=SC1091
. "$WORK/run.env"
[ "$IMAGE_HEALTH_KIND" = CMD ] || fail "HEALTHCHECK in exec form"

mount -t proc proc "$ROOTFS/proc"
mount --bind /dev "$ROOTFS/dev"
PORT="$(node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })')"
BASE="http://127.0.0.1:$PORT"
# As the image would run: its user, its environment (plus the port, the public address and the
# server without its inline worker), its working directory, its entrypoint and command.
# exec: the background job's pid is the process itself (via chroot, env and sh, each exec'ing the next).
in_image() {
  exec chroot --userspec="$IMAGE_USER" --groups="${IMAGE_USER#*:}" "$ROOTFS" /usr/bin/env -i "${IMAGE_ENV[@]}" PORT="$PORT" BASE_URL="$BASE" "$@"
}
step "starting '${IMAGE_CMD[*]}' and 'formsign worker' in the exported image as user $IMAGE_USER (image $IMAGE_SIZE_MB MB)"
in_image WORKER=off /bin/sh -c 'cd "$0" && exec "$@"' "$IMAGE_WORKDIR" "${IMAGE_CMD[@]}" > "$LOG" 2>&1 &
pids+=($!)
for _ in $(seq 1 120); do
  # /readyz: serve listens (and /healthz answers) before its start-up steps are done.
  curl -fsS "$BASE/readyz" >/dev/null 2>&1 && break
  kill -0 "${pids[0]}" 2>/dev/null || fail "formsign serve exited"
  sleep 0.5
done
curl -fsS "$BASE/healthz" >/dev/null || fail "/healthz"
curl -fsS "$BASE/readyz" >/dev/null || fail "/readyz"
# The worker after the server: the server's first start migrates and makes the demo account.
in_image /bin/sh -c 'cd "$0" && exec formsign worker' "$IMAGE_WORKDIR" > "$WORKER_LOG" 2>&1 &
pids+=($!)
( in_image /bin/sh -c 'cd "$0" && exec "$@"' "$IMAGE_WORKDIR" "${IMAGE_HEALTH[@]}" ) || fail "the image's HEALTHCHECK command"
for _ in $(seq 1 60); do grep -q 'is running' "$WORKER_LOG" && break; kill -0 "${pids[1]}" 2>/dev/null || fail "formsign worker exited"; sleep 0.5; done
grep -q 'is running' "$WORKER_LOG" || fail "formsign worker did not start"

step "create, send, sign and download a form through $BASE"
node "$REPO/scripts/test-image-flow.mjs" "$BASE" "$LOG" "$WORK/signed.pdf"
pdfsig "$WORK/signed.pdf" > "$WORK/pdfsig.txt" 2>&1 || true
grep -q 'Signature Validation: Signature is Valid.' "$WORK/pdfsig.txt" || { cat "$WORK/pdfsig.txt" >&2; fail "pdfsig: the signed PDF's signature is not valid"; }
grep -q 'Total document signed' "$WORK/pdfsig.txt" || { cat "$WORK/pdfsig.txt" >&2; fail "pdfsig: not the whole document signed"; }
# The data the processes wrote belongs to the image's user, in the volume.
owner="$(stat -c %u "$ROOTFS/data/formsign.sqlite" 2>/dev/null || stat -c %u "$(find "$ROOTFS/data" -mindepth 1 -maxdepth 1 | head -n1)")"
[ "$owner" = "${IMAGE_USER%%:*}" ] || fail "DATA_DIR files owned by $owner, not $IMAGE_USER"
step "pdfsig: $(grep -m1 'Signature Validation' "$WORK/pdfsig.txt" | sed 's/^ *- //')"
# SIGTERM, as a container stop sends it: both drain and exit 0.
for pid in "${pids[@]}"; do kill -TERM "$pid"; done
for i in "${!pids[@]}"; do
  code=0; wait "${pids[$i]}" || code=$?
  [ $code = 0 ] || fail "$( [ "$i" = 0 ] && echo serve || echo worker) exited $code on SIGTERM"
done
pids=()
echo "test:image: passed in $(( $(date +%s) - started )) s"
