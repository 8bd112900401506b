/**
 * robots.txt: the validation Lighthouse's robots-txt audit applies, and
 * Google's matching (longest pattern wins, Allow wins ties, `*` and `$`).
 */
export interface RobotsProblem {
  line: number;
  text: string;
  message: string;
}

interface Rule {
  allow: boolean;
  pattern: string;
}

export interface ParsedRobots {
  problems: RobotsProblem[];
  sitemaps: Array<{ url: string; line: number }>;
  /** Rule groups by lower-case user agent. */
  groups: Map<string, Rule[]>;
}

const KNOWN = new Set(['user-agent', 'disallow', 'allow', 'sitemap', 'crawl-delay', 'clean-param', 'host', 'request-rate', 'visit-time', 'noindex']);

export function parseRobots(text: string): ParsedRobots {
  const problems: RobotsProblem[] = [];
  const sitemaps: ParsedRobots['sitemaps'] = [];
  const groups = new Map<string, Rule[]>();
  let agents: string[] = [];
  let lastWasAgent = false;
  text.split(/\r\n|\r|\n/).forEach((raw, i) => {
    const line = i + 1;
    const hash = raw.indexOf('#');
    const content = (hash === -1 ? raw : raw.slice(0, hash)).trim();
    if (content === '') return;
    const problem = (message: string): void => void problems.push({ line, text: raw, message });
    const colon = content.indexOf(':');
    if (colon === -1) return problem('Syntax not understood (expected "directive: value")');
    const directive = content.slice(0, colon).trim().toLowerCase();
    const value = content.slice(colon + 1).trim();
    if (!KNOWN.has(directive)) return problem(`Unknown directive "${directive}"`);
    if (directive === 'sitemap') {
      sitemaps.push({ url: value, line });
      return;
    }
    if (directive === 'user-agent') {
      if (!value) return problem('No user-agent specified');
      if (!lastWasAgent) agents = [];
      agents.push(value.toLowerCase());
      for (const a of agents) if (!groups.has(a)) groups.set(a, []);
      lastWasAgent = true;
      return;
    }
    lastWasAgent = false;
    if (directive === 'allow' || directive === 'disallow') {
      if (agents.length === 0) return problem('No user-agent specified before this rule');
      if (value !== '' && value[0] !== '/' && value[0] !== '*') return problem('Pattern should either be empty, start with "/" or "*"');
      const dollar = value.indexOf('$');
      if (dollar !== -1 && dollar !== value.length - 1) return problem('"$" should be used only at the end of the pattern');
      if (value === '') return; // An empty Disallow allows everything.
      for (const a of agents) groups.get(a)!.push({ allow: directive === 'allow', pattern: value });
    }
  });
  return { problems, sitemaps, groups };
}

function patternToRegExp(pattern: string): RegExp {
  const anchored = pattern.endsWith('$');
  const body = (anchored ? pattern.slice(0, -1) : pattern)
    .split('*')
    .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp('^' + body + (anchored ? '$' : ''));
}

/** The rules Googlebot obeys: its own group, else `*`. */
export function googlebotRules(robots: ParsedRobots): Array<Rule & { re: RegExp }> {
  const rules = robots.groups.get('googlebot') ?? robots.groups.get('*') ?? [];
  return rules.map((rule) => ({ ...rule, re: patternToRegExp(rule.pattern) }));
}

/** The Disallow pattern that blocks the path, or null when crawling is allowed. */
export function blockedBy(rules: ReadonlyArray<Rule & { re: RegExp }>, path: string): string | null {
  let best: (Rule & { re: RegExp }) | null = null;
  for (const rule of rules) {
    if (!rule.re.test(path)) continue;
    if (!best || rule.pattern.length > best.pattern.length || (rule.pattern.length === best.pattern.length && rule.allow)) best = rule;
  }
  return best && !best.allow ? best.pattern : null;
}
