/**
 * Vite compiles JSX for tests with React's development runtime (jsxDEV),
 * while vitest.config.ts runs them with NODE_ENV=production, where
 * react/jsx-dev-runtime exports no jsxDEV. Test files that render templates
 * map it onto the production runtime:
 *   vi.mock('react/jsx-dev-runtime', () => import('./jsx-dev-shim.js'));
 * Harmless once the config compiles JSX for production (oxc.jsx.development = false).
 */
import { Fragment as ReactFragment } from 'react';
import { jsx, jsxs } from 'react/jsx-runtime';

export const Fragment = ReactFragment;

export function jsxDEV(type: Parameters<typeof jsx>[0], props: Parameters<typeof jsx>[1], key: Parameters<typeof jsx>[2], isStaticChildren: boolean) {
  return isStaticChildren ? jsxs(type, props, key) : jsx(type, props, key);
}
