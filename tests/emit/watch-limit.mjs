// Preloaded (`node --import`) into `site build --watch` by tests/emit/build-watch.test.ts: every fs.watch fails as
// it does when Linux's limit of inotify watches is reached, which a test cannot lower for one process.
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';

fs.watch = () => {
  throw Object.assign(new Error('ENOSPC: System limit for number of file watchers reached, watch'), { code: 'ENOSPC', syscall: 'watch' });
};
syncBuiltinESMExports();
