/** The browser code is outside tsconfig.json (DOM, bundler resolution): type-check it with its own config. */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

it('src/client type-checks with tsconfig.client.json', () => {
  const root = fileURLToPath(new URL('../../', import.meta.url));
  const tsc = spawnSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.client.json', '--pretty', 'false'], {
    cwd: root,
    encoding: 'utf8',
  });
  expect(tsc.stdout + tsc.stderr).toBe('');
  expect(tsc.status).toBe(0);
});
