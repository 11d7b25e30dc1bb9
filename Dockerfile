# kapi in a container: `docker build -t kapi .` then
# `docker run -p 6443:6443 -v kapi-data:/data kapi` (SQLite in /data), or pass
# --storage-backend=etcd3 --etcd-servers=... (see docker-compose.yml).
FROM node:20-bookworm-slim AS build
WORKDIR /app
# better-sqlite3 compiles from source when no prebuilt binary can be fetched.
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
RUN npm ci
COPY tsconfig.json tsconfig.build.json ./
COPY src ./src
COPY bench ./bench
COPY bin ./bin
RUN npm run build && npm prune --omit=dev

FROM node:20-bookworm-slim
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY --from=build /app/bin ./bin
COPY package.json ./
EXPOSE 6443
VOLUME /data
HEALTHCHECK --interval=5s --timeout=3s --start-period=10s --retries=10 \
  CMD ["node", "-e", "require('https').get({host:'127.0.0.1',port:6443,path:'/readyz',rejectUnauthorized:false},r=>process.exit(r.statusCode===200?0:1)).on('error',()=>process.exit(1))"]
ENTRYPOINT ["node", "bin/kapi.js", "--bind-address=0.0.0.0", "--data-dir=/data"]
