# Formsign's container image (issue 37): `formsign serve` (the default) and `formsign worker`.
#   docker build -t formsign .                                   # on the official Node image
#   docker build --build-arg BASE_IMAGE=my-registry/node:22 -t formsign .
# BASE_IMAGE is any Debian-like image with Node.js 20.19+ (or 22.12+) and npm, used to build and to run.
# `npm run test:image` builds this file on a base made with mmdebstrap and runs a form through it.
ARG BASE_IMAGE=docker.io/library/node:22-bookworm-slim

# ---- deps: every package (better-sqlite3 is compiled when its prebuilt binary cannot be fetched).
# Its layers change only with package-lock.json, so a source change rebuilds none of them.
FROM ${BASE_IMAGE} AS deps
WORKDIR /app
RUN node -e 'const [a, b] = process.versions.node.split(".").map(Number); if (!(a > 22 || (a === 22 && b >= 12) || (a === 20 && b >= 19))) { console.error(`Formsign needs Node.js 20.19+ or 22.12+; BASE_IMAGE has ${process.version}`); process.exit(1); }'
RUN if ! command -v g++ >/dev/null || ! command -v make >/dev/null || ! command -v python3 >/dev/null; then \
      apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends g++ make python3 \
      && rm -rf /var/lib/apt/lists/*; \
    fi
COPY package.json package-lock.json ./
# Behind a TLS-intercepting proxy: its CA bundle, mounted for the build only
# (podman build -v /etc/ssl/certs/ca-certificates.crt:/run/build-ca.crt:ro --build-arg npm_config_cafile=/run/build-ca.crt).
ARG npm_config_cafile
# Install scripts only for the two packages that have one (the root's `prepare` needs src/, copied
# later). node-gyp takes Node's headers from the image (no download) when it compiles better-sqlite3.
RUN --mount=type=cache,target=/root/.npm,sharing=locked \
    export npm_config_update_notifier=false npm_config_nodedir="$(node -p 'require("path").resolve(process.execPath, "../..")')" \
    && npm ci --ignore-scripts --no-audit --no-fund \
    && npm rebuild better-sqlite3 esbuild

# ---- prod-deps: the same without the development packages (the compiled better-sqlite3 kept).
FROM deps AS prod-deps
RUN npm prune --omit=dev --ignore-scripts --no-audit --no-fund \
    && node -e 'require("better-sqlite3")(":memory:").prepare("select 1").get()'

# ---- build: dist/ (the server) and web/dist/ (the dashboard).
FROM deps AS build
COPY . .
RUN node scripts/build.mjs && node scripts/build-web.mjs

# ---- runtime: Node, the compiled server, the dashboard and the production packages. No qpdf or
# poppler: the server reads, fills and seals PDFs in JavaScript and starts no programs.
FROM ${BASE_IMAGE} AS runtime
# A fixed numeric user (Kubernetes' runAsNonRoot can check it) that owns only DATA_DIR.
RUN grep -q '^formsign:' /etc/group || echo 'formsign:x:10001:' >> /etc/group; \
    grep -q '^formsign:' /etc/passwd || echo 'formsign:x:10001:10001:Formsign:/data:/usr/sbin/nologin' >> /etc/passwd; \
    mkdir -p /data && chown 10001:10001 /data && chmod 700 /data; \
    ln -s /app/bin/formsign.js /usr/local/bin/formsign
WORKDIR /app
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/package.json /app/LICENSE ./
COPY --from=build /app/bin ./bin
COPY --from=build /app/scripts/build.mjs ./scripts/build.mjs
COPY --from=build /app/openapi ./openapi
COPY --from=build /app/clients/embed/src ./clients/embed/src
COPY --from=build /app/dist ./dist
COPY --from=build /app/web/dist ./web/dist
# Listening on every address of the container; data (SQLite, files, the self-signed sealing
# certificate) under /data unless DATABASE_URL and S3_* point elsewhere.
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 DATA_DIR=/data LOG_FORMAT=json
VOLUME ["/data"]
EXPOSE 3000
USER 10001:10001
HEALTHCHECK --interval=30s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT || 3000}/healthz`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["formsign"]
CMD ["serve"]
