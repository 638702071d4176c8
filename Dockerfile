# Depot in a container: the server built ahead (no compiling at start), the built web app, and
# Debian's Chromium (PDF documents). Everything comes from Debian's packages and the npm registry:
# Node.js 20 and Chromium are Debian 13's; native modules (better-sqlite3) compile against Debian's
# Node headers, and the others' binaries come inside their npm packages.
#
#   docker build -t depot .
#   docker run -p 3000:3000 -v depot-data:/data -e DEPOT_ADMIN_PASSWORD=change-me-now depot
#   docker compose up -d            (with PostgreSQL and Redis: compose.yaml)
# Operators' commands run in the container: docker compose exec depot node apps/server/dist/cli.js backup

ARG DEBIAN=trixie-slim

FROM debian:${DEBIAN} AS toolchain
RUN apt-get update \
 && apt-get install -y --no-install-recommends nodejs npm libnode-dev python3 make g++ ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && npm install -g npm@11.19.1 --no-audit --no-fund
# node-gyp builds against these headers rather than downloading Node's
ENV npm_config_nodedir=/usr
WORKDIR /app
COPY package.json package-lock.json ./
COPY packages/contracts/package.json packages/contracts/
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/

# what the server needs at run time, and nothing of the web app's or the tests' packages
FROM toolchain AS deps
RUN npm ci --omit=dev --workspace @depot/server --no-audit --no-fund

FROM toolchain AS build
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM debian:${DEBIAN}
# chromium renders PDF documents; postgresql-client brings pg_dump and pg_restore for backups of a
# PostgreSQL database (its major version must be at least the server's: Debian 13 has 17);
# tini reaps what Chromium leaves and passes signals on
RUN apt-get update \
 && apt-get install -y --no-install-recommends nodejs chromium postgresql-client tini tzdata ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --home-dir /data --shell /usr/sbin/nologin depot \
 && mkdir -p /data /backups && chown depot:depot /data /backups
WORKDIR /app
COPY --from=build /app/package.json ./package.json
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/apps/server/package.json ./apps/server/package.json
COPY --from=build /app/apps/server/assets ./apps/server/assets
COPY --from=build /app/apps/server/dist ./apps/server/dist
COPY --from=build /app/apps/web/dist ./apps/web/dist
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATABASE_URL=sqlite:/data/depot.sqlite \
    DEPOT_UPLOADS_DIR=/data/uploads \
    TZ=Asia/Phnom_Penh
USER depot
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/api/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
