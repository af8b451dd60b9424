# syntax=docker/dockerfile:1
# biblical-chat: build with `docker build -t biblical-chat .`; see docs/operators.md.

# Stage 1: production dependencies only, from the lock file. The full image has the toolchain that a
# native module would need; nothing of it reaches the runtime stage.
FROM node:20-bookworm AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# Stage 2: the slim runtime.
FROM node:20-bookworm-slim AS runtime
# util-linux gives setpriv, which ties an embedded Chroma child to this process (used when CHROMA_URL is unset).
RUN apt-get update \
 && apt-get install -y --no-install-recommends util-linux \
 && rm -rf /var/lib/apt/lists/*

# The C library's memory settings (MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_) are set by scripts/start.sh, which
# CMD runs, beside the Node flags (one place); `docker run -e` overrides them.
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false

WORKDIR /app
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
# The code stays root-owned and read-only to the service user; only /data is writable.
COPY --chown=root:root . .
# Compiled once here (esbuild, a production dependency), so the read-only image starts without a build.
RUN node scripts/build.mjs && mkdir -p /data && chown node:node /data
VOLUME ["/data"]

USER node
EXPOSE 8080
# node:*-slim has no curl; Node's own fetch probes liveness.
HEALTHCHECK --interval=15s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The same start as `npm start` (the Node flags live in scripts/start.sh), without npm in between: the
# shell execs into Node, so the init's SIGTERM reaches the service, which stops its embedded Chroma.
CMD ["sh", "scripts/start.sh"]
