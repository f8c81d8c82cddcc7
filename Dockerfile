# syntax=docker/dockerfile:1
# The bot runs from dist/, bundled by the same step `npm start` runs first (scripts/build.js: Node's
# own type stripping, then rolldown, a development dependency, so the build stage installs them
# all). dist/ holds every package the bot uses, and their licences (dist/THIRD_PARTY_LICENSES):
# the image has no node_modules.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY scripts ./scripts
COPY locales ./locales
COPY src ./src
RUN ["node", "--disable-warning=ExperimentalWarning", "scripts/build.js"]

FROM node:24-bookworm-slim
ENV NODE_ENV=production
WORKDIR /app
# package.json for "type": "module"; the locales' strings are bundled into dist/ (src/i18n.ts).
COPY package.json ./
COPY --from=build /app/dist ./dist
# The store (settings, button state) lives in a volume so that it outlasts the container.
ENV DATA_DIR=/app/data
RUN mkdir -p /app/data && chown node:node /app/data
VOLUME ["/app/data"]
# /healthz, /readyz and /metrics (and the webhook) listen here; the health check probes /healthz
# with node itself, as the slim image has no curl.
ENV PORT=8080
EXPOSE 8080
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + process.env.PORT + '/healthz', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
USER node
# The same start command as `npm start` (a test holds them equal); node receives SIGTERM directly
# from `docker stop`, whose default 10 s before SIGKILL fits SHUTDOWN_GRACE_MS (7 s) plus the
# offset confirmation and the store's close; a longer grace needs `--stop-timeout` (see README).
# The V8 flags size the heap for this bot instead of from the host's memory (the export and watch
# memory budgets derive from it), and keep V8 from allocating an object literal's objects in the
# old generation on the evidence of one scavenge, a costly GC mode for the process's whole life:
# docs/performance.md.
CMD ["node", "--max-semi-space-size=16", "--max-old-space-size=192", "--no-allocation-site-pretenuring", "dist/main.js"]
