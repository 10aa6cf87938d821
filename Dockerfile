# Kasa: one image for every service and for the migrate step. It runs compiled JavaScript (npm run build,
# scripts/build.mjs) with production dependencies only: no TypeScript, no tsx, no dev tools.
#
#   docker build -t kasa .
#   docker run --rm kasa                                       # gateway (the default CMD)
#   docker run --rm kasa node services/ledger/dist/main.js     # ledger, webhook-worker, console likewise
#   docker run --rm kasa node packages/db/dist/migrate.js      # apply prisma/migrations
#
# tini is the ENTRYPOINT (PID 1: forwards SIGTERM to node, reaps zombies); a service overrides CMD only:
# Compose `command:`, Kubernetes `args:` (a Kubernetes `command:` would replace tini).
#
# Configuration is environment variables only (docs/configuration.md). The image sets
# NODE_ENV=production, so the process refuses to start without DATABASE_URL, REDIS_URL, INTERNAL_TOKEN,
# OPS_BOOTSTRAP_TOKEN, SECRET_ENCRYPTION_KEY and CURSOR_SIGNING_KEY. No secret is baked into the image.

# ---- base: Node 24 LTS and tini (the build and the runtime stages both start here) ----
FROM node:24-bookworm-slim AS base
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*

# ---- pnpm: every package of the lockfile in pnpm's store, so a source change does not refetch them ----
FROM base AS pnpm
RUN npm install -g pnpm@10
WORKDIR /app
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
# The workspace's patches of dependencies (pnpm-workspace.yaml, patchedDependencies): every install below applies them
# (the deps stage, built on this one, has them too).
COPY patches ./patches
RUN pnpm fetch

# ---- build: install the workspace, generate the Prisma client and the derived sources, compile the services ----
FROM pnpm AS build
COPY . .
RUN pnpm install --frozen-lockfile --offline
# Prisma's native schema engine is not needed for `generate` (the client runs on @prisma/adapter-pg);
# pointing PRISMA_SCHEMA_ENGINE_BINARY at any file keeps the CLI from trying to download it.
RUN PRISMA_SCHEMA_ENGINE_BINARY=/usr/local/bin/node npx prisma generate
# The sources the tree derives from itself, gitignored and not in the context (the schema's tables, the record kinds'
# lists): scripts/setup.mjs writes them elsewhere, and the bundles import them.
RUN node scripts/generate-sources.mjs
# services/*/dist/main.js and packages/db/dist/migrate.js (the workspace's code and the Prisma client bundled in).
RUN node scripts/build.mjs --force
# The manifests alone, for the production install below (it then changes only when they do).
RUN mkdir /manifests \
 && cp package.json pnpm-lock.yaml pnpm-workspace.yaml /manifests/ \
 && find packages services -mindepth 2 -maxdepth 2 -name package.json -exec cp --parents {} /manifests/ \;

# ---- deps: the production dependencies of what runs (the services and the migrate step), nothing else ----
FROM pnpm AS deps
COPY --from=build /manifests/ ./
# --no-optional leaves out optional peers such as the Prisma CLI (and TypeScript) behind @prisma/client.
RUN pnpm install --prod --frozen-lockfile --offline --ignore-scripts --no-optional \
      --filter "./services/*" --filter @kasa/db \
 # The Prisma runtime ships a query compiler for every database; Kasa runs on PostgreSQL only. Type
 # declarations and source maps of dependencies are not used at run time either.
 && find node_modules/.pnpm -path '*/@prisma/client/runtime/*' \
      \( -name '*.sqlite.*' -o -name '*.mysql.*' -o -name '*.sqlserver.*' -o -name '*.cockroachdb.*' \) -delete \
 && find node_modules/.pnpm -type f \( -name '*.d.ts' -o -name '*.d.mts' -o -name '*.d.cts' -o -name '*.map' \) -delete

# ---- runtime ----
FROM base AS runtime
ENV NODE_ENV=production
WORKDIR /app
# Everything stays owned by root: the service user can read but not change its own code, and nothing is
# written at run time (the root filesystem can be read-only).
COPY --from=deps /app/node_modules ./node_modules
COPY --from=deps /app/services/gateway/node_modules ./services/gateway/node_modules
COPY --from=deps /app/services/ledger/node_modules ./services/ledger/node_modules
COPY --from=deps /app/services/webhook-worker/node_modules ./services/webhook-worker/node_modules
COPY --from=deps /app/services/console/node_modules ./services/console/node_modules
COPY --from=deps /app/packages/db/node_modules ./packages/db/node_modules
COPY --from=build /app/services/gateway/dist ./services/gateway/dist
COPY --from=build /app/services/ledger/dist ./services/ledger/dist
COPY --from=build /app/services/webhook-worker/dist ./services/webhook-worker/dist
COPY --from=build /app/services/console/dist ./services/console/dist
# The migrate step, and the migrations it applies (the ledger's readiness compares the database with them).
COPY --from=build /app/packages/db/dist ./packages/db/dist
COPY --from=build /app/prisma/migrations ./prisma/migrations
USER node
EXPOSE 8080 8081 8082 8083
ENTRYPOINT ["/usr/bin/tini", "--"]
# Each service overrides this (docker-compose.yml `command:`, k8s `args:`): node services/<name>/dist/main.js
CMD ["node", "services/gateway/dist/main.js"]
