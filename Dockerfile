# The site's server (pages, lead relay, console, analytics) as one image: `docker build -t site .`,
# or compose.yaml for PostgreSQL, three servers and a load balancer. The content studio is not in it:
# it owns a git checkout and runs once per site, beside the servers (see the README).

# --- Build: every dependency, then the site (dist/: pages, console app, route table, ROI numbers).
FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
# Baked into the pages at build time: the public origin, and the commit /build.json names (there is
# no .git in the image, so CI passes it, e.g. --build-arg BUILD_COMMIT=$GITHUB_SHA).
ARG SITE_URL
ARG BUILD_COMMIT
RUN npm run build

# --- Run: the same Node 24 base, production dependencies only, and only what the server runs.
FROM node:24-slim
WORKDIR /app
ENV NODE_ENV=production
COPY package.json package-lock.json ./
# `node` is a devDependency (it pins Node 24 for development); here the base image is Node 24.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
# The server runs its TypeScript directly (erasable syntax): these folders are everything
# `server/main.ts` and the `npm run leads` / `npm run users` commands import (a test checks the list).
COPY --from=build /app/server ./server
COPY --from=build /app/lead ./lead
COPY --from=build /app/back-office ./back-office
COPY --from=build /app/content-model ./content-model
COPY --from=build /app/console/api-types.ts ./console/api-types.ts
COPY --from=build /app/renderer/build-settings.ts ./renderer/build-settings.ts
COPY --from=build /app/renderer/public-settings.ts ./renderer/public-settings.ts
COPY --from=build /app/dist ./dist
# The code belongs to root and is only read; the server's user may write only data/ (SQLite, when
# DATABASE_URL is not set).
RUN mkdir -p data && chown node:node data
USER node
# Listen on every interface of the container; the balancer (or -p) decides who reaches it.
ENV HOST=0.0.0.0 PORT=4321
EXPOSE 4321
# Ready, not merely alive: the store answers, the schema is current and the server is not draining.
# No curl in slim images: Node's own fetch asks.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 4321) + '/readyz').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server/main.ts"]
