/**
 * `site dev` and the render code (needs the compiled build/): with
 * `--source-root` at a copy of this project, a template edit reaches the open
 * page's reload; a template that does not compile leaves the pages as they
 * were and says why in the terminal; a template that throws shows its error
 * on the page; each fix is picked up without a restart.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireFreshBuild } from '../compiled.js';
import { ARTICLE, editJson, hashOf, openEvents, ROOT, request, type Running, type Sandbox, sandbox, startDev } from './helpers.js';

let box: Sandbox;
let project: string;
let dev: Running;
let template: string;
let original: string;

beforeAll(async () => {
  requireFreshBuild();
  box = sandbox();
  project = mkdtempSync(join(tmpdir(), 'site-dev-project-'));
  cpSync(join(ROOT, 'src'), join(project, 'src'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(project, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
  template = join(project, 'src/templates/Article.tsx');
  original = readFileSync(template, 'utf8');
  dev = await startDev(['--data-dir', box.data, '--source-root', project], box.root);
});

afterAll(async () => {
  await dev?.stop();
  box?.cleanup();
  if (project) rmSync(project, { recursive: true, force: true });
});

/** Edits the template and resolves with the next reload event of a tab open at the article. */
async function editAndWait(source: string, event = 'reload'): Promise<void> {
  const page = await request(dev.url, ARTICLE.path);
  const events = await openEvents(dev.url, ARTICLE.path, hashOf(page.text));
  try {
    await events.next('errors');
    const seen = events.events.length;
    writeFileSync(template, source);
    await events.next(event, seen, 20_000);
  } finally {
    events.close();
  }
}

describe('site dev and the render code', () => {
  it('reloads the open page with an edited template', async () => {
    expect((await request(dev.url, ARTICLE.path)).text).not.toContain('data-dev-test');
    await editAndWait(original.replace('<article className="article">', '<article className="article" data-dev-test="one">'));
    expect((await request(dev.url, ARTICLE.path)).text).toContain('data-dev-test="one"');
  });

  it('keeps the pages when a template does not compile, and takes the fix', async () => {
    const before = dev.stderr().length;
    writeFileSync(template, original.replace('<article className="article">', '<article className="article" data-dev-test="two"'));
    await expect.poll(() => dev.stderr().slice(before), { timeout: 20_000 }).toContain('the render code did not load');
    const page = await request(dev.url, ARTICLE.path);
    expect(page.status).toBe(200);
    expect(page.text).toContain('data-dev-test="one"');
    // Data edits still show meanwhile, rendered by the code that last loaded.
    const events = await openEvents(dev.url, ARTICLE.path, hashOf(page.text));
    try {
      await events.next('errors');
      const seen = events.events.length;
      editJson(box.data, ARTICLE.file, (a) => {
        a.headline = 'Edited while the template is broken';
      });
      await events.next('reload', seen);
    } finally {
      events.close();
    }
    expect((await request(dev.url, ARTICLE.path)).text).toContain('Edited while the template is broken');
    await editAndWait(original.replace('<article className="article">', '<article className="article" data-dev-test="three">'));
    expect((await request(dev.url, ARTICLE.path)).text).toContain('data-dev-test="three"');
  });

  it('shows the error of a template that throws, and the page again once fixed', async () => {
    await editAndWait(
      original.replace('<article className="article">', '{(() => { throw new Error("<b>template broke</b>"); })()}<article className="article">'),
    );
    const broken = await request(dev.url, ARTICLE.path);
    expect(broken.status).toBe(500);
    expect(broken.text).toContain('&lt;b&gt;template broke&lt;/b&gt;');
    expect(broken.text).toContain('/__site/dev.js');
    await editAndWait(original);
    const fixed = await request(dev.url, ARTICLE.path);
    expect(fixed.status).toBe(200);
    expect(fixed.text).not.toContain('data-dev-test');
  });
});
