# One image for every Node app; docker-compose.yml picks the entry point per service (docs/deploy.md).
# Build stage: the same steps CI runs (.ci/run: `npm ci`; scripts/test.mjs: `npx turbo run build`).
FROM node:22-bookworm-slim AS build
WORKDIR /app
ENV CHECKPOINT_DISABLE=1
COPY . .
RUN npm ci --no-audit --no-fund
RUN npx turbo run build --output-logs=errors-only

# Runtime stage: the built apps and their dependencies (the migrate job runs its TypeScript script
# with tsx, so development dependencies stay), without npm's cache, turbo's cache or the build's
# scratch files; runs as the unprivileged `node` user.
FROM node:22-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production CHECKPOINT_DISABLE=1
COPY --from=build --chown=node:node /app /app
RUN rm -rf /app/.turbo /app/node_modules/.cache && mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
CMD ["node", "apps/api/dist/main.js"]
