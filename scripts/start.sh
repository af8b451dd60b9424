#!/bin/sh
# The production start, used by `npm start` and by the Dockerfile: compile once (nothing to do when
# dist/ is current), then replace this shell with Node, so a signal sent to whoever started us reaches
# the service itself (npm forwards SIGTERM/SIGINT to its child; there is no shell in between to lose it).
# The Node flags live here and nowhere else:
#   --max-semi-space-size=4  a smaller young generation: under load peak RSS 345 MB instead of ~540 MB,
#                            throughput unchanged (measured for issue 11).
set -e
cd "$(dirname "$0")/.."
node scripts/build.mjs --if-stale
exec node --max-semi-space-size=4 dist/src/main.js "$@"
