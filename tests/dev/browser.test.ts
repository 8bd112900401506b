/**
 * `site dev` in Chromium (playwright-core, /usr/bin/chromium): an edit to an
 * article's JSON shows in the open page without a manual reload; a broken
 * data file puts an overlay naming the file over the page, and fixing it
 * removes the overlay and reloads the page; a template edit is picked up
 * without a restart. The server runs on a temporary copy of data/ and, for
 * the template, on a temporary copy of the project's src/ (--source-root).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from '../e2e/harness.js';
import { requireFreshBuild } from '../compiled.js';
import { ARTICLE, ROOT, editJson, type Running, type Sandbox, sandbox, startDev } from './helpers.js';

let box: Sandbox;
let project: string;
let dev: Running;
let browser: Browser;
let page: Page;
const cspErrors: string[] = [];

beforeAll(async () => {
  requireFreshBuild();
  box = sandbox();
  // A project of its own whose templates the test may change: src/ copied, the dependencies shared.
  project = mkdtempSync(join(tmpdir(), 'site-dev-project-'));
  cpSync(join(ROOT, 'src'), join(project, 'src'), { recursive: true });
  cpSync(join(ROOT, 'package.json'), join(project, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'));
  dev = await startDev(['--data-dir', box.data, '--source-root', project], box.root);
  browser = await launchChromium();
  page = await browser.newPage();
  page.on('console', (m) => {
    if (/Content.Security.Policy/i.test(m.text())) cspErrors.push(m.text());
  });
});

afterAll(async () => {
  await browser?.close();
  await dev?.stop();
  box?.cleanup();
  if (project) rmSync(project, { recursive: true, force: true });
});

/** The page's dev script has its event stream open. */
const connected = () => page.locator('html[data-site-dev="connected"]').waitFor({ timeout: 10_000 });
/** Marks the document: a reload (a new document) loses the mark. */
const mark = () => page.evaluate(() => void ((window as unknown as { devMark: boolean }).devMark = true));
const marked = () => page.evaluate(() => (window as unknown as { devMark?: boolean }).devMark === true).catch(() => false);
/**
 * Opens a page of the dev server. A live reload the last test started may still be under way, and Chromium
 * then drops the navigation asked for ("interrupted by another navigation"): it is asked for again.
 */
async function open(path: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await page.goto(dev.url + path);
      return;
    } catch (err) {
      if (attempt === 3 || !/interrupted by another navigation/.test((err as Error).message)) throw err;
      await page.waitForLoadState('load');
    }
  }
}

describe('site dev in Chromium', () => {
  it('shows an edit to the article JSON in the open page, with no manual reload', async () => {
    await open(ARTICLE.path);
    await expect(page.locator('h1').textContent()).resolves.toBe('5-HTP Benefits: What Research Says');
    // Connected to the event stream before the edit.
    await connected();
    await mark();
    editJson(box.data, ARTICLE.file, (a) => {
      a.headline = 'Edited while open <i>live</i>';
    });
    await page.locator('h1', { hasText: 'Edited while open <i>live</i>' }).waitFor({ timeout: 10_000 });
    expect(await marked()).toBe(false);
    expect(await page.locator('h1 i').count()).toBe(0);
  });

  it('shows a broken data file in an overlay naming it, and removes it and reloads when fixed', async () => {
    await connected();
    editJson(box.data, ARTICLE.file, (a) => {
      a.date = '<img src=x onerror=alert(1)>';
    });
    const overlay = page.locator('#site-dev-overlay');
    await overlay.waitFor({ timeout: 10_000 });
    const text = await overlay.textContent();
    expect(text).toContain(ARTICLE.file);
    expect(text).toContain('/date');
    expect(text).toContain('load/schema');
    // The last good page stays under the overlay, and nothing of the content became markup.
    expect(await page.locator('h1').textContent()).toBe('Edited while open <i>live</i>');
    expect(await page.locator('#site-dev-overlay img').count()).toBe(0);

    await mark();
    editJson(box.data, ARTICLE.file, (a) => {
      a.date = '2024-10-08';
    });
    await overlay.waitFor({ state: 'detached', timeout: 10_000 });
    await expect.poll(marked, { timeout: 10_000 }).toBe(false);
  });

  it('picks up a template edit without a restart', async () => {
    await open(ARTICLE.path);
    await connected();
    expect(await page.locator('[data-dev-test="template-edited"]').count()).toBe(0);
    const template = join(project, 'src/templates/Article.tsx');
    const source = readFileSync(template, 'utf8');
    expect(source).toContain('<article className="article">');
    writeFileSync(template, source.replace('<article className="article">', '<article className="article" data-dev-test="template-edited">'));
    await page.locator('article[data-dev-test="template-edited"]').waitFor({ timeout: 20_000 });
    expect(dev.stderr()).toMatch(/templates\/Article\.tsx changed: render code reloaded/);
    expect(cspErrors).toEqual([]);
  });
});
