# Kasa: one image for every service and for the migrate step.
#
#   docker build -t kasa .
#   docker run --rm kasa npx tsx services/gateway/src/main.ts          # gateway, ledger, webhook-worker, console
#   docker run --rm kasa npx tsx packages/db/src/cli/migrate.cli.ts    # apply prisma/migrations
#
# Configuration is environment variables only (docs/configuration.md). The image sets
# NODE_ENV=production, so the process refuses to start without DATABASE_URL, REDIS_URL, INTERNAL_TOKEN,
# OPS_BOOTSTRAP_TOKEN, SECRET_ENCRYPTION_KEY and CURSOR_SIGNING_KEY. No secret is baked into the image.

# ---- base: Node 20 and tini (PID 1 that forwards SIGTERM and reaps zombies) ----
FROM node:20-bookworm-slim AS base
ENV NPM_CONFIG_UPDATE_NOTIFIER=false \
    NPM_CONFIG_FUND=false
RUN apt-get update \
 && apt-get install -y --no-install-recommends tini \
 && rm -rf /var/lib/apt/lists/*

# ---- build: install the workspace and generate the Prisma client ----
FROM base AS build
RUN npm install -g pnpm@10
WORKDIR /app
# Dependencies first, from the lockfile alone, so a source change does not refetch them.
COPY pnpm-lock.yaml pnpm-workspace.yaml ./
RUN pnpm fetch
COPY . .
RUN pnpm install --frozen-lockfile --offline
# Prisma's native schema engine is not needed for `generate` (the client runs on @prisma/adapter-pg);
# pointing PRISMA_SCHEMA_ENGINE_BINARY at any file keeps the CLI from trying to download it.
RUN PRISMA_SCHEMA_ENGINE_BINARY=/usr/local/bin/node npx prisma generate

# ---- runtime ----
FROM base AS runtime
ENV NODE_ENV=production \
    NPM_CONFIG_CACHE=/tmp/.npm
WORKDIR /app
# Source and node_modules stay owned by root: the service user can read but not change its own code.
# tsx and npm write only under /tmp (an emptyDir in k8s, so the root filesystem can be read-only).
COPY --from=build /app /app
USER node
EXPOSE 8080 8081 8082 8083
ENTRYPOINT ["/usr/bin/tini", "--"]
# Each service overrides this (docker-compose.yml, k8s/): npx tsx services/<name>/src/main.ts
CMD ["npx", "tsx", "services/gateway/src/main.ts"]
