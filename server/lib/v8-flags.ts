// V8 settings for the server process, set before anything else is loaded (main.ts imports this
// first). Allocation-site pretenuring is off: V8 watches which object literals survive a minor GC
// and allocates their later copies in the old generation. Under load it picked Node's per-request
// objects (the tick objects of process.nextTick among them), so each request's whole object graph
// (request, response, header strings) was kept alive by dead old-space objects until the next
// full GC: about 11 MB promoted at every scavenge, and GET /auth/me cost 30–34 µs of CPU instead
// of 19–21 at the warn level (npm run bench, issue 25). Which way a process went was decided by
// timing at start. The server's long-lived data is built once at start, so it loses nothing.
import { setFlagsFromString } from 'node:v8';

setFlagsFromString('--no-allocation-site-pretenuring');
