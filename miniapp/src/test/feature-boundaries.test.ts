// The client's layers, checked on every test run (the server's are checked by its compiler):
// - `lib/`, `components/` and `config/` are below the features: they import no feature and not
//   `app/`;
// - a feature imports no other feature's internals, only its public `index.ts`
//   (`@/features/games`, never `@/features/games/game-card`), and never `app/`;
// - `app/` is the top and may import anything.
import { describe, expect, it } from 'vitest';

// Every source file's text, keyed by its path under `src/` (read by Vite, so no Node types here).
const SOURCES = Object.fromEntries(
  Object.entries(
    import.meta.glob<string>(['/src/**/*.{ts,tsx}', '!/src/**/*.d.ts'], { query: '?raw', import: 'default', eager: true }),
  ).map(([path, text]) => [path.replace(/^\/src\//, ''), text]),
);

/** `a/b/../c/./d` → `a/c/d`. */
function normalize(path: string): string {
  const out: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') out.pop();
    else if (part !== '.' && part !== '') out.push(part);
  }
  return out.join('/');
}

function dirname(path: string): string {
  return path.split('/').slice(0, -1).join('/');
}

/** Every module a file (a path under `src/`) imports — static, dynamic, re-exports — as a path under `src/`. */
export function importsOf(file: string, text: string): string[] {
  const specs = [
    ...text.matchAll(/(?:^|\s)(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]/g),
    ...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g),
    ...text.matchAll(/^import\s+['"]([^'"]+)['"]/gm),
  ].map((m) => m[1] ?? '');
  return specs.flatMap((spec) => {
    if (spec.startsWith('@/')) return [normalize(spec.slice(2))];
    if (spec.startsWith('.')) return [normalize(`${dirname(file)}/${spec}`)];
    return [];
  });
}

/** What is wrong with `from` (a path under `src/`) importing `target`, if anything. */
export function violation(from: string, target: string): string | undefined {
  const [top, feature] = from.split('/');
  const [targetTop, targetFeature, ...rest] = target.split('/');
  // The entry (main.tsx) and the client it boots (boot.tsx) sit above app/.
  if (top === 'app' || top === 'test' || top === 'main.tsx' || top === 'boot.tsx') return undefined;
  if (targetTop === 'app') return 'imports app/, which is above it';
  if (top !== 'features') {
    return targetTop === 'features' ? `${top}/ is below the features and imports one` : undefined;
  }
  if (targetTop === 'features' && targetFeature !== feature && rest.length > 0 && rest.join('/') !== 'index') {
    return `reaches into the internals of features/${targetFeature ?? ''} (import @/features/${targetFeature ?? ''})`;
  }
  return undefined;
}

describe('feature boundaries', () => {
  it('tells the allowed imports from the forbidden ones', () => {
    expect(violation('features/home/home-page.tsx', 'features/games')).toBeUndefined();
    expect(violation('features/home/home-page.tsx', 'features/home/home.module.css')).toBeUndefined();
    expect(violation('features/home/home-page.tsx', 'features/games/game-row')).toMatch(/internals of features\/games/);
    expect(violation('features/home/home-page.tsx', 'app/router')).toMatch(/above/);
    expect(violation('lib/format.ts', 'features/games')).toMatch(/below the features/);
    expect(violation('app/router.tsx', 'features/games/game-page')).toBeUndefined();
    expect(importsOf('features/a/b.ts', "import { x } from '../c/d';\nconst y = import('@/app/z');")).toEqual([
      'features/c/d',
      'app/z',
    ]);
  });

  it('holds in every source file', () => {
    const problems: string[] = [];
    expect(Object.keys(SOURCES).length).toBeGreaterThan(100);
    for (const [from, text] of Object.entries(SOURCES)) {
      for (const target of importsOf(from, text)) {
        const problem = violation(from, target);
        if (problem) problems.push(`${from} → ${target}: ${problem}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
