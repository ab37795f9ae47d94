// The API server under V8's sampling profiler, for bench/profile.ts (`--cpu-prof` is not allowed
// in NODE_OPTIONS, and the server runs through tsx). The first SIGUSR2 starts the profiler (after
// start-up, so loading the modules is not in it), the next writes the profile to PROFILE_FILE, and
// so on: one profile per loaded call.
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';

const session = new Session();
session.connect();
session.post('Profiler.enable');
session.post('Profiler.setSamplingInterval', { interval: 200 });
let running = false;
process.on('SIGUSR2', () => {
  if (!running) {
    running = true;
    session.post('Profiler.start');
    return;
  }
  running = false;
  session.post('Profiler.stop', (err, result) => {
    if (!err) writeFileSync(process.env.PROFILE_FILE!, JSON.stringify(result.profile));
  });
});
await import('../server/main');
