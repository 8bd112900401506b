/**
 * The HTML report in a real browser: it renders, its tables sort on header
 * click, it logs no console errors and requests nothing outside itself.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderHtmlReport } from '../../src/audit/html.js';
import { FAULTS, audit } from '../audit/helpers.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

describe('audit.html in Chromium', () => {
  let browser: Browser;
  let dir: string;
  let file: string;

  beforeAll(async () => {
    if (!existsSync(CHROMIUM)) throw new Error(`Chromium is missing at ${CHROMIUM}: run \`apt-get install chromium\``);
    const report = await audit(FAULTS);
    // Content is untrusted: a hostile title must stay text.
    report.pages[0].title = '<img src=x onerror="console.error(\'xss\')">';
    dir = mkdtempSync(join(tmpdir(), 'audit-report-'));
    file = join(dir, 'audit.html');
    writeFileSync(file, renderHtmlReport(report));
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('renders, sorts its tables on header click, logs no errors and makes no requests', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') errors.push(msg.text());
    });
    page.on('pageerror', (err) => errors.push(err.message));
    page.on('request', (req) => {
      if (!req.url().startsWith('file:')) requests.push(req.url());
    });
    await page.goto(pathToFileURL(file).href);

    await expect(page.locator('h1').textContent()).resolves.toContain('SEO audit of');
    expect(await page.locator('.chart').count()).toBe(2);
    expect(await page.locator('#pages tbody tr').count()).toBeGreaterThan(60);
    expect(await page.locator('#pages tbody').textContent()).toContain('<img src=x onerror');

    const column = async (table: string, index: number) =>
      page.locator(`#${table} tbody tr`).evaluateAll((rows, i) => rows.map((r) => (r as HTMLTableRowElement).cells[i].textContent ?? ''), index);
    // Words (numeric), ascending then descending.
    const words = page.locator('#pages th button', { hasText: 'Words' });
    await words.click();
    const asc = (await column('pages', 3)).map(Number);
    expect(asc).toEqual([...asc].sort((a, b) => a - b));
    expect(await page.locator('#pages th[aria-sort=ascending]').textContent()).toContain('Words');
    await words.click();
    const desc = (await column('pages', 3)).map(Number);
    expect(desc).toEqual([...asc].sort((a, b) => b - a));
    // URL (text).
    await page.locator('#pages th button', { hasText: 'URL' }).click();
    const urls = await column('pages', 0);
    expect(urls).toEqual([...urls].sort((a, b) => a.localeCompare(b)));
    expect(urls[0]).not.toEqual(desc[0]);
    // Another table sorts too.
    await page.locator('#rules th button', { hasText: 'Count' }).click();
    const counts = (await column('rules', 2)).map(Number);
    expect(counts).toEqual([...counts].sort((a, b) => a - b));

    expect(errors).toEqual([]);
    expect(requests).toEqual([]);
    await page.close();
  });

  it('fits a 1,280 px window and opens a page view (findings, inlinks, outlinks) from a URL', async () => {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    await page.goto(pathToFileURL(file).href);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1280);
    await expect(page.locator('#page-view').isHidden()).resolves.toBe(true);
    // The broken-link page: its finding, the home page linking to it, its own outlinks.
    await page.locator('#pages a', { hasText: /^\/faults\/links-broken$/ }).click();
    const view = page.locator('#page-view');
    // The view opens on the click's hashchange: wait for it rather than look at once (it fails if it never shows).
    await view.waitFor({ state: 'visible', timeout: 10_000 });
    const text = (await view.textContent()) ?? '';
    expect(text).toContain('links/broken');
    expect(text).toContain('/faults/does-not-exist');
    expect(await view.locator('h3', { hasText: 'Inlinks' }).textContent()).toBe('Inlinks (1)');
    await view.locator('a', { hasText: /^\/$/ }).first().click();
    await view.locator('h2', { hasText: /^Page \/$/ }).waitFor({ timeout: 10_000 });
    await expect(view.locator('h2').textContent()).resolves.toBe('Page /');
    expect(errors).toEqual([]);
    await page.close();
  });
});
