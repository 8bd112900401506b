import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { extended } from '../../src/core/objects.js';
import { requireFreshBuild } from '../compiled.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

describe('extended', () => {
  it('makes a new object with the base properties, then the extra ones, the extra ones winning', () => {
    const base = { path: '/a', screen: 'home', meta: { title: 't' } };
    const made = extended(base, { screen: 'about', output: 'a/index.html' });
    expect(made).toEqual({ path: '/a', screen: 'about', meta: { title: 't' }, output: 'a/index.html' });
    expect(Object.keys(made)).toEqual(['path', 'screen', 'meta', 'output']);
    expect(made).not.toBe(base);
    expect(base).toEqual({ path: '/a', screen: 'home', meta: { title: 't' } });
    expect(made.meta).toBe(base.meta);
  });

  describe('in a fresh Node process', () => {
    beforeAll(requireFreshBuild);

    // The reason it exists: objects made over and over from like objects share one hidden class (V8's %HaveSameMap),
    // where on Node 20 a spread gives nearly each its own. The sources are deserialised, as the check's stored
    // routes and the build record's entries are.
    it('gives the objects it makes from like objects one hidden class', () => {
      const script = `
        const { extended } = await import(${JSON.stringify(pathToFileURL(path.join(ROOT, 'build/src/core/objects.js')).href)});
        const { serialize, deserialize } = await import('node:v8');
        const sources = deserialize(serialize(Array.from({ length: 2000 }, (_, i) => ({ path: '/p' + i, screen: 'product', nodeid: 'n' + i, meta: {} }))));
        const made = sources.map((s, i) => extended(s, { output: 'p' + i + '/index.html', declarations: ['/' + i] }));
        let shared = 0;
        for (const o of made) if (%HaveSameMap(o, made[0])) shared++;
        process.stdout.write(String(shared));
      `;
      const out = execFileSync(process.execPath, ['--allow-natives-syntax', '--input-type=module', '-e', script], { encoding: 'utf8' });
      expect(Number(out)).toBe(2000);
    });
  });
});
