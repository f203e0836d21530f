# barrage's image: the package as `npm pack` makes it, installed as a user installs it, with its
# production dependencies, on a supported Node (docs/install.md, "The Docker image"). From the
# root of a checkout:
#   docker build -t barrage .
#   docker run --rm --network host -v "$PWD:/work" barrage run load.yaml
# test/package/dockerfile.test.ts checks this file; test/install/global-install.test.ts replays
# the install below without Docker (the packed tarball into a prefix of its own) and runs the
# installed barrage on a YAML configuration and a TypeScript scenario.

# The checkout built and packed. Its npm ci installs the devDependencies the build needs; they stay
# in this stage.
FROM node:24-bookworm-slim AS pack
WORKDIR /src
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build && npm pack --pack-destination /pack

# The tarball installed globally, production dependencies only. Both isolated-vm releases are
# optional dependencies of the package and install from their prebuilt binaries for Node 24, so
# TypeScript scenarios run (a checkout's `npm prune --omit=dev` would drop them: the lockfile marks
# them dev for the checkout's own sake, docs/install.md). npm's cache lives under $PACK and goes
# with it: nothing of the install stays in the image but the installed package.
FROM node:24-bookworm-slim
ARG PACK=/tmp/barrage-pack
COPY --from=pack /pack/ ${PACK}/
RUN npm install --global --omit=dev --no-audit --no-fund --foreground-scripts \
      --cache "$PACK/npm-cache" "$PACK"/barrage-cli-*.tgz \
    && rm -rf "$PACK"
# The node user (uid 1000) of the base image; /work, where a configuration is mounted, is its own.
RUN install -d -o node -g node /work
USER node
WORKDIR /work
ENTRYPOINT ["barrage"]
CMD ["--help"]
