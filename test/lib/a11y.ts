// The accessibility check of a page in Playwright: axe-core's rules (its serious and critical
// violations: names, labels, ARIA roles and references, landmarks, ids, contrast...), then what axe
// does not check in this app's widgets: a tab list has one Tab stop, the selected tab (roving
// tabindex), each tab controls a named tab panel, and the board grid has a name. It returns one line
// per violation (axe's: rule id, impact, target selectors); [] when the page passes.
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

interface AxeResult {
  id: string;
  impact?: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core's serious and critical violations on the page, injected once per page. */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(c: Document, o: object): Promise<{ violations: AxeResult[] }> } })
      .axe;
    return (await axe.run(document, { resultTypes: ['violations'] })).violations.map(({ id, impact, help, nodes }) => ({
      id,
      impact,
      help,
      nodes: nodes.map((n) => ({ target: n.target })),
    }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** The tab list's and the grid's semantics, which axe does not check. */
export function widgetViolations(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const describe = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}`;
    const byId = (id: string) => document.getElementById(id);
    const name = (el: Element): string => {
      const labelled = el.getAttribute('aria-labelledby');
      if (labelled)
        return labelled
          .split(/\s+/)
          .map((id) => byId(id)?.textContent ?? '')
          .join(' ')
          .trim();
      return (el.getAttribute('aria-label') ?? '').trim();
    };
    // a tab list: each tab controls a tab panel; one tab is the list's Tab stop, the selected one
    for (const list of Array.from(document.querySelectorAll('[role=tablist]'))) {
      const tabs = Array.from(list.querySelectorAll('[role=tab]')) as HTMLElement[];
      for (const tab of tabs)
        if (byId(tab.getAttribute('aria-controls') ?? '')?.getAttribute('role') !== 'tabpanel')
          out.push(`tab without its tab panel: ${describe(tab)}`);
      const stops = tabs.filter((t) => t.tabIndex >= 0);
      if (stops.length !== 1 || stops[0].getAttribute('aria-selected') !== 'true')
        out.push(`tab list ${describe(list)}: ${stops.length} Tab stops, not just the selected tab`);
    }
    for (const panel of Array.from(document.querySelectorAll('[role=tabpanel]')))
      if (!name(panel)) out.push(`tab panel without a name: ${describe(panel)}`);
    for (const grid of Array.from(document.querySelectorAll('[role=grid]')))
      if (!name(grid)) out.push(`grid without a name: ${describe(grid)}`);
    return out;
  });
}

/** Both checks: axe-core's serious and critical violations, and the widgets' semantics. */
export async function a11yViolations(page: Page): Promise<string[]> {
  return [...(await axeViolations(page)), ...(await widgetViolations(page))];
}
