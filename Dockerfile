# One image for every Node app; the compose file picks the entry point per service.
FROM node:22-bookworm-slim AS build
WORKDIR /app
ENV CHECKPOINT_DISABLE=1
COPY . .
RUN npm ci --no-audit --no-fund && npx turbo run build

FROM node:22-bookworm-slim
WORKDIR /app
ENV NODE_ENV=production
COPY --from=build /app /app
EXPOSE 3000
CMD ["node", "apps/api/dist/main.js"]
