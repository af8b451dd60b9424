#!/bin/sh
# The production start, used by `npm start` and by the Dockerfile: compile once (nothing to do when
# dist/ is current), then replace this shell with Node, so a signal sent to whoever started us reaches
# the service itself (npm forwards SIGTERM/SIGINT to its child; there is no shell in between to lose it).
# The Node flags live here and nowhere else (measured with BENCH_ONLY=service npm run bench:chat,
# the service alone under autocannon -c 32; figures in docs/performance.md):
#   --max-semi-space-size=4     a smaller young generation (V8's default is 16 MB per semi-space).
#   --heap-growing-percent=35   after a full GC the old generation may grow to 1.35x what is live before the
#                               next one, instead of up to 4x: under load the service's peak RSS was
#                               433-439 MB with the first flag alone and 233-235 MB with both (at 50), at the
#                               same CPU per request (12.4-12.8 ms). 35 rather than 50 (session 12): 4-9 MB
#                               lower peaks under unique-question chats and searches, the same CPU a request;
#                               25 cost 3-7 ms a request (session 9). No cap on the heap, so no new out-of-memory.
# And two C library settings (glibc; musl ignores them):
#   MALLOC_ARENA_MAX=2          glibc's malloc gives each thread that allocates (V8's GC helpers, libuv's
#                               pool, the corpus worker at start) an arena of its own, up to 8 per core,
#                               and what one frees stays mapped there: 2 arenas cut the service's RSS by
#                               16-28 MB at rest and under load, at the same req/s (bench:memory, docs/performance.md).
#   MALLOC_MMAP_THRESHOLD_=131072
#                               glibc serves a request of 128 KB or more with a mapping of its own, handed back
#                               to the kernel when freed; by default it raises that threshold (up to 32 MB) each
#                               time such a block is freed, and later large buffers then come from the arenas,
#                               where what is freed stays in the RSS: in five alternated bench:memory runs
#                               4-16 MB less at rest and peaks of 279-284 MB against 284-304 (one more run
#                               alone read 296, VmHWM 300), no more CPU a chat in bench:pair
#                               (docs/performance.md, session 22). The embedded Chroma inherits both.
#                               An operator's own values win.
set -e
cd "$(dirname "$0")/.."
node scripts/build.mjs --if-stale
export MALLOC_ARENA_MAX="${MALLOC_ARENA_MAX:-2}"
export MALLOC_MMAP_THRESHOLD_="${MALLOC_MMAP_THRESHOLD_:-131072}"
exec node --max-semi-space-size=4 --heap-growing-percent=35 dist/src/main.js "$@"
